"""Every limit a command applies when none is given is written in its ``--help``
(issue 30: the README's campaign ran into a 300 s limit per run that neither
``--help`` nor the README stated)."""

from __future__ import annotations

import argparse

import pytest

from trailkit.solvers.frontends.cli.app import build_parser


def _limit_options() -> list[tuple[str, argparse.Action]]:
    """Every ``--...-limit`` option of every command, with the command's name."""
    found: list[tuple[str, argparse.Action]] = []

    def visit(parser: argparse.ArgumentParser, command: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    visit(child, f"{command} {name}".strip())
            elif any(o.endswith("-limit") for o in action.option_strings):
                found.append((command, action))

    visit(build_parser(), "")
    return found


@pytest.mark.parametrize("command, action", _limit_options(),
                         ids=lambda x: x if isinstance(x, str) else x.option_strings[0])
def test_every_limit_option_states_its_default(command: str, action: argparse.Action) -> None:
    """``--time-limit``, ``--work-limit``, ``--memory-limit``, ``--cpu-limit``: the help
    of each says what holds without it."""
    assert "default" in (action.help or ""), f"trailkit {command} {action.option_strings[0]}"


def test_the_defaults_written_are_the_defaults_applied() -> None:
    """The numbers in the help are the ones the code uses: compare's time limit per run
    and the direct backend's search-node limit."""
    from trailkit.solvers.backends.direct.exhaustive import DEFAULT_WORK_LIMIT
    from trailkit.solvers.campaigns.isolation import DEFAULT_TIMEOUT_S
    from trailkit.solvers.frontends.cli.options import DIRECT_WORK_LIMIT

    assert DIRECT_WORK_LIMIT == DEFAULT_WORK_LIMIT
    helps = {(c, a.option_strings[0]): a.help or "" for c, a in _limit_options()}
    assert f"default {DEFAULT_TIMEOUT_S:g}" in helps[("compare", "--time-limit")]
    assert f"{DEFAULT_WORK_LIMIT:,}" in helps[("solve", "--work-limit")]
    assert "default: none" in helps[("solve", "--time-limit")]


def _time_limits() -> list[tuple[str, argparse.Action]]:
    return [(c, a) for c, a in _limit_options() if "--time-limit" in a.option_strings]


@pytest.mark.parametrize("command, action", _time_limits(),
                         ids=lambda x: x if isinstance(x, str) else "")
@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "-1", "0", "1e999"])
def test_every_time_limit_refuses_what_is_no_time(command: str, action: argparse.Action,
                                                  text: str) -> None:
    """``--time-limit nan`` was accepted by ``design`` and ``inspect`` (exit 3 at once;
    ``inf`` an internal error): every command's limit is one parser's, a finite number
    of seconds more than 0."""
    assert action.type is not None, f"trailkit {command} --time-limit has no parser"
    with pytest.raises(argparse.ArgumentTypeError):
        action.type(text)  # type: ignore[operator]
    assert action.type("2.5") == 2.5  # type: ignore[operator]


@pytest.mark.parametrize("argv", [["inspect", "specs/nikolaus.yaml"],
                                  ["design", "trail", "--layout", "grid:3,3", "--out", "x.yaml"],
                                  ["count", "specs/nikolaus.yaml"]])
def test_a_limit_of_nan_is_an_input_error(argv: list[str], tmp_path: object,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The whole command line: exit 2 with the option named, nothing run."""
    from pathlib import Path

    from trailkit.solvers.frontends.cli import main

    root = Path(__file__).resolve().parents[4]
    argv = [str(root / a) if a.startswith("specs/") else a for a in argv]
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--time-limit", "nan"])
    assert stop.value.code == 2
    assert "--time-limit: 'nan' is not a number of seconds" in capsys.readouterr().err
