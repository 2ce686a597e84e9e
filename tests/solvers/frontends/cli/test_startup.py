"""What a command imports before it answers (issue 30): ``trailkit --version`` and
``trailkit --help`` load none of the heavy libraries, and ``trailkit solve`` on a small
spec none that solving it does not need.

Each command runs in a fresh interpreter (``sys.modules`` of this test process is full
of everything), through :func:`trailkit.solvers.frontends.cli.main`, and reports the modules it
loaded. How long a start takes is measured in ``tests/bench/bench_startup.py``, not here.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]

#: NumPy, Numba, OR-Tools, python-sat, Starlette, Dask (and matplotlib, uvicorn).
HEAVY = ("numpy", "numba", "ortools", "pysat", "starlette", "uvicorn", "dask", "matplotlib")

RUNNER = """
import sys
from trailkit.solvers.frontends.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print("\\nLOADED", *sorted(sys.modules))
"""


def loaded_by(*argv: str) -> set[str]:
    """The modules a fresh interpreter holds after ``trailkit ARGV``."""
    done = subprocess.run([sys.executable, "-c", RUNNER, *argv], cwd=ROOT, text=True,
                          capture_output=True, check=True)
    last = done.stdout.rstrip().rsplit("\n", 1)[-1]
    assert last.startswith("LOADED "), done.stdout[-500:] + done.stderr[-500:]
    return set(last.split()[1:])


@pytest.mark.parametrize("argv", [["--version"], ["--help"], [], ["solev", "x.yaml"],
                                  ["serve", "--help"]],
                         ids=["--version", "--help", "nothing", "a mistyped command",
                              "serve --help"])
def test_version_and_help_import_no_heavy_library(argv: list[str]) -> None:
    """``--version``, ``--help`` and a usage error answer before any solver library, the
    workshop's server or Dask is imported: they used to load NumPy and every command's
    modules first (0.33 s of CPU for ``trailkit --version``)."""
    assert {name.split(".")[0] for name in loaded_by(*argv)} & set(HEAVY) == set()


def test_solving_a_small_spec_imports_only_what_solving_needs() -> None:
    """``trailkit solve specs/nikolaus.yaml`` (the direct backend, eight edges) needs
    NumPy and YAML, not Numba (small inputs run interpreted), OR-Tools, the workshop,
    the campaigns' Dask or the plots."""
    modules = loaded_by("solve", "specs/nikolaus.yaml")
    loaded = {name.split(".")[0] for name in modules}
    assert {"numpy", "yaml"} <= loaded
    assert loaded & {"numba", "ortools", "starlette", "uvicorn", "dask", "matplotlib"} == set()
    units = ("frontends.workshop", "campaigns", "tools.drawing", "tools.repair",
             "tools.design", "frontends.cli.compare")
    assert all(importlib.util.find_spec(f"trailkit.solvers.{u}") for u in units)
    assert [m for m in modules if m.startswith(tuple(f"trailkit.solvers.{u}" for u in units))] \
        == []


def test_solving_a_tour_loads_no_pictures_and_no_euler_counting() -> None:
    """``trailkit solve`` of a knight's tour names its walk's size without the picture
    modules (the presenter's walk text once pulled in every drawing module through a
    caption helper) and makes no count, so it loads neither the Euler-trail counting of
    the BEST theorem nor the colour-walk layers."""
    modules = loaded_by("solve", "docs/examples/knight-tour.yaml")
    needless = ("trailkit.solvers.tools.drawing", "trailkit.solvers.backends.direct.exact_count",
                "trailkit.solvers.backends.direct.orientation_list",
                "trailkit.solvers.pipeline.formula_claims", "trailkit.solvers.pipeline.counting")
    assert sorted(m for m in modules if m.startswith(needless)) == []


def test_solving_a_small_spec_loads_no_refutation_machinery() -> None:
    """A plain solve makes no claim that needs a refutation, so it loads neither the SAT
    backend nor the DRUP checker, nor counting and proving (they made ``trailkit solve
    specs/nikolaus.yaml`` 1.65x the CPU of importing YAML and NumPy; 1.34x without)."""
    modules = loaded_by("solve", "specs/nikolaus.yaml")
    needless = ("trailkit.solvers.backends.sat", "trailkit.models.checking.drup",
                "trailkit.solvers.pipeline.counting", "trailkit.solvers.pipeline.proving",
                "trailkit.solvers.pipeline.refuted_claims", "pysat.solvers",
                "importlib.metadata")
    assert sorted(m for m in modules if m.startswith(needless)) == []


def test_the_command_list_is_the_command_modules_own(capsys: pytest.CaptureFixture[str]) -> None:
    """``trailkit --help`` lists the commands from
    :data:`~trailkit.solvers.frontends.cli.app.COMMANDS`
    without importing their modules: its text is the one the modules themselves give,
    name for name and line for line, in the same order."""
    from trailkit.solvers.frontends.cli.app import build_parser

    def help_text(load: set[str] | None) -> str:
        with pytest.raises(SystemExit):
            build_parser(load).parse_args(["--help"])
        return capsys.readouterr().out

    assert help_text(set()) == help_text(None)
    assert help_text({"answers"}) == help_text(None)


def test_a_ctrl_c_while_the_commands_modules_load_is_an_interrupt(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The command's modules now load after the guard of :func:`trailkit.solvers.frontends.cli.main`
    (they used to load inside it): a Ctrl-C meanwhile is still exit 130, not a traceback."""
    from trailkit.solvers.frontends.cli import app, main

    def interrupted(name: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(app, "command_module", interrupted)
    assert main(["solve", "specs/nikolaus.yaml"]) == 130
    assert capsys.readouterr().err == "trailkit: interrupted\n"
