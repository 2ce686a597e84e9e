"""Small once-only spec texts whose best walk the layers cannot certify, shared by the
tests of the claims proven by refutation (issue 32)."""

from __future__ import annotations

__all__ = ["CHAIN", "CLOSED", "COLOURED", "ONE_TRAIL"]

# S -red-> X -blue-> Y -green-> X, then back to S on the red plank and on to T on blue would
# take 5 steps, but that walks the plank S-X twice: once-only, the walk takes the long way
# round (7 steps, the only such walk), and layers, blind to which planks were used, cannot
# certify it.
COLOURED = """trailkit: 1
kind: walk
use: at-most-once
objective: shortest
colours: [red, blue, green]
first: red
start: S
end: T
edges: [S X red, X Y blue, Y X green, S T blue, X Z red, Z W blue, W V green, V T red]
"""

# The longest walk from a: a b c d (3 steps), the only one.
CHAIN = """trailkit: 1
kind: walk
use: at-most-once
objective: longest
start: a
edges: [a b, b c, c d, b e]
"""

# A closed once-only walk (no layers certificate): the shortest has 3 steps.
CLOSED = """trailkit: 1
kind: walk
use: at-most-once
objective: shortest
closed: true
edges: [a b, b c, c a, c d, d a]
"""

# A trail with one walk (no objective).
ONE_TRAIL = "trailkit: 1\nkind: trail\nedges: [a b, b c]\nstart: a\n"
