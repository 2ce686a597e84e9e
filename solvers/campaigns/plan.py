"""What a campaign runs: each run's key, the spec's hash and its content for a worker.

A spec is named by the SHA-256 of its text and of its side files (``edges_file:``,
``dominoes_file:``, read relative to its folder), computed once, on the machine that
runs the campaign; a spec that cannot be read hashes its path instead, so that its
``error`` rows still have a key. ``options`` is the JSON text (sorted keys) of what
changes an answer or a time: the limits and the switches.
"""

from __future__ import annotations

import hashlib
import json
import platform
import socket
import sys
from dataclasses import dataclass
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TypedDict

from trailkit.models.formats.inputs import InputRefused, read_bounded
from trailkit.models.spec import MAX_SPEC_BYTES
from trailkit.models.spec.edges.side_files import MAX_SIDE_FILE_BYTES, side_file_names
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.support.version import trailkit_version

__all__ = ["Machine", "RunKey", "machine", "options_json", "plan", "spec_files", "spec_sha256"]



@dataclass(frozen=True, slots=True)
class RunKey:
    """One run of a campaign: a spec (path as given and hash), a backend, a repeat."""

    spec: str
    sha256: str
    backend: str
    options: str
    repeat: int

    @property
    def key(self) -> tuple[str, str, str, int]:
        """The store's key of this run."""
        return (self.sha256, self.backend, self.options, self.repeat)


def spec_files(spec: str | Path) -> dict[str, bytes]:
    """The spec's own bytes (under its file name) and its side files' (under the names
    the spec gives them): what a worker without the spec's folder needs to run it."""
    path = Path(spec)
    text = _read(path, MAX_SPEC_BYTES)
    files = {path.name: text}
    for name in side_file_names(text.decode("utf-8", "replace"), str(path)):
        side = path.parent / name
        if side.is_file() and side.resolve().is_relative_to(path.parent.resolve()):
            files[name] = _read(side, MAX_SIDE_FILE_BYTES)
    return files


def _read(path: Path, cap: int) -> bytes:
    """A regular file's bytes, at most ``cap`` (``/dev/zero`` would be read for ever);
    :class:`OSError` for anything else."""
    try:
        return read_bounded(path, cap)
    except InputRefused as exc:
        raise OSError(f"{path}: {exc}") from None


def spec_sha256(spec: str | Path) -> str:
    """The hash of the spec's text and its side files (of its path if unreadable)."""
    digest = hashlib.sha256()
    try:
        files = spec_files(spec)
    except OSError:
        digest.update(b"unreadable\0" + str(spec).encode())
        return digest.hexdigest()
    own = Path(spec).name
    digest.update(files.pop(own))
    for name in sorted(files):
        digest.update(b"\0" + name.encode() + b"\0" + files[name])
    return digest.hexdigest()


def options_json(limits: Limits, *, precheck: bool, cpu_limit: float | None = None) -> str:
    """The ``options`` column: the limits and switches of a run, as sorted JSON text."""
    options: _Options = {"time_limit": limits.time_limit, "work_limit": limits.work_limit,
                     "workers": limits.workers, "seed": limits.seed,
                     "memory_mb": limits.memory_mb, "precheck": precheck}
    if cpu_limit is not None:
        options["cpu_limit"] = cpu_limit
    return json.dumps(options, sort_keys=True)


def plan(specs: list[str], backends: list[str], options: str, repeat: int,
         hashes: dict[str, str]) -> list[RunKey]:
    """Every run of the campaign, in (spec, backend, repeat) order."""
    return [RunKey(s, hashes[s], b, options, r) for s in specs for b in backends
            for r in range(repeat)]


def _version_of(package: str) -> str | None:
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


class Machine(TypedDict, total=False):
    """Where a run ran, under the names of its columns in ``runs``: :func:`machine` gives
    them all; a run on a cluster brings back its worker's ``host`` and ``cpu_model``."""

    host: str
    cpu_model: str
    trailkit_version: str
    ortools_version: str | None
    pysat_version: str | None
    python_version: str


class _Options(TypedDict, total=False):
    """The ``options`` column before it is JSON text (see :func:`options_json`)."""

    time_limit: float | None
    work_limit: int | None
    workers: int
    seed: int
    memory_mb: int | None
    precheck: bool
    cpu_limit: float


@cache
def machine() -> Machine:
    """The columns that describe where a run ran (the host, its CPU, the versions)."""
    return {"host": socket.gethostname(), "cpu_model": _cpu_model(),
            "trailkit_version": trailkit_version(), "ortools_version": _version_of("ortools"),
            "pysat_version": _version_of("python-sat"),
            "python_version": ".".join(map(str, sys.version_info[:3]))}
