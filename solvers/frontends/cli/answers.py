"""The answering commands: ``solve``, ``count``, ``prove`` and ``check-certificate``."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from trailkit.models.answer import CLAIM_NAMES, Status
from trailkit.models.errors import TrailkitError
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.frontends.cli import output
from trailkit.solvers.frontends.cli.options import (
    BACKEND_HELP,
    Exit,
    add_json,
    add_limits,
    add_out,
    add_precheck,
    add_spec,
    command_s,
    examples,
    exit_for,
    limits_from,
    load_within,
)
from trailkit.solvers.frontends.cli.output import clear_status_line, say, status_line, warn
from trailkit.solvers.support.files import (
    atomic_write,
    check_folder,
    check_outputs,
    spec_inputs,
    write_folder,
    write_pair,
)

if TYPE_CHECKING:
    from trailkit.solvers.frontends.presenter.verbs import Said
    from trailkit.solvers.pipeline.proving import Proof

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``solve``, ``count``, ``prove`` and ``check-certificate``."""
    _add_solve(sub)
    _add_count(sub)
    _add_prove(sub)
    _add_check_certificate(sub)


def _add_solve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("solve", help="find a (shortest) walk, or prove there is none",
                       **examples("trailkit solve specs/nikolaus.yaml --backend all",
                                  "trailkit solve specs/koenigsberg.yaml --json",
                                  "trailkit solve specs/tyre-puzzle/restored.yaml --backend sat"))
    add_spec(p)
    p.add_argument("--backend", default=None, help=f"one of {BACKEND_HELP}, or 'all' "
                   "(default: direct)")
    _add_crosscheck(p, "solve with a second backend too and compare")
    add_json(p)
    p.add_argument("--from-model", metavar="FILE",
                   help="read a SAT solver's model ('v' lines) for the spec's DIMACS export "
                        "and verify it instead of solving")
    p.add_argument("--unique", action="store_true",
                   help="also say whether the walk is the only solution (the only shortest "
                        "walk), with a certificate, or show a second walk")
    add_limits(p)
    add_precheck(p)
    p.set_defaults(run=cmd_solve, unread="result")  # its answer when the reading runs out


def _add_count(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("count", help="count solutions (and failures)",
                       **examples("trailkit count specs/nikolaus.yaml --failures",
                                  "trailkit count specs/dominoes/double-six.yaml"))
    add_spec(p)
    p.add_argument("--backend", default=None, help=f"one of {BACKEND_HELP} (default: direct)")
    p.add_argument("--failures", action="store_true",
                   help="also count failures and early failures")
    p.add_argument("--method", choices=("auto", "enumerate", "exact"), default="auto",
                   help="auto (default): the exact formula where it applies and no failures "
                        "are asked for, else enumeration")
    p.add_argument("--exact", action="store_const", const="exact", dest="method",
                   help="the same as --method exact: count Euler circuits by formula "
                        "(BEST theorem) instead of enumerating")
    _add_crosscheck(p, "count with a second backend too and compare")
    add_json(p, "the counts")
    add_limits(p)
    add_precheck(p)
    p.set_defaults(run=cmd_count, unread="count")  # its answer when the reading runs out


def _add_prove(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("prove", help="write a certificate that the puzzle is unsolvable",
                       **examples("trailkit prove specs/koenigsberg.yaml --out cert.json",
                                  "trailkit check-certificate specs/koenigsberg.yaml cert.json"))
    add_spec(p)
    p.add_argument("--backend", default="sat",
                   help="backend that makes DRUP proofs (sat, sat:NAME)")
    add_out(p, "CERT.json", "the certificate", stdout=False)
    p.add_argument("--claim", choices=CLAIM_NAMES,
                   default="unsolvable", help="the claim to certify (default: unsolvable); "
                   "shortest: no walk is shorter; unique: no other (shortest) walk exists; "
                   "count: the number of walks; longest: no walk is longer; "
                   "fewest-changes: no repair within the spec's rules has fewer changes; "
                   "minimal-core: the core explain shows cannot be walked, and each of its "
                   "edges is needed")
    p.add_argument("--drup", action="store_true",
                   help="make a DRUP proof even where a structural certificate exists")
    p.add_argument("--proof-dir", metavar="DIR",
                   help="write DIR/formula.cnf and DIR/proof.drat (a DRUP proof; implies "
                        "--drup) for outside checkers: drat-trim formula.cnf proof.drat "
                        "(--force replaces them)")
    p.add_argument("--lrat", action="store_true",
                   help="with --proof-dir, also write DIR/proof.lrat (LRAT, for cake_lpr); "
                        "with --out, the certificate's proof is LRAT (implies --drup)")
    add_json(p, "what was proved")
    add_limits(p)
    add_precheck(p)
    p.set_defaults(run=cmd_prove, unread="prove")  # its answer when the reading runs out


def _add_check_certificate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("check-certificate", help="check a certificate against a spec "
                       "(exit 0 accepted, 1 rejected, 2 unreadable)",
                       **examples("trailkit prove specs/koenigsberg.yaml --out cert.json",
                                  "trailkit check-certificate specs/koenigsberg.yaml cert.json",
                                  "trailkit solve specs/koenigsberg.yaml --json > answer.json "
                                  "&& trailkit check-certificate specs/koenigsberg.yaml "
                                  "answer.json"))
    add_spec(p)
    p.add_argument("certificate", metavar="CERT.json",
                   help="a certificate file from 'trailkit prove --out', or a 'solve --json' "
                        "answer")
    add_json(p, "the verdict")
    p.set_defaults(run=cmd_check_certificate)


def _add_crosscheck(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--crosscheck", default="auto", metavar="B",
                   help=f"{what} ('auto': direct for the other backends; 'none': off)")


def _crosscheck(args: argparse.Namespace) -> str | None:
    return None if args.crosscheck == "none" else args.crosscheck


def cmd_solve(args: argparse.Namespace) -> int:
    from trailkit.solvers.frontends.presenter.results import answer_json, answer_text
    from trailkit.solvers.pipeline.solving import solve, solve_all

    puzzle = load_within(args.spec, args.time_limit)
    output.use_names(puzzle)  # names stay apart on a console that cannot show them
    precheck = args.precheck == "on"
    if args.from_model:
        from trailkit.solvers.frontends.cli.assignments import model_answer

        answers = [model_answer(puzzle, args.from_model)]
    elif args.backend == "all":
        answers, skipped = solve_all(puzzle, limits_from(args), _crosscheck(args),
                                     precheck=precheck, unique=args.unique)
        for name, why in skipped.items():
            warn(f"trailkit: skipping {name}: {why}")
    else:
        answers = [solve(puzzle, args.backend, limits_from(args), _crosscheck(args),
                         precheck=precheck, unique=args.unique)]
    if len(answers) == 1:  # its time: the wall time of the command, as in the text
        answers = [replace(answers[0], time_s=command_s())]
    if args.json:
        objs = [answer_json(puzzle, a, args.spec) for a in answers]
        first = objs[0]
        if args.backend == "all":  # one object, as ever: the first answer, and all of them
            first = {**first, "all_backends": objs}
        output.emit_json(first)
    elif len(answers) == 1:  # the time the user waited, compiling named apart
        from trailkit.models.support.jit import compile_seconds

        say(answer_text(puzzle, answers[0], args.spec, (command_s(), compile_seconds())))
    else:  # each backend's own time
        say("\n\n".join(answer_text(puzzle, a, args.spec) for a in answers))
    return max(exit_for(a.status) for a in answers)


def cmd_count(args: argparse.Namespace) -> int:
    from trailkit.solvers.frontends.presenter.verbs import count_verb

    puzzle = load_within(args.spec, args.time_limit)
    output.use_names(puzzle)  # names stay apart on a console that cannot show them
    said = count_verb(puzzle, args.spec, args.backend, limits_from(args),
                      failures=args.failures, method=args.method,
                      crosscheck=_crosscheck(args), precheck=args.precheck == "on",
                      progress=_progress_printer(puzzle, args) if not args.json else None,
                      clock=command_s, shown=output.as_shown)
    if not args.json:
        clear_status_line()
    if args.json:
        output.emit_json(said.data)
    else:
        say(said.text)
    if said.result.stats.get("interrupted"):
        warn("trailkit: interrupted; the counts above are what was found so far")
        return Exit.INTERRUPTED
    return Exit.OK if said.result.complete else Exit.UNKNOWN


def _progress_printer(puzzle: Puzzle, args: argparse.Namespace
                      ) -> Callable[[int], None] | None:
    """A counting progress line on a terminal (stderr), or ``None`` off a terminal; it
    points to the exact formula where one applies and enumeration was chosen."""
    from trailkit.solvers.pipeline.counting import exact_applies

    line = status_line()
    if line is None:
        return None
    hint = ""
    if args.method == "enumerate" and not args.failures and exact_applies(puzzle):
        hint = " (--method exact counts this by formula)"
    return lambda done: line(f"counting: {done:,} solutions so far{hint}")


def cmd_prove(args: argparse.Namespace) -> int:
    from trailkit.solvers.frontends.presenter.proofs import claims_instead, prove_json, prove_text
    from trailkit.solvers.pipeline.proving import prove

    puzzle = load_within(args.spec, args.time_limit)
    output.use_names(puzzle)  # names stay apart on a console that cannot show them
    if args.out:
        side = Path(args.out).with_suffix(".lrat" if args.lrat else ".drat")
        check_outputs([(args.out, "--out"), (side, "--out")],
                      spec_inputs(args.spec, [args.out, side]), force=args.force)
    if args.lrat and not (args.proof_dir or args.out):
        raise TrailkitError("--lrat needs --proof-dir DIR or --out CERT.json (where the "
                            "LRAT proof goes)")
    if args.claim != "unsolvable":
        return _prove_claim(puzzle, args)
    targets = _proof_targets(args)
    status = status_line() if not args.json else None
    proof = prove(puzzle, args.backend, limits_from(args), spec_path=args.spec,
                  drup=args.drup or bool(args.proof_dir) or args.lrat,
                  precheck=args.precheck == "on", progress=status)
    if status is not None:
        clear_status_line()
    if targets and proof.certificate is not None:
        _write_proof_files(puzzle, proof.certificate.data, targets)
    written = _write_certificate(puzzle, proof, args.out, args.lrat) \
        if args.out and proof.document is not None else []
    if args.json:
        output.emit_json(prove_json(proof, args.spec, args.out))
    else:
        instead = claims_instead(puzzle) if proof.status is Status.SOLVED else []
        say(prove_text(proof, args.out if written else None,
                       written[0] if len(written) > 1 else None, list(targets.values()),
                       instead))
    return {Status.SOLVED: Exit.OK, Status.UNSOLVABLE: Exit.UNSOLVABLE}.get(
        proof.status, Exit.UNKNOWN)


def _prove_claim(puzzle: Puzzle, args: argparse.Namespace) -> int:
    """``prove --claim shortest|unique``: exit 0 certified (unique: yes), 1 not unique
    (a second walk shown) or no walk at all, 3 unknown."""
    from trailkit.solvers.frontends.presenter.verbs import claim_verb

    if args.lrat and not args.proof_dir:
        raise TrailkitError(f"--claim {args.claim} --lrat needs --proof-dir DIR (its "
                            "certificate file keeps the DRUP proof)")
    targets = _proof_targets(args)
    if args.claim == "minimal-core":
        said = _prove_core(puzzle, args, targets)
    else:
        said = claim_verb(puzzle, args.spec, args.claim, limits_from(args), out=args.out,
                          drup=bool(args.proof_dir or args.lrat or args.drup),
                          then=(lambda found: _with_drup_proof(puzzle, found, args)
                                if found.status is Status.UNSOLVABLE else found)
                          if targets else None)
    proof = said.result
    if targets and proof.certificate is not None and proof.certificate.kind == "drup":
        _write_proof_files(puzzle, proof.certificate.data, targets)
    elif targets and proof.certificate is not None and args.claim != "minimal-core":
        raise TrailkitError(f"--claim {args.claim} here rests on a {proof.certificate.kind} "
                            "certificate, not a DRUP proof (use --out CERT.json)")
    if args.out and proof.document is not None:
        atomic_write(args.out, json.dumps(proof.document, indent=1) + "\n")
    _say_claim(said, args, targets)
    if proof.status is Status.SOLVED or (proof.claim is not None and proof.claim.checked):
        return Exit.OK if proof.claim is None or proof.claim.value is not False \
            else Exit.UNSOLVABLE  # (a certified count of 0 too: its value is found)
    return Exit.UNSOLVABLE if proof.status is Status.UNSOLVABLE else Exit.UNKNOWN


def _say_claim(said: Said, args: argparse.Namespace, targets: Mapping[str, Path]) -> None:
    """Print a claim's proof, and which files were written."""
    if args.json:
        output.emit_json(said.data)
        return
    say(said.text)
    if args.out and said.result.document is not None:
        say(f"certificate written to {args.out}")
    if targets and said.result.certificate is not None:
        say(f"proof files written: {', '.join(map(str, targets.values()))}")


def _prove_core(puzzle: Puzzle, args: argparse.Namespace, targets: Mapping[str, Path]
                ) -> Said:
    """``prove --claim minimal-core``: the core and its certificate (a refutation of the
    core's formula with ``--proof-dir``, whose files are written here); a puzzle with a
    walk, or whose edges may be reused, has no core, so the claim does not apply (exit 2)."""
    from trailkit.solvers.frontends.presenter.verbs import claim_verb

    said = claim_verb(puzzle, args.spec, "minimal-core", limits_from(args), out=args.out,
                      drup=bool(targets or args.drup))
    proof = said.result
    argument = proof.certificate.data["unsolvable"] if proof.certificate else {}
    if targets and argument.get("type") != "drup":
        raise TrailkitError(f"--claim minimal-core here rests on the core's "
                            f"{argument.get('type', 'no')} argument, not a DRUP proof (use "
                            "--out CERT.json)")
    if targets:
        _write_proof_files(puzzle, argument, targets)
    return said


def _with_drup_proof(puzzle: Puzzle, proof: Proof, args: argparse.Namespace) -> Proof:
    """``proof`` (no walk at all, so no claim) with a DRUP proof of that, for the files of
    ``--proof-dir``, where its certificate is another kind (a parity argument)."""
    from trailkit.solvers.pipeline.proving import prove

    if proof.certificate is not None and proof.certificate.kind == "drup":
        return proof
    refuted = prove(puzzle, args.backend, limits_from(args), spec_path=args.spec, drup=True)
    return replace(proof, certificate=refuted.certificate) if refuted.certificate else proof


def _proof_targets(args: argparse.Namespace) -> dict[str, Path]:
    """The files ``--proof-dir`` will write, by name; refuses (exit 2) before any work
    when one exists without ``--force``, the folder is not a folder, or a file is the
    spec, one of its side files or the ``--out`` certificate."""
    from trailkit.models.encodings import proof_files

    if not args.proof_dir:
        return {}
    folder = Path(args.proof_dir)
    names = [proof_files.FORMULA, proof_files.PROOF] + [proof_files.LRAT] * args.lrat
    outs = [args.out, Path(args.out).with_suffix(".lrat" if args.lrat else ".drat")] \
        if args.out else []
    others = [*spec_inputs(args.spec, [folder / name for name in proof_files.ALL]), *outs]
    check_folder(folder, proof_files.ALL, allow_existing=args.force, inputs=others)
    return {name: folder / name for name in names}


def _write_certificate(puzzle: Puzzle, proof: Proof, out: str, lrat: bool) -> list[Path]:
    """Write the certificate file ``out`` (after its proof's side file), atomically; with
    ``lrat`` its proof is LRAT. Returns the files written, in order."""
    from trailkit.models.encodings.proof_files import lrat_certificate
    from trailkit.solvers.pipeline.proving import certificate_files

    document = proof.document or {}
    if lrat and proof.certificate is not None and proof.certificate.kind == "drup":
        document = {**document,
                    "certificate": lrat_certificate(puzzle, proof.certificate).to_json()}
    files = certificate_files(document, out)
    if len(files) == 1:
        atomic_write(*files[0])
    else:  # the JSON and its proof's side file, replaced as a set
        (side, proof_text), (target, text) = files
        data = json.loads(text)

        def naming(name: str) -> str:
            data["certificate"]["proof_file"] = name
            return json.dumps(data, indent=1) + "\n"

        write_pair(side, proof_text, target, naming)
    return [path for path, _ in files]


def _write_proof_files(puzzle: Puzzle, data: Mapping[str, Any],
                       targets: Mapping[str, Path]) -> None:
    """Write the proof files of the ``drup`` certificate ``data``, replacing the folder's
    files as a set (:func:`~trailkit.solvers.support.files.write_folder`)."""
    from trailkit.models.encodings import proof_files

    texts = {proof_files.FORMULA: lambda: proof_files.formula_file(data, puzzle.name),
             proof_files.PROOF: lambda: proof_files.proof_file(data),
             proof_files.LRAT: lambda: proof_files.lrat_file(puzzle, data)}
    folder = next(iter(targets.values())).parent
    write_folder(folder, {name: texts[name] for name in targets}, proof_files.ALL)


def cmd_check_certificate(args: argparse.Namespace) -> int:
    from trailkit.solvers.frontends.presenter.proofs import check_json, check_text
    from trailkit.solvers.pipeline.certificate_check import check_certificate_file

    puzzle = load_spec(args.spec)
    output.use_names(puzzle)  # names stay apart on a console that cannot show them
    status = status_line() if not args.json else None
    verdict = check_certificate_file(puzzle, args.certificate, spec_path=args.spec,
                                     progress=status)
    if status is not None:
        clear_status_line()
    if args.json:
        output.emit_json(check_json(verdict, args.spec, args.certificate))
    else:
        say(check_text(verdict))
    return Exit.OK if verdict.accepted else Exit.UNSOLVABLE
