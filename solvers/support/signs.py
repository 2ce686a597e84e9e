"""Signs of where a run is: building a formula, or searching.

A backend calls :func:`sign` when it starts to build its formula (``"building"``) and
when its search begins (``"solving"``); nobody listens by default, so a sign costs a
function call. The command line listens when ``TRAILKIT_TEST_SIGNS=1`` is set and
writes ``trailkit: building with cadical195`` or ``trailkit: solving with cpsat`` to
standard error, so that a test can press Ctrl-C at a known moment instead of after a
fixed sleep. The same sign twice in a row (a count asks the solver once per solution)
is given once. A forked helper inherits the listeners, so its signs are seen too.

>>> seen = []
>>> listen(lambda phase, who: seen.append((phase, who)))
>>> sign("solving", "direct"); sign("solving", "direct")
>>> seen
[('solving', 'direct')]
>>> stop_listening()
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["BUILDING", "SOLVING", "Listener", "listen", "sign", "stop_listening"]

BUILDING = "building"
"""The phase in which a backend builds its formula or model."""
SOLVING = "solving"
"""The phase in which a backend's search runs."""

Listener = Callable[[str, str], None]
"""Called with (phase, who): ``("solving", "cpsat")``."""

_listeners: list[Listener] = []
_last: tuple[str, str] | None = None


def listen(listener: Listener) -> None:
    """Call ``listener`` at every sign from now on."""
    _listeners.append(listener)


def stop_listening() -> None:
    """Forget every listener (a compare worker's signs would only fill its error file)."""
    global _last
    _listeners.clear()
    _last = None


def sign(phase: str, who: str) -> None:
    """Tell the listeners that ``who`` (a backend or solver name) entered ``phase``."""
    global _last
    if not _listeners or _last == (phase, who):
        return
    _last = (phase, who)
    for listener in _listeners:
        listener(phase, who)
