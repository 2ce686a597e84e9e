"""The command line as the contract pins it: JSON answers, exit codes, import, lint."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from trailkit.models.answer import Walk
from trailkit.models.checking.verify import verify
from trailkit.models.spec import load_spec
from trailkit.solvers.frontends.cli import main

ROOT = Path(__file__).resolve().parents[4]
SPECS = ROOT / "specs"
TYRES = SPECS / "tyre-puzzle"
RESULT_KEYS = {"format", "spec", "name", "kind", "backend", "status", "steps", "length",
               "optimal", "certificate", "verified", "crosscheck", "time_s"}


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def walk_from_json(spec: Path, result: dict) -> tuple[bool, list]:
    """Rebuild the walk from the JSON steps alone and run the independent checker on it."""
    puzzle = load_spec(spec)
    index = {name: i for i, name in enumerate(puzzle.nodes)}
    ids = {str(puzzle.edge_id(e)): e for e in range(puzzle.num_edges)}
    steps = result["steps"]
    nodes = [index[steps[0]["from"]]] + [index[s["to"]] for s in steps]
    edges = [ids[str(s["edge"])] for s in steps]
    for a, b in itertools.pairwise(steps):
        assert a["to"] == b["from"]
    problems = verify(puzzle, Walk(tuple(nodes), tuple(edges)))
    return not problems, problems


def test_solve_json_follows_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    spec = SPECS / "nikolaus.yaml"
    code, out, _ = run(["solve", str(spec), "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    assert set(result) >= RESULT_KEYS
    assert result["format"] == "trailkit-result/1"
    assert (result["status"], result["kind"], result["length"]) == ("solved", "trail", 8)
    assert result["verified"] is True
    assert len(result["steps"]) == 8
    assert all(set(step) == {"from", "to", "edge", "colour"} for step in result["steps"])
    ok, problems = walk_from_json(spec, result)
    assert ok, problems


def test_unsolvable_json_carries_a_checked_certificate(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", str(SPECS / "koenigsberg.yaml"), "--json"], capsys)
    assert code == 1
    result = json.loads(out)
    assert result["status"] == "unsolvable"
    assert result["certificate"]["type"] == "parity"
    assert result["certificate"]["checked"] is True
    assert sorted(result["certificate"]["nodes"]) == ["A", "B", "C", "D"]
    assert result["steps"] == [] and result["length"] is None


def test_domino_steps_are_dominoes_as_placed(capsys: pytest.CaptureFixture[str]) -> None:
    spec = SPECS / "dominoes" / "triangle.yaml"
    code, out, _ = run(["solve", str(spec), "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    dominoes = [{"1", "2"}, {"2", "3"}, {"3", "1"}]
    assert sorted(s["edge"] for s in result["steps"]) == [0, 1, 2]
    for step in result["steps"]:
        assert {step["from"], step["to"]} == dominoes[step["edge"]]
    assert result["steps"][0]["from"] == result["steps"][-1]["to"]


def test_node_names_that_yaml_would_mangle_survive(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "p.yaml"
    spec.write_text("trailkit: 1\nkind: colour-walk\nedges: [[A, NO, red], [NO, on, blue], "
                    "[on, 1e3, green], [1e3, Y, red]]\nstart: A\ngoal: Y\n")
    code, out, _ = run(["solve", str(spec), "--json"], capsys)
    assert code == 0
    names = [s["to"] for s in json.loads(out)["steps"]]
    assert names == ["NO", "on", "1e3", "Y"]


def test_domino_written_as_base60_is_not_62(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "d.yaml"
    spec.write_text("trailkit: 1\nkind: domino-chain\ndominoes: [1:2, 2:3, 3:1]\n")
    assert load_spec(spec).nodes == ("1", "2", "3")
    code, _, _ = run(["solve", str(spec)], capsys)
    assert code == 0


def test_listed_isolated_start_is_unsolvable_not_an_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "p.yaml"
    spec.write_text("trailkit: 1\nkind: trail\nnodes: [lonely, a, b, c]\nedges: [a b, b c]\n"
                    "start: lonely\n")
    code, out, _ = run(["solve", str(spec), "--json"], capsys)
    assert code == 1
    assert json.loads(out)["certificate"]["checked"] is True


def test_import_planks_reports_the_repeated_line(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out_spec = tmp_path / "tyres.yaml"
    code, _, err = run(["import", "planks", str(TYRES / "puzzle_original.txt"), "--start", "A",
                        "--goal", "T", "--out", str(out_spec)], capsys)
    assert code == 0
    assert ":75: warning:" in err and "Y AD blue" in err and "74" in err
    puzzle = load_spec(out_spec)
    assert puzzle.kind == "colour-walk"
    lines = [ln for ln in (TYRES / "puzzle_original.txt").read_text().splitlines()
             if ln.strip() and not ln.lstrip().startswith("#")]
    assert puzzle.num_edges == len(lines) - 1  # one line repeats another
    # never overwrite without --force
    code, _, err = run(["import", "planks", str(TYRES / "puzzle_original.txt"), "--start", "A",
                        "--goal", "T", "--out", str(out_spec)], capsys)
    assert code == 2 and "--force" in err


def test_import_planks_matches_the_bundled_specs(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    for source, bundled in (("puzzle_original.txt", "original.yaml"),
                            ("puzzle_with_missing_plank.txt", "restored.yaml")):
        out_spec = tmp_path / bundled
        run(["import", "planks", str(TYRES / source), "--start", "A", "--goal", "T",
             "--out", str(out_spec)], capsys)
        fresh, shipped = load_spec(out_spec), load_spec(SPECS / "tyre-puzzle" / bundled)
        assert (fresh.nodes, list(fresh.tail), list(fresh.head), list(fresh.colour)) == \
            (shipped.nodes, list(shipped.tail), list(shipped.head), list(shipped.colour))


def test_import_planks_rejects_unknown_tyre(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["import", "planks", str(TYRES / "puzzle_original.txt"), "--start", "A",
                        "--goal", "ZZ"], capsys)
    assert code == 2 and "ZZ" in err


def test_import_dominoes_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "set.txt"
    source.write_text("# a small set\n1 2\n2|3\n3:1\n")
    out_spec = tmp_path / "set.yaml"
    code, _, _ = run(["import", "dominoes", str(source), "--out", str(out_spec)], capsys)
    assert code == 0
    puzzle = load_spec(out_spec)
    assert puzzle.kind == "domino-chain" and puzzle.num_edges == 3 and puzzle.closed
    code, _, _ = run(["solve", str(out_spec)], capsys)
    assert code == 0


def test_lint_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["lint", str(SPECS)], capsys)
    assert code == 0
    assert out.count(": ok") == len(list(SPECS.rglob("*.yaml")))
    (tmp_path / "good.yaml").write_text("trailkit: 1\nkind: trail\nedges: [a b]\n")
    (tmp_path / "bad.yaml").write_text("trailkit: 1\nkind: trail\nedges: [a]\n")
    code, out, err = run(["lint", str(tmp_path)], capsys)
    assert code == 2
    assert "good.yaml: ok" in out and "bad.yaml:3:9: error:" in err


def test_lint_expect_catches_a_wrong_expectation(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "p.yaml"
    spec.write_text("trailkit: 1\nkind: trail\nedges: [a b, b c]\n"
                    "expect: {status: unsolvable}\n")
    code, _, err = run(["lint", "--expect", str(spec)], capsys)
    assert code == 4 and "expected status unsolvable, got solved" in err


def test_console_script_runs_without_traceback(tmp_path: Path) -> None:
    spec = tmp_path / "p.yaml"
    spec.write_text("trailkit: 1\nkind: trail\nedges: [a b, b c\n")
    done = subprocess.run([sys.executable, "-m", "trailkit.solvers.frontends.cli", "solve",
                           str(spec)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and f"{spec}:3:8: error:" in done.stderr


def test_count_json_follows_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["count", str(SPECS / "nikolaus.yaml"), "--failures", "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    assert result["format"] == "trailkit-count/1"
    assert (result["solutions"], result["failures"], result["early_failures"]) == (88, 266, 23)
    assert sum(row["solutions"] for row in result["per_start"].values()) == 88


def test_count_stopped_by_a_limit_is_a_lower_bound(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "k7.yaml"
    edges = ", ".join(f"{a} {b}" for a in range(7) for b in range(a + 1, 7))
    spec.write_text(f"trailkit: 1\nkind: trail\nclosed: true\nedges: [{edges}]\n")
    code, out, _ = run(["count", str(spec), "--method", "enumerate", "--time-limit", "0.5",
                        "--json"], capsys)
    assert code == 3
    result = json.loads(out)
    assert result["complete"] is False and result["status"] == "unknown"
    assert result["solutions"] <= 2_729_502_720  # K7's exact count, closed walks with a start


def test_export_and_read_back_a_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pysat.formula import CNF
    from pysat.solvers import Solver

    cnf = tmp_path / "n.cnf"
    assert run(["export", str(SPECS / "nikolaus.yaml"), "--format", "dimacs", "--out", str(cnf)],
               capsys)[0] == 0
    with Solver(name="minisat22", bootstrap_with=CNF(from_file=str(cnf)).clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
    answer = tmp_path / "model.txt"
    answer.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    code, out, _ = run(["solve", str(SPECS / "nikolaus.yaml"), "--from-model", str(answer),
                        "--json"], capsys)
    assert code == 0 and json.loads(out)["verified"] is True


def test_count_backend_direct_is_the_formula_and_says_so(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    """CONTRACT 1.2 §5: ``count --backend direct`` uses the formula where it applies; the
    JSON names backend direct and method exact (it used to enumerate for ever)."""
    spec = str(SPECS / "dominoes" / "double-six.yaml")
    code, out, _ = run(["count", spec, "--backend", "direct", "--json"], capsys)
    result = json.loads(out)
    assert code == 0
    assert (result["backend"], result["method"], result["solutions"]) == \
        ("direct", "exact", 7_959_229_931_520)
    assert result["formula"] == "eulerian-orientations"


def test_count_of_longest_walks_and_failures_there(capsys: pytest.CaptureFixture[str]) -> None:
    spec = str(SPECS / "dominoes" / "longest-train.yaml")
    code, out, _ = run(["count", spec, "--json"], capsys)
    result = json.loads(out)
    assert code == 0 and (result["solutions"], result["length"]) == (20, 7)
    code, out, _ = run(["count", spec], capsys)
    assert "20 (the longest walks: 7 steps)" in out
    code, out, err = run(["count", spec, "--failures"], capsys)
    assert code == 2 and "not defined under 'objective: longest'" in err


def test_install_hints_name_the_running_interpreter() -> None:
    """A missing extra is installed with this environment's pip, not whichever ``pip`` is
    first on PATH (a newcomer's system pip)."""
    from trailkit.solvers.support.extras import pip_install

    hint = pip_install("trailkit[draw]")
    assert hint.startswith(sys.executable) or hint.startswith(f"'{sys.executable}'")
    assert hint.endswith("-m pip install 'trailkit[draw]'")


def _all_commands() -> list[tuple[tuple[str, ...], object]]:
    """Every command and subcommand of the parser, as argv prefixes (``("import",
    "planks")``) with their parsers."""
    import argparse

    from trailkit.solvers.frontends.cli.app import build_parser

    found: list[tuple[tuple[str, ...], object]] = []

    def visit(parser: argparse.ArgumentParser, prefix: tuple[str, ...]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    found.append(((*prefix, name), child))
                    visit(child, (*prefix, name))

    visit(build_parser(), ())
    return found


@pytest.mark.parametrize("command, parser", _all_commands(), ids=lambda c: " ".join(c)
                         if isinstance(c, tuple) else "")
def test_every_command_help_ends_with_examples_and_describes_its_arguments(
        command: tuple[str, ...], parser: object, capsys: pytest.CaptureFixture[str]) -> None:
    """The README promises that every command's --help explains each option and ends
    with examples; a positional argument has an upper-case name and a description."""
    with pytest.raises(SystemExit) as stop:
        main([*command, "--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    assert "\nexamples:\n  trailkit " in text, text[-300:]
    for action in parser._actions:  # type: ignore[attr-defined]
        if action.option_strings:
            continue
        name = action.metavar or action.dest
        assert action.help, f"{' '.join(command)}: {name} has no description"
        assert name[:1].isupper() or action.choices is not None, name


@pytest.mark.parametrize("argv", [["solve", "--json"], ["solve"], ["count", "--json"],
                                  ["inspect", "--json"]])
def test_printed_times_are_the_commands_wall_time(argv: list[str],
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A 10^6-edge path printed "in 2.44 s" after 8.4 s and ``time_s`` 0.13 after 17 s; a
    cadical run 8.68 s in words and 3.90 s in JSON. Every time printed is the wall time
    from the command's start, reading the spec included, the same in words and JSON: a
    clock that moves only while the spec is read (7 s) shows exactly that."""
    import types

    from trailkit.solvers.frontends.cli import answers, options

    clock = [1000.0]
    monkeypatch.setattr(options, "time", types.SimpleNamespace(monotonic=lambda: clock[0]))
    real = answers.load_spec

    def slow_read(path: str) -> object:
        clock[0] += 7.0
        return real(path)

    monkeypatch.setattr(answers, "load_spec", slow_read)
    monkeypatch.setattr("trailkit.models.spec.load_spec", slow_read)  # inspect's import
    code, out, _ = run([argv[0], str(SPECS / "nikolaus.yaml"), *argv[1:]], capsys)
    assert code == 0
    if "--json" in argv:
        assert json.loads(out)["time_s"] == 7.0
    else:
        assert "solved by direct in 7.000 s" in out
