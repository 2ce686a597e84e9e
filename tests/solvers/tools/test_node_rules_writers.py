"""Everything that writes a spec or a model from a puzzle with node rules keeps the rules
or refuses with a clear message (exit 2): the graph formats and NetworkX carry them
both ways, a repair edits the written edges and never a board's (which the spec does not
write), and a solver model that does not encode them is not written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trailkit.models.errors import BackendUnavailable
from trailkit.models.spec import load_spec_text
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.tools.repair.changes import Change, Op
from trailkit.solvers.tools.repair.specedit import apply_edits, board_edges, change_edits

BOARD = ("trailkit: 1\nkind: tour\nboard: {size: [3, 4], moves: knight}\n"
         "edges: [a1 b1, b1 c1]\navoid: [b2]\nvia: [a1]\nat: {c1: 2}\nclosed: false\n")


@pytest.mark.parametrize("fmt", ["graphml", "json-graph"])
def test_graph_formats_carry_the_node_rules_both_ways(fmt: str, tmp_path: Path) -> None:
    pytest.importorskip("networkx")
    from trailkit.solvers.tools.interchange import export_graph, from_networkx, to_networkx

    puzzle = load_spec_text(BOARD)
    back = from_networkx(to_networkx(puzzle))
    assert (back.kind, back.visit, back.closed, back.use) == (
        "tour", puzzle.visit, False, puzzle.use)
    assert {back.nodes[v] for v in back.via} == {"a1"}
    assert {back.nodes[v] for v in back.avoid} == {"b2"}
    assert {back.nodes[v]: p for v, p in back.at.items()} == {"c1": 2}
    assert '"at"' in export_graph(puzzle, fmt)
    walk = load_spec_text("trailkit: 1\nkind: walk\nedges: [a b, b c]\nvisit: at-most-once\n"
                          "use: any\n")
    again = from_networkx(to_networkx(walk))
    assert (again.visit, again.use) == (walk.visit, walk.use)


def test_a_repair_edits_the_written_edge_after_the_board() -> None:
    puzzle = load_spec_text(BOARD)
    board = board_edges(puzzle)
    assert board == puzzle.num_edges - 2 and board > 0
    removed = Change(Op.REMOVE, "b1", "c1", edge=board + 1)
    text = apply_edits(BOARD, change_edits(BOARD, puzzle, [removed], note=None))
    assert "edges: [a1 b1]" in text
    edited = load_spec_text(text)
    assert edited.num_edges == puzzle.num_edges - 1
    assert (edited.visit, edited.via, edited.avoid, edited.at) == (
        puzzle.visit, puzzle.via, puzzle.avoid, puzzle.at)


def test_a_repair_of_a_boards_move_is_refused() -> None:
    puzzle = load_spec_text(BOARD)
    move = Change(Op.REMOVE, puzzle.nodes[puzzle.tail[0]], puzzle.nodes[puzzle.head[0]],
                  edge=0)
    with pytest.raises(ValueError, match="board"):
        change_edits(BOARD, puzzle, [move])


@pytest.mark.parametrize("fmt", ["dimacs", "cpsat", "mzn"])
def test_a_model_without_the_node_rules_is_not_written(
        fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from trailkit.solvers.backends.registry import get_backend
    from trailkit.solvers.frontends.cli.assignments import _MODEL_BACKENDS

    try:
        if get_backend(_MODEL_BACKENDS[fmt]).supports_node_rules:
            pytest.skip(f"the {fmt} model encodes node rules now")
    except BackendUnavailable:  # a backend not installed here encodes nothing
        pass
    spec = tmp_path / "p.yaml"
    spec.write_text("trailkit: 1\nkind: tour\nedges: [a b, b c, c a]\n")
    out = tmp_path / "model.txt"
    code = main(["export", str(spec), "--format", fmt, "--out", str(out)])
    _, err = capsys.readouterr()
    assert code == 2 and "node rules" in err and not out.exists()
