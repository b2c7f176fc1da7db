"""Third Wheel (seed 001): three players with the Decktet; the dealer bids tricks,
the two setters call trump and high/low and try to set the dealer.

Scoring follows rules.md section 2, including the tied-setters ruling and the
text's overtrick variants (settings ``overtrick_dealer`` and ``overtrick_setter``).

Its parts, each read alone (see ``games.base``): ``ThirdWheelRules``, ``ThirdWheelShown`` (how it is
shown and printed), ``ThirdWheelReferee`` and ``ThirdWheelStats``, held by ``ThirdWheel``; the module's
functions are the vocabulary they share (cards, rank orders, the scoring's arithmetic).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from .base import (
    GOES_ON,
    NO_OUTPUT,
    POINTS,
    TOTAL,
    Ending,
    Event,
    FieldGroup,
    Figure,
    Game,
    GameSettings,
    HandContext,
    HandOutput,
    Place,
    Problem,
    Referee,
    Rules,
    Scored,
    Seating,
    Setting,
    SheetCell,
    SheetColumn,
    SheetLayout,
    SheetRow,
    Shown,
    Stats,
    Table,
    Target,
    Trick,
    broken,
    check_bool,
    check_choice,
    check_count,
    check_seat_counts,
    is_whole,
    name_list,
    said,
    show,
    split_tricks,
    times,
)
from .trick_referee import Choice, Face, Setup, suit_options
from .tricks import TrickRule

TRICKS = 11
SUITS = ("moons", "suns", "waves", "leaves", "wyrms", "knots")
MODES = ("high", "low")


class Card(NamedTuple):
    name: str
    rank: int
    suits: tuple[str, ...]


# The basic Decktet, copied from shared/spec/decktet.json (a test keeps them equal)
# so the package needs nothing outside itself at run time.
DECK: tuple[Card, ...] = (
    Card("Ace of Moons", 1, ("moons",)),
    Card("Ace of Suns", 1, ("suns",)),
    Card("Ace of Waves", 1, ("waves",)),
    Card("Ace of Leaves", 1, ("leaves",)),
    Card("Ace of Wyrms", 1, ("wyrms",)),
    Card("Ace of Knots", 1, ("knots",)),
    Card("The Author", 2, ("moons", "knots")),
    Card("The Desert", 2, ("suns", "wyrms")),
    Card("The Origin", 2, ("waves", "leaves")),
    Card("The Journey", 3, ("moons", "waves")),
    Card("The Painter", 3, ("suns", "knots")),
    Card("The Savage", 3, ("leaves", "wyrms")),
    Card("The Mountain", 4, ("moons", "suns")),
    Card("The Sailor", 4, ("waves", "leaves")),
    Card("The Battle", 4, ("wyrms", "knots")),
    Card("The Forest", 5, ("moons", "leaves")),
    Card("The Discovery", 5, ("suns", "waves")),
    Card("The Soldier", 5, ("wyrms", "knots")),
    Card("The Lunatic", 6, ("moons", "waves")),
    Card("The Penitent", 6, ("suns", "wyrms")),
    Card("The Market", 6, ("leaves", "knots")),
    Card("The Chance Meeting", 7, ("moons", "leaves")),
    Card("The Castle", 7, ("suns", "knots")),
    Card("The Cave", 7, ("waves", "wyrms")),
    Card("The Diplomat", 8, ("moons", "suns")),
    Card("The Mill", 8, ("waves", "leaves")),
    Card("The Betrayal", 8, ("wyrms", "knots")),
    Card("The Pact", 9, ("moons", "suns")),
    Card("The Darkness", 9, ("waves", "wyrms")),
    Card("The Merchant", 9, ("leaves", "knots")),
    Card("The Huntress", 10, ("moons",)),
    Card("The Bard", 10, ("suns",)),
    Card("The Sea", 10, ("waves",)),
    Card("The End", 10, ("leaves",)),
    Card("The Calamity", 10, ("wyrms",)),
    Card("The Windfall", 10, ("knots",)),
)
CARDS = {card.name: card for card in DECK}
# Deck order (by rank, then suit order) is how players sort a Decktet hand.
TRICK_CARDS = [card.name for card in DECK]


@dataclass(frozen=True)
class WheelEnd:
    """Why a game of Third Wheel ends after a hand (or why it goes on): the seats at or over
    the target (``reached``), the ``leaders`` on the ``best`` total, and the seats still
    ``short`` of their deals once the usual number of hands is dealt (the game goes on)."""

    reached: tuple[int, ...]
    short: tuple[int, ...]
    leaders: tuple[int, ...]
    best: int


@dataclass(frozen=True)
class BidFailed:
    """A hand's event: the dealer took fewer tricks (``took``) than the ``bid``."""

    bid: int
    took: int


@dataclass(frozen=True)
class NeverEnds:
    """The settings' problem: no count of deals and no target, so nothing would end the game."""


@dataclass(frozen=True)
class WheelBid:
    """A hand's problem: the dealer took the Wheel and bid ``bid``, neither 0 nor 6 to 11."""

    bid: int


@dataclass(frozen=True)
class WheelSettings(GameSettings):
    """Third Wheel's settings (``ThirdWheel.settings`` says each)."""

    overtrick_dealer: str  # "bid" or "penalty"
    overtrick_setter: str  # "other_setter" or "own_tricks"
    deals_each: int  # 0: no limit
    target: int  # 0: no target


class ThirdWheelRules(Rules[WheelSettings]):
    """Third Wheel's rules (rules.md section 2): the dealer's bid against two setters, the
    Wheel, the overtrick settings, the deal count and the target ending the game."""

    tie_shares_win = True  # the Ruling: the deal count is fixed, so players tied for highest share the win

    def target(self, place: HandContext) -> Target | None:
        points = WheelSettings.at(place.table).target
        return Target(points) if points else None  # 0: no target

    def check_settings(self, place: HandContext) -> list[Problem]:
        settings = WheelSettings.at(place.table)
        if settings.deals_each == 0 and settings.target == 0:
            return [broken("settings", NeverEnds())]
        return []

    # --- a hand ---------------------------------------------------------
    def check_hand(self, hand: dict, ctx: HandContext) -> list[Problem]:
        table = ctx.table
        problems = check_choice(hand, "trump", SUITS) + check_choice(hand, "mode", MODES)
        problems += check_bool(hand, "wheel") + self._check_bid(hand)
        tricks = check_seat_counts(hand, "tricks", table, TRICKS)
        if not tricks and sum(hand["tricks"]) != TRICKS:
            tricks = [Problem("tricks", "sum", {"total": sum(hand["tricks"]), "expected": TRICKS})]
        return problems + tricks

    def _check_bid(self, hand: dict) -> list[Problem]:
        problems = check_count(hand, "bid", 0, TRICKS)
        if not problems and hand["wheel"] is True and 0 < hand["bid"] < 6:
            problems.append(broken("bid", WheelBid(hand["bid"])))
        return problems

    # --- scoring --------------------------------------------------------
    def score_hand(self, hand: dict, ctx: HandContext) -> Scored:
        table, dealer, state = ctx.table, ctx.dealt_by, ctx.state
        bid, tricks = hand["bid"], hand["tricks"]
        setters = (table.left_of(dealer), table.left_of(table.left_of(dealer)))
        fewer, more = setters if tricks[setters[0]] <= tricks[setters[1]] else setters[::-1]  # fewer tricks first
        view = _made(View, (dealer, bid, tricks[dealer], fewer, tricks[fewer], more, tricks[more], WheelSettings.at(table)))
        if view.took == bid:
            outcome, points = "exact", _exact(view)
        elif view.took < bid:
            outcome, points = "missed", _missed(view)
        else:
            outcome, points = "over", _over(view)
        scores = [0] * table.seats
        scores[dealer], scores[fewer], scores[more] = points
        return Scored(scores, _made(WheelHand, (view, setters, hand["wheel"], outcome, points)), NO_OUTPUT, state)

    # --- end of game ----------------------------------------------------
    def ending(self, place: HandContext) -> Ending:
        settings = WheelSettings.at(place.table)
        deals, target = settings.deals_each, settings.target
        totals, dealt = place.totals, place.dealt
        # Counted per player: a player who dealt out of turn may deal more often.
        dealt_out = deals > 0 and min(dealt) >= deals
        reached = tuple(s for s, total in enumerate(totals) if total >= target) if 0 < target <= max(totals) else ()
        if not (dealt_out or reached):
            if deals > 0 and place.hands_played >= place.seats * deals:
                # the usual number of hands is dealt, but a deal out of turn left someone short
                return Ending(None, own=WheelEnd((), tuple(s for s, count in enumerate(dealt) if count < deals), (), 0))
            return GOES_ON
        best = max(totals)
        leaders = tuple(seat for seat, total in enumerate(totals) if total == best)
        # Ruling: the deal count is fixed, so players tied for highest share the win.
        return Ending(list(leaders), own=WheelEnd(reached, (), leaders, best))

    def hands_left(self, place: HandContext) -> int | None:
        settings, dealt, next_dealer = WheelSettings.at(place.table), list(place.dealt), place.dealer
        deals = settings.deals_each
        if not isinstance(deals, int) or deals <= 0:
            return None
        if next_dealer is None:
            return 0
        # Dealing goes on in turn from next_dealer: the seat i places after it deals hands
        # i, i + n, i + 2n, ...; the game lasts until the last seat short of deals has dealt.
        seats = len(dealt)
        last = [(seat - next_dealer) % seats + (deals - count - 1) * seats + 1
                for seat, count in enumerate(dealt) if count < deals]
        return max(last, default=0)

    def most_in_a_hand(self, place: HandContext) -> int | None:
        settings = WheelSettings.at(place.table)
        return _hand_range(settings.overtrick_dealer, settings.overtrick_setter)[1]

    def least_in_a_hand(self, place: HandContext) -> int | None:
        settings = WheelSettings.at(place.table)
        return _hand_range(settings.overtrick_dealer, settings.overtrick_setter)[0]

    def random_hand(self, ctx: HandContext, rng: Any) -> dict:
        wheel = rng.random() < 0.3
        bid = rng.choice([0, 6, 7, 8, 9, 10, 11]) if wheel else rng.randrange(TRICKS + 1)
        return {"trump": rng.choice(SUITS), "mode": rng.choice(MODES), "wheel": wheel, "bid": bid,
                "tricks": split_tricks(TRICKS, 3, rng)}

    def hand_events(self, hand: dict, ctx: HandContext, scored: Scored) -> list[Event]:
        """A dealer who took fewer tricks than the bid: the bid failed, and scores 0."""
        dealer = ctx.dealt_by
        bid, took = hand["bid"], hand["tricks"][dealer]
        if took >= bid:
            return []
        return [Event(BidFailed(bid, took), dealer, on_sheet=False)]  # the sheet's Result column says "missed"


# --- scoring the three outcomes ----------------------------------------------


class ThirdWheelShown(Shown):
    """How Third Wheel is shown: the calls and the bid in the setters' and dealer's
    names, the bid's outcome on the sheet, the calls in the seat picture."""

    def dealt_out_of_turn(self, ctx: HandContext) -> str:
        table, dealer = ctx.table, ctx.dealt_by
        names = table.players
        s1 = table.left_of(dealer)
        return (f"it counts as one of {names[dealer]}'s deals, and {names[s1]} and "
                f"{names[table.left_of(s1)]} were the setters")

    def explanation_words(self, hand: dict, scored: Scored, ctx: HandContext) -> list[str]:
        why, names = scored.why, ctx.players
        assert isinstance(why, WheelHand)  # how every hand of the game scores
        h, tricks, (s1, s2) = why.view, hand["tricks"], why.setters
        wheel = "took the Wheel" if why.wheel else "did not take the Wheel"
        return [f"{names[h.dealer]} dealt, {wheel} and bid {h.bid}; tricks: {names[h.dealer]} {h.took}, "
                f"{names[s1]} {tricks[s1]}, {names[s2]} {tricks[s2]}",
                *OUTCOME_WORDS[why.outcome](h, why.points, names)]

    def problem_words(self, fact: Any, place: HandContext) -> dict[str, Any]:
        if isinstance(fact, WheelBid):
            return said(f"a dealer who took the Wheel must bid 0 or 6 to {TRICKS}, got {fact.bid}")
        assert isinstance(fact, NeverEnds)  # the game's other problem
        return said("deals_each and target are both 0, so the game would never end; set at least one of them")

    def event_words(self, event: Event, ctx: HandContext) -> str:
        what = event.what
        assert isinstance(what, BidFailed) and event.seat is not None  # the game's one event
        return f"{ctx.players[event.seat]}'s bid of {what.bid} failed (took {what.took})"

    # --- the end of the game, in words ------------------------------------------
    def ending_words(self, ending: Ending, place: HandContext) -> str | None:
        found = ending.own
        if not isinstance(found, WheelEnd):
            return super().ending_words(ending, place)
        settings = WheelSettings.at(place.table)
        deals, target = settings.deals_each, settings.target
        names, totals, dealt = place.players, place.totals, place.dealt
        reached, leaders, best = list(found.reached), list(found.leaders), found.best
        if found.short:
            still = name_list([f"{names[s]} has dealt {times(dealt[s])}" if dealt[s]
                               else f"{names[s]} has not dealt yet" for s in found.short])
            return f"every player deals {times(deals)} and {still}: the game goes on"
        if reached:
            if len(reached) == 1:
                cause = f"{names[reached[0]]} reached {target} with {totals[reached[0]]}"
            else:
                cause = (f"{name_list([names[s] for s in reached])} reached {target} ("
                         + ", ".join(f"{names[s]} {totals[s]}" for s in reached) + ")")
        elif all(count == deals for count in dealt):
            cause = f"every player has dealt {times(deals)}"
        else:
            more = [s for s, count in enumerate(dealt) if count > deals]
            cause = (f"every player has dealt at least {times(deals)} ("
                     + ", ".join(f"{names[s]} {times(dealt[s])}" for s in more) + ")")
        if len(leaders) == 1:
            if reached == leaders:
                return f"{cause} and wins"
            if leaders[0] in reached:  # their total is said already
                return f"{cause}: {names[leaders[0]]} has the highest total and wins"
            return f"{cause}, and {names[leaders[0]]} wins with {best}"
        return f"{cause}, and {name_list([names[s] for s in leaders])} share the win on {best}"

    field_words: ClassVar[dict[str, str]] = {"bid": "dealer's bid", "mode": "high or low"}

    # --- at the table ---------------------------------------------------
    def table_guide(self, ctx: HandContext) -> list[str]:
        table, dealer = ctx.table, ctx.dealt_by
        names = table.players
        s1 = table.left_of(dealer)
        s2 = table.left_of(s1)
        d = names[dealer]
        return [
            f"{d} deals 11 cards each to {names[s1]}, {names[s2]} and {d}; the last 3 cards form "
            "the Wheel, set aside face down.",
            f"{names[s1]} (setter 1, left of the dealer) calls trump: moons, suns, waves, leaves, "
            "wyrms or knots.",
            f"{names[s2]} (setter 2) calls the hand high or low.",
            f"{d} may take the Wheel into hand and discard any 3 cards face down; then {d} must bid "
            "0 or 6 to 11.",
            f"{d} bids 0 to 11 tricks, aiming to take exactly that many, and leads the first trick.",
            f"{names[s1]} and {names[s2]} play together to set {d}.",
            "A card follows if it shares a suit with the card led; if the led card carries trump, "
            "play a trump if you can. Any card carrying the trump suit is a trump.",
        ]

    rules_template = "rules/third_wheel.html"  # the rules page, filled in from the settings

    def hand_form(self, ctx: HandContext) -> list[FieldGroup]:
        players, dealer = list(ctx.players), ctx.dealer
        # the table knows who calls what by name, not by seat: name them once the dealer is known
        setter1, setter2, dealer_name = (("setter 1, left of the dealer", "setter 2", "The dealer") if dealer is None
                                         else (players[(dealer + 1) % 3], players[(dealer + 2) % 3], players[dealer]))
        return [
            FieldGroup("trump", f"Trump (called by {setter1})", "radio", choices=tuple((s, s) for s in SUITS)),
            FieldGroup("mode", f"High or low (called by {setter2})", "radio", choices=tuple((m, m) for m in MODES)),
            FieldGroup("wheel", f"{dealer_name} took the Wheel", "bool", hint="If so, the bid must be 0 or 6 to 11."),
            FieldGroup("bid", f"{dealer_name}'s bid (0 to 11)", "int"),
            FieldGroup("tricks", "Tricks taken (11 in all)", "seat_int", tuple(range(len(players))),
                       adds_up_to=TRICKS),
        ]

    def hand_summary(self, hand: dict, ctx: HandContext, extra: HandOutput) -> list[str]:
        dealer = ctx.dealer
        parts = []
        if "bid" in hand:
            parts.append(f"bid {hand['bid']}")
        if hand.get("trump"):
            parts.append(f"{hand['trump']} {hand.get('mode', '')}".strip())
        if hand.get("wheel"):
            parts.append("took the Wheel")
        tricks, bid = hand.get("tricks"), hand.get("bid")
        if (isinstance(dealer, int) and isinstance(tricks, list) and 0 <= dealer < len(tricks)
                and is_whole(tricks[dealer]) and is_whole(bid)):
            took = tricks[dealer]
            parts.append("exact" if took == bid else f"missed by {bid - took}" if took < bid else f"over by {took - bid}")
        return parts

    # --- the score sheet ----------------------------------------------------
    def sheet_layout(self, place: HandContext) -> SheetLayout:
        return SheetLayout(
            hand=(SheetColumn("bid", "Bid", "the dealer's bid"),
                  SheetColumn("result", "Result", "the dealer's tricks against the bid: exact, missed "
                                                  "(−tricks short) or over (+overtricks)", "text"),
                  SheetColumn("trump", "Trump", "trump suit, high or low", "text")),
            seat=(SheetColumn("tricks", "Tricks", "tricks taken"), POINTS, TOTAL),
            marks=(("W", "the dealer took the Wheel"),))

    def sheet_cells(self, hand: dict, ctx: HandContext, extra: HandOutput) -> SheetRow:
        dealer = ctx.dealt_by
        bid, took = hand["bid"], hand["tricks"][dealer]
        if took == bid:
            result = "exact"
        elif took < bid:
            result = f"missed −{bid - took}"
        else:
            result = f"over +{took - bid}"
        return SheetRow(
            hand={"bid": SheetCell(str(bid), "W" if hand["wheel"] else ""), "result": SheetCell(result),
                  "trump": SheetCell(f"{hand['trump']} {hand['mode']}")},
            seats=[{"tricks": SheetCell(str(t))} for t in hand["tricks"]])

    def sheet_rules(self, place: HandContext) -> list[str]:
        settings = WheelSettings.at(place.table)
        penalty = settings.overtrick_dealer == "penalty"
        own = settings.overtrick_setter == "own_tricks"
        deals, target = settings.deals_each, settings.target
        ends = " or ".join(([f"every player has dealt {times(deals)}"] if deals else [])
                           + ([f"a total reaches {target}"] if target else []))
        return [
            f"The dealer deals {TRICKS} each and 3 to the Wheel; left of the dealer calls trump, the next player "
            "high or low. The dealer may take the Wheel (then bids 0 or 6 to 11), bids 0 to 11 tricks and leads.",
            "F is the setter with fewer tricks, M the one with more.",
            f"Exact (tricks = bid): dealer scores the bid + M's tricks (a made 0 bid scores {TRICKS}, "
            f"a made {TRICKS} bid {2 * TRICKS}); F scores own tricks; M 0.",
            "Missed (fewer than the bid): dealer 0; each setter scores the bid, and F also own tricks.",
            "Over (more than the bid): dealer scores " + ("the bid − 1 per overtrick" if penalty else "the bid")
            + f"; F scores {'own' if own else 'M’s'} tricks + the overtricks; M 0.",
            "Setters tied: work out F's points with those tricks, halve them (round down) and both setters "
            "score that (missed: each scores the bid + half their tricks).",
            f"The game ends when {ends}; the highest total wins, and players tied for it share the win.",
        ]

    # --- the seat picture ---------------------------------------------------------
    def seating(self, ctx: HandContext, hand: dict | None = None) -> Seating:
        """The setters call the hand (what they called, once typed), the dealer bids and leads."""
        table, dealer = ctx.table, ctx.dealt_by
        setter1 = table.left_of(dealer)
        setter2 = table.left_of(setter1)
        known = hand or {}
        trump = f"called {known['trump']}" if known.get("trump") in SUITS else "calls trump"
        mode = f"called {known['mode']}" if known.get("mode") in MODES else "calls high or low"
        roles = {dealer: ("deals", "may take the Wheel", "bids", "leads"),
                 setter1: ("setter 1", trump), setter2: ("setter 2", mode)}
        return Seating(tuple(Place(name, seat, roles[seat], deals=seat == dealer, leads=seat == dealer)
                             for seat, name in enumerate(table.players)),
                       (f"{table.players[setter1]} and {table.players[setter2]} play together to set "
                        f"{table.players[dealer]}.",))


class ThirdWheelReferee(Referee):
    """Third Wheel's referee: the basic Decktet, three to a trick, trump and high or low
    as the setters called them."""

    args = ("trump", "mode")  # the query keys the referee page reads

    def context(self, hand: dict, place: HandContext, in_match: bool) -> dict:
        return {"trump": hand.get("trump") if hand.get("trump") in SUITS else None if in_match else "moons",
                "mode": hand.get("mode") if hand.get("mode") in MODES else None if in_match else "high"}

    def read(self, trick: Trick, args: Any) -> list[str]:
        trick.facts.update({key: args.get(key) or None for key in ("trump", "mode") if key in args})
        return []

    def setup(self, trick: Trick) -> Setup:
        return Setup([Choice("trump", "Trump", suit_options(SUITS, titled=True), required=True),
                      Choice("mode", "High or low", tuple((m, m) for m in MODES), required=True)])

    def slots(self, trick: Trick) -> int:
        return 3

    def options(self, decks: int) -> list[Face]:
        return [decktet_face(c) for c in DECK]

    def groups(self, decks: int) -> list[tuple[str, str, list[Face]]]:
        groups = []
        for rank in range(1, 11):
            title = {1: "Aces (1)", 10: "Crowns (10)"}.get(rank, f"Rank {rank}")
            groups.append((title, "named", [decktet_face(c) for c in DECK if c.rank == rank]))
        return groups

    def face(self, code: str) -> Face | None:
        card = CARDS.get(code)
        return decktet_face(card) if card else None

    def judge(self, cards: list[str], trick: Trick) -> tuple[int, str]:
        return trick_winner(cards, trick.facts["trump"], trick.facts["mode"])


class ThirdWheelStats(Stats):
    """Third Wheel's statistics: bids made exactly, missed and over, the Wheel taken, and
    points as dealer and as setter."""

    figures = (
        Figure("dealt", "Hands dealt"),
        Figure("exact", "Exact as dealer", of="dealt", trend=True),
        Figure("missed", "Missed as dealer", of="dealt"),
        Figure("over", "Over as dealer", of="dealt"),
        Figure("wheel", "Took the Wheel", of="dealt"),
        Figure("wheel_made", "Took the Wheel and made the bid", of="wheel"),
        Figure("as_setter", "Points per hand as setter", "mean"),
    )

    def hand_facts(self, hand: dict, ctx: HandContext, scores: list[int], extra: HandOutput,
                   before: HandOutput) -> list[dict[str, int]]:
        table, dealer = ctx.table, ctx.dealt_by
        took, bid = hand["tricks"][dealer], hand["bid"]
        outcome = "exact" if took == bid else "missed" if took < bid else "over"
        facts: list[dict[str, int]] = [{"as_setter": scores[seat]} for seat in range(table.seats)]
        facts[dealer] = {"dealt": 1, outcome: 1}
        if hand["wheel"]:
            facts[dealer]["wheel"] = 1
            if outcome == "exact":
                facts[dealer]["wheel_made"] = 1
        return facts


class ThirdWheel(Game):
    key = "third_wheel"
    title = "Third Wheel"
    summary = "3 players, Decktet: the dealer bids tricks, the setters call trump and high/low"
    min_players = 3
    max_players = 3
    settings = (
        Setting("overtrick_dealer", "bid", "Dealer over the bid",
                "What a dealer who takes more tricks than the bid scores: the bid, "
                "or the bid minus one point per extra trick.",
                kind="choice", choices=("bid", "penalty")),
        Setting("overtrick_setter", "other_setter", "Setter over the bid",
                "When the dealer goes over, the setter with fewer tricks scores the overtricks "
                "plus the other setter's tricks, or plus their own tricks.",
                kind="choice", choices=("other_setter", "own_tricks"),
                labels=(("other_setter", "other setter"), ("own_tricks", "own tricks"))),
        Setting("deals_each", 2, "Deals each",
                "The game ends once every player has dealt at least this many times, counting the hands "
                "each actually dealt (0 for no limit).",
                minimum=0, labels=((0, "no limit"),)),
        Setting("target", 33, "Target score",
                "The game ends once someone has at least this many points (0 for no target).",
                minimum=0, labels=((0, "none"),)),
    )
    settings_type = WheelSettings
    hand_fields = ("trump", "mode", "wheel", "bid", "tricks")
    required_fields = hand_fields
    sample_settings: ClassVar[tuple[dict, ...]] = (
        {"deals_each": 1, "target": 0}, {"deals_each": 2, "target": 0}, {"deals_each": 1, "target": 60},
        {"deals_each": 2, "target": 33}, {"deals_each": 3, "target": 0, "overtrick_dealer": "penalty"},
        {"deals_each": 1, "target": 0, "overtrick_setter": "own_tricks"})

    def long_match(self, hands: int, seats: int) -> dict | None:
        # no target, and enough deals each for ``hands`` hands dealt in turn
        return {"target": 0, "deals_each": max(1, -(-hands // seats))}

    rules = ThirdWheelRules()
    shown = ThirdWheelShown()
    referee = ThirdWheelReferee()
    stats = ThirdWheelStats()

class View(NamedTuple):
    """One hand as the scoring rule sees it, by seat: F is the setter with fewer tricks, M more."""

    dealer: int
    bid: int
    took: int
    fewer: int
    t_fewer: int
    more: int
    t_more: int
    settings: WheelSettings

    @property
    def tied(self) -> bool:
        return self.t_fewer == self.t_more


class WheelHand(NamedTuple):
    """How a hand of Third Wheel scored (``Scored.why``), for ``ThirdWheelShown`` to say: the hand
    as the rule saw it (``view``), the ``setters`` in order from the dealer's left, whether the
    dealer took the ``wheel``, the ``outcome`` ("exact", "missed" or "over") and the ``points`` of
    the dealer, F and M (tied setters score the same share: the Ruling)."""

    view: View
    setters: tuple[int, int]
    wheel: bool
    outcome: str
    points: tuple[int, int, int]


# Facts made as tuples are (``View``, ``WheelHand``): the named tuple's own constructor (keywords
# allowed) costs three times as much, and a replay makes two a hand.
_made = tuple.__new__


def count(tricks: int) -> str:
    return f"{tricks} trick" if tricks == 1 else f"{tricks} tricks"


def _exact(h: View) -> tuple[int, int, int]:
    # The text fixes the extreme bids: 0 scores one point per trick in the hand, 11 double.
    dealer = TRICKS if h.bid == 0 else 2 * TRICKS if h.bid == TRICKS else h.bid + h.t_more
    if h.tied:
        return dealer, h.t_fewer // 2, h.t_fewer // 2
    return dealer, h.t_fewer, 0


def _missed(h: View) -> tuple[int, int, int]:
    if h.tied:
        return 0, h.bid + h.t_fewer // 2, h.bid + h.t_fewer // 2
    return 0, h.bid + h.t_fewer, h.bid


def _over(h: View) -> tuple[int, int, int]:
    over = h.took - h.bid
    dealer = h.bid - over if h.settings.overtrick_dealer == "penalty" else h.bid
    if h.tied:
        return dealer, (h.t_fewer + over) // 2, (h.t_fewer + over) // 2
    base = h.t_fewer if h.settings.overtrick_setter == "own_tricks" else h.t_more
    return dealer, base + over, 0


# --- the scoring in words (``ThirdWheelShown.explanation_words``) -------------------------

def _setters(h: View, names: tuple[str, ...], f_why: str, m_why: str) -> list[str]:
    return [f"{names[h.fewer]}, the setter with fewer tricks, {f_why}",
            f"{names[h.more]}, the setter with more tricks, {m_why}"]


def _both(h: View, names: tuple[str, ...], why: str) -> list[str]:
    # Ruling: tied setters each score the same share; M's 0 does not apply.
    return [f"{names[h.fewer]} and {names[h.more]} both took {count(h.t_fewer)}, so each scores {why}"]


def _exact_words(h: View, points: tuple[int, int, int], names: tuple[str, ...]) -> list[str]:
    dealer, (scored, f, _) = names[h.dealer], points
    if h.bid == 0:
        line = f"{dealer} bid 0 and took no tricks: a made 0 bid scores exactly {TRICKS}"
    elif h.bid == TRICKS:
        line = f"{dealer} bid {TRICKS} and took all {TRICKS}: a made {TRICKS} bid scores {scored}"
    else:
        who = f"the setters tied, {count(h.t_more)} each" if h.tied else f"{names[h.more]}, the setter with more tricks"
        line = f"{dealer} bid {h.bid} and took exactly {h.bid}: {h.bid} + {h.t_more} ({who}) = {scored}"
    if h.tied:
        return [line, *_both(h, names, f"half of {h.t_fewer}, rounded down: {f}")]
    return [line, *_setters(h, names, f"scores their {count(h.t_fewer)}: {f}", "scores 0")]


def _missed_words(h: View, points: tuple[int, int, int], names: tuple[str, ...]) -> list[str]:
    _, f, m = points
    line = f"{names[h.dealer]} bid {h.bid} but took only {h.took}, so the bid missed: 0"
    if h.tied:
        return [line, *_both(h, names, f"the bid plus half of {h.t_fewer}, rounded down: "
                                       f"{h.bid} + {f - h.bid} = {f}")]
    return [line, *_setters(h, names, f"scores the bid plus their own tricks: {h.bid} + {h.t_fewer} = {f}",
                            f"scores the bid: {m}")]


def _over_words(h: View, points: tuple[int, int, int], names: tuple[str, ...]) -> list[str]:
    scored, f, _ = points
    over = h.took - h.bid
    line = f"{names[h.dealer]} bid {h.bid} but took {h.took}, {over} over the bid"
    if h.settings.overtrick_dealer == "penalty":
        line = f"{line}: the bid minus the overtricks, {h.bid} - {over} = {scored}"
    else:
        line = f"{line}: the bid only, {scored}"
    if h.tied:
        return [line, *_both(h, names, f"half of ({count(h.t_fewer)} + {over} over = {h.t_fewer + over}), "
                                       f"rounded down: {f}")]
    base, whose = ((h.t_fewer, "their own") if h.settings.overtrick_setter == "own_tricks"
                   else (h.t_more, f"{names[h.more]}'s"))
    return [line, *_setters(h, names, f"scores {whose} {count(base)} plus {over} over the bid: "
                                      f"{base} + {over} = {f}", "scores 0")]


OUTCOME_WORDS = {"exact": _exact_words, "missed": _missed_words, "over": _over_words}


# --- trick referee -----------------------------------------------------------

PLACES = ("led", "played second", "played third")


@functools.cache
def _hand_range(overtrick_dealer: str, overtrick_setter: str) -> tuple[int, int]:
    """(least, most) one player can score in one hand: every possible hand scored by
    ``score_hand`` itself (12 bids, with or without the Wheel, every split of the tricks)."""
    game = ThirdWheel()
    table = Table(("a", "b", "c"), {"overtrick_dealer": overtrick_dealer, "overtrick_setter": overtrick_setter})
    scores: set[int] = set()
    for bid in range(TRICKS + 1):
        for took in range(TRICKS + 1):
            for first in range(TRICKS - took + 1):
                hand = {"trump": SUITS[0], "mode": MODES[0], "wheel": False, "bid": bid,
                        "tricks": [took, first, TRICKS - took - first]}
                scores.update(game.rules.score_hand(hand, game.empty_place(table, 0)).scores)
    return min(scores), max(scores)


def card_label(card: str) -> str:
    """A card for a picker: "The Author (2, Moons/Knots)", "Ace of Moons (1)"."""
    found = _card(card)
    if found.rank == 1:
        return f"{found.name} (1)"
    return f"{found.name} ({found.rank}, {'/'.join(s.title() for s in found.suits)})"


def trick_winner(cards: list, trump: str, mode: str) -> tuple[int, str]:
    """The index (in play order) of the card that wins a trick of three, and why."""
    played = _check_trick(cards, trump, mode)
    # a card follows when it shares a suit with the led card; the ruling on equal ranks
    # (the earlier card wins) is the shared rule's tie
    rule: TrickRule[Card] = TrickRule(suits=lambda card: card.suits,
                                      strength=lambda index, card: card.rank if mode == "high" else -card.rank)
    verdict = rule.judge(played, trump)
    return verdict.winner, _reason(played, verdict.winner, list(verdict.pool), trump if verdict.by_trump else None,
                                   mode)


def _reason(played: list[Card], best: int, pool: list[int], trump: str | None, mode: str) -> str:
    led = "/".join(s.title() for s in played[0].suits)
    kind = f"trump ({trump.title()})" if trump else f"card sharing a suit with the led card ({led})"
    winner = f"{played[best].name} ({PLACES[best]})"
    if len(pool) == 1:
        why = f"{winner} is the only {kind}, so it wins."
    else:
        word = "highest" if mode == "high" else "lowest"
        others = " and ".join(f"{played[i].name} ({played[i].rank})" for i in pool if i != best)
        tie = any(played[i].rank == played[best].rank for i in pool if i != best)
        why = (f"{winner} is the {word} {kind} in a {mode} hand: {played[best].rank} against {others}"
               + ("; of equal ranks the card played earlier wins." if tie else "."))
    losers = " and ".join(played[i].name for i in range(len(played)) if i not in pool)
    if losers and trump:
        why += f" {losers} cannot win: only trumps count once a trump is played."
    elif losers:
        why += f" {losers} cannot win without sharing a led suit or being a trump."
    return why


def _card(name: object) -> Card:
    if not isinstance(name, str) or name not in CARDS:
        raise ValueError(f"unknown card {show(name)}: use a basic Decktet card name such as \"The Author\"")
    return CARDS[name]


def _check_trick(cards: list, trump: str, mode: str) -> list[Card]:
    if trump not in SUITS:
        raise ValueError(f"trump must be one of {', '.join(SUITS)}, got {show(trump)}")
    if mode not in MODES:
        raise ValueError(f"mode must be \"high\" or \"low\", got {show(mode)}")
    if not isinstance(cards, (list, tuple)) or len(cards) != 3:
        count = len(cards) if isinstance(cards, (list, tuple)) else show(cards)
        raise ValueError(f"a Third Wheel trick has 3 cards, one per player, got {count}")
    played = [_card(name) for name in cards]
    repeated = sorted({c.name for c in played if played.count(c) > 1})
    if repeated:
        raise ValueError(f"{', '.join(repeated)} played twice: the Decktet has only one of each card")
    return played


def decktet_face(card: Card) -> Face:
    suits = "/".join(s.title() for s in card.suits)
    return Face(card.name, card_label(card.name), str(card.rank), suits, "named", card.name)
