"""The match database: the ONLY module that touches SQLite.

Hands are stored as the raw inputs the user entered (exactly as the match file
stores them); scores are never stored except as audit snapshots, and always come
from ``engine.replay``. Every write runs in one transaction and re-validates the
whole match through the engine before it commits, so nothing invalid or
half-saved is ever stored. Each write bumps the match's ``version``.
"""
from __future__ import annotations

import datetime
import json
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from .engine import Match, MatchError, MatchResult, replay
from .matchfile import date_problems, note_problems

migrations = Migrations("scorekeeper")


@migrations()
def m001_initial(db: Database) -> None:
    db["matches"].create(
        {
            "id": int,
            "game": str,
            "players": str,  # JSON list of names, seat order
            "settings": str,  # JSON object: every setting in force
            "first_dealer": int,
            "date": str,
            "note": str,
            "created_at": str,
            "updated_at": str,
            "version": int,
        },
        pk="id",
        not_null={"game", "players", "settings", "first_dealer", "created_at", "updated_at", "version"},
        defaults={"version": 1},
    )
    db["hands"].create(
        {"match_id": int, "position": int, "data": str},
        pk=("match_id", "position"),
        foreign_keys=[("match_id", "matches", "id")],
        not_null={"data"},
    )
    db["audit"].create(
        {
            "id": int,
            "match_id": int,
            "at": str,
            "action": str,  # create / save / edit / undo / import / details
            "hand": int,
            "before": str,  # JSON hand input (or null)
            "after": str,
            "totals_before": str,  # JSON list (or null)
            "totals_after": str,
            "version": int,
        },
        pk="id",
        foreign_keys=[("match_id", "matches", "id")],
    )
    db["audit"].create_index(["match_id", "id"])


class NotFound(LookupError):
    """No match (or hand) with that id."""


class StaleVersion(Exception):
    """The write was based on an older version of the match."""

    def __init__(self, expected: int, current: int):
        super().__init__(f"the match changed since version {expected} (now {current})")
        self.expected = expected
        self.current = current


def connect(path: str) -> Database:
    """Open (creating if needed) the database and bring its schema up to date."""
    db = Database(str(path))
    db.execute("PRAGMA busy_timeout = 5000")
    db.execute("PRAGMA foreign_keys = ON")
    if db.journal_mode != "wal":
        db.enable_wal()
    migrations.apply(db)
    return db


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def today() -> str:
    return datetime.date.today().isoformat()


def _dumps(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


# --- reading -----------------------------------------------------------------

def _row(db: Database, match_id: int) -> dict:
    rows = list(db.query("select * from matches where id = ?", [match_id]))
    if not rows:
        raise NotFound(f"no match {match_id}")
    return rows[0]


def _hands(db: Database, match_id: int) -> list[dict]:
    return [json.loads(r["data"]) for r in
            db.query("select data from hands where match_id = ? order by position", [match_id])]


def _to_match(row: dict, hands: list[dict]) -> Match:
    return Match(
        game=row["game"],
        players=json.loads(row["players"]),
        settings=json.loads(row["settings"]),
        first_dealer=row["first_dealer"],
        hands=hands,
        date=row["date"],
        note=row["note"],
    )


def get_match(db: Database, match_id: int) -> Match:
    """The match as recorded; raises NotFound."""
    return _to_match(_row(db, match_id), _hands(db, match_id))


def get_info(db: Database, match_id: int) -> dict:
    """The match row as a plain dict (id, game, players, settings, first_dealer,
    date, note, created_at, updated_at, version) plus ``match`` (an engine Match)."""
    row = _row(db, match_id)
    hands = _hands(db, match_id)
    info = dict(row)
    info["players"] = json.loads(row["players"])
    info["settings"] = json.loads(row["settings"])
    info["match"] = _to_match(row, hands)
    return info


def list_matches(db: Database) -> list[dict]:
    """Every match with its replayed result: in progress first, then finished,
    newest first within each. A match that no longer replays (it cannot happen
    through this module) is listed with ``result`` None and ``error`` set."""
    out = []
    for row in db.query("select * from matches order by coalesce(date, '') desc, id desc"):
        info = dict(row)
        info["players"] = json.loads(row["players"])
        info["settings"] = json.loads(row["settings"])
        match = _to_match(row, _hands(db, row["id"]))
        info["match"] = match
        info["hand_count"] = len(match.hands)
        try:
            info["result"] = replay(match)
            info["error"] = None
        except MatchError as error:
            info["result"] = None
            info["error"] = error.problems
        out.append(info)
    out.sort(key=lambda m: bool(m["result"] and m["result"].finished))  # stable: keeps newest first
    return out


def audit_log(db: Database, match_id: int) -> list[dict]:
    """The match's audit entries, oldest first, JSON decoded."""
    _row(db, match_id)
    entries = []
    for row in db.query("select * from audit where match_id = ? order by id", [match_id]):
        entry = dict(row)
        for key in ("before", "after", "totals_before", "totals_after"):
            entry[key] = _loads(entry[key])
        entries.append(entry)
    return entries


# --- writing -----------------------------------------------------------------

def _lock(db: Database, match_id: int, expected_version: int | None) -> dict:
    """Inside a transaction: take the write lock by bumping the version first,
    then check the version the caller's form was based on."""
    cursor = db.execute("update matches set version = version + 1, updated_at = ? where id = ?",
                        [now(), match_id])
    if cursor.rowcount == 0:
        raise NotFound(f"no match {match_id}")
    row = _row(db, match_id)
    if expected_version is not None and row["version"] - 1 != expected_version:
        raise StaleVersion(expected_version, row["version"] - 1)
    return row


def _write_hands(db: Database, match_id: int, hands: list[dict]) -> None:
    db.execute("delete from hands where match_id = ?", [match_id])
    db["hands"].insert_all(
        ({"match_id": match_id, "position": i, "data": json.dumps(h, ensure_ascii=False)}
         for i, h in enumerate(hands, start=1)),
    )


def _audit(db: Database, match_id: int, action: str, hand: int | None, before: Any, after: Any,
           totals_before: Any, totals_after: Any, version: int) -> None:
    db["audit"].insert({
        "match_id": match_id, "at": now(), "action": action, "hand": hand,
        "before": _dumps(before), "after": _dumps(after),
        "totals_before": _dumps(totals_before), "totals_after": _dumps(totals_after),
        "version": version,
    })


def _check_details(date: str | None, note: str | None) -> None:
    problems = date_problems(date) + note_problems(note)
    if problems:
        raise MatchError(problems)


def create_match(db: Database, match: Match, action: str = "create") -> int:
    """Store a new match (hands included, for an import) and return its id.
    Raises MatchError when the engine refuses it; nothing is stored then."""
    _check_details(match.date, match.note)
    result = replay(match)  # raises before anything is written
    stamp = now()
    with db.atomic():
        table = db["matches"]
        table.insert({
            "game": result.game,
            "players": json.dumps(result.players, ensure_ascii=False),
            "settings": json.dumps(result.settings, ensure_ascii=False),
            "first_dealer": match.first_dealer,
            "date": match.date or today(),
            "note": match.note or None,
            "created_at": stamp,
            "updated_at": stamp,
            "version": 1,
        })
        match_id = table.last_pk
        if match.hands:
            _write_hands(db, match_id, match.hands)
        _audit(db, match_id, action, len(match.hands) or None, None, None, None, result.totals, 1)
    return match_id


def _apply(db: Database, match_id: int, expected_version: int | None, change) -> tuple[MatchResult, MatchResult]:
    """Run ``change(hands) -> (new_hands, action, hand_number, before, after)``
    inside one transaction, validating the new match with the engine before
    committing. Returns (result before, result after)."""
    with db.atomic():
        row = _lock(db, match_id, expected_version)
        hands = _hands(db, match_id)
        old = _to_match(row, hands)
        before = replay(old)
        new_hands, action, number, hand_before, hand_after = change(list(hands))
        new = _to_match(row, new_hands)
        after = replay(new)  # MatchError rolls the whole transaction back
        _write_hands(db, match_id, new_hands)
        _audit(db, match_id, action, number, hand_before, hand_after, before.totals, after.totals, row["version"])
    return before, after


def add_hand(db: Database, match_id: int, hand: dict, expected_version: int | None = None):
    """Record the next hand. Returns (result before, result after)."""
    def change(hands):
        if not isinstance(hand, dict):
            raise MatchError(["hand: must be an object"])
        return hands + [hand], "save", len(hands) + 1, None, hand
    return _apply(db, match_id, expected_version, change)


def edit_hand(db: Database, match_id: int, number: int, hand: dict, expected_version: int | None = None):
    """Replace hand ``number`` (1-based); everything after it is re-scored.
    Refused (MatchError, nothing changed) if the match would not replay."""
    def change(hands):
        if not 1 <= number <= len(hands):
            raise NotFound(f"no hand {number}")
        old = hands[number - 1]
        hands[number - 1] = hand
        return hands, "edit", number, old, hand
    return _apply(db, match_id, expected_version, change)


def undo_last(db: Database, match_id: int, expected_version: int | None = None):
    """Remove the last hand (kept in the audit log)."""
    def change(hands):
        if not hands:
            raise MatchError(["there is no hand to undo"])
        return hands[:-1], "undo", len(hands), hands[-1], None
    return _apply(db, match_id, expected_version, change)


def update_details(db: Database, match_id: int, date: str | None, note: str | None,
                   expected_version: int | None = None) -> None:
    """Change the match's date and note (not scored)."""
    note = (note or "").strip() or None
    _check_details(date, note)
    with db.atomic():
        row = _lock(db, match_id, expected_version)
        db.execute("update matches set date = ?, note = ? where id = ?", [date or row["date"], note, match_id])
        _audit(db, match_id, "details", None,
               {"date": row["date"], "note": row["note"]}, {"date": date or row["date"], "note": note},
               None, None, row["version"])


def import_match(db: Database, match: Match) -> int:
    """Store a whole match read from a match file."""
    return create_match(db, match, action="import")
