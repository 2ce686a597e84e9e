"""The workshop's routes (Starlette): the page, its static files, and a small JSON API.

``GET /`` the page; ``GET /static/NAME`` its scripts and styles (from the package,
held in memory); ``GET /api/info`` what the page needs to start (the folder's specs,
the backends, the limits); ``POST /api/analyse`` problems and drawing of a text (the
keystroke path); ``POST /api/edit`` an edit made on the picture, as new text;
``POST /api/run`` a solve, count, prove (``claim``: one of ``prove --claim``'s),
repair, explain or inspect (in a worker);
``POST /api/design`` puzzles designed to order (in a worker; the candidates come back as
texts, nothing is written; a tour design first waits for the tour search's background
compile, :mod:`~trailkit.solvers.frontends.workshop.warmup`, which ``GET /api/warmup``
says is running); ``POST /api/cancel`` a page's runs; ``GET /api/file``,
``POST /api/save``, ``POST /api/create`` the folder's specs. Every request passes
:class:`~trailkit.solvers.frontends.workshop.guard.Guard` first. A text over
:data:`MAX_TEXT_BYTES` is refused with a message (413).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from trailkit.models.answer import CLAIM_NAMES
from trailkit.models.errors import TrailkitError
from trailkit.models.support.hints import short
from trailkit.solvers.frontends.presenter.design_options import TOUR_MOVES
from trailkit.solvers.frontends.workshop.analyser import Analyses
from trailkit.solvers.frontends.workshop.designs import TourDesign, read_design
from trailkit.solvers.frontends.workshop.edits import edit_text
from trailkit.solvers.frontends.workshop.folder import Conflict, SpecFolder
from trailkit.solvers.frontends.workshop.guard import security_headers
from trailkit.solvers.frontends.workshop.jobs import OPS, Job
from trailkit.solvers.frontends.workshop.runs import Busy, RunManager
from trailkit.solvers.frontends.workshop.warmup import Warmup
from trailkit.solvers.tools.drawing.html import script_json

__all__ = ["MAX_TEXT_BYTES", "SCRATCH", "Settings", "build_app"]

#: The largest spec text the page may send (the request body cap is a little larger).
MAX_TEXT_BYTES = 1_000_000
#: The longest time limit a run may ask for, in seconds.
MAX_TIME_S = 120.0
#: The spec a page without a folder starts from.
SCRATCH = """trailkit: 1
name: My puzzle
kind: trail
# Edges are 'u v' (or 'u v colour' in a colour walk). Drag the nodes on the picture,
# click two nodes to join them, click an edge to change it.
edges: [a b, b c, c a]
layout: {a: [0, 0], b: [2, 0], c: [1, 1.5]}
"""
_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
          ".html": "text/html; charset=utf-8"}


@dataclass
class Settings:
    """How one workshop runs: its folder (``None``: a scratch spec), the runs' limits."""

    folder: Path | None = None
    workers: int = 2
    queue: int = 8
    memory_mb: int = 2048
    time_limit: float = 10.0
    backends: list[str] = field(default_factory=list)


def _static() -> dict[str, tuple[bytes, str]]:
    """The page's files, read once from the package: name -> (bytes, ETag)."""
    out = {}
    for item in resources.files("trailkit.solvers.frontends.workshop").joinpath("static").iterdir():
        if item.is_file() and Path(item.name).suffix in _TYPES:
            data = item.read_bytes()
            out[item.name] = (data, '"' + hashlib.sha256(data).hexdigest()[:16] + '"')
    return out


def build_app(settings: Settings, runs: RunManager, analyses: Analyses,
              warmup: Warmup | None = None) -> Starlette:
    """The Starlette app of one workshop (wrap it in a Guard before serving it);
    ``warmup`` the tour search's background compile (``None``: none runs)."""
    app = _Handlers(settings, runs, analyses, warmup or Warmup(needed=False))
    routes = [Route("/", app.page), Route("/static/{name}", app.static),
              Route("/favicon.ico", _no_icon),
              Route("/api/info", app.info), Route("/api/file", app.file_route),
              Route("/api/warmup", app.warmup_route),
              Route("/api/analyse", app.analyse_route, methods=["POST"]),
              Route("/api/edit", app.edit_route, methods=["POST"]),
              Route("/api/run", app.run_route, methods=["POST"]),
              Route("/api/design", app.design_route, methods=["POST"]),
              Route("/api/cancel", app.cancel_route, methods=["POST"]),
              Route("/api/save", app.save_route, methods=["POST"]),
              Route("/api/create", app.create_route, methods=["POST"])]
    return Starlette(routes=routes, exception_handlers={Conflict: _conflict,
                                                        TrailkitError: _refused})


class _Handlers:
    """The request handlers of one workshop: its settings, runs, folder and page files."""

    def __init__(self, settings: Settings, runs: RunManager, analyses: Analyses,
                 warmup: Warmup) -> None:
        self.settings = settings
        self.warmup = warmup
        self.runs = runs
        self.analyses = analyses
        self.folder = SpecFolder(settings.folder) if settings.folder is not None else None
        self.files = _static()

    async def page(self, request: Request) -> Response:
        """The page, with what ``/api/info`` answers inside it as a JSON data block
        (not a script: the CSP runs none), so the first load needs no round trip after
        the scripts."""
        nonce = secrets.token_urlsafe(12)
        info = self.start_info()
        opened = info["open"]
        opened["analysis"] = await self.analyses.analyse(
            "start", opened["text"], _source(opened["name"]), _base(self.folder, opened["name"]))
        data = script_json(info)  # no "</script>", no "<!--<script"
        html = self.files["index.html"][0].decode().replace("{{nonce}}", nonce) \
            .replace("{{info}}", data)
        return Response(html, media_type=_TYPES[".html"],
                        headers={"cache-control": "no-store",
                                 **{k.decode(): v.decode() for k, v in
                                    security_headers(nonce)}})

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in self.files or name == "index.html":
            return JSONResponse({"error": f"no file {name}"}, status_code=404)
        data, etag = self.files[name]
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers={"etag": etag})
        return Response(data, media_type=_TYPES[Path(name).suffix],
                        headers={"etag": etag, "cache-control": "no-cache"})

    async def info(self, request: Request) -> Response:
        return JSONResponse(self.start_info())

    async def warmup_route(self, request: Request) -> Response:
        """Whether the tour search is compiling (once, after installing trailkit)."""
        return JSONResponse({"compiling": self.warmup.compiling})

    def start_info(self) -> dict[str, Any]:
        """What the page starts from, with the spec it opens first already read (the
        page adds its analysis: one round trip instead of three on the first load)."""
        names = self.folder.names() if self.folder else []
        first = names[0] if names and self.folder else None
        text, version = self.folder.load(first, MAX_TEXT_BYTES) if first and self.folder \
            else (SCRATCH, None)
        return {
            "folder": str(self.folder.root) if self.folder else None,
            "files": names,
            "open": {"name": first, "text": text, "version": version, "analysis": None},
            "scratch": SCRATCH, "backends": self.settings.backends, "ops": list(OPS),
            "tour_moves": list(TOUR_MOVES),
            "time_limit": self.settings.time_limit, "max_text_bytes": MAX_TEXT_BYTES,
            "runs": self.runs.busy, "analyses": self.analyses.busy}

    async def analyse_route(self, request: Request) -> Response:
        body = await _body(request)
        name = body.get("name")
        return JSONResponse(await self.analyses.analyse(
            str(body.get("slot") or "page"), _text(body), _source(name),
            _base(self.folder, name)))

    async def edit_route(self, request: Request) -> Response:
        body = await _body(request)
        name = body.get("name")
        edit = body.get("edit")
        if not isinstance(edit, dict):
            raise TrailkitError("an edit is a JSON object with a 'kind'")
        text = edit_text(_text(body), edit, _base(self.folder, name))
        analysis = await self.analyses.analyse(
            str(body.get("slot") or "page"), text, _source(name), _base(self.folder, name))
        return JSONResponse({"text": text, **analysis})

    async def run_route(self, request: Request) -> Response:
        body = await _body(request)
        op = body.get("op")
        if op not in OPS:
            raise TrailkitError(f"unknown op {op!r}; choose from {', '.join(OPS)}")
        name = body.get("name")
        backend = body.get("backend") or None
        if backend is not None and backend not in self.settings.backends:
            raise TrailkitError(f"unknown backend {backend!r}; choose from "
                                f"{', '.join(self.settings.backends)}")
        given = body.get("rules")
        rules: dict[str, Any] = given if isinstance(given, dict) else {}
        claim = body.get("claim") or "unsolvable"
        if claim not in CLAIM_NAMES:
            raise TrailkitError(f"unknown claim {claim!r}; choose from "
                                f"{', '.join(CLAIM_NAMES)}")
        base = _base(self.folder, name)
        job = Job(op, _text(body), _source(name), str(base) if base else None, backend,
                  self._limit(body), rules, failures=body.get("failures") is True,
                  claim=claim)
        return await self._submit(request, body, job)

    async def design_route(self, request: Request) -> Response:
        """A design run: the panel's request checked here (a bad value is a 400 with
        its message), the design made in a worker like every run."""
        body = await _body(request)
        name = body.get("name")
        ask = read_design(body.get("design"), _source(name))
        base = _base(self.folder, name)
        job = Job("design", _text(body), _source(name), str(base) if base else None,
                  time_limit=self._limit(body), design=ask)
        # a tour's time limit starts once the search compiled (in the background)
        ready = self.warmup.ready if isinstance(ask, TourDesign) else None
        return await self._submit(request, body, job, ready)

    def _limit(self, body: dict[str, Any]) -> float:
        """The run's time limit: the page's, within 0.1 s and :data:`MAX_TIME_S`."""
        given = body.get("time_limit")
        try:
            limit = float(given or self.settings.time_limit)
        except (TypeError, ValueError, OverflowError):  # 400 digits: no float holds it
            limit = float("nan")
        if limit != limit or isinstance(given, bool):  # NaN
            raise TrailkitError(f"time_limit is a number of seconds (at most {MAX_TIME_S:g}), "
                                f"not {short(json.dumps(given), 40)}")
        return max(0.1, min(limit, MAX_TIME_S))

    async def _submit(self, request: Request, body: dict[str, Any], job: Job,
                      ready: Callable[[], Awaitable[None]] | None = None) -> Response:
        """Run ``job`` in the page's slot (once ``ready()``, if given, returned); 503
        when too many runs wait already; a run whose asker hangs up is stopped (499)."""
        run = asyncio.ensure_future(self.runs.run(str(body.get("slot") or "page"), job,
                                                  ready))
        gone = asyncio.ensure_future(_until_gone(request))
        try:
            await asyncio.wait({run, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
        if not run.done():  # the page went away without a word: so does its run
            run.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await run
            return Response(status_code=499)
        try:
            result = run.result()
        except Busy as exc:
            return JSONResponse({"error": f"busy: {exc}"}, status_code=503,
                                headers={"retry-after": "1"})
        return JSONResponse(result)

    async def cancel_route(self, request: Request) -> Response:
        body = await _body(request)
        slot = str(body.get("slot") or "page")
        return JSONResponse({"cancelled": self.runs.cancel(slot),
                             "analyses": self.analyses.cancel(slot)})

    async def file_route(self, request: Request) -> Response:
        name = request.query_params.get("name", "")
        text, version = _folder(self.folder).load(name, MAX_TEXT_BYTES)
        return JSONResponse({"name": name, "text": text, "version": version})

    async def save_route(self, request: Request) -> Response:
        body = await _body(request)
        name = str(body.get("name") or "")
        base = body.get("base")
        version = _folder(self.folder).save(name, _text(body),
                                            base if isinstance(base, str) else None,
                                            MAX_TEXT_BYTES)
        return JSONResponse({"saved": name, "version": version,
                             "files": _folder(self.folder).names()})

    async def create_route(self, request: Request) -> Response:
        body = await _body(request)
        name = str(body.get("name") or "")
        version = _folder(self.folder).create(name, _text(body))
        return JSONResponse({"created": name, "version": version,
                             "files": _folder(self.folder).names()})


async def _refused(request: Request, exc: Exception) -> Response:
    status = 413 if isinstance(exc, _TooBig) else 400
    return JSONResponse({"error": str(exc)}, status_code=status)


async def _conflict(request: Request, exc: Exception) -> Response:
    """A stale save: 409 with the text on disk and its version, so the page can show
    both and the author choose."""
    assert isinstance(exc, Conflict)
    return JSONResponse({"error": str(exc), "conflict": True, "disk": exc.disk,
                         "version": exc.version}, status_code=409)


async def _no_icon(request: Request) -> Response:
    return Response(status_code=204)


class _TooBig(TrailkitError):
    """A spec text over the page's limit."""


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError as exc:
        why = "a number too long to read: over 4,300 digits" if "digits" in str(exc) \
            else short(str(exc), 120)
        raise TrailkitError(f"the request body is not JSON ({why})") from None
    except RecursionError:
        raise TrailkitError(_DEEP) from None
    if not isinstance(body, dict):
        raise TrailkitError("the request body is a JSON object")
    try:
        _check_unicode(body, "the request")
    except RecursionError:
        raise TrailkitError(_DEEP) from None
    return body


_DEEP = ("the request body is nested too deeply (lists or objects inside one another "
         "hundreds deep); nothing was read or written")


def _check_unicode(value: Any, where: str) -> None:
    """Refuse a string anywhere in a request that is not valid Unicode (JSON lets a lone
    surrogate through as ``\\ud800``; no file name or spec text can hold one)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise TrailkitError(f"{where} is not valid Unicode (a lone surrogate at "
                                f"character {exc.start + 1}); nothing was read or "
                                "written") from None
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_unicode(key, where)
            _check_unicode(item, f"'{key}'" if where == "the request" else where)
    elif isinstance(value, list):
        for item in value:
            _check_unicode(item, where)


def _text(body: dict[str, Any]) -> str:
    text = body.get("text")
    if not isinstance(text, str):
        raise TrailkitError("the request has no spec 'text'")
    if len(text.encode("utf-8")) > MAX_TEXT_BYTES:
        raise _TooBig(f"the spec is larger than {MAX_TEXT_BYTES // 1_000_000} MB; the "
                      "workshop edits smaller specs (trailkit lint and solve take any size)")
    return text


def _source(name: Any) -> str:
    return str(name) if isinstance(name, str) and name else "scratch.yaml"


def _folder(folder: SpecFolder | None) -> SpecFolder:
    if folder is None:
        raise TrailkitError("this workshop has no folder (start it as 'trailkit serve "
                            "FOLDER'); download the spec instead")
    return folder


def _base(folder: SpecFolder | None, name: Any) -> Path | None:
    """Where a spec's side files are read from: its folder (none for a scratch spec)."""
    if folder is None:
        return None
    return folder.base_dir(name if isinstance(name, str) and name else None)


async def _until_gone(request: Request) -> None:
    """Return when the client of ``request`` (whose body was read) has closed its
    connection: the second sign that a page went away, for when its ``pagehide`` word
    never arrives (a browser may drop it, a busy machine may delay it)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass
