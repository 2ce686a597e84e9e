"""What a puzzle *is*: the spec language, the intermediate form, answers, rules and checkers.

Nothing in this package searches for a solution; everything here is what the
solvers in :mod:`trailkit.solvers` are held to.
"""
