"""Every number an answer says is a claim, said rightly (issue 40, CONTRACT 1.4 §7).

The maker's side: the empty walk as the only shortest walk, the shortest claim of an
exactly-once walk, a refuted claim in JSON, ``--unique`` with ``--backend all``,
``prove --claim fewest-changes`` of a solvable puzzle, a claim that gives up naming the
limit that stopped it, and ``prove``'s errors naming the claims that apply.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trailkit.solvers.frontends.cli import main

ROOT = Path(__file__).resolve().parents[3]

#: At most once, objective shortest, from and back to a: the empty walk at a is the one
#: shortest walk (the triangle's 3 steps are longer, no second walk at all).
EMPTY_ONLY = ("trailkit: 1\nkind: walk\nuse: at-most-once\nobjective: shortest\n"
              "start: a\nend: a\nedges: [a b, b c, c a]\n")
#: The same with no start: the empty walk at a, at b and at c, three shortest walks.
EMPTY_MANY = ("trailkit: 1\nkind: walk\nuse: at-most-once\nobjective: shortest\n"
              "edges: [a b, b c, c a]\n")
#: Every edge exactly once, objective shortest: every walk has 4 steps.
EXACT = ("trailkit: 1\nkind: walk\nuse: exactly-once\nobjective: shortest\n"
         "edges: [a b, b c, c a, a d]\n")


def spec(tmp_path: Path, text: str, name: str = "p.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out + err


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = main([*args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def claim_of(data: dict, name: str) -> dict:
    return next(c for c in data["claims"] if c["claim"] == name)


# ------------------------------------------------------------ 1. the empty walk is unique


def test_the_only_empty_walk_is_the_unique_shortest_walk(tmp_path: Path, capsys) -> None:
    path = spec(tmp_path, EMPTY_ONLY)
    code, data = run_json(capsys, "solve", path, "--unique")
    assert code == 0 and data["length"] == 0 and data["unique"] is True
    unique = claim_of(data, "unique")
    assert unique["checked"] and unique["certificate"] == "layers"
    code, said = run(capsys, "prove", path, "--claim", "unique")
    assert code == 0 and said.startswith("unique: the only shortest walk")
    code, data = run_json(capsys, "inspect", path)
    assert code == 0 and data["unique"] is True
    assert claim_of(data, "unique")["checked"]
    code, data = run_json(capsys, "count", path)  # the count agrees: one shortest walk
    assert data["solutions"] == 1


def test_a_second_empty_walk_makes_it_not_unique(tmp_path: Path, capsys) -> None:
    code, data = run_json(capsys, "solve", spec(tmp_path, EMPTY_MANY), "--unique")
    assert code == 0 and data["unique"] is False and data["other_steps"] == []
    assert data["other_start"] in ("a", "b", "c") and data["other_start"] != data["start"]


def test_the_shortest_claim_of_an_exactly_once_walk(tmp_path: Path, capsys) -> None:
    out = tmp_path / "cert.json"
    code, said = run(capsys, "prove", spec(tmp_path, EXACT), "--claim", "shortest",
                     "--out", str(out))
    assert code == 0 and said.startswith("shortest: 4 steps"), said
    code, said = run(capsys, "check-certificate", str(tmp_path / "p.yaml"), str(out))
    assert code == 0, said


# ------------------------------------------------------------ 5. fewest changes: 0


def test_fewest_changes_of_a_solvable_puzzle_writes_its_file(tmp_path: Path, capsys) -> None:
    nikolaus, out = str(ROOT / "specs" / "nikolaus.yaml"), tmp_path / "fewest.json"
    code, said = run(capsys, "prove", nikolaus, "--claim", "fewest-changes", "--out",
                     str(out))
    assert code == 0 and said.startswith("fewest changes: 0 changes"), said
    assert f"certificate written to {out}" in said
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["claim"] == "fewest-changes" and document["changes"] == 0
    repair = document["certificate"]["repair"]
    assert repair["changes"] == [] and len(repair["walk"]) == 8  # the walk, 8 edges
    code, said = run(capsys, "check-certificate", nikolaus, str(out))
    assert code == 0 and "no change is needed" in said, said


# ------------------------------------------------------------ 3. a refuted claim in JSON


def test_a_refuted_unique_claim_holds_false_with_its_witness(tmp_path: Path, capsys) -> None:
    nikolaus = str(ROOT / "specs" / "nikolaus.yaml")
    _, solved = run_json(capsys, "solve", nikolaus, "--unique")
    code, proved = run_json(capsys, "prove", nikolaus, "--claim", "unique")
    assert code == 1  # not unique
    _, inspected = run_json(capsys, "inspect", nikolaus)
    for data in (solved, proved, inspected):
        unique = claim_of(data, "unique")
        assert unique["holds"] is False and "checked" not in unique, unique
        witness = unique["witness"]
        assert len(witness["steps"]) == 8 and witness["start"] == witness["steps"][0]["from"]
    assert solved["other_steps"] == claim_of(solved, "unique")["witness"]["steps"]


# ------------------------------------------------------------ 7. prove's errors


@pytest.mark.parametrize(("claim", "says"), [
    ("shortest", "this one uses every edge exactly once with no objective: every "
                 "solution has 8 steps"),
    ("longest", "this one uses every edge exactly once with no objective"),
    ("minimal-core", "claims that apply here: unsolvable, unique, count, fewest-changes)"),
])
def test_prove_names_the_claims_that_apply_rightly(claim: str, says: str, capsys) -> None:
    code, said = run(capsys, "prove", str(ROOT / "specs" / "nikolaus.yaml"), "--claim",
                     claim)
    assert code == 2 and says in said, said
    assert "once-only walks of no objective" not in said  # which Nikolaus is
    if claim != "minimal-core":
        assert said.rstrip().endswith("claims that apply here: unsolvable, unique, count, "
                                      "fewest-changes, minimal-core (when no walk exists)")
    for named in said.split("apply here: ")[1].replace(")", "").split(", "):
        if named.split(" ")[0] in ("unsolvable", "unique", "count", "fewest-changes"):
            code, _ = run(capsys, "prove", str(ROOT / "specs" / "nikolaus.yaml"),
                          "--claim", named.split(" ")[0])
            assert code in (0, 1), named  # each claim named applies: no error


# ------------------------------------------------------------ 6. the limit that stopped it


def complete_graph(n: int, *rules: str) -> str:
    names = "abcdefgh"[:n]
    edges = ", ".join(f"{u} {v}" for i, u in enumerate(names) for v in names[i + 1:])
    return "trailkit: 1\nkind: walk\nuse: at-most-once\n" + "".join(
        f"{rule}\n" for rule in rules) + f"edges: [{edges}]\n"


def test_a_count_past_the_listing_limit_says_so_at_once(tmp_path: Path, capsys) -> None:
    # K6's 3,653,196 trails: direct counts them in about a second; listing them all for
    # a certificate would take minutes, to give up at the listing limit anyway
    path = spec(tmp_path, complete_graph(6))
    code, data = run_json(capsys, "prove", path, "--claim", "count", "--time-limit", "120")
    assert code == 3 and data["status"] == "unknown", data
    why = claim_of(data, "count")["why"]
    assert "3,653,196 walks, past the listing limit" in why and "100,000" in why, why
    assert "time limit" not in why and "no certificate covers" not in why
    code, data = run_json(capsys, "count", path)
    why = claim_of(data, "count")["why"]
    assert "past the listing limit" in why and "no certificate covers" not in why, why


def test_count_names_its_own_limit_below_the_listing_limit(tmp_path: Path, capsys) -> None:
    code, data = run_json(capsys, "count", spec(tmp_path, complete_graph(5)))
    assert code == 0 and data["solutions"] == 14_425
    why = claim_of(data, "count")["why"]
    assert "more than the 1,000 count lists itself" in why and "prove --claim count" in why


def test_a_claim_stopped_by_its_own_budget_never_blames_a_time_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from trailkit.models.spec import load_spec_text
    from trailkit.solvers.pipeline import policy
    from trailkit.solvers.pipeline.solving import solve

    monkeypatch.setattr(policy, "CLAIM_SECONDS", 1e-6)  # a budget no refutation meets
    puzzle = load_spec_text(complete_graph(4, "objective: longest"))
    longest = next(c for c in solve(puzzle).claims if c.claim == "longest")
    assert not longest.checked
    assert "time limit" not in longest.why, longest.why  # none was set
    assert "that solve and count give a claim of their own ran out" in longest.why


# ------------------------------------------------------------ 4. --backend all --unique


@pytest.mark.parametrize(("name", "unique"), [("colour-revisit.yaml", True),
                                              ("nikolaus.yaml", False)])
def test_unique_with_every_backend_is_one_verdict(name: str, unique: bool, capsys) -> None:
    code, data = run_json(capsys, "solve", str(ROOT / "specs" / name), "--backend", "all",
                          "--unique")
    assert code == 0
    answers = data["all_backends"]
    assert len(answers) >= 2 and all(a["status"] == "solved" for a in answers)
    for answer in answers:  # every backend's answer, the same verdict
        assert answer["unique"] is unique, answer["backend"]
        verdict = claim_of(answer, "unique")
        if unique:
            assert verdict["checked"] and verdict["certificate"] == "layers"
        else:  # the second walk is never the backend's own
            assert verdict["holds"] is False
            assert verdict["witness"]["steps"] != answer["steps"]
            assert answer["other_steps"] == verdict["witness"]["steps"]


# ------------------------------------------------------------ 2. inspect's numbers

TYRE = ROOT / "specs" / "tyre-puzzle" / "restored.yaml"


def test_inspects_costly_lengths_and_the_rest_are_certified(capsys) -> None:
    code, data = run_json(capsys, "inspect", str(TYRE))
    assert code == 0 and len(data["costly"]) == 5
    for costly in data["costly"]:
        assert costly["checked"] and costly["certificate"] == "layers", costly
    lengths = {c["edge_removed"]: c["value"] for c in data["claims"]
               if c["claim"] == "shortest" and "edge_removed" in c and c["checked"]}
    assert lengths == {c["edge"]: c["length_without"] for c in data["costly"]}
    assert data["unharmed"]["edges"] == 61 and data["unharmed"]["checked"]
    code, said = run(capsys, "inspect", str(TYRE))
    assert "40 steps without it (+15; proven shortest: layers certificate accepted" in said
    assert ("the other 61 edges: the puzzle loses nothing without any one of them (each "
            "keeps a shortest walk of 25 steps: a layers certificate for each") in said


def test_an_uncertified_length_says_why_and_what_it_rests_on(
        monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    from trailkit.solvers.tools.design import inspection

    monkeypatch.setattr(inspection, "STATE_LIMIT", 50)  # too few for the tyres' 152 states
    code, data = run_json(capsys, "inspect", str(TYRE))
    assert code == 0
    for costly in data["costly"]:
        assert costly["checked"] is False and costly["certificate"] is None
        assert costly["why"] == ("not certified (the layers would number 152 states, about "
                                 "1 MB to make and check; limit 50 states); rests on the "
                                 "state search")
    code, said = run(capsys, "inspect", str(TYRE))
    assert "40 steps without it (+15; not certified (the layers would number 152" in said


def test_inspect_out_writes_each_edges_certificate_to_check(tmp_path: Path, capsys) -> None:
    out = tmp_path / "inspected"
    code, data = run_json(capsys, "inspect", str(TYRE), "--out", str(out))
    assert code == 0 and data["out"]["folder"] == str(out)
    edges = [f["edge"] for f in (*data["critical"], *data["costly"])]
    assert sorted(data["out"]["files"]) == sorted(f"without-{e}.{x}" for e in edges
                                                  for x in ("yaml", "json"))
    for edge, said in ((data["critical"][0]["edge"], "closed-set certificate holds"),
                       (23, "no walk is shorter than the verified one of 40 steps")):
        code, checked = run(capsys, "check-certificate", str(out / f"without-{edge}.yaml"),
                            str(out / f"without-{edge}.json"))
        assert code == 0 and said in checked, checked
        code, _ = run(capsys, "check-certificate", str(TYRE), str(out / f"without-{edge}.json"))
        assert code != 0  # the certificate is of the puzzle without the edge, not the tyre
    code, said = run(capsys, "inspect", str(TYRE), "--out", str(out))
    assert code == 2 and "--force" in said  # nothing replaced without it
    assert run(capsys, "inspect", str(TYRE), "--out", str(out), "--force")[0] == 0
    code, said = run(capsys, "inspect", str(TYRE), "--out", str(TYRE.parent))
    assert code == 2 and "holds the spec" in said


def test_the_rest_not_checked_in_time_says_so(monkeypatch: pytest.MonkeyPatch,
                                              capsys) -> None:
    from trailkit.solvers.tools.design import inspection

    monkeypatch.setattr(inspection, "MEASURE_BUDGET_S", 1e-9)  # no time for the checks
    code, data = run_json(capsys, "inspect", str(TYRE))
    unharmed = data["unharmed"]
    assert code == 0 and unharmed["checked"] is False and "holds" not in unharmed
    assert "inspect gives these checks were reached after 0 of the 61 edges" in \
        unharmed["why"] and unharmed["why"].endswith("rests on the state search")
    assert "time limit" not in unharmed["why"]  # none was set
