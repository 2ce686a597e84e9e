"""Graphs in and out: to_networkx / from_networkx round trips, and the DOT, GraphML and
node-link JSON exports read back by NetworkX into the same puzzle."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline import solve
from trailkit.solvers.tools.interchange import export_graph, from_networkx, to_networkx

nx = pytest.importorskip("networkx")
ROOT = Path(__file__).resolve().parents[3]
SPECS = ["nikolaus.yaml", "koenigsberg.yaml", "one-way-streets.yaml", "alternating-circuit.yaml",
         "tyre-puzzle/restored.yaml", "dominoes/double-six.yaml", "colour-revisit.yaml"]


def same_puzzle(p: Puzzle, q: Puzzle) -> None:
    """Same nodes, edges (a two-way edge in either orientation), colours, rules, layout."""
    assert q.nodes == p.nodes and q.num_edges == p.num_edges
    for e in range(p.num_edges):
        ends_p = (p.nodes[p.tail[e]], p.nodes[p.head[e]])
        ends_q = (q.nodes[q.tail[e]], q.nodes[q.head[e]])
        assert ends_q == ends_p if p.is_directed(e) else sorted(ends_q) == sorted(ends_p)
        assert q.is_directed(e) == p.is_directed(e)
        assert q.colour_name(e) == p.colour_name(e)
    for attr in ("kind", "name", "use", "colours", "first", "start", "end", "closed",
                 "objective", "layout", "edge_ids"):
        assert getattr(q, attr) == getattr(p, attr), attr


@pytest.mark.parametrize("spec", SPECS)
def test_networkx_round_trip(spec: str) -> None:
    p = load_spec(ROOT / "specs" / spec)
    graph = to_networkx(p)
    assert graph.number_of_edges() == p.num_edges
    assert graph.is_directed() == p.any_directed
    same_puzzle(p, from_networkx(graph))


@pytest.mark.parametrize("spec", SPECS)
def test_graphml_and_node_link_read_back_by_networkx(spec: str) -> None:
    p = load_spec(ROOT / "specs" / spec)
    graphml = nx.read_graphml(io.BytesIO(export_graph(p, "graphml").encode()),
                              force_multigraph=True)
    same_puzzle(p, from_networkx(graphml))
    linked = nx.node_link_graph(json.loads(export_graph(p, "json-graph")))
    same_puzzle(p, from_networkx(linked))


def test_a_plain_networkx_graph_becomes_a_solvable_puzzle() -> None:
    graph = nx.MultiGraph()
    graph.add_edge("S", "X", colour="red")
    graph.add_edge("X", "Y", color="blue")
    graph.add_edge("Y", "T", colour="green")
    p = from_networkx(graph, kind="colour-walk", start="S", goal="T")
    answer = solve(p)
    assert answer.status.value == "solved" and answer.length == 3
    ring = from_networkx(nx.cycle_graph(5), kind="trail", closed=True)
    assert solve(ring).length == 5
    with pytest.raises(Exception, match="unknown kind"):
        from_networkx(nx.path_graph(2), kind="maze")


def test_from_networkx_checks_like_a_spec() -> None:
    graph = nx.MultiGraph()
    graph.add_edge("a", "b", colour="teal")
    with pytest.raises(Exception, match="teal"):
        from_networkx(graph, kind="colour-walk", start="a", goal="b")


def test_dot_export_is_graphviz_text(tmp_path: Path) -> None:
    out = tmp_path / "streets.dot"
    assert main(["export", str(ROOT / "specs" / "one-way-streets.yaml"), "--format", "dot",
                 "--out", str(out)]) == 0
    text = out.read_text()
    assert text.startswith('digraph "One-way streets" {') and text.rstrip().endswith("}")
    assert text.count(" -> ") == load_spec(ROOT / "specs" / "one-way-streets.yaml").num_edges
    assert "dir=none" in text  # a two-way street in a mixed graph
    tyres = export_graph(load_spec(ROOT / "specs" / "tyre-puzzle" / "restored.yaml"), "dot")
    assert 'pos="11,6.928!"' in tyres and 'colour="green"' in tyres
    odd = Puzzle.build(kind="trail", edges=[('a"b', "c\\d")])
    assert '"a\\"b" -- "c\\\\d"' in export_graph(odd, "dot")
    # like every --out: never over an existing file without --force
    assert main(["export", str(ROOT / "specs" / "nikolaus.yaml"), "--format", "dot",
                 "--out", str(out)]) == 2
    assert main(["export", str(ROOT / "specs" / "nikolaus.yaml"), "--format", "dot",
                 "--out", str(out), "--force"]) == 0
    assert out.read_text().startswith('graph "Das Haus vom Nikolaus"')


def test_export_command_writes_each_graph_format(tmp_path: Path, capsys) -> None:
    for fmt in ("graphml", "json-graph"):
        assert main(["export", str(ROOT / "specs" / "nikolaus.yaml"), "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert "<graphml" in out and '"multigraph": true' in out


# ------------------------------------------------------ the DIMACS export's size, first
def _path_spec(folder: Path, edges: int) -> Path:
    path = folder / f"path{edges}.yaml"
    path.write_text("trailkit: 1\nkind: trail\nedges:\n"
                    + "".join(f"- n{i} n{i + 1}\n" for i in range(edges)))
    return path


def test_a_dimacs_export_over_the_memory_limit_is_not_built(tmp_path: Path) -> None:
    """A 1,000-edge path (12 KB of spec) once built a formula past 3 GB: its size is now
    estimated first and the export is refused under the default limit (exit 3, unknown,
    with the estimate), in a child held to 1 GB so the old way fails instead of
    swapping."""
    import resource
    import subprocess
    import sys

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    spec = _path_spec(tmp_path, 1000)
    out = tmp_path / "p.cnf"
    done = subprocess.run([sys.executable, "-m", "trailkit.solvers.frontends.cli", "export",
                           str(spec),
                           "--format", "dimacs", "--out", str(out)], capture_output=True,
                          text=True, timeout=120, preexec_fn=limit)
    assert done.returncode == 3, done.stderr[-2000:]
    assert "unknown:" in done.stderr and "would need about" in done.stderr
    assert "--memory-limit" in done.stderr and not out.exists()


def test_export_memory_limit_is_the_budget(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    spec = _path_spec(tmp_path, 30)
    out = tmp_path / "p.cnf"
    assert main(["export", str(spec), "--format", "dimacs", "--out", str(out),
                 "--memory-limit", "1"]) == 3
    assert "more than the memory limit of 1 MB" in capsys.readouterr().err
    assert not out.exists()
    assert main(["export", str(spec), "--format", "dimacs", "--out", str(out)]) == 0
    assert out.read_text().startswith("c ")
