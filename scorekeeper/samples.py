"""Random valid hands, as a table might record them: for property tests, the
benchmark and demo matches. Not a rule: every hand here is still checked and
scored by the engine."""
from __future__ import annotations

import random

from .engine import Match, replay
from .games import GAMES

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]  # enough for 8 seats
PLAYERS = {key: g.sample_players for key, g in GAMES.items()}
# Settings under which no number of hands ends the game, for benchmarks.
ENDLESS = {key: dict(g.endless_settings) for key, g in GAMES.items()}


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
        match.hands.append(GAMES[game].rules.random_hand(result.next_context(), rng))
        result = replay(match, resume=result)  # one more hand of the same fold
    return match


def endless_match(game: str, hands: int, seed: int = 0) -> Match:
    """A match of exactly ``hands`` hands under settings that never end it."""
    return random_match(game, hands, seed, settings=ENDLESS[game])
