"""The database's schema, migration by migration. Migrations are frozen history:
they never import the engine, the games or anything else whose meaning may change
later; a data move carries its own code. Rows derived from the scores (the match
summaries and the players' stats rows) are not written here but by ``derived``,
with today's engine, for every match whose rows are missing or older than
``derived.DERIVED_VERSION`` (``connection.connect`` does it at start-up)."""
from __future__ import annotations

import datetime
import json
import secrets
import unicodedata

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

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


@migrations()
def m002_share_links_and_request_keys(db: Database) -> None:
    """Scorer and watcher link tokens for every match (existing matches get
    theirs here), and the form key that makes a re-sent form save only once."""
    db.table("matches").add_column("scorer_token", str)
    db.table("matches").add_column("watcher_token", str)
    for (match_id,) in db.execute("select id from matches").fetchall():
        # 128 random bits, URL-safe: what ``devices.new_token`` made when this ran first
        db.execute("update matches set scorer_token = ?, watcher_token = ? where id = ?",
                   [secrets.token_urlsafe(16), secrets.token_urlsafe(16), match_id])
    db.table("matches").create_index(["scorer_token"], unique=True)
    db.table("matches").create_index(["watcher_token"], unique=True)
    db.table("audit").add_column("request_key", str)
    db.table("audit").create_index(["match_id", "request_key"])


@migrations()
def m003_devices_and_summaries(db: Database) -> None:
    """Private by default: the devices that may open a match (each remembered behind
    a long-lived cookie, stored here as a digest) and what each may do there; and a
    summary of every match for the history list, so the list never replays (the
    summaries are derived rows: ``derived`` writes them)."""
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


@migrations()
def m004_deleted_matches(db: Database) -> None:
    """A deleted match is kept (and can be restored) for ``KEEP_DELETED_DAYS``: until
    then only its ``deleted_at`` is set, and nothing shows it but its restore button."""
    db.table("matches").add_column("deleted_at", str)


@migrations()
def m005_play_again(db: Database) -> None:
    """Play again: a match started from another remembers it (``previous_id``), so
    each links to the other ("next match" and back)."""
    db.table("matches").add_column("previous_id", int)
    db.table("matches").create_index(["previous_id"])


@migrations()
def m006_player_stats(db: Database) -> None:
    """Per-player facts of every match, for the stats pages (derived rows: ``derived``
    writes them)."""
    db.table("match_players").create(
        {"match_id": int, "seat": int, "name": str, "name_key": str, "game": str, "finished": int, "won": int,
         "place": int, "hands": int, "facts": str, "figures": str},
        pk=("match_id", "seat"),
        foreign_keys=[("match_id", "matches", "id")],
    )
    db.table("match_players").create_index(["name_key"])


@migrations()
def m007_name_keys_ignore_invisible(db: Database) -> None:
    """Names came to be compared ignoring invisible characters. This once folded the
    names kept in the derived rows again; derived rows are now rebuilt outside the
    migrations (m008 marks every one of them for it), so nothing is left to do here."""


@migrations()
def m008_derived_versions(db: Database) -> None:
    """Each summary says which version of the derived rows wrote it (its match's
    stats rows are written with it): a summary older than ``derived.DERIVED_VERSION``,
    as every one written before this migration is, is rebuilt by today's engine."""
    db.table("summaries").add_column("derived_version", int, not_null_default=0)


@migrations()
def m009_hand_facts(db: Database) -> None:
    """Each hand's stats facts in a row of its own (seat, fact, value), so a save
    writes its own hand's rows instead of rewriting lists that grow with the match;
    the players' rows keep only each fact's count and sum (``figures``), and their
    ``facts`` column is left empty from now on. Derived rows: ``derived`` writes them."""
    db.table("hand_facts").create(
        {"match_id": int, "number": int, "seat": int, "fact": str, "value": int},
        pk=("match_id", "number", "seat", "fact"),
        foreign_keys=[("match_id", "matches", "id")],
    )


@migrations()
def m010_summary_leaders(db: Database) -> None:
    """The seats that lead a match (as its game's rules rank totals: the lowest where
    the lowest wins), kept in its summary so the history names them without the
    match's settings; derived rows: ``derived`` writes them (DERIVED_VERSION 3)."""
    db.table("summaries").add_column("leaders", str)


@migrations()
def m011_names_under_the_new_rule(db: Database) -> None:
    """rules.md came to refuse in a name the characters that break or reorder the text
    around it (U+2028, U+2029, the bidirectional embeddings, overrides and isolates), to
    count U+2800 as a space, and to trim the spaces invisible characters leave at either
    end before comparing ("Ann \\u200b" is "Ann"'s duplicate). A match stored before
    that no longer replays and cannot even be renamed, so each name that breaks the rule
    is repaired once, and the repair is logged as a change of players: those characters
    out (a separator becomes a space); a name left empty is "Player N"; a duplicate gets
    its seat ("Ann (3)"). The rule is copied here as it reads today (frozen history)."""
    for match_id, players_json, version in db.execute(
            "select id, players, version from matches").fetchall():
        players = json.loads(players_json)
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            continue
        repaired = _m011_repaired(players)
        if repaired == players:
            continue
        db.execute("update matches set players = ?, version = version + 1 where id = ?",
                   [json.dumps(repaired, ensure_ascii=False), match_id])
        db.execute("insert into audit (match_id, at, action, hand, before, after, totals_before, totals_after, "
                   "version) values (?, ?, 'setup', null, ?, ?, null, null, ?)",
                   [match_id, datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                    json.dumps({"players": players}, ensure_ascii=False),
                    json.dumps({"players": repaired}, ensure_ascii=False), version + 1])


_M011_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
                   (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
                   (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
                   (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))  # Default_Ignorable_Code_Point


def _m011_invisible(ch: str) -> bool:
    return any(first <= ord(ch) <= last for first, last in _M011_IGNORABLE)


def _m011_space(ch: str) -> bool:
    return ch.isspace() or ch == "\u2800"


def _m011_trimmed(text: str) -> str:
    start, end = 0, len(text)
    while start < end and (_m011_space(text[start]) or _m011_invisible(text[start])):
        start += 1
    while end > start and (_m011_space(text[end - 1]) or _m011_invisible(text[end - 1])):
        end -= 1
    return text[start:end]


def _m011_key(name: str) -> str:
    kept = "".join(ch for ch in name if not _m011_invisible(ch))
    start, end = 0, len(kept)
    while start < end and _m011_space(kept[start]):
        start += 1
    while end > start and _m011_space(kept[end - 1]):
        end -= 1
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", kept[start:end]).casefold())
    return "".join(ch for ch in folded if not _m011_invisible(ch))


def _m011_repaired(players: list[str]) -> list[str]:
    """The names with what the rule now refuses taken out, empty ones and duplicates named
    by their seat; a name the rule allows is kept exactly."""
    names: list[str] = []
    for name in players:
        code = [ord(ch) for ch in name]
        if any(0x202A <= c <= 0x202E or 0x2066 <= c <= 0x2069 or c in (0x2028, 0x2029) for c in code):
            name = "".join(" " if ch in "\u2028\u2029" else "" if _m011_invisible(ch) and (
                0x202A <= ord(ch) <= 0x202E or 0x2066 <= ord(ch) <= 0x2069) else ch for ch in name)
            name = unicodedata.normalize("NFC", name).strip()
        names.append(name)
    seen: set[str] = set()
    for seat, name in enumerate(names):
        key = _m011_key(name)
        if key and key not in seen:
            seen.add(key)
            continue
        base = _m011_trimmed(name)[:34] if key else ""
        for candidate in ([f"{base} ({seat + 1})"] if base else []) + [f"Player {seat + 1}"] + \
                [f"Player {seat + 1} ({n})" for n in range(2, len(names) + 2)]:
            if _m011_key(candidate) not in seen:
                names[seat] = candidate
                seen.add(_m011_key(candidate))
                break
    return names


@migrations()
def m012_device_cookie_replaced(db: Database) -> None:
    """A device's cookie is replaced each time it is given a match: the new value is a new
    device row whose ``parent`` is the device it replaces, until the new value is first used
    (then the parent's grants move to it and the parent, with its old value, goes)."""
    db.table("devices").add_column("parent", str)


@migrations()
def m013_notices(db: Database) -> None:
    """The notices a page shows once after a change ("Hand 5 saved: …", "Deleted … with
    Ann, Bob"), kept here until that page is shown: the session cookie holds only a
    random key to them, never the names they carry."""
    db.table("notices").create({"id": str, "messages": str, "created_at": str}, pk="id",
                               not_null={"messages", "created_at"})
