"""What a design is asked for, read and checked once for both front doors.

``trailkit design colour-walk`` (its options) and the workshop's Design panel (its
fields) ask for the same thing: a field of tyres (``hex:ROWS,COLS``, ``grid:ROWS,COLS``
or a spec's own), the targets, a seed and a count. Both read the request here, so a bad
value is refused with the same message in both (naming the option and what to write),
and both hand :func:`~trailkit.solvers.tools.design.certify_design.make_designs` the same
targets and the same "made by" line. A tour design (``design tour``: a board, its
moves, the givens' range) is read by :func:`tour_ask`, whose moves are
:data:`TOUR_MOVES` (the command line's choices and the panel's).

>>> ask = DesignAsk(layout="hex:1,7", min_length=50, unique=True)
>>> field = ask.field()
>>> targets, names = ask.targets(field)
>>> (len(field.nodes), targets.min_length, names)
(7, 50, ('red', 'blue', 'green'))
>>> ask.made_by()
'trailkit design colour-walk --layout hex:1,7 --colours red,blue,green --min-length 50 --unique'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from trailkit.models.errors import TrailkitError
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec.vocabulary import BOARD_MOVES, MAX_BOARD_CELLS
from trailkit.models.support.hints import did_you_mean
from trailkit.solvers.tools.design.colour_search import Targets
from trailkit.solvers.tools.design.fields import Field, field_of, grid_field, hex_field

if TYPE_CHECKING:
    from trailkit.solvers.tools.design.tour_design import TourAsk

__all__ = ["DEFAULT_COLOURS", "MAX_DESIGNS", "TOUR_MOVES", "DesignAsk", "board_size",
           "layout_field", "parse_range", "tour_ask"]

#: The most designs one run may ask for (``--count``).
MAX_DESIGNS = 1000
#: The colour cycle of a design on a new field (``--colours`` not given).
DEFAULT_COLOURS = "red,blue,green"
#: The moves a tour design may ask for (``design tour --moves``, the panel's list).
TOUR_MOVES: tuple[str, ...] = (*BOARD_MOVES, "arrows")


@dataclass(frozen=True)
class DesignAsk:
    """One design request: ``layout`` (``hex:R,C`` / ``grid:R,C``; ``None`` with
    ``source``, the spec whose field is kept), the colours (a comma list), the start and
    goal (node names; ``None``: the field's defaults), the targets, the seed and how many
    designs (``count``)."""

    layout: str | None = None
    source: str | None = None
    colours: str | None = None  # None: the --from spec's colour cycle, else DEFAULT_COLOURS
    start: str | None = None
    goal: str | None = None
    min_length: int = 1
    max_length: int | None = None
    unique: bool = False
    robust: bool = False
    thin: float = 0.0
    seed: int = 0
    count: int = 1
    traps: str | None = None
    trap_steps: str | None = None

    def check(self) -> None:
        """Refuse values no field could make sense of (before any field is made)."""
        self.names()
        self.ranges()
        if self.min_length < 1 or (self.max_length is not None
                                   and self.max_length < self.min_length):
            raise TrailkitError("--min-length must be 1 or more, and --max-length at least "
                                "--min-length")
        if not 0 <= self.thin <= 0.9:
            raise TrailkitError("--thin P: a share from 0 to 0.9 of the pairs to leave out")
        if not 1 <= self.count <= MAX_DESIGNS:
            raise TrailkitError(f"--count N: from 1 to {MAX_DESIGNS} designs")

    def ranges(self) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
        """The ``--traps`` and ``--trap-steps`` bounds, read and checked."""
        return (parse_range("--traps", self.traps, least=0),
                parse_range("--trap-steps", self.trap_steps, least=0))

    def names(self, field: Field | None = None) -> tuple[str, ...]:
        """The colour names, checked: two or more, all different; when none were given,
        the colour cycle of the spec ``field`` was taken from, else
        :data:`DEFAULT_COLOURS`."""
        if self.colours is None:
            return field.colours if field is not None and field.colours else \
                tuple(DEFAULT_COLOURS.split(","))
        names = tuple(c.strip() for c in self.colours.split(",") if c.strip())
        if len(names) < 2 or len(set(names)) != len(names):
            raise TrailkitError("--colours: give two or more different colours, e.g. "
                                "red,blue,green")
        return names

    def field(self, spec: Puzzle | None = None) -> Field:
        """The field asked for: the ``layout``'s, or ``spec``'s own (``--from``)."""
        if spec is not None:
            try:
                return field_of(spec)
            except ValueError as exc:
                raise TrailkitError(f"--layout/--from: {exc}") from None
        return layout_field(self.layout)

    def targets(self, field: Field) -> tuple[Targets, tuple[str, ...]]:
        """The targets on ``field``, and the colour names; every problem is refused
        with what to do."""
        self.check()
        names = self.names(field)
        start = _node(field, self.start, field.start, "start")
        goal = _node(field, self.goal, field.goal % len(field.nodes), "goal")
        if start == goal:
            raise TrailkitError("--start and --goal name the same node: a walk of no "
                                "steps would solve it; give two different nodes")
        return Targets(start, goal, len(names), self.min_length, self.max_length,
                       self.unique, self.robust, self.thin, *self.ranges()), names

    def made_by(self) -> str:
        """The command line that makes the design again (the seed is added per design)."""
        where = f"--layout {self.layout}" if self.layout else f"--from {self.source}"
        words = [f"trailkit design colour-walk {where}"]
        if self.colours is not None or self.layout:  # --from: the spec's cycle again
            words.append(f"--colours {self.colours or DEFAULT_COLOURS}")
        for flag, value in (("--start", self.start), ("--goal", self.goal),
                            ("--max-length", self.max_length)):
            if value is not None:
                words.append(f"{flag} {value}")
        words.append(f"--min-length {self.min_length}")
        words += [flag for flag, on in (("--unique", self.unique),
                                        ("--robust", self.robust)) if on]
        words += [f"{flag} {value}" for flag, value in (("--traps", self.traps),
                                                       ("--trap-steps", self.trap_steps))
                  if value]
        if self.thin:
            words.append(f"--thin {self.thin:g}")
        return " ".join(words)


def _node(field: Field, name: str | None, default: int, what: str) -> int:
    if name is None:
        return default
    if name not in field.nodes:
        raise TrailkitError(f"--{what}: {name!r} is no node of the field (nodes "
                            f"{field.nodes[0]} ... {field.nodes[-1]})"
                            f"{did_you_mean(name, field.nodes)}")
    return int(field.nodes.index(name))


def parse_range(option: str, text: str | None, *, least: int = 1) -> tuple[int, int] | None:
    """``MIN..MAX`` (or one number) given to ``option``, read and checked (``None``: not
    given): whole numbers with ``least <= MIN <= MAX``, else exit 2 with what to write."""
    if text is None:
        return None
    low, dots, high = text.partition("..")
    high = high if dots else low
    if not low.strip().isdigit() or not high.strip().isdigit() \
            or not least <= int(low) <= int(high):
        raise TrailkitError(f"{option} {text}: write MIN..MAX, whole numbers with "
                            f"{least} <= MIN <= MAX (e.g. {least + 2}..{least + 10})")
    return int(low), int(high)


def layout_field(layout: str | None, shapes: Sequence[str] = ("hex", "grid")) -> Field:
    """The field ``layout`` names (``SHAPE:ROWS,COLS``, one of ``shapes``); a bad value is
    refused naming the option and the forms to write."""
    makers = {"hex": hex_field, "grid": grid_field}
    shape, _, size = (layout or "").partition(":")
    rows, _, cols = size.partition(",")
    try:
        if shape not in shapes or not rows.strip().isdigit() or not cols.strip().isdigit():
            forms = " or ".join(f"{s}:ROWS,COLS" for s in shapes)
            raise ValueError(f"cannot read {layout!r}: write {forms} (e.g. {shapes[0]}:"
                             f"{'5,8' if shapes[0] == 'hex' else '3,4'})")
        return makers[shape](int(rows), int(cols))
    except ValueError as exc:
        raise TrailkitError(f"--layout/--from: {exc}") from None


def board_size(text: str) -> tuple[int, int]:
    """``COLSxROWS`` read and checked: at least 3 cells (a shorter path has nothing to
    find), at most the spec language's limit; else exit 2 with what to write."""
    cols, x, rows = text.lower().partition("x")
    if not x or not cols.strip().isdigit() or not rows.strip().isdigit():
        raise TrailkitError(f"--board {text}: write COLSxROWS, e.g. 9x9")
    c, r = int(cols), int(rows)
    if c < 1 or r < 1 or not 3 <= c * r <= MAX_BOARD_CELLS:
        raise TrailkitError(f"--board {text}: a board of 3 to {MAX_BOARD_CELLS:,} cells, "
                            "each side at least 1 (e.g. 9x9)")
    return c, r


def tour_ask(board: str, moves: str, givens: str | None, *, unique: bool = False,
             symmetric: bool = False) -> tuple[TourAsk, str]:
    """A tour design's request (``--board``, ``--moves``, ``--givens``, ``--unique``,
    ``--symmetric``) read and checked, and the command line that makes it again."""
    from trailkit.solvers.tools.design.tour_design import TourAsk

    cols, rows = board_size(board)
    if moves not in TOUR_MOVES:
        raise TrailkitError(f"--moves {moves}: one of {', '.join(TOUR_MOVES)}"
                            f"{did_you_mean(moves, TOUR_MOVES)}")
    span = parse_range("--givens", givens, least=0)
    if span is not None and span[0] > cols * rows:
        raise TrailkitError(f"--givens {givens}: the board has only {cols * rows} "
                            f"cells; give MIN..MAX up to {cols * rows}")
    asked = [f"--board {cols}x{rows} --moves {moves}"]
    asked += [f"--givens {span[0]}..{span[1]}"] if span else []
    asked += [flag for flag, on in (("--unique", unique), ("--symmetric", symmetric)) if on]
    return (TourAsk(cols, rows, moves, span, unique, symmetric),
            f"trailkit design tour {' '.join(asked)}")
