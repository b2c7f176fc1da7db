"""Reading the numbers back out of explanation lines (rules.md "Every line is true").

A game's checks are a table of sentence patterns, each with a check of the numbers
its named groups hold against the hand, the rules and the replay. Every number in a
line must be claimed by a pattern (inside one of its named groups), so a new
sentence with a number nobody checks fails too."""
from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from scorekeeper.engine import Match, MatchError, replay
from scorekeeper.games import GAMES
from scorekeeper.games.base import Game, HandContext, Table
from scorekeeper.samples import NAMES
from tests.places import blank_place

W = "(?:" + "|".join(NAMES) + ")"
NL = f"{W}(?:(?:, | and ){W})*"  # "Ann", "Ann and Bob", "Ann, Bob and Cy"
N = r"-?\d+"
T = r"(?:once|twice|\d+ times?)"  # a count of deals ("1 time" too: read and checked, never missed)


def count_of(times: str) -> int:
    return {"once": 1, "twice": 2}.get(times) or int(times.split()[0])


def names_in(text: str) -> list[str]:
    return re.findall(W, text)


@dataclass
class Seen:
    """One scored hand as a check sees it: the hand as recorded, the rules in force and
    what the replay says before and after it."""

    table: Table
    hand: dict
    number: int
    dealer: int
    in_turn: int
    scores: list[int]
    totals: list[int]
    before: list[int]  # totals before the hand
    dealt: list[int]  # hands each seat has dealt, this one included
    finished: bool
    winners: list[int]
    extra: dict
    extra_before: dict
    game: str = ""  # the game's key: a few rules (who deals next in Third Hand) are one game's own

    @property
    def settings(self) -> dict:
        return self.table.settings

    @property
    def players(self) -> tuple[str, ...]:
        return self.table.players

    def seat(self, name: str) -> int:
        assert name in self.players, f"{name!r} is not at the table"
        return self.players.index(name)

    def seats(self, names: str) -> list[int]:
        return [self.seat(n) for n in names_in(names)]

    @property
    def leaders(self) -> list[int]:
        best = max(self.totals)
        return [s for s, t in enumerate(self.totals) if t == best]


Check = Callable[[re.Match, Seen], None]


@dataclass
class Rules:
    patterns: list[tuple[re.Pattern, Check]] = field(default_factory=list)
    # how often each pattern read a line: a pattern that never does checks nothing
    hits: Counter = field(default_factory=Counter)

    def __call__(self, pattern: str) -> Callable[[Check], Check]:
        def add(check: Check) -> Check:
            self.patterns.append((re.compile(pattern), check))
            return check
        return add


def check_line(line: str, seen: Seen, rules: list[Rules]) -> list[str]:
    """What is untrue or unchecked in one line (empty: every number in it is true)."""
    claimed = [False] * len(line)
    errors = []
    for table in rules:
        for pattern, check in table.patterns:
            for m in pattern.finditer(line):
                table.hits[pattern.pattern] += 1
                try:
                    check(m, seen)
                except AssertionError as error:
                    errors.append(f"hand {seen.number}: untrue line {line!r} (read by {check.__name__}): {error}")
                groups = [m.span(g) for g in pattern.groupindex if m.span(g)[0] >= 0]
                for number in re.finditer(r"\d+", line[m.start():m.end()]):
                    start, end = number.start() + m.start(), number.end() + m.start()
                    if not any(a <= start and end <= b for a, b in groups):
                        errors.append(f"the pattern {pattern.pattern!r} takes the number {number.group()} "
                                      f"in {line!r} unchecked")
                for i in range(m.start(), m.end()):
                    claimed[i] = True
    for number in re.finditer(r"\d+", line):
        if not all(claimed[number.start():number.end()]):
            errors.append(f"hand {seen.number}: no check reads the number {number.group()} in {line!r}")
    return errors


def play_and_check(game_key: str, rng: random.Random, settings: dict, seats: int, make_hand,
                   rules: list[Rules], must_say: Callable[[Seen], list[str]], hands: int = 60,
                   out_of_turn: float = 0.12) -> int:
    """Play a random match hand by hand (some hands dealt out of turn) and check every
    explanation line of every hand; returns the number of lines checked."""
    game = GAMES[game_key]
    match = Match(game_key, NAMES[:seats], settings, rng.randrange(seats))
    result = replay(match)
    lines = 0
    for _ in range(hands):
        if result.next_dealer is None:
            break
        in_turn = result.next_dealer
        dealer = rng.randrange(seats) if rng.random() < out_of_turn else in_turn
        hand = make_hand(game, result.next_place().dealing(dealer), rng)
        if dealer != in_turn:
            hand["dealer"] = dealer
        match.hands.append(hand)
        try:
            after = replay(match, resume=result)
        except MatchError:
            match.hands.pop()  # a hand the rules refuse (a dealer's bid that does not top): try another
            continue
        scored = after.hands[-1]
        seen = Seen(Table(tuple(after.players), after.settings), hand, scored.number, scored.dealer, in_turn,
                    scored.scores, scored.totals, list(result.totals), list(after.dealt), after.finished,
                    after.winners, scored.extra.as_json(), result.hands[-1].extra.as_json() if result.hands else {}, game_key)
        errors = [error for line in scored.explanation for error in check_line(line, seen, rules)]
        errors += [f"hand {seen.number}: nothing says /{said}/ in {scored.explanation}" for said in must_say(seen)
                   if not any(re.search(said, line) for line in scored.explanation)]
        assert not errors, "\n".join([f"{game_key} {settings}, {seats} players:", *errors])
        lines += len(scored.explanation)
        result = after
    return lines


def random_settings(game_key: str, rng: random.Random, seats: int) -> dict:
    """Any valid combination of the game's settings for ``seats`` players (a few values of each number)."""
    game = GAMES[game_key]
    while True:
        chosen: dict = {}
        for s in game.settings:
            if s.kind == "bool":
                chosen[s.name] = rng.random() < 0.5
            elif s.kind == "choice":
                chosen[s.name] = rng.choice(s.choices)
            elif s.kind == "int_or_null":
                chosen[s.name] = rng.choice([None, None, -1, -50, -200])
            elif isinstance(s.default, str):  # a free text setting (the pad's name): not scored
                chosen[s.name] = rng.choice(["", s.default, "Hearts"])
            elif s.kind == "table":
                chosen[s.name] = {k: rng.choice([0, 40, 60, 70, 85, 100, 140]) for k in s.choices}
            else:
                low = s.minimum if s.minimum is not None else 0
                high = s.maximum if s.maximum is not None else low + 600
                chosen[s.name] = rng.choice(sorted({low, min(low + 1, high), min(low + 2, high),
                                                    rng.randint(low, high), min(s.default, high)}))
        if not game.rules.check_settings(blank_place(game, chosen, seats)):
            return chosen


def left_of_dealer(s: Seen) -> int:
    """The shared rule: the deal passes left of whoever dealt."""
    return (s.dealer + 1) % s.table.seats


class Case(NamedTuple):
    """What the checks know of one game, from its rules: how to make a hand, the tables of
    its sentences, a few values of its numeric settings worth playing, its seat counts, who
    deals next, whether its target must be passed, and what else every hand must say."""

    make_hand: Callable[[Game, HandContext, random.Random], dict]
    rules: list[Rules]
    numbers: dict[str, list]
    seats: tuple[int, int]
    next_dealer: Callable[[Seen], int] = left_of_dealer
    past_target: bool = False
    also_says: Callable[[Seen], list[str]] = lambda s: []
