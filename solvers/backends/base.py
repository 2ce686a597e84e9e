"""The one interface every backend implements, and the limits passed to it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from trailkit.models.answer import Answer, Walk
from trailkit.models.errors import UnsupportedPuzzle
from trailkit.models.puzzle import EdgeUse, Objective, Puzzle

if TYPE_CHECKING:
    from trailkit.models.answer import Certificate
    from trailkit.models.counts import CountResult

__all__ = ["DEFAULT_MEMORY_MB", "NO_LIMITS", "Backend", "Limits", "Optimum", "trivial_answer"]


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits and determinism knobs for one solve.

    ``time_limit`` is in seconds (``None``: no limit); ``work_limit`` bounds the work
    in the backend's own unit (:attr:`Backend.work_unit`: search nodes of the direct
    backend's exhaustive searches, conflicts for CP-SAT), so the same number means
    different amounts of work on different backends and is given to one backend at a
    time; ``memory_mb`` is the memory a backend may plan to use: it estimates a
    model's size before building it and answers ``unknown`` (with the estimate) beyond
    it; ``workers`` and ``seed`` pass through to solvers that use them. A limit reached
    yields ``unknown``, never a guess.
    """

    time_limit: float | None = None
    work_limit: int | None = None
    workers: int = 1
    seed: int = 0
    memory_mb: int | None = None


@dataclass(frozen=True, slots=True)
class Optimum:
    """What an optimisation over numbered choices found (the fewest repairs: CP-SAT's
    :func:`~trailkit.solvers.backends.cpsat.choices.fewest_choices`, or MaxSAT): ``status`` is
    ``optimal`` (proven fewest), ``feasible`` (a solution, not proven fewest),
    ``infeasible`` (no set of choices works) or ``unknown``; ``chosen`` holds the choices
    taken and ``cost`` how many."""

    status: str
    cost: int | None = None
    chosen: tuple[int, ...] = ()
    time_s: float = 0.0
    detail: str = ""


#: The memory budget of the command line (``--memory-limit``), in MB.
DEFAULT_MEMORY_MB = 4096
#: No limits at all: the one spelling of the default of every ``limits`` parameter.
NO_LIMITS = Limits()


class Backend(ABC):
    """A way of answering walk puzzles. Subclasses set ``name`` and the capability flags.

    Capabilities are class flags so tests can skip with a reason rather than
    branch on backend names.
    """

    name: str  # a class attribute, or per instance ("sat:glucose4")
    #: The registry name of the backend's family (``sat`` for ``sat:glucose4``); empty
    #: for a backend made outside the registry (a test's scripted one).
    family: ClassVar[str] = ""
    #: ``count`` enumerates solutions.
    supports_counting: ClassVar[bool] = False
    #: ``count(failures=True)`` also counts failures and early failures.
    supports_failures: ClassVar[bool] = False
    #: ``prove`` makes DRUP certificates.
    supports_proof: ClassVar[bool] = False
    #: The backend obeys the node rules (``visit``, ``via``, ``avoid``, ``at``); the
    #: pipeline refuses a node-rule puzzle to one that does not.
    supports_node_rules: ClassVar[bool] = False
    #: ``Limits.work_limit`` bounds the search (otherwise the option is refused).
    honours_work_limit: ClassVar[bool] = False
    #: What one unit of ``Limits.work_limit`` is for this backend, in words.
    work_unit: ClassVar[str] = ""

    @abstractmethod
    def solve(self, puzzle: Puzzle, limits: Limits = NO_LIMITS) -> Answer:
        """Find a walk obeying the puzzle's rules, or show there is none, within ``limits``."""

    def count(self, puzzle: Puzzle, limits: Limits = NO_LIMITS, *, failures: bool = False,
              progress: Callable[[int], None] | None = None) -> CountResult:
        """Count the puzzle's solutions (and, if asked, failures and early failures).

        ``progress``, when given, is called now and then with the work done so far.
        """
        raise UnsupportedPuzzle(f"the {self.name} backend does not count solutions")

    def prove(self, puzzle: Puzzle, limits: Limits = NO_LIMITS) -> Certificate | None:
        """A checkable certificate that ``puzzle`` has no walk, or ``None`` if this backend
        makes none (the structural ones come from the direct backend)."""
        return None

    def why_no_proof(self, puzzle: Puzzle) -> str | None:
        """Why :meth:`prove` cannot make a certificate for ``puzzle`` at all (``None``:
        it can try), so that a user is told what applies instead of "no certificate"."""
        return None if self.supports_proof else f"the {self.name} backend makes no proofs"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def trivial_answer(name: str, puzzle: Puzzle) -> Answer | None:
    """The answer of backend ``name`` where no search is needed, else ``None``: a puzzle
    without nodes (the walk that stands nowhere), an empty walk that solves it (unless
    the longest is asked for: a step may fit), and an every-edge walk of a puzzle with
    no edges (the empty walk, or none when no node may be both start and end)."""
    shortest = puzzle.objective is Objective.SHORTEST
    if not puzzle.num_nodes:
        return Answer.solved(name, Walk.nowhere(), optimal=True if shortest else None)
    empty = puzzle.empty_walk_nodes()
    if empty and not puzzle.wants_longest:
        return Answer.solved(name, Walk((empty[0],), ()), optimal=True if shortest else None)
    if puzzle.use is EdgeUse.EXACTLY_ONCE and not puzzle.num_edges:
        if empty:  # the longest of one walk: the empty one
            return Answer.solved(name, Walk((empty[0],), ()), optimal=True)
        rules = " that the node rules let the walk stand on" if puzzle.has_node_rules else ""
        return Answer.unsolvable(name, None, reason="the puzzle has no edges, so only an "
                                 "empty walk could solve it, and no node is both an allowed "
                                 f"start and an allowed end{rules}")
    return None
