"""Third Hand (seed 000): two players, 24 cards, one bid card each, a cut for trump.

Scoring, rulings and the trick referee follow rules.md section 1.

Its parts, each read alone (see ``games.base``): ``ThirdHandRules``, ``ThirdHandShown`` (how it is
shown and printed), ``ThirdHandReferee`` and ``ThirdHandStats``, held by ``ThirdHand``; the module's
functions are the vocabulary they share (cards, rank orders, the scoring's arithmetic).
"""
from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import product
from typing import Any, ClassVar, NamedTuple

from .base import (
    POINTS,
    TOTAL,
    CardCounter,
    CountKind,
    Event,
    FieldGroup,
    Figure,
    Game,
    GameSettings,
    HandContext,
    HandOutput,
    NeedsFacts,
    NextDeal,
    Place,
    Problem,
    Referee,
    Rules,
    Scored,
    Seating,
    SeatNeeds,
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
    bidding_order,
    broken,
    by_player,
    check_bool,
    check_choice,
    check_seat_counts,
    range_problem,
    said,
    show,
    show_json,
    suit_choices,
    suit_name,
)
from .cards import SUITS, label
from .trick_referee import Choice, Face, Setup, french_face, french_groups, is_french, suit_options
from .tricks import TrickRule

RANKS = ("9", "10", "J", "Q", "K", "A")  # bidding order, lowest first
RANK_ORDER = {rank: order for order, rank in enumerate(RANKS)}
TRUMPS = ("hearts", "diamonds", "clubs", "spades")
DEFAULT_CONTRACT_VALUES = {"9": 60, "10": 65, "J": 70, "Q": 75, "K": 80, "A": 85}
CARDS_CAPTURED = 14  # Ruling: the bid cards and the cut card stay out of play
DECK = {"aces": 4, "nines": 4, "tens": 4, "pictures": 12}
# The cards that score, for random sample hands: P is any picture card.
_SAMPLE_DECK = ["A"] * 4 + ["9"] * 4 + ["10"] * 4 + ["P"] * 12
_SAMPLE_POINTS = {"A": 1, "9": 9, "10": 10, "P": 10}


@dataclass(frozen=True)
class HandSettings(GameSettings):
    """Third Hand's settings (``ThirdHand.settings`` says each)."""

    target: int
    contract_values: dict[str, int]  # the card points each bid rank (``RANKS``) must take


@dataclass(frozen=True)
class ThirdHandOutput(HandOutput):
    """What a scored hand of Third Hand gives beyond its points (the rescore output's keys): the
    contract's ``holder`` (None: no contract), whether it was ``made`` (None without one) and
    whether it was ``doubled`` (both bid face up)."""

    holder: int | None
    made: bool | None
    doubled: bool


# --- card points and the 14-card check --------------------------------------

@functools.cache
def _hand_range(values: tuple[int, ...]) -> tuple[int, int]:
    """(least, most) one player can score in one hand: every possible split of the card
    points under every valid pair of bids, scored by ``score_hand`` itself."""
    game = ThirdHand()
    table = Table(("a", "b"), {"contract_values": dict(zip(RANKS, values)), "target": 500})
    first = game.empty_place(table, 0)
    low = high = 0
    seen = set()
    for bids in product((None, *RANKS), repeat=2):
        hand: dict = {"bids": list(bids), "trump": TRUMPS[0], "points": list(min(POSSIBLE_POINTS))}
        if game.rules.check_hand(hand, first):  # only the bids can be wrong here
            continue
        holder = holder_of(list(bids))
        # the score depends on the bids only through the holder, the contract's value and doubling
        kind = (holder, None if holder is None else values[RANKS.index(bids[holder])], None not in bids)
        if kind in seen:
            continue
        seen.add(kind)
        for pair in POSSIBLE_POINTS:
            hand["points"] = list(pair)
            scores = game.rules.score_hand(hand, first).scores
            low, high = min(low, *scores), max(high, *scores)
    return low, high


def points_from_counts(aces: int, nines: int, tens_and_pictures: int) -> int:
    """Card points of captured cards: Ace 1, nine 9, ten and K/Q/J 10."""
    return aces + 9 * nines + 10 * tens_and_pictures


def _splits() -> Iterator[tuple[tuple[int, int, int], tuple[int, int, int]]]:
    """Every way the 14 captured cards can fall: (cards, aces, nines) per player."""
    for cards0, aces0, nines0, aces1, nines1 in product(range(0, CARDS_CAPTURED + 1, 2),
                                                        range(5), range(5), range(5), range(5)):
        cards1 = CARDS_CAPTURED - cards0
        if aces0 + aces1 > 4 or nines0 + nines1 > 4:
            continue
        if aces0 + nines0 > cards0 or aces1 + nines1 > cards1:
            continue
        yield (cards0, aces0, nines0), (cards1, aces1, nines1)


def _points(cards: int, aces: int, nines: int) -> int:
    return points_from_counts(aces, nines, cards - aces - nines)


POSSIBLE_POINTS = frozenset((_points(*p0), _points(*p1)) for p0, p1 in _splits())
# Card counts that can make each player's points, for messages that say why.
CARDS_FOR_POINTS: dict[int, frozenset[int]] = {}
for _p0, _p1 in _splits():
    for _split in (_p0, _p1):
        CARDS_FOR_POINTS.setdefault(_points(*_split), frozenset())
        CARDS_FOR_POINTS[_points(*_split)] |= {_split[0]}
# Card counts that make each player's points with no rule on the count (odd counts too).
ANY_CARDS_FOR_POINTS: dict[int, frozenset[int]] = {}
for _cards, _aces, _nines in product(range(CARDS_CAPTURED + 1), range(5), range(5)):
    if _aces + _nines <= _cards:
        _made = _points(_cards, _aces, _nines)
        ANY_CARDS_FOR_POINTS[_made] = ANY_CARDS_FOR_POINTS.get(_made, frozenset()) | {_cards}
POSSIBLE_TOTALS = frozenset(p0 + p1 for p0, p1 in POSSIBLE_POINTS)
# The most card points one player can take over the other in a hand (all 14 cards, 140 to 0).
MOST_AHEAD = max(p0 - p1 for p0, p1 in POSSIBLE_POINTS)


def _ranges(numbers: Iterable[int]) -> str:
    """100, 101, 102, 109 -> "100-102, 109"."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def _or_list(numbers: Iterable[int]) -> str:
    words = [str(n) for n in sorted(numbers)]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


class OddCards(NamedTuple):
    """Why one player's points cannot be captured: only these ``cards`` counts, all odd, make them."""

    cards: frozenset[int]


class EndsInFive(NamedTuple):
    """Why one player's points cannot be made from any cards: points ending in 5 need 5 Aces or
    5 nines (each Ace is 1 over a ten, each nine 1 under), and the deck has 4 of each."""


class FewerThanNines(NamedTuple):
    """Why one player's points cannot be made from any cards: their last digit needs at least
    ``nines`` nines (6 needs 4, 7 needs 3, 8 needs 2), worth more than the points."""

    nines: int


class TooManyCards(NamedTuple):
    """Why one player's points cannot be made from 14 cards: they need at least ``cards`` cards,
    ``aces`` Aces (their last digit) and the rest worth 10."""

    cards: int
    aces: int


Unmade = OddCards | EndsInFive | FewerThanNines | TooManyCards


def why_unmade(points: int) -> Unmade:
    """Why no even number of captured cards makes one player's ``points`` (0 to 140, not in
    ``CARDS_FOR_POINTS``). Points are 10 a card less 9 an Ace and 1 a nine, so the last digit
    is set by the Aces less the nines: 1-4 more Aces, 6-9 (as 10 less 4-1) more nines."""
    if points in ANY_CARDS_FOR_POINTS:
        return OddCards(ANY_CARDS_FOR_POINTS[points])
    ones = points % 10
    if ones == 5:
        return EndsInFive()
    if ones > 5:
        return FewerThanNines(10 - ones)
    return TooManyCards(points // 10 + ones, ones)


@dataclass(frozen=True)
class PointsOff:
    """A hand's problem: its card ``points`` (the pair) cannot come from the 14 captured cards:
    by their ``total`` (``seat`` None), by one player's points (their ``seat``, ``why`` says
    why), or by the card counts the two need (``seat`` None, ``total`` possible)."""

    points: tuple[int, ...]
    total: bool = False
    seat: int | None = None
    why: Unmade | None = None


@dataclass(frozen=True)
class BidsOff:
    """A hand's problem with the bids: not one per seat (``shape``), not a rank (``rank``), an
    equal rank (``equal``) or, when ``dealer`` is set, the dealer's bid lower than the other's."""

    bids: tuple[Any, ...] = ()
    shape: bool = False
    rank: bool = False
    equal: bool = False
    dealer: int | None = None


@dataclass(frozen=True)
class SwapWithoutContract:
    """A hand's problem: a swap with the third hand recorded though both passed."""


def points_problems(points: list[int], names: tuple[str, ...]) -> list[Problem]:
    """Why a pair of captured points cannot come from 14 cards (empty if it can)."""
    if tuple(points) in POSSIBLE_POINTS:
        return []
    problems = []
    pair = tuple(points)
    if sum(points) not in POSSIBLE_TOTALS:
        problems.append(broken("points", PointsOff(pair, total=True)))
    for seat, p in enumerate(points):
        if p not in CARDS_FOR_POINTS:
            problems.append(broken("points", PointsOff(pair, seat=seat, why=why_unmade(p)), seat=seat,
                                   who=names[seat]))
    if problems:
        return problems
    # With a possible total the aces and nines always fit, so only the card counts clash.
    return [broken("points", PointsOff(pair))]


def check_capture_counts(counts0: dict, counts1: dict, names: tuple[str, ...] = ("first player", "second player"),
                         all_cards: bool = True) -> list[str]:
    """Why two players' captured-card counts ({"aces", "nines", "tens", "pictures"})
    are impossible under the 14-card rule; empty when they are possible. Without
    ``all_cards`` (only some of the captured cards are counted) their number is
    not held to 14."""
    problems = []
    for name, counts in zip(names, (counts0, counts1)):
        for kind in DECK:
            problem = range_problem(counts.get(kind), 0, DECK[kind])
            if problem:
                problems.append(f"{name}'s {kind}: {problem}")
    if problems:
        return problems
    cards = [sum(counts[kind] for kind in DECK) for counts in (counts0, counts1)]
    for name, count in zip(names, cards):
        if count % 2:
            problems.append(f"{name} captured {count} cards, but every trick gives 2, so it must be even")
    cards = sum(cards)
    if all_cards and cards != CARDS_CAPTURED:
        problems.append(f"cards captured add up to {cards}, not {CARDS_CAPTURED}")
    for kind, most in DECK.items():
        both = counts0[kind] + counts1[kind]
        if both > most:
            problems.append(f"{kind} add up to {both}, but the deck has only {most}")
    return problems


# --- the contract -------------------------------------------------------------

def holder_of(bids: list) -> int | None:
    """The seat with the higher face-up bid, or None when both passed."""
    # a plain loop: a replay asks this several times a hand
    holder, highest = None, -1
    for seat, bid in enumerate(bids):
        if bid is not None and RANK_ORDER[bid] > highest:
            holder, highest = seat, RANK_ORDER[bid]
    return holder


def high_rank_for(bids: list) -> str:
    """The deal's high rank: the holder's bid rank, or K with no contract."""
    holder = holder_of(bids)
    return "K" if holder is None else bids[holder]


def _bid_words(bid: str | None) -> str:
    return "passed face down" if bid is None else f"bid {bid}"


@dataclass(frozen=True)
class CatchUp:
    """How a player behind can catch up with the ``leader`` in one hand (``Rules.seat_facts``):
    the ``gap``, the most card points one player can take over the other (``most``), and the
    card points over the leader that close it with no contract, with a contract the player
    makes or the leader fails (``double``) and with that contract doubled (``triple``)."""

    leader: int
    gap: int
    most: int
    single: int
    double: int
    triple: int


@dataclass(frozen=True)
class HandScores:
    """Why the next dealer deals (``NextDeal.own``): the two hand ``scores`` of the hand just
    played, seat order; the higher deals, a tie passes the deal to the non-dealer."""

    first: int
    second: int


@dataclass(frozen=True)
class ContractPlayed:
    """A hand's event: the holder's contract at ``rank``, ``made`` or failed, ``doubled`` or not."""

    rank: str
    made: bool
    doubled: bool


class HandPlayed(NamedTuple):
    """How a hand of Third Hand scored (``Scored.why``), for ``ThirdHandShown`` to say: the
    ``bids`` (None: face down), the card ``points``, the ``trump``, whether the contract's holder
    ``swapped`` hands with the third hand, and the ``value`` the contract needed (None without
    one); who held it, whether it was made and doubled are the hand's output (``ThirdHandOutput``)."""

    bids: list[str | None]
    points: list[int]
    trump: str
    swapped: bool
    value: int | None


class ThirdHandRules(Rules[HandSettings]):
    """Third Hand's rules (rules.md section 1): the bids, the 14 captured cards' points, the
    contract made or failed, the higher hand score dealing next, playing past the target."""

    def target(self, place: HandContext) -> Target:
        # "the highest score past 500": reaching the target exactly is not enough
        return Target(HandSettings.at(place.table).target, past=True)

    # --- a hand -------------------------------------------------------------
    def check_hand(self, hand: dict, ctx: HandContext) -> list[Problem]:
        """``dealer`` (the engine passes the hand's own "dealer" when it has one) lets
        the check refuse a dealer's bid that does not top."""
        table, dealer = ctx.table, ctx.dealer
        bid_problems = self._check_bids(hand["bids"], table, dealer)
        problems = bid_problems + check_choice(hand, "trump", TRUMPS)
        if "exchanged" in hand:
            problems += check_bool(hand, "exchanged")
            if hand["exchanged"] is True and not bid_problems and holder_of(hand["bids"]) is None:
                problems.append(broken("exchanged", SwapWithoutContract()))
        point_problems = check_seat_counts(hand, "points", table, 10 * CARDS_CAPTURED)
        if not point_problems:
            point_problems = points_problems(hand["points"], table.players)
        return problems + point_problems

    def _check_bids(self, bids: Any, table: Table, dealer: int | None) -> list[Problem]:
        if not isinstance(bids, list) or len(bids) != table.seats:
            return [Problem("bids", "not_list", {"got": show_json(bids), "value": bids},
                            fact=BidsOff(shape=True))]
        problems = [Problem("bids", "choice", {"got": show(bid), "value": bid}, seat, table.players[seat],
                            BidsOff(rank=True))
                    for seat, bid in enumerate(bids) if bid is not None and bid not in RANKS]
        if problems or None in bids:
            return problems
        if bids[0] == bids[1]:
            return [broken("bids", BidsOff(tuple(bids), equal=True))]
        if dealer is not None and holder_of(bids) != dealer:
            return [broken("bids", BidsOff(tuple(bids), dealer=dealer), seat=dealer, who=table.players[dealer])]
        return []

    def score_hand(self, hand: dict, ctx: HandContext) -> Scored:
        bids, points = hand["bids"], hand["points"]
        holder = holder_of(bids)
        doubled = None not in bids
        swapped = bool(hand.get("exchanged"))
        if holder is None:
            return Scored(list(points), HandPlayed(bids, points, hand["trump"], swapped, None),
                          ThirdHandOutput(None, None, False))
        opponent = 1 - holder
        p_holder, p_opponent = points[holder], points[opponent]
        value = HandSettings.at(ctx.table).contract_values[bids[holder]]
        made = p_holder >= value
        multiplier = 2 if doubled else 1
        diff = abs(p_holder - p_opponent)
        change = multiplier * diff if made else -multiplier * diff
        scores = [0, 0]
        scores[holder], scores[opponent] = p_holder + change, p_opponent
        return Scored(scores, HandPlayed(bids, points, hand["trump"], swapped, value),
                      ThirdHandOutput(holder, made, doubled))

    def next_deal(self, ctx: HandContext, scored: Scored) -> NextDeal:
        """The higher hand score deals; a tie passes the deal to the non-dealer."""
        table, dealer = ctx.table, ctx.dealt_by
        first, second = scored.scores
        if first == second:
            return NextDeal(table.left_of(dealer), HandScores(first, second))
        return NextDeal(0 if first > second else 1, HandScores(first, second))


# --- trick referee --------------------------------------------------------------

    def most_in_a_hand(self, place: HandContext) -> int | None:
        settings = HandSettings.at(place.table)
        return _hand_range(tuple(settings.contract_values[r] for r in RANKS))[1]

    def least_in_a_hand(self, place: HandContext) -> int | None:
        settings = HandSettings.at(place.table)
        return _hand_range(tuple(settings.contract_values[r] for r in RANKS))[0]

    def seat_facts(self, place: HandContext, seat: int) -> CatchUp | None:
        """How the player behind catches up in one hand, in card points taken over the
        leader: without a contract the gap closes by that difference; with a contract the
        trailing player makes, or the leader fails, by twice it (three times doubled), since
        the contract adds the difference once more (twice doubled) on top of the card points.
        Only enough, never needed: a test checks the line against every possible hand."""
        other = 1 - seat
        gap = place.totals[other] - place.totals[seat]
        if gap <= 0:
            return None
        return CatchUp(other, gap, MOST_AHEAD, gap, -(-gap // 2), -(-gap // 3))

    def random_hand(self, ctx: HandContext, rng: Any) -> dict:
        dealer = ctx.dealt_by
        non_dealer = 1 - dealer
        bids: list[str | None] = [None, None]
        if rng.random() < 0.6:
            bids[non_dealer] = rng.choice(RANKS)
        higher = [r for r in RANKS if bids[non_dealer] is None or RANKS.index(r) > RANKS.index(bids[non_dealer])]
        if higher and rng.random() < 0.5:
            bids[dealer] = rng.choice(higher)
        captured = rng.sample(_SAMPLE_DECK, CARDS_CAPTURED)
        points = [0, 0]
        for trick in range(CARDS_CAPTURED // 2):
            points[rng.randrange(2)] += sum(_SAMPLE_POINTS[c] for c in captured[2 * trick: 2 * trick + 2])
        hand = {"bids": bids, "trump": rng.choice(TRUMPS), "points": points}
        if bids != [None, None] and rng.random() < 0.3:
            hand["exchanged"] = True
        return hand

    def hand_events(self, hand: dict, ctx: HandContext, scored: Scored) -> list[Event]:
        """A doubled contract, and a failed one, named with its holder."""
        out = ThirdHandOutput.read(scored.extra)
        holder, made, doubled = out.holder, out.made, out.doubled
        if holder is None or (made and not doubled):
            return []
        return [Event(ContractPlayed(hand["bids"][holder], bool(made), bool(doubled)), holder,
                      on_sheet=False)]  # its Contract column


class ThirdHandShown(Shown):
    """How Third Hand is shown: the bid-and-cut form with its card counter, the guide to
    the deal and bidding, the contract on the sheet, the holder in the seat picture."""

    def explanation_words(self, hand: dict, scored: Scored, ctx: HandContext) -> list[str]:
        why, out, names = scored.why, ThirdHandOutput.read(scored.extra), ctx.players
        assert isinstance(why, HandPlayed)  # how every hand of the game scores
        bids, points, holder = why.bids, why.points, out.holder
        lines = [self._bidding_line(bids, names, ctx.dealt_by, out)]
        swap = f"; {names[holder]} swapped hands with the third hand" if why.swapped and holder is not None else ""
        lines.append(f"Trump: {why.trump}{swap}.")
        if holder is None:
            lines.append(f"No contract, so each scores their own card points: "
                         f"{names[0]} {points[0]}, {names[1]} {points[1]}.")
            return lines
        opponent = 1 - holder
        p_holder, p_opponent = points[holder], points[opponent]
        if out.made:
            lines.append(f"{names[holder]} needed {why.value} for the {bids[holder]} contract and took "
                         f"{p_holder}: made.")
        else:
            lines.append(f"{names[holder]} needed {why.value} for the {bids[holder]} contract but took "
                         f"only {p_holder}: failed.")
        sign = "+" if out.made else "-"
        diff = abs(p_holder - p_opponent)
        times = f"2 × {diff} (twice the" if out.doubled else f"{diff} (the"
        lines.append(f"{names[holder]} scores {p_holder} {sign} {times} difference between "
                     f"{p_holder} and {p_opponent}) = {scored.scores[holder]}.")
        lines.append(f"{names[opponent]}, the opponent, scores their own card points: {p_opponent}.")
        return lines

    @staticmethod
    def _bidding_line(bids: list[str | None], names: tuple[str, ...], dealer: int, out: ThirdHandOutput) -> str:
        non_dealer = 1 - dealer
        said = (f"{names[non_dealer]} {_bid_words(bids[non_dealer])}, then "
                f"{names[dealer]} (dealer) {_bid_words(bids[dealer])}")
        holder = out.holder
        if holder is None:
            return f"{said}: no contract, Kings are high."
        doubled = ", doubled because both bid face up" if out.doubled else ""
        return f"{said}: {names[holder]} holds the contract at {bids[holder]}{doubled}."

    def problem_words(self, fact: Any, place: HandContext) -> dict[str, Any]:
        players = place.players
        if isinstance(fact, SwapWithoutContract):
            why = "both passed, so there was no contract and nobody may swap with the third hand"
            return said(f"true, but {why}", plain=f"ticked, but {why}")
        if isinstance(fact, PointsOff):
            return said(self._points_off(fact, players), prefix=not fact.total)
        assert isinstance(fact, BidsOff)  # the game's last problem fact
        bids = fact.bids
        if fact.shape:
            return {"what": f"{len(players)} bids, one per seat (a rank or null for face down)"}
        if fact.rank:
            return {"options": ", ".join(f'"{r}"' for r in RANKS) + " or null (face down)"}
        if fact.equal:
            return said(f"both bid {bids[0]}, but the dealer must bid a higher rank to "
                        "top the non-dealer (equal rank does not top)")
        assert fact.dealer is not None  # the dealer's bid lower than the other's
        dealer = fact.dealer
        other = (dealer + 1) % len(players)
        # said as the table would: whose bid is lower, and what the dealer may do instead
        name, theirs = players[dealer], bids[other]
        instead = (f"bid higher than {theirs} or pass face down" if theirs != RANKS[-1]
                   else f"pass face down (nothing is higher than {theirs})")
        return said(f"{name} bid {bids[dealer]}, lower than {players[other]}'s {theirs}; "
                    f"as the dealer, {name} must {instead}")

    @staticmethod
    def _points_off(fact: PointsOff, names: tuple[str, ...]) -> str:
        points = fact.points
        if fact.total:
            return (f"points add up to {sum(points)}, which 14 captured cards cannot make "
                    f"(possible totals: {_ranges(POSSIBLE_TOTALS)})")
        if fact.seat is not None:
            return ThirdHandShown._unmade(points[fact.seat], fact.why)
        return (f"{names[0]}'s {points[0]} can only come from {_or_list(CARDS_FOR_POINTS[points[0]])} "
                f"captured cards and {names[1]}'s {points[1]} from {_or_list(CARDS_FOR_POINTS[points[1]])}, "
                "which never add up to the 14 cards captured")

    @staticmethod
    def _unmade(points: int, why: Unmade | None) -> str:
        """Why one player's ``points`` cannot be captured, as the table counts cards."""
        if isinstance(why, OddCards):
            cards = "card" if why.cards == {1} else "cards"
            return (f"{points} can only be made from {_or_list(why.cards)} captured {cards}, an odd number; "
                    "every trick gives 2 cards, so each player captures an even number")
        if isinstance(why, EndsInFive):
            return (f"no set of cards makes {points}: points ending in 5 need at least 5 Aces or 5 nines, "
                    "and the deck has only 4 of each")
        if isinstance(why, FewerThanNines):
            return (f"no set of cards makes {points}: points ending in {points % 10} need at least "
                    f"{why.nines} nines, which already make {9 * why.nines}")
        assert isinstance(why, TooManyCards)  # the last reason
        aces = "Ace" if why.aces == 1 else "Aces"
        return (f"{points} needs at least {why.cards} captured cards ({why.aces} {aces} and "
                f"{why.cards - why.aces} worth 10), but a player captures at most {CARDS_CAPTURED}")

    def dealt_out_of_turn(self, ctx: HandContext) -> str:
        table, dealer = ctx.table, ctx.dealt_by
        names = table.players
        return (f"{names[dealer]} counts as this hand's dealer, so {names[table.left_of(dealer)]} is the "
                "non-dealer (bid first)")

    def next_deal_words(self, deal: NextDeal, ctx: HandContext) -> str:
        scores = deal.own
        assert isinstance(scores, HandScores)  # the game's one reason: the hand scores
        if scores.first == scores.second:
            return f"the hand scores tied at {scores.first}, so the deal passes to the non-dealer"
        high, low = max(scores.first, scores.second), min(scores.first, scores.second)
        return f"{ctx.players[deal.seat]} had the higher hand score ({high} to {low})"

    def event_words(self, event: Event, ctx: HandContext) -> str:
        what = event.what
        assert isinstance(what, ContractPlayed) and event.seat is not None  # the game's one event
        contract = f"{ctx.players[event.seat]}'s {what.rank} contract{', doubled,' if what.doubled else ''}"
        return f"{contract} {'made' if what.made else 'failed'}"

    # --- what each player needs: how the player behind catches up -----------------
    def hand_needs(self, facts: NeedsFacts) -> list[str]:
        return []  # the most one hand can score helps nobody at the table; each player's catch-up line does

    def seat_needs(self, facts: NeedsFacts, need: SeatNeeds) -> list[str]:
        catch = need.own
        if not isinstance(catch, CatchUp):
            return []
        me, them, most = facts.place.players[need.seat], facts.place.players[catch.leader], catch.most
        if catch.gap > 3 * most:
            return [f"cannot catch up with {them} in one hand: a hand moves the two totals at most {3 * most} apart"]
        single, double, triple = catch.single, catch.double, catch.triple
        contract = f"a contract {me} makes or {them} fails"
        if single <= most:
            points = "card point" if single == 1 else "card points"
            how = (f"{single} more {points} than {them} with no contract, {double} more with {contract}, "
                   f"or {triple} more if it is doubled")
        elif double <= most:
            how = f"{double} more card points than {them} with {contract}, or {triple} more if it is doubled"
        else:
            how = f"{triple} more card points than {them} with a doubled contract {me} makes or {them} fails"
        return [f"could catch up with {them} in one hand by taking at least {how}"]

    field_words: ClassVar[dict[str, str]] = {"points": "card points", "exchanged": "swap"}

    def table_guide(self, ctx: HandContext) -> list[str]:
        table, dealer = ctx.table, ctx.dealt_by
        names = table.players
        d, n = names[dealer], names[table.left_of(dealer)]
        values = HandSettings.at(table).contract_values
        needs = ", ".join(f"{rank} {values[rank]}" for rank in RANKS)
        return [
            f"{d} deals 12 cards each to {n} and {d} (all 24 cards).",
            f"{n} and {d} each set 4 cards aside, face down: together they are the third hand (8 cards).",
            f"{n} bids first: one card on the table, face up to bid its rank, face down to pass.",
            f"Then {d} (the dealer) places one card: a face-up card must outrank {n}'s face-up bid "
            "(9 < 10 < J < Q < K < A, suits do not count, equal rank does not top), or pass face down; "
            f"if {n} passed, {d} may bid any rank.",
            "Both bids face up means the contract is doubled.",
            "Cut the third hand: the cut card is turned face up and its suit is trump.",
            "The contract holder may swap their hand with the rest of the third hand.",
            f"The holder leads the first trick; with no contract, {n} leads.",
            "The holder's bid rank is the high rank (K with no contract); an Ace is lowest when led and "
            "highest when played second, unless Aces were bid.",
            "Each player plays 7 cards: 7 tricks, 14 cards captured. Card points: A 1, K Q J 10 each, "
            "10 is 10, 9 is 9.",
            f"Points the holder needs to make the contract: {needs}.",
        ]

    rules_template = "rules/third_hand.html"  # the rules page, filled in from the settings

    def hand_form(self, ctx: HandContext) -> list[FieldGroup]:
        players, dealer = list(ctx.players), ctx.dealer
        order = tuple(range(len(players))) if dealer is None else tuple(bidding_order(dealer, len(players)))
        everyone = tuple(range(len(players)))
        return [
            FieldGroup("bids", "Bids (middle cards)", "seat_rank", order,
                       choices=(("pass", "pass (face down)"),) + tuple((r, r) for r in RANKS),
                       hint="Face down is a pass; face up, the card's rank.",
                       first_note="" if dealer is None else "bids first"),
            FieldGroup("trump", "Trump (the cut card's suit)", "radio", choices=suit_choices(TRUMPS)),
            FieldGroup("exchanged", "The contract holder swapped with the third hand", "bool"),
            FieldGroup("points", "Card points captured", "seat_int", everyone,
                       hint="A 1, K Q J 10 each, 10 is 10, 9 is 9.", stepper=False),
            FieldGroup("count_cards", "Count cards instead of points", "counts", everyone, optional=True,
                       hint="Enter what each player captured; the app adds up the points "
                            "(A 1, 9 is 9, 10 and K Q J 10 each) and checks the 14 cards.",
                       in_details=True),
        ]

    def card_counter(self) -> CardCounter:
        return CardCounter("points", tuple(CountKind(kind, label, DECK[kind], word=kind) for kind, label in
                                           (("aces", "Aces"), ("nines", "Nines"), ("tens", "Tens"),
                                            ("pictures", "K Q J"))),
                           lambda c: points_from_counts(c["aces"], c["nines"], c["tens"] + c["pictures"]),
                           _counter_problems, heading="Card points", counted="counted cards", typed="points")

    def hand_summary(self, hand: dict, ctx: HandContext, extra: HandOutput) -> list[str]:
        players = list(ctx.players)
        bids = hand.get("bids") or []
        parts = [by_player("bids", players, ["pass" if b is None else b for b in bids])]
        if hand.get("trump"):
            parts.append(suit_name(hand["trump"]))
        out = extra if isinstance(extra, ThirdHandOutput) else None  # None: not scored
        holder = None if out is None else out.holder
        if out is not None and holder is not None and 0 <= holder < len(players):
            made = out.made
            word = "made" if made else "failed" if made is False else ""
            parts.append(f"{players[holder]} {word}".strip() + (" (doubled)" if out.doubled else ""))
        elif out is not None:
            parts.append("no contract")
        if hand.get("exchanged"):
            parts.append("exchanged")
        return parts

    # --- the score sheet ----------------------------------------------------
    def sheet_layout(self, place: HandContext) -> SheetLayout:
        return SheetLayout(
            hand=(SheetColumn("trump", "Trump", "the cut card's suit", "text"),
                  SheetColumn("contract", "Contract", "the holder's contract: made, failed or none", "text")),
            seat=(SheetColumn("bid", "Bid", "bid card: its rank, or – for a pass (face down)"),
                  SheetColumn("captured", "Took", "card points captured"), POINTS, TOTAL),
            marks=(("H", "holds the contract (the higher face-up bid)"),
                   ("×2", "doubled: both bid face up"),
                   ("swap", "the holder swapped hands with the third hand")))

    def sheet_cells(self, hand: dict, ctx: HandContext, extra: HandOutput) -> SheetRow:
        out = ThirdHandOutput.read(extra)
        bids, holder = hand["bids"], out.holder
        if holder is None:
            contract = SheetCell("none")
        else:
            marks = (["×2"] if out.doubled else []) + (["swap"] if hand.get("exchanged") else [])
            contract = SheetCell("made" if out.made else "failed", " ".join(marks))
        seats = [{"bid": SheetCell("–" if bid is None else bid, "H" if seat == holder else ""),
                  "captured": SheetCell(str(hand["points"][seat]))} for seat, bid in enumerate(bids)]
        return SheetRow(hand={"trump": SheetCell(suit_name(hand["trump"])), "contract": contract}, seats=seats)

    def sheet_rules(self, place: HandContext) -> list[str]:
        settings = HandSettings.at(place.table)
        values = settings.contract_values
        needs = ", ".join(f"{rank} {values[rank]}" for rank in RANKS)
        return [
            "Bids: the non-dealer places a card face up (a bid of its rank) or face down (a pass), then the "
            "dealer, who must bid a higher rank (9 < 10 < J < Q < K < A) or pass. The higher face-up bid holds "
            "the contract; both face up doubles it.",
            f"Card points needed to make the contract: {needs}.",
            "Card points: A 1, K Q J 10 each, 10 is 10, 9 is 9 (both players' points add up to 100 to 140).",
            "No contract: each scores their own card points.",
            "Made (holder's points ≥ the value): holder scores own points + the difference between the two "
            "players' points (2 × the difference when doubled); the opponent own points.",
            "Failed: holder scores own points − the difference (2 × when doubled); the opponent own points.",
            "Next dealer: the player with the higher hand score; a tie passes the deal to the non-dealer.",
            f"The game ends when a total is past {settings.target} (more than it); the highest total wins; "
            "a tie for highest plays another hand.",
        ]

    # --- the seat picture ---------------------------------------------------------
    def seating(self, ctx: HandContext, hand: dict | None = None) -> Seating:
        """Before the bidding: who bids first, and who leads if nobody bids. Once both bids
        are known: who holds the contract (and leads), or that nobody does."""
        table, dealer = ctx.table, ctx.dealt_by
        other = table.left_of(dealer)
        names = table.players
        bids = (hand or {}).get("bids")
        if not (isinstance(bids, list) and len(bids) == 2 and all(b is None or b in RANKS for b in bids)):
            places = {dealer: Place(names[dealer], dealer, ("deals", "bids second"), deals=True),
                      other: Place(names[other], other, ("bids first", "leads if nobody bids"))}
            return Seating(tuple(places[seat] for seat in range(table.seats)),
                           (f"The contract holder leads the first trick; with no contract, {names[other]} leads.",))
        holder = holder_of(bids)
        leader = other if holder is None else holder

        def roles(seat: int) -> tuple[str, ...]:
            said = ("passed" if bids[seat] is None else f"holds the {bids[seat]} contract" if seat == holder
                    else f"bid {bids[seat]}")
            return (*(("deals",) if seat == dealer else ()), said, *(("leads",) if seat == leader else ()))

        note = (f"{names[holder]} holds the contract{', doubled,' if None not in bids else ''} and leads."
                if holder is not None else f"Nobody bid: no contract, {names[other]} leads.")
        return Seating(tuple(Place(names[seat], seat, roles(seat), deals=seat == dealer, leads=seat == leader)
                             for seat in range(table.seats)), (note,))


class ThirdHandReferee(Referee):
    """Third Hand's referee: 24 cards, two to a trick; trump from the cut, the high rank
    from the bids."""

    args = ("trump", "high")  # the query keys the referee page reads

    def context(self, hand: dict, place: HandContext, in_match: bool) -> dict:
        bids = hand.get("bids")
        high = None if in_match else "K"
        if isinstance(bids, list) and len(bids) == 2 and all(b is None or b in RANKS for b in bids):
            high = high_rank_for(bids)
        return {"trump": hand.get("trump") if hand.get("trump") in TRUMPS else None if in_match else "spades",
                "high": high}

    def read(self, trick: Trick, args: Any) -> list[str]:
        trick.facts.update({key: args.get(key) or None for key in ("trump", "high") if key in args})
        return []

    def setup(self, trick: Trick) -> Setup:
        highs = tuple((r, f"{r} (no contract)" if r == "K" else r) for r in RANKS)
        return Setup([Choice("trump", "Trump", suit_options(SUITS.values()), required=True),
                      Choice("high", "High rank", highs, required=True)],
                     hints=["The holder's bid rank is high; K with no contract."])

    def slots(self, trick: Trick) -> int:
        return 2

    def options(self, decks: int) -> list[Face]:
        return [french_face(c) for c in TRICK_CARDS]

    def groups(self, decks: int) -> list[tuple[str, str, list[Face]]]:
        return french_groups(TRICK_CARDS, reverse=True)

    def face(self, code: str) -> Face | None:
        return french_face(code) if is_french(code, TRICK_CARDS) else None

    def judge(self, cards: list[str], trick: Trick) -> tuple[int, str]:
        return trick_winner(cards, trick.facts["trump"], trick.facts["high"])


class ThirdHandStats(Stats):
    """Third Hand's statistics: contracts held, made, failed and doubled, and hand
    scores as holder and as opponent."""

    figures = (
        Figure("held", "Contracts held"),
        Figure("made", "Made", of="held", trend=True),
        Figure("failed", "Failed", of="held"),
        Figure("doubled_made", "Doubled contracts made"),
        Figure("doubled_failed", "Doubled contracts failed"),
        Figure("as_holder", "Average hand score as holder", "mean"),
        Figure("as_opponent", "Average hand score as opponent", "mean"),
    )

    def hand_facts(self, hand: dict, ctx: HandContext, scores: list[int], extra: HandOutput,
                   before: HandOutput) -> list[dict[str, int]]:
        table, out = ctx.table, ThirdHandOutput.read(extra)
        holder, made, doubled = out.holder, out.made, out.doubled
        facts: list[dict[str, int]] = [{} for _ in range(table.seats)]
        if holder is None:
            return facts
        outcome = "made" if made else "failed"
        facts[holder] = {"held": 1, outcome: 1, "as_holder": scores[holder]}
        if doubled:
            facts[holder][f"doubled_{outcome}"] = 1
        opponent = table.left_of(holder)
        facts[opponent] = {"as_opponent": scores[opponent]}
        return facts


class ThirdHand(Game):
    key = "third_hand"
    title = "Third Hand"
    summary = "2 players, 24 cards: a bid card sets the high rank, a cut card sets trump, take card points"
    min_players = 2
    max_players = 2
    settings = (
        Setting("target", 500, "Target",
                "The game ends when a total is past this (more than it); the highest total wins.",
                minimum=1),
        Setting("contract_values", DEFAULT_CONTRACT_VALUES, "Contract values",
                "Card points the holder must take for each bid rank; these are house values, "
                "since the original table was lost.",
                kind="table", minimum=0, choices=RANKS,
                note="House defaults — the published table was lost, change them if your table plays other values."),
    )
    settings_type = HandSettings
    output_type = ThirdHandOutput
    hand_fields = ("bids", "trump", "exchanged", "points")
    required_fields = ("bids", "trump", "points")
    sample_players = 2
    sample_settings: ClassVar[tuple[dict, ...]] = ({}, {"target": 150})

    def long_match(self, hands: int, seats: int) -> dict | None:
        # a hand is worth a few hundred points at most: a target past any total it can reach
        return {"target": 10**9}

    rules = ThirdHandRules()
    shown = ThirdHandShown()
    referee = ThirdHandReferee()
    stats = ThirdHandStats()

TRICK_CARDS = [rank + suit for suit in SUITS for rank in RANKS]


def card_label(card: str) -> str:
    """ "10H" -> "10♥"."""
    return label("".join(_parse(card)))


def _parse(card: Any) -> tuple[str, str]:
    if not isinstance(card, str) or card.strip().upper() not in TRICK_CARDS:
        raise ValueError(f"unknown card {show(card)}: use a rank 9 10 J Q K A and a suit letter "
                         'S H D C, e.g. "AS" or "10H"')
    card = card.strip().upper()
    return card[:-1], card[-1]


def suit_order(high_rank: str) -> str:
    """The ranks of a suit from top to bottom, as the rule text writes them."""
    if high_rank == "A":
        return "A K Q J 10 9"
    rest = [r for r in ("K", "Q", "J", "10", "9") if r != high_rank]
    return "(A) " + " ".join([high_rank] + rest) + " (A)"


def _strength(rank: str, played_second: bool, high_rank: str) -> int:
    if rank == "A" and high_rank != "A":
        return 100 if played_second else -1  # high when played second, low when led
    if rank == high_rank:
        return 50
    return ("9", "10", "J", "Q", "K").index(rank)


def trick_winner(cards: list, trump: str, high_rank: str = "K") -> tuple[int, str]:
    """Index (in play order) of the card that wins a trick of two, and why."""
    if not isinstance(cards, (list, tuple)) or len(cards) != 2:
        count = len(cards) if isinstance(cards, (list, tuple)) else show(cards)
        raise ValueError(f"a Third Hand trick has 2 cards, got {count}")
    if trump not in TRUMPS:
        raise ValueError(f"trump must be one of {', '.join(TRUMPS)}, got {show(trump)}")
    if high_rank not in RANKS:
        raise ValueError(f"high_rank must be one of {' '.join(RANKS)}, got {show(high_rank)}")
    (led_rank, led_suit), (rank, suit) = _parse(cards[0]), _parse(cards[1])
    led, second = card_label(cards[0]), card_label(cards[1])
    if (led_rank, led_suit) == (rank, suit):
        raise ValueError(f"{led} is played twice, but the deck has only one")
    # the Ace's strength depends on when it is played: high second, low when led
    rule: TrickRule[tuple[str, str]] = TrickRule(
        suits=lambda card: (SUITS[card[1]],), strength=lambda index, card: _strength(card[0], index == 1, high_rank))
    winner = rule.judge([(led_rank, led_suit), (rank, suit)], trump).winner
    if suit != led_suit:
        if winner == 1:
            return 1, f"{second} is a trump ({trump}) and {led} is not, so the trump wins."
        return 0, f"{second} neither follows {SUITS[led_suit]} nor is a trump, so the led {led} wins."
    won, lost = (second, led) if winner else (led, second)
    if high_rank != "A" and "A" in (rank, led_rank):
        how = "played second is highest" if rank == "A" else "led is lowest"
        return winner, f"An Ace {how} in Third Hand, so {won} beats {lost}."
    return winner, (f"Both are {SUITS[suit]}; with {high_rank} high the order is "
                    f"{suit_order(high_rank)}, so {won} beats {lost}.")


def _counter_problems(counts: dict[int, dict[str, int] | None], names: tuple[str, ...]) -> list[str]:
    """The card counter's check: both players counted, or one (the other typed a number)."""
    first, second = counts.get(0), counts.get(1)
    if first is not None and second is not None:
        return check_capture_counts(first, second, names)
    # one player counted: check their own cards; the other typed a number
    seat, own = next((s, c) for s, c in counts.items() if c is not None)
    return check_capture_counts(own, dict.fromkeys(own, 0), (names[seat], names[1 - seat]), all_cards=False)
