"""Score pad (rules.md section 5): 2 to 8 players, each player's points typed per hand.

It knows no rules of the game the table plays (Hearts, Rummy, Oh Hell...): it adds
up what the table says each player scored, and ends the game by target, by number of
hands, or never, the best total (highest, or lowest with ``low_wins``) winning.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .base import (
    GOES_ON,
    Ending,
    FieldGroup,
    Figure,
    Game,
    GameSettings,
    HandContext,
    HandOutput,
    NeedsFacts,
    Place,
    Problem,
    Rules,
    Scored,
    Seating,
    SeatNeeds,
    Setting,
    Shown,
    Stats,
    Target,
    is_whole,
    name_list,
    over_target,
    plural,
    range_check,
    show_json,
)

# What one player may score in one hand (rules.md): wide enough for any game's points.
LEAST, MOST = -100_000, 100_000
NAME_LIMIT = 40  # characters of the game's name (rules.md: as a player's name)


def _points(count: int) -> str:
    return plural(count, "point")


@dataclass(frozen=True)
class PadSettings(GameSettings):
    """The score pad's settings (``ScorePad.settings`` says each)."""

    name: str  # the table's own name for what it plays ("": none)
    target: int  # 0: no target
    low_wins: bool
    hand_count: int  # 0: no fixed number of hands


@dataclass(frozen=True)
class PadEnd:
    """Why a score pad's game ends after a hand (or why it goes on): the seats at or over
    the target (``reached``), the ``leaders`` on the ``best`` total, and whether the fixed
    number of hands is played (``all_played``)."""

    reached: tuple[int, ...]
    leaders: tuple[int, ...]
    best: int
    all_played: bool


class ScorePadRules(Rules[PadSettings]):
    """Points as the table says, and the three ways a game ends."""

    # the number of hands is fixed, whoever deals: a deal out of turn adds none
    hands_left_follow_deal = False

    # --- a hand ---------------------------------------------------------
    def check_hand(self, hand: dict, ctx: HandContext) -> list[Problem]:
        table, points = ctx.table, hand["points"]
        if not isinstance(points, list) or len(points) != table.seats:
            return [Problem("points", "not_list", {"per_seat": table.seats, "got": show_json(points), "value": points})]
        found = [range_check("points", value, LEAST, MOST, seat, table.players[seat])
                 for seat, value in enumerate(points)]
        return [problem for problem in found if problem is not None]

    def score_hand(self, hand: dict, ctx: HandContext) -> Scored:
        return Scored(list(hand["points"]), None)  # the points are the whole story

    # --- end of game ----------------------------------------------------
    def ending(self, place: HandContext) -> Ending:
        settings, totals = PadSettings.at(place.table), place.totals
        target, hand_count, low = settings.target, settings.hand_count, settings.low_wins
        best = min(totals) if low else max(totals)
        leaders = tuple(seat for seat, total in enumerate(totals) if total == best)
        reached = tuple(seat for seat, total in enumerate(totals) if target and total >= target)
        if hand_count and place.hands_played >= hand_count:
            return Ending(list(leaders), own=PadEnd(reached, leaders, best, True))
        if not reached:
            return GOES_ON
        return Ending(list(leaders) if len(leaders) == 1 else None, own=PadEnd(reached, leaders, best, False))

    def hands_left(self, place: HandContext) -> int | None:
        settings, dealt, next_dealer = PadSettings.at(place.table), list(place.dealt), place.dealer
        # The number of hands is fixed, not the deals: a deal out of turn changes nothing.
        hand_count = settings.hand_count
        if not isinstance(hand_count, int) or isinstance(hand_count, bool) or hand_count <= 0:
            return None
        return 0 if next_dealer is None else max(0, hand_count - sum(dealt))

    def target(self, place: HandContext) -> Target | None:
        settings = PadSettings.at(place.table)
        points = settings.target
        if not isinstance(points, int) or isinstance(points, bool) or points <= 0:
            return None
        return Target(points, low_wins=bool(settings.low_wins))

    def lowest_wins(self, place: HandContext) -> bool:
        return bool(PadSettings.at(place.table).low_wins)

    def random_hand(self, ctx: HandContext, rng: Any) -> dict:
        # with a fixed number of hands, now and then a hand at the edges of what may be typed,
        # so the needs panel's "can no longer win" is reached (and searched) in the generic tests
        if PadSettings.at(ctx.table).hand_count and rng.random() < 0.15:
            return {"points": [rng.choice((LEAST, MOST, 0)) for _ in range(ctx.seats)]}
        return {"points": [rng.randint(-10, 30) for _ in range(ctx.seats)]}

    # --- what each player needs ------------------------------------------------
    def most_in_a_hand(self, place: HandContext) -> int | None:
        return MOST

    def least_in_a_hand(self, place: HandContext) -> int | None:
        return LEAST


def _reached(names: tuple[str, ...], totals: list[int], reached: list[int], target: int) -> str:
    if len(reached) == 1:
        return f"{names[reached[0]]} reached {target} with {totals[reached[0]]}"
    return (f"{name_list([names[s] for s in reached])} reached {target} ("
            + ", ".join(f"{names[s]} {totals[s]}" for s in reached) + ")")


def _won(names: tuple[str, ...], leaders: list[int], best: int, side: str, cause: str) -> str:
    if len(leaders) == 1:
        return f"{cause}; {names[leaders[0]]} has the {side} total, {best}, and wins"
    return f"{cause}; {name_list([names[s] for s in leaders])} are tied on {best} for the {side} total " \
           "and share the win"


def _side(facts: NeedsFacts) -> str:
    return "lowest" if facts.low_wins else "highest"


class ScorePadShown(Shown):
    """Who deals, a points box per player, and the sheet's few rules."""

    def explanation_words(self, hand: dict, scored: Scored, ctx: HandContext) -> list[str]:
        return [f"{name} scored {_points(value)}." for name, value in zip(ctx.players, scored.scores)]

    def dealt_out_of_turn(self, ctx: HandContext) -> str:
        return f"the score pad only counts it as {ctx.players[ctx.dealt_by]}'s deal"

    # --- the end of the game, in words ------------------------------------------
    def ending_words(self, ending: Ending, place: HandContext) -> str | None:
        found = ending.own
        if not isinstance(found, PadEnd):
            return super().ending_words(ending, place)
        settings, names, totals = PadSettings.at(place.table), place.players, list(place.totals)
        target, hand_count = settings.target, settings.hand_count
        side = "lowest" if settings.low_wins else "highest"
        reached, leaders, best = list(found.reached), list(found.leaders), found.best
        if found.all_played:
            cause = "its one hand was played" if hand_count == 1 else f"all {hand_count} hands were played"
            if reached:
                cause = f"{_reached(names, totals, reached, target)} and {cause}"
            return _won(names, leaders, best, side, cause)
        cause = _reached(names, totals, reached, target)
        if len(leaders) > 1:
            return (f"{cause}, but {name_list([names[s] for s in leaders])} are tied on {best} "
                    f"for the {side} total: another hand is dealt")
        return _won(names, leaders, best, side, cause)

    field_words: ClassVar[dict[str, str]] = {"points": "points"}
    rules_template = "rules/score_pad.html"

    def table_guide(self, ctx: HandContext) -> list[str]:
        return [f"{ctx.players[ctx.dealt_by]} deals. At the end of the hand, type what each player scored."]

    def seating(self, ctx: HandContext, hand: dict | None = None) -> Seating:
        # The score pad knows who deals, and nothing of who leads in the table's game.
        dealer = ctx.dealt_by
        return Seating(tuple(Place(name, seat, ("deals",) if seat == dealer else (), deals=seat == dealer)
                             for seat, name in enumerate(ctx.players)))

    # --- what each player needs: the shared panel, in a score pad's words ------------
    def target_needs(self, facts: NeedsFacts) -> str:
        target, hand_count = facts.target, PadSettings.at(facts.place.table).hand_count
        assert target is not None
        tie = ("a tie for it means another hand is dealt"
               + (f" (after the last of the {hand_count} hands the tied players share the win)" if hand_count else ""))
        return (f"Playing to {target.points}: a total of {target.points} or more ends the game; the {_side(facts)} "
                f"total then wins, and {tie}.")

    def hands_left_needs(self, facts: NeedsFacts) -> list[str]:
        hand_count = PadSettings.at(facts.place.table).hand_count
        if hand_count:
            # the last hand is the last whatever the totals: "sooner" only before it
            sooner = (f", sooner if a total reaches {facts.target.points}"
                      if facts.target and (facts.hands_left or 0) > 1 else "")
            return [f"{hand_count} hands in all: {plural(facts.hands_left or 0, 'hand')} left{sooner}; the "
                    f"{_side(facts)} total then wins, and players tied for it share the win."]
        if facts.target is None:
            return [f"No target and no fixed number of hands: the game goes on until the table stops; "
                    f"the {_side(facts)} total leads."]
        return []

    def hand_needs(self, facts: NeedsFacts) -> list[str]:
        # not how far one hand can move a player: the pad's bounds (±100000) are a guard, not the game
        return []

    def target_line(self, facts: NeedsFacts, seat: SeatNeeds) -> str:
        points = facts.target.points if facts.target else 0
        return f"is {points - seat.total} short of {points}" if seat.total < points else over_target(points, seat.total)

    def standing_line(self, facts: NeedsFacts, seat: SeatNeeds) -> str:
        """Where one player stands, "ahead" meaning lower when the lowest total wins."""
        names, totals, low = facts.place.players, list(facts.place.totals), facts.low_wins
        best = min(totals) if low else max(totals)
        others = [s for s in range(len(totals)) if s != seat.seat]
        if totals[seat.seat] != best:
            leaders = name_list([names[s] for s in others if totals[s] == best])
            return f"is {abs(totals[seat.seat] - best)} {'above' if low else 'behind'} {leaders}"
        tied = [s for s in others if totals[s] == best]
        if tied:
            verb = "is level with" if len(tied) == len(others) else "shares the lead with"
            return f"{verb} {name_list([names[s] for s in tied])} on {best}"
        second = (min if low else max)(totals[s] for s in others)
        return f"leads {name_list([names[s] for s in others if totals[s] == second])} by {abs(best - second)}"

    def hand_form(self, ctx: HandContext) -> list[FieldGroup]:
        return [FieldGroup("points", "Points this hand", "seat_int", tuple(range(ctx.seats)),
                           # not the ±100000 guard: noise at a Hearts table (a number past it is refused with it)
                           hint="Whole numbers; a minus for points lost.",
                           stepper=False, minimum=LEAST, fill_blank=0)]

    def hand_summary(self, hand: dict, ctx: HandContext, extra: HandOutput) -> list[str]:
        players, points = ctx.players, hand.get("points")
        if not isinstance(points, list) or len(points) != len(players) or not all(is_whole(p) for p in points):
            return []
        # the best score as the game is won: the lowest where the lowest total wins (Hearts)
        low = bool(PadSettings.at(ctx.table).low_wins)
        best = (min if low else max)(points)
        tied = [players[s] for s, p in enumerate(points) if p == best]
        others = [players[s] for s, p in enumerate(points) if p != best]
        side = "lowest" if low else "most"
        if not others:
            return [f"everyone scored {best}"]
        if len(tied) >= 3 and len(others) < len(tied):  # said once, not as a list of nearly every name
            return [f"{side} this hand: {best}, all but {name_list(others)}"]
        return [f"{side} this hand: {name_list(tied)} {best}"]

    def rules_context(self, place: HandContext) -> dict:
        return {"least": LEAST, "most": MOST}

    def sheet_rules(self, place: HandContext) -> list[str]:
        settings = PadSettings.at(place.table)
        side = "lowest" if settings.low_wins else "highest"
        target, hand_count = settings.target, settings.hand_count
        lines = ["Write each player's points for the hand (a minus for points lost) in Pts, and add them "
                 "to the running Total. The deal passes left."]
        if hand_count:
            sooner = f", or sooner when a total reaches {target}" if target else ""
            lines.append(f"The game ends after {plural(hand_count, 'hand')}{sooner}; the {side} total wins. "
                         "Tied for it after the last hand: the tied players share the win.")
        if target:
            lines.append(f"When a total reaches {target} the game ends and the {side} total wins; "
                         "a tie for it plays another hand.")
        if not target and not hand_count:
            lines.append(f"No target and no fixed number of hands: the table stops when it likes; the {side} "
                         "total leads.")
        return lines


class ScorePadStats(Stats):
    """Points per hand, and how often a player had the best hand."""

    figures = (
        Figure("points", "Points per hand", "per_hand"),
        Figure("best_hand", "Hands with the best score"),
    )

    def hand_facts(self, hand: dict, ctx: HandContext, scores: list[int], extra: HandOutput,
                   before: HandOutput) -> list[dict[str, int]]:
        best = (min if PadSettings.at(ctx.table).low_wins else max)(scores)
        return [{"points": score, **({"best_hand": 1} if score == best else {})} for score in scores]


class ScorePad(Game):
    key = "score_pad"
    title = "Score pad"
    summary = ("2 to 8 players, any game that ends a hand with points: type what each player scored; "
               "optional target, lowest wins, fixed number of hands")
    min_players = 2
    max_players = 8
    settings = (
        Setting("name", "", "Name of the game",
                "What the table is playing (Hearts, Rummy...), shown wherever the game's name is. "
                "Not scored.", kind="text", maximum=NAME_LIMIT, labels=(("", "none"),)),
        Setting("target", 0, "Target",
                "The game ends after a hand in which a total reaches this many points (0: no target).",
                minimum=0, labels=((0, "none"),)),
        Setting("low_wins", False, "Lowest total wins",
                "On: the lowest total wins (as in Hearts: reaching the target ends the game, lowest wins).",
                kind="bool"),
        Setting("hand_count", 0, "Number of hands",
                "The game ends after this many hands (0: no fixed number).",
                minimum=0, labels=((0, "none"),)),
    )
    settings_type = PadSettings
    hand_fields = ("points",)
    required_fields = ("points",)
    sample_players = 4
    # each way a score pad ends: by target (highest or lowest winning), by number of hands, by both
    sample_settings: ClassVar[tuple[dict, ...]] = (
        {"target": 100}, {"target": 100, "low_wins": True}, {"hand_count": 5}, {"target": 60, "hand_count": 4},
        {})

    def display_name(self, place: HandContext | None = None, kind: bool = False) -> str:
        # the table's own name for what it plays ("Hearts"), else the pad's title
        name = PadSettings.at(place.table).name if place is not None else ""
        if not isinstance(name, str) or not name.strip():
            return self.title
        return f"{name.strip()} (score pad)" if kind else name.strip()

    def long_match(self, hands: int, seats: int) -> dict | None:
        # no target and no count of hands: the pad goes on until the table stops
        return {"target": 0, "hand_count": 0}

    rules = ScorePadRules()
    shown = ScorePadShown()
    referee = None  # no cards to judge
    stats = ScorePadStats()
