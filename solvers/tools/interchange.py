"""Puzzles in and out of other graph tools: NetworkX graphs, Graphviz DOT, GraphML
(Gephi, yEd, igraph), NetworkX's node-link JSON and TSPLIB's Hamiltonian cycle files.

* :func:`to_networkx` gives a ``MultiGraph`` (``MultiDiGraph`` when any edge is
  one-way; a two-way edge there has ``directed=False``). Edge keys are the edge indices;
  edges carry ``id`` (the spec's id), ``colour`` and ``directed``; nodes carry ``pos``
  when the spec lays them out. The graph's attributes hold the rules in spec terms
  (``kind``, ``use``, ``colours``, ``first``, ``start``, ``end``, ``closed``,
  ``objective``, ``name``, and the node rules ``visit``, ``via``, ``avoid``, ``at``).
* :func:`from_networkx` goes back: it writes a spec and reads it with the spec reader,
  so an imported graph is checked exactly like a hand-written spec (one validation, not
  two). ``kind`` picks the puzzle family; rules given as keywords override the graph's.
* :func:`export_graph` writes the text formats without needing NetworkX (``hcp``, a
  tour as TSPLIB writes one, by :mod:`trailkit.models.formats.hcp`, which also reads it).

NetworkX is imported lazily (``pip install 'trailkit[draw]'``, or any NetworkX 3.x).

>>> from trailkit.models.spec import load_spec_text
>>> p = load_spec_text("trailkit: 1\\nkind: trail\\nedges: [a b, b c, c a]\\n")
>>> q = from_networkx(to_networkx(p))
>>> q.nodes, q.num_edges, q.kind
(('a', 'b', 'c'), 3, 'trail')
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import yaml

from trailkit.models.errors import BackendUnavailable, TrailkitError
from trailkit.models.formats.hcp import hcp_text
from trailkit.models.puzzle import NodeVisit, Puzzle
from trailkit.models.spec import KINDS, load_spec_text
from trailkit.solvers.support.extras import pip_install

__all__ = ["GRAPH_FORMATS", "export_graph", "from_networkx", "rules_of", "to_networkx"]

#: The formats :func:`export_graph` writes.
GRAPH_FORMATS = ("dot", "graphml", "json-graph", "hcp")

#: The rule keys each kind's spec accepts (besides its edges), in spec terms.
_NODE_RULES = ("visit", "via", "avoid", "at")
_RULE_KEYS = {
    "trail": ("closed", "start", "end", *_NODE_RULES),
    "domino-chain": ("closed", *_NODE_RULES),
    "colour-walk": ("colours", "first", "start", "goal", *_NODE_RULES),
    "walk": ("use", "colours", "first", "start", "end", "closed", "objective", *_NODE_RULES),
    "tour": ("colours", "first", "start", "end", "closed", "objective", "via", "avoid", "at"),
}


def rules_of(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle's rules as spec values (``None`` where the spec would say ``any``)."""
    names = puzzle.nodes
    rule = puzzle.colours
    colours: Any = None
    if rule is not None:
        colours = ({"cycle": list(rule.cycle)} if rule.cycle is not None else
                   {"transitions": {rule.names[i]: [rule.names[j] for j in sorted(nxt)]
                                    for i, nxt in enumerate(rule.successors)}})

    def names_of(nodes: frozenset[int] | None) -> list[str] | None:
        return None if nodes is None else [names[v] for v in sorted(nodes)]

    return {"name": puzzle.name, "kind": puzzle.kind, "use": puzzle.use.value,
            "colours": colours,
            "first": None if puzzle.first is None or rule is None
            else [rule.names[c] for c in sorted(puzzle.first)],
            "start": names_of(puzzle.start), "end": names_of(puzzle.end),
            "closed": puzzle.closed, "objective": puzzle.objective.value,
            **_node_rules_of(puzzle)}


def _node_rules_of(puzzle: Puzzle) -> dict[str, Any]:
    """The node rules as spec values (``None`` where the spec would leave them out)."""
    names = puzzle.nodes
    return {"visit": None if puzzle.visit is NodeVisit.ANY else puzzle.visit.value,
            "via": [names[v] for v in sorted(puzzle.via)] or None,
            "avoid": [names[v] for v in sorted(puzzle.avoid)] or None,
            "at": {names[v]: p for v, p in sorted(puzzle.at.items(), key=lambda i: i[1])}
            or None}


def _require_networkx() -> Any:
    try:
        import networkx as nx
    except ImportError:
        raise BackendUnavailable(f"this needs NetworkX: {pip_install('trailkit[draw]')}") from None
    return nx


def to_networkx(puzzle: Puzzle) -> Any:
    """The puzzle as a NetworkX multigraph (see the module docstring)."""
    nx = _require_networkx()
    graph = nx.MultiDiGraph() if puzzle.any_directed else nx.MultiGraph()
    graph.graph.update({k: v for k, v in rules_of(puzzle).items() if v is not None})
    layout = puzzle.layout or {}
    for name in puzzle.nodes:
        graph.add_node(name, **({"pos": tuple(layout[name])} if name in layout else {}))
    for e in range(puzzle.num_edges):
        attrs: dict[str, Any] = {"directed": puzzle.is_directed(e)}
        if puzzle.edge_ids is not None:
            attrs["id"] = puzzle.edge_id(e)
        colour = puzzle.colour_name(e)
        if colour is not None:
            attrs["colour"] = colour
        graph.add_edge(puzzle.nodes[puzzle.tail[e]], puzzle.nodes[puzzle.head[e]], key=e,
                       **attrs)
    return graph


def from_networkx(graph: Any, kind: str | None = None, **rules: Any) -> Puzzle:
    """A puzzle from a NetworkX graph: edges with optional ``colour`` (or ``color``),
    ``directed`` and ``id`` attributes; ``pos`` node attributes become the layout. The
    rules come from the graph's attributes (as :func:`to_networkx` writes them), then
    from ``rules`` (spec keys: ``start="A", goal="T"``, ``closed=True``, ...)."""
    given = dict(graph.graph)
    if isinstance(given.get("trailkit"), str):  # GraphML keeps the rules as JSON text
        given.update(json.loads(given.pop("trailkit")))
    kind = kind or given.get("kind", "trail")
    if kind not in KINDS:
        raise TrailkitError(f"unknown kind {kind!r}; choose from {', '.join(KINDS)}")
    if "goal" not in given and given.get("end") is not None:
        given["goal"] = given["end"]
    given.update(rules)
    spec: dict[str, Any] = {"trailkit": 1, "kind": kind}
    if given.get("name"):
        spec["name"] = str(given["name"])
    for key in _RULE_KEYS[kind]:
        value = given.get(key)
        if value is None or (key == "use" and kind != "walk"):
            continue
        spec[key] = value
    spec["dominoes" if kind == "domino-chain" else "edges"] = _spec_edges(graph, kind)
    spec["nodes"] = [str(n) for n in graph.nodes]
    pos = {str(n): [float(x) for x in (d["pos"] if "pos" in d else (d["x"], d["y"]))]
           for n, d in graph.nodes(data=True) if "pos" in d or ("x" in d and "y" in d)}
    if pos:
        spec["layout"] = pos
    return load_spec_text(yaml.safe_dump(spec, sort_keys=False, allow_unicode=True),
                          source="<networkx graph>")


def _spec_edges(graph: Any, kind: str) -> list[dict[str, Any] | list[str]]:
    """``graph``'s edges as a spec writes them, in order: dominoes as pairs, edges as
    mappings with their ``colour`` (or ``color``), ``directed`` (every edge of a
    directed graph, unless it says otherwise) and ``id`` attributes."""
    directed_graph = graph.is_directed()
    edges: list[dict[str, Any] | list[str]] = []  # dominoes as pairs, edges as mappings
    for u, v, data in _edges_in_order(graph):
        if kind == "domino-chain":
            edges.append([str(u), str(v)])
            continue
        entry: dict[str, Any] = {"from": str(u), "to": str(v)}
        colour = data.get("colour", data.get("color"))
        if colour is not None:
            entry["colour"] = str(colour)
        if bool(data.get("directed", directed_graph)):
            entry["directed"] = True
        if "id" in data:
            entry["id"] = data["id"]
        edges.append(entry)
    return edges


def _edges_in_order(graph: Any) -> list[tuple[Any, Any, dict[str, Any]]]:
    """The graph's edges, by their keys where the keys are edge numbers (``3`` or GraphML's
    ``"e3"``): NetworkX lists a multigraph's edges by node, not in the order they were
    added, and the order is the puzzle's edge order."""
    if not graph.is_multigraph():
        return list(graph.edges(data=True))
    rows = list(graph.edges(keys=True, data=True))

    def number(key: Any) -> int | None:
        if isinstance(key, int):
            return key
        text = str(key)
        digits = text[1:] if text[:1] == "e" else text
        return int(digits) if digits.isdigit() else None

    numbers = [number(k) for _, _, k, _ in rows]
    if None not in numbers and len(set(numbers)) == len(numbers):
        order = sorted(range(len(rows)), key=lambda i: numbers[i] or 0)
        rows = [rows[i] for i in order]
    return [(u, v, data) for u, v, _, data in rows]


# ------------------------------------------------------------------ text formats
def export_graph(puzzle: Puzzle, fmt: str) -> str:
    """The puzzle as ``dot``, ``graphml``, ``json-graph`` or ``hcp`` text (``hcp`` raises
    :class:`TrailkitError` saying why for a puzzle that is no plain undirected tour)."""
    writers = {"dot": _dot, "graphml": _graphml, "json-graph": _node_link, "hcp": hcp_text}
    if fmt not in writers:
        raise TrailkitError(f"unknown graph format {fmt!r}; choose from "
                            f"{', '.join(GRAPH_FORMATS)}")
    return writers[fmt](puzzle)


def _edge_rows(puzzle: Puzzle) -> list[tuple[int, str, str, str | None, bool, Any]]:
    """(index, tail, head, colour, one-way, id written in the spec or ``None``) per edge."""
    ids = puzzle.edge_ids
    return [(e, puzzle.nodes[puzzle.tail[e]], puzzle.nodes[puzzle.head[e]],
             puzzle.colour_name(e), puzzle.is_directed(e), None if ids is None else ids[e])
            for e in range(puzzle.num_edges)]


def _dot_id(text: Any) -> str:
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _dot(puzzle: Puzzle) -> str:
    """Graphviz: a ``digraph`` when any edge is one-way (two-way edges get ``dir=none``),
    colours painted as the drawings paint them, positions pinned (``neato -n``)."""
    from trailkit.models.palette import palette

    paint = palette(list(puzzle.colour_names))
    directed = puzzle.any_directed
    lines = [f"{'digraph' if directed else 'graph'} {_dot_id(puzzle.name or 'puzzle')} {{",
             "  node [shape=circle, fontname=\"DejaVu Sans\"];"]
    layout = puzzle.layout or {}
    for name in puzzle.nodes:
        pos = f", pos={_dot_id('{:g},{:g}!'.format(*layout[name]))}" if name in layout else ""
        lines.append(f"  {_dot_id(name)} [label={_dot_id(name)}{pos}];")
    arrow = "->" if directed else "--"
    for e, u, v, colour, one_way, edge_id in _edge_rows(puzzle):
        attrs = [f"key={e}"] + ([f"id={_dot_id(edge_id)}"] if edge_id is not None else [])
        if colour is not None:
            attrs += [f"colour={_dot_id(colour)}", f"color={_dot_id(paint[colour].hex)}",
                      "penwidth=3"]
        if directed and not one_way:
            attrs.append("dir=none")
        lines.append(f"  {_dot_id(u)} {arrow} {_dot_id(v)} [{', '.join(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _graphml(puzzle: Puzzle) -> str:
    """GraphML: directed when any edge is one-way, each edge's own ``directed`` flag as
    data (so mixed graphs stay mixed: GraphML's per-edge attribute is one NetworkX
    refuses), keys for the colour, the spec's edge id and the layout (``x``, ``y``); the
    puzzle's rules as graph data ``trailkit`` (JSON text)."""
    default = "directed" if puzzle.any_directed else "undirected"
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
           '  <key id="x" for="node" attr.name="x" attr.type="double"/>',
           '  <key id="y" for="node" attr.name="y" attr.type="double"/>',
           '  <key id="colour" for="edge" attr.name="colour" attr.type="string"/>',
           '  <key id="eid" for="edge" attr.name="id" attr.type="string"/>',
           '  <key id="oneway" for="edge" attr.name="directed" attr.type="boolean"/>',
           '  <key id="rules" for="graph" attr.name="trailkit" attr.type="string"/>',
           f'  <graph id="puzzle" edgedefault="{default}">',
           f'    <data key="rules">{escape(json.dumps(rules_of(puzzle)))}</data>']
    layout = puzzle.layout or {}
    for name in puzzle.nodes:
        data = ""
        if name in layout:
            x, y = layout[name]
            data = f'<data key="x">{x!r}</data><data key="y">{y!r}</data>'
        out.append(f"    <node id={quoteattr(name)}>{data}</node>")
    for e, u, v, colour, one_way, edge_id in _edge_rows(puzzle):
        data = f'<data key="oneway">{"true" if one_way else "false"}</data>'
        if edge_id is not None:
            data += f'<data key="eid">{escape(str(edge_id))}</data>'
        if colour is not None:
            data += f'<data key="colour">{escape(colour)}</data>'
        out.append(f'    <edge id="e{e}" source={quoteattr(u)} target={quoteattr(v)}>'
                   f"{data}</edge>")
    out += ["  </graph>", "</graphml>"]
    return "\n".join(out) + "\n"


def _node_link(puzzle: Puzzle) -> str:
    """NetworkX's node-link JSON (``networkx.node_link_graph`` reads it; edges under
    ``"edges"``, the NetworkX 3.4+ default)."""
    layout: Mapping[str, Any] = puzzle.layout or {}
    doc = {
        "directed": puzzle.any_directed, "multigraph": True,
        "graph": {k: v for k, v in rules_of(puzzle).items() if v is not None},
        "nodes": [{"id": name, **({"pos": list(layout[name])} if name in layout else {})}
                  for name in puzzle.nodes],
        "edges": [{"source": u, "target": v, "key": e, "directed": one_way,
                   **({"id": edge_id} if edge_id is not None else {}),
                   **({"colour": colour} if colour is not None else {})}
                  for e, u, v, colour, one_way, edge_id in _edge_rows(puzzle)],
    }
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
