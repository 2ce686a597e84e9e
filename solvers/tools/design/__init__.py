"""Puzzles to order, and what a finished puzzle depends on (issue 34).

:mod:`.inspection` answers ``trailkit inspect``: which edges a solvable puzzle cannot
lose (``critical``), which ones its shortest walk needs (``costly``), and the
difficulty measures of docs/inspect.md. :mod:`.states` holds the one pass over a
reusable walk's (node, colour-phase) states that both the inspection and the design
search read. :mod:`.fields` lays out hexagonal and square fields of nodes,
:mod:`.colour_search` chooses the colours of a field's planks so that the puzzle meets
its targets, and :mod:`.spec_out` writes the result as an ordinary spec. Everything
here returns frozen data; the words and the JSON are the presenter's.
"""
