"""docs/checking.md's table of claims stays true: its last column, the lines of code a
reader reads to trust a claim's checker, is the sum of the lines of the modules its
"checker module" column names (each once), counted from the source now."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "checking.md"
MODULE = re.compile(r"`(?:models/(?:[a-z_]+/)*)?([a-z_]+\.py)`")


def module_lines() -> dict[str, int]:
    """Each module of ``models/`` by its basename (no two modules share one), with its
    number of lines."""
    return {p.name: len(p.read_text(encoding="utf-8").splitlines())
            for p in (ROOT / "models").rglob("*.py")}


def table_rows() -> list[list[str]]:
    """The cells of each row of the table "Every claim and its certificate"."""
    section = PAGE.read_text(encoding="utf-8").split("## Every claim and its certificate")[1]
    lines = [line for line in section.split("\n\n| claim |", 1)[1].splitlines()[2:]
             if line.startswith("|")]
    return [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in lines]


def checker_lines(cell: str, lines: dict[str, int]) -> int:
    """The lines of the modules a "checker module" cell names, each counted once."""
    return sum(lines[name] for name in dict.fromkeys(MODULE.findall(cell)))


def test_the_lines_column_counts_the_checkers_named() -> None:
    lines = module_lines()
    wrong = []
    for row in table_rows():
        checker, stated = row[2], row[4]
        if not MODULE.search(checker):
            continue
        counted = checker_lines(checker, lines)
        if stated != f"{counted:,}":
            wrong.append(f"{row[0]} / {row[1][:30]}: says {stated!r}, counts {counted:,}")
    assert not wrong, "docs/checking.md's lines of code are out of date:\n" + "\n".join(wrong)


def test_every_named_checker_exists() -> None:
    lines = module_lines()
    named = {name for row in table_rows() for name in MODULE.findall(row[2])}
    assert named and named <= set(lines), sorted(named - set(lines))
