"""``trailkit serve``: the workshop, a local web page for writing, seeing, solving,
repairing and explaining specs (:mod:`trailkit.solvers.frontends.workshop`).

The first line of standard output is the URL with its access token (flushed at once,
as Jupyter prints it, so a script or a test can wait for it); ``--open`` also opens it
in the browser. Ctrl-C stops the server, its runs and its workers: exit 0.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from trailkit.solvers.frontends.cli.options import Exit, examples

__all__ = ["register"]


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port number, not {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {port}")
    return port


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``serve``."""
    p = sub.add_parser("serve", help="a puzzle workshop in the browser: write, see, solve, "
                       "repair and explain specs as you type",
                       **examples("trailkit serve", "trailkit serve specs --open",
                                  "trailkit serve my-puzzles --port 8800"))
    p.add_argument("folder", nargs="?", metavar="FOLDER",
                   help="the folder of specs to list, open, save and create (none: one "
                        "scratch spec, to download)")
    p.add_argument("--port", type=_port, default=None, metavar="N",
                   help="the port (default: 8765, or the next free one; 0: any free port)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--open", action="store_true", help="open the page in the browser")
    p.set_defaults(run=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    from trailkit.solvers.frontends.cli.output import say, warn
    from trailkit.solvers.frontends.workshop import Workshop, serve

    def ready(workshop: Workshop) -> None:
        say(workshop.url)
        sys.stdout.flush()
        warn("trailkit serve: the workshop is open at the address above; Ctrl-C stops it")
        if args.open:
            import webbrowser

            webbrowser.open(workshop.url)

    folder = Path(args.folder) if args.folder is not None else None
    serve(folder, host=args.host, port=args.port, on_ready=ready)
    warn("trailkit serve: stopped")
    return Exit.OK
