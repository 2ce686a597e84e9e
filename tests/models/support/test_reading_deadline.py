"""The reading of a spec keeps the command's deadline (issue 41 item 6): every reader,
the fast one of big inline lists, the compiled scan of an ``edges_file:``, the full
reader, stops with :class:`TimeLimitReached` once the deadline has passed, and looks at
the clock between the pieces of its work, not only at its start or end.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from trailkit.models.spec import load_spec
from trailkit.models.support import deadline
from trailkit.models.support.deadline import TimeLimitReached, reading_until

EDGES = 30_000  # over the compiled scan's threshold and the fast reader's


def _specs(folder: Path) -> dict[str, Path]:
    """A big inline colour walk (the fast reader), the same edges in an ``edges_file:``,
    and a quoted list the fast reader leaves to the full reader."""
    lines = [f"n{i} n{(i * 7 + 1) % EDGES} {('red', 'blue')[i % 2]}" for i in range(EDGES)]
    (folder / "e.txt").write_text("\n".join(lines) + "\n")
    head = ("trailkit: 1\nkind: colour-walk\nstart: n0\ngoal: n1\n"
            "colours: {cycle: [red, blue]}\n")
    (folder / "inline.yaml").write_text(head + "edges:\n" + "".join(f"  - {x}\n" for x in lines))
    (folder / "side.yaml").write_text(head + "edges_file: e.txt\n")
    (folder / "quoted.yaml").write_text(head + "edges:\n"
                                        + "".join(f"  - '{x}'\n" for x in lines[:5000]))
    return {name: folder / f"{name}.yaml" for name in ("inline", "side", "quoted")}


@pytest.fixture(scope="module")
def specs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return _specs(tmp_path_factory.mktemp("deadline"))


@pytest.mark.parametrize("name", ["inline", "side", "quoted"])
def test_a_passed_deadline_stops_the_reading(specs: dict[str, Path], name: str) -> None:
    """Past the deadline no puzzle comes; with time left (or none set) it does."""
    with pytest.raises(TimeLimitReached, match="reading"), \
            reading_until(time.monotonic() - 1):
        load_spec(specs[name])
    with reading_until(time.monotonic() + 600):
        assert load_spec(specs[name]).num_edges in (EDGES, 5000)


@pytest.mark.parametrize("name", ["inline", "side", "quoted"])
def test_the_clock_is_read_between_the_pieces(specs: dict[str, Path], name: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A deadline that passes during the reading stops it there: the clock is read
    again and again (the big steps each lie between two looks), and the reading stops
    at the first look after the deadline, not at the end."""
    looks: list[float] = []

    def clock() -> float:
        looks.append(0.0)
        return float(len(looks))  # one "second" a look

    monkeypatch.setattr(deadline, "_now", clock)
    with reading_until(1e9):
        load_spec(specs[name])
    total = len(looks)
    assert total >= 4, total
    looks.clear()
    with pytest.raises(TimeLimitReached), reading_until(total // 2):
        load_spec(specs[name])
    assert len(looks) == total // 2
