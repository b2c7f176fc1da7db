"""What a device has been part of: its matches (the history list, from the match
summaries, never a replay), the deleted ones it may restore, the players it has kept
score for, and, for the person who runs the server, every match with its links."""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from sqlite_utils import Database

from ..engine import Match
from ..games import GAMES
from ..names import same_name
from .core import loads, to_match
from .matches import kept_since, purge_deleted


def match_ids_on(db: Database, device: str | None, date: str, limit: int = -1) -> list[int]:
    """The ids of the matches dated ``date`` (YYYY-MM-DD) that ``device`` may open, in
    the order they were started, at most ``limit`` (-1: all). One query from the
    device's grants: other devices' matches of that day are never read."""
    return [row[0] for row in db.execute(
        "select m.id from device_matches d join matches m on m.id = d.match_id where d.device_id = ? "
        "and m.date = ? and m.deleted_at is null order by m.id limit ?", [device or "", date, limit]).fetchall()]


def hand_counts(db: Database, match_ids: list[int]) -> dict[int, int]:
    """How many hands each of ``match_ids`` holds (an index range count each, nothing read)."""
    counts = dict.fromkeys(match_ids, 0)
    for first in range(0, len(match_ids), 500):  # SQLite's limit on bound values, with room to spare
        chunk = match_ids[first:first + 500]
        counts.update(db.execute(f"select match_id, count(*) from hands where match_id in "
                                 f"({', '.join('?' for _ in chunk)}) group by match_id", chunk).fetchall())
    return counts


def deleted_matches(db: Database, device: str | None) -> list[dict]:
    """The matches ``device`` scored that were deleted and can still be restored, the
    latest deleted first: id, game (its key), played (the game, as in ``device_history``), players,
    date, deleted_at. One deleted longer ago than KEEP_DELETED_DAYS is not among them, and is
    removed for good now."""
    rows = db.execute(
        "select m.id, m.game, m.players, m.date, m.deleted_at, m.settings from device_matches d join matches m "
        "on m.id = d.match_id where d.device_id = ? and d.score = 1 and m.deleted_at is not null "
        "order by m.deleted_at desc", [device or ""]).fetchall()
    oldest = kept_since()
    if rows and rows[-1][4] < oldest:
        purge_deleted(db)
        rows = [row for row in rows if row[4] >= oldest]
    return [{"id": r[0], "game": r[1], "played": GAMES.get(r[1]), "players": json.loads(r[2]), "date": r[3],
             "deleted_at": r[4], "settings": json.loads(r[5])} for r in rows]


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
        f"s.imported, d.score, s.leaders, m.settings from device_matches d join matches m on m.id = d.match_id "
        f"join summaries s on s.match_id = m.id where {where} "
        "order by s.finished, coalesce(m.date, '') desc, m.id desc limit ? offset ?",
        [*params, per_page, max(0, page - 1) * per_page]).fetchall()
    # the settings name the game where the table named it (a score pad's "Hearts")
    return [{**_summary_row(row[:13]), "settings": json.loads(row[13])} for row in rows], total


def _summary_row(row: tuple[Any, ...]) -> dict[str, Any]:
    keys = ("id", "game", "players", "date", "note", "updated_at", "hands", "finished", "winners", "totals",
            "imported", "score", "leaders")
    out = dict(zip(keys, row))
    # the game itself: past the store nobody looks its key up again (None for a game this
    # version no longer has: its match stays listed, see ``derived.rebuild``)
    out["played"] = GAMES.get(out["game"])
    out["players"] = json.loads(out["players"])
    out["winners"] = loads(out["winners"])
    out["totals"] = loads(out["totals"])
    out["leaders"] = loads(out["leaders"])
    out["finished"], out["imported"] = bool(out["finished"]), bool(out["imported"])
    return out


def known_players(db: Database, device: str | None, groups: int = 4) -> dict:
    """The players this device has kept score for: ``names`` (each name once, as the
    rules compare names, spelled as it was last typed; the most played first) and
    ``groups``, the last few tables ({"game" (its key), "played" (the game), "players" in seat
    order, "settings"}, newest first, each table once)."""
    counts: dict[str, int] = {}
    spelling: dict[str, str] = {}
    tables: list[dict] = []
    seen: set[tuple] = set()
    rows = db.execute("select m.game, m.players, m.settings from device_matches d join matches m "
                      "on m.id = d.match_id where d.device_id = ? and m.deleted_at is null order by m.id desc",
                      [device or ""]).fetchall()
    for game, players_json, settings_json in rows:
        players = json.loads(players_json)
        for name in players:
            folded = same_name(name)
            counts[folded] = counts.get(folded, 0) + 1
            spelling.setdefault(folded, name)  # newest first: the last spelling used
        # a table is its game, its seats and its settings: a rematch plays by the same ones
        key = (game, tuple(same_name(n) for n in players), settings_json)
        # a table of a game this version no longer has cannot be started again: not offered
        if key not in seen and len(tables) < groups and game in GAMES:
            seen.add(key)
            tables.append({"game": game, "played": GAMES[game], "players": players,
                           "settings": json.loads(settings_json)})
    names = sorted(spelling, key=lambda f: (-counts[f], f))
    return {"names": [spelling[f] for f in names], "groups": tables}


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
    return [(row["id"], to_match(row, hands[row["id"]])) for row in rows]


def device_matches_by_batch(db: Database, device: str | None, size: int = 20) -> Iterator[tuple[int, Match]]:
    """``device_matches`` read ``size`` matches at a time, so that a whole history is never
    held at once (an export streams it). The ids are read first: a match deleted meanwhile
    is left out, one changed meanwhile is read as it is then."""
    ids = [row[0] for row in db.execute(
        "select m.id from device_matches d join matches m on m.id = d.match_id "
        "where d.device_id = ? and m.deleted_at is null order by m.id", [device or ""]).fetchall()]
    for first in range(0, len(ids), size):
        chunk = ids[first:first + size]
        marks = ", ".join("?" for _ in chunk)
        rows = list(db.query(f"select * from matches where id in ({marks}) and deleted_at is null order by id", chunk))
        hands: dict[int, list[dict]] = {row["id"]: [] for row in rows}
        for match_id, data in db.execute(f"select match_id, data from hands where match_id in ({marks}) "
                                         "order by match_id, position", chunk).fetchall():
            if match_id in hands:
                hands[match_id].append(json.loads(data))
        yield from ((row["id"], to_match(row, hands[row["id"]])) for row in rows)


def all_matches(db: Database, search: str = "") -> list[dict]:
    """Every match on this server with its links (for the person who runs it:
    ``scorekeeper list``), newest first, from the summaries."""
    where, params = "m.deleted_at is null", []
    folded = same_name(search.strip())
    if folded:
        where, params = "m.deleted_at is null and instr(s.names, ?) > 0", [folded]
    rows = db.execute(
        "select m.id, m.game, m.players, m.date, m.note, m.updated_at, s.hands, s.finished, s.winners, s.totals, "
        f"s.imported, 1, s.leaders, m.scorer_token, m.watcher_token from matches m join summaries s on s.match_id = m.id "
        f"where {where} order by coalesce(m.date, '') desc, m.id desc", params).fetchall()
    out = []
    for row in rows:
        match = _summary_row(row[:13])
        match["scorer_token"], match["watcher_token"] = row[13], row[14]
        out.append(match)
    return out
