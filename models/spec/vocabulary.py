"""The words of the spec language (v1): its kinds, the keys each kind accepts, the
spellings it understands, and the limits every reading keeps.

>>> KINDS
('trail', 'domino-chain', 'colour-walk', 'walk', 'tour')
>>> "visit" in KEYS["trail"], "board" in KEYS["domino-chain"]
(True, False)
>>> MEANS["goal"], SYNONYMS["colors"]
('end', 'colours')
"""

from __future__ import annotations

import re

__all__ = ["BOARD_MOVES", "COMMON_KEYS", "DEFAULT_COLOURS", "EXPECT_KEYS", "KEYS", "KINDS",
           "MAX_BOARD_CELLS", "MAX_INT_DIGITS", "MAX_PROBLEMS", "MAX_SPEC_BYTES", "MEANS",
           "NODE_RULE_KEYS", "NOT_PRINTABLE", "PLAIN_TAGS", "SYNONYMS", "VISITS", "YAML"]

MAX_SPEC_BYTES = 50 * 1024 * 1024
MAX_INT_DIGITS = 4000
"""Whole numbers in a spec have at most this many digits (Python refuses to convert more
than 4,300 digits, and no count or id needs as many)."""
MAX_PROBLEMS = 100
"""Reading stops after this many problems (a million-edge file without colours would
otherwise give a million), like a compiler's "too many errors"."""
KINDS = ("trail", "domino-chain", "colour-walk", "walk", "tour")
DEFAULT_COLOURS = ("red", "blue", "green")

YAML = "tag:yaml.org,2002:"
PLAIN_TAGS = {YAML + t for t in ("str", "int", "float", "bool", "null", "timestamp")}
"""The tags of the scalars a spec may hold (any other tag is refused, never built)."""
COMMON_KEYS = ("trailkit", "name", "description", "kind", "layout", "expect", "repair")
NODE_RULE_KEYS = ("visit", "via", "avoid", "at")
"""The node rules (CONTRACT 1.4 §7), which every kind accepts (``visit`` is fixed by
``kind: tour``)."""
VISITS = ("any", "at-most-once", "every-once")
BOARD_MOVES = ("knight", "king", "orthogonal", "diagonal")
MAX_BOARD_CELLS = 1_000_000
"""A ``board:`` has at most this many cells (a million-node graph, as big as an inline
edge list may be)."""
KEYS = {
    "trail": ("nodes", "edges", "edges_file", "board", "closed", "start", "end",
              *NODE_RULE_KEYS),
    "domino-chain": ("nodes", "dominoes", "dominoes_file", "closed", *NODE_RULE_KEYS),
    "colour-walk": ("nodes", "edges", "edges_file", "colours", "first", "start", "goal", "end",
                    *NODE_RULE_KEYS),
    "walk": ("nodes", "edges", "edges_file", "board", "use", "colours", "first", "start",
             "end", "goal", "closed", "objective", *NODE_RULE_KEYS),
    "tour": ("nodes", "edges", "edges_file", "board", "colours", "first", "start", "end",
             "goal", "closed", "objective", "via", "avoid", "at"),
}
"""The keys of each kind beside :data:`COMMON_KEYS`."""
EXPECT_KEYS = ("status", "solutions", "failures", "early_failures", "length", "repair")
SYNONYMS = {"color": "colour", "colors": "colours"}
"""Spellings read as the key they spell (American English)."""
MEANS = {"goal": "end", "end": "goal", "target": "end", "finish": "end", "begin": "start",
         "source": "start", "from": "start", "to": "end", "planks": "edges",
         "colors": "colours", "ring": "closed", "circuit": "closed", "cycle": "colours",
         "visits": "visit", "through": "via", "checkpoints": "via", "avoids": "avoid",
         "forbid": "avoid", "holes": "avoid", "givens": "at", "positions": "at",
         "grid": "board"}
"""Keys one kind spells another way (``goal`` is a colour walk's ``end``): an unknown key
that is one of these is pointed at the key the kind has, whatever its spelling."""
NOT_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd"
                           "\U00010000-\U0010ffff]")
"""The characters YAML does not allow in a stream (YAML 1.1, as PyYAML's reader checks)."""
