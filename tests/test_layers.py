"""The layers of the code, enforced: every import runs down, none runs back up.

Every ``import`` of trailkit's own modules is read from the source with :mod:`ast`,
those inside functions included (a lazy import is still a dependency). Two rules:

1. **Layers.** Each module belongs to one *unit* (a package such as
   ``trailkit.solvers.backends.sat``, or a single module such as
   ``trailkit.solvers.backends.registry``),
   and each unit to one layer of :data:`LAYERS`. An import from one unit to another
   must go to a strictly lower layer: backends do not import each other, drawing does
   not import repair, nothing imports the command line. A fact two units need (a
   degree count, a size estimate, a palette) moves down to a lower layer.
2. **No cycles** between modules at all, inside a unit too (``models/`` included).

A new unit must be given its layer here: the test names what is missing.
"""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"models": "trailkit.models", "solvers": "trailkit.solvers"}
#: The package ``trailkit`` itself, the short face (``import trailkit as tk``), whose file
#: sits in this folder (``pyproject.toml`` maps it there).
FACE = ROOT / "solvers" / "face"

#: Units from the bottom up, one folder each (or one module where a folder holds two
#: layers): a unit may import units of lower layers only.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("trailkit.models",),
    ("trailkit.solvers.support",),
    ("trailkit.solvers.backends.base",),
    ("trailkit.solvers.backends.registry",),
    ("trailkit.solvers.backends.direct", "trailkit.solvers.backends.cpsat",
     "trailkit.solvers.backends.sat", "trailkit.solvers.backends.minizinc",
     "trailkit.solvers.backends.dimacs", "trailkit.solvers.backends.template"),
    ("trailkit.solvers.pipeline",),
    ("trailkit.solvers.tools.repair", "trailkit.solvers.tools.drawing",
     "trailkit.solvers.tools.interchange", "trailkit.solvers.tools.generate"),
    ("trailkit.solvers.tools.expect_check", "trailkit.solvers.campaigns",
     "trailkit.solvers.tools.design"),
    ("trailkit.solvers.frontends.presenter",),
    ("trailkit.solvers.frontends.workshop",),
    ("trailkit.solvers.frontends.cli", "trailkit.solvers.api",
     # 0.1's import paths, kept working with a warning (trailkit.solvers.api.MOVED)
     "trailkit.solvers.repair", "trailkit.solvers.drawing", "trailkit.solvers.interchange"),
    ("trailkit",),  # the short face: every name of trailkit.solvers.api, on first use
)

#: Unit arrows that break the rules today, each to be removed as it is fixed (issue 20).
KNOWN: set[tuple[str, str]] = set()


def module_name(path: Path) -> str:
    if path.parent == FACE:
        return "trailkit"
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    parts = [*PACKAGES[parts[0]].split("."), *parts[1:]]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for top in PACKAGES for p in sorted((ROOT / top).rglob("*.py"))}


def imports(path: Path, modules: set[str]) -> list[tuple[str, int]]:
    """The trailkit modules ``path`` imports (``from trailkit.x import y`` counts as
    importing ``trailkit.x.y`` when that is a module), with line numbers."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.startswith("trailkit"):
            subs = [f"{node.module}.{a.name}" for a in node.names]
            found += [(s, node.lineno) for s in subs if s in modules] or \
                [(node.module, node.lineno)]
        elif isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names if a.name.startswith("trailkit")]
    return found


def unit_of(module: str) -> str:
    for layer in LAYERS:
        for unit in layer:
            if module == unit or module.startswith(unit + "."):
                return unit
    raise AssertionError(f"{module} belongs to no unit of LAYERS in tests/test_layers.py; "
                         "give it its layer")


def layer_of(unit: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if unit in layer)


@functools.cache
def arrows() -> tuple[tuple[str, str, str], ...]:
    """Every (importer, imported, "file:line") of trailkit's own modules. Read once per
    test process (parsing every module costs seconds; the tests here only read it)."""
    modules = all_modules()
    out = []
    for name, path in modules.items():
        for target, line in imports(path, set(modules)):
            if target != name and not name.startswith(target + "."):  # a parent package
                out.append((name, target, f"{path.relative_to(ROOT)}:{line}"))
    return tuple(out)


def test_every_import_runs_down_the_layers() -> None:
    wrong = []
    for importer, imported, where in arrows():
        a, b = unit_of(importer), unit_of(imported)
        if a == b or (a, b) in KNOWN:
            continue
        if layer_of(a) <= layer_of(b):
            wrong.append(f"{where}: {importer} imports {imported} ({a} is not above {b})")
    assert not wrong, "imports that do not run down the layers:\n" + "\n".join(sorted(wrong))


def test_no_import_cycles_between_modules() -> None:
    graph: dict[str, set[str]] = defaultdict(set)
    for importer, imported, _ in arrows():
        graph[importer].add(imported)
    cycles = _strongly_connected(graph)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(sorted(c)) for c in cycles)


def test_known_exceptions_are_still_real() -> None:
    """An entry of KNOWN that no import needs any more must go (it would hide a new one)."""
    units = {(unit_of(a), unit_of(b)) for a, b, _ in arrows()}
    assert not KNOWN - units, f"remove from KNOWN: {sorted(KNOWN - units)}"


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """The components of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[set[str]] = []
    counter = 0
    for root in list(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_loading_cpsat_does_not_load_python_sat() -> None:
    """CP-SAT's backend needs none of python-sat (its size estimate used to come from the
    SAT backend's module, which loads pysat)."""
    import subprocess
    import sys

    code = ("import sys; import trailkit.solvers.backends.cpsat; "
            "print(any(m == 'pysat' or m.startswith('pysat.') for m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


def test_no_two_modules_share_a_name() -> None:
    """A basename means one thing: ``counting.py`` three times meant three things."""
    from trailkit.solvers.api import MOVED

    seen: dict[str, list[str]] = defaultdict(list)
    for name, path in all_modules().items():
        if path.name != "__init__.py" and name not in MOVED:
            seen[path.name].append(name)
    assert not {k: v for k, v in seen.items() if len(v) > 1}


#: The trusted base: the checkers (``models/checking/``) and the formulas they re-derive
#: from a puzzle (``models/formulas/``).
TRUSTED_FOLDERS = ("trailkit.models.checking", "trailkit.models.formulas",
                   "trailkit.models.proofs")
#: What the trusted base may import from outside its two folders: what a puzzle and an
#: answer are, the compiling decorator and the words of counts.
TRUSTED_BESIDE = {"trailkit.models.puzzle", "trailkit.models.answer",
                  "trailkit.models.support.jit", "trailkit.models.support.words"}


#: The folders of the trusted base: the checkers, and the certified formulas they rebuild.
TRUSTED_FOLDERS = ("trailkit.models.checking", "trailkit.models.formulas",
                   "trailkit.models.proofs")


def _reached_from(prefix: str) -> set[str]:
    graph: dict[str, set[str]] = defaultdict(set)
    for importer, imported, _ in arrows():
        graph[importer].add(imported)
    seen: set[str] = set()
    stack = [m for m in all_modules() if m == prefix or m.startswith(prefix + ".")]
    while stack:
        module = stack.pop()
        if module not in seen:
            seen.add(module)
            stack += graph[module]
    return seen


def test_the_trusted_base_is_its_folders() -> None:
    """What a certificate check trusts is ``models/checking/``, ``models/formulas/`` and
    the few modules of :data:`TRUSTED_BESIDE`: following every import from the two
    folders finds nothing else."""
    reached = set().union(*(_reached_from(folder) for folder in TRUSTED_FOLDERS))
    outside = {m for m in reached - TRUSTED_BESIDE if not m.startswith(TRUSTED_FOLDERS)}
    assert not outside, f"the checkers now also trust {sorted(outside)}"


#: The checkers a formula may call: a formula that lists walks has each verified (and
#: checked against the node rules).
FORMULAS_MAY_CALL = {"trailkit.models.checking.verify", "trailkit.models.checking.node_visits"}


def test_formulas_sit_below_the_checkers() -> None:
    """A formula is re-derived by the checkers and built by the backends; it calls no
    checker but the verifier (checkers import formulas, not the other way round)."""
    called = {imported for importer, imported, _ in arrows()
              if importer.startswith(TRUSTED_FOLDERS[1] + ".")
              and imported.startswith(TRUSTED_FOLDERS[0] + ".")}
    assert called <= FORMULAS_MAY_CALL, f"formulas call checkers {sorted(called)}"


def test_the_checkers_folder_reads_in_one_sitting() -> None:
    """The checkers' folder stays small enough to read: at most 5,000 lines."""
    folder = ROOT / "models" / "checking"
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in folder.glob("*.py"))
    assert lines <= CHECKERS_MAX_LINES, f"models/checking/ has {lines} lines"


CHECKERS_MAX_LINES = 5_000


def test_the_layout_page_names_every_unit_and_the_trusted_base() -> None:
    """``docs/layout.md`` stays true: its table names every unit of LAYERS, and its
    "What a certificate check trusts" names every module the checkers and the spec
    reader import."""
    page = (ROOT / "docs" / "layout.md").read_text(encoding="utf-8")
    missing = [u for layer in LAYERS for u in layer
               if f"`{u.removeprefix('trailkit.')}`" not in page]
    assert not missing, f"docs/layout.md's table lacks {missing}"
    trusts = page.split("### What a certificate check trusts", 1)[1].split("\n## ", 1)[0]
    seen = (_reached_from("trailkit.models.checking") | _reached_from("trailkit.models.spec")
            | _reached_from("trailkit.models.formulas") | _reached_from("trailkit.models.proofs"))
    named = {f"{parts[0]}/" if parts[0] in ("checking", "spec", "formulas", "proofs")
             else "/".join(parts) + ".py"
             for parts in (m.split(".")[2:] for m in seen)}
    absent = sorted(n for n in named if f"`{n}`" not in trusts)
    assert not absent, f"the trusted base on docs/layout.md lacks {absent}"
