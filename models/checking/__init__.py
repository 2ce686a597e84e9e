"""The trusted base: everything a certificate check relies on, and nothing else.

The checker every answer passes through (:mod:`.verify`), the checkers of structural,
core, DRUP and LRAT certificates with their compiled kernels, and the formulas those
checkers re-derive from the puzzle (the position, walk and transition encodings). Beside
this folder a check trusts only what a puzzle and an answer are
(``trailkit.models.puzzle``, ``answer``), the compiling decorator
(``trailkit.models.support.jit``) and the words of counts (``trailkit.models.support.words``);
``tests/test_layers.py`` keeps it so.
"""
