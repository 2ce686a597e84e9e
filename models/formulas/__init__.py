"""The certified formulas: CNF encodings of a puzzle that backends build to solve it and
checkers re-derive, clause by clause, to check a refutation of it.

The one table of them is :mod:`.formulas` (a formula's name to how it is built and what
its refutation proves); each encoding has its module (the position, walk, blocked,
optimal, transition, repair and core formulas), with what they rest on (the orientation
classes and modular determinants of a count of Euler trails, the changes a ``repair:``
block allows). With ``models/checking/`` this folder is the trusted base: a formula calls
no checker but the verifier of listed walks (``tests/test_layers.py`` keeps it so).
"""
