"""Rows derived from the scores, kept beside each match so that no list or stats
page replays a match: its summary (``summaries``: hands, finished, winners, totals,
folded names) and one stats row per player (``match_players``: place, won, and the
game's facts, each with the hand numbers it counts).

A save folds in its new hand only: the stored facts are the resume state, and a
hand's facts depend on that hand and the hand before it (``Game.hand_facts``), so an
edit or undo takes out the facts of the hands from the changed one on and adds those
of the hands as they now score. Rows written by older code (``derived_version`` below
``DERIVED_VERSION``, or missing, as after the schema migrations) are rebuilt with
today's engine by ``refresh_stale``; bump ``DERIVED_VERSION`` whenever what a row holds
changes meaning (a rule, a fact, how names are folded)."""
from __future__ import annotations

import bisect
import json
from typing import Any

from sqlite_utils import Database

from ..engine import HandResult, MatchError, MatchResult, replay
from ..games import GAMES
from ..names import same_name
from .core import match_row, stored_hands, to_match, writing

DERIVED_VERSION = 1

Facts = list[dict[str, dict[str, Any]]]  # per seat: fact key -> {"n": [hand numbers], "p": values added}


def summary_values(result: MatchResult) -> dict[str, Any]:
    """What the history list shows of a match: hands, finished, winners and totals (the
    engine's, as of the last write), and the players' names folded as the rules compare
    them (search)."""
    return {
        "hands": len(result.hands),
        "finished": int(bool(result.finished)),
        "winners": json.dumps(list(result.winners or [])) if result.finished else None,
        "totals": json.dumps(list(result.totals)),
        "names": "\x1f".join(same_name(name) for name in result.players),
        "derived_version": DERIVED_VERSION,
    }


def _facts_of(result: MatchResult, hands: list[dict[str, Any]], start: int) -> list[list[tuple[int, str, Any]]]:
    """Per seat, the facts of hands ``start``+1 on (1-based numbers): (hand number, key, value)."""
    game = GAMES[result.game]
    found: list[list[tuple[int, str, Any]]] = [[] for _ in result.players]
    before: dict[str, Any] = result.hands[start - 1].extra if start > 0 else {}
    scored: HandResult
    for hand, scored in zip(hands[start:], result.hands[start:]):
        for seat, facts in enumerate(game.hand_facts(hand, result.context(scored.number), scored.scores,
                                                     scored.extra, before)):
            found[seat].extend((scored.number, key, value) for key, value in facts.items())
        before = scored.extra
    return found


def _add(facts: Facts, found: list[list[tuple[int, str, Any]]]) -> None:
    for seat, items in enumerate(found):
        for number, key, value in items:
            fact = facts[seat].setdefault(key, {"n": [], "p": 0})
            fact["n"].append(number)
            fact["p"] += value


def _take_out(facts: Facts, found: list[list[tuple[int, str, Any]]], start: int) -> None:
    """Remove from ``facts`` what hands ``start``+1 on added (``found``: their facts)."""
    for seat, items in enumerate(found):
        for _number, key, value in items:
            facts[seat][key]["p"] -= value
        for key in list(facts[seat]):
            numbers = facts[seat][key]["n"]
            del numbers[bisect.bisect_right(numbers, start):]
            if not numbers:
                del facts[seat][key]


def _player_rows(match_id: int, result: MatchResult, facts: Facts) -> list[dict[str, Any]]:
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


def write_all(db: Database, match_id: int, result: MatchResult, hands: list[dict[str, Any]],
              imported: bool | None = None) -> None:
    """Inside a write transaction: every derived row of the match, from its whole replay
    (a new match, a changed header, or a row written by older code). ``imported``: the
    summary's flag (None keeps the stored one)."""
    facts: Facts = [{} for _ in result.players]
    _add(facts, _facts_of(result, hands, 0))
    _write(db, match_id, result, facts, imported)


def write_change(db: Database, match_id: int, before: MatchResult, old_hands: list[dict[str, Any]],
                 after: MatchResult, new_hands: list[dict[str, Any]]) -> None:
    """Inside a write transaction: the derived rows after the hands changed from
    ``old_hands`` (scored as ``before``) to ``new_hands`` (``after``), same header. Only
    the hands from the first changed one on are looked at: a save costs one hand."""
    start = 0
    while start < min(len(old_hands), len(new_hands)) and old_hands[start] == new_hands[start]:
        start += 1
    stored = db.execute("select seat, facts from match_players where match_id = ? order by seat",
                        [match_id]).fetchall()
    written = db.execute("select derived_version from summaries where match_id = ?", [match_id]).fetchone()
    if (written is None or written[0] != DERIVED_VERSION
            or [seat for seat, _ in stored] != list(range(len(after.players)))):  # nothing to resume from
        write_all(db, match_id, after, new_hands)
        return
    facts: Facts = [json.loads(text) for _, text in stored]
    _take_out(facts, _facts_of(before, old_hands, start), start)
    _add(facts, _facts_of(after, new_hands, start))
    _write(db, match_id, after, facts, None)


def _write(db: Database, match_id: int, result: MatchResult, facts: Facts, imported: bool | None) -> None:
    summary = summary_values(result)
    if imported is not None:
        summary["imported"] = int(imported)
    db.table("summaries").upsert({"match_id": match_id, **summary}, pk="match_id")
    db.execute("delete from match_players where match_id = ?", [match_id])
    db.table("match_players").insert_all(_player_rows(match_id, result, facts))


def rebuild(db: Database, match_id: int) -> None:
    """Inside a write transaction: the match's derived rows from its stored hands,
    replayed by today's engine. A stored match the engine no longer scores (a rule
    changed under it) is still listed, with no totals and no stats rows: never fatal."""
    row = match_row(db, match_id, deleted=True)
    match = to_match(row, stored_hands(db, match_id))
    imported = db.execute("select 1 from audit where match_id = ? and action = 'import' limit 1",
                          [match_id]).fetchone() is not None
    try:
        result = replay(match)
    except MatchError:
        db.table("summaries").upsert(
            {"match_id": match_id, "hands": len(match.hands), "finished": 0, "winners": None, "totals": None,
             "names": "\x1f".join(same_name(n) for n in match.players), "imported": int(imported),
             "derived_version": DERIVED_VERSION}, pk="match_id")
        db.execute("delete from match_players where match_id = ?", [match_id])
        return
    write_all(db, match_id, result, match.hands, imported)


def stale_matches(db: Database) -> list[int]:
    """The matches whose derived rows are missing or were written by older code."""
    return [r[0] for r in db.execute(
        "select m.id from matches m left join summaries s on s.match_id = m.id "
        "where s.match_id is null or coalesce(s.derived_version, 0) < ? order by m.id",
        [DERIVED_VERSION]).fetchall()]


def refresh_stale(db: Database) -> int:
    """Rebuild every stale match's derived rows (one transaction each, so a server
    that starts meanwhile waits for one match, not all). Idempotent: a second call
    finds nothing to do. Returns how many matches were rebuilt."""
    stale = stale_matches(db)
    for match_id in stale:
        with writing(db):
            rebuild(db, match_id)
    return len(stale)
