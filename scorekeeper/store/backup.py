"""A consistent copy of the live database (``scorekeeper backup``)."""
from __future__ import annotations

import os
import sqlite3


def backup(source_path: str, target_path: str) -> None:
    """A consistent copy of the database at ``source_path`` (even while the
    server writes to it), with SQLite's online backup API. Written to a
    temporary file first, so ``target_path`` is never a half-made copy, and
    nothing is left behind when it fails (neither that file nor SQLite's journal of it).
    Copying onto the database itself (or its -wal/-shm files) is refused: it would take
    the live file out of WAL mode."""
    if not os.path.exists(source_path):
        raise FileNotFoundError(source_path)
    live = os.path.realpath(source_path)
    if os.path.realpath(target_path) in (live, live + "-wal", live + "-shm"):
        raise ValueError(f"{target_path} is the database being backed up; choose another file")
    temporary = f"{target_path}.partial"
    try:
        source = sqlite3.connect(source_path, timeout=5)
        try:
            target = sqlite3.connect(temporary)
            try:
                source.backup(target)
                problem = target.execute("PRAGMA integrity_check").fetchone()[0]
                # a single-file copy: leave WAL mode so the backup is one self-contained file
                target.execute("PRAGMA journal_mode = DELETE")
            finally:
                target.close()
        finally:
            source.close()
        if problem != "ok":
            raise sqlite3.DatabaseError(f"the copy failed its integrity check: {problem}")
        os.replace(temporary, target_path)
    finally:
        # the half-made copy, and what SQLite keeps beside it: a failure mid-copy (a full
        # disk) leaves its rollback journal (and a copy in WAL mode its -wal and -shm)
        for leftover in (temporary, f"{temporary}-journal", f"{temporary}-wal", f"{temporary}-shm"):
            if os.path.exists(leftover):
                os.remove(leftover)

