"""Matches and their hands: the typed record the pages read, every write (each one
transaction that re-validates the match through the engine before it commits and
bumps the match's ``version``), the versions and request keys that make a write safe
to race or repeat, and the audit log.

Hands are stored as the raw inputs the user entered (exactly as the match file
stores them); scores are never stored except as audit snapshots and derived rows
(``derived``), and always come from ``engine.replay``."""
from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from ..engine import Match, MatchError, MatchResult, replay
from ..engine import keep_dealers as engine_keep_dealers
from ..games import GAMES
from ..games.base import Game
from ..matchfile import date_problems, note_problems
from . import core, derived
from .core import (
    KEEP_DELETED_DAYS,
    audit,
    loads,
    lock,
    match_key,
    match_row,
    now,
    stored_hands,
    to_match,
    today,
    writing,
)
from .devices import grant_in, new_token
from .errors import AlreadySaved, LimitReached, NotFound

Hand = dict[str, Any]
# One more entry for the log, for another hand a change touched: (action, hand number, before, after).
LogEntry = tuple[str, int, Hand | None, Hand | None]


# Stands for a stored hand a save does not read: the engine resumes after it
# (``replay(resume=)`` never looks at the hands it resumes from), and only the hands
# from the first changed one on are compared, written or folded into derived rows.
UNREAD: Hand = {}


@dataclass(frozen=True)
class Change:
    """What a write does to the hands: the new list, the index of the first hand it
    changed (``first``; the hands before it are as stored), and the log entry of the
    hand it changed (``more``: the entries of other hands it changed with it)."""

    hands: list[Hand]
    first: int
    action: str
    number: int
    before: Hand | None
    after: Hand | None
    more: tuple[LogEntry, ...] = ()


@dataclass(frozen=True)
class MatchRecord:
    """A stored match as the pages read it: its row (header, links, versions) and
    ``match``, the engine's Match with every recorded hand. Loaded once per request.
    ``played`` is the game itself (its rules, words, forms): past the store the pages ask it,
    never look its key up again; ``game`` stays the key that URLs and files carry."""

    id: int
    game: str
    played: Game
    players: list[str]
    settings: dict[str, Any]
    first_dealer: int
    date: str | None
    note: str | None
    created_at: str
    updated_at: str
    version: int
    scorer_token: str
    watcher_token: str
    previous_id: int | None
    match: Match


# --- reading -----------------------------------------------------------------

def get_record(db: Database, match_id: int, read_before: Callable[[int], Match | None] | None = None) -> MatchRecord:
    """The stored match (not deleted) as a MatchRecord; raises NotFound. ``read_before``
    gives the match as already read at a version, if it was: every write bumps the
    version, so its hands are the stored ones and are not read and parsed again (a long
    match's hands are most of what reading it costs)."""
    row = match_row(db, match_id)
    seen = read_before(row["version"]) if read_before is not None else None
    hands = list(seen.hands) if seen is not None else stored_hands(db, match_id)
    return MatchRecord(
        id=row["id"], game=row["game"], played=GAMES[row["game"]], players=json.loads(row["players"]),
        settings=json.loads(row["settings"]),
        first_dealer=row["first_dealer"], date=row["date"], note=row["note"], created_at=row["created_at"],
        updated_at=row["updated_at"], version=row["version"], scorer_token=row["scorer_token"],
        watcher_token=row["watcher_token"], previous_id=row["previous_id"],
        match=to_match(row, hands))


def linked_matches(db: Database, match_id: int) -> dict[str, Any]:
    """The match this one plays again ("previous", or None) and the matches started
    from it with Play again ("next", oldest first)."""
    row = db.execute("select p.id from matches m left join matches p on p.id = m.previous_id "
                     "and p.deleted_at is null where m.id = ?", [match_key(match_id)]).fetchone()
    if row is None:
        raise NotFound(f"no match {match_id}")
    following = [r[0] for r in db.execute("select id from matches where previous_id = ? and deleted_at is null "
                                          "order by id", [match_id]).fetchall()]
    return {"previous": row[0], "next": following}


def get_version(db: Database, match_id: int) -> int:
    """The match's version alone (one primary-key lookup): what a watcher's
    poll compares. Raises NotFound."""
    row = db.execute("select version from matches where id = ? and deleted_at is null",
                     [match_key(match_id)]).fetchone()
    if row is None:
        raise NotFound(f"no match {match_id}")
    version: int = row[0]
    return version


def get_tokens(db: Database, match_id: int) -> dict[str, str]:
    """{"scorer_token", "watcher_token"} of a match; raises NotFound."""
    row = db.execute("select scorer_token, watcher_token from matches where id = ? and deleted_at is null",
                     [match_key(match_id)]).fetchone()
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
    match_id: int = row[0]
    return match_id


def saved_request(db: Database, match_id: int, request_key: str) -> dict[str, Any] | None:
    """The audit entry a form with this key already saved, if any:
    {"action", "hand", "version"}."""
    row = db.execute("select action, hand, version from audit where match_id = ? and request_key = ?",
                     [match_id, request_key]).fetchone()
    return None if row is None else {"action": row[0], "hand": row[1], "version": row[2]}


def _entries(db: Database, where: str, params: list[Any]) -> list[dict[str, Any]]:
    entries = []
    for row in db.query(f"select * from audit where {where} order by id", params):
        entry = dict(row)
        for key in ("before", "after", "totals_before", "totals_after"):
            entry[key] = loads(entry[key])
        entries.append(entry)
    return entries


def changes_since(db: Database, match_id: int, version: int, last: int | None = None) -> list[dict[str, Any]]:
    """The audit entries written after ``version`` (what another phone changed
    since a form was opened), oldest first, JSON decoded; only the ``last`` of them
    when given (a page saying what changed says the latest, not 5,000)."""
    if last is None:
        return _entries(db, "match_id = ? and version > ?", [match_id, version])
    ids = [row[0] for row in db.execute("select id from audit where match_id = ? and version > ? "
                                        "order by id desc limit ?", [match_id, version, last]).fetchall()]
    return _entries(db, f"id in ({', '.join('?' for _ in ids)})", ids) if ids else []


def count_changes_since(db: Database, match_id: int, version: int) -> int:
    return db.execute("select count(*) from audit where match_id = ? and version > ?", [match_id, version]).fetchone()[0]


def audit_log(db: Database, match_id: int) -> list[dict[str, Any]]:
    """The match's audit entries, oldest first, JSON decoded."""
    match_row(db, match_id)
    return _entries(db, "match_id = ?", [match_id])


def audit_page(db: Database, match_id: int, page: int, size: int) -> tuple[list[dict[str, Any]], int]:
    """Page ``page`` (from 1) of the match's audit entries, newest first, ``size`` to a
    page, JSON decoded; and how many entries there are."""
    match_row(db, match_id)
    total = db.execute("select count(*) from audit where match_id = ?", [match_id]).fetchone()[0]
    ids = [row[0] for row in db.execute("select id from audit where match_id = ? order by id desc limit ? offset ?",
                                        [match_id, size, (page - 1) * size]).fetchall()]
    entries = _entries(db, f"id in ({', '.join('?' for _ in ids)})", ids) if ids else []
    return entries[::-1], total


# --- writing -----------------------------------------------------------------

def _write_hands(db: Database, match_id: int, hands: list[Hand], keep: int = 0) -> None:
    """Store ``hands`` as the match's hands, the first ``keep`` being stored already:
    a save (one hand added) or an undo (the last removed) touches one row only."""
    db.execute("delete from hands where match_id = ? and position > ?", [match_id, keep])
    # plain SQL on the hot path: sqlite-utils' insert reads the schema first, every time
    db.conn.executemany("insert into hands (match_id, position, data) values (?, ?, ?)",
                        [(match_id, i, json.dumps(h, ensure_ascii=False))
                         for i, h in enumerate(hands[keep:], start=keep + 1)])


def check_details(date: str | None, note: str | None) -> None:
    """A match's date and note as they may be stored: MatchError saying what is wrong."""
    problems = date_problems(date) + note_problems(note)
    if problems:
        raise MatchError.of(problems)


def create_match(db: Database, match: Match, action: str = "create", device: str | None = None,
                 previous: int | None = None, request_key: str | None = None) -> int:
    """Store a new match (hands included, for an import) and return its id; the
    ``device`` (a digest, see ``device_key``) that started it may score it;
    ``previous``: the match it plays again (see ``linked_matches``).
    Raises MatchError when the engine refuses it, LimitReached when it holds more
    hands than one match can; nothing is stored then."""
    check_details(match.date, match.note)
    if len(match.hands) > core.MAX_HANDS:
        raise LimitReached([f"hands: {len(match.hands):,} hands, but one match can hold at most {core.MAX_HANDS:,}"])
    result = replay(match)  # raises before anything is written
    stamp = now()
    with writing(db):
        if request_key and imported_with_key(db, request_key) is not None:
            raise AlreadySaved("import", None, 1)  # sent twice at once: the first one stored it
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
            "previous_id": match_key(previous) if previous is not None else None,
        })
        match_id = table.last_pk
        if not isinstance(match_id, int):  # sqlite-utils types it loosely; an integer key is always set
            raise TypeError(f"the new match got no id ({match_id!r})")
        if match.hands:
            _write_hands(db, match_id, match.hands)
        audit(db, match_id, action, len(match.hands) or None, None, None, None, result.totals, 1, request_key)
        derived.write_all(db, match_id, result, match.hands, imported=action == "import")
        if device:
            grant_in(db, device, match_id, score=True, how="imported" if action == "import" else "started")
    return match_id


def _apply(db: Database, match_id: int, expected_version: int | None, change: Callable[[list[Hand], Match], Change],
           request_key: str | None = None, known: MatchResult | None = None,
           appends: bool = False, known_after: MatchResult | None = None) -> tuple[MatchResult, MatchResult]:
    """Run ``change(hands, match)`` (``match``: the stored match) inside one transaction,
    validating the new match with the engine before committing. Returns (result before,
    result after). A ``request_key`` already in the audit log raises AlreadySaved and
    changes nothing. ``known`` is the caller's result of the match at ``expected_version``.
    ``appends``: the change only adds hands after the stored ones (a save); with a
    ``known`` result of the stored hands it reads none of them, so a save costs the
    same at hand 300 as at hand 3. ``known_after``: the caller's result of ``known`` with
    the change made (a save's hand folded on, as its preview did), taken as it is when
    ``known`` is the stored match."""
    with writing(db):
        row = lock(db, match_id, expected_version, request_key)
        count = db.execute("select coalesce(max(position), 0) from hands where match_id = ?",
                           [match_id]).fetchone()[0]
        # Every write bumps the version, so the hands stored at the version the caller
        # replayed are these very hands: no need to read or fold them again.
        reuse = (known is not None and expected_version is not None and row["version"] - 1 == expected_version
                 and len(known.hands) == count)
        hands = [UNREAD] * count if reuse and appends else stored_hands(db, match_id)
        old = to_match(row, hands)
        before = known if reuse and known is not None else replay(old)
        done = change(list(hands), old)
        new = to_match(row, done.hands)
        # A save only extends the match, so the fold goes on from ``before``.
        extends = done.first >= len(hands)
        if reuse and known_after is not None and len(known_after.hands) == len(done.hands):
            after = known_after  # the engine folded this very change on these very hands
        else:
            after = replay(new, resume=before if extends else None)  # MatchError rolls the whole transaction back
        _write_hands(db, match_id, done.hands, done.first)
        if not derived.write_change(db, match_id, after, done.hands, done.first, added_only=appends):
            derived.write_all(db, match_id, after, stored_hands(db, match_id))  # the hands as now stored
        audit(db, match_id, done.action, done.number, done.before, done.after, before.totals, after.totals,
              row["version"], request_key)
        for other_action, other_number, other_before, other_after in done.more:
            audit(db, match_id, other_action, other_number, other_before, other_after, None, None, row["version"])
    return before, after


def add_hand(db: Database, match_id: int, hand: Hand, expected_version: int | None = None,
             request_key: str | None = None, known: MatchResult | None = None,
             known_after: MatchResult | None = None) -> tuple[MatchResult, MatchResult]:
    """Record the next hand. Returns (result before, result after). ``known_after``: the
    engine's result of ``known`` with ``hand`` added (what the caller checked)."""
    def change(hands: list[Hand], _match: Match) -> Change:
        if not isinstance(hand, dict):
            raise MatchError(["hand: must be an object"])
        if len(hands) >= core.MAX_HANDS:
            raise LimitReached([f"This match has {core.MAX_HANDS:,} hands, the most one match can hold. "
                                "Start a new match to go on playing."])
        return Change(hands + [hand], len(hands), "save", len(hands) + 1, None, hand)
    return _apply(db, match_id, expected_version, change, request_key, known, appends=True, known_after=known_after)


def edit_hand(db: Database, match_id: int, number: int, hand: Hand, expected_version: int | None = None,
              request_key: str | None = None, known: MatchResult | None = None,
              keep_dealers: bool = False) -> tuple[MatchResult, MatchResult]:
    """Replace hand ``number`` (1-based); everything after it is re-scored.
    Refused (MatchError, nothing changed) if the match would not replay. With
    ``keep_dealers``, every later hand the correction would give another dealer is
    marked as dealt by the player it was recorded with (out of turn), in the same
    transaction, each mark in the log."""
    def change(hands: list[Hand], match: Match) -> Change:
        if not 1 <= number <= len(hands):
            raise NotFound(f"no hand {number}")
        old = hands[number - 1]
        if not keep_dealers:
            hands[number - 1] = hand
            return Change(hands, number - 1, "edit", number, old, hand)
        kept, marks = engine_keep_dealers(match, number, hand)
        more = tuple(("edit", m.number, hands[m.number - 1], kept[m.number - 1]) for m in marks)
        return Change(kept, number - 1, "edit", number, old, hand, more)
    return _apply(db, match_id, expected_version, change, request_key, known)


def undo_last(db: Database, match_id: int, expected_version: int | None = None, request_key: str | None = None,
              known: MatchResult | None = None) -> tuple[MatchResult, MatchResult]:
    """Remove the last hand (kept in the audit log)."""
    def change(hands: list[Hand], _match: Match) -> Change:
        if not hands:
            raise MatchError(["there is no hand to undo"])
        return Change(hands[:-1], len(hands) - 1, "undo", len(hands), hands[-1], None)
    return _apply(db, match_id, expected_version, change, request_key, known)


def take_hands(db: Database, match_id: int, hands: list[Hand], expected_version: int | None = None,
               action: str = "server") -> tuple[MatchResult, MatchResult]:
    """Make the match's hands these (another copy's: the server's, taken by the phone's
    own copy of the match), one change in the log from the first hand that differs."""
    def change(stored: list[Hand], _match: Match) -> Change:
        first = 0
        while first < min(len(stored), len(hands)) and stored[first] == hands[first]:
            first += 1
        return Change(list(hands), first, action, first + 1, None, None)
    return _apply(db, match_id, expected_version, change)


def update_details(db: Database, match_id: int, date: str | None, note: str | None,
                   expected_version: int | None = None, request_key: str | None = None) -> None:
    """Change the match's date and note (not scored)."""
    note = (note or "").strip() or None
    check_details(date, note)
    with writing(db):
        row = lock(db, match_id, expected_version, request_key)
        db.execute("update matches set date = ?, note = ? where id = ?", [date or row["date"], note, match_id])
        audit(db, match_id, "details", None,
              {"date": row["date"], "note": row["note"]}, {"date": date or row["date"], "note": note},
              None, None, row["version"], request_key)


def update_setup(db: Database, match_id: int, players: list[str], settings: dict[str, Any], first_dealer: int,
                 expected_version: int | None = None, request_key: str | None = None,
                 ) -> tuple[MatchResult, MatchResult]:
    """Change the players' names (same seats), the settings or the first dealer of a
    match under way: the engine replays every recorded hand under the new header
    before anything is written (MatchError: refused, nothing changed). The log keeps
    the old and new header and both totals. Returns (result before, result after)."""
    with writing(db):
        row = lock(db, match_id, expected_version, request_key)
        hands = stored_hands(db, match_id)
        old = to_match(row, hands)
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
        derived.write_all(db, match_id, after, hands)  # new names and settings: every hand's facts may change
        audit(db, match_id, "setup", None, header_before, header_after, before.totals, after.totals,
              row["version"], request_key)
    return before, after


def delete_match(db: Database, match_id: int, expected_version: int | None = None,
                 request_key: str | None = None) -> None:
    """Delete a match, recoverably: it leaves every history and link (404) but is kept,
    with its log, for ``KEEP_DELETED_DAYS`` days, during which ``restore_match`` brings
    it back as it was. Matches deleted longer ago than that are removed for good here."""
    with writing(db):
        row = lock(db, match_id, expected_version, request_key)
        stamp = now()
        db.execute("update matches set deleted_at = ? where id = ?", [stamp, match_id])
        audit(db, match_id, "delete", None, None, None, None, None, row["version"], request_key)
        _purge_deleted(db)


def kept_since() -> str:
    """The oldest deletion time still kept: a match deleted before it is gone for good."""
    return (datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=KEEP_DELETED_DAYS)).isoformat(
        timespec="seconds")


def purge_deleted(db: Database) -> None:
    """Remove the matches deleted more than KEEP_DELETED_DAYS ago (a reader of the deleted
    matches found one: they are purged then, not only when a match is next deleted)."""
    with writing(db):
        _purge_deleted(db)


def _purge_deleted(db: Database) -> None:
    """Inside a transaction: remove the matches deleted more than KEEP_DELETED_DAYS ago."""
    gone = [r[0] for r in db.execute("select id from matches where deleted_at is not null and deleted_at < ?",
                                     [kept_since()]).fetchall()]
    for match_id in gone:
        for table in ("hands", "audit", "summaries", "match_players", "hand_facts", "device_matches"):
            db.execute(f"delete from {table} where match_id = ?", [match_id])
        db.execute("update matches set previous_id = null where previous_id = ?", [match_id])
        db.execute("delete from matches where id = ?", [match_id])


def restore_match(db: Database, match_id: int, device: str | None, request_key: str | None = None) -> None:
    """Bring back a deleted match exactly as it was (a device that scored it asks).
    NotFound when there is no such deleted match for that device (or it was deleted more
    than KEEP_DELETED_DAYS ago: then it is removed for good now)."""
    with writing(db):
        found = db.execute("select m.deleted_at from device_matches d join matches m on m.id = d.match_id where "
                           "m.id = ? and d.device_id = ? and d.score = 1 and m.deleted_at is not null",
                           [match_key(match_id), device or ""]).fetchone()
        expired = found is not None and found[0] < kept_since()
        if expired:
            _purge_deleted(db)  # kept: the NotFound below is raised once this is committed
        elif found is not None:
            db.execute("update matches set deleted_at = null, version = version + 1, updated_at = ? where id = ?",
                       [now(), match_id])
            version = db.execute("select version from matches where id = ?", [match_id]).fetchone()[0]
            audit(db, match_id, "restore", None, None, None, None, None, version, request_key)
    if found is None or expired:
        raise NotFound(f"no deleted match {match_id}")


def import_match(db: Database, match: Match, device: str | None = None) -> int:
    """Store a whole match read from a match file."""
    return create_match(db, match, action="import", device=device)


def imported_with_key(db: Database, request_key: str) -> int | None:
    """The match a phone sent with this key (``import_once``), if it is stored and not
    deleted. (No index holds the key alone: a scan of the imports' log entries, once per
    match a phone sends, not per hand.)"""
    row = db.execute("select a.match_id from audit a join matches m on m.id = a.match_id and m.deleted_at is null "
                     "where a.action = 'import' and a.request_key = ? limit 1", [request_key]).fetchone()
    return None if row is None else int(row[0])


def import_once(db: Database, match: Match, request_key: str, device: str | None = None) -> tuple[int, bool]:
    """Store a match a phone scored on its own, once per ``request_key`` (the phone's key
    for that match): (its id, whether it was stored now). Sent again (the answer was lost
    on the way back), the match already stored is given back, nothing is stored twice."""
    found = imported_with_key(db, request_key)
    if found is not None:
        return found, False
    try:
        return create_match(db, match, action="import", device=device, request_key=request_key), True
    except AlreadySaved:  # the same match sent twice at once: the other request stored it
        found = imported_with_key(db, request_key)
        if found is None:
            raise
        return found, False
