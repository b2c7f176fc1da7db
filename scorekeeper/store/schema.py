"""The database's schema, migration by migration. Migrations are frozen history:
they never import the engine, the games or anything else whose meaning may change
later; a data move carries its own code. Rows derived from the scores (the match
summaries and the players' stats rows) are not written here but by ``derived``,
with today's engine, for every match whose rows are missing or older than
``derived.DERIVED_VERSION`` (``connection.connect`` does it at start-up)."""
from __future__ import annotations

import secrets

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
def m011_device_cookie_replaced(db: Database) -> None:
    """A device's cookie is replaced each time it is given a match: the new value is a new
    device row whose ``parent`` is the device it replaces, until the new value is first used
    (then the parent's grants move to it and the parent, with its old value, goes)."""
    db.table("devices").add_column("parent", str)


@migrations()
def m012_notices(db: Database) -> None:
    """The notices a page shows once after a change ("Hand 5 saved: …", "Deleted … with
    Ann, Bob"), kept here until that page is shown: the session cookie holds only a
    random key to them, never the names they carry."""
    db.table("notices").create({"id": str, "messages": str, "created_at": str}, pk="id",
                               not_null={"messages", "created_at"})
