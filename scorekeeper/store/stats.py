"""The stats rows (``match_players``, written by ``derived``) as the stats pages read
them: a player's matches, everyone a device has played with, who met whom."""
from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from ..games import GAMES


def player_rows(db: Database, device: str | None, name_keys: list[str], hands: bool = False,
                game: str | None = None, players: bool = False) -> list[dict]:
    """The stats rows of the players ``name_keys`` (names folded as the rules compare
    them) in the matches ``device`` may open, oldest first, with the match's date.
    ``figures`` holds each fact's [count, values added]; with ``hands``, ``facts`` holds
    each fact as {"n": the hand numbers it counts, "p": values added} and ``players`` the
    match's names; with ``players`` only the names (reading every hand's facts is most of
    what ``hands`` costs). ``game``: that game's matches only."""
    marks = ", ".join("?" for _ in name_keys)
    only, params = ("and p.game = ?", [game]) if game else ("", [])
    extra = "null, m.players" if hands or players else "null, null"
    rows = db.execute(
        "select p.match_id, p.seat, p.name, p.name_key, p.game, p.finished, p.won, p.place, p.hands, p.figures, "
        f"m.date, {extra}, m.settings from device_matches d join match_players p on p.match_id = d.match_id "
        f"join matches m on m.id = p.match_id where d.device_id = ? and m.deleted_at is null "
        f"and p.name_key in ({marks}) {only} "
        "order by coalesce(m.date, ''), p.match_id", [device or "", *name_keys, *params]).fetchall()
    keys = ("match_id", "seat", "name", "name_key", "game", "finished", "won", "place", "hands", "figures", "date",
            "facts", "players", "settings")
    out = []
    for row in rows:
        item = dict(zip(keys, row))
        item["played"] = GAMES[item["game"]]  # the game itself, for the pages (its key stays for addresses)
        item["figures"] = json.loads(item["figures"])
        item["settings"] = json.loads(item["settings"])  # a game the table named (a score pad's "Hearts")
        if hands:
            item["facts"] = {key: {"n": [], "p": points} for key, (_count, points) in item["figures"].items()}
        if hands or players:
            item["players"] = json.loads(item["players"])
        item["finished"], item["won"] = bool(item["finished"]), bool(item["won"])
        out.append(item)
    if hands and out:
        _hand_numbers(db, out)
    return out


def _hand_numbers(db: Database, items: list[dict[str, Any]]) -> None:
    """Fill each row's ``facts`` with the hand numbers each fact counts (``hand_facts``)."""
    seats = {(item["match_id"], item["seat"]): item["facts"] for item in items}
    matches = sorted({match_id for match_id, _ in seats})
    for first in range(0, len(matches), 500):  # SQLite's limit on bound values, with room to spare
        chunk = matches[first:first + 500]
        for match_id, seat, fact, number in db.execute(
                f"select match_id, seat, fact, number from hand_facts where match_id in "
                f"({', '.join('?' for _ in chunk)}) order by match_id, seat, number", chunk).fetchall():
            facts = seats.get((match_id, seat))
            if facts is not None:
                facts[fact]["n"].append(number)


def fact_hands(db: Database, seats: list[tuple[int, int]], fact: str) -> dict[tuple[int, int], list[int]]:
    """The hand numbers that fact ``fact`` counts for each (match, seat) of ``seats`` (the
    stats page lists a page of matches at a time: only theirs are read)."""
    found: dict[tuple[int, int], list[int]] = {seat: [] for seat in seats}
    for match_id, seat in seats:
        found[(match_id, seat)] = [number for (number,) in db.execute(
            "select number from hand_facts where match_id = ? and seat = ? and fact = ? order by number",
            [match_id, seat, fact]).fetchall()]
    return found


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


