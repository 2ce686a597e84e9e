"""Repairs and explanations: the changes that make a puzzle solvable, and why it is not.

The library behind ``trailkit repair`` and ``trailkit explain`` (the verbs themselves are
:mod:`trailkit.solvers.pipeline.repairing` and :mod:`trailkit.solvers.pipeline.explaining`):

* :mod:`.changes`: a :class:`~.changes.Change` and the puzzle with changes applied;
* :mod:`.candidates`: the changes the ``repair:`` rules allow;
* :mod:`.reusable`: single changes of colour walks screened by one forward and one
  backward search over (node, colour-phase) states;
* :mod:`.euler`: parity and pieces: lower bounds, and the direct Euler additions;
* :mod:`.optimise`: CP-SAT with optional candidate edges, minimising the changes;
* :mod:`.search`: change sets of one size tried one by one (the plain method);
* :mod:`.cores`: smallest sets of edges no walk can all use;
* :mod:`.reach`: reachable situations and near misses of colour walks.
"""
