"""The campaign file: one SQLite database (standard library ``sqlite3``, WAL) with a table
``runs`` of one row per finished run (CONTRACT 1.2 §5) and a table ``meta``.

A run's key is (``spec_sha256``, ``backend``, ``options``, ``repeat``), held by a unique
index: a row is written the moment its run ends, in its own transaction, with
``INSERT OR IGNORE`` (two campaigns writing one file at once keep the first row of a key
and duplicate nothing) or, when a run is redone on purpose (``--rerun``), with an upsert
that replaces the old row. WAL lets readers go on while a campaign writes; the busy
timeout lets two writers wait for each other instead of failing.

A file written by another trailkit version is read as it is: columns this version does
not know are kept, columns it misses are added (``NULL`` in the old rows).

trailkit writes only into a file it made, and reports only from a sound one
(:func:`open_store` looks before anything is written). Its own: a new or empty file, a
database whose table ``meta`` says ``application = trailkit-campaign``, and, adopted as
they are, files of older trailkit versions (a table ``runs`` with the contract's key
columns and no table but ``meta`` beside it; the first write adds the ``meta`` rows).
Anything else is refused, saying what it is: not SQLite at all, another application's
database (its tables named), or a table ``runs`` that is not trailkit's. A damaged
campaign file (``PRAGMA integrity_check``, a partial last page, a value that cannot be
read, or a row that no longer matches the checksum written with it, ``row_sha256``) is
refused too, naming the damage, and never written.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Required, TypedDict, cast
from urllib.parse import quote

from trailkit.models.errors import TrailkitError
from trailkit.solvers.support.files import nearly_full, no_space

__all__ = ["APPLICATION", "COLUMNS", "KEY", "RunRow", "Store", "check_campaign_file", "damaged",
           "open_store", "row_checksum"]

#: The columns of ``runs`` (name, SQL type): the contract's first, then trailkit's own.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("spec", "TEXT NOT NULL"), ("spec_sha256", "TEXT NOT NULL"), ("backend", "TEXT NOT NULL"),
    ("options", "TEXT NOT NULL"), ("repeat", "INTEGER NOT NULL"), ("status", "TEXT NOT NULL"),
    ("wall_s", "REAL"), ("cpu_s", "REAL"), ("peak_mb", "REAL"), ("decided_by", "TEXT"),
    ("length", "INTEGER"), ("optimal", "INTEGER"), ("certificate", "TEXT"), ("host", "TEXT"),
    ("started_at", "TEXT"), ("trailkit_version", "TEXT"),
    # more than the contract asks: why a run ended, what it ran on
    ("solve_s", "REAL"), ("time_limit_s", "REAL"), ("limit_hit", "TEXT"), ("detail", "TEXT"),
    ("encoding", "TEXT"), ("certificate_checked", "INTEGER"), ("worker", "TEXT"),
    ("ortools_version", "TEXT"), ("pysat_version", "TEXT"), ("python_version", "TEXT"),
    ("cpu_model", "TEXT"),
    # the SHA-256 of the row's other values, written with it: damage inside a value shows
    ("row_sha256", "TEXT"),
)


class RunRow(TypedDict, total=False):
    """A row of ``runs``: one finished run, by column (the names and order of
    :data:`COLUMNS`; ``tests/solvers/campaigns/test_campaigns.py`` keeps the two in step). SQLite
    keeps
    ``optimal`` and ``certificate_checked`` as 0 or 1. A row read from a file another
    trailkit version wrote may hold more columns than these."""

    spec: Required[str]
    spec_sha256: Required[str]
    backend: Required[str]
    options: Required[str]
    repeat: Required[int]
    status: Required[str]
    wall_s: float | None
    cpu_s: float | None
    peak_mb: float | None
    decided_by: str | None
    length: int | None
    optimal: int | None
    certificate: str | None
    host: str | None
    started_at: str | None
    trailkit_version: str | None
    solve_s: float | None
    time_limit_s: float | None
    limit_hit: str | None
    detail: str | None
    encoding: str | None
    certificate_checked: int | None
    worker: str | None
    ortools_version: str | None
    pysat_version: str | None
    python_version: str | None
    cpu_model: str | None
    row_sha256: str | None


#: The columns that name a run: one row per key.
KEY = ("spec_sha256", "backend", "options", "repeat")
#: Seconds a writer waits for another one's transaction before giving up.
BUSY_TIMEOUT_S = 60.0
SCHEMA_VERSION = "1"
#: What ``meta``'s ``application`` says in a file trailkit made.
APPLICATION = "trailkit-campaign"
#: The first bytes of every SQLite database file.
MAGIC = b"SQLite format 3\x00"
#: The columns a table ``runs`` must have to be trailkit's (an older version's too).
OWN_COLUMNS = ("spec", "spec_sha256", "backend", "options", "repeat", "status")


class Store:
    """An open campaign file: write finished runs, read the keys and rows back."""

    def __init__(self, path: str | Path, connection: sqlite3.Connection) -> None:
        self.path = str(path)
        self._db = connection
        self.columns = [row[1] for row in self._db.execute("PRAGMA table_info(runs)")]

    def close(self) -> None:
        """Close the file (every row is already committed)."""
        self._db.close()

    def write(self, row: Mapping[str, Any], *, replace: bool = False) -> bool:
        """Write one finished run in its own transaction; returns whether it was stored
        (``False``: another campaign stored that key first, and its row is kept).
        ``replace``: a run redone on purpose replaces the row of its key."""
        names = [c for c in self.columns if c in row and c != "row_sha256"]
        marks = ", ".join("?" for _ in names)
        sql = f"INSERT OR IGNORE INTO runs ({_quoted(names)}) VALUES ({marks})"
        if replace:
            updates = ", ".join(f'"{c}" = excluded."{c}"' for c in names if c not in KEY)
            sql = (f"INSERT INTO runs ({_quoted(names)}) VALUES ({marks}) "
                   f"ON CONFLICT ({_quoted(KEY)}) DO UPDATE SET {updates}")
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                stored = self._db.execute(sql, [row[c] for c in names]).rowcount > 0
                if stored and "row_sha256" in self.columns:
                    self._seal([row[c] for c in KEY])
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if _full(exc, self.path):
                raise no_space(self.path, "this run was not written (the runs before it "
                               "are kept, and the same command goes on from them once "
                               "there is room)") from None
            raise
        return stored

    def _seal(self, key: list[Any]) -> None:
        """Write the checksum of the row of ``key`` as SQLite stores it (its types as read
        back, so that reading it again gives the same sum)."""
        where = " AND ".join(f'"{c}" = ?' for c in KEY)
        cursor = self._db.execute(f"SELECT rowid, * FROM runs WHERE {where}", key)
        names = [d[0] for d in cursor.description][1:]
        rowid, *values = cursor.fetchone()
        self._db.execute("UPDATE runs SET row_sha256 = ? WHERE rowid = ?",
                         (row_checksum(dict(zip(names, values, strict=True))), rowid))

    def statuses(self) -> dict[tuple[str, str, str, int], str]:
        """The status of every stored run, by key."""
        cursor = self._db.execute(f"SELECT {_quoted(KEY)}, status FROM runs")
        return {(sha, backend, options, repeat): status
                for sha, backend, options, repeat, status in cursor}

    def rows(self) -> list[RunRow]:
        """Every stored run as a dict of its columns (in the order they were written);
        :class:`TrailkitError` naming the damage when a value cannot be read or a row no
        longer matches its checksum."""
        try:
            cursor = self._db.execute("SELECT rowid, * FROM runs ORDER BY rowid")
            names = [d[0] for d in cursor.description][1:]
            found = [(rowid, dict(zip(names, values, strict=True)))
                     for rowid, *values in cursor]
        except sqlite3.DatabaseError as exc:  # its text may hold the damaged bytes
            raise damaged(self.path, "a value cannot be read ("
                          f"{str(exc).split(' with text ')[0][:120]!s})") from None
        for rowid, row in found:
            stored = row.get("row_sha256")
            if stored is not None and stored != row_checksum(row):
                raise damaged(self.path, f"row {rowid} of table runs no longer matches the "
                              "checksum written with it (row_sha256)")
        return [cast(RunRow, row) for _, row in found]  # the columns of COLUMNS, and more

    def versions(self) -> list[str]:
        """The trailkit versions that wrote the stored runs."""
        cursor = self._db.execute("SELECT DISTINCT trailkit_version FROM runs "
                                  "WHERE trailkit_version IS NOT NULL ORDER BY 1")
        return [v for (v,) in cursor]

    def integrity(self) -> str:
        """``PRAGMA integrity_check``: ``ok`` for a sound file."""
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])


def _quoted(names: Iterable[str]) -> str:
    return ", ".join(f'"{n}"' for n in names)


def row_checksum(row: Mapping[str, Any]) -> str:
    """SHA-256 of a row's values as SQLite gives them back, other than ``NULL`` and the
    checksum itself, as JSON with sorted keys."""
    kept = {c: v for c, v in row.items() if v is not None and c != "row_sha256"}
    text = json.dumps(kept, sort_keys=True, separators=(",", ":"), default=bytes.hex)
    return hashlib.sha256(text.encode()).hexdigest()


def damaged(path: str | Path, what: str) -> TrailkitError:
    """The error for a damaged campaign file: what is wrong, and that it is left alone."""
    return TrailkitError(f"{path}: the campaign file is damaged: {what}; trailkit neither "
                         "reports from it nor writes to it (it is left as it is): restore "
                         "it from a copy, or name a new file")


def open_store(path: str | Path, *, create: bool = True) -> Store:
    """Open (``create``: or make) the campaign file at ``path``: WAL, a busy timeout, the
    ``runs`` table with its unique key, the columns this version writes.

    A file that is not trailkit's, or is damaged, is refused (:class:`TrailkitError`,
    saying what it is) before anything is written to it: see the module's docstring."""
    target = Path(path)
    if not create and not target.is_file():
        raise TrailkitError(f"{path}: no such campaign file (write one with "
                            "'trailkit compare SPECS --db FILE.sqlite')")
    if str(path) == ":memory:":
        return Store(path, _connect(target, create=create, path=path))
    check_campaign_file(target)
    new = not target.exists()
    with _left_as_found(target, whole=new):
        return Store(path, _connect(target, create=create, path=path))


def _connect(target: Path, *, create: bool, path: str | Path) -> sqlite3.Connection:
    """The connection :func:`open_store` opens (``create``: the tables made)."""
    db = None
    try:
        # autocommit: each INSERT is its own transaction, committed when it returns
        db = sqlite3.connect(target, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                             check_same_thread=False)
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        if create:
            _prepare(db)
        else:
            _check_runs(db, path)
    except sqlite3.DatabaseError as exc:
        if db is not None:
            db.close()
        if isinstance(exc, sqlite3.OperationalError) and _full(exc, target):
            raise no_space(path) from None
        raise TrailkitError(f"{path}: not a trailkit campaign file ({exc}); name a file "
                            "that 'trailkit compare --db' wrote, or a new one") from None
    return db


def _full(exc: sqlite3.OperationalError, path: str | Path) -> bool:
    """Whether SQLite's ``exc`` met a full disk: ``SQLITE_FULL``, or an I/O error (as
    making the shared-memory file of WAL gives) on a disk with next to no room left."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    return code == sqlite3.SQLITE_FULL or (code == sqlite3.SQLITE_IOERR and nearly_full(path))


@contextlib.contextmanager
def _left_as_found(path: Path, *, whole: bool) -> Iterator[None]:
    """On a full disk (:class:`TrailkitError` raised inside), remove what opening
    ``path`` made: its WAL and shared-memory files where they were not there before and
    the WAL holds nothing, and (``whole``: the file is new) the file itself."""
    wal = path.with_name(path.name + "-wal")
    made = [p for p in (wal, path.with_name(path.name + "-shm")) if not p.exists()]
    try:
        yield
    except TrailkitError as exc:
        empty = wal not in made or not wal.exists() or wal.stat().st_size == 0
        if "no space left on device" in str(exc) and empty:
            for leftover in made + [path] * whole:
                leftover.unlink(missing_ok=True)
        raise


def check_campaign_file(path: Path) -> None:
    """Raise :class:`TrailkitError` unless ``path`` is missing, empty, or a sound campaign
    file of trailkit's; reads only (a read-only connection), so nothing is changed."""
    if not path.is_file() or path.stat().st_size == 0:
        return  # new, empty, or not a file at all (opening it says why)
    with path.open("rb") as file:
        head = file.read(100)
    if not head.startswith(MAGIC):
        raise _not_ours(path, f"is not an SQLite database at all ({_looks_like(head)})")
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    size = path.stat().st_size
    if page < 512 or size % page:
        raise damaged(path, f"its size ({size:,} bytes) is not a whole number of its "
                      f"{page}-byte pages")
    try:
        with _left_as_found(path, whole=False):
            tables, meta, checked = _looked(path)
    except sqlite3.OperationalError as exc:
        if _locked(exc):
            raise TrailkitError(f"{path}: another program holds the file locked ({exc}); "
                                "try again when it is done") from None
        raise damaged(path, f"SQLite cannot read it ({exc})") from None
    except sqlite3.DatabaseError as exc:
        raise damaged(path, f"SQLite cannot read it ({exc})") from None
    foreign = _whose(tables, meta)
    if foreign is not None:
        raise _not_ours(path, foreign)
    if checked != ["ok"]:
        raise damaged(path, "PRAGMA integrity_check says "
                      + "; ".join(" ".join(line.split()) for line in checked))


def _looked(path: Path) -> tuple[dict[str, list[str]], dict[str, Any], list[str]]:
    """:func:`_look`, a full disk said as such (the file itself is left as it is)."""
    try:
        return _look(path)
    except sqlite3.OperationalError as exc:
        if _full(exc, path):
            raise no_space(path, "nothing was written, and the campaign file is left as "
                           "it is") from None
        raise


def _locked(exc: sqlite3.OperationalError) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


def _look(path: Path) -> tuple[dict[str, list[str]], dict[str, Any], list[str]]:
    """The file's tables with their columns, its ``meta`` rows and what ``PRAGMA
    integrity_check`` says, read over a read-only connection (a campaign creating the file
    at this moment is waited for, within the busy timeout)."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    while True:
        db = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S)
        try:
            tables = {name: [row[1] for row in db.execute(f'PRAGMA table_info("{name}")')]
                      for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type "
                                                "= 'table' AND name NOT LIKE 'sqlite_%'")}
            meta = (dict(db.execute("SELECT key, value FROM meta"))
                    if {"key", "value"} <= set(tables.get("meta", [])) else {})
            if _whose(tables, meta) is not None:
                return tables, meta, ["ok"]  # not trailkit's: refused without more reading
            return tables, meta, [str(row[0]) for row in db.execute(
                "PRAGMA integrity_check(5)")]
        except sqlite3.OperationalError as exc:
            if not _locked(exc) or time.monotonic() > deadline:
                raise
        finally:
            db.close()
        time.sleep(0.01)


def _whose(tables: Mapping[str, list[str]], meta: Mapping[str, Any]) -> str | None:
    """What the database holding ``tables`` is when it is not trailkit's (``None``: ours,
    or empty)."""
    if not tables or meta.get("application") == APPLICATION:
        return None
    others = sorted(set(tables) - {"runs", "meta"})
    if others:
        return (f"is another application's SQLite database (its tables: "
                f"{', '.join(sorted(tables))})")
    if "runs" not in tables:
        return "is an SQLite database whose only table, meta, is not trailkit's"
    missing = [c for c in OWN_COLUMNS if c not in tables["runs"]]
    if missing:
        return (f"is an SQLite database whose table runs is not trailkit's (it has no "
                f"column {', '.join(missing)})")
    if "meta" in tables and meta.get("application") not in (None, APPLICATION):
        return f"is a database of the application {meta['application']!r}"
    return None  # trailkit's, from a version before meta said so: adopted


def _looks_like(head: bytes) -> str:
    """A few words on what a file that is not SQLite holds, from its first bytes."""
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        text = ""
    if text and all(c.isprintable() or c in "\t\r\n" for c in text):
        return f"it begins as text: {text[:30]!r}"
    return f"it begins with the bytes {head[:8].hex(' ')}"


def _not_ours(path: Path, what: str) -> TrailkitError:
    return TrailkitError(f"{path} {what}: not a trailkit campaign file, so trailkit neither "
                         "reads nor writes it (it writes only into a campaign file it made, "
                         "or a new or empty file): name another file")


def _prepare(db: sqlite3.Connection) -> None:
    """WAL mode, the tables, the unique key and any column this version adds."""
    _use_wal(db)
    db.execute("PRAGMA synchronous = NORMAL")  # WAL: a power cut may lose the last rows only
    db.execute("BEGIN IMMEDIATE")  # two campaigns creating one file take turns
    try:
        columns = ", ".join(f'"{name}" {kind}' for name, kind in COLUMNS)
        db.execute(f"CREATE TABLE IF NOT EXISTS runs ({columns})")
        db.execute(f"CREATE UNIQUE INDEX IF NOT EXISTS runs_key ON runs ({_quoted(KEY)})")
        db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
        db.execute("INSERT OR IGNORE INTO meta VALUES ('application', ?)", (APPLICATION,))
        db.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)",
                   (SCHEMA_VERSION,))
        have = {row[1] for row in db.execute("PRAGMA table_info(runs)")}
        for name, kind in COLUMNS:
            if name not in have:  # written by an older trailkit: NULL in its rows
                db.execute(f'ALTER TABLE runs ADD COLUMN "{name}" '
                           f'{kind.replace(" NOT NULL", "")}')
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _use_wal(db: sqlite3.Connection) -> None:
    """Switch the file to WAL. SQLite does not call the busy handler for this switch, so
    a campaign that opens a new file while another one is switching it would fail at once
    with "database is locked": it retries here, within the same busy timeout."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    pause = 0.001
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(2 * pause, 0.1)


def _check_runs(db: sqlite3.Connection, path: str | Path) -> None:
    have = {row[1] for row in db.execute("PRAGMA table_info(runs)")}
    if not have:
        raise TrailkitError(f"{path}: no runs yet (an empty file; write some with "
                            "'trailkit compare SPECS --db FILE.sqlite')")
    missing = [c for c in ("spec", "backend", "status", "wall_s") if c not in have]
    if missing:
        raise TrailkitError(f"{path}: not a trailkit campaign file (no table 'runs' with "
                            f"the columns {', '.join(missing)})")
