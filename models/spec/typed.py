"""Typed readers of composed YAML nodes: each checks one node is what the spec needs
(a mapping of plain keys, a list, a name, a whole number, ...) and says, located,
what it is instead; together with the problem list every room of the reader records
into, and the budget that bounds alias expansion ("billion laughs").

>>> from trailkit.models.spec.composing import compose
>>> reader = NodeReader("s.yaml", budget=100)
>>> entries = reader.mapping(compose("closed: maybe\\n", "s.yaml"), "the spec")
>>> reader.guard("closed", False, lambda: reader.boolean(entries["closed"][1], "closed"))
False
>>> str(reader.problems[0])
"s.yaml:1:9: error: closed must be true or false, not 'maybe'"
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

import yaml

from trailkit.models.errors import Location, SpecError, SpecWarning
from trailkit.models.spec.messages import hint
from trailkit.models.spec.vocabulary import (
    MAX_INT_DIGITS,
    MAX_PROBLEMS,
    MEANS,
    PLAIN_TAGS,
    SYNONYMS,
    YAML,
)
from trailkit.models.support.hints import short

__all__ = ["Entries", "Fatal", "NodeReader", "budget_for"]

_T = TypeVar("_T")
Entries = dict[str, tuple[yaml.Node, yaml.Node]]
"""A mapping's entries by key text: ``(key node, value node)``."""


class Fatal(SpecError):
    """A problem after which the rest of the spec cannot be read (e.g. the alias budget)."""


def budget_for(text: str) -> int:
    """How many YAML nodes reading ``text`` may visit (bounds alias expansion)."""
    return 10 * len(text) + 10_000


class NodeReader:
    """Reads YAML nodes of one spec (``source``) with located messages.

    Problems are collected in :attr:`problems`: :meth:`guard` runs one part of the
    reading, records the :class:`SpecError` it raises and stands in a default, so the
    parts after it are still checked.
    """

    def __init__(self, source: str, budget: int) -> None:
        self.source = source
        self.budget = budget
        self.problems: list[SpecError] = []
        self.warnings: list[SpecWarning] = []  # remarks on a spec that still loads

    # ------------------------------------------------------- problems
    def loc(self, node: yaml.Node) -> Location:
        mark = node.start_mark
        return Location(self.source, mark.line + 1, mark.column + 1)

    def fail(self, where: yaml.Node | Location, message: str, path: str = "") -> SpecError:
        loc = where if isinstance(where, Location) else self.loc(where)
        return SpecError(message, loc, path)

    def record(self, problem: SpecError, path: str = "") -> None:
        """Keep ``problem`` (its key path defaulting to ``path``) and go on reading, up to
        :data:`MAX_PROBLEMS`."""
        if not problem.path:
            problem.path = path
        self.problems.append(problem)
        if len(self.problems) >= MAX_PROBLEMS:
            raise Fatal(f"{MAX_PROBLEMS} problems so far; reading stopped here: fix these "
                        "first", problem.location, problem.path)

    def warn(self, where: yaml.Node, message: str, path: str = "") -> None:
        """Keep a warning: worth a look, but the spec still loads."""
        self.warnings.append(SpecWarning(message, self.loc(where), path))

    def guard(self, path: str, default: _T, read: Callable[[], _T]) -> _T:
        """``read()``, or ``default`` after recording the problem it raised."""
        try:
            return read()
        except Fatal:
            raise
        except SpecError as exc:
            self.record(exc, path)
            return default

    def attempt(self, path: str, action: Callable[[], object]) -> bool:
        """Run ``action``; ``False`` after recording the problem it raised (as :meth:`guard`)."""
        def run() -> bool:
            action()
            return True

        return self.guard(path, False, run)

    def spend(self, node: yaml.Node, amount: int = 1) -> None:
        self.budget -= amount
        if self.budget < 0:
            raise Fatal("the spec expands to far more data than it holds (YAML "
                        "anchors/aliases used to blow it up); write the data out instead",
                        self.loc(node))

    # ------------------------------------------------------ structure
    def check_tag(self, node: yaml.Node, path: str) -> None:
        tag = node.tag
        if isinstance(node, yaml.ScalarNode):
            ok = tag in PLAIN_TAGS
        elif isinstance(node, yaml.SequenceNode):
            ok = tag == YAML + "seq"
        else:
            ok = tag == YAML + "map"
        if not ok:
            raise self.fail(node, f"the YAML tag {tag!r} at {path} is not allowed in a spec; "
                            "remove the tag and write plain data", path)

    def mapping(self, node: yaml.Node, path: str) -> Entries:
        """A mapping's entries by key text, rejecting non-text keys; a duplicated key is
        recorded as a problem and its first value kept."""
        self.check_tag(node, path)
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, f"{path} must be a mapping of 'key: value' lines", path)
        out: Entries = {}
        for key_node, value_node in node.value:
            self.spend(key_node, 2)
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in PLAIN_TAGS:
                raise self.fail(key_node, f"keys in {path} must be plain words", path)
            key = str(SYNONYMS.get(key_node.value, key_node.value))
            if key in out:
                first = self.loc(out[key][0])
                self.record(self.fail(key_node, f"the key {key!r} appears twice in {path} "
                                      f"(first on line {first.line}); YAML would silently "
                                      "keep only the last: remove one"), path)
                continue
            out[key] = (key_node, value_node)
        return out

    def check_keys(self, entries: Entries, allowed: Any, path: str, what: str, *,
                   keep_going: bool = False) -> None:
        """Reject keys not in ``allowed``; with ``keep_going`` each is recorded (and then
        ignored) instead of stopping at the first."""
        for key, (key_node, _) in list(entries.items()):
            if key not in allowed:
                meant = MEANS.get(key)
                suggestion = (f" (did you mean {meant!r}?)" if meant in allowed
                              else hint(key, allowed))
                problem = self.fail(key_node, f"unknown key {short(key)!r} in {path}"
                                    f"{suggestion}; {what} accepts "
                                    f"{', '.join(allowed)}",
                                    key if path == "the spec" else f"{path}.{key}")
                if not keep_going:
                    raise problem
                self.record(problem)
                del entries[key]

    def sequence(self, node: yaml.Node, path: str) -> list[yaml.Node]:
        self.check_tag(node, path)
        if not isinstance(node, yaml.SequenceNode):
            raise self.fail(node, f"{path} must be a list", path)
        self.spend(node, len(node.value))
        items: list[yaml.Node] = node.value  # types-PyYAML types a node's value Any
        return items

    # -------------------------------------------------------- scalars
    def scalar_text(self, node: yaml.Node, path: str) -> str:
        self.check_tag(node, path)
        if not isinstance(node, yaml.ScalarNode):
            raise self.fail(node, f"{path} must be a single value, not a list or mapping", path)
        self.spend(node)
        return str(node.value)

    def name_text(self, node: yaml.Node, path: str, what: str = "node name") -> str:
        """A node name or pip: the text as written (``NO`` stays ``'NO'``, ``1:2`` stays
        ``'1:2'``)."""
        text = self.scalar_text(node, path)
        if node.tag == YAML + "null" and not getattr(node, "style", None):
            shown = f"'{text}'" if text else "''"
            raise self.fail(node, f"{path} is empty (YAML reads {shown} as null) where a {what} "
                            f"belongs; write the name, quoted if it is {shown}: \"{text}\"", path)
        if not text.strip():
            raise self.fail(node, f"{path} is an empty {what}; give it a name", path)
        return text

    def string(self, node: yaml.Node, path: str) -> str:
        text = self.scalar_text(node, path)
        if node.tag != YAML + "str":
            raise self.fail(node, f"{path} must be text; quote it: \"{text}\"", path)
        return text

    def boolean(self, node: yaml.Node, path: str) -> bool:
        text = self.scalar_text(node, path)
        if node.tag != YAML + "bool":
            raise self.fail(node, f"{path} must be true or false, not {short(text)!r}", path)
        return text.lower() in ("true", "yes", "on", "y")

    def flag(self, top: Entries, key: str, default: bool) -> bool:
        """The boolean ``key`` of mapping ``top`` (``default`` when absent or unreadable)."""
        if key not in top:
            return default
        return self.guard(key, default, lambda: self.boolean(top[key][1], key))

    def integer(self, node: yaml.Node, path: str, minimum: int = 0) -> int:
        text = self.scalar_text(node, path)
        if node.tag != YAML + "int" or not re.fullmatch(r"[-+]?[0-9]+", text):
            raise self.fail(node, f"{path} must be a whole number, not {short(text)!r}", path)
        digits = len(text.lstrip("+-").lstrip("0"))
        if digits > MAX_INT_DIGITS:
            raise self.fail(node, f"{path} is a number of {digits:,} digits, more than the "
                            f"{MAX_INT_DIGITS:,} a spec may use; check the value", path)
        value = int(text)
        if value < minimum:
            raise self.fail(node, f"{path} must be at least {minimum}", path)
        return value

    def number(self, node: yaml.Node, path: str) -> float:
        text = self.scalar_text(node, path)
        if node.tag not in (YAML + "int", YAML + "float"):
            raise self.fail(node, f"{path} must be a number, not {short(text)!r}", path)
        if text.lower().lstrip("+-") in (".inf", ".nan"):
            raise self.fail(node, f"{path} must be a finite number, not {text!r}", path)
        try:
            value = float(text.replace("_", ""))
        except ValueError:
            raise self.fail(node, f"{path} must be a plain number, not {short(text)!r}",
                            path) from None
        if value != value or value in (float("inf"), float("-inf")):
            raise self.fail(node, f"{path} must be a finite number, not {short(text)!r}", path)
        return value

    def choice(self, node: yaml.Node, path: str, choices: tuple[str, ...]) -> str:
        text = self.scalar_text(node, path)
        if text not in choices:
            raise self.fail(node, f"{path} must be one of {', '.join(choices)}, not "
                            f"{short(text)!r}{hint(text, choices)}", path)
        return text
