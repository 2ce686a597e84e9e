"""Benchmark: end-to-end ``trailkit solve SPEC --json`` against a plain NetworkX script.

Run on demand: ``python tests/bench/bench_e2e.py [--repeat 3] [--size 1000000]``.

Three instances, generated in a temporary folder with fixed seeds:

* ``euler inline``: a dense Eulerian multigraph (one random closed walk of ``--size``
  steps over 1,000 nodes, its edges shuffled), the edges inline in the spec, one
  ``- u v`` per line as ``trailkit generate`` writes them;
* ``euler edges_file``: the same edges in a text file named by ``edges_file:``;
* ``colour inline``: ``--size`` random red/blue/green planks on ``size // 3`` tyres,
  colours following red -> blue -> green, inline.

The colour walk is also run with its ``shortest`` claim left out (``answer alone``:
the same command, the pipeline's ``answer_claims`` replaced by one making no claim), so
the certificate's cost is the ratio of the two; then ``trailkit prove --claim shortest
--out CERT`` writes its certificate (its size on disk is given) and ``trailkit
check-certificate`` checks it, timed after start-up (less the median of ``trailkit
--version``). The commands of one instance run interleaved, round by round (ours, the
answer alone, the peer), and each time is the median of its rounds.

Each ``trailkit`` measurement is a fresh process (``trailkit solve SPEC --json`` with
stdout to ``/dev/null``: process start, imports, reading, solving, verifying and
writing included); the peer is a fresh ``python`` running a plain NetworkX script on a
text edge list of the same instance (``MultiGraph`` + ``eulerian_circuit``, or the
(tyre, last colour) product graph + ``shortest_path``), printing its walk as JSON.
Each trailkit command runs once unmeasured first (bytecode and Numba caches written), and the
children may write bytecode caches even where ``PYTHONDONTWRITEBYTECODE`` is set. Times
are medians of ``--repeat`` runs (the peer: ``--nx-repeat``, in the first rounds); ``MB``
is the child's peak resident set and ``cpu s`` its CPU time, user and system
(``RUSAGE_CHILDREN`` of a one-child wrapper: on a machine shared with other jobs the
CPU time moves less than the wall time). Ratios are of medians in this same run (``cpu
x``: of the CPU times). ``--instance LABEL`` runs only that instance (repeatable).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGETS = {"euler inline": 50.0, "euler edges_file": 50.0, "colour inline": 30.0}
CERT_COST_TARGET = 1.3  # the certified colour walk against the answer alone
CHECK_TARGET_S = 1.0  # check-certificate of its certificate, after start-up
COLOURS = ("red", "blue", "green")

# Runs argv[1:] as one child and prints its wall time, peak RSS (MiB) and CPU time.
WRAPPER = """
import resource, subprocess, sys, time
t0 = time.perf_counter()
with open("/dev/null", "wb") as sink:
    subprocess.run(sys.argv[1:], stdout=sink, check=True)
used = resource.getrusage(resource.RUSAGE_CHILDREN)
print(time.perf_counter() - t0, used.ru_maxrss / 1024, used.ru_utime + used.ru_stime)
"""

# The same trailkit command with no claim made (the answer alone).
NO_CLAIMS = """
import sys
import trailkit.solvers.pipeline.solving as solving
solving.answer_claims = lambda *args, **kwargs: ()
from trailkit.solvers.frontends.cli import main
sys.argv = ["trailkit", *sys.argv[1:]]
sys.exit(main())
"""

# The certificate's check alone: the spec read first, then check_certificate_file timed.
CHECK_ALONE = """
import sys, time
from trailkit.models.spec import load_spec
puzzle = load_spec(sys.argv[1])
began = time.perf_counter()
from trailkit.solvers.pipeline.certificate_check import check_certificate_file
checked = check_certificate_file(puzzle, sys.argv[2], spec_path=sys.argv[1])
print(time.perf_counter() - began, checked.accepted)
"""

NX_EULER = """
import json, sys
import networkx as nx
g = nx.MultiGraph()
with open(sys.argv[1]) as f:
    g.add_edges_from(line.split() for line in f)
steps = [{"from": u, "to": v, "edge": k} for u, v, k in nx.eulerian_circuit(g, keys=True)]
json.dump({"steps": steps}, sys.stdout)
"""

NX_COLOUR = """
import json, sys
import networkx as nx
cycle = ["red", "blue", "green"]
prev = {c: cycle[(i - 1) % 3] for i, c in enumerate(cycle)}
start, goal = sys.argv[2], sys.argv[3]
g = nx.DiGraph()
with open(sys.argv[1]) as f:
    for line in f:
        u, v, c = line.split()
        for a, b in ((u, v), (v, u)):
            g.add_edge((a, prev[c]), (b, c))
            if a == start:
                g.add_edge("start", (b, c))
for c in cycle:
    g.add_edge((goal, c), "goal")
path = nx.shortest_path(g, "start", "goal")[1:-1]
steps = [{"to": node, "colour": colour} for node, colour in path]
json.dump({"start": start, "steps": steps}, sys.stdout)
"""


def euler_lines(size: int, nodes: int = 1000, seed: int = 0) -> list[str]:
    """``size`` edges ``u v`` of one random closed walk over ``nodes`` nodes, shuffled."""
    rng = random.Random(seed)
    walk = [rng.randrange(nodes) for _ in range(size)]
    edges = [f"v{a} v{b}" for a, b in zip(walk, walk[1:] + walk[:1], strict=True)]
    rng.shuffle(edges)
    return edges


def colour_lines(size: int, seed: int = 1) -> tuple[list[str], str, str]:
    """``size`` random planks ``u v colour`` on ``size // 3`` tyres, with start and goal."""
    rng = random.Random(seed)
    n = max(2, size // 3)
    lines = [f"t{rng.randrange(n)} t{rng.randrange(n)} {rng.choice(COLOURS)}"
             for _ in range(size)]
    return lines, "t0", f"t{n - 1}"


def write_instances(folder: Path, size: int) -> list[tuple[str, list[str], list[str]]]:
    """``(label, trailkit command, networkx command)`` of each instance, files written."""
    edges = euler_lines(size)
    (folder / "euler.txt").write_text("\n".join(edges) + "\n")
    (folder / "inline.yaml").write_text("trailkit: 1\nkind: trail\nclosed: true\nedges:\n"
                                        + "".join(f"  - {e}\n" for e in edges))
    (folder / "side.yaml").write_text("trailkit: 1\nkind: trail\nclosed: true\n"
                                      "edges_file: euler.txt\n")
    planks, start, goal = colour_lines(size)
    (folder / "planks.txt").write_text("\n".join(planks) + "\n")
    (folder / "colour.yaml").write_text(
        f"trailkit: 1\nkind: colour-walk\nstart: {start}\ngoal: {goal}\nfirst: any\n"
        "colours: {cycle: [red, blue, green]}\nedges:\n"
        + "".join(f"  - {p}\n" for p in planks))
    trailkit = str(Path(sys.executable).with_name("trailkit"))
    py = sys.executable
    return [
        ("euler inline", [trailkit, "solve", str(folder / "inline.yaml"), "--json"],
         [py, "-c", NX_EULER, str(folder / "euler.txt")]),
        ("euler edges_file", [trailkit, "solve", str(folder / "side.yaml"), "--json"],
         [py, "-c", NX_EULER, str(folder / "euler.txt")]),
        ("colour inline", [trailkit, "solve", str(folder / "colour.yaml"), "--json"],
         [py, "-c", NX_COLOUR, str(folder / "planks.txt"), start, goal]),
    ]


def child_env() -> dict[str, str]:
    """The children's environment: as ours, but free to write bytecode caches, as an
    installed tool is (a machine that sets ``PYTHONDONTWRITEBYTECODE`` would otherwise
    time the compiling of every imported module's source, 0.2 s a run)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_once(command: list[str]) -> tuple[float, float, float]:
    """Wall time (s), peak RSS (MiB) and CPU time (s, user and system) of ``command`` in
    a fresh process."""
    out = subprocess.run([sys.executable, "-c", WRAPPER, *command], check=True,
                         capture_output=True, text=True, env=child_env()).stdout.split()
    return float(out[0]), float(out[1]), float(out[2])


def interleaved(commands: dict[str, tuple[list[str], int, bool]], rounds: int
                ) -> dict[str, tuple[float, float, float]]:
    """Median wall time, largest peak RSS and median CPU time of each named ``(command,
    runs, warm)``, run
    round by round in turns (a command with fewer runs only in the first rounds); a warm
    command runs once unmeasured first (bytecode and compiled kernels cached)."""
    for command, _, warm in commands.values():
        if warm:
            subprocess.run(command, check=True, capture_output=True, env=child_env())
    times: dict[str, list[float]] = {name: [] for name in commands}
    peaks: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    for r in range(rounds):
        for name, (command, runs, _) in commands.items():
            if r < runs:
                t, mb, cpu = run_once(command)
                times[name].append(t)
                peaks[name].append(mb)
                cpus[name].append(cpu)
    return {name: (statistics.median(times[name]), max(peaks[name]),
                   statistics.median(cpus[name])) for name in commands}


def certificate_check(folder: Path, repeat: int) -> str:
    """``prove --claim shortest --out`` of the colour walk, and its check timed after
    start-up: the line of the second table's last columns."""
    trailkit = str(Path(sys.executable).with_name("trailkit"))
    spec, cert = str(folder / "colour.yaml"), folder / "colour-cert.json"
    made = subprocess.run([trailkit, "prove", spec, "--claim", "shortest", "--out",
                           str(cert)], capture_output=True, text=True, env=child_env())
    if made.returncode or not cert.exists():
        return f"no certificate (exit {made.returncode}): {made.stdout.strip()[:160]}"
    size = sum(f.stat().st_size for f in folder.glob("colour-cert*"))
    timed = interleaved({"check": ([trailkit, "check-certificate", spec, str(cert)], repeat,
                                   True),
                         "start-up": ([trailkit, "--version"], repeat, True)}, repeat)
    after = timed["check"][0] - timed["start-up"][0]
    alone = [subprocess.run([sys.executable, "-c", CHECK_ALONE, spec, str(cert)], check=True,
                            capture_output=True, text=True, env=child_env()).stdout.split()
             for _ in range(repeat)]
    if not all(accepted == "True" for _, accepted in alone):
        return "the certificate was rejected"
    check_s = statistics.median(float(t) for t, _ in alone)
    return (f"check-certificate {timed['check'][0]:.2f} s ({after:.2f} s after start-up; "
            f"the check once the spec is read {check_s:.2f} s, target < "
            f"{CHECK_TARGET_S:.0f} s), {timed['check'][1]:.0f} MB; certificate "
            f"{size / 1e6:.3f} MB on disk")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10**6)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--nx-repeat", type=int, default=1,
                        help="runs of the (slow) NetworkX script per instance")
    parser.add_argument("--instance", action="append", choices=list(TARGETS),
                        help="run only this instance (repeatable; default: all three)")
    parser.add_argument("--baseline", metavar="TRAILKIT",
                        help="another trailkit executable (an older version's), run in the "
                             "same rounds: its rows are marked 'before'")
    args = parser.parse_args()
    print(f"{'instance':<28} {'trailkit s':>10} {'cpu s':>6} {'MB':>6} {'networkx s':>10} "
          f"{'cpu s':>6} {'MB':>6} {'ratio':>7} {'cpu x':>6} {'target':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        jobs = write_instances(Path(tmp), args.size)
        print(f"# {args.size:,} edges per instance, generated in "
              f"{time.perf_counter() - started:.1f} s", flush=True)
        for label, ours, peer in jobs:
            if args.instance and label not in args.instance:
                continue
            got = interleaved(_commands(label, ours, peer, args), max(args.repeat,
                                                                      args.nx_repeat))
            t_peer, mb_peer, cpu_peer = got["peer"]
            for name, shown in (("before", f"{label} (before)"), ("ours", label),
                                ("alone-before", f"{label} alone (before)"),
                                ("alone", f"{label} alone")):
                if name in got:
                    t, mb, cpu = got[name]
                    print(f"{shown:<28} {t:>10.2f} {cpu:>6.2f} {mb:>6.0f} {t_peer:>10.2f} "
                          f"{cpu_peer:>6.2f} {mb_peer:>6.0f} {t_peer / t:>6.1f}x "
                          f"{cpu_peer / cpu:>5.1f}x {TARGETS[label]:>6.0f}x", flush=True)
            for certified, alone in (("before", "alone-before"), ("ours", "alone")):
                if alone in got:
                    print(f"# {label}{' (before)' if certified == 'before' else ''}: "
                          f"certified / answer alone {got[certified][0] / got[alone][0]:.2f}x "
                          f"(target <= {CERT_COST_TARGET}x)", flush=True)
        if not args.instance or "colour inline" in args.instance:
            print(f"# {certificate_check(Path(tmp), args.repeat)}", flush=True)


def _commands(label: str, ours: list[str], peer: list[str], args: argparse.Namespace
              ) -> dict[str, tuple[list[str], int, bool]]:
    """The commands of one instance, by name: ``ours``, ``peer``, for the colour walk
    ``alone`` (no claim made), and with ``--baseline`` the same as ``before``."""
    commands = {"ours": (ours, args.repeat, True), "peer": (peer, args.nx_repeat, False)}
    if args.baseline:
        commands["before"] = ([args.baseline, *ours[1:]], args.repeat, True)
    if label.startswith("colour"):
        commands["alone"] = ([sys.executable, "-c", NO_CLAIMS, *ours[1:]], args.repeat, True)
        if args.baseline:
            python = str(Path(args.baseline).with_name("python"))
            commands["alone-before"] = ([python, "-c", NO_CLAIMS, *ours[1:]], args.repeat,
                                        True)
    return commands


if __name__ == "__main__":
    main()
