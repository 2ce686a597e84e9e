"""``models/jit.py``'s ``refcounts=False``: in effect where Numba has the option (a kernel
that allocates is refused), and harmless where it has not (the kernel compiles with
Numba's reference counting, as any other)."""

from __future__ import annotations

import numpy as np
import pytest

from trailkit.models import jit

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
