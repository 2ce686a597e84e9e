"""Benchmark: drawing puzzles, end to end and by stage, and the choices behind the drawing.

Run on demand: ``python tests/bench/bench_draw.py [--repeat 3] [--big 100000]``.

* ``trailkit draw`` on the tyre puzzle with its solution, as a user runs it (a fresh
  process: start-up, load, solve, draw, write), for SVG, PNG and HTML;
* in-process stages (load, solve, SVG, PNG, HTML) for the tyre puzzle, a 10,000-edge
  coloured hexagon grid with its layout and the same grid with an automatic layout,
  and a bigger one (``--big`` edges) that is drawn simplified;
* PNG renderers side by side on the tyre picture (resvg, CairoSVG when installed);
* edge crossings of the automatic layout against NetworkX's ``spring_layout`` on small
  planar figures.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from bench_colour_walk import timed  # the benchmarks' one median timer (same folder)

from trailkit.models.puzzle import ColourRule, EdgeUse, Objective, Puzzle
from trailkit.models.spec import load_spec
from trailkit.solvers.pipeline import solve
from trailkit.solvers.tools.drawing import draw_svg, html_page, render_png
from trailkit.solvers.tools.drawing.png import SIMPLIFY_EDGES as PNG_SIMPLIFY_EDGES

ROOT = Path(__file__).resolve().parents[2]
TYRES = ROOT / "specs" / "tyre-puzzle" / "restored.yaml"
TRAILKIT = Path(sys.executable).with_name("trailkit")


def hex_grid(edges: int, seed: int = 7) -> Puzzle:
    """A triangular lattice of tyres (each joined to its right and two upper neighbours,
    2 apart as on the real puzzle) with random plank colours, start and goal in
    opposite corners: about ``edges`` planks."""
    side = max(2, int((edges / 3) ** 0.5))
    rng = random.Random(seed)
    name = {(r, c): f"t{r}_{c}" for r in range(side) for c in range(side)}
    pairs = []
    for r in range(side):
        for c in range(side):
            for dr, dc in ((0, 1), (1, 0), (1, -1)):
                if (r + dr, c + dc) in name:
                    pairs.append((name[r, c], name[r + dr, c + dc],
                                  rng.choice(("red", "blue", "green"))))
    layout = {name[r, c]: (2.0 * c + r, r * 3 ** 0.5) for r, c in name}
    p = Puzzle.build(kind="colour-walk", edges=pairs, nodes=list(name.values()),
                     colours=ColourRule.from_cycle(["red", "blue", "green"]),
                     start=[name[0, 0]], end=[name[side - 1, side - 1]],
                     use=EdgeUse.ANY, objective=Objective.SHORTEST)
    return replace(p, layout=layout, name=f"hexagon grid, {len(pairs):,} planks")


def random_trail(edges: int, seed: int = 3) -> Puzzle:
    """A random closed walk of ``edges`` steps over ``edges // 5`` nodes, as a one-stroke
    puzzle without layout: long crossing edges, the drawing's worst case."""
    rng = random.Random(seed)
    n = max(3, edges // 5)
    walk = [rng.randrange(n) for _ in range(edges)]
    pairs = [(f"v{walk[i]}", f"v{walk[(i + 1) % edges]}") for i in range(edges)]
    return replace(Puzzle.build(kind="trail", edges=pairs, closed=True),
                   name=f"random Euler trail, {edges:,} edges")


def stages(label: str, puzzle: Puzzle, repeat: int, png: bool = True) -> None:
    t_solve, answer = timed(lambda: solve(puzzle), repeat)
    t_svg, svg = timed(lambda: draw_svg(puzzle, answer), repeat)
    t_html, _ = timed(lambda: html_page(puzzle, svg, answer), repeat)
    simple = puzzle.num_edges > PNG_SIMPLIFY_EDGES  # as trailkit draw does for a PNG
    png_svg = draw_svg(puzzle, answer, simplify=True) if simple else svg
    t_png = timed(lambda: render_png(png_svg), 1)[0] if png else float("nan")
    note = " (simplified)" if "Simplified" in svg else ""
    print(f"{label:34} {puzzle.num_edges:>8,} {t_solve:8.3f} {t_svg:8.3f} {t_png:8.3f} "
          f"{t_html:8.3f} {len(svg) / 1e6:7.2f} MB{note}  walk {answer.length}")


def end_to_end(spec: Path, folder: str, repeat: int) -> None:
    """``trailkit draw SPEC --solve --out walk.EXT`` in a fresh process, per format."""
    for suffix in ("svg", "png", "html"):
        def run(suffix: str = suffix) -> None:
            subprocess.run([str(TRAILKIT), "draw", str(spec), "--solve", "--out",
                            f"{folder}/walk.{suffix}", "--force"], check=True,
                           capture_output=True)
        t, _ = timed(run, repeat)
        print(f"  --out walk.{suffix:5} {t:6.3f} s")


def cli(repeat: int) -> None:
    print("end to end: trailkit draw specs/tyre-puzzle/restored.yaml --solve --out FILE "
          f"(fresh process, median of {repeat})")
    with tempfile.TemporaryDirectory() as folder:
        end_to_end(TYRES, folder, repeat)
        t, _ = timed(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True),
                           repeat)
        print(f"  (python start-up alone {t:6.3f} s)")


def grid_spec(puzzle: Puzzle, path: Path) -> None:
    """Write ``puzzle`` (from :func:`hex_grid`) as a spec with its layout."""
    names = puzzle.nodes
    edges = ", ".join(f'"{names[u]} {names[v]} {puzzle.colour_name(e)}"'
                      for e, (u, v) in enumerate(zip(puzzle.tail, puzzle.head, strict=True)))
    layout = ", ".join(f"{n}: [{x:g}, {y:.4f}]" for n, (x, y) in puzzle.layout.items())
    path.write_text(f"trailkit: 1\nname: {puzzle.name}\nkind: colour-walk\n"
                    f"start: {names[min(puzzle.start)]}\ngoal: {names[min(puzzle.end)]}\n"
                    f"layout: {{{layout}}}\nedges: [{edges}]\n")


def cli_big(repeat: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        spec = Path(folder) / "grid.yaml"
        grid_spec(hex_grid(10_000), spec)
        print(f"end to end: trailkit draw (10,000-edge hexagon grid) --solve, median of {repeat}")
        end_to_end(spec, folder, repeat)


def renderers(repeat: int) -> None:
    puzzle = load_spec(TYRES)
    svg = draw_svg(puzzle, solve(puzzle))
    print("PNG renderers on the solved tyre picture (1.5x, median of", repeat, "):")
    t, data = timed(lambda: render_png(svg), repeat)
    print(f"  resvg-py   {t:6.3f} s  {len(data) / 1e3:7.1f} kB")
    try:
        import cairosvg
    except ImportError:
        print("  cairosvg   not installed")
        return
    t, data = timed(lambda: cairosvg.svg2png(bytestring=svg.encode(), scale=1.5,
                                                   background_color="white"), repeat)
    print(f"  cairosvg   {t:6.3f} s  {len(data) / 1e3:7.1f} kB")


def crossings() -> None:
    try:
        import networkx as nx
        import numpy as np
    except ImportError:
        print("layout crossings: networkx not installed")
        return
    from trailkit.solvers.tools.drawing.layout import count_crossings, stress_layout

    figures = {"Nikolaus house": nx.Graph([(0, 1), (0, 2), (1, 2), (1, 3), (1, 4), (2, 3),
                                          (2, 4), (3, 4)]),
               "cube": nx.hypercube_graph(3), "prism (5)": nx.circular_ladder_graph(5),
               "octahedron": nx.octahedral_graph(), "dodecahedron": nx.dodecahedral_graph(),
               "wheel (8)": nx.wheel_graph(8), "grid 4x5": nx.grid_2d_graph(4, 5),
               "K5 (not planar)": nx.complete_graph(5)}
    print("edge crossings: figure, trailkit automatic layout, NetworkX spring_layout "
          "(seeds 0-4)")
    for label, graph in figures.items():
        g = nx.convert_node_labels_to_integers(graph)
        edges = np.array(list(g.edges()))
        t = time.perf_counter()
        ours = count_crossings(stress_layout(g.number_of_nodes(), edges[:, 0], edges[:, 1]),
                               edges)
        took = time.perf_counter() - t
        spring = [count_crossings(np.array([xy for _, xy in sorted(
            nx.spring_layout(g, seed=s).items())]), edges) for s in range(5)]
        print(f"  {label:18} {ours:3}  ({took:.3f} s)   spring {spring}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--big", type=int, default=100_000)
    args = ap.parse_args()
    cli(args.repeat)
    cli_big(args.repeat)
    print()
    print(f"{'in process (s)':34} {'edges':>8} {'solve':>8} {'svg':>8} {'png':>8} "
          f"{'html':>8} {'svg size':>10}")
    stages("tyre puzzle, solved", load_spec(TYRES), args.repeat)
    grid = hex_grid(10_000)
    stages("hexagon grid, spec layout", grid, args.repeat)
    stages("hexagon grid, automatic layout", replace(grid, layout=None), args.repeat)
    stages(f"hexagon grid, {args.big:,} (simplified)", hex_grid(args.big), 1)
    stages("random Euler trail, automatic layout", random_trail(10_000), 1)
    print()
    renderers(args.repeat)
    print()
    crossings()


if __name__ == "__main__":
    main()
