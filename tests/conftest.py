"""Shared fixtures: the ``backend`` fixture runs a test once per registered backend."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from trailkit.models import jit
from trailkit.models.errors import BackendUnavailable
from trailkit.solvers.registry import backend_names, get_backend


@pytest.fixture(params=backend_names())
def backend(request: pytest.FixtureRequest):
    """Every registered backend; a backend whose library is missing is skipped with the reason."""
    try:
        return get_backend(request.param)
    except BackendUnavailable as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def compiled_kernels() -> Iterator[None]:
    """Run every kernel compiled whatever the input's size (small inputs otherwise run
    interpreted, see :mod:`trailkit.models.jit`): for the tests of the kernels."""
    saved = jit.COMPILE_FROM
    jit.COMPILE_FROM = 0
    yield
    jit.COMPILE_FROM = saved
