"""Grouping items by an integer key in compiled code: the compressed-sparse-row
layout the direct backend's graph algorithms walk over.

:func:`group_by` is a stable counting sort that also carries a value along, in one
pass: linear time, where ``np.argsort(..., kind="stable")`` is a comparison sort
and a gather afterwards is a second pass of random reads (measured on two million
half-edges: ``docs/benchmarks.md``). Both the Euler walk (:mod:`.euler`)
and the (node, colour-phase) search (:mod:`.reachability`) build their adjacency
with it. Entries are int32, so a walk over them reads half the memory.

>>> import numpy as np
>>> ptr, values, order = group_by(np.array([2, 0, 2, 1]), np.array([7, 8, 9, 6]), 3)
>>> ptr.tolist(), values.tolist(), order.tolist()
([0, 1, 2, 4], [8, 6, 7, 9], [1, 3, 0, 2])
"""

from __future__ import annotations

import numpy as np

from trailkit.models.support.jit import kernel

__all__ = ["group_by"]

LIMIT = 2**31
"""Items and values must stay below this (int32 entries)."""


def group_by(keys: np.ndarray, values: np.ndarray,
             buckets: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(ptr, grouped, order)``: the items with key ``b`` are ``order[ptr[b]:ptr[b + 1]]``
    in their original order, and ``grouped[i] = values[order[i]]``. Every key must lie
    in ``0..buckets-1``; ``ValueError`` when int32 cannot hold the items or values."""
    if len(keys) >= LIMIT or (len(values) and int(values.max()) >= LIMIT):
        raise ValueError(f"at most {LIMIT - 1} items and values below {LIMIT} can be grouped")
    grouped: tuple[np.ndarray, np.ndarray, np.ndarray] = \
        _group_by.sized(len(keys))(keys, values, buckets)
    return grouped


@kernel
def _group_by(keys: np.ndarray, values: np.ndarray,
              buckets: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    ptr = np.zeros(buckets + 1, dtype=np.int64)
    for key in keys:
        ptr[key + 1] += 1
    for b in range(buckets):
        ptr[b + 1] += ptr[b]
    fill = ptr[:buckets].copy()
    grouped = np.empty(len(keys), dtype=np.int32)
    order = np.empty(len(keys), dtype=np.int32)
    for i in range(len(keys)):
        key = keys[i]
        at = fill[key]
        fill[key] = at + 1
        grouped[at] = values[i]
        order[at] = i
    return ptr, grouped, order
