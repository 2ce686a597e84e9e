"""How trailkit compiles its hot loops: one decorator, used by every kernel.

:func:`kernel` marks a function written in the subset of Python that Numba compiles
(loops over NumPy arrays and scalars). The result, a :class:`Kernel`, compiles it
with Numba (``njit``, cached on disk) on its first call, or runs it as plain Python
where Numba is missing; ``NUMBA_DISABLE_JIT=1`` runs the very same code interpreted
(the tests compare both). When no cache folder is writable it compiles in every
process instead.

Numba is imported only when a kernel is first compiled, because importing it and
loading the cached machine code costs many times what solving Das Haus vom Nikolaus
takes (``docs/benchmarks.md``). So a caller with a small input asks
:meth:`Kernel.sized`, which hands it the interpreted function below
:data:`COMPILE_FROM` items unless the machine code is at hand: compiled in this
process already, or cached on disk once Numba is loaded (5 ms to load then). A small
input never compiles a kernel: that takes seconds, far more than the input takes
interpreted, whatever else the process compiled before (a test process, which loads
Numba early, compiled every kernel a small test touched).
Kernels may call each other; each variant calls the same variant of the others.

This module holds the *mechanism* only, never a kernel: the verifier's compiled
checks (:mod:`trailkit.models.checking.verify`) and the backends' compiled algorithms
(:mod:`trailkit.solvers.backends.direct`) share no code beyond this decorator.

>>> @kernel
... def total(xs):
...     s = 0
...     for x in xs:
...         s += x
...     return s
>>> import numpy as np
>>> int(total(np.arange(5))), int(total.sized(5)(np.arange(5)))
(10, 10)
"""

from __future__ import annotations

import functools
import importlib.util
import sys
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, overload

__all__ = ["COMPILED", "COMPILE_FROM", "CompileListener", "Kernel", "Kernels",
           "compile_seconds", "interpreted", "kernel", "on_compile", "will_compile"]

COMPILED = importlib.util.find_spec("numba") is not None
"""Whether kernels run compiled (Numba is installed)."""

COMPILE_FROM = 20_000
"""Input size (edges, states, ...) from which :meth:`Kernel.sized` compiles: below this
the interpreted kernels finish before Numba would have loaded (their cost per item:
``docs/benchmarks.md``)."""


class Kernel:
    """A function that runs compiled when called, or interpreted through :attr:`interpreted`."""

    def __init__(self, function: Callable[..., Any], inline: bool = False,
                 refcounts: bool = True) -> None:
        functools.update_wrapper(self, function)
        self.py_func = function
        self.inline = inline
        self.refcounts = refcounts
        self._compiled: Callable[..., Any] | None = None
        self._interpreted: Callable[..., Any] | None = None

    def __call__(self, *args: Any) -> Any:
        return self.compiled(*args)

    def sized(self, size: int) -> Callable[..., Any]:
        """The compiled function for an input of ``size`` items at least
        :data:`COMPILE_FROM`, or for a smaller one when its machine code is at hand
        without compiling (see the module docstring); else the interpreted one."""
        if size >= COMPILE_FROM or (COMPILED and "numba" in sys.modules
                                    and _cached(self.compiled) is True):
            return self.compiled
        return self.interpreted

    @property
    def compiled(self) -> Callable[..., Any]:
        if self._compiled is None:
            if not COMPILED:  # pragma: no cover - exercised only where Numba is missing
                self._compiled = self.interpreted
            else:
                from numba import njit

                function = self._bound(lambda k: k.compiled)
                # njit takes inline= (Numba's IR inlining), though its typed overloads
                # do not list it
                compile_: Any = njit
                options: dict[str, Any] = {"nogil": True,
                                           "inline": "always" if self.inline else "never"}
                if not self.refcounts and _can_skip_refcounts():
                    options["_nrt"] = False  # Numba's flag for its reference counting
                _watch_compiles()
                try:
                    self._compiled = compile_(cache=True, **options)(function)
                except RuntimeError:  # nowhere writable to cache: compile in every process
                    self._compiled = compile_(**options)(function)
        return self._compiled

    @property
    def interpreted(self) -> Callable[..., Any]:
        if self._interpreted is None:
            self._interpreted = self._bound(lambda k: k.interpreted)
        return self._interpreted

    def _bound(self, variant: Callable[[Kernel], Callable[..., Any]]) -> Callable[..., Any]:
        """A copy of the function whose calls to other kernels go to ``variant`` of them
        (Numba can compile a call only to a compiled function)."""
        f = self.py_func
        names = dict(f.__globals__)
        for name in f.__code__.co_names:
            if isinstance(names.get(name), Kernel):
                names[name] = variant(names[name])
        copy = types.FunctionType(f.__code__, names, f.__name__, f.__defaults__, f.__closure__)
        return functools.update_wrapper(copy, f)


def _can_skip_refcounts() -> bool:
    """Whether this Numba takes ``_nrt`` (an option of its own, not of its documented
    API): without it a ``refcounts=False`` kernel compiles with the counting, slower
    but the same."""
    from numba.core.options import DefaultOptions

    return hasattr(DefaultOptions, "_nrt")


# ------------------------------------------------------------------ compile watch
CompileListener = Callable[[str, "float | None"], None]
"""Hears ``(what, None)`` when a compile begins and ``(what, seconds)`` when it ends:
``what`` names the kernel in words (``"direct.exact_count._orientation_sum"``)."""

_compile_listeners: list[CompileListener] = []
_compiling: list[float] = []  # the outermost compile's start (kernels compile kernels)
_compiled_s = [0.0]
_watching = [False]


def on_compile(listener: CompileListener) -> None:
    """Call ``listener`` when a kernel starts and ends compiling in this process (not when
    Numba loads it from its disk cache): the command line says so on standard error, as
    a first compile takes seconds, and names the compile time apart from the answer's."""
    _compile_listeners.append(listener)


def compile_seconds() -> float:
    """Seconds this process has spent compiling kernels (loading cached ones is not
    compiling)."""
    return _compiled_s[0]


def _kernel_name(data: Any) -> str:
    """``direct.exact_count._orientation_sum`` for Numba's event data of a compile."""
    function = getattr(data.get("dispatcher"), "py_func", None) if isinstance(data, dict) \
        else None
    if function is None:
        return "a kernel"
    module = (getattr(function, "__module__", None) or "").removeprefix(
        "trailkit.").removeprefix("solvers.")
    name = getattr(function, "__name__", "a kernel")
    return f"{module}.{name}" if module else name


def _watch_compiles() -> None:
    """Listen, once, to Numba's ``numba:compile`` events (sent only when it compiles,
    not when it loads a cached kernel); nested compiles (a kernel that calls another)
    count once, as the outermost."""
    if _watching[0]:
        return
    _watching[0] = True
    from numba.core import event

    class Watch(event.Listener):
        def on_start(self, ev: Any) -> None:
            _compiling.append(time.perf_counter())
            if len(_compiling) == 1:
                for listener in _compile_listeners:
                    listener(_kernel_name(ev.data), None)

        def on_end(self, ev: Any) -> None:
            began = _compiling.pop() if _compiling else time.perf_counter()
            if not _compiling:
                took = time.perf_counter() - began
                _compiled_s[0] += took
                for listener in _compile_listeners:
                    listener(_kernel_name(ev.data), took)

    event.register("numba:compile", Watch())  # type: ignore[no-untyped-call]  # Numba: no hints


@overload
def kernel(function: Callable[..., Any]) -> Kernel: ...
@overload
def kernel(*, inline: bool = False, refcounts: bool = True
           ) -> Callable[[Callable[..., Any]], Kernel]: ...
def kernel(function: Callable[..., Any] | None = None, *, inline: bool = False,
           refcounts: bool = True) -> Kernel | Callable[[Callable[..., Any]], Kernel]:
    """Mark ``function`` as a kernel (see the module docstring). ``@kernel(inline=True)``
    has Numba copy its body into each compiled kernel that calls it, rather than call
    it: a compiled call that passes arrays takes and drops a reference count on each,
    which for a small function called per proof line costs more than its work.

    ``refcounts=False`` compiles it without Numba's reference counting at all (and the
    kernels it calls, which Numba compiles with their caller's settings): every array
    a kernel is handed, or takes from a tuple, otherwise costs an atomic increment and
    decrement, even when inlined. Only for a kernel that allocates no array (no
    ``np.zeros``, no ``argsort``, no slice copy) and keeps none past its return: Numba
    refuses to compile one that allocates ("NRT required but not enabled")."""
    if function is None:
        return functools.partial(Kernel, inline=inline, refcounts=refcounts)
    return Kernel(function, inline, refcounts)


def will_compile(*kernels: Kernel) -> bool:
    """Whether calling ``kernels`` compiled would compile one of them first: Numba is
    installed, and neither this process nor the disk cache has its machine code yet (the
    first use after installing, or after the source changed). For a word to the user
    before a long wait; reads Numba's cache index, so ``False`` when that cannot be
    read."""
    return COMPILED and any(_cached(k.compiled) is False for k in kernels)


def _cached(dispatcher: Any) -> bool | None:
    """Whether Numba's ``dispatcher`` has machine code without compiling: compiled in
    this process already, or in the disk cache for its current source; ``None`` when
    that cannot be told (its cache index, Numba's private API, cannot be read, as when
    no cache folder is writable)."""
    if getattr(dispatcher, "overloads", None):
        return True
    try:
        index = dispatcher._cache._cache_file._load_index()
    except Exception:  # Numba's private cache API: no answer
        return None
    return bool(index)


_INTERPRETED: ContextVar[bool] = ContextVar("interpreted_kernels", default=False)
"""Whether :class:`Kernels` hands out the interpreted kernels (see :func:`interpreted`)."""


@contextmanager
def interpreted(small: bool) -> Iterator[None]:
    """Within this block, with ``small``, every :class:`Kernels` view hands out its
    kernels interpreted: loading Numba and the cached machine code (compiling it on first
    use, all the more) costs far more than a small job takes interpreted. The very same
    code runs either way. Within an outer ``interpreted(True)`` block (a caller with a
    deadline the compiler could not keep), an inner block runs interpreted too."""
    token = _INTERPRETED.set(small or _INTERPRETED.get())
    try:
        yield
    finally:
        _INTERPRETED.reset(token)


class Kernels:
    """A module of kernels as its caller calls them: each kernel compiled, or
    interpreted within :func:`interpreted`; its other names as they are."""

    def __init__(self, module: types.ModuleType) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._module, name)
        if isinstance(value, Kernel):
            return value.interpreted if _INTERPRETED.get() else value.compiled
        return value
