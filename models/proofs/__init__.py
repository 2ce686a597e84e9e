"""Clausal proof machinery, trusted by the checks and knowing nothing of puzzles: the
compiled unit propagation that checks each DRUP lemma (:mod:`.drup_kernel`), a proof
read into the clause database in blocks (:mod:`.drup_read` with its kernel
:mod:`.drup_read_kernel`), and each lemma's hints recorded for an LRAT proof
(:mod:`.lrat_kernel`). The certificate checkers of ``models/checking/`` (``drup.py``)
run them on the formula they re-derive from the puzzle.
"""
