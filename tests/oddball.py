"""Oddball: a game registered only by the tests (tests/conftest.py sets
``SCOREKEEPER_EXTRA_GAMES=tests.oddball``, read at app creation, so the real server
the browser tests start has it too). It is unlike every real game on purpose:
exactly 8 seats, no target, hand fields nobody else uses (``marbles``, ``weather``,
``rainbow``, ``rounds``, ``finder``: a player picked by name), no referee, a setting that only matters when another is on
(``fog_factor`` with ``fog_doubles``), and a trick tally and a card counter of shapes
unlike Third Rail's and Third Hand's (5 tricks for 8 players, three running columns,
its own marked tricks and a weather pick instead of a trump; three kinds of marble
with their own limits instead of four kinds of card). Anything the web layer assumes
about the real games fails on it in the generic and browser suites.

Play: each player says how many marbles they hold (0..9, one point each); in fog
(with ``fog_doubles`` on) every marble counts ``fog_factor`` times. A rainbow gives
the dealer 1 more, finding the lost marble its finder 1 more. The game ends after ``last_hand`` hands (0: never); the highest
total wins and a tie shares the win. Instead of the marbles, a hand may give the
winner of each of 5 ``rounds`` (tricks): a round wins 1 marble, rounds 2 and 4 win 2.
Marbles may also be counted by kind: glass and clay 1 each, a steelie 2.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from scorekeeper.games.base import (
    CardCounter,
    CountKind,
    Ending,
    FieldGroup,
    Game,
    GameSettings,
    HandContext,
    HandOutput,
    Place,
    Problem,
    Rules,
    Scored,
    Seating,
    Setting,
    Shown,
    Table,
    TallyChoice,
    TallyColumn,
    TrickMark,
    TrickTally,
    broken,
    check_bool,
    check_choice,
    check_count,
    check_seat_counts,
    is_whole,
    name_list,
    said,
)

WEATHERS = ("clear", "fog")
ROUNDS = 5  # tricks a hand, whatever the number of players
DOUBLE = (2, 4)  # the rounds that win two marbles
MOST = 9  # marbles a player may hold
# What a process the tests start needs to register this game too (scorekeeper.games reads it).
ENV = {"SCOREKEEPER_EXTRA_GAMES": __name__,
       "PYTHONPATH": os.pathsep.join(p for p in (str(Path(__file__).resolve().parents[1]),
                                                 os.environ.get("PYTHONPATH")) if p)}


@dataclass(frozen=True)
class LastHand:
    """Why the game ended (``Ending.own``): ``hand`` was the last, the leaders on ``best``."""

    hand: int
    best: int


@dataclass(frozen=True)
class OddballSettings(GameSettings):
    last_hand: int  # 0: never
    fog_doubles: bool
    fog_factor: int


@dataclass(frozen=True)
class MarblesHeld:
    """How a hand scored: the marbles each held, each worth ``factor``."""

    marbles: list[int]
    factor: int


@dataclass(frozen=True)
class RoundsOff:
    """What is wrong with the rounds: given with marbles ("both"), not one per round ("count"),
    or a ``seat`` that is not at the table winning ``round`` ("seat")."""

    what: str
    round: int = 0
    seat: Any = None


class OddballRules(Rules[OddballSettings]):
    """Marbles count; the last hand (if any) ends it; no target."""

    tie_shares_win = True

    def check_hand(self, hand: dict, ctx: HandContext) -> list[Problem]:
        problems = self._check_marbles(hand, ctx.table) + check_choice(hand, "weather", WEATHERS)
        problems += check_bool(hand, "rainbow") if "rainbow" in hand else []
        return problems + (check_count(hand, "finder", 0, ctx.seats - 1) if "finder" in hand else [])

    def _check_marbles(self, hand: dict, table: Table) -> list[Problem]:
        if "rounds" in hand and "marbles" in hand:
            return [broken("rounds", RoundsOff("both"))]
        if "rounds" not in hand:
            return check_seat_counts(hand, "marbles", table, MOST)
        rounds = hand["rounds"]
        if not isinstance(rounds, list) or len(rounds) != ROUNDS:
            return [broken("rounds", RoundsOff("count"))]
        return [broken("rounds", RoundsOff("seat", i, seat))
                for i, seat in enumerate(rounds) if not is_whole(seat) or not 0 <= seat < table.seats]

    def score_hand(self, hand: dict, ctx: HandContext) -> Scored:
        table, dealer = ctx.table, ctx.dealt_by
        settings = OddballSettings.at(table)
        factor = settings.fog_factor if hand["weather"] == "fog" and settings.fog_doubles else 1
        marbles = hand["marbles"] if "marbles" in hand else rounds_won(hand["rounds"], table.seats)[0]
        scores = [count * factor for count in marbles]
        if hand.get("rainbow"):
            scores[dealer] += 1
        if "finder" in hand:
            scores[hand["finder"]] += 1
        return Scored(scores, MarblesHeld(marbles, factor))

    def ending(self, place: HandContext) -> Ending:
        table = place.table
        last = OddballSettings.at(table).last_hand
        if not last or place.hands_played < last:
            return Ending(None)
        best = max(place.totals)
        return Ending([s for s, t in enumerate(place.totals) if t == best], own=LastHand(last, best))

    def hands_left(self, place: HandContext) -> int | None:
        settings, dealt, next_dealer = OddballSettings.at(place.table), list(place.dealt), place.dealer
        last = settings.last_hand
        if not is_whole(last) or not last:
            return None
        return 0 if next_dealer is None else max(0, last - sum(dealt))

    def random_hand(self, ctx: HandContext, rng: Any) -> dict:
        weather = rng.choice(WEATHERS)
        if ctx.number % 2:  # every other hand trick by trick, so a correction can open the tally
            return {"rounds": [rng.randrange(ctx.seats) for _ in range(ROUNDS)], "weather": weather}
        return {"marbles": [rng.randrange(10) for _ in range(ctx.seats)], "weather": weather}

    def most_in_a_hand(self, place: HandContext) -> int | None:
        settings = OddballSettings.at(place.table)
        return 9 * (settings.fog_factor if settings.fog_doubles else 1) + 1

    def least_in_a_hand(self, place: HandContext) -> int | None:
        return 0



def rounds_won(rounds: list[int], seats: int) -> list[list[int]]:
    """Per seat, from each round's winner so far: marbles won, rounds won, two-marble rounds won."""
    marbles, won, doubles = [0] * seats, [0] * seats, [0] * seats
    for number, seat in enumerate(rounds, start=1):
        double = number in DOUBLE
        marbles[seat] += 2 if double else 1
        won[seat] += 1
        doubles[seat] += double
    return [marbles, won, doubles]


def _marble_problems(counts: dict[int, dict[str, int] | None], names: tuple[str, ...]) -> list[str]:
    """Nobody holds more than 9 marbles, however they are made up."""
    return [f"{names[seat]} counted {held} marbles, but nobody holds more than {MOST}"
            for seat, counted in counts.items() if counted is not None and (held := _held(counted)) > MOST]


def _held(counted: dict[str, int]) -> int:
    return counted["glass"] + counted["clay"] + 2 * counted["steel"]


class OddballShown(Shown):
    """Its own fields, a guide line, a sheet line, a tally of rounds, a marble counter."""

    def explanation_words(self, hand: dict, scored: Scored, ctx: HandContext) -> list[str]:
        held, names = scored.why, ctx.players
        lines = [f"{name} held {count} marble{'' if count == 1 else 's'}: {count * held.factor}"
                 for name, count in zip(names, held.marbles)]
        if hand.get("rainbow"):
            lines.append(f"{names[ctx.dealt_by]} dealt under a rainbow: 1 more")
        if "finder" in hand:
            lines.append(f"{names[hand['finder']]} found the lost marble: 1 more")
        return lines

    def problem_words(self, fact: Any, place: HandContext) -> dict[str, Any]:
        if fact.what == "both":
            return said("give either marbles or the winner of every round, not both")
        if fact.what == "count":
            return said(f"must list the winner of each of the {ROUNDS} rounds")
        return said(f"round {fact.round + 1}: seat {fact.seat!r} is not a seat at this table")

    def ending_words(self, ending: Ending, place: HandContext) -> str | None:
        last = ending.own
        if not isinstance(last, LastHand):  # the game goes on: nothing to say
            return super().ending_words(ending, place)
        leaders = ending.winners or []
        return (f"hand {last.hand} was the last; {name_list([place.players[s] for s in leaders])} "
                f"{'has' if len(leaders) == 1 else 'share'} the most marbles, {last.best}")

    rules_template = "rules/_ruling.html"  # a page of its own would be a real game's file

    def table_guide(self, ctx: HandContext) -> list[str]:
        return [f"{ctx.players[ctx.dealt_by]} deals the marbles and leads the first trick."]

    def hand_form(self, ctx: HandContext) -> list[FieldGroup]:
        return [
            FieldGroup("marbles", "Marbles held", "seat_int", tuple(range(ctx.seats))),
            FieldGroup("weather", "Weather", "radio", choices=tuple((w, w) for w in WEATHERS)),
            FieldGroup("rainbow", "A rainbow over the dealer", "bool", optional=True),
            FieldGroup("finder", "Who found the lost marble", "seat", tuple(range(ctx.seats)), optional=True),
            FieldGroup("rounds", "Or the winner of each of the 5 tricks", "winners", optional=True, in_details=True,
                       hint="Seat numbers " + ", ".join(f"{s + 1} = {p}" for s, p in enumerate(ctx.players)) + ".",
                       alternative_to=("marbles",)),
            FieldGroup("count_marbles", "Count marbles by kind instead", "counts", tuple(range(ctx.seats)),
                       optional=True, in_details=True, hint="Glass and clay count 1 each, a steelie 2."),
        ]

    def card_counter(self) -> CardCounter:
        return CardCounter("marbles", (CountKind("glass", "Glass", 9), CountKind("clay", "Clay", 9),
                                       CountKind("steel", "Steelies", 4, word="steelies")),
                           _held, _marble_problems, heading="Marbles held", counted="counted marbles",
                           typed="marbles held")

    def trick_tally(self, place: HandContext) -> TrickTally:
        settings, seats = OddballSettings.at(place.table), place.seats
        def to_hand(rounds: list[int], weather: str | None) -> dict:
            return {"rounds": list(rounds), "weather": weather or "clear"}

        def from_hand(hand: dict) -> tuple[list[int], str | None] | None:
            if not isinstance(hand.get("rounds"), list):
                return None
            return list(hand["rounds"]), "fog" if hand.get("weather") == "fog" else None

        def as_counts(hand: dict) -> dict:
            return {"marbles": rounds_won(hand["rounds"], seats)[0], **{k: v for k, v in hand.items() if k != "rounds"}}

        notes = [f"Tricks {DOUBLE[0]} and {DOUBLE[1]} win two marbles each."]
        if settings.fog_doubles:
            notes.append(f"In fog every marble counts {settings.fog_factor} times: added in once all {ROUNDS} "
                         "tricks are in.")
        return TrickTally(ROUNDS, (TallyColumn("Marbles", settles="for fog"), TallyColumn("Tricks"),
                                   TallyColumn("Two-marble tricks")),
                          lambda rounds: rounds_won(rounds, seats), to_hand, from_hand, as_counts,
                          mark=TrickMark(lambda number: number in DOUBLE, "worth two marbles", "◆", "two-marble trick"),
                          choice=TallyChoice("weather", "Weather this hand", "clear", (("fog", "", ""),)),
                          notes=tuple(notes))

    def hand_summary(self, hand: dict, ctx: HandContext, extra: HandOutput) -> list[str]:
        # a rainbow is the dealer's: named with the hand it fell on and, where known, who dealt
        # it, so a summary shows whether a page was told the hand's own place (the match log's)
        parts = [str(hand.get("weather", ""))]
        if hand.get("rainbow"):
            parts.append(f"rainbow on hand {ctx.number}" + ("" if ctx.dealer is None
                                                             else f", {ctx.players[ctx.dealer]}'s deal"))
        return parts

    def seating(self, ctx: HandContext, hand: dict | None = None) -> Seating:
        """Unlike the shared flow, the dealer leads the first trick too."""
        dealer = ctx.dealt_by
        return Seating(tuple(Place(name, seat, ("deals", "leads") if seat == dealer else (), deals=seat == dealer,
                                   leads=seat == dealer) for seat, name in enumerate(ctx.players)))

    def sheet_rules(self, place: HandContext) -> list[str]:
        return ["Each marble scores 1 (in fog with fog multiplying: more); a rainbow scores the dealer 1 more."]


class Oddball(Game):
    key = "oddball"
    title = "Oddball (test only)"
    summary = "8 players count their marbles; no target, no cards"
    min_players = 8
    max_players = 8
    settings = (
        Setting("last_hand", 0, "Last hand", "The game ends after this many hands (0: never).", minimum=0),
        Setting("fog_doubles", False, "Fog multiplies marbles", "In fog every marble counts more.", kind="bool"),
        Setting("fog_factor", 2, "Fog factor", "With fog multiplying marbles: how many times each counts.",
                minimum=2, maximum=5, applies_when=("fog_doubles", True)),
    )
    settings_type = OddballSettings
    hand_fields = ("marbles", "weather", "rainbow", "rounds", "finder")
    # Marbles or rounds will do, so neither is required; check_hand insists on exactly one.
    required_fields = ("weather",)
    sample_players = 8
    sample_settings: ClassVar[tuple[dict, ...]] = ({"last_hand": 6}, {"last_hand": 3, "fog_doubles": True,
                                                                       "fog_factor": 4}, {})

    def optional_fields(self, place: HandContext) -> tuple[str, ...]:
        return ("rainbow", "finder")

    def long_match(self, hands: int, seats: int) -> dict | None:
        return {"last_hand": 0}  # never a last hand

    rules = OddballRules()
    shown = OddballShown()
    referee = None


GAME = Oddball()
