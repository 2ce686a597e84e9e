"""Shared fixtures: the ``backend`` fixture runs a test once per registered backend.

``any_backend`` adds the outside solvers and the template backend
(``solvers/backends/template``, the one ``docs/backends.md`` walks through), which is
registered for the tests only, so it runs through the behaviour tests and cannot rot.

Also the Hypothesis settings profiles, chosen by ``HYPOTHESIS_PROFILE``: ``ci`` (the
default: the README's test command), ``thorough`` (four times the examples: ``.ci/run``
runs every Hypothesis test again under it, marked ``property`` here, after the README's
command) and ``dev`` (10, for a quick run while working). Tests do not hard-code
``max_examples``; a test whose examples are costly asks for a share of the profile's
count (``tests/budget.py``).
"""

from __future__ import annotations

import dataclasses
import functools
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from trailkit.models.errors import BackendUnavailable
from trailkit.models.support import jit
from trailkit.solvers.backends import registry
from trailkit.solvers.backends.registry import EXTERNAL_EXAMPLES, backend_names, get_backend

# No deadline: an example's time depends on the machine's load (and on a first Numba
# compile), not on the code under test. The README's test command has five minutes on
# two cores (issue 41, item 24), and at Hypothesis' default of 100 examples the draws
# took a third of it: it runs 25 (45 s of test time at 40, docs/benchmarks.md), and CI
# then runs every Hypothesis test again with 100 (``thorough``). Each run draws new
# examples (no fixed seed).
_PROFILE = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", max_examples=25, print_blob=True, **_PROFILE)
settings.register_profile("thorough", max_examples=100, print_blob=True, **_PROFILE)
settings.register_profile("dev", max_examples=10, **_PROFILE)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The command lines and scripts the tests start cache their bytecode, as any user's
# Python does: where the environment turns caching off (PYTHONDONTWRITEBYTECODE, set on
# some build machines), each of hundreds of subprocesses compiled trailkit's modules
# from source again (0.31 s against 0.19 s for `trailkit solve specs/nikolaus.yaml`).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# A shell without job control starts a background command (`cmd &` in a script, a CI
# step run in the background) with Ctrl-C ignored, and every process it starts inherits
# that: the Ctrl-C tests' trailkit then never saw their SIGINT and answered (exit 0)
# instead of 130. A user's terminal delivers Ctrl-C; so do the tests, whoever started them.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


#: For ``-m alone`` (the README's second run) and ``-m long`` (what ``.ci/run`` runs
#: after it, in parallel and then the ``alone`` ones by themselves): the words a test
#: module must hold to be imported at all.
_MARK_WORDS = {"alone": "alone", "alone and not long": "alone", "long": "mark.long",
               "long and not alone": "mark.long", "long and alone": "mark.long",
               "property": "given", "property and not alone and not long": "given"}


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With ``-m alone`` (the tests that need the machine to themselves) or ``-m long``
    a test module that never names the mark is not imported: reading and rewriting every
    module costs seconds of a run that keeps a few dozen tests."""
    word = _MARK_WORDS.get(config.getoption("markexpr"))
    if word is None or collection_path.suffix != ".py" \
            or not collection_path.name.startswith("test_"):
        return None
    return word not in collection_path.read_text(encoding="utf-8") or None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every Hypothesis test ``property``: ``.ci/run`` runs them again, with the
    ``thorough`` profile's examples, after the README's command."""
    for item in items:
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.property)


@pytest.fixture(params=backend_names())
def backend(request: pytest.FixtureRequest):
    """Every registered backend; a backend whose library is missing is skipped with the reason."""
    return made(request.param)


@pytest.fixture(params=EXTERNAL_EXAMPLES)
def external_backend(request: pytest.FixtureRequest):
    """One backend of each outside solver family (``minizinc:gecode``, ``dimacs:cadical``);
    skipped with the reason (what to install) where the program is missing."""
    return made(request.param)


#: The template backend's name, registered by :func:`register_template` only.
TEMPLATE = "template"


@pytest.fixture(params=[*backend_names(), *EXTERNAL_EXAMPLES, TEMPLATE])
def any_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """Every registered backend, one of each outside solver family and the template: what
    any backend must do (solve soundly); skipped with the reason where a library or
    program is missing."""
    if request.param == TEMPLATE:
        register_template(monkeypatch)
    return made(request.param)


def register_template(monkeypatch: pytest.MonkeyPatch) -> str:
    """Register the template backend for one test, with the line a new backend adds to
    ``BACKENDS`` in ``registry.py``; its name."""
    patched = dict(registry.BACKENDS)
    patched[TEMPLATE] = registry._Entry("trailkit.solvers.backends.template",
                                        "TemplateBackend", "trailkit")
    monkeypatch.setattr(registry, "BACKENDS", patched)
    return TEMPLATE


@pytest.fixture
def template_backend(monkeypatch: pytest.MonkeyPatch) -> str:
    """The name of the template backend, registered for this test."""
    return register_template(monkeypatch)


@pytest.fixture
def ghost_backend(monkeypatch: pytest.MonkeyPatch) -> str:
    """The name of a registered backend whose module is missing (``ghost``): unavailable
    wherever it is asked for."""
    patched = dict(registry.BACKENDS)
    patched["ghost"] = dataclasses.replace(registry.BACKENDS["direct"],
                                           module="trailkit.solvers.no_such_module")
    monkeypatch.setattr(registry, "BACKENDS", patched)
    return "ghost"


def made(name: str):
    """The backend ``name``, or a skip saying why it cannot run here."""
    try:
        return get_backend(name)
    except BackendUnavailable as exc:
        pytest.skip(str(exc))


@pytest.fixture(autouse=True)
def json_outputs_follow_their_schemas(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every JSON object a command prints in the suite is validated against the schema of
    its ``format`` (``trailkit schema NAME``): the published contract, checked everywhere."""
    from trailkit.solvers.frontends.cli import output

    emit = output.emit_json

    def validated(obj: object) -> None:
        validate_output(output.plain_json(obj))  # the steps as the text printed for them
        emit(obj)

    monkeypatch.setattr(output, "emit_json", validated)


def validate_output(obj: object) -> None:
    """Raise if ``obj`` (a printed JSON document) breaks the schema of its format: the
    error :func:`jsonschema.validate` raises, the schema itself checked once."""
    from jsonschema.exceptions import best_match

    from trailkit.solvers.frontends.cli.schemas import schema_for_format

    assert isinstance(obj, dict), f"a JSON output must be one object, not {type(obj)}"
    name = schema_for_format(str(obj.get("format", "")))
    assert name is not None, f"JSON output without a known format: {obj.get('format')!r}"
    error = best_match(output_validator(name).iter_errors(obj))
    if error is not None:
        raise error


@functools.cache
def output_validator(name: str) -> Any:
    """The validator of output schema ``name``, the schema checked against its meta-schema
    once per test process (the check costs about 0.1 s, the validation 1 ms; the suite
    validates every JSON output it prints)."""
    from jsonschema.validators import validator_for

    from trailkit.solvers.frontends.cli.schemas import load_output_schema

    schema = load_output_schema(name)
    checker = validator_for(schema)
    checker.check_schema(schema)
    return checker(schema)


@pytest.fixture(scope="module")
def compiled_kernels() -> Iterator[None]:
    """Run every kernel compiled whatever the input's size (small inputs otherwise run
    interpreted, see :mod:`trailkit.models.support.jit`): for the tests of the kernels."""
    saved = jit.COMPILE_FROM
    jit.COMPILE_FROM = 0
    yield
    jit.COMPILE_FROM = saved
