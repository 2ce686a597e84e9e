"""``lint --expect`` (:mod:`trailkit.solvers.tools.expect_check`) compares a spec's
``expect: {repair: N}`` with the repair it finds: the fewest changes and whether they are
proven fewest, never the ``fewest-changes`` claim, whose certificate it does not make."""

from __future__ import annotations

from pathlib import Path

import pytest

from trailkit.solvers.tools import expect_check
from trailkit.solvers.tools.repair import fewest_certificate

SPECS = Path(__file__).resolve().parents[3] / "specs"


@pytest.mark.parametrize(("spec", "wanted"), [("koenigsberg.yaml", 1),
                                              ("dominoes/two-pieces.yaml", 2)])
def test_an_expected_repair_is_compared_without_certifying_its_claim(
        spec: str, wanted: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def made(*args: object, **kwargs: object) -> None:
        raise AssertionError("lint --expect made a fewest-changes certificate")

    monkeypatch.setattr(fewest_certificate, "fewest_claim", made)
    assert expect_check.expectation_problems(SPECS / spec).mismatches == []
    wrong = tmp_path / "wrong.yaml"  # the same spec expecting one change more
    wrong.write_text((SPECS / spec).read_text(encoding="utf-8").replace(
        f"repair: {wanted}", f"repair: {wanted + 1}"), encoding="utf-8")
    assert expect_check.expectation_problems(wrong).mismatches == [
        f"expected repair {wanted + 1}, got {wanted}"]
