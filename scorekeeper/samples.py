"""Random valid hands, as a table might record them: for property tests, the
benchmark and demo matches. Not a rule: every hand here is still checked and
scored by the engine."""
from __future__ import annotations

import random

from .engine import Match, check_match
from .games import third_hand as th, third_wheel as tw
from .games.base import Progress
from .games.third_rail import tricks_per_hand

THIRD_HAND_DECK = ["A"] * 4 + ["9"] * 4 + ["10"] * 4 + ["P"] * 12
THIRD_HAND_POINTS = {"A": 1, "9": 9, "10": 10, "P": 10}


def split(total: int, seats: int, rng: random.Random) -> list[int]:
    """``total`` tricks shared out at random among ``seats``."""
    counts = [0] * seats
    for _ in range(total):
        counts[rng.randrange(seats)] += 1
    return counts


def third_hand(dealer: int, rng: random.Random) -> dict:
    non_dealer = 1 - dealer
    bids: list[str | None] = [None, None]
    if rng.random() < 0.6:
        bids[non_dealer] = rng.choice(th.RANKS)
    higher = [r for r in th.RANKS if bids[non_dealer] is None
              or th.RANKS.index(r) > th.RANKS.index(bids[non_dealer])]
    if higher and rng.random() < 0.5:
        bids[dealer] = rng.choice(higher)
    captured = rng.sample(THIRD_HAND_DECK, 14)
    points = [0, 0]
    for trick in range(7):
        points[rng.randrange(2)] += sum(THIRD_HAND_POINTS[c] for c in captured[2 * trick: 2 * trick + 2])
    hand = {"bids": bids, "trump": rng.choice(th.TRUMPS), "points": points}
    if bids != [None, None] and rng.random() < 0.3:
        hand["exchanged"] = True
    return hand


def third_wheel(dealer: int, rng: random.Random) -> dict:
    wheel = rng.random() < 0.3
    bid = rng.choice([0, 6, 7, 8, 9, 10, 11]) if wheel else rng.randrange(12)
    return {"trump": rng.choice(tw.SUITS),
            "mode": rng.choice(tw.MODES), "wheel": wheel, "bid": bid,
            "tricks": split(11, 3, rng)}


def dummy_spades(dealer: int, rng: random.Random) -> dict:
    counts = split(13, 4, rng)
    hand = {"bids": [rng.randrange(14) for _ in range(3)], "tricks": counts[:3], "dummy_tricks": counts[3]}
    if rng.random() < 0.3:
        bidder = rng.randrange(3)
        nils: list[list] = [[], [], []]
        nils[bidder] = rng.sample([0, 1, 2, "dummy"], rng.randint(1, 2))
        hand["nils"] = nils
    return hand


def third_rail(dealer: int, rng: random.Random, players: int = 3) -> dict:
    return {"winners": [rng.randrange(players) for _ in range(tricks_per_hand(players))]}


def random_hand(game: str, players: int, dealer: int, rng: random.Random) -> dict:
    if game == "third_rail":
        return third_rail(dealer, rng, players)
    return {"third_hand": third_hand, "third_wheel": third_wheel, "dummy_spades": dummy_spades}[game](dealer, rng)


NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
PLAYERS = {"third_hand": 2, "third_wheel": 3, "dummy_spades": 3, "third_rail": 3}
# Settings under which no number of hands ends the game, for benchmarks.
ENDLESS = {
    "third_hand": {"target": 10**9},
    "third_wheel": {"target": 0, "deals_each": 10**6},
    "dummy_spades": {"target": 10**9},
    "third_rail": {"target": 10**9},
}


def random_match(game: str, hands: int, seed: int = 0, players: int | None = None,
                 settings: dict | None = None, first_dealer: int = 0) -> Match:
    """A match of up to ``hands`` random valid hands, stopping early where the game
    ends. Each hand is dealt by the dealer the rules pick (Third Hand's depends on
    the last hand's scores, so the match is scored as it is built)."""
    rng = random.Random(seed)
    seats = players or PLAYERS[game]
    match = Match(game=game, players=NAMES[:seats], settings=settings or {}, first_dealer=first_dealer)
    rules, table = check_match(match)
    state, dealer = rules.start(table), first_dealer
    totals = [0] * seats
    for number in range(1, hands + 1):
        hand = random_hand(game, seats, dealer, rng)
        match.hands.append(hand)
        scored = rules.score_hand(hand, table, dealer, state)
        state = scored.state
        totals = [t + s for t, s in zip(totals, scored.scores)]
        if rules.winners(table, Progress(totals, number, state)) is not None:
            break
        dealer = rules.next_dealer(table, dealer, scored)
    return match


def endless_match(game: str, hands: int, seed: int = 0) -> Match:
    """A match of exactly ``hands`` hands under settings that never end it."""
    return random_match(game, hands, seed, settings=ENDLESS[game])
