"""What every part of the store shares: the write transaction, the clock, JSON
columns, and reading a match's row and hands."""
from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlite_utils import Database

from ..engine import Match
from .errors import AlreadySaved, LimitReached, NotFound, StaleVersion

MAX_HANDS = 1000  # hands one match can hold
MAX_LOG = 5000  # changes one match's log keeps: every save, edit, undo and note change is one
KEEP_DELETED_DAYS = 30


@contextmanager
def writing(db: Database) -> Iterator[Database]:
    """One write transaction that takes SQLite's write lock when it begins (BEGIN
    IMMEDIATE). A transaction that began as a read cannot wait for the lock when
    another write holds it: it fails at once with "database is locked". Begun as a
    writer, it waits its turn (busy_timeout), so concurrent starts and saves queue."""
    db.execute("BEGIN IMMEDIATE")
    try:
        with db.atomic():  # a savepoint inside: the whole write rolls back on any error
            yield db
    except BaseException:
        if db.conn.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def today() -> str:
    return datetime.date.today().isoformat()


def dumps(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def match_key(match_id: int) -> int:
    """A match id SQLite can hold; any other number is no match (never an error)."""
    if not (isinstance(match_id, int) and 0 < match_id < 2**63):
        raise NotFound(f"no match {match_id}")
    return match_id


def match_row(db: Database, match_id: int, deleted: bool = False) -> dict[str, Any]:
    """The match's row; a deleted match is no match (NotFound) unless ``deleted``."""
    # plain execute: sqlite-utils' query wraps every read in a savepoint of its own
    cursor = db.execute("select * from matches where id = ?", [match_key(match_id)])
    found = cursor.fetchone()
    row = None if found is None else dict(zip((c[0] for c in cursor.description), found))
    if row is None or (row.get("deleted_at") and not deleted):
        raise NotFound(f"no match {match_id}")
    return row


def stored_hands(db: Database, match_id: int) -> list[dict[str, Any]]:
    # read on every request of a match, once per hand: plain rows, no dict per row
    return [json.loads(data) for (data,) in
            db.execute("select data from hands where match_id = ? order by position", [match_id]).fetchall()]


def to_match(row: dict[str, Any], hands: list[dict[str, Any]]) -> Match:
    return Match(
        game=row["game"],
        players=json.loads(row["players"]),
        settings=json.loads(row["settings"]),
        first_dealer=row["first_dealer"],
        hands=hands,
        date=row["date"],
        note=row["note"],
    )


def lock(db: Database, match_id: int, expected_version: int | None,
         request_key: str | None = None) -> dict[str, Any]:
    """Inside a transaction: take the write lock by bumping the version first,
    then refuse a form already saved (its request key is in the audit log),
    then check the version the caller's form was based on."""
    cursor = db.execute("update matches set version = version + 1, updated_at = ? where id = ?",
                        [now(), match_key(match_id)])
    if cursor.rowcount == 0:
        raise NotFound(f"no match {match_id}")
    if request_key:
        done = db.execute("select action, hand, version from audit where match_id = ? and request_key = ?",
                          [match_id, request_key]).fetchone()
        if done is not None:
            raise AlreadySaved(*done)  # rolls back the version bump
    row = match_row(db, match_id)
    if expected_version is not None and row["version"] - 1 != expected_version:
        raise StaleVersion(expected_version, row["version"] - 1)
    logged = db.execute("select count(*) from audit where match_id = ?", [match_id]).fetchone()[0]
    if logged >= MAX_LOG:  # nothing a scorer does may fill the disk
        raise LimitReached([f"this match's log holds {MAX_LOG:,} changes, the most one match keeps: "
                            "export it and start a new match to go on"])
    return row


def audit(db: Database, match_id: int, action: str, hand: int | None, before: Any, after: Any,
          totals_before: Any, totals_after: Any, version: int, request_key: str | None = None) -> None:
    db.execute("insert into audit (match_id, at, action, hand, before, after, totals_before, totals_after, "
               "version, request_key) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
               [match_id, now(), action, hand, dumps(before), dumps(after), dumps(totals_before),
                dumps(totals_after), version, request_key or None])
