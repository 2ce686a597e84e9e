"""A seeded mutation fuzzer for the spec reader, run through the command line in-process.

The bundled specs under ``specs/`` are mutated the ways files really go wrong (lines
deleted, duplicated or swapped, characters flipped, tabs, control characters, NUL
bytes, byte order marks and UTF-16, huge numbers, odd YAML scalars, truncation) and
each mutant goes through ``trailkit solve``, ``count`` or ``lint``. Whatever the
mutant, the contract holds: exit 0-3, never a traceback or an internal error (exit
4), and an input error (exit 2) names ``file:line:column``.

``TRAILKIT_FUZZ_SEED`` and ``TRAILKIT_FUZZ_COUNT`` run other or more mutants, e.g.
``TRAILKIT_FUZZ_SEED=7 TRAILKIT_FUZZ_COUNT=3000 pytest tests/models/spec/test_fuzz_specs.py``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from mutants import SEED, mutants

from trailkit.solvers.frontends.cli import main

COUNT = int(os.environ.get("TRAILKIT_FUZZ_COUNT", "300"))
LOCATED = re.compile(r"^\S.*?:\d+:\d+: error: ", re.MULTILINE)
USAGE = re.compile(r"^trailkit( \w+)*: error: ", re.MULTILINE)


def check_outcome(code: int, out: str, err: str, what: str) -> None:
    """The contract for one run (see the module docstring)."""
    assert code in (0, 1, 2, 3), (what, code, err[-2000:])
    assert "Traceback" not in err + out, (what, err[-2000:])
    assert "INTERNAL" not in err, (what, err[-2000:])
    if code == 2:
        assert LOCATED.search(err) or USAGE.search(err), (what, err[-2000:])


@pytest.mark.slow
def test_mutated_specs_keep_the_contract(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    # count and solve get 1 s: a mutant of the double-nine set or a doubled trail edge
    # enumerates for ever, and a handful of them would otherwise be half of the test's
    # time (one solve of the 300 runs to its limit: 2 s of the test's 5 when it had 2 s)
    commands = [["solve", "--time-limit", "1"], ["lint"], ["count", "--time-limit", "1"]]
    for i, (data, side, steps) in enumerate(mutants(SEED, COUNT)):
        folder = tmp_path / f"m{i}"
        folder.mkdir()
        for name in ("edges.txt", "side.txt"):  # the side file, whichever name the spec uses
            (folder / name).write_text(side, encoding="utf-8", errors="surrogatepass")
        spec = folder / "spec.yaml"
        spec.write_bytes(data)
        command = commands[i % len(commands)]
        argv = [command[0], str(spec), *command[1:]]
        code = main(argv)
        out, err = capsys.readouterr()
        check_outcome(code, out, err, f"mutant {i} (seed {SEED}: {steps}): {' '.join(argv)}")


def test_the_fuzzer_is_reproducible() -> None:
    assert mutants(SEED, 20) == mutants(SEED, 20)
    assert mutants(SEED, 20) != mutants(SEED + 1, 20)
