"""The one presenter: the workshop says every answer in the command line's words and JSON.

For each bundled spec and each verb the workshop offers, the workshop's run (called as
its worker calls it, not over HTTP) and the command line (its ``main``, in this
process) must give the same text and the same JSON, times apart. A one-step walk is
"1 step" in every verb's words.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from trailkit.models.support import jit
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.frontends.workshop.analysis import analyse
from trailkit.solvers.frontends.workshop.jobs import OPS, Job, run_job

ROOT = Path(__file__).resolve().parents[4]
LIMIT = 20.0

#: What needs seconds (a limit reached, or a long search): left out to keep this quick.
SLOW_SPECS = {"medium-balanced-8-no", "small-balanced-4-no"}
SLOW_RUNS = {("medium-dominoes-12-yes", "count"), ("medium-trail-40-yes", "count"),
             ("small-alternating-6-no", "repair"), ("double-nine", "repair"),
             ("double-nine", "explain"), ("double-six", "count"),
             ("small-alternating-6-no", "explain"), ("small-trail-10-no", "explain"),
             ("small-dominoes-6-yes", "count"), ("medium-trail-40-yes", "inspect"),
             ("medium-dominoes-12-yes", "inspect"), ("double-six", "inspect"),
             ("small-dominoes-6-yes", "inspect"), ("small-trail-10-yes", "inspect")}

SPECS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "specs").rglob("*.yaml")
               if not p.name.startswith("hard-") and p.stem not in SLOW_SPECS)
TIMES = re.compile(r"\d+\.\d+ s(, \d+\.\d s of it compiling)?")
TIME_KEYS = {"time_s", "flatten_s", "solve_s"}


def _cli(argv: list[str]) -> tuple[int, str]:
    """Run ``trailkit ARGV`` here (from the top of the repository): exit code, stdout."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
    return code, out.getvalue()


def _timeless(data: Any) -> Any:
    """``data`` without the times, which differ from run to run."""
    if isinstance(data, dict):
        return {k: _timeless(v) for k, v in data.items() if k not in TIME_KEYS}
    if isinstance(data, list):
        return [_timeless(v) for v in data]
    return data


def _workshop(op: str, spec: str) -> dict[str, Any]:
    path = ROOT / spec
    return run_job(Job(op, path.read_text(encoding="utf-8"), source=spec,
                       base_dir=str(path.parent), time_limit=LIMIT))


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("spec", SPECS)
def test_the_workshop_says_what_the_command_line_says(spec: str, op: str,
                                                      monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    if (Path(spec).stem, op) in SLOW_RUNS:
        pytest.skip("needs seconds")
    monkeypatch.chdir(ROOT)
    limit = ["--time-limit", str(LIMIT)]
    _, text = _cli([op, spec, *limit])
    _, printed = _cli([op, spec, "--json", *limit])
    shown = _workshop(op, spec)
    assert TIMES.sub("T s", shown["text"]) == TIMES.sub("T s", text.rstrip("\n"))
    assert _timeless(shown["answer"]) == _timeless(json.loads(printed))


@pytest.mark.parametrize("spec", SPECS)
def test_the_workshop_finds_the_problems_lint_finds(spec: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    _, printed = _cli(["lint", spec, "--json"])
    [linted] = json.loads(printed)["specs"]
    found = analyse((ROOT / spec).read_text(encoding="utf-8"), spec, (ROOT / spec).parent)
    shown = [{k: v for k, v in p.items() if not k.startswith("token_")}
             for p in found["problems"]]
    assert shown == linted["problems"] + linted["warnings"]


def test_a_broken_spec_has_the_same_problems_on_both(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "specs/nikolaus.yaml").read_text(encoding="utf-8")
    broken = text.replace("c e, d e]", "c ee, d e]")
    assert broken != text
    (tmp_path / "broken.yaml").write_text(broken, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, printed = _cli(["lint", "broken.yaml", "--json"])
    [linted] = json.loads(printed)["specs"]
    found = analyse(broken, "broken.yaml", tmp_path)
    assert code == 2 and linted["problems"]
    assert [{k: v for k, v in p.items() if not k.startswith("token_")}
            for p in found["problems"]] == linted["problems"]


@pytest.mark.parametrize("op", OPS)
def test_one_step_is_one_step_in_every_verb(op: str, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "one.yaml").write_text("trailkit: 1\nkind: trail\nedges: [a b]\n",
                                       encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    _, text = _cli([op, "one.yaml"])
    shown = run_job(Job(op, "trailkit: 1\nkind: trail\nedges: [a b]\n", source="one.yaml"))
    assert TIMES.sub("T s", shown["text"]) == TIMES.sub("T s", text.rstrip("\n"))
    assert "1 steps" not in text and "1 steps" not in json.dumps(shown)


RESTORED = "specs/tyre-puzzle/restored.yaml"


@pytest.mark.parametrize("spec", [RESTORED, "specs/nikolaus.yaml", "specs/tyre-puzzle/"
                                  "original.yaml"])
def test_the_workshop_inspects_in_the_command_lines_words(spec: str,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """Inspect (issue 34): the workshop's words and JSON are ``trailkit inspect``'s, and
    its picture marks what ``draw --inspect`` marks."""
    monkeypatch.chdir(ROOT)
    code, text = _cli(["inspect", spec])
    _, printed = _cli(["inspect", spec, "--json"])
    shown = _workshop("inspect", spec)
    assert TIMES.sub("T s", shown["text"]) == TIMES.sub("T s", text.rstrip("\n"))
    assert _timeless(shown["answer"]) == _timeless(json.loads(printed))
    assert shown["status"] == {0: "solvable", 1: "unsolvable"}[code]
    critical = [c["edge"] for c in json.loads(printed).get("critical", [])]
    assert shown["critical"] == critical
    for e in critical:
        assert f'data-inspect="critical" data-edge="{e}"' in shown["svg"]


def test_the_workshop_designs_what_the_command_line_designs(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """Design (issue 34): the same request gives the same designs (spec texts, seeds,
    claims) on both; targets no design can meet get the command line's message."""
    from trailkit.solvers.frontends.workshop.designs import design, read_design

    monkeypatch.chdir(ROOT)
    out = tmp_path / "d.yaml"
    argv = ["design", "colour-walk", "--from", RESTORED, "--min-length", "20", "--unique",
            "--seed", "3", "--count", "2", "--out", str(out), "--json"]
    code, printed = _cli(argv)
    asked = read_design({"layout": "spec", "min_length": 20, "unique": True, "seed": 3,
                         "count": 2}, RESTORED)
    shown = design(asked, (ROOT / RESTORED).read_text(encoding="utf-8"), time_limit=LIMIT,
                   source=RESTORED)
    assert code == 0 and shown["status"] == "designed"
    assert [c["text"] for c in shown["candidates"]] == [
        (tmp_path / f"d-{k}.yaml").read_text(encoding="utf-8") for k in (1, 2)]
    said = json.loads(printed)
    for data in (said, shown["answer"]):
        for d in data["designs"]:
            d.pop("file")  # the command line names its file, the workshop none
    assert _timeless(shown["answer"]) == _timeless(said)

    code, text = _cli(["design", "colour-walk", "--layout", "hex:1,7", "--min-length", "50",
                       "--unique", "--out", str(tmp_path / "small.yaml")])
    shown = design(read_design({"layout": "hex:1,7", "min_length": 50, "unique": True},
                               "x"), "", time_limit=LIMIT)
    assert code == 3 and shown["status"] == "impossible" and not shown["candidates"]
    assert shown["text"] == text.rstrip("\n")


#: A 3 x 3 Numbrix with one given: solvable many ways, past the rating's deepest trial
#: and error (its ``search_depth`` is null). The smallest board that is (a 4 x 4 one takes
#: the same path, three times slower).
UNRATED = ("trailkit: 1\nkind: tour\nclosed: false\nboard: {size: [3, 3], moves: orthogonal}"
           "\nat: {a1: 1}\n")


def test_an_unrated_depth_is_said_in_words_and_null_in_json(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tour puzzle the rating's trial and error cannot finish: its depth is in words in
    the text and the workshop's rows (never ``None``), ``null`` in the JSON (CONTRACT)."""
    (tmp_path / "unrated.yaml").write_text(UNRATED, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with jit.interpreted(True):  # words, not kernels: never the kernels' first compile
        code, text = _cli(["inspect", "unrated.yaml"])
        _, printed = _cli(["inspect", "unrated.yaml", "--json"])
        shown = run_job(Job("inspect", UNRATED, source="unrated.yaml"))
    assert code == 0 and json.loads(printed)["measures"]["search_depth"] is None
    [depth] = [line for line in text.splitlines() if "trial and error" in line]
    assert depth.endswith("more than 2 (not rated: search)")
    assert "None" not in text and "None" not in json.dumps(shown["measures"])
    # the workshop's Inspect heads its list with the board's caption, as drawn
    assert shown["caption"].startswith("Inspect: givens not judged: ")
    assert "rating search: " in shown["caption"] and shown["caption"] in " ".join(
        re.findall(r'class="note">([^<]*)<', shown["svg"]))
