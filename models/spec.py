"""The YAML spec language (v1): load, validate with located errors, lower to a :class:`Puzzle`.

Every error names the file, line and column and says what to do::

    specs/p.yaml:12:5: error: unknown colour "teal" in edges[3] (colours are red, blue, green)

The YAML is *composed* (never constructed), so no Python object is ever built from
a tag, duplicated keys are seen (PyYAML would silently keep the last one), alias
expansion is bounded ("billion laughs"), and each scalar in a node position keeps
the text the author wrote: a tyre named ``NO`` never becomes ``False`` and the
domino ``1:2`` never becomes 62.

>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, b c, c a]\\nclosed: true\\n")
>>> p.kind, p.num_edges, p.closed
('trail', 3, True)
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from trailkit.models.errors import Location, SpecError
from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
from trailkit.models.textformats import decode_utf8, parse_domino_lines, parse_edge_columns

__all__ = ["KINDS", "MAX_SPEC_BYTES", "load_spec", "load_spec_text"]

MAX_SPEC_BYTES = 50 * 1024 * 1024
KINDS = ("trail", "domino-chain", "colour-walk", "walk")
DEFAULT_COLOURS = ("red", "blue", "green")

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_YAML = "tag:yaml.org,2002:"
_PLAIN_TAGS = {_YAML + t for t in ("str", "int", "float", "bool", "null", "timestamp")}
_COMMON_KEYS = ("trailkit", "name", "description", "kind", "layout", "expect", "repair")
_KEYS = {
    "trail": ("nodes", "edges", "edges_file", "closed", "start", "end"),
    "domino-chain": ("nodes", "dominoes", "dominoes_file", "closed"),
    "colour-walk": ("nodes", "edges", "edges_file", "colours", "first", "start", "goal", "end"),
    "walk": ("nodes", "edges", "edges_file", "use", "colours", "first", "start", "end", "goal",
             "closed", "objective"),
}
_EXPECT_KEYS = ("status", "solutions", "failures", "early_failures", "length", "repair")
_SYNONYMS = {"color": "colour", "colors": "colours"}


def load_spec(path: str | Path) -> Puzzle:
    """Load and validate the spec file at ``path``; raise :class:`SpecError` if it is unusable."""
    path = Path(path)
    name = str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise SpecError(f"cannot read the spec: {exc.strerror or exc}", Location(name)) from None
    if path.is_dir():
        raise SpecError("is a folder, not a spec file", Location(name))
    if size > MAX_SPEC_BYTES:
        raise SpecError(
            f"the spec is {size / 2**20:.0f} MB, over the {MAX_SPEC_BYTES // 2**20} MB limit; "
            "put big edge lists in a plain text file and reference it with 'edges_file:'",
            Location(name))
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SpecError(f"cannot read the spec: {exc.strerror or exc}", Location(name)) from None
    return load_spec_text(decode_utf8(data, name), source=name, base_dir=path.parent)


def load_spec_text(text: str, source: str = "<string>", base_dir: Path | None = None) -> Puzzle:
    """Validate spec ``text`` (``source`` names it in messages).

    ``base_dir`` is the folder that ``edges_file:`` and ``dominoes_file:`` are read from.
    """
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SPEC_BYTES:
        raise SpecError("the spec is over the 50 MB limit", Location(source))
    if not text.strip() or all(line.lstrip().startswith("#") or not line.strip()
                               for line in text.splitlines()):
        raise SpecError("the spec is empty; start with 'trailkit: 1' and a 'kind:'",
                        Location(source, 1, 1))
    root = _compose(text, source)
    return _SpecReader(source, base_dir, budget=10 * len(text) + 10_000).read(root)


# --------------------------------------------------------------------- parsing
def _compose(text: str, source: str) -> yaml.Node:
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        what = exc.problem or "malformed YAML"
        if exc.context and "document" in exc.context:
            what = f"{exc.context}, {what}"
        loc = Location(source, mark.line + 1, mark.column + 1) if mark else Location(source)
        raise SpecError(f"malformed YAML: {what}", loc) from None
    except yaml.YAMLError as exc:
        raise SpecError(f"malformed YAML: {exc}", Location(source)) from None
    except RecursionError:
        raise SpecError("the YAML is nested too deeply", Location(source)) from None
    if root is None:
        raise SpecError("the spec is empty; start with 'trailkit: 1' and a 'kind:'",
                        Location(source, 1, 1))
    return root


def _hint(word: str, choices: Any) -> str:
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


class _SpecReader:
    """Walks the composed YAML node tree, checking as it goes; one instance per spec."""

    def __init__(self, source: str, base_dir: Path | None, budget: int) -> None:
        self.source = source
        self.base_dir = base_dir
        self.budget = budget
        self.node_index: dict[str, int] = {}
        self.node_names: list[str] = []

    # ------------------------------------------------------------ plumbing
    def loc(self, node: yaml.Node) -> Location:
        mark = node.start_mark
        return Location(self.source, mark.line + 1, mark.column + 1)

    def fail(self, node: yaml.Node, message: str) -> SpecError:
        return SpecError(message, self.loc(node))

    def spend(self, node: yaml.Node, amount: int = 1) -> None:
        self.budget -= amount
        if self.budget < 0:
            raise self.fail(node, "the spec expands to far more data than it holds (YAML "
                            "anchors/aliases used to blow it up); write the data out instead")

    def check_tag(self, node: yaml.Node, path: str) -> None:
        tag = node.tag
        if isinstance(node, yaml.ScalarNode):
            ok = tag in _PLAIN_TAGS
        elif isinstance(node, yaml.SequenceNode):
            ok = tag == _YAML + "seq"
        else:
            ok = tag == _YAML + "map"
        if not ok:
            raise self.fail(node, f"the YAML tag {tag!r} at {path} is not allowed in a spec; "
                            "remove the tag and write plain data")

    def mapping(self, node: yaml.Node, path: str) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        """A mapping's entries by key text, rejecting duplicated and non-text keys."""
        self.check_tag(node, path)
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, f"{path} must be a mapping of 'key: value' lines")
        out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key_node, value_node in node.value:
            self.spend(key_node, 2)
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in _PLAIN_TAGS:
                raise self.fail(key_node, f"keys in {path} must be plain words")
            key = str(_SYNONYMS.get(key_node.value, key_node.value))
            if key in out:
                first = self.loc(out[key][0])
                raise self.fail(key_node, f"the key {key!r} appears twice in {path} (first on "
                                f"line {first.line}); YAML would silently keep only the last: "
                                "remove one")
            out[key] = (key_node, value_node)
        return out

    def check_keys(self, entries: dict[str, tuple[yaml.Node, yaml.Node]], allowed: Any,
                   path: str, what: str) -> None:
        for key, (key_node, _) in entries.items():
            if key not in allowed:
                hint = _hint(key, allowed)
                raise self.fail(key_node, f"unknown key {key!r} in {path}{hint}; {what} accepts "
                                f"{', '.join(allowed)}")

    def sequence(self, node: yaml.Node, path: str) -> list[yaml.Node]:
        self.check_tag(node, path)
        if not isinstance(node, yaml.SequenceNode):
            raise self.fail(node, f"{path} must be a list")
        self.spend(node, len(node.value))
        return node.value

    def scalar_text(self, node: yaml.Node, path: str) -> str:
        self.check_tag(node, path)
        if not isinstance(node, yaml.ScalarNode):
            raise self.fail(node, f"{path} must be a single value, not a list or mapping")
        self.spend(node)
        return str(node.value)

    def name_text(self, node: yaml.Node, path: str, what: str = "node name") -> str:
        """A node name or pip: the text as written (see the module docstring)."""
        text = self.scalar_text(node, path)
        if node.tag == _YAML + "null" and not getattr(node, "style", None):
            shown = f"'{text}'" if text else "''"
            raise self.fail(node, f"{path} is empty (YAML reads {shown} as null) where a {what} "
                            f"belongs; write the name, quoted if it is {shown}: \"{text}\"")
        if not text.strip():
            raise self.fail(node, f"{path} is an empty {what}; give it a name")
        return text

    def string(self, node: yaml.Node, path: str) -> str:
        text = self.scalar_text(node, path)
        if node.tag != _YAML + "str":
            raise self.fail(node, f"{path} must be text; quote it: \"{text}\"")
        return text

    def boolean(self, node: yaml.Node, path: str) -> bool:
        text = self.scalar_text(node, path)
        if node.tag != _YAML + "bool":
            raise self.fail(node, f"{path} must be true or false, not {text!r}")
        return text.lower() in ("true", "yes", "on", "y")

    def integer(self, node: yaml.Node, path: str, minimum: int = 0) -> int:
        text = self.scalar_text(node, path)
        if node.tag != _YAML + "int" or not re.fullmatch(r"[-+]?[0-9]+", text):
            raise self.fail(node, f"{path} must be a whole number, not {text!r}")
        value = int(text)
        if value < minimum:
            raise self.fail(node, f"{path} must be at least {minimum}")
        return value

    def number(self, node: yaml.Node, path: str) -> float:
        text = self.scalar_text(node, path)
        if node.tag not in (_YAML + "int", _YAML + "float"):
            raise self.fail(node, f"{path} must be a number, not {text!r}")
        try:
            return float(text.replace("_", ""))
        except ValueError:
            raise self.fail(node, f"{path} must be a plain number, not {text!r}") from None

    def choice(self, node: yaml.Node, path: str, choices: tuple[str, ...]) -> str:
        text = self.scalar_text(node, path)
        if text not in choices:
            raise self.fail(node, f"{path} must be one of {', '.join(choices)}, not "
                            f"{text!r}{_hint(text, choices)}")
        return text

    def node_id(self, name: str) -> int:
        index = self.node_index.get(name)
        if index is None:
            index = self.node_index[name] = len(self.node_names)
            self.node_names.append(name)
        return index

    # ------------------------------------------------------------- the spec
    def read(self, root: yaml.Node) -> Puzzle:
        top = self.mapping(root, "the spec")
        if "trailkit" not in top:
            raise self.fail(root, "missing required key 'trailkit' (the spec format version); "
                            "add 'trailkit: 1' as the first line")
        version_node = top["trailkit"][1]
        if self.scalar_text(version_node, "trailkit") != "1":
            raise self.fail(version_node, f"unsupported spec version {version_node.value!r}; "
                            "this trailkit reads 'trailkit: 1'")
        if "kind" not in top:
            raise self.fail(root, f"missing required key 'kind'; choose one of {', '.join(KINDS)}")
        kind_node = top["kind"][1]
        if self.scalar_text(kind_node, "kind") == "color-walk":
            kind_node.value = "colour-walk"
        kind = self.choice(kind_node, "kind", KINDS)
        self.check_keys(top, (*_COMMON_KEYS, *_KEYS[kind]), "the spec", f"kind {kind!r}")
        rules: dict[str, Any] = {"kind": kind}
        for key in ("name", "description"):
            if key in top:
                rules[key] = self.scalar_text(top[key][1], key)
        if "nodes" in top:
            for i, item in enumerate(self.sequence(top["nodes"][1], "nodes")):
                self.node_id(self.name_text(item, f"nodes[{i}]"))
        lower: Callable[[dict[str, tuple[yaml.Node, yaml.Node]], yaml.Node], dict[str, Any]] = {
            "trail": self.lower_trail,
            "domino-chain": self.lower_dominoes,
            "colour-walk": self.lower_colour_walk,
            "walk": self.lower_walk,
        }[kind]
        rules.update(lower(top, root))
        if "expect" in top:
            rules["expect"] = self.read_expect(top["expect"][1])
        if "layout" in top:
            rules["layout"] = self.read_layout(top["layout"][1])
        if "repair" in top:
            from trailkit.models.repair_rules import read_repair_rules

            rules["repair"] = read_repair_rules(self, top["repair"][1], rules.get("colour_names"),
                                                has_layout="layout" in rules)
        if not self.node_names:
            what = "dominoes" if kind == "domino-chain" else "edges"
            raise self.fail(root, f"the puzzle has no {what} and no nodes: there is nothing to "
                            f"solve; add some {what}")
        return Puzzle(nodes=tuple(self.node_names), source=self.source, **rules)

    def read_expect(self, node: yaml.Node) -> dict[str, Any]:
        entries = self.mapping(node, "expect")
        self.check_keys(entries, _EXPECT_KEYS, "expect", "expect")
        out: dict[str, Any] = {}
        for key, (_, value) in entries.items():
            if key == "status":
                out[key] = self.choice(value, "expect.status", ("solved", "unsolvable", "unknown"))
            else:
                out[key] = self.integer(value, f"expect.{key}")
        return out

    def read_layout(self, node: yaml.Node) -> dict[str, tuple[float, float]]:
        out: dict[str, tuple[float, float]] = {}
        for name, (key_node, value) in self.mapping(node, "layout").items():
            items = self.sequence(value, f"layout.{name}")
            if len(items) != 2:
                raise self.fail(value, f"layout.{name} must be a position [x, y]")
            out[key_node.value] = (self.number(items[0], f"layout.{name}[0]"),
                                   self.number(items[1], f"layout.{name}[1]"))
        return out

    # ---------------------------------------------------------- the kinds
    def lower_trail(self, top: dict, root: yaml.Node) -> dict[str, Any]:
        graph = self.read_edges(top, root, palette=None)
        return {**graph, "use": EdgeUse.EXACTLY_ONCE,
                "closed": self.boolean(top["closed"][1], "closed") if "closed" in top else False,
                "start": self.read_ends(top, "start"), "end": self.read_ends(top, "end")}

    def lower_dominoes(self, top: dict, root: yaml.Node) -> dict[str, Any]:
        tail: list[int] = []
        head: list[int] = []
        if "dominoes" in top and "dominoes_file" in top:
            raise self.fail(top["dominoes_file"][0], "give 'dominoes' or 'dominoes_file', not both")
        if "dominoes_file" in top:
            path, text = self.read_side_file(top["dominoes_file"][1], "dominoes_file")
            for line in parse_domino_lines(text, path):
                tail.append(self.node_id(line.u))
                head.append(self.node_id(line.v))
        elif "dominoes" in top:
            for i, item in enumerate(self.sequence(top["dominoes"][1], "dominoes")):
                a, b = self.read_domino(item, f"dominoes[{i}]")
                tail.append(self.node_id(a))
                head.append(self.node_id(b))
        else:
            raise self.fail(root, "missing required key 'dominoes' for kind 'domino-chain', "
                            "e.g. dominoes: [[1, 2], \"2|3\", [3, 1]]")
        closed = self.boolean(top["closed"][1], "closed") if "closed" in top else True
        return {"tail": tail, "head": head, "use": EdgeUse.EXACTLY_ONCE, "closed": closed}

    def read_domino(self, node: yaml.Node, path: str) -> tuple[str, str]:
        if isinstance(node, yaml.SequenceNode):
            items = self.sequence(node, path)
            if len(items) != 2:
                raise self.fail(node, f"{path} must have two pips, like [1, 2]; it has "
                                f"{len(items)}")
            return self.name_text(items[0], f"{path}[0]", "pip"), \
                self.name_text(items[1], f"{path}[1]", "pip")
        text = self.scalar_text(node, path)
        pips = [p for p in re.split(r"\s*[|:]\s*|\s+", text.strip()) if p]
        if len(pips) != 2:
            raise self.fail(node, f"{path} must be a domino like [1, 2] or \"1|2\", not {text!r}")
        return pips[0], pips[1]

    def lower_colour_walk(self, top: dict, root: yaml.Node) -> dict[str, Any]:
        rule = ColourRule.from_cycle(DEFAULT_COLOURS)
        if "colours" in top:  # a list is the cyclic order; the walk kind's mappings work too
            rule = self.read_rule(top["colours"][1])
        graph = self.read_edges(top, root, palette=rule.names, need_colour=True)
        for key in ("start", "goal"):
            if key not in top and not (key == "goal" and "end" in top):
                raise self.fail(root, f"missing required key {key!r} for kind 'colour-walk'")
        return {**graph, "use": EdgeUse.ANY, "colours": rule, "colour_names": rule.names,
                "first": self.read_first(top, rule), "start": self.read_ends(top, "start"),
                "end": self.read_goal(top), "objective": Objective.SHORTEST}

    def lower_walk(self, top: dict, root: yaml.Node) -> dict[str, Any]:
        rule = self.read_rule(top["colours"][1]) if "colours" in top else None
        graph = self.read_edges(top, root, palette=rule.names if rule else None,
                                need_colour=rule is not None)
        use = EdgeUse(self.choice(top["use"][1], "use", tuple(u.value for u in EdgeUse))) \
            if "use" in top else EdgeUse.EXACTLY_ONCE
        objective = Objective(self.choice(top["objective"][1], "objective",
                                          tuple(o.value for o in Objective))) \
            if "objective" in top else Objective.ANY
        if objective is Objective.LONGEST and use is not EdgeUse.AT_MOST_ONCE:
            raise self.fail(top["objective"][1], "objective 'longest' needs 'use: at-most-once' "
                            "(with reusable edges a walk can be as long as you like)")
        if "first" in top and rule is None:
            raise self.fail(top["first"][0], "'first' needs a colour rule; add 'colours:'")
        return {**graph, "use": use, "colours": rule, "objective": objective,
                "first": self.read_first(top, rule) if rule else None,
                "closed": self.boolean(top["closed"][1], "closed") if "closed" in top else False,
                "start": self.read_ends(top, "start"), "end": self.read_goal(top),
                **({"colour_names": rule.names} if rule else {})}

    # ------------------------------------------------------------ colours
    def read_palette(self, node: yaml.Node, path: str) -> tuple[str, ...]:
        names = [self.scalar_text(item, f"{path}[{i}]")
                 for i, item in enumerate(self.sequence(node, path))]
        if not names:
            raise self.fail(node, f"{path} must list at least one colour")
        for i, name in enumerate(names):
            if name in names[:i]:
                raise self.fail(node.value[i], f"colour {name!r} is listed twice in {path}")
        return tuple(names)

    def read_rule(self, node: yaml.Node) -> ColourRule:
        if isinstance(node, yaml.SequenceNode):
            return ColourRule.from_cycle(self.read_palette(node, "colours"))
        entries = self.mapping(node, "colours")
        self.check_keys(entries, ("cycle", "transitions"), "colours", "colours")
        if len(entries) != 1:
            raise self.fail(node, "colours needs exactly one of 'cycle: [...]' or "
                            "'transitions: {colour: [next colours]}'")
        if "cycle" in entries:
            return ColourRule.from_cycle(self.read_palette(entries["cycle"][1], "colours.cycle"))
        table_node = entries["transitions"][1]
        table: dict[str, list[str]] = {}
        raw = self.mapping(table_node, "colours.transitions")
        names: list[str] = list(raw)
        for name, (_, value) in raw.items():
            targets = [self.scalar_text(t, f"colours.transitions.{name}[{i}]")
                       for i, t in enumerate(self.sequence(value, f"colours.transitions.{name}"))]
            names += [t for t in targets if t not in names]
            table[name] = targets
        return ColourRule.from_transitions(names, table)

    def read_first(self, top: dict, rule: ColourRule) -> frozenset[int] | None:
        if "first" not in top:
            return None
        node = top["first"][1]
        items = self.sequence(node, "first") if isinstance(node, yaml.SequenceNode) else [node]
        chosen: set[int] = set()
        for i, item in enumerate(items):
            text = self.scalar_text(item, f"first[{i}]" if len(items) > 1 else "first")
            if text == "any" and len(items) == 1:
                return None
            if text not in rule.names:
                raise self.fail(item, f"unknown colour {text!r} in first{_hint(text, rule.names)}"
                                f" (colours are {', '.join(rule.names)})")
            chosen.add(rule.names.index(text))
        return frozenset(chosen)

    # -------------------------------------------------------------- edges
    def read_edges(self, top: dict, root: yaml.Node, palette: tuple[str, ...] | None,
                   need_colour: bool = False) -> dict[str, Any]:
        """Read ``edges`` (or ``edges_file``) into the parallel arrays of a :class:`Puzzle`."""
        tail: list[int] = []
        head: list[int] = []
        colour: list[int] = []
        directed: list[bool] = []
        ids: list[Any] = []
        labels: list[str] = list(palette or ())
        label_index = {name: i for i, name in enumerate(labels)}

        def colour_id(name: str | None, node: yaml.Node, path: str) -> int:
            if name is None:
                if need_colour:
                    raise self.fail(node, f"{path} has no colour, but the puzzle's colour rule "
                                    "needs one on every edge; add it, like 'A B red'")
                return -1
            index = label_index.get(name)
            if index is None:
                if palette is not None:
                    raise self.fail(node, f"unknown colour {name!r} in {path}"
                                    f"{_hint(name, palette)} (colours are {', '.join(palette)})")
                index = label_index[name] = len(labels)
                labels.append(name)
            return index

        if "edges" in top and "edges_file" in top:
            raise self.fail(top["edges_file"][0], "give 'edges' or 'edges_file', not both")
        if "edges_file" in top:
            file_node = top["edges_file"][1]
            path, text = self.read_side_file(file_node, "edges_file")
            us, vs, names, numbers = parse_edge_columns(text, path)
            index = self.node_index
            for u, v in zip(us, vs, strict=True):
                if u not in index:
                    self.node_id(u)
                if v not in index:
                    self.node_id(v)
            tail = list(map(index.__getitem__, us))
            head = list(map(index.__getitem__, vs))
            if need_colour or any(c is not None for c in names):
                for name, number in zip(names, numbers, strict=True):
                    try:
                        colour.append(colour_id(name, file_node, f"{path} line {number}"))
                    except SpecError as exc:
                        raise SpecError(exc.message.replace(f" in {path} line {number}", ""),
                                        Location(path, number, 1)) from None
            ids = list(range(len(tail)))
            any_directed = False
        elif "edges" in top:
            seen_ids: dict[str, yaml.Node] = {}
            for i, item in enumerate(self.sequence(top["edges"][1], "edges")):
                path = f"edges[{i}]"
                u, v, c, one_way, edge_id = self.read_edge(item, path)
                tail.append(self.node_id(u))
                head.append(self.node_id(v))
                colour.append(colour_id(c, item, path))
                directed.append(one_way)
                if edge_id is None:
                    edge_id = i
                key = str(edge_id)
                if key in seen_ids:
                    raise self.fail(item, f"edge id {edge_id!r} is used twice (first at line "
                                    f"{self.loc(seen_ids[key]).line}); ids must be unique")
                seen_ids[key] = item
                ids.append(edge_id)
            any_directed = any(directed)
        else:
            raise self.fail(root, "missing required key 'edges', e.g. edges: [a b, b c]")
        out: dict[str, Any] = {"tail": tail, "head": head}
        if any(c >= 0 for c in colour) or need_colour:
            out["colour"] = colour
            out["colour_names"] = tuple(labels)
        if any_directed:
            out["directed"] = directed
        if any(not isinstance(x, int) or x != i for i, x in enumerate(ids)):
            out["edge_ids"] = ids
        return out

    def read_edge(self, node: yaml.Node, path: str) -> tuple[str, str, str | None, bool, Any]:
        """One edge as ``(u, v, colour, one_way, id)`` from any of its three written forms."""
        if isinstance(node, yaml.MappingNode):
            entries = self.mapping(node, path)
            self.check_keys(entries, ("from", "to", "colour", "directed", "id"), path, "an edge")
            for key in ("from", "to"):
                if key not in entries:
                    raise self.fail(node, f"{path} is missing {key!r}; an edge needs 'from' and "
                                    "'to'")
            u = self.name_text(entries["from"][1], f"{path}.from")
            v = self.name_text(entries["to"][1], f"{path}.to")
            colour_entry = entries.get("colour")
            c = self.scalar_text(colour_entry[1], f"{path}.colour") if colour_entry else None
            one_way = self.boolean(entries["directed"][1], f"{path}.directed") \
                if "directed" in entries else False
            edge_id: Any = None
            if "id" in entries:
                id_node = entries["id"][1]
                text = self.scalar_text(id_node, f"{path}.id")
                edge_id = int(text) if id_node.tag == _YAML + "int" and text.isdigit() else text
            return u, v, c, one_way, edge_id
        if isinstance(node, yaml.SequenceNode):
            items = self.sequence(node, path)
            parts = [self.name_text(x, f"{path}[{j}]") for j, x in enumerate(items)]
        else:
            parts = self.scalar_text(node, path).split()
        one_way = False
        if len(parts) >= 3 and parts[1] in ("->", "→"):
            one_way = True
            parts = [parts[0], *parts[2:]]
        if len(parts) == 1:
            raise self.fail(node, f"{path} has one end ({parts[0]!r}); an edge needs two, like "
                            "'a b' or 'a b red'")
        if len(parts) not in (2, 3):
            raise self.fail(node, f"{path} has {len(parts)} fields; write 'u v' or 'u v colour'")
        return parts[0], parts[1], parts[2] if len(parts) == 3 else None, one_way, None

    def read_side_file(self, node: yaml.Node, key: str) -> tuple[str, str]:
        """Read a plain-text side file named by ``key``, relative to the spec's folder only."""
        name = self.string(node, key)
        if self.base_dir is None:
            raise self.fail(node, f"'{key}' only works in a spec loaded from a file")
        base = self.base_dir.resolve()
        target = (base / name).resolve()
        if not target.is_relative_to(base):
            raise self.fail(node, f"'{key}' must name a file inside the spec's folder {base}")
        try:
            data = target.read_bytes()
        except OSError as exc:
            raise self.fail(node, f"cannot read {name!r}: {exc.strerror or exc}") from None
        shown = str(self.base_dir / name)
        return shown, decode_utf8(data, shown)

    # ---------------------------------------------------------- endpoints
    def read_ends(self, top: dict, key: str) -> frozenset[int] | None:
        if key not in top:
            return None
        return self.read_node_set(top[key][1], key)

    def read_goal(self, top: dict) -> frozenset[int] | None:
        if "goal" in top and "end" in top:
            raise self.fail(top["goal"][0], "'goal' and 'end' mean the same; keep one")
        return self.read_ends(top, "goal" if "goal" in top else "end")

    def read_node_set(self, node: yaml.Node, key: str) -> frozenset[int] | None:
        items = self.sequence(node, key) if isinstance(node, yaml.SequenceNode) else [node]
        chosen = set()
        for i, item in enumerate(items):
            path = f"{key}[{i}]" if isinstance(node, yaml.SequenceNode) else key
            name = self.name_text(item, path)
            if name == "any" and not isinstance(node, yaml.SequenceNode):
                return None
            if name not in self.node_index:
                raise self.fail(item, f"{path} names {name!r}, which appears nowhere in the spec"
                                f"{_hint(name, self.node_names)}; list it under 'nodes:' if it "
                                "really has no edges")
            chosen.add(self.node_index[name])
        return frozenset(chosen)
