"""Starting and stopping one workshop: the socket, the token, uvicorn, the workers.

:func:`serve` binds the address first (so the port, and with it the Host allow-list, is
known before anything is served), loads the solvers once in the server process (every
forked worker then starts with them loaded), runs uvicorn until Ctrl-C (or SIGTERM),
and on the way out cancels every run and reaps every worker. It returns normally: a
stop asked for is no error. ``on_ready(url)`` is called once the page can be loaded.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import signal
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from trailkit.models.errors import BackendUnavailable, TrailkitError
from trailkit.solvers.support.extras import pip_install

if TYPE_CHECKING:
    import uvicorn

__all__ = ["DEFAULT_PORT", "Workshop", "serve"]

#: The port tried first when none is given (then the next few, then any free one).
DEFAULT_PORT = 8765
_TRIES = 10
#: The request body cap: a 1 MB spec as JSON (escapes included) fits; 2 MB does not.
MAX_BODY = 1_500_000
#: The seconds the analysis of one edit may take (lint first, then the drawing).
ANALYSIS_TIME_S = 5.0


@dataclass(frozen=True)
class Workshop:
    """Where a started workshop listens, and its access token."""

    host: str
    port: int
    token: str

    @property
    def url(self) -> str:
        """The address to open, token included (as ``trailkit serve`` prints it)."""
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{shown}:{self.port}/?token={self.token}"


def _modules() -> tuple[Any, Any]:
    """Starlette and uvicorn, or an error that says how to install them."""
    try:
        import starlette
        import uvicorn
    except ImportError as exc:
        raise TrailkitError(f"trailkit serve needs the serve extra ({exc.name} is missing): "
                            f"{pip_install('trailkit[serve]')}") from None
    return starlette, uvicorn


def _bind(host: str, port: int | None) -> socket.socket:
    """A listening socket on ``host`` (the given port, else the first free one from
    :data:`DEFAULT_PORT`)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    ports = [port] if port is not None else [*range(DEFAULT_PORT, DEFAULT_PORT + _TRIES), 0]
    for candidate in ports:
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, candidate))
        except OSError as exc:
            sock.close()
            if exc.errno == errno.EADDRINUSE and candidate != ports[-1]:
                continue
            raise TrailkitError(f"cannot listen on {host}:{candidate}: {exc.strerror or exc}"
                                + ("; choose another --port" if exc.errno == errno.EADDRINUSE
                                   else "")) from None
        sock.listen(128)
        sock.set_inheritable(True)
        return sock
    raise TrailkitError("no free port")  # unreachable: port 0 always binds


#: The programs ``dimacs:`` offers when they are on PATH (any other is typed by name).
DIMACS_PROGRAMS = ("cadical", "kissat", "minisat", "picosat", "cryptominisat5", "glucose",
                   "lingeling")


def _backends() -> list[str]:
    """Every backend that loads here (imported now, so workers inherit it): trailkit's
    own, ``minizinc:SOLVER`` for each solver the installed MiniZinc can run, and
    ``dimacs:PROGRAM`` for each known SAT solver program on PATH."""
    from trailkit.solvers.backends.registry import backend_names, get_backend

    usable = []
    for name in [*backend_names(), *_minizinc_names(),
                 *(f"dimacs:{p}" for p in DIMACS_PROGRAMS)]:
        try:
            get_backend(name)
        except BackendUnavailable:
            continue
        usable.append(name)
    return usable


def _minizinc_names() -> list[str]:
    """``minizinc:SOLVER`` for each solver MiniZinc lists that runs on its own: not a
    GUI (Gecode Gist) and not one that needs a library MiniZinc has to be pointed at
    (``requiredFlags``: CPLEX, Gurobi, Xpress without their DLLs)."""
    import json
    import shutil
    import subprocess

    executable = shutil.which("minizinc")
    if executable is None:
        return []
    try:
        done = subprocess.run([executable, "--solvers-json"], capture_output=True,
                              text=True, timeout=20, check=False)
        listed = json.loads(done.stdout)
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return []
    names = []
    for solver in listed if isinstance(listed, list) else []:
        ident = str(solver.get("id", ""))
        if ident and not solver.get("isGUIApplication") and not solver.get("requiredFlags"):
            names.append(f"minizinc:{ident.rsplit('.', 1)[-1]}")
    return sorted(set(names))


def _warm() -> None:
    """Load what every run and every analysis uses, once, in the server: workers and
    analysers are forked with it, so a fresh one (one that replaced a stopped one too)
    answers its first spec as fast as its hundredth. The scratch spec is analysed and
    put through every op (milliseconds each, once loaded); what that loads stays
    loaded: the spec reader, lint, the drawing, the pipeline, the direct backend's
    compiled kernels, the SAT solver, repair and the presenter."""
    from trailkit.solvers.frontends.workshop.analysis import analyse
    from trailkit.solvers.frontends.workshop.jobs import OPS, Job, run_job
    from trailkit.solvers.frontends.workshop.routes import SCRATCH

    analyse(SCRATCH)
    for op in OPS:
        run_job(Job(op, SCRATCH))


def _server_class(workshop: Workshop, on_ready: Callable[[Workshop], None],
                  stop_all: Callable[[], None]) -> type[uvicorn.Server]:
    """uvicorn's server, told when it is ready and stopping runs at once on Ctrl-C (called
    once :func:`_modules` found uvicorn)."""
    import uvicorn

    class _Server(uvicorn.Server):
        """uvicorn, told when it is ready, that stops runs at once on Ctrl-C and
        returns normally (no re-raised SIGINT)."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                self._loop = asyncio.get_running_loop()
                on_ready(workshop)

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if self.should_exit and sig == signal.SIGINT:
                self.force_exit = True
            self.should_exit = True
            loop = getattr(self, "_loop", None)
            if loop is not None:
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(stop_all)

    return _Server


def _closing(*parts: Any) -> Callable[[], None]:
    """One call that closes each of ``parts`` (the warm-up, the runs, the analyses)."""
    def stop_all() -> None:
        for part in parts:
            part.close()
    return stop_all


def serve(folder: Path | None, *, host: str = "127.0.0.1", port: int | None = None,
          on_ready: Callable[[Workshop], None] = lambda w: None, workers: int = 2,
          queue: int = 8, time_limit: float = 10.0, memory_mb: int = 2048) -> Workshop:
    """Serve the workshop of ``folder`` (``None``: a scratch spec) until Ctrl-C; see the
    module docstring. Raises :class:`TrailkitError` for what stops it from starting."""
    _, uvicorn = _modules()
    from trailkit.solvers.frontends.workshop.analyser import Analyses
    from trailkit.solvers.frontends.workshop.guard import Guard, new_token
    from trailkit.solvers.frontends.workshop.routes import Settings, build_app
    from trailkit.solvers.frontends.workshop.runs import RunManager
    from trailkit.solvers.frontends.workshop.warmup import Warmup

    if folder is not None and not folder.is_dir():
        raise TrailkitError(f"{folder} is not a folder")
    sock = _bind(host, port)
    bound = sock.getsockname()[1]
    workshop = Workshop(host, bound, new_token())
    settings = Settings(folder, workers, queue, memory_mb, time_limit, _backends())
    _warm()
    runs = RunManager(workers=workers, queue=queue, memory_mb=memory_mb)
    analyses = Analyses(workers=workers, time_s=ANALYSIS_TIME_S, memory_mb=memory_mb)
    warmup = Warmup().start()  # the tour search compiled in the background, once
    stop_all = _closing(warmup, runs, analyses)

    shown = f"[{host}]" if ":" in host else host
    hosts = {f"{shown}:{bound}", f"localhost:{bound}"}
    app = Guard(build_app(settings, runs, analyses, warmup), token=workshop.token, hosts=hosts,
                max_body=MAX_BODY)

    server_class = _server_class(workshop, on_ready, stop_all)
    config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False,
                            timeout_graceful_shutdown=5, server_header=False)
    server = server_class(config)
    try:
        server.run(sockets=[sock])
    finally:
        stop_all()
        sock.close()
    return workshop
