"""The trusted base's checkers: everything a certificate check runs, and nothing else.

The checker every answer passes through (:mod:`.verify`), the checkers of structural,
core, layer, DRUP and LRAT certificates with their compiled kernels, and the one table of
what each certificate proves (:mod:`.claim_table`). The formulas these checkers re-derive
from the puzzle live beside this folder, in ``models/formulas/``. Beside the two a check
trusts only what a puzzle and an answer are (``trailkit.models.puzzle``, ``answer``), the
compiling decorator (``trailkit.models.support.jit``) and the words of counts
(``trailkit.models.support.words``); ``tests/test_layers.py`` keeps it so.
"""
