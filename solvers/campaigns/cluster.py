"""A campaign's runs on a Dask cluster (``dask.distributed``: the ``cluster`` extra).

``connect("tcp://HOST:8786")`` joins a running scheduler (``dask scheduler`` on one
machine, ``dask worker tcp://HOST:8786`` on each of the others); ``connect("local:N")``
starts a :class:`distributed.LocalCluster` of N worker processes, one thread each. On a
worker each run is the same isolated child as on the local machine
(:func:`trailkit.solvers.campaigns.isolation.run_one`: fork, memory, CPU and wall limits, kill),
so a crashing or runaway solver never takes the worker down.

Specs travel by content, with their side files (the workers need no shared file
system); their hashes are the client's. Results come back as they complete
(``as_completed``) and the client writes each row into its file at once. A worker that
dies in the middle of a run has the run retried once elsewhere (the scheduler's
``allowed-failures`` is 1 on a local cluster; a remote scheduler keeps its own setting);
a run whose workers die every time becomes a ``crash`` row.
"""

from __future__ import annotations

import contextlib
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, cast

from trailkit.models.errors import TrailkitError
from trailkit.solvers.backends.base import Limits
from trailkit.solvers.backends.registry import get_backend
from trailkit.solvers.campaigns.isolation import RunResult, run_one
from trailkit.solvers.campaigns.plan import machine, spec_files
from trailkit.solvers.support.extras import pip_install

__all__ = ["Cluster", "connect", "run_remotely"]

_LOCAL = re.compile(r"local:(\d+)")
_ADDRESS = re.compile(r"(?:tcp|tls|ws|wss|inproc|ucx)://\S+|[\w.-]+:\d+")


def _distributed() -> Any:
    """``dask.distributed``, or a clear error naming the extra."""
    try:
        import distributed
    except ImportError:
        raise TrailkitError("--cluster needs Dask: "
                            f"{pip_install('trailkit[cluster]')}") from None
    return distributed


def run_remotely(spec: str, files: dict[str, bytes] | None, backend: str, limits: Limits,
                 memory_mb: int | None, precheck: bool, cpu_s: float | None
                 ) -> RunResult:
    """On a worker: write the spec and its side files into a fresh folder and run it
    once in an isolated child; the result names the spec as the client gave it."""
    with tempfile.TemporaryDirectory(prefix="trailkit-run-") as folder:
        path = spec
        if files is not None:  # else unreadable on the client: the run says why
            for name, data in files.items():
                target = Path(folder, name)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            path = str(Path(folder, Path(spec).name))
        with contextlib.suppress(Exception):  # imported here once, as the local parent
            get_backend(backend)               # does: not once per run in its child
        result = run_one(path, backend, limits, memory_mb, precheck=precheck, cpu_s=cpu_s)
    if result.get("detail"):
        result["detail"] = str(result["detail"]).replace(path, spec)
    facts = machine()
    result["machine"] = {"host": facts["host"], "cpu_model": facts["cpu_model"]}
    with contextlib.suppress(Exception):
        result["worker"] = _distributed().get_worker().address
    return result


class Cluster:
    """A connected Dask client: how many workers, and an executor for campaigns."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def workers(self) -> int:
        """The workers the scheduler knows now."""
        return len(self.client.scheduler_info().get("workers", {}))

    def executor(self, limits: Limits, *, memory_mb: int | None, precheck: bool,
                 cpu_s: float | None = None
                 ) -> Callable[[Sequence[tuple[str, str]],
                                Callable[[int, RunResult], None]], None]:
        """A :data:`trailkit.solvers.campaigns.campaign.Executor` running on this cluster."""

        def execute(tasks: Sequence[tuple[str, str]],
                    on_result: Callable[[int, RunResult], None]) -> None:
            self._run(tasks, on_result, limits, memory_mb, precheck, cpu_s)

        return execute

    def _run(self, tasks: Sequence[tuple[str, str]],
             on_result: Callable[[int, RunResult], None], limits: Limits,
             memory_mb: int | None, precheck: bool, cpu_s: float | None) -> None:
        """Submit every task, hand each result over as it completes; on Ctrl-C (or any
        error) cancel what has not finished."""
        distributed = _distributed()
        payloads: dict[str, dict[str, bytes] | None] = {}
        futures: dict[Any, int] = {}
        for index, (spec, backend) in enumerate(tasks):
            if spec not in payloads:  # read once; sent with each run (scattered data dies
                try:                  # with its worker, and the runs that need it with it)
                    files: dict[str, bytes] | None = spec_files(spec)
                except OSError:
                    files = None
                payloads[spec] = files
            future = self.client.submit(run_remotely, spec, payloads[spec], backend, limits,
                                        memory_mb, precheck, cpu_s, pure=False,
                                        key=f"trailkit-run-{index}-{id(futures)}")
            futures[future] = index
        try:
            for future in distributed.as_completed(list(futures)):
                on_result(futures[future], _outcome(future, distributed))
        finally:
            self.client.cancel([f for f in futures if not f.done()])


def _outcome(future: Any, distributed: Any) -> RunResult:
    """A finished future's run result; a run whose workers died is a ``crash``."""
    try:
        return cast(RunResult, dict(future.result()))  # what run_remotely returned
    except distributed.KilledWorker:
        return {"status": "crash", "detail": "its worker died while running it, "
                "and again when it was retried"}
    except Exception as exc:  # the worker could not run it at all
        return {"status": "crash", "detail": f"on the cluster: {type(exc).__name__}: {exc}"}


@contextlib.contextmanager
def connect(address: str) -> Iterator[Cluster]:
    """A client of the cluster at ``address`` (``local:N`` starts one of N workers);
    closed (and a local cluster stopped) when the block ends."""
    local = _LOCAL.fullmatch(address)
    if not local and not _ADDRESS.fullmatch(address):
        raise TrailkitError(f"--cluster {address!r}: name a Dask scheduler "
                            "(tcp://HOST:8786) or local:N for N local worker processes")
    distributed = _distributed()
    import dask

    with contextlib.ExitStack() as stack:
        if local:
            workers = int(local.group(1))
            if workers < 1:
                raise TrailkitError("--cluster local:N needs N of at least 1")
            with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
                cluster = stack.enter_context(distributed.LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=40))
            client = stack.enter_context(distributed.Client(cluster))
        else:
            try:
                client = stack.enter_context(distributed.Client(address, timeout=30))
            except OSError as exc:
                raise TrailkitError(f"--cluster {address}: cannot reach the Dask scheduler "
                                    f"({exc}); is 'dask scheduler' running there?") from None
        yield Cluster(client)
