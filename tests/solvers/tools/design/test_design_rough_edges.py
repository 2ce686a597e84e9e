"""Designers' rough edges (issue 41, items 17 and 18): a one-start figure keeps most of
its lines two-way, and a design on a spec's field keeps the spec's colour cycle."""

from __future__ import annotations

from pathlib import Path

import pytest

from trailkit.models.spec import load_spec, load_spec_text
from trailkit.solvers.frontends.cli import main

ROOT = Path(__file__).resolve().parents[4]


def _yellow_spec(tmp_path: Path) -> Path:
    """The tyre puzzle as found, its colour cycle red -> yellow -> blue."""
    text = (ROOT / "specs" / "tyre-puzzle" / "original.yaml").read_text(encoding="utf-8")
    text = text.replace("green", "yellow").replace("colours: [red, blue, yellow]",
                                                   "colours: [red, yellow, blue]")
    path = tmp_path / "ryb.yaml"
    path.write_text(text, encoding="utf-8")
    assert load_spec(path).colours.cycle == ("red", "yellow", "blue")
    return path


def test_a_design_from_a_spec_keeps_its_colour_cycle(tmp_path: Path) -> None:
    """``design colour-walk --from SPEC``: red, yellow, blue became red, blue, green."""
    out = tmp_path / "designed.yaml"
    assert main(["design", "colour-walk", "--from", str(_yellow_spec(tmp_path)),
                 "--min-length", "5", "--time-limit", "30", "--out", str(out)]) == 0
    designed = load_spec(out)
    assert designed.colours.cycle == ("red", "yellow", "blue")
    assert set(designed.colour_names) <= {"red", "yellow", "blue"}
    assert "--colours" not in out.read_text().splitlines()[2]  # made again the same way


def test_given_colours_still_win_and_a_layout_keeps_the_default(tmp_path: Path) -> None:
    from trailkit.solvers.frontends.presenter.design_options import DesignAsk

    spec = load_spec(_yellow_spec(tmp_path))
    ask = DesignAsk(source="ryb.yaml", colours="a,b")
    assert ask.targets(ask.field(spec))[1] == ("a", "b")
    ask = DesignAsk(layout="grid:3,3")
    assert ask.targets(ask.field())[1] == ("red", "blue", "green")
    assert "--colours red,blue,green" in ask.made_by()


def test_the_workshop_design_from_the_open_spec_keeps_its_cycle(tmp_path: Path) -> None:
    """The Design panel's colours field left empty, the field taken from the spec in the
    editor: the spec's cycle, as on the command line."""
    from trailkit.solvers.frontends.workshop.designs import FROM_SPEC, read_design

    ask = read_design({"layout": FROM_SPEC, "colours": ""}, "ryb.yaml")
    spec = load_spec(_yellow_spec(tmp_path))
    assert ask.targets(ask.field(spec))[1] == ("red", "yellow", "blue")


@pytest.mark.parametrize("seed", [2, 4, 5, 6])
def test_a_one_start_figure_keeps_most_lines_two_way(seed: int, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    """``design trail --layout grid:4,4 --unique-start``: seeds 2, 4, 5 and 6 made
    figures whose every line was one-way (a "follow the arrows" puzzle). A figure keeps
    the fewest one-way lines that leave one start (one or two on a grid: no single line
    made two-way again keeps one start), and says how many."""
    out = tmp_path / "figure.yaml"
    assert main(["design", "trail", "--layout", "grid:4,4", "--unique-start", "--seed",
                 str(seed), "--time-limit", "60", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    puzzle = load_spec(out)
    one_way = [e for e in range(puzzle.num_edges) if puzzle.is_directed(e)]
    assert 1 <= len(one_way) <= 2 < puzzle.num_edges - len(one_way)
    assert f"one-way lines: {len(one_way)} of {puzzle.num_edges}" in said
    for e in one_way:  # the fewest: none can be made two-way again
        text = out.read_text()
        u, v = puzzle.nodes[puzzle.tail[e]], puzzle.nodes[puzzle.head[e]]
        loose = load_spec_text(text.replace(f"  - {u} -> {v}\n", f"  - {u} {v}\n", 1))
        assert _starts(loose) > 1


def _starts(puzzle: object) -> int:
    """How many nodes start a drawing of ``puzzle`` (direct's exact count)."""
    from trailkit.solvers.pipeline import count

    result = count(puzzle, "direct")  # type: ignore[arg-type]
    return sum(1 for row in (result.per_start or {}).values() if row.solutions)
