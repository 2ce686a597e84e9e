"""What a new user hit in a first hour (issue 30, item 9), each kept fixed: the layout's
y axis as spec.md states it, count --failures on an unsolvable puzzle as the counting
page says, names on a console that cannot show them, and a bad --from-model file."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from trailkit.models.spec import load_spec, load_spec_text
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.tools.drawing import draw_svg

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


# ------------------------------------------------------------------ layout: y points up
def test_spec_page_says_y_points_up_and_the_picture_agrees() -> None:
    page = (ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
    assert "y pointing up" in page.split("```", 2)[1]  # the top-of-page summary
    example = re.search(r"`(\{roof: \[1, 2\], floor: \[1, 0\]\})` draws `roof` above "
                        r"`floor`", page)
    assert example, "spec.md's Layout section shows which way y points"
    puzzle = load_spec_text(f"trailkit: 1\nkind: trail\nedges: [roof floor]\n"
                            f"layout: {example.group(1)}\n")
    root = ET.fromstring(draw_svg(puzzle).encode("utf-8"))
    cy = {g.get("data-node"): float(g.find(f"{SVG}circle").get("cy"))
          for g in root.iter() if "node" in (g.get("class") or "").split()}
    assert cy["roof"] < cy["floor"]  # SVG's y points down: roof is drawn higher up


def test_the_spec_schema_tells_an_editor_that_y_points_up() -> None:
    schema = json.loads((ROOT / "models" / "schemas" / "spec.schema.json").read_text())
    assert "y pointing up" in schema["properties"]["layout"]["description"]


# ------------------------------------------------------------------ a bad --from-model file
CITIES = "trailkit: 1\nkind: trail\nedges: [Ulm Bonn, Bonn Kiel, Kiel Gera]\n"


def _model_file(tmp_path: Path, steps: list[tuple[int, int, int]]) -> tuple[Path, Path]:
    """The spec of three cities and a model (``v`` lines) setting exactly the step
    variables ``(position, edge, orientation)`` true."""
    from trailkit.solvers.backends.sat.exported_formula import encode_for_export

    spec = tmp_path / "cities.yaml"
    spec.write_text(CITIES)
    _, vmap = encode_for_export(load_spec_text(CITIES))
    model = tmp_path / "model.txt"
    model.write_text("s SATISFIABLE\nv " + " ".join(str(vmap.var(*s)) for s in steps)
                     + " 0\n")
    return spec, model


def test_a_model_that_is_no_walk_names_the_file_the_node_and_what_to_do(
        tmp_path: Path, capsys) -> None:
    # step 0 Ulm->Bonn, then step 1 jumps to Kiel->Gera: it does not leave Bonn
    spec, model = _model_file(tmp_path, [(0, 0, 0), (1, 2, 0), (2, 1, 0)])
    code = main(["solve", str(spec), "--from-model", str(model)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert str(model) in err and "does not leave node Bonn" in err
    assert "Kiel->Gera" in err and not re.search(r"node \d", err)
    assert f"trailkit export {spec} --format dimacs" in err  # what to do


def test_a_model_that_breaks_the_formula_is_bad_input_not_a_bug(tmp_path: Path,
                                                                capsys) -> None:
    # a walk Ulm->Bonn->Ulm->Bonn: every step leaves where the last ended, but edge 0
    # is walked three times, which no model of the exported formula does
    spec, model = _model_file(tmp_path, [(0, 0, 0), (1, 0, 1), (2, 0, 0)])
    code = main(["solve", str(spec), "--from-model", str(model)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "INTERNAL" not in err and str(model) in err
    assert "does not satisfy the exported formula" in err and "used 3 times" in err


def test_a_solvers_own_model_still_reads_back(tmp_path: Path, capsys) -> None:
    spec, model = _model_file(tmp_path, [(0, 0, 0), (1, 1, 0), (2, 2, 0)])
    assert main(["solve", str(spec), "--from-model", str(model)]) == 0
    assert "Ulm -> Bonn -> Kiel -> Gera" in capsys.readouterr().out


# ------------------------------------------------------------------ count --failures, unsolvable
def _stuck_walks(edges: list[tuple[str, str]]) -> int:
    """Every walk (a start and its steps, each bridge at most once) that can go no
    further without using every bridge: the seed's failures, by brute force."""
    def extend(at: str, used: frozenset[int]) -> int:
        steps = [(i, v if u == at else u) for i, (u, v) in enumerate(edges)
                 if i not in used and at in (u, v)]
        if not steps:
            return 0 if len(used) == len(edges) else 1
        return sum(extend(there, used | {i}) for i, there in steps)
    return sum(extend(node, frozenset()) for node in sorted({n for e in edges for n in e}))


def test_count_failures_of_an_unsolvable_puzzle_says_what_its_numbers_mean(capsys) -> None:
    spec = ROOT / "specs" / "koenigsberg.yaml"
    puzzle = load_spec(spec)
    bridges = [(puzzle.nodes[t], puzzle.nodes[h]) for t, h in zip(puzzle.tail, puzzle.head,
                                                                    strict=True)]
    assert main(["count", str(spec), "--failures"]) == 0
    out = capsys.readouterr().out
    assert "solutions:      0" in out
    assert f"failures:       {_stuck_walks(bridges)}\n" in out  # every walk that gets stuck
    assert "early failures: 0 (there is no solution, so no step is the mistake)" in out
    page = (ROOT / "docs" / "counting.md").read_text(encoding="utf-8")
    assert "## A puzzle without a solution" in page
    assert "in a puzzle that has a solution, starting at\n  a node" in page
    assert main(["count", str(ROOT / "specs" / "nikolaus.yaml"), "--failures"]) == 0
    assert "early failures: 23\n" in capsys.readouterr().out  # a solvable puzzle: no note


# ------------------------------------------------------------------ names on an ASCII console
def _ascii_console(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run trailkit where standard output and error can show ASCII only."""
    return subprocess.run([sys.executable, "-m", "trailkit.solvers.frontends.cli", *args], cwd=cwd,
                          capture_output=True, encoding="ascii", timeout=120,
                          env={**os.environ, "PYTHONIOENCODING": "ascii"})


def _walk(out: str) -> list[str]:
    """The nodes of the walk line of ``solve``'s text output."""
    line = next(line for line in out.splitlines() if " -> " in line)
    return line.strip().split(" -> ")


def test_a_name_the_console_cannot_show_does_not_read_as_another(tmp_path: Path) -> None:
    (tmp_path / "u.yaml").write_text("trailkit: 1\nname: Über die Brücke\nkind: trail\n"
                                     "edges: [U Ü, Ü O]\nstart: U\n", encoding="utf-8")
    result = _ascii_console("solve", "u.yaml", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert _walk(result.stdout) == ["U", "Ue", "O"]  # not U -> U -> O, a loop
    assert result.stdout.startswith("Ueber die Bruecke")  # the same letter, the same way
    (tmp_path / "any.yaml").write_text("trailkit: 1\nkind: trail\nedges: [U Ü, Ü O]\n",
                                       encoding="utf-8")
    count = _ascii_console("count", "any.yaml", cwd=tmp_path)
    assert count.returncode == 0, count.stderr
    table = count.stdout.splitlines()[-3:]  # by start node, lined up as printed
    assert [row.split() for row in table] == [["U", "1"], ["Ue", "0"], ["O", "1"]]
    assert len({len(row) for row in table}) == 1


def test_a_spelling_that_would_clash_with_a_name_is_escaped(tmp_path: Path) -> None:
    (tmp_path / "u.yaml").write_text("trailkit: 1\nkind: trail\nedges: [U Ü, Ü Ue, Ue O]\n"
                                     "start: U\n", encoding="utf-8")
    result = _ascii_console("solve", "u.yaml", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    walk = _walk(result.stdout)
    assert walk == ["U", "\\xdc", "Ue", "O"] and len(set(walk)) == 4


def test_messages_spell_a_name_as_the_walk_does(tmp_path: Path) -> None:
    from trailkit.solvers.backends.sat.exported_formula import encode_for_export

    text = "trailkit: 1\nkind: trail\nedges: [U Ü, Ü O]\n"
    (tmp_path / "u.yaml").write_text(text, encoding="utf-8")
    _, vmap = encode_for_export(load_spec_text(text))
    # step 0 U->Ü, then step 1 O->Ü: it does not leave Ü
    (tmp_path / "m.txt").write_text(f"v {vmap.var(0, 0, 0)} {vmap.var(1, 1, 1)} 0\n")
    result = _ascii_console("solve", "u.yaml", "--from-model", "m.txt", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "O->Ue, which does not leave node Ue" in result.stderr


def test_an_export_to_an_ascii_console_is_the_files_utf8_bytes(tmp_path: Path) -> None:
    spec = str(ROOT / "specs" / "koenigsberg.yaml")
    result = subprocess.run([sys.executable, "-m", "trailkit.solvers.frontends.cli", "export", spec,
                             "--format", "dot"], capture_output=True, timeout=120,
                            env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    assert 'graph "The seven bridges of Königsberg"' in result.stdout.decode("utf-8")
    assert main(["export", spec, "--format", "dot", "--out", str(tmp_path / "k.dot")]) == 0
    assert (tmp_path / "k.dot").read_bytes() == result.stdout  # as the file --out writes


def test_a_spec_that_does_not_load_keeps_its_names_apart_in_the_message(tmp_path: Path
                                                                        ) -> None:
    (tmp_path / "typo.yaml").write_text("trailkit: 1\nkind: trail\nnodes: [U, Ü, Ue]\n"
                                        "edges: [U Ü, Ü Ue]\nstart: Üe\n", encoding="utf-8")
    for command in (["lint", "typo.yaml"], ["solve", "typo.yaml"]):
        result = _ascii_console(*command, cwd=tmp_path)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        # the suggestion is Ü: spelt Ue it would name the other node, Ue
        assert "(did you mean '\\xdc'?)" in result.stderr, result.stderr
