"""Presentation helpers shared by the blueprints. Nothing here computes a score:
every number shown comes from ``engine.replay``; this only arranges it."""
from __future__ import annotations

from ..engine import Match, MatchResult
from ..games import GAMES, base
from ..games.base import ordinal  # noqa: F401  (a template filter)


def signed(points: int | None) -> str:
    if points is None:
        return ""
    return f"+{points}" if points > 0 else str(points)


def game_title(key: str) -> str:
    game = GAMES.get(key)
    return game.title if game and game.title else key.replace("_", " ").title()


def standings(players: list[str], totals: list[int], winners: list[int] | None = None,
              last: list[int] | None = None) -> list[dict]:
    """Players by total, highest first; ties share a place (1st, 1st, 3rd). ``last``:
    each seat's points in the last hand, shown beside the total."""
    rows = []
    for seat, (name, total) in enumerate(zip(players, totals)):
        place = 1 + sum(1 for t in totals if t > total)
        rows.append({"seat": seat, "name": name, "total": total, "place": place,
                     "tied": sum(1 for t in totals if t == total) > 1,
                     "winner": seat in (winners or []),
                     "last": None if last is None else last[seat]})
    rows.sort(key=lambda r: (r["place"], r["seat"]))
    return rows


def suit_name(suit) -> str:
    """ "♦\u00a0diamonds": the sign never wraps away from its name."""
    return base.suit_name(suit)


def hand_summary(game: str, hand: dict, players: list[str], extra: dict | None = None) -> str:
    """The key inputs of a hand, short: "bid 5 · wyrms high · wheel"."""
    parts = GAMES[game].hand_summary(hand, players, extra or {})
    if "dealer" in hand and isinstance(hand["dealer"], int):
        parts.append("dealt out of turn")
    return " · ".join(p for p in parts if p)


def progress(game: str, settings: dict, result: MatchResult) -> dict:
    """What the match is playing towards, read from the settings (not scored)."""
    lines = []
    target = settings.get("target")
    best = max(result.totals) if result.totals else 0
    percent = None
    if isinstance(target, int) and target > 0:
        past = GAMES[game].past_target
        lines.append(f"Playing {'past' if past else 'to'} {target}")
        percent = max(0, min(100, round(100 * best / target)))
        if not result.finished:
            to_go = target - best + (1 if past else 0)
            if to_go > 0:
                lines.append(f"leader needs {to_go} more")
    played = len(result.hands)
    hands_left = GAMES[game].hands_left(settings, result.dealt, result.next_dealer)
    if hands_left is not None:
        total_hands = played + hands_left
        lines.append(f"{played} hands played" if result.finished or not hands_left
                     else f"hand {played + 1} of {total_hands}")
        if percent is None and total_hands:
            percent = round(100 * played / total_hands)
    lose_at = settings.get("lose_at")
    if isinstance(lose_at, int):
        lines.append(f"ends if anyone falls to {lose_at}")
    return {"lines": lines, "percent": percent, "hands_left": hands_left}


def scoreboard(info: dict, result: MatchResult, changed: dict | None = None, rows_from: int = 1) -> dict:
    """Everything the scoreboard template shows (the hand rows from hand ``rows_from`` on)."""
    match: Match = info["match"]
    players = result.players
    changed_hands = set((changed or {}).get("hands", []))
    rows = []
    counter = GAMES[match.game].seat_counter  # bags, shown beside each total
    for hand_result, hand in zip(result.hands[rows_from - 1:], match.hands[rows_from - 1:]):
        rows.append({
            "number": hand_result.number,
            "dealer": players[hand_result.dealer],
            "summary": hand_summary(match.game, hand, players, hand_result.extra),
            "scores": hand_result.scores,
            "totals": hand_result.totals,
            "explanation": hand_result.explanation,
            "bags": hand_result.extra.get(counter) if counter else None,
            "changed": hand_result.number in changed_hands,
        })
    bags = rows[-1]["bags"] if rows else None
    from .chart import running_totals_svg

    return {
        "players": players,
        "standings": standings(players, result.totals, result.winners if result.finished else None,
                               result.hands[-1].scores if result.hands else None),
        "last_number": len(result.hands),
        "rows": rows,
        "bags": bags,
        "progress": progress(match.game, result.settings, result),
        "next_dealer": None if result.next_dealer is None else players[result.next_dealer],
        "finished": result.finished,
        "ending": result.hands[-1].ending if result.hands else None,
        "winners": [players[s] for s in result.winners],
        # a saved hand's answer leaves the chart to load when it is seen (see hands.chart)
        "chart": running_totals_svg(players, [r.totals for r in result.hands]) if result.hands and rows_from == 1
        else None,
        "changed": changed,
    }
