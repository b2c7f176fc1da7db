"""Oddball: a game registered only by the tests (tests/conftest.py sets
``SCOREKEEPER_EXTRA_GAMES=tests.oddball``, read at app creation, so the real server
the browser tests start has it too). It is unlike every real game on purpose:
exactly 8 seats, no target, hand fields nobody else uses (``marbles``, ``weather``,
``rainbow``), no referee, no trick tally, no card counter, and a setting that only
matters when another is on (``fog_factor`` with ``fog_doubles``). Anything the web
layer assumes about the real games fails on it in the generic and browser suites.

Play: each player says how many marbles they hold (0..9, one point each); in fog
(with ``fog_doubles`` on) every marble counts ``fog_factor`` times. A rainbow gives
the dealer 1 more. The game ends after ``last_hand`` hands (0: never); the highest
total wins and a tie shares the win.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, ClassVar

from scorekeeper.games.base import (
    Ending,
    FieldGroup,
    Game,
    HandContext,
    Problem,
    Progress,
    Rules,
    Scored,
    Setting,
    Shown,
    Table,
    check_bool,
    check_choice,
    check_seat_counts,
    is_whole,
    name_list,
)

WEATHERS = ("clear", "fog")
# What a process the tests start needs to register this game too (scorekeeper.games reads it).
ENV = {"SCOREKEEPER_EXTRA_GAMES": __name__,
       "PYTHONPATH": os.pathsep.join(p for p in (str(Path(__file__).resolve().parents[1]),
                                                 os.environ.get("PYTHONPATH")) if p)}


class OddballRules(Rules):
    """Marbles count; the last hand (if any) ends it; no target."""

    tie_shares_win = True

    def check_hand(self, hand: dict, ctx: HandContext) -> list[Problem]:
        problems = check_seat_counts(hand, "marbles", ctx.table, 9) + check_choice(hand, "weather", WEATHERS)
        return problems + (check_bool(hand, "rainbow") if "rainbow" in hand else [])

    def score_hand(self, hand: dict, ctx: HandContext) -> Scored:
        table, dealer = ctx.table, ctx.dealt_by
        factor = table.settings["fog_factor"] if hand["weather"] == "fog" and table.settings["fog_doubles"] else 1
        scores = [count * factor for count in hand["marbles"]]
        lines = [f"{name} held {count} marble{'' if count == 1 else 's'}: {count * factor}"
                 for name, count in zip(table.players, hand["marbles"])]
        if hand.get("rainbow"):
            scores[dealer] += 1
            lines.append(f"{table.players[dealer]} dealt under a rainbow: 1 more")
        return Scored(scores, lines)

    def ending(self, table: Table, progress: Progress) -> Ending:
        last = table.settings["last_hand"]
        if not last or progress.hands_played < last:
            return Ending(None)
        best = max(progress.totals)
        leaders = [s for s, t in enumerate(progress.totals) if t == best]
        return Ending(leaders, f"hand {last} was the last; {name_list([table.players[s] for s in leaders])} "
                               f"{'has' if len(leaders) == 1 else 'share'} the most marbles, {best}")

    def hands_left(self, settings: dict, dealt: list[int], next_dealer: int | None) -> int | None:
        last = settings.get("last_hand")
        if not is_whole(last) or not last:
            return None
        return 0 if next_dealer is None else max(0, last - sum(dealt))

    def random_hand(self, ctx: HandContext, rng: Any) -> dict:
        return {"marbles": [rng.randrange(10) for _ in range(ctx.seats)], "weather": rng.choice(WEATHERS)}

    def most_in_a_hand(self, settings: dict, seats: int) -> int | None:
        return 9 * (settings["fog_factor"] if settings["fog_doubles"] else 1) + 1

    def least_in_a_hand(self, settings: dict, seats: int) -> int | None:
        return 0



class OddballShown(Shown):
    """Its own fields, a guide line, a sheet line."""

    rules_template = "rules/_ruling.html"  # a page of its own would be a real game's file

    def table_guide(self, ctx: HandContext) -> list[str]:
        return [f"{ctx.players[ctx.dealt_by]} deals the marbles."]

    def hand_form(self, ctx: HandContext) -> list[FieldGroup]:
        return [
            FieldGroup("marbles", "Marbles held", "seat_int", tuple(range(ctx.seats))),
            FieldGroup("weather", "Weather", "radio", choices=tuple((w, w) for w in WEATHERS)),
            FieldGroup("rainbow", "A rainbow over the dealer", "bool", optional=True),
        ]

    def hand_summary(self, hand: dict, ctx: HandContext, extra: dict) -> list[str]:
        return [str(hand.get("weather", ""))]

    def sheet_rules(self, settings: dict, seats: int) -> list[str]:
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
    hand_fields = ("marbles", "weather", "rainbow")
    required_fields = ("marbles", "weather")
    sample_players = 8
    sample_settings: ClassVar[tuple[dict, ...]] = ({"last_hand": 6}, {"last_hand": 3, "fog_doubles": True,
                                                                       "fog_factor": 4}, {})
    endless_settings: ClassVar[dict] = {"last_hand": 0}

    def optional_fields(self, table: Table) -> tuple[str, ...]:
        return ("rainbow",)

    rules = OddballRules()
    shown = OddballShown()
    referee = None


GAME = Oddball()
