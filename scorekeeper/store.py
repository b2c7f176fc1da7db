"""The match database: the ONLY module that touches SQLite.

Hands are stored as the raw inputs the user entered (exactly as the match file
stores them); scores are never stored except as audit snapshots, and always come
from ``engine.replay``. Every write runs in one transaction and re-validates the
whole match through the engine before it commits, so nothing invalid or
half-saved is ever stored. Each write bumps the match's ``version``.
"""
from __future__ import annotations

import datetime
import hashlib
import json
import os
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from .engine import Match, MatchError, MatchResult, replay, same_name
from .engine import keep_dealers as engine_keep_dealers
from .games import GAMES
from .games.base import Table
from .matchfile import date_problems, note_problems

migrations = Migrations("scorekeeper")


@migrations()
def m001_initial(db: Database) -> None:
    db.table("matches").create(
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
    db.table("hands").create(
        {"match_id": int, "position": int, "data": str},
        pk=("match_id", "position"),
        foreign_keys=[("match_id", "matches", "id")],
        not_null={"data"},
    )
    db.table("audit").create(
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
    db.table("audit").create_index(["match_id", "id"])


def new_token() -> str:
    """An unguessable link token: 128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


@migrations()
def m002_share_links_and_request_keys(db: Database) -> None:
    """Scorer and watcher link tokens for every match (existing matches get
    theirs here), and the form key that makes a re-sent form save only once."""
    db.table("matches").add_column("scorer_token", str)
    db.table("matches").add_column("watcher_token", str)
    for (match_id,) in db.execute("select id from matches").fetchall():
        db.execute("update matches set scorer_token = ?, watcher_token = ? where id = ?",
                   [new_token(), new_token(), match_id])
    db.table("matches").create_index(["scorer_token"], unique=True)
    db.table("matches").create_index(["watcher_token"], unique=True)
    db.table("audit").add_column("request_key", str)
    db.table("audit").create_index(["match_id", "request_key"])


def _summary(result: MatchResult, players: list[str]) -> dict:
    """What the history list shows of a match, kept beside it so the list never
    replays a match: hands, finished, winners and totals (the engine's, as of the
    last write), and the players' names folded as the rules compare them (search)."""
    return {
        "hands": len(result.hands),
        "finished": int(bool(result.finished)),
        "winners": json.dumps(list(result.winners or [])) if result.finished else None,
        "totals": json.dumps(list(result.totals)),
        "names": "\x1f".join(same_name(name) for name in players),
    }


@migrations()
def m003_devices_and_summaries(db: Database) -> None:
    """Private by default: the devices that may open a match (each remembered behind
    a long-lived cookie, stored here as a digest) and what each may do there; and a
    summary of every match for the history list, so the list never replays."""
    db.table("devices").create({"id": str, "created_at": str, "seen_at": str}, pk="id", not_null={"created_at"})
    db.table("device_matches").create(
        {"device_id": str, "match_id": int, "score": int, "watch": int, "how": str, "added_at": str},
        pk=("device_id", "match_id"),
        foreign_keys=[("device_id", "devices", "id"), ("match_id", "matches", "id")],
        defaults={"score": 0, "watch": 0},
        not_null={"score", "watch"},
    )
    db.table("device_matches").create_index(["match_id"])
    db.table("summaries").create(
        {"match_id": int, "hands": int, "finished": int, "winners": str, "totals": str, "names": str,
         "imported": int},
        pk="match_id",
        foreign_keys=[("match_id", "matches", "id")],
        defaults={"imported": 0},
    )
    db.table("summaries").create_index(["finished"])
    imported = {row[0] for row in db.execute("select match_id from audit where action = 'import'").fetchall()}
    for row in list(db.query("select * from matches")):
        match = _to_match(row, _hands(db, row["id"]))
        try:
            summary = _summary(replay(match), match.players)
        except MatchError:  # cannot happen through this module; listed, never fatal
            summary = {"hands": len(match.hands), "finished": 0, "winners": None, "totals": None,
                       "names": "\x1f".join(same_name(n) for n in match.players)}
        db.table("summaries").insert({"match_id": row["id"], "imported": int(row["id"] in imported), **summary})


@migrations()
def m004_deleted_matches(db: Database) -> None:
    """A deleted match is kept (and can be restored) for ``KEEP_DELETED_DAYS``: until
    then only its ``deleted_at`` is set, and nothing shows it but its restore button."""
    db.table("matches").add_column("deleted_at", str)


KEEP_DELETED_DAYS = 30


@migrations()
def m005_play_again(db: Database) -> None:
    """Play again: a match started from another remembers it (``previous_id``), so
    each links to the other ("next match" and back)."""
    db.table("matches").add_column("previous_id", int)
    db.table("matches").create_index(["previous_id"])


def _player_rows(match_id: int, match: Match, result: MatchResult) -> list[dict]:
    """What the stats keep of a match, one row per player (so the stats page never
    replays): their place and whether they won (a shared win is a win), and the game's
    per-player facts, each with the hand numbers it counts, from the engine's replay."""
    game = GAMES[result.game]
    table = Table(tuple(result.players), result.settings)
    facts = game.stats.match_facts(table, match.hands, result.hands)
    rows = []
    for seat, name in enumerate(result.players):
        place = 1 + sum(1 for t in result.totals if t > result.totals[seat])
        rows.append({"match_id": match_id, "seat": seat, "name": name, "name_key": same_name(name),
                     "game": result.game, "finished": int(bool(result.finished)),
                     "won": int(bool(result.finished) and seat in result.winners), "place": place,
                     "hands": len(result.hands), "facts": json.dumps(facts[seat], separators=(",", ":")),
                     # the same facts without their hand numbers: all the stats page reads
                     "figures": json.dumps({k: [len(f["n"]), f["p"]] for k, f in facts[seat].items()},
                                           separators=(",", ":"))})
    return rows


def _refresh_players(db: Database, match_id: int, match: Match, result: MatchResult) -> None:
    """Inside a write transaction: the match's stats rows, as of this write."""
    db.execute("delete from match_players where match_id = ?", [match_id])
    db.table("match_players").insert_all(_player_rows(match_id, match, result))


@migrations()
def m006_player_stats(db: Database) -> None:
    """Per-player facts of every match (see ``_player_rows``), for the stats pages."""
    db.table("match_players").create(
        {"match_id": int, "seat": int, "name": str, "name_key": str, "game": str, "finished": int, "won": int,
         "place": int, "hands": int, "facts": str, "figures": str},
        pk=("match_id", "seat"),
        foreign_keys=[("match_id", "matches", "id")],
    )
    db.table("match_players").create_index(["name_key"])
    for row in list(db.query("select * from matches")):
        match = _to_match(row, _hands(db, row["id"]))
        try:
            result = replay(match)
        except MatchError:  # cannot happen through this module; left out of the stats, never fatal
            continue
        _refresh_players(db, row["id"], match, result)


@migrations()
def m007_name_keys_ignore_invisible(db: Database) -> None:
    """Names are now compared ignoring invisible characters (``names.same_name``): the
    folded names kept for the history search and the stats are folded again."""
    for key, name in db.execute("select distinct name_key, name from match_players").fetchall():
        if same_name(name) != key:
            db.execute("update match_players set name_key = ? where name = ?", [same_name(name), name])
    for match_id, players in db.execute("select id, players from matches").fetchall():
        db.execute("update summaries set names = ? where match_id = ?",
                   ["\x1f".join(same_name(n) for n in json.loads(players)), match_id])


MAX_HANDS = 1000  # hands one match can hold
MAX_LOG = 5000  # changes one match's log keeps: every save, edit, undo and note change is one


class NotFound(LookupError):
    """No match (or hand) with that id."""


class StaleVersion(Exception):
    """The write was based on an older version of the match."""

    def __init__(self, expected: int, current: int):
        super().__init__(f"the match changed since version {expected} (now {current})")
        self.expected = expected
        self.current = current


class AlreadySaved(Exception):
    """This exact form (its request key) was already saved: a double tap or a
    re-sent form. Nothing was changed the second time."""

    def __init__(self, action: str, hand: int | None, version: int):
        super().__init__(f"already saved ({action} hand {hand}, version {version})")
        self.action = action
        self.hand = hand
        self.version = version


def connect(path: str, migrate: bool = True) -> Database:
    """Open (creating if needed) the database and, unless ``migrate`` is False
    (the schema was brought up to date at start-up), bring its schema up to date.
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
    return db


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


def backup(source_path: str, target_path: str) -> None:
    """A consistent copy of the database at ``source_path`` (even while the
    server writes to it), with SQLite's online backup API. Written to a
    temporary file first, so ``target_path`` is never a half-made copy, and
    nothing is left behind when it fails. Copying onto the database itself
    (or its -wal/-shm files) is refused: it would take the live file out of WAL mode."""
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
        if os.path.exists(temporary):
            os.remove(temporary)


def now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def today() -> str:
    return datetime.date.today().isoformat()


def _dumps(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


# --- reading -----------------------------------------------------------------

def _match_key(match_id: int) -> int:
    """A match id SQLite can hold; any other number is no match (never an error)."""
    if not (isinstance(match_id, int) and 0 < match_id < 2**63):
        raise NotFound(f"no match {match_id}")
    return match_id


def _row(db: Database, match_id: int, deleted: bool = False) -> dict:
    """The match's row; a deleted match is no match (NotFound) unless ``deleted``."""
    rows = list(db.query("select * from matches where id = ?", [_match_key(match_id)]))
    if not rows or (rows[0].get("deleted_at") and not deleted):
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


def match_ids_on(db: Database, device: str | None, date: str, limit: int = -1) -> list[int]:
    """The ids of the matches dated ``date`` (YYYY-MM-DD) that ``device`` may open, in
    the order they were started, at most ``limit`` (-1: all). One query from the
    device's grants: other devices' matches of that day are never read."""
    return [row[0] for row in db.execute(
        "select m.id from device_matches d join matches m on m.id = d.match_id where d.device_id = ? "
        "and m.date = ? and m.deleted_at is null order by m.id limit ?", [device or "", date, limit]).fetchall()]


def imported_match_ids(db: Database) -> set[int]:
    """The matches that came in from a match file (their audit log starts with "import")."""
    return {row["match_id"] for row in db.query("select match_id from audit where action = 'import'")}


def linked_matches(db: Database, match_id: int) -> dict:
    """The match this one plays again ("previous", or None) and the matches started
    from it with Play again ("next", oldest first)."""
    row = db.execute("select p.id from matches m left join matches p on p.id = m.previous_id "
                     "and p.deleted_at is null where m.id = ?", [_match_key(match_id)]).fetchone()
    if row is None:
        raise NotFound(f"no match {match_id}")
    following = [r[0] for r in db.execute("select id from matches where previous_id = ? and deleted_at is null "
                                          "order by id", [match_id]).fetchall()]
    return {"previous": row[0], "next": following}


def get_version(db: Database, match_id: int) -> int:
    """The match's version alone (one primary-key lookup): what a watcher's
    poll compares. Raises NotFound."""
    row = db.execute("select version from matches where id = ? and deleted_at is null",
                     [_match_key(match_id)]).fetchone()
    if row is None:
        raise NotFound(f"no match {match_id}")
    return row[0]


def get_tokens(db: Database, match_id: int) -> dict:
    """{"scorer_token", "watcher_token"} of a match; raises NotFound."""
    row = db.execute("select scorer_token, watcher_token from matches where id = ? and deleted_at is null",
                     [_match_key(match_id)]).fetchone()
    if row is None:
        raise NotFound(f"no match {match_id}")
    return {"scorer_token": row[0], "watcher_token": row[1]}


def match_for_token(db: Database, kind: str, token: str) -> int:
    """The id of the match whose ``kind`` ("scorer" or "watcher") token this
    is; raises NotFound."""
    column = {"scorer": "scorer_token", "watcher": "watcher_token"}[kind]
    row = db.execute(f"select id from matches where {column} = ? and deleted_at is null", [token]).fetchone()
    if row is None or not token:
        raise NotFound("no match with that link")
    return row[0]


def saved_request(db: Database, match_id: int, request_key: str) -> dict | None:
    """The audit entry a form with this key already saved, if any:
    {"action", "hand", "version"}."""
    row = db.execute("select action, hand, version from audit where match_id = ? and request_key = ?",
                     [match_id, request_key]).fetchone()
    return None if row is None else {"action": row[0], "hand": row[1], "version": row[2]}


def changes_since(db: Database, match_id: int, version: int) -> list[dict]:
    """The audit entries written after ``version`` (what another phone changed
    since a form was opened), oldest first, JSON decoded."""
    entries = []
    for row in db.query("select * from audit where match_id = ? and version > ? order by id",
                        [match_id, version]):
        entry = dict(row)
        for key in ("before", "after", "totals_before", "totals_after"):
            entry[key] = _loads(entry[key])
        entries.append(entry)
    return entries


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

def _lock(db: Database, match_id: int, expected_version: int | None, request_key: str | None = None) -> dict:
    """Inside a transaction: take the write lock by bumping the version first,
    then refuse a form already saved (its request key is in the audit log),
    then check the version the caller's form was based on."""
    cursor = db.execute("update matches set version = version + 1, updated_at = ? where id = ?",
                        [now(), _match_key(match_id)])
    if cursor.rowcount == 0:
        raise NotFound(f"no match {match_id}")
    if request_key:
        done = db.execute("select action, hand, version from audit where match_id = ? and request_key = ?",
                          [match_id, request_key]).fetchone()
        if done is not None:
            raise AlreadySaved(*done)  # rolls back the version bump
    row = _row(db, match_id)
    if expected_version is not None and row["version"] - 1 != expected_version:
        raise StaleVersion(expected_version, row["version"] - 1)
    logged = db.execute("select count(*) from audit where match_id = ?", [match_id]).fetchone()[0]
    if logged >= MAX_LOG:  # nothing a scorer does may fill the disk
        raise MatchError([f"this match's log holds {MAX_LOG:,} changes, the most one match keeps: "
                          "export it and start a new match to go on"])
    return row


def _write_hands(db: Database, match_id: int, hands: list[dict], old: list[dict] | None = None) -> None:
    """Store ``hands`` as the match's hands. Given the ``old`` hands, a save
    (one hand added) or an undo (the last removed) touches one row only."""
    keep = 0
    if old is not None:
        while keep < min(len(old), len(hands)) and old[keep] == hands[keep]:
            keep += 1
    db.execute("delete from hands where match_id = ? and position > ?", [match_id, keep])
    db.table("hands").insert_all(
        ({"match_id": match_id, "position": i, "data": json.dumps(h, ensure_ascii=False)}
         for i, h in enumerate(hands[keep:], start=keep + 1)),
    )


def _audit(db: Database, match_id: int, action: str, hand: int | None, before: Any, after: Any,
           totals_before: Any, totals_after: Any, version: int, request_key: str | None = None) -> None:
    db.table("audit").insert({
        "match_id": match_id, "at": now(), "action": action, "hand": hand,
        "before": _dumps(before), "after": _dumps(after),
        "totals_before": _dumps(totals_before), "totals_after": _dumps(totals_after),
        "version": version, "request_key": request_key or None,
    })


def _too_many_hands(count: int) -> MatchError:
    return MatchError([f"This match has {MAX_HANDS:,} hands, the most one match can hold. "
                       "Start a new match to go on playing."])


def _check_details(date: str | None, note: str | None) -> None:
    problems = date_problems(date) + note_problems(note)
    if problems:
        raise MatchError.of(problems)


def create_match(db: Database, match: Match, action: str = "create", device: str | None = None,
                 previous: int | None = None) -> int:
    """Store a new match (hands included, for an import) and return its id; the
    ``device`` (a digest, see ``device_key``) that started it may score it;
    ``previous``: the match it plays again (see ``linked_matches``).
    Raises MatchError when the engine refuses it; nothing is stored then."""
    _check_details(match.date, match.note)
    if len(match.hands) > MAX_HANDS:
        raise MatchError([f"hands: {len(match.hands):,} hands, but one match can hold at most {MAX_HANDS:,}"])
    result = replay(match)  # raises before anything is written
    stamp = now()
    with writing(db):
        table = db.table("matches")
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
            "scorer_token": new_token(),
            "watcher_token": new_token(),
            "previous_id": _match_key(previous) if previous is not None else None,
        })
        match_id: int = table.last_pk  # type: ignore[assignment]  # a new row: its key is never None
        if match.hands:
            _write_hands(db, match_id, match.hands)
        _audit(db, match_id, action, len(match.hands) or None, None, None, None, result.totals, 1)
        db.table("summaries").insert({"match_id": match_id, "imported": int(action == "import"),
                                      **_summary(result, result.players)})
        _refresh_players(db, match_id, match, result)
        if device:
            _grant(db, device, match_id, score=True, how="imported" if action == "import" else "started")
    return match_id


def _apply(db: Database, match_id: int, expected_version: int | None, change,
           request_key: str | None = None, known: MatchResult | None = None) -> tuple[MatchResult, MatchResult]:
    """Run ``change(hands, match) -> (new_hands, action, hand_number, before, after)``
    (``match``: the stored match) inside one transaction, validating the new match
    with the engine before committing. Returns (result before, result after). A
    ``request_key`` already in the audit log raises AlreadySaved and changes nothing.
    ``known`` is the caller's result of the match at ``expected_version``. A change
    may return a sixth item: more (action, hand_number, before, after) entries for
    the log, one per other hand it changed."""
    with writing(db):
        row = _lock(db, match_id, expected_version, request_key)
        hands = _hands(db, match_id)
        old = _to_match(row, hands)
        # Every write bumps the version, so the hands stored at the version the caller
        # replayed are these very hands: no need to fold them again.
        reuse = (known is not None and expected_version is not None and row["version"] - 1 == expected_version
                 and len(known.hands) == len(hands))
        before = known if reuse and known is not None else replay(old)
        new_hands, action, number, hand_before, hand_after, *more = change(list(hands), old)
        new = _to_match(row, new_hands)
        # A save only extends the match, so the fold goes on from ``before``.
        extends = new_hands[:len(hands)] == hands and len(new_hands) >= len(hands)
        after = replay(new, resume=before if extends else None)  # MatchError rolls the whole transaction back
        _write_hands(db, match_id, new_hands, hands)
        db.table("summaries").update(match_id, _summary(after, after.players))
        _refresh_players(db, match_id, new, after)
        _audit(db, match_id, action, number, hand_before, hand_after, before.totals, after.totals, row["version"],
               request_key)
        for other_action, other_number, other_before, other_after in (more[0] if more else []):
            _audit(db, match_id, other_action, other_number, other_before, other_after, None, None, row["version"])
    return before, after


def add_hand(db: Database, match_id: int, hand: dict, expected_version: int | None = None,
             request_key: str | None = None, known: MatchResult | None = None):
    """Record the next hand. Returns (result before, result after)."""
    def change(hands, _match):
        if not isinstance(hand, dict):
            raise MatchError(["hand: must be an object"])
        if len(hands) >= MAX_HANDS:
            raise _too_many_hands(len(hands))
        return hands + [hand], "save", len(hands) + 1, None, hand
    return _apply(db, match_id, expected_version, change, request_key, known)


def edit_hand(db: Database, match_id: int, number: int, hand: dict, expected_version: int | None = None,
              request_key: str | None = None, known: MatchResult | None = None, keep_dealers: bool = False):
    """Replace hand ``number`` (1-based); everything after it is re-scored.
    Refused (MatchError, nothing changed) if the match would not replay. With
    ``keep_dealers``, every later hand the correction would give another dealer is
    marked as dealt by the player it was recorded with (out of turn), in the same
    transaction, each mark in the log."""
    def change(hands, match):
        if not 1 <= number <= len(hands):
            raise NotFound(f"no hand {number}")
        old = hands[number - 1]
        if not keep_dealers:
            hands[number - 1] = hand
            return hands, "edit", number, old, hand
        kept, marks = engine_keep_dealers(match, number, hand)
        more = [("edit", m.number, hands[m.number - 1], kept[m.number - 1]) for m in marks]
        return kept, "edit", number, old, hand, more
    return _apply(db, match_id, expected_version, change, request_key, known)


def undo_last(db: Database, match_id: int, expected_version: int | None = None, request_key: str | None = None,
              known: MatchResult | None = None):
    """Remove the last hand (kept in the audit log)."""
    def change(hands, _match):
        if not hands:
            raise MatchError(["there is no hand to undo"])
        return hands[:-1], "undo", len(hands), hands[-1], None
    return _apply(db, match_id, expected_version, change, request_key, known)


def update_details(db: Database, match_id: int, date: str | None, note: str | None,
                   expected_version: int | None = None, request_key: str | None = None) -> None:
    """Change the match's date and note (not scored)."""
    note = (note or "").strip() or None
    _check_details(date, note)
    with writing(db):
        row = _lock(db, match_id, expected_version, request_key)
        db.execute("update matches set date = ?, note = ? where id = ?", [date or row["date"], note, match_id])
        _audit(db, match_id, "details", None,
               {"date": row["date"], "note": row["note"]}, {"date": date or row["date"], "note": note},
               None, None, row["version"], request_key)


def update_setup(db: Database, match_id: int, players: list[str], settings: dict, first_dealer: int,
                 expected_version: int | None = None, request_key: str | None = None,
                 ) -> tuple[MatchResult, MatchResult]:
    """Change the players' names (same seats), the settings or the first dealer of a
    match under way: the engine replays every recorded hand under the new header
    before anything is written (MatchError: refused, nothing changed). The log keeps
    the old and new header and both totals. Returns (result before, result after)."""
    with writing(db):
        row = _lock(db, match_id, expected_version, request_key)
        hands = _hands(db, match_id)
        old = _to_match(row, hands)
        before = replay(old)
        new = Match(game=old.game, players=list(players), settings=settings, first_dealer=first_dealer,
                    hands=hands, date=old.date, note=old.note)
        if len(new.players) != len(old.players):
            raise MatchError(["players: the number of players cannot change once hands are recorded "
                              "for their seats; start a new match"])
        after = replay(new)  # MatchError rolls the whole transaction back
        header_before = {"players": before.players, "settings": before.settings, "first_dealer": old.first_dealer}
        header_after = {"players": after.players, "settings": after.settings, "first_dealer": first_dealer}
        db.execute("update matches set players = ?, settings = ?, first_dealer = ? where id = ?",
                   [json.dumps(after.players, ensure_ascii=False), json.dumps(after.settings, ensure_ascii=False),
                    first_dealer, match_id])
        db.table("summaries").update(match_id, _summary(after, after.players))
        _refresh_players(db, match_id, new, after)
        _audit(db, match_id, "setup", None, header_before, header_after, before.totals, after.totals,
               row["version"], request_key)
    return before, after


def delete_match(db: Database, match_id: int, expected_version: int | None = None,
                 request_key: str | None = None) -> None:
    """Delete a match, recoverably: it leaves every history and link (404) but is kept,
    with its log, for ``KEEP_DELETED_DAYS`` days, during which ``restore_match`` brings
    it back as it was. Matches deleted longer ago than that are removed for good here."""
    with writing(db):
        row = _lock(db, match_id, expected_version, request_key)
        stamp = now()
        db.execute("update matches set deleted_at = ? where id = ?", [stamp, match_id])
        _audit(db, match_id, "delete", None, None, None, None, None, row["version"], request_key)
        _purge_deleted(db)


def _purge_deleted(db: Database) -> None:
    """Inside a transaction: remove the matches deleted more than KEEP_DELETED_DAYS ago."""
    limit = (datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=KEEP_DELETED_DAYS)).isoformat(
        timespec="seconds")
    gone = [r[0] for r in db.execute("select id from matches where deleted_at is not null and deleted_at < ?",
                                     [limit]).fetchall()]
    for match_id in gone:
        for table in ("hands", "audit", "summaries", "match_players", "device_matches"):
            db.execute(f"delete from {table} where match_id = ?", [match_id])
        db.execute("update matches set previous_id = null where previous_id = ?", [match_id])
        db.execute("delete from matches where id = ?", [match_id])


def deleted_matches(db: Database, device: str | None) -> list[dict]:
    """The matches ``device`` scored that were deleted and can still be restored, the
    latest deleted first: id, game, players, date, deleted_at."""
    rows = db.execute(
        "select m.id, m.game, m.players, m.date, m.deleted_at from device_matches d join matches m "
        "on m.id = d.match_id where d.device_id = ? and d.score = 1 and m.deleted_at is not null "
        "order by m.deleted_at desc", [device or ""]).fetchall()
    return [{"id": r[0], "game": r[1], "players": json.loads(r[2]), "date": r[3], "deleted_at": r[4]} for r in rows]


def restore_match(db: Database, match_id: int, device: str | None, request_key: str | None = None) -> None:
    """Bring back a deleted match exactly as it was (a device that scored it asks).
    NotFound when there is no such deleted match for that device."""
    with writing(db):
        allowed = db.execute("select 1 from device_matches d join matches m on m.id = d.match_id where "
                             "m.id = ? and d.device_id = ? and d.score = 1 and m.deleted_at is not null",
                             [_match_key(match_id), device or ""]).fetchone()
        if allowed is None:
            raise NotFound(f"no deleted match {match_id}")
        db.execute("update matches set deleted_at = null, version = version + 1, updated_at = ? where id = ?",
                   [now(), match_id])
        version = db.execute("select version from matches where id = ?", [match_id]).fetchone()[0]
        _audit(db, match_id, "restore", None, None, None, None, None, version, request_key)


def import_match(db: Database, match: Match, device: str | None = None) -> int:
    """Store a whole match read from a match file."""
    return create_match(db, match, action="import", device=device)


# --- devices: who may open a match ----------------------------------------------

def device_key(cookie_value: str) -> str:
    """What the database keeps of a device's cookie: a digest, so a copy of the
    database does not hand out the devices' access."""
    return hashlib.sha256(cookie_value.encode()).hexdigest()[:32]


def device_known(db: Database, device: str) -> bool:
    """Was ``device`` (a digest, see ``device_key``) ever given a match here? Only such a
    device's cookie is one the server issued (one primary-key lookup)."""
    return db.execute("select 1 from devices where id = ?", [device]).fetchone() is not None


def _grant(db: Database, device: str, match_id: int, *, score: bool = False, watch: bool = False,
           how: str = "") -> None:
    """Inside a transaction: ``device`` may now score (or watch) the match; a grant
    it already holds is kept (opening the watcher link never takes scoring away)."""
    stamp = now()
    db.execute("insert into devices (id, created_at, seen_at) values (?, ?, ?) "
               "on conflict(id) do update set seen_at = excluded.seen_at", [device, stamp, stamp])
    db.execute("insert into device_matches (device_id, match_id, score, watch, how, added_at) "
               "values (?, ?, ?, ?, ?, ?) on conflict(device_id, match_id) do update set "
               "score = max(score, excluded.score), watch = max(watch, excluded.watch)",
               [device, match_id, int(score), int(watch), how, stamp])


def grant(db: Database, device: str, match_id: int, *, score: bool = False, watch: bool = False,
          how: str = "") -> None:
    """``device`` opened a link of the match (or started it): remember it in its history."""
    with writing(db):
        _row(db, match_id)
        _grant(db, device, match_id, score=score, watch=watch, how=how)


def access_of(db: Database, device: str | None, match_id: int) -> str | None:
    """What ``device`` may do in the match: "score", "watch" or None (not even see it).
    Raises NotFound when there is no such match."""
    row = db.execute("select d.score, d.watch from matches m left join device_matches d "
                     "on d.match_id = m.id and d.device_id = ? where m.id = ? and m.deleted_at is null",
                     [device or "", _match_key(match_id)]).fetchone()
    if row is None:
        raise NotFound(f"no match {match_id}")
    return "score" if row[0] else "watch" if row[1] else None


def renew_link(db: Database, match_id: int, kind: str, device: str, request_key: str | None = None) -> int:
    """A new ``kind`` ("scorer" or "watcher") link for the match: the old one opens
    nothing any more, and every grant it gave ends. A device that scored loses the
    match entirely with a new scorer link, even if it also opened the watcher link:
    that is how a lost phone is shut out (a scorer shares the match anyway, so being
    able to score is what it held, not a watcher grant on top). With a new watcher
    link the watchers lose the match and the scorers keep scoring. ``device``, the one
    asking, keeps its grants. Returns how many devices lost the match; logged in the match's log."""
    column, grant_column = {"scorer": ("scorer_token", "score"), "watcher": ("watcher_token", "watch")}[kind]
    token = new_token()
    with writing(db):
        row = _lock(db, match_id, None, request_key)
        db.execute(f"update matches set {column} = ? where id = ?", [token, match_id])
        if kind == "scorer":
            db.execute("update device_matches set score = 0, watch = 0 where match_id = ? and device_id != ? "
                       "and score = 1", [match_id, device])
        else:
            db.execute(f"update device_matches set {grant_column} = 0 where match_id = ? and device_id != ?",
                       [match_id, device])
        ended = db.execute("select count(*) from device_matches where match_id = ? and score = 0 and watch = 0",
                           [match_id]).fetchone()[0]
        db.execute("delete from device_matches where match_id = ? and score = 0 and watch = 0", [match_id])
        _audit(db, match_id, "relink", None, None, {"link": kind, "devices_ended": ended},
               None, None, row["version"], request_key)
    return ended


def device_history(db: Database, device: str | None, search: str = "", page: int = 1,
                   per_page: int = 20) -> tuple[list[dict], int]:
    """One page of the matches ``device`` may open, from their summaries (no replay):
    in progress first, then finished, newest first within each; only those with a
    player whose name contains ``search`` (compared as the rules compare names).
    Returns (the page's matches, how many match in all)."""
    where, params = "d.device_id = ? and m.deleted_at is null", [device or ""]
    folded = same_name(search.strip())
    if folded:
        where += " and instr(s.names, ?) > 0"
        params.append(folded)
    total = db.execute(f"select count(*) from device_matches d join summaries s on s.match_id = d.match_id "
                       f"join matches m on m.id = d.match_id where {where}", params).fetchone()[0]
    rows = db.execute(
        "select m.id, m.game, m.players, m.date, m.note, m.updated_at, s.hands, s.finished, s.winners, s.totals, "
        f"s.imported, d.score from device_matches d join matches m on m.id = d.match_id "
        f"join summaries s on s.match_id = m.id where {where} "
        "order by s.finished, coalesce(m.date, '') desc, m.id desc limit ? offset ?",
        [*params, per_page, max(0, page - 1) * per_page]).fetchall()
    return [_summary_row(row) for row in rows], total


def _summary_row(row) -> dict:
    keys = ("id", "game", "players", "date", "note", "updated_at", "hands", "finished", "winners", "totals",
            "imported", "score")
    out = dict(zip(keys, row))
    out["players"] = json.loads(out["players"])
    out["winners"] = _loads(out["winners"])
    out["totals"] = _loads(out["totals"])
    out["finished"], out["imported"] = bool(out["finished"]), bool(out["imported"])
    return out


def known_players(db: Database, device: str | None, groups: int = 4) -> dict:
    """The players this device has kept score for: ``names`` (each name once, as the
    rules compare names, spelled as it was last typed; the most played first) and
    ``groups``, the last few tables ({"game", "players"} in seat order, newest first,
    each table once)."""
    counts: dict[str, int] = {}
    spelling: dict[str, str] = {}
    tables: list[dict] = []
    seen: set[tuple] = set()
    rows = db.execute("select m.game, m.players from device_matches d join matches m on m.id = d.match_id "
                      "where d.device_id = ? and m.deleted_at is null order by m.id desc", [device or ""]).fetchall()
    for game, players_json in rows:
        players = json.loads(players_json)
        for name in players:
            folded = same_name(name)
            counts[folded] = counts.get(folded, 0) + 1
            spelling.setdefault(folded, name)  # newest first: the last spelling used
        key = (game, tuple(same_name(n) for n in players))
        if key not in seen and len(tables) < groups:
            seen.add(key)
            tables.append({"game": game, "players": players})
    names = sorted(spelling, key=lambda f: (-counts[f], f))
    return {"names": [spelling[f] for f in names], "groups": tables}


def player_rows(db: Database, device: str | None, name_keys: list[str], hands: bool = False,
                game: str | None = None) -> list[dict]:
    """The stats rows of the players ``name_keys`` (names folded as the rules compare
    them) in the matches ``device`` may open, oldest first, with the match's date.
    ``figures`` holds each fact's [count, values added]; with ``hands``, ``facts`` also
    holds the hand numbers each fact counts and ``players`` the match's names. ``game``:
    that game's matches only."""
    marks = ", ".join("?" for _ in name_keys)
    only, params = ("and p.game = ?", [game]) if game else ("", [])
    extra = "p.facts, m.players" if hands else "null, null"
    rows = db.execute(
        "select p.match_id, p.seat, p.name, p.name_key, p.game, p.finished, p.won, p.place, p.hands, p.figures, "
        f"m.date, {extra} from device_matches d join match_players p on p.match_id = d.match_id "
        f"join matches m on m.id = p.match_id where d.device_id = ? and m.deleted_at is null "
        f"and p.name_key in ({marks}) {only} "
        "order by coalesce(m.date, ''), p.match_id", [device or "", *name_keys, *params]).fetchall()
    keys = ("match_id", "seat", "name", "name_key", "game", "finished", "won", "place", "hands", "figures", "date",
            "facts", "players")
    out = []
    for row in rows:
        item = dict(zip(keys, row))
        item["figures"] = json.loads(item["figures"])
        if hands:
            item["facts"] = json.loads(item["facts"])
            item["players"] = json.loads(item["players"])
        item["finished"], item["won"] = bool(item["finished"]), bool(item["won"])
        out.append(item)
    return out


def player_list(db: Database, device: str | None) -> list[dict]:
    """Everyone in the matches ``device`` may open: name (as last typed), key, matches,
    finished, won; most matches first."""
    rows = db.execute(
        "select p.name_key, p.name, p.finished, p.won from device_matches d join match_players p "
        "on p.match_id = d.match_id join matches m on m.id = p.match_id "
        "where d.device_id = ? and m.deleted_at is null order by p.match_id", [device or ""]).fetchall()
    people: dict[str, dict] = {}
    for key, name, finished, won in rows:
        person = people.setdefault(key, {"key": key, "matches": 0, "finished": 0, "won": 0})
        person["name"] = name
        person["matches"] += 1
        person["finished"] += finished
        person["won"] += won
    return sorted(people.values(), key=lambda p: (-p["matches"], p["key"]))


def met_players(db: Database, device: str | None, name_key: str) -> set[str]:
    """The keys of the players who sat at a table with ``name_key`` in a match ``device``
    may open: head-to-head offers only them."""
    rows = db.execute(
        "select distinct q.name_key from device_matches d join match_players p on p.match_id = d.match_id "
        "join match_players q on q.match_id = p.match_id join matches m on m.id = p.match_id "
        "where d.device_id = ? and m.deleted_at is null and p.name_key = ? and q.name_key != p.name_key",
        [device or "", name_key]).fetchall()
    return {key for (key,) in rows}


def device_matches(db: Database, device: str | None) -> list[tuple[int, Match]]:
    """Every match ``device`` may open (its id and the match as recorded), in the order
    they were started."""
    rows = list(db.query("select m.* from device_matches d join matches m on m.id = d.match_id "
                         "where d.device_id = ? and m.deleted_at is null order by m.id", [device or ""]))
    hands: dict[int, list[dict]] = {row["id"]: [] for row in rows}
    if rows:
        for match_id, data in db.execute(
                "select h.match_id, h.data from device_matches d join hands h on h.match_id = d.match_id "
                "where d.device_id = ? order by h.match_id, h.position", [device or ""]).fetchall():
            if match_id in hands:  # a deleted match's hands are left out with it
                hands[match_id].append(json.loads(data))
    return [(row["id"], _to_match(row, hands[row["id"]])) for row in rows]


def all_matches(db: Database, search: str = "") -> list[dict]:
    """Every match on this server with its links (for the person who runs it:
    ``scorekeeper list``), newest first, from the summaries."""
    where, params = "m.deleted_at is null", []
    folded = same_name(search.strip())
    if folded:
        where, params = "m.deleted_at is null and instr(s.names, ?) > 0", [folded]
    rows = db.execute(
        "select m.id, m.game, m.players, m.date, m.note, m.updated_at, s.hands, s.finished, s.winners, s.totals, "
        f"s.imported, 1, m.scorer_token, m.watcher_token from matches m join summaries s on s.match_id = m.id "
        f"where {where} order by coalesce(m.date, '') desc, m.id desc", params).fetchall()
    out = []
    for row in rows:
        match = _summary_row(row[:12])
        match["scorer_token"], match["watcher_token"] = row[12], row[13]
        out.append(match)
    return out
