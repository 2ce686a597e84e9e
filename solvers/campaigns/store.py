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
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from trailkit.models.errors import TrailkitError

__all__ = ["COLUMNS", "KEY", "Store", "open_store"]

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
)
#: The columns that name a run: one row per key.
KEY = ("spec_sha256", "backend", "options", "repeat")
#: Seconds a writer waits for another one's transaction before giving up.
BUSY_TIMEOUT_S = 60.0
SCHEMA_VERSION = "1"


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
        names = [c for c in self.columns if c in row]
        marks = ", ".join("?" for _ in names)
        sql = f"INSERT OR IGNORE INTO runs ({_quoted(names)}) VALUES ({marks})"
        if replace:
            updates = ", ".join(f'"{c}" = excluded."{c}"' for c in names if c not in KEY)
            sql = (f"INSERT INTO runs ({_quoted(names)}) VALUES ({marks}) "
                   f"ON CONFLICT ({_quoted(KEY)}) DO UPDATE SET {updates}")
        cursor = self._db.execute(sql, [row[c] for c in names])
        return cursor.rowcount > 0

    def statuses(self) -> dict[tuple[str, str, str, int], str]:
        """The status of every stored run, by key."""
        cursor = self._db.execute(f"SELECT {_quoted(KEY)}, status FROM runs")
        return {(sha, backend, options, repeat): status
                for sha, backend, options, repeat, status in cursor}

    def rows(self) -> list[dict[str, Any]]:
        """Every stored run as a dict of its columns (in the order they were written)."""
        cursor = self._db.execute("SELECT * FROM runs ORDER BY rowid")
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, values, strict=True)) for values in cursor]

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


def open_store(path: str | Path, *, create: bool = True) -> Store:
    """Open (``create``: or make) the campaign file at ``path``: WAL, a busy timeout, the
    ``runs`` table with its unique key, the columns this version writes."""
    target = Path(path)
    if not create and not target.is_file():
        raise TrailkitError(f"{path}: no such campaign file (write one with "
                            "'trailkit compare SPECS --db FILE.sqlite')")
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
        raise TrailkitError(f"{path}: not a trailkit campaign file ({exc}); name a file "
                            "that 'trailkit compare --db' wrote, or a new one") from None
    return Store(path, db)


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
        db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
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
    missing = [c for c in ("spec", "backend", "status", "wall_s") if c not in have]
    if missing:
        raise TrailkitError(f"{path}: not a trailkit campaign file (no table 'runs' with "
                            f"the columns {', '.join(missing)})")
