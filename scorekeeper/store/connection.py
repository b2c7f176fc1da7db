"""Opening the database: the schema brought up to date, then the derived rows."""
from __future__ import annotations

from sqlite_utils import Database

from .derived import refresh_stale
from .schema import migrations


def connect(path: str, migrate: bool = True) -> Database:
    """Open (creating if needed) the database and, unless ``migrate`` is False
    (the schema was brought up to date at start-up), bring its schema up to date and
    rebuild the derived rows that are missing or stale (``derived.refresh_stale``).
    WAL mode (readers never block the writer) with ``synchronous = FULL``: a
    commit is on disk before the save is acknowledged."""
    db = Database(str(path))
    db.execute("PRAGMA busy_timeout = 5000")
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA synchronous = FULL")
    if migrate:
        if db.journal_mode != "wal":
            db.enable_wal()
        migrations.apply(db)
        refresh_stale(db)
    return db
