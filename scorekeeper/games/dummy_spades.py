"""Dummy Hand Spades (rules.md section 3): three players and a dummy hand.

Each deal the highest bidder (the declarer) partners the dummy against the other
two (the defenders), but every player is scored alone, with their own bags.

Its parts, each read alone (see ``games.base``): ``DummySpadesRules``, ``DummySpadesShown`` (how it is
shown and printed), ``DummySpadesReferee`` and ``DummySpadesStats``, held by ``DummySpades``; the module's
functions are the vocabulary they share (cards, rank orders, the scoring's arithmetic).
"""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from .base import (
    GOES_ON,
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
    MatchProgress,
    NeedsFacts,
    Place,
    Problem,
    ProgressFacts,
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
    check_count,
    check_seat_counts,
    is_whole,
    name_list,
    played,
    plural,
    said,
    show,
    show_json,
    split_tricks,
    tied_at_top,
)
from .cards import SUITS, label, singular
from .trick_referee import Face, Setup, french_face, french_groups, is_french
from .tricks import TrickRule

TRICKS = 13
DUMMY = "dummy"


@dataclass(frozen=True)
class SpadesEnd:
    """Why a game of Dummy Hand Spades ends after a hand (or why it goes on): the seats at or
    over the target (``reached``), at or below the losing floor (``fallen``), and the
    ``leaders`` on the ``best`` total (more than one: a tie at the top, another hand)."""

    reached: tuple[int, ...]
    fallen: tuple[int, ...]
    leaders: tuple[int, ...]
    best: int


@dataclass(frozen=True)
class BidFailed:
    """A hand's event: the player's team took fewer tricks than the player's ``bid``."""

    bid: int
    took: int


@dataclass(frozen=True)
class NilPlayed:
    """A hand's event: the player's nil on the hand ``holder`` plays (their own, a
    partner's, the dummy), ``outcome`` "made", "lost" (its hand took ``tricks``) or
    "not applied" (the other team's hand)."""

    holder: int | str
    outcome: str
    tricks: int


@dataclass(frozen=True)
class ZeroBid:
    """A hand's warning: the player at ``seat`` bid 0 without a nil on their own hand, which
    scores as a contract of 0 (a scorer who meant nil did not tick it)."""

    seat: int


@dataclass(frozen=True)
class BagPenalty:
    """A hand's event: the player's bags reached ``bags``, which costs the bag penalty."""

    bags: int


@dataclass(frozen=True)
class NilsShape:
    """What a hand's nils must be (``entry``: one player's list; else the whole): one list
    per seat of the hands each player bid nil on."""

    entry: bool
    seats: int


@dataclass(frozen=True)
class NilHolder:
    """A hand's problem: a player's nil names ``holder``, which is no hand at this table
    (``twice`` False) or is named twice."""

    holder: Any
    twice: bool = False


@dataclass(frozen=True)
class WithDummy:
    """What the dummy took, said beside the tricks' sum."""

    tricks: int


@dataclass(frozen=True)
class SpadesSettings(GameSettings):
    """Dummy Hand Spades' settings (``DummySpades.settings`` says each)."""

    target: int
    bag_limit: int  # 0: off
    bag_penalty: int
    nil_value: int
    nil_tricks_count: bool
    lose_at: int | None  # None: no losing floor
    peek: str  # "none", "three", "four" or "flip"
    flip_count: int


@dataclass(frozen=True)
class SpadesOutput(HandOutput):
    """What a scored hand of Dummy Hand Spades gives beyond its points: each player's bags
    after it and the declarer's seat (the rescore output's ``bags`` and ``declarer``)."""

    bags: list[int]
    declarer: int

    def seat_counts(self) -> list[int]:
        return self.bags


class DummySpadesRules(Rules[SpadesSettings]):
    """Dummy Hand Spades' rules (rules.md section 3): bids, the declarer and the dummy,
    nils, bags and their penalty, the target and the optional losing floor."""

    def target(self, place: HandContext) -> Target:
        return Target(SpadesSettings.at(place.table).target)

    # --- a hand ---------------------------------------------------------
    def check_hand(self, hand: dict, ctx: HandContext) -> list[Problem]:
        table = ctx.table
        problems = check_seat_counts(hand, "bids", table, TRICKS)
        problems += self._check_nils(hand, table)
        trick_problems = check_seat_counts(hand, "tricks", table, TRICKS)
        trick_problems += check_count(hand, "dummy_tricks", 0, TRICKS)
        if not trick_problems:
            total = sum(hand["tricks"]) + hand["dummy_tricks"]
            if total != TRICKS:
                trick_problems.append(Problem("tricks", "sum", {"total": total, "expected": TRICKS},
                                              fact=WithDummy(hand["dummy_tricks"])))
        return problems + trick_problems

    def _check_nils(self, hand: dict, table: Table) -> list[Problem]:
        if "nils" not in hand:
            return []
        nils = hand["nils"]
        if not isinstance(nils, list) or len(nils) != table.seats:
            return [Problem("nils", "not_list", {"got": show_json(nils), "value": nils},
                            fact=NilsShape(False, table.seats))]
        problems = []
        for seat, held in enumerate(nils):
            who = table.players[seat]
            if not isinstance(held, list):
                problems.append(Problem("nils", "not_list", {"got": show_json(held), "value": held}, seat, who,
                                        NilsShape(True, table.seats)))
                continue
            seen = []
            for holder in held:
                if not (holder == DUMMY or (is_whole(holder) and 0 <= holder < table.seats)):
                    problems.append(broken("nils", NilHolder(holder), seat=seat, who=who))
                elif holder in seen:
                    problems.append(broken("nils", NilHolder(holder, twice=True), seat=seat, who=who))
                seen.append(holder)
        return problems

    # --- scoring --------------------------------------------------------
    def start(self, table: Table) -> tuple[int, ...]:
        return (0,) * table.seats  # each player's bags

    def score_hand(self, hand: dict, ctx: HandContext) -> Scored:
        table, dealer, state = ctx.table, ctx.dealt_by, ctx.state
        declarer = find_declarer(hand["bids"], dealer)
        scores, bags, players = [], list(state), []
        for seat in range(table.seats):
            scored = score_player(seat, hand, declarer, bags[seat], table)
            scores.append(scored.total)
            bags[seat] = scored.bags_after
            players.append(scored)
        return Scored(scores, players, SpadesOutput(bags, declarer), tuple(bags), zero_bid_warnings(hand, table))

    def ending(self, place: HandContext) -> Ending:
        totals = place.totals
        settings = SpadesSettings.at(place.table)
        target, lose_at = settings.target, settings.lose_at
        if max(totals) < target and (lose_at is None or min(totals) > lose_at):
            return GOES_ON  # most hands: nobody reached the target or fell to the losing total
        reached = tuple(s for s, t in enumerate(totals) if t >= target)
        fallen = tuple(s for s, t in enumerate(totals) if lose_at is not None and t <= lose_at)
        if not (reached or fallen):
            return GOES_ON
        best = max(totals)
        leaders = tuple(seat for seat, t in enumerate(totals) if t == best)
        return Ending(list(leaders) if len(leaders) == 1 else None, own=SpadesEnd(reached, fallen, leaders, best))

    def most_in_a_hand(self, place: HandContext) -> int | None:
        settings = SpadesSettings.at(place.table)
        # All 13 tricks on a bid of 13 with a nil made on the team's other hand, or
        # two nils made (own hand and the team's other hand) on a bid of 0.
        nil_value = settings.nil_value
        return max(10 * TRICKS + nil_value, 2 * nil_value)

    def random_hand(self, ctx: HandContext, rng: Any) -> dict:
        counts = split_tricks(TRICKS, 4, rng)
        hand = {"bids": [rng.randrange(TRICKS + 1) for _ in range(3)], "tricks": counts[:3], "dummy_tricks": counts[3]}
        if rng.random() < 0.3:
            bidder = rng.randrange(3)
            nils: list[list] = [[], [], []]
            nils[bidder] = rng.sample([0, 1, 2, DUMMY], rng.randint(1, 2))
            hand["nils"] = nils
        return hand

    def hand_events(self, hand: dict, ctx: HandContext, scored: Scored) -> list[Event]:
        """Each failed bid, each nil (whose hand, made or lost) and each bag penalty, with its
        points: the same rules ``score_player`` adds up, one player at a time."""
        table, state = ctx.table, ctx.state
        out = SpadesOutput.read(scored.extra)
        declarer = out.declarer
        nils = hand.get("nils") or [[]] * table.seats
        events = []
        for seat in range(table.seats):
            team = team_of(seat, declarer, table.seats)
            left_out = [] if SpadesSettings.at(table).nil_tricks_count else [h for h in team if h in nils[seat]]
            taken = sum(tricks_of(h, hand) for h in team if h not in left_out)
            bid = hand["bids"][seat]
            # contract's own test, without building its explanation: a replay runs this for every hand
            over = taken - bid if taken >= bid else 0
            if taken < bid:  # the sheet shows the bid and its -10 per trick bid
                events.append(Event(BidFailed(bid, taken), seat, -10 * bid, on_sheet=False))
            for holder in nils[seat]:
                nil_points = nil(holder, team, hand, table)
                tricks = tricks_of(holder, hand)
                if nil_points is None:
                    events.append(Event(NilPlayed(holder, "not applied", tricks), seat))
                elif nil_points > 0:
                    events.append(Event(NilPlayed(holder, "made", tricks), seat, nil_points))
                else:
                    events.append(Event(NilPlayed(holder, "lost", tricks), seat, nil_points))
            if state[seat] + over == out.bags[seat]:
                continue  # no penalty took bags away
            lost, _, times = bag_penalty(state[seat] + over, table)
            if times:
                events.append(Event(BagPenalty(state[seat] + over), seat, -lost))
        return events


class DummySpadesShown(Shown):
    """How Dummy Hand Spades is shown: bids, nils and tricks in bidding order, the dummy's
    place in the guide and the seat picture, bags beside the totals and on the sheet."""

    def dealt_out_of_turn(self, ctx: HandContext) -> str:
        table, dealer = ctx.table, ctx.dealt_by
        names = table.players
        order = bidding_order(dealer, table.seats)
        return f"{names[dealer]} counts as this hand's dealer, so {names[order[0]]} bid first and {names[dealer]} last"

    def problem_words(self, fact: Any, place: HandContext) -> dict[str, Any]:
        players = place.players
        if isinstance(fact, WithDummy):
            return {"extra": f" with the dummy's {fact.tricks}"}
        if isinstance(fact, NilsShape):
            if fact.entry:
                return {"what": 'seat numbers and/or "dummy"'}
            return {"what": f"{fact.seats} lists, one per seat, of the hands each player bid nil on"}
        assert isinstance(fact, NilHolder)  # the game's last problem fact
        if fact.twice:
            listed = "the dummy" if fact.holder == DUMMY else f"{players[fact.holder]}'s hand"
            return said(f"{listed} is listed twice")
        return said(f"each entry must be a seat 0 to {len(players) - 1} or \"dummy\", got {show(fact.holder)}")

    def explanation_words(self, hand: dict, scored: Scored, ctx: HandContext) -> list[str]:
        table, players = ctx.table, scored.why
        declarer = SpadesOutput.read(scored.extra).declarer
        lines = [bidding_line(hand["bids"], ctx.dealt_by, declarer, table), tricks_line(hand, declarer, table)]
        for seat, player in enumerate(players):  # a replay words every hand: the usual case is one line
            lines.append(contract(seat, hand, player.team, player, table))
            if player.nils or player.penalty:
                lines += more_lines(seat, hand, player, table)
        return lines

    def warning_words(self, warning: Any, ctx: HandContext) -> str:
        assert isinstance(warning, ZeroBid)  # the game's one warning
        name = ctx.players[warning.seat]
        return f"A team bid of 0 is a contract, not a nil: tick Nil for {name}'s own hand if that is what {name} bid"

    def event_words(self, event: Event, ctx: HandContext) -> str:
        table, what = ctx.table, event.what
        assert event.seat is not None  # every event of this game is a player's
        name = table.players[event.seat]
        if isinstance(what, BidFailed):
            return f"{name}'s bid of {what.bid} failed (took {what.took})"
        if isinstance(what, BagPenalty):
            return f"{name}'s bags reached {what.bags}: bag penalty"
        assert isinstance(what, NilPlayed)
        whose = f"{name}'s nil (own hand)" if what.holder == event.seat else f"{name}'s nil on {hand_name(what.holder, table)}"
        if what.outcome == "not applied":
            return f"{whose} not applied (the other team's hand)"
        if what.outcome == "made":
            return f"{whose} made"
        return f"{whose} lost ({plural(what.tricks, 'trick')})"

    # --- the end of the game, in words ------------------------------------------
    def ending_words(self, ending: Ending, place: HandContext) -> str | None:
        found = ending.own
        if not isinstance(found, SpadesEnd):
            return super().ending_words(ending, place)
        names, totals = place.players, list(place.totals)
        settings = SpadesSettings.at(place.table)
        target, lose_at = settings.target, settings.lose_at
        reached, fallen, leaders, best = list(found.reached), list(found.fallen), list(found.leaders), found.best
        causes = []
        if reached:
            causes.append(_each_with(names, totals, reached, f"{{name}} reached {target} with {{total}}",
                                     f"{{names}} reached {target}"))
        if fallen:
            causes.append(_each_with(names, totals, fallen, f"{{name}} is at {{total}}, at or below {lose_at}",
                                     f"{{names}} are at {lose_at} or below"))
        cause = " and ".join(causes)
        if len(leaders) > 1:
            return f"{cause}, but {tied_at_top(names, leaders, best)}"
        winner = names[leaders[0]]
        if reached == leaders and not fallen:
            return f"{cause} and wins"
        if leaders[0] in reached + fallen:  # their total is said already
            return f"{cause}; {winner} has the highest total and wins"
        return f"{cause}; {winner} has the highest total, {best}, and wins"

    def progress_words(self, facts: ProgressFacts) -> MatchProgress:
        """The shared line, and the losing floor when the table plays with one."""
        shared = super().progress_words(facts)
        lose_at = SpadesSettings.at(facts.place.table).lose_at
        if lose_at is None:
            return shared
        return dataclasses.replace(shared, lines=(*shared.lines, f"a total of {lose_at} or below ends it too"))

    field_words: ClassVar[dict[str, str]] = {"dummy_tricks": "the dummy's tricks", "nils": "nil bids"}

    def hand_numbers(self, hand: dict, place: HandContext) -> list[str]:
        # the dummy's tricks count with its declarer's: the log says them beside the players'
        dummy = hand.get("dummy_tricks")
        return super().hand_numbers(hand, place) + ([f"the dummy {dummy}"] if is_whole(dummy) else [])

    # --- what each player needs: the losing floor and bags ------------------------
    def table_needs(self, facts: NeedsFacts) -> list[str]:
        lose_at = SpadesSettings.at(facts.place.table).lose_at
        if lose_at is None:
            return []
        return [f"A total of {lose_at} or below also ends the game; the highest total then wins, "
                "and a tie for the highest total means another hand is dealt."]

    def seat_needs(self, facts: NeedsFacts, need: SeatNeeds) -> list[str]:
        place, seat = facts.place, need.seat
        table = place.table
        lines = []
        settings = SpadesSettings.at(table)
        limit, penalty, lose_at = settings.bag_limit, settings.bag_penalty, settings.lose_at
        bags = place.state[seat] if place.state else 0
        if limit:
            more = limit - bags
            lines.append(f"has {plural(bags, 'bag')}: {plural(more, 'more bag')} "
                         f"{'costs' if more == 1 else 'cost'} {plural(penalty, 'point')}")
        if lose_at is not None:
            totals = place.totals
            if totals[seat] > lose_at:
                lines.append(f"is {plural(totals[seat] - lose_at, 'point')} above {lose_at}")
            else:
                top = [s for s, total in enumerate(totals) if total == max(totals)]
                line = f"is on {totals[seat]}, at or below {lose_at}"
                if len(top) > 1:  # the only way play goes on (see ending)
                    line += (f", which ends the game: play goes on only because "
                             f"{name_list([table.players[s] for s in top])} are tied on {max(totals)} at the top "
                             "(a tie for the highest total means another hand)")
                lines.append(line)
        return lines


    def table_guide(self, ctx: HandContext) -> list[str]:
        table, dealer = ctx.table, ctx.dealt_by
        names = table.players
        order = bidding_order(dealer, table.seats)
        first, second, last = (names[s] for s in order)
        lines = [f"{last} deals 13 cards each to {first}, {second}, {last} and the dummy hand; "
                 "the dummy's cards stay face down.", peek_line(SpadesSettings.at(table), [first, second, last])]
        lines += [
            f"One round of bidding: {first} first, then {second}, then {last} (the dealer) last. "
            "Each bids the tricks their team will take (0 to 13) and may also bid nil on any hands.",
            f"The highest bid is declarer and partners the dummy; a tie goes to the earlier bidder "
            f"({first} before {second} before {last}). The other two defend together.",
            f"{first} leads the first trick; then the dummy is turned face up opposite the declarer, "
            "who plays it.",
            "Spades are trump, Ace high. Follow suit if you can.",
        ]
        return lines

    rules_template = "rules/dummy_spades.html"  # the rules page, filled in from the settings

    seat_counter = "bags"

    def hand_form(self, ctx: HandContext) -> list[FieldGroup]:
        players, dealer = list(ctx.players), ctx.dealer
        n = len(players)
        order = tuple(range(n)) if dealer is None else tuple(bidding_order(dealer, n))
        nil_choices = tuple(((str(s), "own hand"),) + tuple((str(t), players[t]) for t in range(n) if t != s)
                            + ((DUMMY, DUMMY),) for s in order)
        return [
            FieldGroup("bids", "Bids (left of the dealer first)" if dealer is None else f"Bids ({players[order[0]]} first)",
                       "seat_int", order),
            FieldGroup("nils", "Nil bids", "seat_ticks", order, seat_choices=nil_choices, optional=True,
                       hint="Tick the hands each player bid nil on, if any.", in_details=True,
                       label="{player} bid nil on"),
            # one order in the whole form: bidding order; with the dummy's, 13 tricks
            FieldGroup("tricks", "Tricks taken", "seat_int", order, adds_up_to=13, adds_up_with=("dummy_tricks",)),
            FieldGroup("dummy_tricks", "Tricks taken by the dummy", "int", hint="All four hands add up to 13."),
        ]

    def hand_summary(self, hand: dict, ctx: HandContext, extra: HandOutput) -> list[str]:
        players = list(ctx.players)
        parts = [by_player("bids", players, hand.get("bids") or [])]
        declarer = extra.declarer if isinstance(extra, SpadesOutput) else None  # None: not scored
        if isinstance(declarer, int) and 0 <= declarer < len(players):
            parts.append(f"{players[declarer]} declares")
        for seat, hands in enumerate(hand.get("nils") or []):
            if hands and seat < len(players) and isinstance(hands, list):  # whose hand each nil was on
                on = ["their own hand" if h == seat else "the dummy" if h == DUMMY
                      else players[h] if is_whole(h) and 0 <= h < len(players) else str(h) for h in hands]
                parts.append(f"{players[seat]} bid nil on {name_list(on)}")
        return parts

    # --- the score sheet ----------------------------------------------------
    def sheet_layout(self, place: HandContext) -> SheetLayout:
        return SheetLayout(
            hand=(SheetColumn("dummy", "Dummy", "tricks the dummy hand took"),),
            seat=(SheetColumn("bid", "Bid", "team bid"), SheetColumn("tricks", "Took", "tricks the player's own "
                                                                     "hand took"),
                  POINTS, TOTAL, SheetColumn("bags", "Bags", "bags held after the hand")),
            marks=(("dec", "declarer: the highest bid, partners the dummy"),
                   ("nil", "also bid nil on a hand")))

    def sheet_cells(self, hand: dict, ctx: HandContext, extra: HandOutput) -> SheetRow:
        table, out = ctx.table, SpadesOutput.read(extra)
        nils = hand.get("nils") or [[]] * table.seats
        seats = []
        for seat in range(table.seats):
            marks = (["dec"] if seat == out.declarer else []) + (["nil"] if nils[seat] else [])
            seats.append({"bid": SheetCell(str(hand["bids"][seat]), " ".join(marks)),
                          "tricks": SheetCell(str(hand["tricks"][seat])),
                          "bags": SheetCell(str(out.bags[seat]))})
        return SheetRow(hand={"dummy": SheetCell(str(hand["dummy_tricks"]))}, seats=seats)

    def sheet_rules(self, place: HandContext) -> list[str]:
        settings = SpadesSettings.at(place.table)
        limit, nil_value = settings.bag_limit, settings.nil_value
        nil_tricks = ("" if settings.nil_tricks_count else
                      " The tricks of a hand you bid nil on (whose nil counts) don't count for your own "
                      "contract or bags.")
        lose_at = settings.lose_at
        return [
            f"Deal {TRICKS} each to the three players and the dummy. Bidding starts left of the dealer; each bids "
            "the tricks their team will take (0 to 13) and may also bid nil on any hands.",
            "The highest bid declares (a tie: the earlier bidder) and partners the dummy; the other two defend "
            "together. Spades are trump.",
            "Team tricks: the declarer's own + the dummy's; each defender's: both defenders' tricks." + nil_tricks,
            "Made (team tricks ≥ bid): 10 × bid + 1 per overtrick, and each overtrick is a bag. "
            "Failed: −10 × bid.",
            f"Nil on a hand of your team this deal: +{nil_value} if it took no tricks, else −{nil_value}; "
            "a nil on the other team's hand does not apply.",
            (f"Bags: at {plural(limit, 'bag')} lose {plural(settings.bag_penalty, 'point')} and take "
             f"{plural(limit, 'bag')} off."
             if limit else "Bags carry no penalty (bag limit off)."),
            f"The game ends when a total reaches {settings.target}"
            + (f" or falls to {lose_at} or below" if lose_at is not None else "")
            + "; the highest total wins; a tie for highest plays another hand.",
        ]

    # --- the seat picture ---------------------------------------------------------
    def seating(self, ctx: HandContext, hand: dict | None = None) -> Seating:
        """The bidding order, the first lead, and the dummy: before the bidding in the empty
        place after the last seat (where it lies changes no score), once every bid is known
        opposite the declarer, who plays it."""
        table, dealer = ctx.table, ctx.dealt_by
        first, second, last = bidding_order(dealer, table.seats)
        roles = {first: ("bids 1st", "leads"), second: ("bids 2nd",), last: ("deals", "bids 3rd")}
        bids = (hand or {}).get("bids")
        if not (isinstance(bids, list) and len(bids) == table.seats and all(is_whole(b) for b in bids)):
            places = [Place(name, seat, roles[seat], deals=seat == dealer, leads=seat == first)
                      for seat, name in enumerate(table.players)]
            places.append(Place("Dummy", None, ("dealt face down",)))
            return Seating(tuple(places), ("The highest bid is declarer: the dummy is turned face up opposite the "
                                           "declarer, who plays it.",))
        declarer = find_declarer(bids, dealer)
        name = table.players[declarer]
        said = {first: (f"bid {bids[first]}", "leads"), second: (f"bid {bids[second]}",),
                last: ("deals", f"bid {bids[last]}")}
        places = [Place(player, seat, (*said[seat], *(("declarer",) if seat == declarer else ())),
                        deals=seat == dealer, leads=seat == first)
                  for seat, player in enumerate(table.players)]
        # the play goes round four hands: after seat declarer + 1 the dummy, laid opposite the declarer
        between = [table.players[seat] for seat in range(table.seats) if seat != declarer]
        at = (declarer + 1) % table.seats + 1
        places.insert(at, Place("Dummy", None, (f"face up, played by {name}",
                                                f"laid between {between[0]} and {between[1]}")))
        # the players keep their chairs and the dummy's place stays where it was dealt: drawn
        # there, as the table sits, while the play order (the referee's) goes round the laid dummy
        seated = tuple(i for i in range(len(places)) if i != at) + (at,)
        return Seating(tuple(places), (f"{name} bid highest and is declarer: the dummy is laid face up opposite "
                                       f"{name}, between {between[0]} and {between[1]}, and {name} plays it.",),
                       seated)

    def counter_text(self, value: int) -> str:
        return plural(value, "bag")


# --- the deal ---------------------------------------------------------------


class DummySpadesReferee(Referee):
    """Dummy Hand Spades' referee: one deck, four cards to a trick (the dummy's among
    them), spades always trump."""

    args = ()  # the query keys the referee page reads

    from_match = False  # spades are always trump: nothing to read from the match

    def setup(self, trick: Trick) -> Setup:
        return Setup(notes=["Spades are trump, Ace high. Four cards: three players and the dummy."])

    def slots(self, trick: Trick) -> int:
        return 4

    def options(self, decks: int) -> list[Face]:
        return [french_face(c) for c in TRICK_CARDS]

    def groups(self, decks: int) -> list[tuple[str, str, list[Face]]]:
        return french_groups(TRICK_CARDS)

    def face(self, code: str) -> Face | None:
        return french_face(code) if is_french(code, TRICK_CARDS) else None

    def judge(self, cards: list[str], trick: Trick) -> tuple[int, str]:
        return trick_winner(cards)


class DummySpadesStats(Stats):
    """Dummy Hand Spades' statistics: bids made and failed, nils, bags and declaring."""

    figures = (
        Figure("declarer", "Times declarer"),
        Figure("made_declarer", "Contracts made as declarer", of="declarer", trend=True),
        Figure("made_defender", "Contracts made as defender"),
        Figure("set", "Times set"),
        Figure("nil_own", "Nils bid on own hand (that counted)"),
        Figure("nil_own_made", "made", of="nil_own"),
        Figure("nil_partner", "Nils bid on partner's hand (that counted)"),
        Figure("nil_partner_made", "made", of="nil_partner"),
        Figure("bags", "Bags per hand", "per_hand"),
        Figure("penalties", "Bag penalties paid", "sum"),
    )

    def hand_facts(self, hand: dict, ctx: HandContext, scores: list[int], extra: HandOutput,
                   before: HandOutput) -> list[dict[str, int]]:
        table, out = ctx.table, SpadesOutput.read(extra)
        declarer = out.declarer
        bags_before = before.bags if isinstance(before, SpadesOutput) else [0] * table.seats
        limit = SpadesSettings.at(table).bag_limit
        facts: list[dict[str, int]] = []
        for seat in range(table.seats):
            team = team_of(seat, declarer, table.seats)
            nils = (hand.get("nils") or [[]] * table.seats)[seat]
            left_out = [] if SpadesSettings.at(table).nil_tricks_count else [h for h in team if h in nils]
            taken = sum(tricks_of(h, hand) for h in team if h not in left_out)
            over = max(0, taken - hand["bids"][seat])
            found = {"bags": over}
            if seat == declarer:
                found["declarer"] = 1
            if taken >= hand["bids"][seat]:
                found["made_declarer" if seat == declarer else "made_defender"] = 1
            else:
                found["set"] = 1
            for holder in nils:
                if holder not in team:
                    continue  # not applied: not counted
                which = "nil_own" if holder == seat else "nil_partner"
                found[which] = found.get(which, 0) + 1
                if tricks_of(holder, hand) == 0:
                    found[f"{which}_made"] = found.get(f"{which}_made", 0) + 1
            if limit:
                paid = (bags_before[seat] + over - out.bags[seat]) // limit
                if paid:
                    found["penalties"] = paid
            facts.append(found)
        return facts


class DummySpades(Game):
    key = "dummy_spades"
    title = "Dummy Hand Spades"
    summary = "3 players and a dummy hand: the highest bidder plays the dummy as partner, everyone scores alone"
    min_players = 3
    max_players = 3
    settings = (
        Setting("target", 500, "Target score",
                "The game ends when someone reaches this total; the text suggests 300 for a shorter game.",
                minimum=1),
        Setting("bag_limit", 10, "Bag limit",
                "Each time a player's bags (overtricks) reach this many they pay the bag penalty; 0 turns it off.",
                minimum=0, labels=((0, "off"),)),
        Setting("bag_penalty", 100, "Bag penalty",
                "Points a player loses each time their bags reach the bag limit.", minimum=0),
        Setting("nil_value", 100, "Nil bonus",
                "Points won for a nil hand that took no tricks, or lost if it took any.", minimum=0),
        Setting("nil_tricks_count", True, "Nil hands' tricks count",
                "On: every hand's tricks count toward the team, nil or not. Off: the tricks of a hand you bid "
                "nil on (and whose nil counts) don't count toward your own contract or bags.",
                kind="bool"),
        Setting("lose_at", None, "Game also ends at",
                "Leave empty, or a negative score such as -200: the game also ends when someone falls that low.",
                kind="int_or_null", maximum=-1),
        Setting("peek", "none", "Peeking at the dummy",
                "What players see of the dummy before bidding: nothing, three or four cards each in secret, "
                "or some cards flipped face up.",
                kind="choice", choices=("none", "three", "four", "flip")),
        Setting("flip_count", 2, "Cards flipped",
                "With flipping, how many of the dummy's cards each player turns face up before bidding.",
                minimum=1, maximum=4, applies_when=("peek", "flip")),
    )
    settings_type = SpadesSettings
    output_type = SpadesOutput
    hand_fields = ("bids", "nils", "tricks", "dummy_tricks")
    required_fields = ("bids", "tricks", "dummy_tricks")
    sample_settings: ClassVar[tuple[dict, ...]] = ({}, {"target": 300, "lose_at": -60},
                                                 {"lose_at": -200, "bag_limit": 3})

    def long_match(self, hands: int, seats: int) -> dict | None:
        # a target no total reaches and no total that loses (lose_at None)
        return {"target": 10**9, "lose_at": None}

    rules = DummySpadesRules()
    shown = DummySpadesShown()
    referee = DummySpadesReferee()
    stats = DummySpadesStats()

def peek_line(settings: SpadesSettings, bidders: list[str]) -> str:
    """What the table does with the dummy before bidding, for setting ``peek``."""
    everyone = name_list(bidders)
    peek = settings.peek
    if peek in ("three", "four"):
        count = 3 if peek == "three" else 4
        return (f"{peek.title()} Peeky: before bidding, {everyone} each choose {count} of the dummy's cards "
                "and look at them in secret; the cards go back face down, then bidding begins.")
    if peek == "flip":
        n = settings.flip_count
        cards = plural(n, "card")
        return (f"Flip {n}: before bidding, {everyone} each choose {cards} of the dummy's and turn "
                f"{'it' if n == 1 else 'them'} face up for all to see ({3 * n} of its 13 cards showing); "
                "the rest are turned over after the opening lead.")
    return "No peeking: nobody sees the dummy's cards before bidding."


def find_declarer(bids: list[int], dealer: int) -> int:
    # A tied high bid goes to whoever made it first in bidding order, not the lower seat.
    best = max(bids)
    return next(seat for seat in bidding_order(dealer, len(bids)) if bids[seat] == best)


@functools.cache
def team_of(seat: int, declarer: int, seats: int = 3) -> tuple:
    if seat == declarer:
        return (declarer, DUMMY)
    return tuple(s for s in range(seats) if s != declarer)


def tricks_of(holder: Any, hand: dict) -> int:
    return hand["dummy_tricks"] if holder == DUMMY else hand["tricks"][holder]


def hand_name(holder: Any, table: Table, bidder: int | None = None) -> str:
    if holder == DUMMY:
        return "the dummy"
    if holder == bidder:
        return "their own hand"
    return f"{table.players[holder]}'s hand"


class PlayerScored(NamedTuple):
    """How one player's hand scored (Dummy Hand Spades' ``Scored.why`` is one per seat): their
    ``team`` (``team_of``), the tricks ``taken`` toward their bid and the team hands ``left_out`` of them (nil hands whose
    tricks do not count), the ``contract``'s points and the bags it gained (``over``) on top of
    the ``bags`` held before, each nil (its hand and points, None: not applied), the bag
    penalty (None: none), the ``total`` of them, and the bags left after the hand."""

    team: tuple[Any, ...]
    taken: int
    left_out: list[Any]
    contract: int
    over: int
    bags: int
    nils: tuple[tuple[Any, int | None], ...]
    penalty: Penalty | None
    total: int
    bags_after: int

    @property
    def parts(self) -> list[int]:
        """The points added up: the contract, each nil that applies, the bag penalty."""
        return [self.contract, *(points for _, points in self.nils if points is not None),
                *((-self.penalty.lost,) if self.penalty else ())]


class Penalty(NamedTuple):
    """A bag penalty: the bags ``reached``, the ``times`` the limit fits in them, the points
    ``lost`` and the bags ``left``."""

    reached: int
    times: int
    lost: int
    left: int


# A fact made as a tuple is: the named tuple's own constructor (keywords allowed) costs three times
# as much, and a replay makes one per player per hand.
_made = tuple.__new__


def score_player(seat: int, hand: dict, declarer: int, bags: int, table: Table) -> PlayerScored:
    """How one real player's hand scores."""
    team = team_of(seat, declarer, table.seats)
    nils = (hand.get("nils") or [[]] * table.seats)[seat]
    # nil_tricks_count off: the tricks of a team hand this player bid nil on count for nothing
    counted = SpadesSettings.at(table).nil_tricks_count
    left_out = [] if counted else [h for h in team if h in nils and tricks_of(h, hand)]
    taken = sum(tricks_of(h, hand) for h in team if h not in left_out)
    bid = hand["bids"][seat]
    over = 0 if taken < bid else taken - bid
    points = -10 * bid if taken < bid else 10 * bid + over
    total = points
    said = tuple((holder, nil(holder, team, hand, table)) for holder in nils) if nils else ()
    for _, nil_points in said:
        total += nil_points or 0
    lost, left, times = bag_penalty(bags + over, table)
    # most hands have no penalty and no nil: nothing more is made for them (a replay scores every hand)
    return _made(PlayerScored, (team, taken, left_out, points, over, bags, said,
                                Penalty(bags + over, times, lost, left) if times else None, total - lost, left))


def nil(holder: Any, team: tuple, hand: dict, table: Table) -> int | None:
    """The points of one nil a player bid (None when it does not apply: the other team's hand)."""
    if holder not in team:
        return None
    value = SpadesSettings.at(table).nil_value
    return value if tricks_of(holder, hand) == 0 else -value


def bag_penalty(bags: int, table: Table) -> tuple[int, int, int]:
    """(points lost, bags left, times the limit fits in them: 0 for no penalty) once a
    player's bags are counted."""
    settings = SpadesSettings.at(table)
    limit, penalty = settings.bag_limit, settings.bag_penalty
    if limit == 0 or bags < limit:
        return 0, bags, 0
    times = bags // limit
    return times * penalty, bags - times * limit, times


# --- the scoring in words (``DummySpadesShown.explanation_words``) --------------------

def bidding_line(bids: list[int], dealer: int, declarer: int, table: Table) -> str:
    names = table.players
    order = bidding_order(dealer, table.seats)
    said = ", ".join(f"{names[s]} {bids[s]}" for s in order)
    defenders = name_list([names[s] for s in order if s != declarer])
    tied = [names[s] for s in order if bids[s] == bids[declarer]]
    if len(tied) > 1:
        both = "both" if len(tied) == 2 else "all"
        why = f"{name_list(tied)} {both} bid {bids[declarer]}; {names[declarer]} bid it first, so"
    else:
        why = f"{names[declarer]} bid highest, so"
    return (f"Bids, from the left of the dealer ({names[dealer]}): {said}. "
            f"{why} {names[declarer]} is declarer with the dummy; {defenders} defend.")


def tricks_line(hand: dict, declarer: int, table: Table) -> str:
    names, tricks = table.players, hand["tricks"]
    defenders = team_of((declarer + 1) % table.seats, declarer, table.seats)
    own = f"{tricks[declarer]} + {hand['dummy_tricks']} = {plural(tricks[declarer] + hand['dummy_tricks'], 'trick')}"
    theirs = " + ".join(str(tricks[s]) for s in defenders)
    return (f"{names[declarer]} and the dummy took {own}; "
            f"{name_list([names[s] for s in defenders])} took {theirs} = {sum(tricks[s] for s in defenders)}.")


def more_lines(seat: int, hand: dict, scored: PlayerScored, table: Table) -> list[str]:
    """A player's lines after the contract's, when they bid a nil or paid a bag penalty: each
    nil, the penalty and the sum of the parts."""
    lines = [nil_line(seat, holder, points, hand, table) for holder, points in scored.nils]
    if scored.penalty:
        lines.append(penalty_line(seat, scored.penalty, table))
    if scored.penalty or len(scored.parts) > 1:  # more than the contract to add up
        lines.append(f"{table.players[seat]} this hand: {arithmetic(scored.parts)}")
    return lines


def contract(seat: int, hand: dict, team: tuple, scored: PlayerScored, table: Table) -> str:
    """The line of a player's team bid: ``scored.taken`` tricks count toward it, those of the
    ``scored.left_out`` hands (nil hands, with nil tricks not counting) do not."""
    name, bid = table.players[seat], hand["bids"][seat]
    left_out, taken, points = scored.left_out, scored.taken, scored.contract
    declarer = DUMMY in team
    if left_out:
        # every trick the team took, then which of them count: never the count alone as if all
        who = f"{name} and the dummy" if declarer else name_list([table.players[s] for s in team])
        out = sum(tricks_of(h, hand) for h in left_out)
        held = name_list([f"the {tricks_of(h, hand)} of {nil_hand(h, seat, table)}" for h in left_out])
        head = (f"{who} took {taken + out}; {taken} {'counts' if taken == 1 else 'count'} toward {name}'s bid "
                f"of {bid}, {held} {'does' if out == 1 and len(left_out) == 1 else 'do'} not")
        failed, exact, made = f"{head}, so the contract failed", f"{head}, exactly the bid", head
    elif taken < bid:  # only the line said is worded (a replay words every hand's)
        short = f"took only {taken} with the dummy" if declarer else f"the defenders took only {taken}"
        failed = exact = made = f"{name} bid {bid} but {short}, so the contract failed"
    else:
        took = f"took {taken} with the dummy" if declarer else f"the defenders took {taken}"
        made = failed = f"{name} bid {bid} and {took}"
        exact = f"{made}, exactly"
    if taken < bid:
        return f"{failed}: {points}"
    over = scored.over
    if over == 0:
        return f"{exact}: 10 × {bid} = {points}"
    gained = f"{plural(over, 'bag')} ({scored.bags + over} in all)"
    return f"{made}: 10 × {bid} + {over} over = {points}, {gained}"


def nil_hand(holder: Any, bidder: int, table: Table) -> str:
    """A hand a player bid nil on, as the contract line names it."""
    if holder == DUMMY:
        return "the dummy's nil hand"
    if holder == bidder:
        return f"{table.players[bidder]}'s own nil hand"
    return f"{table.players[holder]}'s nil hand"


def _each_with(names: tuple[str, ...], totals: list[int], seats: list[int], one: str, many: str) -> str:
    """ "Ann reached 500 with 520" (``one``, with {name} and {total}) or "Ann and Bob
    reached 500 (Ann 520, Bob 510)" (``many``, with {names})."""
    if len(seats) == 1:
        return one.format(name=names[seats[0]], total=totals[seats[0]])
    return many.format(names=name_list([names[s] for s in seats])) + \
        " (" + ", ".join(f"{names[s]} {totals[s]}" for s in seats) + ")"


def zero_bid_warnings(hand: dict, table: Table) -> list[ZeroBid]:
    """A team bid of 0 without a nil on one's own hand is scored as a contract of 0,
    which a scorer who meant nil gets silently wrong."""
    nils = hand.get("nils") or [[]] * table.seats
    return [ZeroBid(seat) for seat in range(table.seats) if hand["bids"][seat] == 0 and seat not in nils[seat]]


def nil_line(seat: int, holder: Any, points: int | None, hand: dict, table: Table) -> str:
    """The line of one nil a player bid (``points`` None: it does not apply)."""
    name, value = table.players[seat], SpadesSettings.at(table).nil_value
    what = f"{name}'s nil on {hand_name(holder, table, seat)}"
    held = hand_name(holder, table).removesuffix("'s hand")
    if points is None:
        return f"{what} is not applied: {held} is on the other team this deal"
    taken = tricks_of(holder, hand)
    if taken == 0:
        return f"{what}: {held} took no tricks, so +{value}"
    return f"{what}: {held} took {plural(taken, 'trick')}, so -{value}"


def penalty_line(seat: int, penalty: Penalty, table: Table) -> str:
    """The line of a bag penalty."""
    settings = SpadesSettings.at(table)
    times, lost = penalty.times, penalty.lost
    cost = f"{times} × {settings.bag_penalty} = {lost}" if times > 1 else f"{lost}"
    return (f"{table.players[seat]}'s bags reached {penalty.reached} (limit {settings.bag_limit}): "
            f"loses {cost}, leaving {plural(penalty.left, 'bag')}")


def arithmetic(parts: list[int]) -> str:
    text = str(parts[0])
    for part in parts[1:]:
        text += f" + {part}" if part >= 0 else f" - {-part}"
    return f"{text} = {sum(parts)}"


# --- trick referee ------------------------------------------------------------

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
# Spades first and ranks high to low, as the dummy is laid out on the table.
TRICK_CARDS = [rank + suit for suit in SUITS for rank in reversed(RANKS)]


def card_label(card: str) -> str:
    check_card(card)
    return label(card)


def check_card(card: Any) -> None:
    if card not in TRICK_CARDS:
        raise ValueError(f"unknown card {show(card) if isinstance(card, str) else repr(card)}: "
                         "use a rank 2-10, J, Q, K or A and a suit letter S, H, D or C, like \"10H\"")


# Spades are always trump; a card is its rank and suit letter ("10H").
SPADES_TRUMP: TrickRule[str] = TrickRule(suits=lambda card: (card[-1],),
                                         strength=lambda index, card: RANKS.index(card[:-1]))


def trick_winner(cards: list, **context: Any) -> tuple[int, str]:
    """(index in play order of the winning card, why) for one trick of four cards:
    spades are trump, else the highest card of the suit led wins."""
    if not isinstance(cards, (list, tuple)) or len(cards) != 4:
        count = len(cards) if isinstance(cards, (list, tuple)) else show_json(cards)
        raise ValueError(f"a trick has 4 cards (three players and the dummy), got {count}")
    for card in cards:
        check_card(card)
    for i, card in enumerate(cards):
        if card in cards[:i]:
            raise ValueError(f"{card_label(card)} is in the trick twice, but the deck has only one")
    verdict = SPADES_TRUMP.judge(cards, "S")
    return verdict.winner, trick_reason(cards, verdict.winner, cards[0][-1], len(verdict.pool))


def trick_reason(cards: list, best: int, led: str, rivals: int) -> str:
    card = f"{card_label(cards[best])} ({played(best)})"
    suit = singular(SUITS[led])
    if led == "S":
        return f"Spades were led and {card} is the highest spade, so it wins."
    if cards[best][-1] == "S":
        which = "the highest spade" if rivals > 1 else "the only spade"
        return f"Spades are trump: {card} is {which}, so it beats the {suit}s led."
    if rivals == 1:
        return f"No spade was played and nobody else followed with a {suit}, so the card led, {card_label(cards[0])}, wins."
    return f"No spade was played, so the highest {suit} (the suit led) wins: {card}."
