"""Formulas as files: ``trailkit export`` and ``trailkit solve --from-model``.

``export_model(puzzle, "dimacs")`` writes the SAT backend's CNF with ``c`` lines
naming every step variable, ``export_model(puzzle, "cpsat")`` the CP-SAT model as
protobuf text, ``export_model(puzzle, "mzn")`` the MiniZinc model.
``answer_from_model`` reads an external SAT solver's model (``v``
lines) back into a walk; the pipeline's checker then judges it like any answer.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from trailkit.models.answer import Answer
from trailkit.models.errors import TrailkitError, UnsupportedPuzzle
from trailkit.models.puzzle import Puzzle
from trailkit.solvers.backends.registry import BACKENDS
from trailkit.solvers.pipeline import check_answer

__all__ = ["MAX_MODEL_BYTES", "answer_from_model", "export_model", "export_size_problem",
           "refuse_node_rules"]

MAX_MODEL_BYTES = 256 * 1024 * 1024
"""A solver's model file over this size is refused (a model is a line per variable)."""


def export_size_problem(puzzle: Puzzle, fmt: str, memory_mb: int | None) -> str | None:
    """Why the model in ``fmt`` must not be built within ``memory_mb`` (``None``: it may),
    from the size estimates made before building it (:mod:`trailkit.models.encodings.sizes`)."""
    from trailkit.models.encodings.sizes import circuit_problem, export_problem

    if fmt == "dimacs":
        from trailkit.solvers.backends.sat.search import horizon

        return export_problem(puzzle, horizon(puzzle)[0], memory_mb)
    if fmt == "cpsat":
        return circuit_problem(puzzle, memory_mb)
    return None


_MODEL_BACKENDS = {"dimacs": "sat", "cpsat": "cpsat", "mzn": "minizinc"}
"""The backend whose model each export format writes (and whose flags say what it
encodes)."""


def refuse_node_rules(puzzle: Puzzle, fmt: str) -> None:
    """Refuse (:class:`UnsupportedPuzzle`, exit 2) a model in ``fmt`` of a puzzle with node
    rules that the model's backend does not encode: its walks would be another puzzle's."""
    family = _MODEL_BACKENDS.get(fmt)
    if family is None or not puzzle.has_node_rules:
        return
    entry = BACKENDS[family]
    try:
        encodes = getattr(importlib.import_module(entry.module), entry.cls).supports_node_rules
    except ImportError:
        encodes = False
    if not encodes:
        raise UnsupportedPuzzle(f"the {fmt} model does not encode node rules (visit, via, "
                                "avoid, at) yet, so its walks would not be this puzzle's; "
                                "solve the spec with trailkit instead")


def export_model(puzzle: Puzzle, fmt: str) -> str:
    """The puzzle's model as text in ``fmt`` (``dimacs`` or ``cpsat``)."""
    refuse_node_rules(puzzle, fmt)
    if fmt == "dimacs":
        from trailkit.solvers.backends.sat.exported_formula import to_dimacs

        return to_dimacs(puzzle)
    if fmt == "cpsat":
        from trailkit.solvers.backends.cpsat import export_model as cpsat_text

        return cpsat_text(puzzle)
    if fmt == "mzn":
        from trailkit.models.encodings.minizinc_model import minizinc_model

        return minizinc_model(puzzle).text
    raise TrailkitError(f"unknown export format {fmt!r}; choose dimacs, cpsat or mzn")


def answer_from_model(puzzle: Puzzle, model_path: str) -> Answer:
    """A verified answer from a SAT solver's model of the exported DIMACS formula."""
    from trailkit.models.formats.inputs import InputRefused, read_bounded
    from trailkit.solvers.backends.sat.exported_formula import walk_from_model

    refuse_node_rules(puzzle, "dimacs")
    try:
        text = read_bounded(model_path, MAX_MODEL_BYTES).decode("utf-8", errors="replace")
    except InputRefused as exc:
        raise TrailkitError(f"cannot read the model {model_path}: {exc}") from None
    walk = walk_from_model(puzzle, None, text, model_path)
    return check_answer(puzzle, Answer.solved(f"model:{Path(model_path).name}", walk))


def model_answer(puzzle: Puzzle, model_path: str) -> Answer:
    """:func:`answer_from_model`, saying what to do when the file is a bad model.

    A model that is no walk of this puzzle, or whose walk breaks the rules because the
    model does not satisfy the formula (another spec's model, a hand-edited one), is
    bad input: a :class:`TrailkitError` naming the file, the step and the node by its
    name, and what to do. Only a model that satisfies the formula and still gives a
    walk the checker rejects is trailkit's own bug (:class:`VerificationFailure`).
    """
    from trailkit.models.errors import SpecError, VerificationFailure

    try:
        return answer_from_model(puzzle, model_path)
    except SpecError:
        raise  # located in the model file already
    except VerificationFailure as exc:
        text = Path(model_path).read_text(encoding="utf-8", errors="replace")
        false = _false_clause(puzzle, text, model_path)
        if false is None:
            raise
        broken = str(exc).partition("breaks the puzzle's rules: ")[2]
        raise TrailkitError(
            f"the model in {model_path} does not satisfy the exported formula (its clause "
            f"{false} is false), and its walk breaks the puzzle's rules: {broken}; "
            f"{_what_to_do(puzzle)}") from None
    except TrailkitError as exc:
        raise TrailkitError(f"{exc}; {_what_to_do(puzzle)}") from None


def _false_clause(puzzle: Puzzle, text: str, model_path: str) -> str | None:
    """The first clause of the exported formula the model leaves false (as ``N: lits``,
    counted from 1 after the ``p cnf`` line), or ``None`` if the model satisfies it.

    A variable the model does not list counts as false, as in a solver's full model."""
    from trailkit.solvers.backends.sat.exported_formula import encode_for_export, parse_model

    clauses, _ = encode_for_export(puzzle)
    true = {lit for lit in parse_model(text, model_path) if lit > 0}
    for number, clause in enumerate(clauses, start=1):
        if not any((lit in true) if lit > 0 else (-lit not in true) for lit in clause):
            return f"{number}: {' '.join(map(str, clause))} 0"
    return None


def _what_to_do(puzzle: Puzzle) -> str:
    """How to make a model --from-model can read."""
    spec = puzzle.source or "SPEC"
    return (f"give --from-model what a SAT solver printed for the formula "
            f"'trailkit export {spec} --format dimacs' wrote from this same spec")
