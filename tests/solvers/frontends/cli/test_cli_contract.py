"""Every exit path keeps the contract: consoles, files, JSON, who decided (interrupts:
``test_interrupts.py``).

Each test here pins one behaviour a user saw go wrong (issue "no typo becomes an
answer, every exit path keeps the contract").
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import validate_output

from trailkit.solvers.frontends.cli import main

ROOT = Path(__file__).resolve().parents[4]
SPECS = ROOT / "specs"
KOENIGSBERG = str(SPECS / "koenigsberg.yaml")
TYRES = SPECS / "tyre-puzzle"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def trailkit(*args: str, encoding: str = "utf-8") -> subprocess.CompletedProcess[str]:
    """Run trailkit in a console whose encoding is ``encoding``."""
    return subprocess.run([sys.executable, "-m", "trailkit.solvers.frontends.cli", *args],
                          capture_output=True, encoding=encoding, timeout=120,
                          env={**os.environ, "PYTHONIOENCODING": encoding})


# ------------------------------------------------------------------ consoles
@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
@pytest.mark.parametrize("spec", ["tyre-puzzle/original.yaml", "koenigsberg.yaml"])
def test_a_console_without_utf8_gets_ascii_spellings(encoding: str, spec: str) -> None:
    result = trailkit("solve", str(SPECS / spec), encoding=encoding)
    assert result.returncode == 1, result.stderr
    assert "unsolvable" in result.stdout and "Traceback" not in result.stderr
    assert "→" not in result.stdout
    if encoding == "ascii" and spec == "koenigsberg.yaml":
        assert "The seven bridges of Koenigsberg" in result.stdout  # ö spelt oe, not \xf6


def test_control_characters_in_names_are_shown_escaped(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    spec = tmp_path / "evil.yaml"
    spec.write_text('trailkit: 1\nname: "\\e[2J\\e[31mgotcha\\a\\r"\nkind: trail\n'
                    "edges: [a b]\n")
    code, out, _ = run(["solve", str(spec)], capsys)
    assert code == 0
    assert "\x1b" not in out and "\a" not in out and "\r" not in out
    assert "\\x1b[2J" in out


# ------------------------------------------------------------------ files
@pytest.mark.parametrize("command", [
    ["export", KOENIGSBERG, "--format", "dimacs"],
    ["prove", KOENIGSBERG],
    ["compare", KOENIGSBERG, "--backends", "direct", "--json"],
    ["generate", "trail", "--size", "4"],
])
def test_every_out_refuses_to_replace_a_file_without_force(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    out = tmp_path / "existing.txt"
    out.write_text("precious\n")
    code, _, err = run([*command, "--out", str(out)], capsys)
    assert code == 2 and "--force" in err
    assert out.read_text() == "precious\n"
    code, _, _ = run([*command, "--out", str(out), "--force"], capsys)
    assert code in (0, 1) and out.read_text() != "precious\n"


def test_written_files_honour_the_umask(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    old = os.umask(0o022)
    try:
        cert = tmp_path / "cert.json"
        assert run(["prove", KOENIGSBERG, "--out", str(cert)], capsys)[0] == 1
    finally:
        os.umask(old)
    assert stat.S_IMODE(cert.stat().st_mode) == 0o644


# ------------------------------------------------------------------ JSON
def test_json_errors_are_an_object_on_stdout(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "typo.yaml"
    spec.write_text("trailkit: 1\nkind: trail\nedges: [a b, b c]\nstart: x\n")
    code, out, err = run(["solve", str(spec), "--json"], capsys)
    assert code == 2 and f"{spec}:4:8:" in err
    error = json.loads(out)
    assert (error["format"], error["file"], error["line"], error["column"]) == \
        ("trailkit-error/1", str(spec), 4, 8)


def test_solve_all_json_is_one_object(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", str(SPECS / "nikolaus.yaml"), "--backend", "all", "--json"],
                       capsys)
    result = json.loads(out)
    assert code == 0 and result["format"] == "trailkit-result/1"
    assert [r["backend"] for r in result["all_backends"]] == ["direct", "cpsat", "sat"]


def test_edge_ids_of_one_spec_have_one_type(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "ids.yaml"
    spec.write_text("trailkit: 1\nkind: trail\nedges: [a b, {from: b, to: c, id: bridge}]\n")
    _, out, _ = run(["solve", str(spec), "--json"], capsys)
    assert sorted(s["edge"] for s in json.loads(out)["steps"]) == ["0", "bridge"]


def test_an_incomplete_count_proves_no_expectation(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "k7.yaml"
    edges = ", ".join(f"{a} {b}" for a in range(7) for b in range(a + 1, 7))
    spec.write_text(f"trailkit: 1\nkind: trail\nclosed: true\nedges: [{edges}]\n"
                    "expect: {solutions: 1}\n")
    code, out, _ = run(["count", str(spec), "--method", "enumerate", "--time-limit", "0.3",
                        "--json"], capsys)
    assert code == 3 and json.loads(out)["expect"]["ok"] is None


def test_the_schema_command_prints_every_output_schema(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    import jsonschema

    for name in ("result", "count", "prove", "check", "compare", "repair", "explain", "error"):
        code, out, _ = run(["schema", name], capsys)
        assert code == 0
        schema = json.loads(out)
        jsonschema.Draft202012Validator.check_schema(schema)
        assert name in schema["$id"]


def test_the_schema_check_of_the_suite_can_fail() -> None:
    with pytest.raises(Exception, match="required"):
        validate_output({"format": "trailkit-result/1", "status": "solved"})
    with pytest.raises(AssertionError):
        validate_output([{"format": "trailkit-result/1"}])


# ------------------------------------------------------------------ who decided
def test_the_pre_check_is_named_and_can_be_switched_off(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    code, out, _ = run(["solve", KOENIGSBERG, "--backend", "sat", "--json"], capsys)
    result = json.loads(out)
    assert code == 1 and (result["backend"], result["decided_by"]) == ("sat", "pre-check")
    code, out, _ = run(["solve", KOENIGSBERG, "--backend", "sat"], capsys)
    assert "according to the structural pre-check (before sat ran)" in out
    code, out, _ = run(["solve", KOENIGSBERG, "--backend", "sat", "--precheck", "off",
                        "--json"], capsys)
    result = json.loads(out)
    assert code == 1 and result["decided_by"] == "sat"
    assert result["certificate"]["type"] == "drup" and result["certificate"]["checked"]


def test_compare_rows_say_who_decided(capsys: pytest.CaptureFixture[str]) -> None:
    for precheck, decided in (("on", "pre-check"), ("off", "cpsat")):
        code, out, _ = run(["compare", KOENIGSBERG, "--backends", "cpsat", "--precheck",
                            precheck, "--json"], capsys)
        assert code == 0 and json.loads(out)["rows"][0]["decided_by"] == decided


def test_prove_drup_on_a_reusable_walk_says_what_applies(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    code, _, err = run(["prove", str(TYRES / "original.yaml"), "--drup"], capsys)
    assert code == 2  # CONTRACT 1.2 §5: an option that cannot apply is exit 2, not 3
    assert "no DRUP proof applies" in err and "closed-set certificate" in err


# ------------------------------------------------------------------ counting
def test_count_picks_the_exact_formula_by_itself(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["count", str(SPECS / "dominoes" / "double-six.yaml"), "--json"], capsys)
    result = json.loads(out)
    assert code == 0 and result["method"] == "exact"
    assert result["solutions"] == 7_959_229_931_520
    code, out, _ = run(["count", str(SPECS / "dominoes" / "double-six.yaml")], capsys)
    assert "7,959,229,931,520" in out
    code, out, _ = run(["count", str(SPECS / "nikolaus.yaml"), "--failures", "--json"], capsys)
    assert json.loads(out)["method"] == "enumerate"


# ------------------------------------------------------------------ text
def test_one_step_is_one_step(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "one.yaml"
    spec.write_text("trailkit: 1\nkind: trail\nedges: [a b]\n")
    _, out, _ = run(["solve", str(spec)], capsys)
    assert ": 1 step," in out


def test_long_walks_wrap_and_parallel_edges_are_named(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    spec = tmp_path / "ring.yaml"
    ring = ", ".join(f"n{i} n{(i + 1) % 30}" for i in range(30))
    spec.write_text(f"trailkit: 1\nkind: trail\nedges: [{ring}, n0 n1, n0 n1]\n")
    _, out, _ = run(["solve", str(spec)], capsys)
    lines = out.splitlines()
    assert any(line.lstrip().startswith("11:") for line in lines)
    assert any(line.lstrip().startswith("31:") for line in lines)
    assert "-#" in out  # the n0-n1 bridges are told apart by their ids


# ------------------------------------------------------------------ small things
def test_a_model_names_the_steps_that_are_wrong(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "two.yaml"
    spec.write_text("trailkit: 1\nkind: trail\nedges: [a b, b c]\n")
    model = tmp_path / "model.txt"
    model.write_text("v 1 -2 -3 4 -5 -6 -7 -8 0\n")  # step 0 twice, step 1 never
    code, _, err = run(["solve", str(spec), "--from-model", str(model)], capsys)
    assert code == 2
    assert "step 0 takes 2 edges (variables 1, 4)" in err and "step 1 takes no edge" in err
    model.write_text("s SATISFIABLE\nv 1 -2\nv 3 junk 0\n")
    code, _, err = run(["solve", str(spec), "--from-model", str(model)], capsys)
    assert code == 2 and f"{model}:3:5: error: cannot read 'junk'" in err


def test_import_planks_suggests_the_colour_and_tyre_meant(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    planks = tmp_path / "planks.txt"
    planks.write_text("A B rde\nB T blue\n")
    code, _, err = run(["import", "planks", str(planks), "--start", "A", "--goal", "T"], capsys)
    assert code == 2 and f"{planks}:1:1:" in err and "did you mean 'red'?" in err
    planks.write_text("A B red\nB T blue\n")
    code, _, err = run(["import", "planks", str(planks), "--start", "A", "--goal", "t"], capsys)
    assert code == 2 and err.startswith("trailkit: ") and "did you mean 'T'?" in err


@pytest.mark.parametrize("command", [["solve"], ["count"], ["prove"], ["export"], ["compare"],
                                     ["import", "planks"]])
def test_help_explains_every_argument_with_examples(command: list[str],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    text = capsys.readouterr().out
    assert "examples:" in text and "trailkit " in text.split("examples:")[1]
    for flag in ("--json", "--out", "--start", "--goal", "--colours", "--format"):
        if f"  {flag}" in text:
            line = text.split(f"  {flag}")[1].split("\n")[0]
            assert line.strip() and line.strip() != flag.upper().lstrip("-"), flag


# ------------------------------------------------------------------ lint
THREE_MISTAKES = ("trailkit: 1\nkind: trail\nnodes: [a, a, b]\nedges: [a b, a cc]\n"
                  "layout: {zz: [1, 2]}\n")


def test_lint_reports_every_problem_with_a_summary(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(THREE_MISTAKES)
    code, out, err = run(["lint", str(bad), str(SPECS / "nikolaus.yaml")], capsys)
    assert code == 2
    assert [line.split(": error:")[0] for line in err.splitlines()] == \
        [f"{bad}:3:12", f"{bad}:4:14", f"{bad}:5:10"]
    assert "nikolaus.yaml: ok" in out
    assert out.splitlines()[-1] == "2 specs checked, 1 ok, 3 problems in 1 file(s)"


def test_lint_formats_for_machines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(THREE_MISTAKES)
    code, out, _ = run(["lint", str(bad), "--format", "parsable"], capsys)
    assert code == 2 and len(out.splitlines()) == 3
    assert out.splitlines()[1].startswith(f"{bad}:4:14: [error] ")
    code, out, _ = run(["lint", str(bad), "--json"], capsys)
    found = json.loads(out)
    assert found["format"] == "trailkit-lint/1" and not found["ok"]
    assert [(p["line"], p["path"]) for p in found["specs"][0]["problems"]] == \
        [(3, "nodes[1]"), (4, "edges[1]"), (5, "layout.zz")]


def test_count_lets_the_pre_check_answer_and_can_switch_it_off(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["count", KOENIGSBERG, "--json"], capsys)
    result = json.loads(out)  # the contract's auto: the formula, wherever it applies
    assert code == 0 and (result["method"], result["solutions"]) == ("exact", 0)
    code, out, _ = run(["count", KOENIGSBERG, "--backend", "cpsat", "--json"], capsys)
    result = json.loads(out)  # a search backend named: the pre-check answers first
    assert code == 0 and (result["method"], result["solutions"]) == ("pre-check", 0)
    code, out, _ = run(["count", KOENIGSBERG, "--precheck", "off", "--method", "enumerate",
                        "--json"], capsys)
    result = json.loads(out)
    assert (result["method"], result["backend"], result["solutions"]) == \
        ("enumerate", "direct", 0)


def test_every_kind_a_spec_may_have_is_one_a_result_may_say() -> None:
    """The result schema's ``kind`` names every kind the spec language has: a ``kind:
    tour`` spec's ``solve --json`` broke ``trailkit schema result`` (its enum stopped at
    ``walk``)."""
    from trailkit.models.schemas import load_schema
    from trailkit.models.spec.vocabulary import KINDS

    schema = load_schema("result")
    said = [schema["properties"]["kind"]["enum"],
            schema["$defs"]["one"]["properties"]["kind"]["enum"]]
    for enum in said:
        assert set(KINDS) <= set(enum), (KINDS, enum)


def test_a_tour_is_answered_in_the_published_form(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``solve --json`` and ``count --json`` of a ``kind: tour`` spec (the suite validates
    every object printed against its schema)."""
    spec = tmp_path / "tour.yaml"
    spec.write_text("trailkit: 1\nkind: tour\nboard: {size: [3, 4], moves: knight}\n"
                    "closed: false\nat: {a1: 1}\n")
    code, out, _ = run(["solve", str(spec), "--json"], capsys)
    answer = json.loads(out)
    assert (code, answer["kind"], answer["status"]) == (0, "tour", "solved")
    code, out, _ = run(["count", str(spec), "--json"], capsys)
    assert (code, json.loads(out)["kind"]) == (0, "tour")


@pytest.mark.parametrize(("backend", "encoding"), [
    ("sat/position", "node-positions"), ("sat", "node-cuts")])
def test_every_sat_encoding_of_node_rules_is_published(
        backend: str, encoding: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The result schema's ``encoding`` names the node-rule encodings the sat backend
    answers with (it stopped at ``position`` and ``transition``)."""
    spec = tmp_path / "tour.yaml"
    spec.write_text("trailkit: 1\nkind: tour\nboard: {size: [4, 3], moves: orthogonal}\n")
    code, out, _ = run(["solve", str(spec), "--backend", backend, "--json"], capsys)
    assert (code, json.loads(out)["encoding"]) == (0, encoding)
