"""Repairs and explanations: the changes that make a puzzle solvable, and why it is not.

The verbs behind ``trailkit repair`` and ``trailkit explain``, and what they use:

* :mod:`.fewest_changes`: ``repair``, the fewest changes, each with a verified walk;
* :mod:`.explanation`: ``explain``, the checked certificate, a minimal core, the
  reachable situations;
* :mod:`.changes`: a :class:`~.changes.Change` and the puzzle with changes applied;
* :mod:`.candidates`: the changes the ``repair:`` rules allow;
* :mod:`.reusable`: single changes of colour walks screened by one forward and one
  backward search over (node, colour-phase) states;
* :mod:`.parity`: parity and pieces: lower bounds, and the direct Euler additions;
* :mod:`.optimise`: CP-SAT with optional candidate edges, minimising the changes;
* :mod:`.size_by_size`: change sets of one size tried one by one (the plain method);
* :mod:`.cores`: smallest sets of edges no walk can all use;
* :mod:`.situations`: reachable situations and near misses of colour walks;
* :mod:`.specedit`: the repaired spec's text, the author's comments and order kept.

Above the solve pipeline: a repair is checked by solving the repaired puzzle again.
"""

from trailkit.solvers.tools.repair.explanation import Explanation, explain
from trailkit.solvers.tools.repair.fewest_changes import Repair, RepairResult, RepairStatus, repair

__all__ = ["Explanation", "Repair", "RepairResult", "RepairStatus", "explain", "repair"]
