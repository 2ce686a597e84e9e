"""How many examples a Hypothesis test runs: a share of the active settings profile.

The profiles are registered in ``tests/conftest.py`` (``ci``, the default, ``thorough``
for CI's second pass and ``dev`` for quick runs; ``HYPOTHESIS_PROFILE`` chooses). A
test whose every example is costly (a solver run, a compiled kernel on a fresh puzzle,
a subprocess) asks for a share of the profile's ``max_examples`` with :func:`costly`,
and one whose examples take microseconds may ask for a multiple with :func:`cheap`;
each says why, so that one setting still scales every test and no count is hard-coded.
"""

from __future__ import annotations

from typing import Any

from hypothesis import settings

__all__ = ["cheap", "costly"]


def costly(share: float, why: str, **options: Any) -> settings:
    """Settings for a test whose examples each cost far more than usual: ``share`` of
    the active profile's ``max_examples`` (at least 3), with ``options`` passed on;
    ``why`` says what makes an example costly (it is for the reader: it must be given)."""
    if not why.strip() or not 0 < share <= 1:
        raise ValueError("costly() needs a share in (0, 1] and a reason")
    return settings(max_examples=max(3, round(settings.default.max_examples * share)),
                    **options)


def cheap(times: float, why: str, **options: Any) -> settings:
    """Settings for a test whose examples cost next to nothing: ``times`` (at least 1)
    the active profile's ``max_examples``, with ``options`` passed on; ``why`` says why
    more draws are worth their time."""
    if not why.strip() or times < 1:
        raise ValueError("cheap() needs a multiple of at least 1 and a reason")
    return settings(max_examples=round(settings.default.max_examples * times), **options)
