"""The ``trailkit`` command line: parse arguments, call the library, format, map exit codes.

Exit codes (like grep and diff): 0 solved / succeeded, 1 proven unsolvable, 2 trouble
with the input or the command line, 3 unknown (a limit was reached), 4 internal
inconsistency (an answer failed verification or a cross-check: a bug).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from trailkit.models.answer import Status
from trailkit.models.errors import BackendUnavailable, SpecError, TrailkitError, VerificationFailure
from trailkit.models.spec import load_spec
from trailkit.solvers.base import Limits
from trailkit.solvers.files import atomic_write, refuse_overwrite
from trailkit.solvers.registry import backend_names
from trailkit.solvers.version import trailkit_version

__all__ = ["main"]

EXIT_OK, EXIT_UNSOLVABLE, EXIT_INPUT, EXIT_UNKNOWN, EXIT_INCONSISTENT = 0, 1, 2, 3, 4
_STATUS_EXIT = {Status.SOLVED: EXIT_OK, Status.UNSOLVABLE: EXIT_UNSOLVABLE,
                Status.UNKNOWN: EXIT_UNKNOWN}


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors say how to get help (exit code 2, as argparse does)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_INPUT, f"{self.prog}: error: {message}\n"
                              f"(run '{self.prog} --help' for the options)\n")


def _positive(convert: Callable[[str], Any], what: str) -> Callable[[str], Any]:
    """An argparse type: ``convert(text)``, which must be more than 0."""

    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text!r} must be more than 0")
        return value

    return parse


_positive_float = _positive(float, "a number of seconds")
_positive_int = _positive(int, "a whole number")


def _add_limits(p: argparse.ArgumentParser) -> None:
    p.add_argument("--time-limit", type=_positive_float, metavar="S",
                   help="give up after S seconds (answer: unknown, exit code 3)")
    p.add_argument("--work-limit", type=_positive_int, metavar="N",
                   help="bound exhaustive searches to N search nodes")
    p.add_argument("--workers", type=_positive_int, default=1, metavar="N",
                   help="solver threads for CP-SAT (default 1: deterministic)")
    p.add_argument("--seed", type=int, default=0, help="random seed for the solvers")


def _limits(args: argparse.Namespace) -> Limits:
    return Limits(time_limit=args.time_limit, work_limit=args.work_limit,
                  workers=args.workers, seed=args.seed)


def build_parser() -> argparse.ArgumentParser:
    backends = ", ".join([*backend_names(), "sat:NAME"])
    parser = _Parser(prog="trailkit", description="Solve, count and certify graph path "
                     "puzzles written as YAML specs; every answer is independently checked.")
    parser.add_argument("--version", action="version", version=f"trailkit {trailkit_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser("solve", help="find a (shortest) walk, or prove there is none")
    p.add_argument("spec")
    p.add_argument("--backend", default=None, help=f"one of {backends}, or 'all' "
                   "(default: direct)")
    p.add_argument("--crosscheck", default="auto", metavar="B",
                   help="second backend to compare with ('auto': direct for the other "
                        "backends; 'none': off)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--from-model", metavar="FILE",
                   help="read a SAT solver's model ('v' lines) for the spec's DIMACS export "
                        "and verify it instead of solving")
    _add_limits(p)

    p = sub.add_parser("count", help="count solutions (and failures)")
    p.add_argument("spec")
    p.add_argument("--backend", default="direct", help=f"one of {backends}")
    p.add_argument("--failures", action="store_true",
                   help="also count failures and early failures")
    p.add_argument("--exact", action="store_true",
                   help="count Euler circuits by formula (BEST theorem) instead of enumerating")
    p.add_argument("--crosscheck", default="auto", metavar="B",
                   help="count with a second backend too and compare ('auto': direct "
                        "for the other backends; 'none': off)")
    p.add_argument("--json", action="store_true")
    _add_limits(p)

    p = sub.add_parser("prove", help="write a certificate that the puzzle is unsolvable")
    p.add_argument("spec")
    p.add_argument("--backend", default="sat",
                   help="backend that makes DRUP proofs (sat, sat:NAME)")
    p.add_argument("--out", metavar="CERT.json", help="write the certificate here")
    p.add_argument("--drup", action="store_true",
                   help="make a DRUP proof even where a structural certificate exists")
    p.add_argument("--json", action="store_true")
    _add_limits(p)

    p = sub.add_parser("check-certificate", help="check a certificate against a spec")
    p.add_argument("spec")
    p.add_argument("certificate")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("compare", help="run several backends on specs and tabulate")
    p.add_argument("specs", nargs="+", metavar="SPEC")
    p.add_argument("--backends", default=",".join(backend_names()),
                   help=f"comma-separated, from {backends} (default: all; one that cannot "
                        "be loaded here gets 'unavailable' rows)")
    p.add_argument("--repeat", type=_positive_int, default=1, metavar="N",
                   help="run each backend N times per spec; rows give the median time")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true")
    fmt.add_argument("--csv", action="store_true")
    p.add_argument("--out", metavar="FILE",
                   help="write the rows to FILE (JSON/CSV by flag or by .json/.csv suffix), "
                        "rewritten atomically after every finished row so Ctrl-C loses "
                        "nothing; the table still goes to standard output")
    p.add_argument("--plot", metavar="FILE.png",
                   help="draw a cactus plot, and with two backends a scatter plot "
                        "FILE-scatter.png (needs matplotlib: pip install 'trailkit[plot]')")
    p.add_argument("--jobs", type=_positive_int, default=1, metavar="N",
                   help="run N worker processes at once (default 1: steadier times)")
    p.add_argument("--memory-limit", type=int, default=4096, metavar="MB",
                   help="address-space limit of each worker in MB (0: none; default 4096); "
                        "a run that exceeds it is a 'memout' row")
    _add_limits(p)

    p = sub.add_parser("generate", help="write a random puzzle spec, reproducible from a seed")
    p.add_argument("kind", choices=("dominoes", "trail", "colour-walk", "alternating"))
    p.add_argument("--size", type=_positive_int, required=True, metavar="N",
                   help="dominoes: highest pip; trail, alternating: nodes; "
                        "colour-walk: side of the hexagon of tyres")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--solvable", choices=("yes", "no", "any"), default="any",
                   help="promise (kept by construction and confirmed by the direct "
                        "backend; then the spec gets an expect: block)")
    p.add_argument("--out", metavar="SPEC.yaml", help="write here (default: standard output)")
    p.add_argument("--force", action="store_true", help="replace an existing --out file")

    p = sub.add_parser("export", help="write the puzzle as a SAT (DIMACS) or CP-SAT model")
    p.add_argument("spec")
    p.add_argument("--format", required=True, choices=("dimacs", "cpsat"))
    p.add_argument("--out", metavar="FILE")

    p = sub.add_parser("import", help="turn a plank or domino list into a YAML spec")
    isub = p.add_subparsers(dest="what", metavar="WHAT", parser_class=_Parser)
    isub.required = True
    q = isub.add_parser("planks", help="'U V colour' per line, '#' comments")
    q.add_argument("file")
    q.add_argument("--start", required=True)
    q.add_argument("--goal", required=True)
    q.add_argument("--colours", "--colors", default="red,blue,green")
    q.add_argument("--name")
    q.add_argument("--out", metavar="SPEC.yaml", help="write here (default: standard output)")
    q.add_argument("--force", action="store_true", help="replace an existing --out file")
    q.add_argument("--keep-repeats", action="store_true",
                   help="keep a plank that is listed twice as two planks")
    q = isub.add_parser("dominoes", help="'1 2' or '1|2' per line")
    q.add_argument("file")
    q.add_argument("--name")
    q.add_argument("--open", action="store_true", help="a line of dominoes, not a ring")
    q.add_argument("--out", metavar="SPEC.yaml")
    q.add_argument("--force", action="store_true")

    p = sub.add_parser("lint", help="validate specs (files or folders)")
    p.add_argument("specs", nargs="+", metavar="SPEC")
    p.add_argument("--expect", action="store_true",
                   help="also solve (and count) each spec and check its expect: block")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``trailkit`` console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = _COMMANDS[args.command]
    try:
        return handler(args)
    except VerificationFailure as exc:
        print(f"trailkit: INTERNAL INCONSISTENCY (this is a bug, please report it): {exc}",
              file=sys.stderr)
        return EXIT_INCONSISTENT
    except SpecError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_INPUT
    except TrailkitError as exc:
        print(f"trailkit: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("trailkit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # never exit 1 (= unsolvable) from an uncaught exception
        if os.environ.get("TRAILKIT_DEBUG"):
            raise
        print(f"trailkit: INTERNAL ERROR (a bug, please report it; set TRAILKIT_DEBUG=1 for "
              f"the traceback): {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_INCONSISTENT


# ----------------------------------------------------------------- commands
def _emit_json(obj: Any) -> None:
    print(json.dumps(obj, indent=2, ensure_ascii=False, default=str))


def cmd_solve(args: argparse.Namespace) -> int:
    from trailkit.solvers.pipeline import solve
    from trailkit.solvers.report import answer_json, answer_text

    puzzle = load_spec(args.spec)
    if args.from_model:
        from trailkit.solvers.models_io import answer_from_model

        answers = [answer_from_model(puzzle, args.from_model)]
    else:
        crosscheck = None if args.crosscheck == "none" else args.crosscheck
        if args.backend == "all":
            answers = []
            for name in backend_names():
                try:
                    answers.append(solve(puzzle, name, _limits(args), crosscheck=crosscheck))
                except BackendUnavailable as exc:
                    print(f"trailkit: skipping {name}: {exc}", file=sys.stderr)
        else:
            answers = [solve(puzzle, args.backend, _limits(args), crosscheck=crosscheck)]
    if args.json:
        objs = [answer_json(puzzle, a, args.spec) for a in answers]
        _emit_json(objs[0] if len(objs) == 1 else objs)
    else:
        print("\n\n".join(answer_text(puzzle, a, args.spec) for a in answers))
    return max(_STATUS_EXIT[a.status] for a in answers)


def cmd_count(args: argparse.Namespace) -> int:
    from trailkit.solvers.counting import count
    from trailkit.solvers.report import count_json, count_text

    puzzle = load_spec(args.spec)
    crosscheck = None if args.crosscheck == "none" else args.crosscheck
    if crosscheck == "auto":
        crosscheck = "direct" if args.backend.split(":")[0] != "direct" else None
    result = count(puzzle, args.backend, _limits(args), failures=args.failures,
                   exact=args.exact, crosscheck=crosscheck,
                   progress=_progress_printer() if not args.json else None)
    if not args.json:
        _clear_status_line()
    if args.json:
        _emit_json(count_json(puzzle, result, args.spec, args.failures))
    else:
        print(count_text(puzzle, result, args.spec, args.failures))
    return EXIT_OK if result.complete else EXIT_UNKNOWN


def _progress_printer() -> Callable[[int], None] | None:
    """A counting progress line on a terminal (stderr), or ``None`` off a terminal."""
    line = _status_line()
    if line is None:
        return None
    return lambda done: line(f"counting: {done:,} search states so far")


def _status_line() -> Callable[[str], None] | None:
    """A one-line status display on a terminal (stderr), or ``None`` off a terminal."""
    if not sys.stderr.isatty():
        return None

    def show(text: str) -> None:
        print(f"\r\033[K  {text}...", end="", file=sys.stderr, flush=True)

    return show


def _clear_status_line() -> None:
    """Erase what :func:`_status_line` showed (nothing to do off a terminal)."""
    if sys.stderr.isatty():
        print("\r\033[K", end="", file=sys.stderr, flush=True)


def cmd_prove(args: argparse.Namespace) -> int:
    from trailkit.solvers.proving import prove

    puzzle = load_spec(args.spec)
    if args.out:
        refuse_overwrite(args.out, [args.spec], allow_existing=True)
    outcome = prove(puzzle, args.backend, _limits(args), spec_path=args.spec, drup=args.drup)
    if args.out and outcome.document is not None:
        atomic_write(args.out, json.dumps(outcome.document, indent=1) + "\n")
    if args.json:
        _emit_json(outcome.summary)
    else:
        print(outcome.text)
        if args.out and outcome.document is not None:
            print(f"certificate written to {args.out}")
    return outcome.exit_code


def cmd_check_certificate(args: argparse.Namespace) -> int:
    from trailkit.solvers.proving import check_certificate_file

    puzzle = load_spec(args.spec)
    status = _status_line() if not args.json else None
    ok, message = check_certificate_file(puzzle, args.certificate, spec_path=args.spec,
                                         progress=status)
    if status is not None:
        _clear_status_line()
    if args.json:
        _emit_json({"format": "trailkit-check/1", "spec": args.spec,
                    "certificate": args.certificate, "accepted": ok, "message": message})
    else:
        print(("accepted: " if ok else "REJECTED: ") + message)
    return EXIT_OK if ok else EXIT_INPUT


def cmd_compare(args: argparse.Namespace) -> int:
    from trailkit.solvers.compare import run_compare

    return run_compare(args)


def cmd_generate(args: argparse.Namespace) -> int:
    from trailkit.solvers.generate import generate

    if args.out:
        refuse_overwrite(args.out, [], allow_existing=args.force)
    made = generate(args.kind, args.size, args.seed, args.solvable)
    if args.out:
        atomic_write(args.out, made.text)
        promise = f", {made.status} (confirmed by direct)" if made.status else ""
        print(f"wrote {args.out}{promise}", file=sys.stderr)
    else:
        sys.stdout.write(made.text)
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    if args.out:
        refuse_overwrite(args.out, [args.spec], allow_existing=True)
    from trailkit.solvers.models_io import export_model

    text = export_model(load_spec(args.spec), args.format)
    if args.out:
        atomic_write(args.out, text)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_import(args: argparse.Namespace) -> int:
    from trailkit.solvers.importers import import_dominoes, import_planks

    if args.what == "planks":
        colours = [c.strip() for c in args.colours.split(",") if c.strip()]
        text, warnings = import_planks(args.file, start=args.start, goal=args.goal,
                                       colours=colours, name=args.name,
                                       keep_repeats=args.keep_repeats)
    else:
        text, warnings = import_dominoes(args.file, name=args.name, closed=not args.open)
    for warning in warnings:
        print(warning, file=sys.stderr)
    if args.out:
        refuse_overwrite(args.out, [args.file], allow_existing=args.force)
        atomic_write(args.out, text)
        print(f"wrote {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_lint(args: argparse.Namespace) -> int:
    from trailkit.solvers.lint import lint_paths

    return lint_paths(args.specs, check_expect=args.expect)


_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "solve": cmd_solve,
    "count": cmd_count,
    "prove": cmd_prove,
    "check-certificate": cmd_check_certificate,
    "compare": cmd_compare,
    "generate": cmd_generate,
    "export": cmd_export,
    "import": cmd_import,
    "lint": cmd_lint,
}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
