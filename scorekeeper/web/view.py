"""Presentation helpers shared by the blueprints. Nothing here computes a score:
every number shown comes from ``engine.replay``; this only arranges it."""
from __future__ import annotations

import threading
from collections import OrderedDict

from flask import current_app, g, render_template, request

from ..engine import Match, MatchResult, replay
from ..games import GAMES
from ..games.base import ordinal  # noqa: F401  (a template filter)
from ..games.cards import SUIT_SIGNS


def render_page_or_partial(template: str, **context) -> str:
    """``templates/partial/<template>`` for an htmx request that is not boosted,
    else the full page ``templates/<template>`` (which includes the partial)."""
    if is_partial_request():
        return render_template(f"partial/{template}", **context)
    return render_template(template, **context)


# The last result of a few matches, kept across requests so the next save only folds
# its own hand. Keyed by (database, match, version): every write bumps the version, so a
# stale entry is never read, even with several processes on one file.
_RECENT: OrderedDict = OrderedDict()
_RECENT_SIZE = 32
_RECENT_LOCK = threading.Lock()  # waitress serves requests on several threads


def _key(match_id: int, version: int) -> tuple:
    return (current_app.config.get("DATABASE"), match_id, version)


def replayed(info: dict) -> MatchResult:
    """The stored match's result, replayed once per request: the scoreboard, the
    table guide and the hand form all need it. Keyed by version, which every write
    bumps, so a request that saved sees the new match."""
    memo = g.setdefault("replayed", {})
    key = _key(info["id"], info["version"])
    if key not in memo:
        with _RECENT_LOCK:
            recent = _RECENT.get(key)
        memo[key] = recent if recent is not None and len(recent.hands) == len(info["match"].hands) \
            else replay(info["match"])
        remember(info["id"], info["version"], memo[key])
    return memo[key]


def remember(match_id: int, version: int, result: MatchResult) -> None:
    """``result`` is the replay of match ``match_id`` as stored at ``version``
    (a write's result): later requests for that version resume from it."""
    key = _key(match_id, version)
    g.setdefault("replayed", {})[key] = result
    with _RECENT_LOCK:
        _RECENT[key] = result
        _RECENT.move_to_end(key)
        while len(_RECENT) > _RECENT_SIZE:
            _RECENT.popitem(last=False)


def is_partial_request() -> bool:
    htmx = getattr(request, "htmx", None)
    # a history restore (back/reload of a pushed URL missing from htmx's cache) swaps the whole body
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request


def signed(points: int | None) -> str:
    if points is None:
        return ""
    return f"+{points}" if points > 0 else str(points)


def game_title(key: str) -> str:
    game = GAMES.get(key)
    return game.title if game and game.title else key.replace("_", " ").title()


def standings(players: list[str], totals: list[int], winners: list[int] | None = None) -> list[dict]:
    """Players by total, highest first; ties share a place (1st, 1st, 3rd)."""
    rows = []
    for seat, (name, total) in enumerate(zip(players, totals)):
        place = 1 + sum(1 for t in totals if t > total)
        rows.append({"seat": seat, "name": name, "total": total, "place": place,
                     "tied": sum(1 for t in totals if t == total) > 1,
                     "winner": bool(winners) and seat in winners})
    rows.sort(key=lambda r: (r["place"], r["seat"]))
    return rows


def suit_name(suit) -> str:
    """ "♦\u00a0diamonds": the sign never wraps away from its name."""
    sign = SUIT_SIGNS.get(suit, "") if isinstance(suit, str) else ""
    return f"{sign}\u00a0{suit}" if sign else str(suit)


def _by_player(what: str, players: list[str], values: list) -> str:
    """ "bids: Ann 7 · Bob 5 · Cy 6", in seat order, each value with its player."""
    if not values:
        return ""
    return f"{what}: " + " · ".join(f"{name} {value}" for name, value in zip(players, values))


def hand_summary(game: str, hand: dict, players: list[str], extra: dict | None = None) -> str:
    """The key inputs of a hand, short: "bid 5 · wyrms high · wheel"."""
    extra = extra or {}
    parts: list[str] = []
    if game == "third_hand":
        bids = hand.get("bids") or []
        parts.append(_by_player("bids", players, ["pass" if b is None else b for b in bids]))
        if hand.get("trump"):
            parts.append(suit_name(hand["trump"]))
        holder = extra.get("holder")
        if isinstance(holder, int) and 0 <= holder < len(players):
            made = extra.get("made")
            word = "made" if made else "failed" if made is False else ""
            parts.append(f"{players[holder]} {word}".strip() + (" (doubled)" if extra.get("doubled") else ""))
        elif "holder" in extra:
            parts.append("no contract")
        if hand.get("exchanged"):
            parts.append("exchanged")
    elif game == "third_wheel":
        if "bid" in hand:
            parts.append(f"bid {hand['bid']}")
        if hand.get("trump"):
            parts.append(f"{hand['trump']} {hand.get('mode', '')}".strip())
        if hand.get("wheel"):
            parts.append("took the Wheel")
    elif game == "dummy_spades":
        bids = hand.get("bids") or []
        parts.append(_by_player("bids", players, bids))
        declarer = extra.get("declarer")
        if isinstance(declarer, int) and 0 <= declarer < len(players):
            parts.append(f"{players[declarer]} declares")
        nils = hand.get("nils") or []
        bidders = [players[s] for s, n in enumerate(nils) if n and s < len(players)]
        if bidders:
            parts.append("nil: " + ", ".join(bidders))
    elif game == "third_rail":
        if "scoring_tricks" in hand:
            parts.append(_by_player("scoring tricks", players, hand["scoring_tricks"]))
        elif "winners" in hand:
            parts.append(f"{len(hand['winners'])} tricks by winner")
        if hand.get("trump"):
            parts.append(f"trump {suit_name(hand['trump'])}")
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
    hands_left = None
    deals_each = settings.get("deals_each")
    if game == "third_wheel" and isinstance(deals_each, int) and deals_each > 0:
        total_hands = deals_each * len(result.players)
        hands_left = max(0, total_hands - len(result.hands))
        lines.append(f"hand {min(len(result.hands) + 1, total_hands)} of {total_hands}"
                     if not result.finished else f"{len(result.hands)} of {total_hands} hands played")
        if percent is None:
            percent = round(100 * len(result.hands) / total_hands)
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
    for hand_result, hand in zip(result.hands[rows_from - 1:], match.hands[rows_from - 1:]):
        rows.append({
            "number": hand_result.number,
            "dealer": players[hand_result.dealer],
            "summary": hand_summary(match.game, hand, players, hand_result.extra),
            "scores": hand_result.scores,
            "totals": hand_result.totals,
            "explanation": hand_result.explanation,
            "bags": hand_result.extra.get("bags"),
            "changed": hand_result.number in changed_hands,
        })
    bags = rows[-1]["bags"] if rows and match.game == "dummy_spades" else None
    from .chart import running_totals_svg

    return {
        "players": players,
        "standings": standings(players, result.totals, result.winners if result.finished else None),
        "rows": rows,
        "bags": bags,
        "is_spades": match.game == "dummy_spades",
        "progress": progress(match.game, result.settings, result),
        "next_dealer": None if result.next_dealer is None else players[result.next_dealer],
        "finished": result.finished,
        "winners": [players[s] for s in result.winners],
        # a saved hand's answer leaves the chart to load when it is seen (see hands.chart)
        "chart": running_totals_svg(players, [r.totals for r in result.hands]) if result.hands and rows_from == 1
        else None,
        "changed": changed,
    }
