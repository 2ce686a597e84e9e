"""The seeded mutations of the bundled specs: the ways files really go wrong (lines
deleted, duplicated or swapped, characters flipped, tabs, control characters, NUL
bytes, byte order marks and UTF-16, huge numbers, odd YAML scalars, truncation).

Shared by the fuzzer (``tests/models/spec/test_fuzz_specs.py``, through the command line) and the
schema test (no spec the reader accepts is rejected by the schema).
``TRAILKIT_FUZZ_SEED`` chooses other mutants.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable
from pathlib import Path

__all__ = ["SEED", "mutants"]

SPECS = Path(__file__).resolve().parent.parent / "specs"
SEED = int(os.environ.get("TRAILKIT_FUZZ_SEED", "11"))
SIDE_SPECS = ["trailkit: 1\nkind: walk\nuse: any\nedges_file: edges.txt\nstart: a\nend: d\n",
              "trailkit: 1\nkind: domino-chain\nnodes: [1, 2, 3]\ndominoes_file: side.txt\n"]
SIDE_TEXTS = {"edges_file": "# one-way and two-way\na -> b\nb c red\nc d\n",
              "dominoes_file": "1 2\n2|3  # a note\n3:1\n"}

ODD_SCALARS = ["~", "null", "no", "ON", "1e3", "0x1F", ".inf", ".nan", "!!binary AAAA",
               "!!python/object:os.system", "&a x", "*a", "*nope", "[]", "{}", "'", '"',
               "- ", ": ", "|", ">", "? ", "%YAML 1.1", "---", "...", "@", "`", "2001-12-14",
               "1:2:3", "-0", "+12", "0o17", "1_000", "=", "<<: *a", "!", "\\u0000",
               '"\\e[2J"', '"\\0"', "' '", "9" * 4400, "-" + "9" * 4400]
CONTROL = [chr(c) for c in (*range(0, 9), 11, 12, *range(14, 32), 127, 0x85, 0xFEFF, 0xFFFE)]


def _sources() -> list[str]:
    """Small bundled specs (the hard benchmarks would only cost time)."""
    paths = [p for p in sorted(SPECS.rglob("*.yaml")) if not p.name.startswith(("hard-",
                                                                               "medium-"))]
    return [p.read_text(encoding="utf-8") for p in paths] + SIDE_SPECS


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True) or [""]


def _pick_line(rng: random.Random, lines: list[str]) -> int:
    return rng.randrange(len(lines))


def delete_line(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    del lines[_pick_line(rng, lines)]
    return "".join(lines)


def duplicate_line(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    i = _pick_line(rng, lines)
    lines.insert(i, lines[i])
    return "".join(lines)


def swap_lines(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    i, j = _pick_line(rng, lines), _pick_line(rng, lines)
    lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines)


def flip_character(rng: random.Random, text: str) -> str:
    i = rng.randrange(max(len(text), 1))
    return text[:i] + rng.choice("abcxyz019 :-[]{},#&*!|>'\"\n\\") + text[i + 1:]


def insert_tab(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    i = _pick_line(rng, lines)
    cut = rng.randrange(len(lines[i]) - len(lines[i].lstrip()) + 1)
    lines[i] = lines[i][:cut] + "\t" + lines[i][cut:]
    return "".join(lines)


def insert_control(rng: random.Random, text: str) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(CONTROL) + text[i:]


def odd_scalar(rng: random.Random, text: str) -> str:
    words = list(re.finditer(r"[\w.+-]+", text))
    if not words:
        return text + rng.choice(ODD_SCALARS)
    word = rng.choice(words)
    return text[:word.start()] + rng.choice(ODD_SCALARS) + text[word.end():]


def huge_number(rng: random.Random, text: str) -> str:
    numbers = list(re.finditer(r"\d+", text))
    digits = "9" * rng.choice([4301, 5000, 20000])
    if numbers and rng.random() < 0.7:
        number = rng.choice(numbers)
        return text[:number.start()] + digits + text[number.end():]
    return text.rstrip("\n") + f"\nexpect: {{solutions: {digits}}}\n"


def truncate(rng: random.Random, text: str) -> str:
    return text[:rng.randrange(len(text) + 1)]


def nest_deeply(rng: random.Random, text: str) -> str:
    i = rng.randrange(len(text) + 1)
    depth = rng.choice([50, 2000, 20000])
    return text[:i] + rng.choice(["[", "{a: ", "- "]) * depth + text[i:]


def side_file_name(rng: random.Random, text: str) -> str:
    name = rng.choice(['"side\\0.txt"', "../side.txt", "/etc/passwd", "side.txt\x00",
                       "'si\tde.txt'", '"\\x01"', "nope.txt", "[side.txt]", ".", "side.txt"])
    key = rng.choice(list(SIDE_TEXTS))
    return text.rstrip("\n") + f"\n{key}: {name}\n"


TEXT_MUTATIONS: list[Callable[[random.Random, str], str]] = [
    delete_line, duplicate_line, swap_lines, flip_character, insert_tab, insert_control,
    odd_scalar, huge_number, truncate, nest_deeply, side_file_name,
]


def encode(rng: random.Random, text: str) -> bytes:
    """Mostly UTF-8; now and then with a byte order mark, as UTF-16/32, or with raw bytes."""
    roll = rng.random()
    if roll < 0.04:
        return "\ufeff".encode() + text.encode("utf-8", "surrogatepass")
    if roll < 0.08:
        return text.encode(rng.choice(["utf-16", "utf-16-le", "utf-16-be", "utf-32"]),
                           "surrogatepass")
    data = text.encode("utf-8", "surrogatepass")
    if roll < 0.12 and data:
        i = rng.randrange(len(data))
        return data[:i] + bytes([rng.choice([0, 0xFF, 0xC3, 0xE9, 0x80])]) + data[i:]
    return data


def mutants(seed: int, count: int) -> list[tuple[bytes, str, str]]:
    """``(spec bytes, side file text, what was done)`` for ``count`` mutants (the side
    file is what an ``edges_file:`` or ``dominoes_file:`` of the spec reads)."""
    rng = random.Random(seed)
    sources = _sources()
    out = []
    for _ in range(count):
        text = rng.choice(sources)
        side = next((t for key, t in SIDE_TEXTS.items() if key in text), "")
        steps = []
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            mutate = rng.choice(TEXT_MUTATIONS)
            if side and rng.random() < 0.3:
                side = mutate(rng, side)
                steps.append(f"side file: {mutate.__name__}")
            else:
                text = mutate(rng, text)
                steps.append(mutate.__name__)
        out.append((encode(rng, text), side, ", ".join(steps)))
    return out
