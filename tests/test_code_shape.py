"""The shape of the code, enforced: no class over 200 lines, no function over 40.

Every ``class`` and ``def`` in ``models/`` and ``solvers/`` is measured from the source
with :mod:`ast`, from its first line (decorators excluded) to its last
(``end_lineno - lineno + 1``): docstrings and comments count, because a reader reads
them too. A long function is split into well-named helpers, a long class into
collaborators, so that each piece can be read in one sitting (house rules, issue 20).

Compiled kernels are exempt: a function Numba compiles (decorated with
:func:`trailkit.models.support.jit.kernel`, or Numba's ``njit``/``jit``) must keep its loops in
one body, because a call between kernels is not free and Numba cannot inline closures
that rebind state. So is every function of a ``*_kernel.py`` module.

A function that must stay long goes in :data:`KNOWN` with its reason; the test fails
when an entry is no longer needed, so the list only shrinks.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOPS = ("models", "solvers")
MAX_CLASS = 200
MAX_FUNCTION = 40

#: Decorators that mark a compiled kernel: (module, name) as imported.
KERNEL_DECORATORS = {("trailkit.models.support.jit", "kernel"), ("numba", "njit"), ("numba", "jit")}

#: ``"path:qualified name"`` -> why it may stay longer than the limit.
KNOWN: dict[str, str] = {
    "models/puzzle.py:Puzzle": "the one form every kind lowers to: its 25 fields with their "
        "words, and the rule questions every backend asks of them (may_start, usable, "
        "colour_may_follow, ...), kept beside the fields they read",
    "solvers/backends/direct/enumeration.py:_TrailCounter": "the enumeration's hot loop and "
        "the state it mutates at every step: a collaborator would add a call per step",
    "solvers/backends/direct/exact_count.py:_orientations": "a hot generator over Eulerian "
        "orientations whose loop keeps its state in locals; a split adds calls per step",
}


def _kernel_names(tree: ast.Module) -> set[str]:
    """The local names under which the module imports a kernel decorator (or ``numba``)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names |= {a.asname or a.name for a in node.names
                      if (node.module, a.name) in KERNEL_DECORATORS}
        elif isinstance(node, ast.Import):
            names |= {a.asname or a.name for a in node.names if a.name == "numba"}
    return names


def _is_kernel(node: ast.FunctionDef | ast.AsyncFunctionDef, kernels: set[str]) -> bool:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Name) and target.id in kernels:
            return True
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                and target.value.id in kernels and target.attr in {"njit", "jit"}:
            return True
    return False


def _definitions(node: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.AST]]:
    """Every class and function under ``node`` with its qualified name."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            name = f"{prefix}{child.name}"
            yield name, child
            yield from _definitions(child, name + ".")
        else:
            yield from _definitions(child, prefix)


@functools.cache
def too_long() -> dict[str, str]:
    """``"path:name"`` -> what is too long, for every definition over its limit."""
    found: dict[str, str] = {}
    for top in TOPS:
        for path in sorted((ROOT / top).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            kernels = _kernel_names(tree)
            compiled_module = path.stem.endswith("_kernel")
            for name, node in _definitions(tree):
                assert isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                where = f"{path.relative_to(ROOT).as_posix()}:{name}"
                if isinstance(node, ast.ClassDef):
                    if size > MAX_CLASS:
                        found[where] = f"class of {size} lines (at most {MAX_CLASS})"
                elif size > MAX_FUNCTION and not compiled_module \
                        and not _is_kernel(node, kernels):
                    found[where] = f"function of {size} lines (at most {MAX_FUNCTION})"
    return found


def test_no_class_or_function_is_too_long() -> None:
    wrong = {where: what for where, what in too_long().items() if where not in KNOWN}
    assert not wrong, "split these into well-named helpers:\n" + "\n".join(
        f"{where}: {what}" for where, what in sorted(wrong.items()))


def test_known_exceptions_are_still_real() -> None:
    """An entry of KNOWN that is short enough now must go (it would hide a regrowth)."""
    stale = set(KNOWN) - set(too_long())
    assert not stale, f"remove from KNOWN: {sorted(stale)}"


def test_every_exception_says_why() -> None:
    assert all(reason.strip() for reason in KNOWN.values())


def test_kernels_are_recognised() -> None:
    """The measure is not blind: a compiled kernel is exempt, a plain function is not."""
    tree = ast.parse("from trailkit.models.support.jit import kernel as k\nimport numba\n"
                     "@k\ndef a(): pass\n@numba.njit(cache=True)\ndef b(): pass\n"
                     "def c(): pass\n")
    kernels = _kernel_names(tree)
    flags = [_is_kernel(n, kernels) for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert flags == [True, True, False]


def test_test_modules_do_not_import_each_other() -> None:
    """Shared generators, oracles and helpers live in helper modules (``oracles.py``,
    ``spec_texts.py``, ...), never in a ``test_*.py`` another test module imports."""
    wrong = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            wrong += [f"{path.relative_to(ROOT)}:{node.lineno} imports {name}" for name in names
                      if name.split(".")[-1].startswith("test_")]
    assert not wrong, "\n".join(wrong)


#: The folders of the code that tests mirror (``tests/models/checking/test_verify...``).
MIRRORED = ("models", "solvers")


def test_tests_mirror_the_code() -> None:
    """At least 80% of the test modules sit in folders named after the code's folders
    (``tests/solvers/backends/direct/`` for ``solvers/backends/direct/``), each such
    folder one that exists in the code; the rest, at the top of ``tests/``, test the
    house as a whole (layers, shapes, docs, types) beside the shared oracles."""
    modules = sorted((ROOT / "tests").rglob("test_*.py"))
    nested = [p for p in modules if p.parent != ROOT / "tests"]
    strays = [str(p.parent.relative_to(ROOT / "tests")) for p in nested
              if not (ROOT / p.parent.relative_to(ROOT / "tests")).is_dir()
              or p.parent.relative_to(ROOT / "tests").parts[0] not in MIRRORED]
    assert not strays, f"test folders that mirror no code folder: {sorted(set(strays))}"
    assert len(nested) >= 0.8 * len(modules), f"{len(nested)} of {len(modules)} in folders"
