"""The deadline a spec's reading keeps: ``--time-limit`` counts from the command's start,
and reading a 10^6-edge spec takes seconds, so the reader looks at the clock between
its steps (issue 41 item 6: ``count --time-limit 2`` of a 10^6-edge path answered after
7 s, reading and building having ignored the limit).

The command line sets the deadline around its reading (:func:`reading_until`); the
readers call :func:`on_time` between pieces of work (none of which takes long), which
raises :class:`TimeLimitReached` once it has passed. Outside such a block there is no
deadline and :func:`on_time` costs a context-variable lookup. The library never
decides what a reached limit means to the user: the front end says "unknown" (exit 3).

>>> import time
>>> try:
...     with reading_until(time.monotonic() - 1):
...         on_time("the edge list")
... except TimeLimitReached as stopped:
...     print(stopped)
the time limit was reached while reading the edge list
>>> on_time("the edge list")  # no deadline outside the block
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["TimeLimitReached", "on_time", "reading_until"]


class TimeLimitReached(Exception):
    """The deadline passed while reading ``what``: no answer (not an input error)."""

    def __init__(self, what: str) -> None:
        super().__init__(f"the time limit was reached while reading {what}")
        self.what = what


_now = time.monotonic
"""The clock deadlines are read on (the tests count its readings)."""

_UNTIL: ContextVar[float | None] = ContextVar("trailkit_reading_deadline", default=None)


@contextmanager
def reading_until(deadline: float | None) -> Iterator[None]:
    """Within the block, :func:`on_time` raises once :func:`time.monotonic` has passed
    ``deadline`` (``None``: no deadline)."""
    token = _UNTIL.set(deadline)
    try:
        yield
    finally:
        _UNTIL.reset(token)


def on_time(what: str) -> None:
    """Raise :class:`TimeLimitReached` (reading ``what``) if the deadline has passed."""
    deadline = _UNTIL.get()
    if deadline is not None and _now() >= deadline:
        raise TimeLimitReached(what)
