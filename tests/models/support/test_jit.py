"""``models/support/jit.py``'s ``refcounts=False``: in effect where Numba has the option (a kernel
that allocates is refused), and harmless where it has not (the kernel compiles with
Numba's reference counting, as any other)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from trailkit.models.support import jit

pytestmark = pytest.mark.skipif(not jit.COMPILED, reason="Numba is not installed")


# Two functions, not one: Numba's disk cache keys a kernel by its source, not by its
# options, so one function compiled both ways would load the other way's machine code.
def _smallest(xs: np.ndarray) -> int:
    return int(np.sort(xs)[0])  # np.sort allocates a new array


def _least(xs: np.ndarray) -> int:
    return int(np.sort(xs)[0])


def test_a_kernel_without_reference_counts_may_not_allocate() -> None:
    smallest = jit.kernel(refcounts=False)(_smallest)
    with pytest.raises(Exception, match="nopython"):  # Numba refuses to compile it
        smallest(np.array([3, 1, 2]))
    assert smallest.interpreted(np.array([3, 1, 2])) == 1  # interpreted: plain Python


def test_without_numbas_option_the_kernel_counts_references(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jit, "_can_skip_refcounts", lambda: False)
    least = jit.kernel(refcounts=False)(_least)
    assert least(np.array([3, 1, 2])) == 1


# ------------------------------------------------------------------ compiling, said
def test_a_compile_is_heard_and_timed_but_a_loaded_kernel_is_not() -> None:
    """The command line says on standard error that a kernel compiles (seconds of
    silence otherwise) and names the compile time apart from the answer's: both hear it
    from :func:`jit.on_compile`. A kernel made from text has no file, so no disk cache:
    it compiles here whatever ran before."""
    heard: list[tuple[str, float | None]] = []
    jit.on_compile(lambda what, seconds: heard.append((what, seconds)))
    space: dict[str, object] = {}
    exec("def _twice(xs):\n    return xs.sum() * 2\n", space)  # no file: compiled anew
    twice = jit.kernel(space["_twice"])  # type: ignore[arg-type]
    before = jit.compile_seconds()
    try:
        assert twice(np.arange(4)) == 12
        assert twice(np.arange(5)) == 20  # the same types: compiled already, nothing heard
    finally:
        jit._compile_listeners.clear()
    assert [what for what, _ in heard] == ["_twice"] * 2
    assert heard[0][1] is None and heard[1][1] is not None and heard[1][1] > 0
    assert jit.compile_seconds() == pytest.approx(before + heard[1][1])


@pytest.mark.slow
@pytest.mark.long  # a compile from scratch (nothing cached): seconds by nature
def test_the_command_line_says_it_compiles_and_how_long_of_its_time(tmp_path: Path) -> None:
    """The first solve of a big trail compiled for seconds in silence and printed the
    solver's time alone ("in 0.038 s" after a 31.8 s wait): now one line on standard
    error says it compiles, and the answer's time is the wall time, compiling named."""
    ring = tmp_path / "ring.yaml"
    edges = ", ".join(f"n{i} n{(i + 1) % 30_000}" for i in range(30_000))
    ring.write_text(f"trailkit: 1\nkind: trail\nclosed: true\nedges: [{edges}]\n")
    done = subprocess.run(
        [sys.executable, "-m", "trailkit.solvers.frontends.cli", "solve", str(ring), "--crosscheck",
         "none"], capture_output=True, text=True, timeout=900,
        env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")})  # nothing cached
    assert done.returncode == 0, done.stderr[-2000:]
    said = [line for line in done.stderr.splitlines() if "compiling" in line]
    assert len(said) == 1 and said[0].startswith("trailkit: compiling "), done.stderr
    assert re.search(r"solved by direct in \d+\.\d+ s, \d+\.\d s of it compiling:",
                     done.stdout), done.stdout[:500]


# ------------------------------------------------------------------ small inputs
def _from_text(name: str, body: str) -> jit.Kernel:
    """A kernel made from text: no file, so no disk cache (it compiles in this process)."""
    space: dict[str, object] = {}
    exec(f"def {name}(xs):\n    return {body}\n", space)
    return jit.kernel(space[name])  # type: ignore[arg-type]


def test_a_small_input_never_compiles_a_kernel_but_uses_one_compiled() -> None:
    """With Numba loaded (by a big input before, or by a test), a small input ran every
    kernel compiled, compiling it first (seconds) where it was not cached: it runs
    interpreted unless this process has the kernel compiled already."""
    import numba  # noqa: F401  # loaded, as in a process that compiled a kernel before

    thrice = _from_text("_thrice", "xs.sum() * 3")
    heard: list[str] = []
    jit.on_compile(lambda what, seconds: heard.append(what))
    try:
        assert thrice.sized(10) is thrice.interpreted
        assert thrice.sized(10)(np.arange(4)) == 18 and heard == []
        assert thrice.sized(jit.COMPILE_FROM) is thrice.compiled
        assert thrice(np.arange(4)) == 18 and heard  # compiled here now
        assert thrice.sized(10) is thrice.compiled
    finally:
        jit._compile_listeners.clear()


def test_a_small_input_loads_a_kernel_cached_on_disk(tmp_path: Path) -> None:
    """Once Numba is loaded, a kernel whose machine code is in the disk cache loads in
    milliseconds: a small input runs it compiled, without compiling."""
    import importlib.util

    (tmp_path / "tiny_kernels.py").write_text("def halve(xs):\n    return xs.sum() // 2\n")
    spec = importlib.util.spec_from_file_location("tiny_kernels", tmp_path / "tiny_kernels.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    first = jit.kernel(module.halve)
    assert first.sized(10) is first.interpreted  # nothing cached yet
    assert first(np.arange(5)) == 5  # compiled, and saved to the disk cache
    again = jit.kernel(module.halve)  # another process's view: only the disk cache
    heard: list[str] = []
    jit.on_compile(lambda what, seconds: heard.append(what))
    try:
        assert again.sized(10) is again.compiled
        assert again.sized(10)(np.arange(5)) == 5 and heard == []  # loaded, not compiled
    finally:
        jit._compile_listeners.clear()
