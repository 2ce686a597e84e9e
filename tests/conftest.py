"""Shared fixtures: the ``backend`` fixture runs a test once per registered backend."""

from __future__ import annotations

import pytest

from trailkit.models.errors import BackendUnavailable
from trailkit.solvers.registry import backend_names, get_backend


@pytest.fixture(params=backend_names())
def backend(request: pytest.FixtureRequest):
    """Every registered backend; a backend whose library is missing is skipped with the reason."""
    try:
        return get_backend(request.param)
    except BackendUnavailable as exc:
        pytest.skip(str(exc))
