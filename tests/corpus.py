"""A fixed random corpus of small puzzles of every rule, for measuring certified answers.

Unlike the hypothesis strategies (which search for counterexamples and shrink), this
corpus is the same list every run, from one seed, so that a fraction measured on it
("how many unsolvable answers carry a checked certificate") means the same thing each
time. It leans towards what made certificates hard before: once-only walks whose
relaxation (every edge reusable) has a walk, so no closed set of states settles them;
at-most-once walks with fixed ends; colour rules with a fixed first colour.
"""

from __future__ import annotations

import random

from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle

__all__ = ["random_corpus"]

_RULES = (ColourRule.from_cycle(["red", "blue", "green"]),
          ColourRule.from_cycle(["red", "blue"]),
          ColourRule.from_transitions(["red", "blue", "green"],
                                      {"red": ["blue", "green"], "blue": ["red"],
                                       "green": ["green", "red"]}))


def _puzzle(rng: random.Random) -> Puzzle:
    n = rng.randint(2, 5)
    names = [f"n{i}" for i in range(n)]
    m = rng.randint(1, 7)
    use = rng.choice([EdgeUse.AT_MOST_ONCE, EdgeUse.AT_MOST_ONCE, EdgeUse.EXACTLY_ONCE,
                      EdgeUse.ANY])
    rule = rng.choice([None, *_RULES])
    edges = []
    for _ in range(m):
        u, v = rng.choice(names), rng.choice(names)
        edges.append((u, v, rng.choice(rule.names)) if rule else (u, v))
    directed = [rng.random() < 0.3 for _ in range(m)] if rng.random() < 0.4 else None

    def nodes() -> list[str] | None:
        return None if rng.random() < 0.4 else rng.sample(names, rng.randint(1, n))

    first = rng.sample(rule.names, 1) if rule and rng.random() < 0.3 else None
    objective = Objective.SHORTEST if use is EdgeUse.ANY or rng.random() < 0.5 \
        else Objective.ANY
    return Puzzle.build(kind="walk", nodes=names, edges=edges, directed=directed,
                        colours=rule, use=use, start=nodes(), end=nodes(), first=first,
                        closed=rng.random() < 0.4, objective=objective)


def random_corpus(count: int, seed: int = 15) -> list[Puzzle]:
    """``count`` small puzzles, the same ones for the same arguments."""
    rng = random.Random(seed)
    return [_puzzle(rng) for _ in range(count)]
