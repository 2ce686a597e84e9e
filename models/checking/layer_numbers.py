"""The compact ``layers`` certificate: one layer number per state, checked in one pass.

A walk that may reuse edges is in one of ``n * K`` (node, phase) states (node ``v``,
phase ``p``: state ``v * K + p``; phase 0 before the first step, ``1 + c`` after a step
of colour ``c`` in the colour rule's order, or ``1`` after any step without a rule; the
nodes in the spec's order). The compact certificate gives every state one number
``d[s]`` in ``0 .. L``: the fewest steps that reach it, or ``L`` for "not in fewer than
``L``". The checker accepts it when, over every allowed step ``u -> v`` at once
(NumPy, no search):

* every start state has ``d = 0``, every other state ``d >= 1``;
* no step goes more than one layer on: ``d[v] <= d[u] + 1``;
* every state of layer ``i`` (``0 < i < L``) has a step into it from layer ``i - 1``
  (not needed for the claims, so a check of the same layers against a puzzle with
  fewer edges may leave it out: ``exact=False``);
* no state where the walk may stop is in a layer before ``L``.

The first two make ``d[s]`` at most the steps any walk needs to reach ``s`` (by
induction over the walk), so with the last no walk of fewer than ``L`` steps stops: the
``shortest`` claim. The third makes ``d`` exactly the breadth-first numbers (one
certificate per puzzle and ``L``). A walk of ``L`` steps that stops then climbs one
layer a step (its state after ``i`` steps is in layer ``i``), so the shortest walks are
the paths through the layers, counted for ``unique`` and ``count``
(:mod:`trailkit.models.checking.layer_walks`).

The array is stored compressed (``zlib``, then base64), in the smallest unsigned type
that holds ``L``::

    "layer_numbers": {"encoding": "zlib-base64", "dtype": "uint8", "states": n * K,
                      "data": "eJzt..."}

>>> import numpy as np
>>> packed = encode_layer_numbers(np.array([0, 1, 2, 2], dtype=np.uint8))
>>> packed["dtype"], packed["states"], decode_layer_numbers(packed, 4).tolist()
('uint8', 4, [0, 1, 2, 2])
>>> decode_layer_numbers(packed, 5)
'the certificate numbers 4 states; the puzzle has 5'
"""

from __future__ import annotations

import base64
import binascii
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["ENCODING", "closure_problems", "decode_layer_numbers", "encode_layer_numbers",
           "layers_of", "smallest_type"]

ENCODING = "zlib-base64"
_TYPES = ("uint8", "uint16", "uint32")


def smallest_type(length: int) -> type[np.unsignedinteger[Any]]:
    """The smallest unsigned NumPy type that holds the layer numbers 0 .. ``length``."""
    return np.uint8 if length < 1 << 8 else np.uint16 if length < 1 << 16 else np.uint32


def encode_layer_numbers(numbers: np.ndarray) -> dict[str, Any]:
    """``numbers`` (an unsigned array, one per state) as a certificate stores them."""
    dtype = np.dtype(numbers.dtype).name
    if dtype not in _TYPES:
        raise ValueError(f"layer numbers are stored as {', '.join(_TYPES)}, not {dtype}")
    raw = np.ascontiguousarray(numbers).astype(f"<{numbers.dtype.char}", copy=False)
    data = base64.b64encode(zlib.compress(raw.tobytes(), 6)).decode("ascii")
    return {"encoding": ENCODING, "dtype": dtype, "states": len(numbers), "data": data}


def decode_layer_numbers(packed: Mapping[str, Any], states: int) -> np.ndarray | str:
    """The ``states`` layer numbers ``packed`` holds, as signed integers (32 bits, or 64
    for ``uint32``, so a 10,000,000-state check stays small); or why it is
    not such an array (another encoding or type, damaged data, another number of
    states). Decompresses at most the bytes the states need, so no small file expands
    into a huge one."""
    if packed.get("encoding") != ENCODING:
        return f"layer numbers must be encoded {ENCODING}, not {packed.get('encoding')!r}"
    dtype = packed.get("dtype")
    if dtype not in _TYPES:
        return f"layer numbers are stored as {', '.join(_TYPES)}, not {dtype!r}"
    if packed.get("states") != states:
        return (f"the certificate numbers {packed.get('states')!r} states; the puzzle has "
                f"{states:,}")
    width = np.dtype(dtype).itemsize
    try:
        squeezed = base64.b64decode(str(packed["data"]), validate=True)
        unpacker = zlib.decompressobj()
        raw = unpacker.decompress(squeezed, states * width + 1)
    except (binascii.Error, zlib.error, KeyError) as exc:
        return f"the layer numbers cannot be read: {exc}"
    if len(raw) > states * width or (not unpacker.eof and len(raw) == states * width):
        return f"the layer numbers hold more than {states:,} states"
    if len(raw) != states * width or not unpacker.eof:
        return f"the layer numbers hold {len(raw) // width:,} states, not {states:,}"
    wide = np.int64 if dtype == "uint32" else np.int32  # every number fits, half the memory
    return np.frombuffer(raw, dtype=f"<{np.dtype(dtype).char}").astype(wide)


def _step_layers(numbers: np.ndarray, table: np.ndarray,
                 arcs: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]],
                 allowed: np.ndarray, length: int
                 ) -> tuple[np.ndarray, list[tuple[str, int, int]]]:
    """Every step read once (:func:`closure_problems`'s arguments; ``table``: the
    numbers a row per node): the lowest layer a step reaches each state from
    (``length + 2`` where none does), and the first step that goes more than one layer
    on, as a problem (then the layers are wrong already)."""
    phases = allowed.shape[0]
    # the lowest layer among the phases at each node that may take each colour next
    wide = length + 2
    lowest = np.full((table.shape[0], allowed.shape[1]), wide, dtype=numbers.dtype)
    for p in range(phases):
        for c in np.flatnonzero(allowed[p]).tolist():
            np.minimum(lowest[:, c], table[:, p], out=lowest[:, c])
    best = np.full(len(numbers), wide, dtype=numbers.dtype)
    flat, colours = lowest.ravel(), allowed.shape[1]
    for tail, head, colour in arcs:
        source = flat[tail * colours + colour]
        target = head * phases + 1 + colour
        over = numbers[target] > source + 1
        if over.any():
            j = int(np.flatnonzero(over)[0])
            left = int(tail[j]) * phases + int(np.argmin(
                np.where(allowed[:, colour[j]], table[tail[j]], wide)))
            return best, [("a step goes more than one layer on", left, int(target[j]))]
        source += 1
        np.minimum.at(best, target, source)
    return best, []


def closure_problems(numbers: np.ndarray, arcs: Sequence[tuple[np.ndarray, np.ndarray,
                                                                np.ndarray]],
                     allowed: np.ndarray, starts: np.ndarray, may_end: np.ndarray,
                     length: int, *, exact: bool = True) -> list[tuple[str, int, int]]:
    """Why ``numbers`` (``n * K`` layer numbers) are not the breadth-first layers of a
    puzzle whose shortest walk has ``length`` steps (empty: they are). ``arcs``: groups
    of steps, each as arrays of the node left, the node reached and the colour;
    ``allowed[p, c]``: may phase ``p`` take colour ``c``; ``starts``: the start nodes;
    ``may_end``: per node, may the walk stop there. Each problem is ``(what, state, other
    state or -1)``: the caller names them. Without ``exact`` a state need not have a step
    into it from the layer before (the layers may then be lower than the breadth-first
    ones: still no walk of fewer than ``length`` steps stops, as a puzzle with fewer
    edges than the one they were made for shows)."""
    phases = allowed.shape[0]
    table = numbers.reshape(-1, phases)
    if len(numbers) and (int(numbers.min()) < 0 or int(numbers.max()) > length):
        bad = int(np.flatnonzero((numbers < 0) | (numbers > length))[0])
        return [(f"layer numbers run from 0 to {length}, not {int(numbers[bad])}", bad, -1)]
    start_states = starts * phases
    late = start_states[numbers[start_states] != 0]
    if len(late):
        return [(f"a start state is in layer {int(numbers[late[0]])}, not 0", int(late[0]), -1)]
    best, too_far = _step_layers(numbers, table, arcs, allowed, length)
    if too_far:
        return too_far
    best[start_states] = 0
    orphan = numbers < np.minimum(best, length) if exact else numbers < 0
    if orphan.any():
        return [("no step reaches it from the layer before", int(np.flatnonzero(orphan)[0]), -1)]
    stops = np.flatnonzero(np.repeat(may_end, phases) & (numbers < length))
    if len(stops):
        return [("the walk may stop there, before the last layer", int(stops[0]), -1)]
    return []


def layers_of(numbers: np.ndarray, length: int) -> list[np.ndarray]:
    """Layers 0 .. ``length`` as sorted arrays of state numbers (the last: every state
    numbered ``length``)."""
    order = np.argsort(numbers, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(np.bincount(numbers, minlength=length + 1))])
    return [order[bounds[i]:bounds[i + 1]] for i in range(length + 1)]
