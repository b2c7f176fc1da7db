"""Random valid hands, as a table might record them: for property tests, the
benchmark and demo matches. Not a rule: every hand here is still checked and
scored by the engine."""
from __future__ import annotations

import random

from .engine import Match, replay
from .games import GAMES
from .games.base import Table, stand_ins

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]  # enough for 8 seats
PLAYERS = {key: g.sample_players for key, g in GAMES.items()}


def random_match(game: str, hands: int, seed: int = 0, players: int | None = None,
                 settings: dict | None = None, first_dealer: int = 0) -> Match:
    """A match of up to ``hands`` random valid hands, stopping early where the game
    ends. Each hand is dealt by the dealer the rules pick (Third Hand's depends on
    the last hand's scores, so the match is scored as it is built)."""
    rng = random.Random(seed)
    seats = players or PLAYERS[game]
    match = Match(game=game, players=NAMES[:seats], settings=settings or {}, first_dealer=first_dealer)
    result = replay(match)
    for _ in range(hands):
        if result.next_dealer is None:
            break
        match.hands.append(GAMES[game].rules.random_hand(result.next_place(), rng))
        result = replay(match, resume=result)  # one more hand of the same fold
    return match


def long_settings(game: str, hands: int, players: int | None = None) -> dict:
    """The settings under which a match of ``game`` goes on for ``hands`` hands whatever they
    score, as the game gives them (``Game.long_match``). A game with no match that long (its
    hands follow a fixed schedule) raises ValueError: the caller asked for more than it plays."""
    seats = players or PLAYERS[game]
    found = GAMES[game].long_match(hands, seats)
    if found is None:
        raise ValueError(f"{game}: no match of {seats} players lasts {hands} hands")
    return found


def longest(game: str, hands: int, players: int | None = None) -> int:
    """The most hands, up to ``hands``, that a match of ``game`` can last (as the game says,
    ``Game.long_match``): ``hands`` itself for a game that can go on, fewer for one whose
    hands follow a fixed schedule. For a test that wants room to play on, not a set length."""
    seats = players or PLAYERS[game]
    low, high = 0, hands  # a match that can last n hands can last fewer: the longest is found by halves
    while low < high:
        middle = (low + high + 1) // 2
        if GAMES[game].long_match(middle, seats) is None:
            high = middle - 1
        else:
            low = middle
    return low


def lasting_settings(game: str, hands: int, players: int | None = None) -> dict:
    """``long_settings`` for as many of ``hands`` hands as the game plays (``longest``)."""
    return long_settings(game, longest(game, hands, players), players)


def wide_long_settings(game: str, hands: int, players: int | None = None) -> dict:
    """``long_settings`` with every on/off setting on where the game allows that (each draws
    its own columns and words: the widest pages), for layout and print tests."""
    described, seats = GAMES[game], players or PLAYERS[game]
    lasting = long_settings(game, hands, seats)
    wide = {s.name: True for s in described.settings if s.kind == "bool"} | lasting
    place = described.empty_place(Table(stand_ins(seats), {**described.defaults(), **wide}))
    refused = described.rules.check_settings(place)
    return lasting if refused else wide


def long_match(game: str, hands: int, seed: int = 0, players: int | None = None, more: int = 100) -> Match:
    """A match of exactly ``hands`` random hands that can go on for up to ``more`` hands after
    them, as many as the game plays (a test records more, a benchmark saves them one by one),
    under the settings the game gives for a match that long."""
    return random_match(game, hands, seed, players=players,
                        settings=long_settings(game, max(hands, longest(game, hands + more, players)), players))
