"""Record what every command prints on every bundled spec, and compare two recordings.

A refactoring must not change what trailkit says: run this before it
(``python tests/bench/outputs_snapshot.py record before.json``), after it
(``... record after.json``), then ``... diff before.json after.json``. Each entry is one
command on one spec: its exit code, standard output and standard error, with what
legitimately changes from run to run masked (times, paths of temporary files, peak
memory). Every command is a fresh ``trailkit`` process; ``--jobs`` run side by side.

The hard benchmark specs are left out (minutes each); so are commands that only make
sense for some kinds (``count`` is asked with a time limit and may say "at least").
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The installed command, as a user runs it (whatever module it lives in).
TRAILKIT = [str(Path(sys.executable).with_name("trailkit"))]
LIMIT = ["--time-limit", "20"]

COMMANDS: dict[str, list[str]] = {
    "lint": ["lint", "{spec}"],
    "lint-json": ["lint", "{spec}", "--format", "json"],
    "solve": ["solve", "{spec}", *LIMIT],
    "solve-json": ["solve", "{spec}", "--json", *LIMIT],
    "solve-cpsat": ["solve", "{spec}", "--backend", "cpsat", "--json", *LIMIT],
    "solve-sat": ["solve", "{spec}", "--backend", "sat", "--json", *LIMIT],
    "count": ["count", "{spec}", *LIMIT],
    "count-json": ["count", "{spec}", "--json", *LIMIT],
    "prove": ["prove", "{spec}", "--json", *LIMIT],
    "explain": ["explain", "{spec}", *LIMIT],
    "explain-json": ["explain", "{spec}", "--json", *LIMIT],
    "repair": ["repair", "{spec}", "--json", *LIMIT],
    "export-dimacs": ["export", "{spec}", "--format", "dimacs"],
    "export-dot": ["export", "{spec}", "--format", "dot"],
    "draw-svg": ["draw", "{spec}", "--solve", "--out", "{tmp}/p.svg"],
    "draw-puzzle": ["draw", "{spec}", "--out", "{tmp}/p.svg"],
    "draw-certificate": ["draw", "{spec}", "--certificate", "--out", "{tmp}/p.svg"],
    "draw-repair": ["draw", "{spec}", "--repair", "--out", "{tmp}/p.svg"],
}

_MASKS = [
    # what compiling said: only on a first run (the kernels are cached after it)
    (re.compile(r"^trailkit: compiling .*\n", re.MULTILINE), ""),
    (re.compile(r", \d+\.\d s of it compiling"), ""),
    (re.compile(r'"(time_s|wall_time|wall_s|cpu_s|peak_mb|deterministic_time|'
                r'flatten_s|solve_s)": [0-9.e+-]+'), r'"\1": 0'),
    (re.compile(r"\b\d+\.\d+ s\b"), "T s"),
    (re.compile(r"\b\d+(\.\d+)? ms\b"), "T ms"),
    (re.compile(r"after \d+\.\d+ s"), "after T s"),
    (re.compile(r"/tmp/[^\s\"']+"), "/tmp/X"),
]


def masked(text: str) -> str:
    for pattern, replacement in _MASKS:
        text = pattern.sub(replacement, text)
    return text


def bundled_specs() -> list[Path]:
    return sorted(p for p in (ROOT / "specs").rglob("*.yaml")
                  if not p.name.startswith("hard-"))


def run_one(spec: Path, name: str, argv: list[str]) -> tuple[str, dict[str, object]]:
    with tempfile.TemporaryDirectory() as tmp:
        args = [a.format(spec=spec.relative_to(ROOT), tmp=tmp) for a in argv]
        try:
            done = subprocess.run([*TRAILKIT, *args], cwd=ROOT, capture_output=True,
                                  text=True, timeout=300)
            result = {"code": done.returncode, "out": masked(done.stdout),
                      "err": masked(done.stderr)}
        except subprocess.TimeoutExpired:
            result = {"code": None, "out": "", "err": "timeout"}
        picture = Path(tmp, "p.svg")
        if name.startswith("draw-") and picture.exists():
            result["svg_sha256"] = hashlib.sha256(picture.read_bytes()).hexdigest()
    return f"{spec.relative_to(ROOT)} :: {name}", result


def record(out: Path, jobs: int) -> None:
    jobs_list = [(spec, name, argv) for spec in bundled_specs()
                 for name, argv in COMMANDS.items()]
    with ThreadPoolExecutor(jobs) as pool:
        results = dict(pool.map(lambda job: run_one(*job), jobs_list))
    out.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    print(f"{len(results)} runs recorded in {out}")


def diff(before: Path, after: Path) -> int:
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    changed = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    for key in changed:
        print(f"--- {key}")
        old, new = a.get(key) or {}, b.get(key) or {}
        for field in ("code", "out", "err", "svg_sha256"):
            if old.get(field) != new.get(field):
                print(f"  {field}: {str(old.get(field))[:400]!r}\n"
                      f"     -> {str(new.get(field))[:400]!r}")
    print(f"{len(set(a) | set(b))} runs compared, {len(changed)} differ")
    return 1 if changed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    r = sub.add_parser("record")
    r.add_argument("out", type=Path)
    r.add_argument("--jobs", type=int, default=2)
    d = sub.add_parser("diff")
    d.add_argument("before", type=Path)
    d.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.what == "record":
        record(args.out, args.jobs)
        return 0
    return diff(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
