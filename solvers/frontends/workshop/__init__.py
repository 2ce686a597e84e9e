"""The workshop: ``trailkit serve``, a local web page where a puzzle is written, seen,
solved, repaired and explained as it is typed.

The unit sits above :mod:`trailkit.solvers.campaigns.isolation` (its runs are forked workers)
and below the command line, which only parses the options and prints the URL. Its
rooms: :mod:`~.server` (socket, token, uvicorn, shutdown), :mod:`~.guard` (the safety
rules, on every request), :mod:`~.routes` (routes), :mod:`~.analysis` (lint and drawing on
each keystroke) and :mod:`~.analyser` (the processes that do it, off the event loop,
within a budget), :mod:`~.edits` (edits on the picture, written into the YAML text),
:mod:`~.runs` and :mod:`~.jobs` (the bounded, cancellable runs), :mod:`~.folder` (the
specs it may read and write), and ``static/`` (the page: HTML, CSS, its script and the
CodeMirror editor, built from ``frontend/``). See ``docs/workshop.md``.
"""

from __future__ import annotations

from trailkit.solvers.frontends.workshop.server import DEFAULT_PORT, Workshop, serve

__all__ = ["DEFAULT_PORT", "Workshop", "serve"]
