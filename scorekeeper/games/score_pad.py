"""Score pad (rules.md section 5): 2 to 8 players, each player's points typed per hand.

It knows no rules of the game the table plays (Hearts, Rummy, Oh Hell...): it adds
up what the table says each player scored, and ends the game by target, by number of
hands, or never, the best total (highest, or lowest with ``low_wins``) winning.
"""
from __future__ import annotations

from typing import Any, ClassVar

from .base import (
    GOES_ON,
    Ending,
    FieldGroup,
    Figure,
    Game,
    HandContext,
    Need,
    Needs,
    Place,
    Problem,
    Progress,
    Rules,
    Scored,
    Seating,
    Setting,
    Shown,
    Stats,
    Table,
    Target,
    is_whole,
    name_list,
    plural,
    range_check,
    show_json,
)

# What one player may score in one hand (rules.md): wide enough for any game's points.
LEAST, MOST = -100_000, 100_000
NAME_LIMIT = 40  # characters of the game's name (rules.md: as a player's name)


def _points(count: int) -> str:
    return plural(count, "point")


class ScorePadRules(Rules):
    """Points as the table says, and the three ways a game ends."""

    # --- a hand ---------------------------------------------------------
    def check_hand(self, hand: dict, ctx: HandContext) -> list[Problem]:
        table, points = ctx.table, hand["points"]
        if not isinstance(points, list) or len(points) != table.seats:
            return [Problem("points", "not_list", {"what": f"{table.seats} numbers, one per seat",
                                                   "got": show_json(points), "value": points})]
        found = [range_check("points", value, LEAST, MOST, seat, table.players[seat])
                 for seat, value in enumerate(points)]
        return [problem for problem in found if problem is not None]

    def score_hand(self, hand: dict, ctx: HandContext) -> Scored:
        points = list(hand["points"])
        return Scored(points, [f"{name} scored {_points(value)}." for name, value in zip(ctx.players, points)])

    def dealt_out_of_turn(self, ctx: HandContext) -> str:
        return f"the score pad only counts it as {ctx.players[ctx.dealt_by]}'s deal"

    # --- end of game ----------------------------------------------------
    def ending(self, table: Table, progress: Progress) -> Ending:
        settings, names, totals = table.settings, table.players, progress.totals
        target, hand_count, low = settings["target"], settings["hand_count"], settings["low_wins"]
        best = min(totals) if low else max(totals)
        leaders = [seat for seat, total in enumerate(totals) if total == best]
        side = "lowest" if low else "highest"
        reached = [seat for seat, total in enumerate(totals) if target and total >= target]
        if hand_count and progress.hands_played >= hand_count:
            cause = "its one hand was played" if hand_count == 1 else f"all {hand_count} hands were played"
            if reached:
                cause = f"{self._reached(names, totals, reached, target)} and {cause}"
            return Ending(leaders, self._won(names, leaders, best, side, cause))
        if not reached:
            return GOES_ON
        cause = self._reached(names, totals, reached, target)
        if len(leaders) > 1:
            return Ending(None, f"{cause}, but {name_list([names[s] for s in leaders])} are tied on {best} "
                                f"for the {side} total: another hand is dealt")
        return Ending(leaders, self._won(names, leaders, best, side, cause))

    @staticmethod
    def _reached(names: tuple[str, ...], totals: list[int], reached: list[int], target: int) -> str:
        if len(reached) == 1:
            return f"{names[reached[0]]} reached {target} with {totals[reached[0]]}"
        return (f"{name_list([names[s] for s in reached])} reached {target} ("
                + ", ".join(f"{names[s]} {totals[s]}" for s in reached) + ")")

    @staticmethod
    def _won(names: tuple[str, ...], leaders: list[int], best: int, side: str, cause: str) -> str:
        if len(leaders) == 1:
            return f"{cause}; {names[leaders[0]]} has the {side} total, {best}, and wins"
        return f"{cause}; {name_list([names[s] for s in leaders])} are tied on {best} for the {side} total " \
               "and share the win"

    def hands_left(self, settings: dict, dealt: list[int], next_dealer: int | None) -> int | None:
        # The number of hands is fixed, not the deals: a deal out of turn changes nothing.
        hand_count = settings.get("hand_count")
        if not isinstance(hand_count, int) or isinstance(hand_count, bool) or hand_count <= 0:
            return None
        return 0 if next_dealer is None else max(0, hand_count - sum(dealt))

    def target(self, settings: dict) -> Target | None:
        points = settings.get("target")
        if not isinstance(points, int) or isinstance(points, bool) or points <= 0:
            return None
        return Target(points, low_wins=bool(settings.get("low_wins")))

    def lowest_wins(self, settings: dict) -> bool:
        return bool(settings.get("low_wins"))

    def random_hand(self, ctx: HandContext, rng: Any) -> dict:
        # with a fixed number of hands, now and then a hand at the edges of what may be typed,
        # so the needs panel's "can no longer win" is reached (and searched) in the generic tests
        if ctx.settings.get("hand_count") and rng.random() < 0.15:
            return {"points": [rng.choice((LEAST, MOST, 0)) for _ in range(ctx.seats)]}
        return {"points": [rng.randint(-10, 30) for _ in range(ctx.seats)]}

    # --- what each player needs ------------------------------------------------
    def most_in_a_hand(self, settings: dict, seats: int) -> int | None:
        return MOST

    def least_in_a_hand(self, settings: dict, seats: int) -> int | None:
        return LEAST

    def needs(self, table: Table, progress: Progress, next_dealer: int | None) -> Needs:
        """The shared panel speaks of the highest total reaching a target; a score pad may
        have neither a target nor a high winner, so it words its own."""
        settings, names, totals = table.settings, table.players, progress.totals
        target, hand_count, low = settings["target"], settings["hand_count"], settings["low_wins"]
        side = "lowest" if low else "highest"
        general: list[str] = []
        left = None
        if hand_count:
            left = 0 if next_dealer is None else max(0, hand_count - progress.hands_played)
        if target:
            tie = ("a tie for it means another hand is dealt"
                   + (f" (after the last of the {hand_count} hands the tied players share the win)"
                      if hand_count else ""))
            general.append(f"Playing to {target}: a total of {target} or more ends the game; the {side} total "
                           f"then wins, and {tie}.")
        if hand_count:
            sooner = f", sooner if a total reaches {target}" if target else ""
            general.append(f"{hand_count} hands in all: {plural(left or 0, 'hand')} left{sooner}; the {side} "
                           "total then wins, and players tied for it share the win.")
        if not target and not hand_count:
            general.append(f"No target and no fixed number of hands: the game goes on until the table stops; "
                           f"the {side} total leads.")
        general.append(f"One hand can move a player anywhere from {LEAST} to {MOST} points.")
        rows = []
        for seat, total in enumerate(totals):
            lines = []
            if target and total < target:
                lines.append(f"is {target - total} short of {target}")
            elif target:
                lines.append(f"at or over {target}")
            lines.append(self._standing(names, totals, seat, low))
            out = False
            best = min(totals) if low else max(totals)
            gap = abs(total - best)
            # ``left`` hands can close a gap of at most (MOST - LEAST) each; level still shares.
            if left is not None and gap > left * (MOST - LEAST):
                out = True
                lines.append(f"can no longer win: {plural(left, 'hand')} left, and a hand moves two players "
                             f"at most {MOST - LEAST} apart")
            rows.append(Need(seat, tuple(lines), out))
        return Needs(tuple(general), tuple(rows))

    @staticmethod
    def _standing(names: tuple[str, ...], totals: list[int], seat: int, low: bool) -> str:
        """Where one player stands, "ahead" meaning lower when the lowest total wins."""
        best = min(totals) if low else max(totals)
        others = [s for s in range(len(totals)) if s != seat]
        if totals[seat] != best:
            leaders = name_list([names[s] for s in others if totals[s] == best])
            return f"is {abs(totals[seat] - best)} {'above' if low else 'behind'} {leaders}"
        tied = [s for s in others if totals[s] == best]
        if tied:
            verb = "is level with" if len(tied) == len(others) else "shares the lead with"
            return f"{verb} {name_list([names[s] for s in tied])} on {best}"
        second = (min if low else max)(totals[s] for s in others)
        return f"leads {name_list([names[s] for s in others if totals[s] == second])} by {abs(best - second)}"


class ScorePadShown(Shown):
    """Who deals, a points box per player, and the sheet's few rules."""

    field_words: ClassVar[dict[str, str]] = {"points": "points"}
    rules_template = "rules/score_pad.html"

    def table_guide(self, ctx: HandContext) -> list[str]:
        return [f"{ctx.players[ctx.dealt_by]} deals. At the end of the hand, type what each player scored."]

    def seating(self, ctx: HandContext, hand: dict | None = None) -> Seating:
        # The score pad knows who deals, and nothing of who leads in the table's game.
        dealer = ctx.dealt_by
        return Seating(tuple(Place(name, seat, ("deals",) if seat == dealer else (), deals=seat == dealer)
                             for seat, name in enumerate(ctx.players)))

    def hand_of(self, number: int, total_hands: int, hands_left: int) -> str:
        # The number of hands is fixed, whoever deals: a deal out of turn adds none.
        return f"hand {number} of {total_hands}: {plural(hands_left, 'hand')} left"

    def hand_form(self, ctx: HandContext) -> list[FieldGroup]:
        return [FieldGroup("points", "Points this hand", "seat_int", tuple(range(ctx.seats)),
                           hint=f"Whole numbers from {LEAST} to {MOST}; a minus for points lost.",
                           stepper=False, minimum=LEAST, fill_blank=0)]

    def hand_summary(self, hand: dict, ctx: HandContext, extra: dict) -> list[str]:
        players, points = ctx.players, hand.get("points")
        if not isinstance(points, list) or len(points) != len(players) or not all(is_whole(p) for p in points):
            return []
        # the best score as the game is won: the lowest where the lowest total wins (Hearts)
        low = bool(ctx.settings.get("low_wins"))
        best = (min if low else max)(points)
        tied = [players[s] for s, p in enumerate(points) if p == best]
        others = [players[s] for s, p in enumerate(points) if p != best]
        side = "lowest" if low else "most"
        if not others:
            return [f"everyone scored {best}"]
        if len(tied) >= 3 and len(others) < len(tied):  # said once, not as a list of nearly every name
            return [f"{side} this hand: {best}, all but {name_list(others)}"]
        return [f"{side} this hand: {name_list(tied)} {best}"]

    def rules_context(self, settings: dict) -> dict:
        return {"least": LEAST, "most": MOST}

    def sheet_rules(self, settings: dict, seats: int) -> list[str]:
        side = "lowest" if settings["low_wins"] else "highest"
        target, hand_count = settings["target"], settings["hand_count"]
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
        Figure("best_hand", "Best score of the hand"),
    )

    def hand_facts(self, hand: dict, ctx: HandContext, scores: list[int], extra: dict,
                   before: dict) -> list[dict[str, int]]:
        best = (min if ctx.settings["low_wins"] else max)(scores)
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
    hand_fields = ("points",)
    required_fields = ("points",)
    sample_players = 4
    # each way a score pad ends: by target (highest or lowest winning), by number of hands, by both
    sample_settings: ClassVar[tuple[dict, ...]] = (
        {"target": 100}, {"target": 100, "low_wins": True}, {"hand_count": 5}, {"target": 60, "hand_count": 4},
        {})

    def display_name(self, settings: dict | None = None, kind: bool = False) -> str:
        # the table's own name for what it plays ("Hearts"), else the pad's title
        name = (settings or {}).get("name")
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
