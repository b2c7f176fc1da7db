"""rules.md "Every line is true": each number in an explanation is the quantity its
words name. Random matches of each game (every setting combination, deals out of
turn, each way of recording a hand) are replayed, and every number is read back out
of every line and checked against the hand and the rules (see ``linecheck``)."""
from __future__ import annotations

import importlib
import random
import re
from collections import Counter
from collections.abc import Iterable

import pytest

from scorekeeper.games import GAMES
from scorekeeper.games.base import Game, HandContext
from scorekeeper.games.third_rail import tricks_per_hand
from tests.places import blank_place

from .linecheck import (
    NL,
    Case,
    N,
    Rules,
    Seen,
    T,
    W,
    count_of,
    names_in,
    play_and_check,
    random_settings,
)

# --- what happens next: every game (engine.what_happens_next and each game's ending) ----

NEXT = Rules()


def next_in_turn(s: Seen) -> int:
    """Who deals next by the rules: the game's case says (``Case.next_dealer``)."""
    return GAME_CASES[s.game].next_dealer(s)


def higher_hand_score_deals(s: Seen) -> int:
    """Third Hand: the player with the higher hand score deals next (a tie: the non-dealer)."""
    first, second = s.scores
    return 1 - s.dealer if first == second else (0 if first > second else 1)


@NEXT(rf"(?P<who>{W}) dealt this hand out of turn \(it was (?P<was>{W})'s deal\)")
def _out_of_turn(m, s):
    assert s.seat(m["who"]) == s.dealer != s.in_turn and s.seat(m["was"]) == s.in_turn


@NEXT(rf"(?P<who>{W}) counts as this hand's dealer")
def _counts_as_dealer(m, s):
    assert s.seat(m["who"]) == s.dealer


@NEXT(rf"so (?P<who>{W}) (?:was first after the dealer|led the first trick|is the non-dealer)")
def _first_after(m, s):
    assert s.seat(m["who"]) == (s.dealer + 1) % s.table.seats


@NEXT(rf"(?P<who>{W}) deals next: (?P<why>[^.]*)")
def _deals_next(m, s):
    assert not s.finished, "the game is over"
    assert s.seat(m["who"]) == next_in_turn(s)


@NEXT(rf"the deal passes left from (?P<who>{W})")
def _passes_from(m, s):
    assert s.seat(m["who"]) == s.dealer


@NEXT(r"^Game over: ")
def _game_over(m, s):
    assert s.finished


@NEXT(rf"(?P<who>{W}) (?P<verb>reached|passed) (?P<target>\d+) with (?P<total>{N})(?P<wins> and wins)?")
def _reached_with(m, s):
    total = s.totals[s.seat(m["who"])]
    assert int(m["target"]) == s.settings["target"] and int(m["total"]) == total
    assert total > int(m["target"]) if m["verb"] == "passed" else total >= int(m["target"])
    assert m["wins"] is None or (s.finished and s.winners == [s.seat(m["who"])])


@NEXT(rf"(?P<names>{NL}) reached (?P<target>\d+) \((?P<each>{W} {N}(?:, {W} {N})+)\)")
def _several_reached(m, s):
    target = int(m["target"])
    assert target == s.settings["target"]
    assert s.seats(m["names"]) == [seat for seat, t in enumerate(s.totals) if t >= target]
    for pair in m["each"].split(", "):
        name, total = pair.split(" ")
        assert s.totals[s.seat(name)] == int(total)


@NEXT(rf"(?P<who>{W}) is at (?P<total>{N}), at or below (?P<floor>{N})")
def _fallen(m, s):
    assert int(m["floor"]) == s.settings["lose_at"]
    assert s.totals[s.seat(m["who"])] == int(m["total"]) <= int(m["floor"])


@NEXT(rf"(?P<names>{NL}) are at (?P<floor>{N}) or below \((?P<each>{W} {N}(?:, {W} {N})+)\)")
def _several_fallen(m, s):
    floor = int(m["floor"])
    assert floor == s.settings["lose_at"]
    assert s.seats(m["names"]) == [seat for seat, t in enumerate(s.totals) if t <= floor]
    for pair in m["each"].split(", "):
        name, total = pair.split(" ")
        assert s.totals[s.seat(name)] == int(total)


@NEXT(rf"(?P<names>{NL}) (?:are|is) tied on (?P<total>{N}) at the top: another hand is dealt")
def _tied_at_top(m, s):
    assert not s.finished and s.seats(m["names"]) == s.leaders and int(m["total"]) == max(s.totals)


@NEXT(rf"(?P<names>{NL}) (?:has|have) (?P<total>\d+), and (?P<again>\d+) is not past (?P<target>\d+)")
def _not_past(m, s):
    target = s.settings["target"]
    assert int(m["total"]) == int(m["again"]) == int(m["target"]) == target == max(s.totals)
    assert s.seats(m["names"]) == s.leaders and not s.finished


@NEXT(rf"(?P<who>{W}) has the highest total(?:, (?P<total>{N}),)? and wins")
def _highest_wins(m, s):
    assert s.finished and s.winners == s.leaders == [s.seat(m["who"])]
    assert m["total"] is None or int(m["total"]) == max(s.totals)


@NEXT(rf"(?P<who>{W}) wins with (?P<total>{N})")
def _wins_with(m, s):
    assert s.finished and s.winners == s.leaders == [s.seat(m["who"])] and int(m["total"]) == max(s.totals)


@NEXT(rf"(?P<names>{NL}) share the win on (?P<total>{N})")
def _share(m, s):
    assert s.finished and s.winners == s.leaders == s.seats(m["names"]) and int(m["total"]) == max(s.totals)


@NEXT(rf"[Ee]very player has dealt (?P<deals>{T})(?! \()")
def _dealt_exactly(m, s):
    deals = count_of(m["deals"])
    assert deals == s.settings["deals_each"] and s.finished
    assert all(count == deals for count in s.dealt), f"dealt {s.dealt}, not {deals} each"


@NEXT(rf"[Ee]very player has dealt at least (?P<deals>{T}) \((?P<more>{W} {T}(?:, {W} {T})*)\)")
def _dealt_at_least(m, s):
    deals = count_of(m["deals"])
    assert deals == s.settings["deals_each"] and s.finished
    assert all(count >= deals for count in s.dealt)
    said = {s.seat(pair.split(" ", 1)[0]): count_of(pair.split(" ", 1)[1]) for pair in m["more"].split(", ")}
    assert said == {seat: c for seat, c in enumerate(s.dealt) if c > deals}


@NEXT(rf"[Ee]very player deals (?P<deals>{T}) and (?P<short>.*): the game goes on")
def _deals_owed(m, s):
    deals = count_of(m["deals"])
    assert deals == s.settings["deals_each"] and not s.finished and s.number >= s.table.seats * deals
    said = {}
    for part in m["short"].split(" and "):
        name, rest = part.split(" ", 1)
        said[s.seat(name)] = 0 if rest == "has not dealt yet" else count_of(rest.removeprefix("has dealt "))
    assert said == {seat: c for seat, c in enumerate(s.dealt) if c < deals}


def must_say(s: Seen) -> list[str]:
    """What a hand's explanation must say, whatever the words (rules.md "What happens next
    is part of every explanation")."""
    said = ["^Game over: " if s.finished else " deals next: "]
    name, was = s.players[s.dealer], s.players[s.in_turn]
    if s.dealer != s.in_turn:  # says so, and what it means in the game
        said.append(rf"^{name} dealt this hand out of turn \(it was {was}'s deal\): "
                    rf"(?:{name} counts as this hand's dealer, so|it counts as one of {name}'s deals"
                    rf"|the score pad only counts it as {name}'s deal)")
    target = s.settings.get("target") or 0
    past = GAME_CASES[s.game].past_target  # the target must be passed, not only reached
    if not s.finished and target and max(s.totals) >= target:  # why a reached target does not end it
        said.append("tied on .* (?:at the top|for the (?:highest|lowest) total): another hand is dealt"
                    if not past or max(s.totals) > target else "is not past")
    deals = s.settings.get("deals_each") or 0
    if not s.finished and deals and s.number >= s.table.seats * deals:  # why the usual hands do not end it
        said.append("^Every player deals")
    return said + GAME_CASES[s.game].also_says(s)


# --- Third Hand ----------------------------------------------------------------------

HAND = Rules()
RANK = "(?:9|10|J|Q|K|A)"


def _bid(s: Seen, seat: int) -> str | None:
    return s.hand["bids"][seat]


def _holder(s: Seen) -> int | None:
    up = [seat for seat in (0, 1) if _bid(s, seat) is not None]
    order = ["9", "10", "J", "Q", "K", "A"]
    return max(up, key=lambda seat: order.index(_bid(s, seat))) if up else None


@HAND(rf"(?P<nd>{W}) (?:bid (?P<b1>{RANK})|passed face down), then (?P<d>{W}) \(dealer\) "
      rf"(?:bid (?P<b2>{RANK})|passed face down)")
def _bids(m, s):
    assert s.seat(m["d"]) == s.dealer and s.seat(m["nd"]) == 1 - s.dealer
    assert (m["b1"], m["b2"]) == (_bid(s, 1 - s.dealer), _bid(s, s.dealer))


@HAND(rf"(?P<who>{W}) holds the contract at (?P<rank>{RANK})")
def _holds(m, s):
    assert s.seat(m["who"]) == _holder(s) and m["rank"] == _bid(s, _holder(s))


@HAND(rf"No contract, so each scores their own card points: (?P<a>{W}) (?P<pa>\d+), (?P<b>{W}) (?P<pb>\d+)")
def _no_contract(m, s):
    assert _holder(s) is None
    for who, points in ((m["a"], m["pa"]), (m["b"], m["pb"])):
        assert s.hand["points"][s.seat(who)] == int(points) == s.scores[s.seat(who)]


@HAND(rf"(?P<who>{W}) needed (?P<value>\d+) for the (?P<rank>{RANK}) contract "
      r"(?:and took (?P<made>\d+): made|but took only (?P<failed>\d+): failed)")
def _needed(m, s):
    seat = s.seat(m["who"])
    value = s.settings["contract_values"][m["rank"]]
    assert seat == _holder(s) and m["rank"] == _bid(s, seat) and int(m["value"]) == value
    took = s.hand["points"][seat]
    assert int(m["made"] or m["failed"]) == took and (m["made"] is not None) == (took >= value)


@HAND(rf"(?P<who>{W}) scores (?P<p>\d+) (?P<sign>[+-]) (?:(?P<two>\d+) × )?(?P<diff>\d+) \((?:twice )?the "
      rf"difference between (?P<x>\d+) and (?P<y>\d+)\) = (?P<score>{N})")
def _holder_scores(m, s):
    seat = s.seat(m["who"])
    mine, theirs = s.hand["points"][seat], s.hand["points"][1 - seat]
    doubled = None not in s.hand["bids"]
    assert seat == _holder(s) and int(m["p"]) == int(m["x"]) == mine and int(m["y"]) == theirs
    assert int(m["diff"]) == abs(mine - theirs) and (m["two"] is not None) == doubled
    assert m["two"] is None or int(m["two"]) == 2
    made = mine >= s.settings["contract_values"][_bid(s, seat)]
    assert (m["sign"] == "+") == made
    assert int(m["score"]) == s.scores[seat] == mine + (1 if made else -1) * (2 if doubled else 1) * abs(mine - theirs)


@HAND(rf"(?P<who>{W}), the opponent, scores their own card points: (?P<p>\d+)")
def _opponent(m, s):
    seat = s.seat(m["who"])
    assert seat == 1 - _holder(s) and int(m["p"]) == s.hand["points"][seat] == s.scores[seat]


@HAND(rf"(?P<who>{W}) had the higher hand score \((?P<high>{N}) to (?P<low>{N})\)")
def _higher(m, s):
    seat = s.seat(m["who"])
    assert int(m["high"]) == s.scores[seat] > int(m["low"]) == s.scores[1 - seat]


@HAND(rf"the hand scores tied at (?P<score>{N}), so the deal passes to the non-dealer")
def _tied_scores(m, s):
    assert s.scores == [int(m["score"])] * 2


# --- Third Wheel -----------------------------------------------------------------------

WHEEL = Rules()


def _wheel(s: Seen):
    """(bid, dealer's tricks, F seat, M seat, tied) by the rules: F took fewer tricks."""
    tricks, n = s.hand["tricks"], 3
    setters = [(s.dealer + 1) % n, (s.dealer + 2) % n]
    fewer, more = sorted(setters, key=lambda seat: tricks[seat])
    return s.hand["bid"], tricks[s.dealer], fewer, more, tricks[fewer] == tricks[more]


@WHEEL(rf"(?P<d>{W}) dealt, (?P<wheel>took|did not take) the Wheel and bid (?P<bid>\d+); tricks: "
       rf"(?P<each>{W} \d+, {W} \d+, {W} \d+)")
def _wheel_first(m, s):
    assert s.seat(m["d"]) == s.dealer and int(m["bid"]) == s.hand["bid"]
    assert (m["wheel"] == "took") == s.hand["wheel"]
    for pair in m["each"].split(", "):
        name, took = pair.split(" ")
        assert s.hand["tricks"][s.seat(name)] == int(took)


@WHEEL(rf"(?P<d>{W}) bid (?P<zero>0) and took no tricks: a made (?P<zero2>0) bid scores exactly (?P<score>\d+)")
def _made_zero(m, s):
    assert s.hand["bid"] == 0 == s.hand["tricks"][s.dealer] and int(m["score"]) == 11 == s.scores[s.dealer]


@WHEEL(rf"(?P<d>{W}) bid (?P<bid>\d+) and took all (?P<all>\d+): a made (?P<bid2>\d+) bid scores (?P<score>\d+)")
def _made_all(m, s):
    assert int(m["bid"]) == int(m["all"]) == int(m["bid2"]) == 11 == s.hand["bid"] == s.hand["tricks"][s.dealer]
    assert int(m["score"]) == 22 == s.scores[s.dealer]


@WHEEL(rf"(?P<d>{W}) bid (?P<bid>\d+) and took exactly (?P<took>\d+): (?P<bid2>\d+) \+ (?P<tm>\d+) "
       rf"\((?:(?P<m>{W}), the setter with more tricks|the setters tied, (?P<each>\d+) tricks? each)\) = "
       r"(?P<score>\d+)")
def _exact(m, s):
    bid, took, _, more, tied = _wheel(s)
    assert int(m["bid"]) == int(m["took"]) == int(m["bid2"]) == bid == took
    assert int(m["tm"]) == s.hand["tricks"][more] and (m["each"] is not None) == tied
    assert m["m"] is None or s.seat(m["m"]) == more
    assert m["each"] is None or int(m["each"]) == s.hand["tricks"][more]
    assert int(m["score"]) == bid + s.hand["tricks"][more] == s.scores[s.dealer]


@WHEEL(rf"(?P<d>{W}) bid (?P<bid>\d+) but took only (?P<took>\d+), so the bid missed: (?P<score>\d+)")
def _missed(m, s):
    bid, took, *_ = _wheel(s)
    assert int(m["bid"]) == bid > took == int(m["took"]) and int(m["score"]) == 0 == s.scores[s.dealer]


@WHEEL(rf"(?P<d>{W}) bid (?P<bid>\d+) but took (?P<took>\d+), (?P<over>\d+) over the bid: "
       rf"(?:the bid minus the overtricks, (?P<bid2>\d+) - (?P<over2>\d+) = (?P<score>{N})|the bid only, "
       r"(?P<only>\d+))")
def _over(m, s):
    bid, took, *_ = _wheel(s)
    assert int(m["bid"]) == bid < took == int(m["took"]) and int(m["over"]) == took - bid
    if m["only"] is not None:
        assert s.settings["overtrick_dealer"] == "bid" and int(m["only"]) == bid == s.scores[s.dealer]
    else:
        assert s.settings["overtrick_dealer"] == "penalty" and int(m["bid2"]) == bid
        assert int(m["over2"]) == took - bid and int(m["score"]) == bid - (took - bid) == s.scores[s.dealer]


@WHEEL(rf"(?P<f>{W}), the setter with fewer tricks, scores (?:their (?P<own>\d+) tricks?: (?P<s1>\d+)"
       r"|the bid plus their own tricks: (?P<bid>\d+) \+ (?P<t>\d+) = (?P<s2>\d+)"
       rf"|(?:their own|(?P<whose>{W})'s) (?P<base>\d+) tricks? plus (?P<over>\d+) over the bid: "
       r"(?P<base2>\d+) \+ (?P<over2>\d+) = (?P<s3>\d+))")
def _fewer(m, s):
    bid, took, fewer, more, tied = _wheel(s)
    tricks = s.hand["tricks"]
    assert s.seat(m["f"]) == fewer and not tied
    if m["own"] is not None:  # exact
        assert took == bid and int(m["own"]) == int(m["s1"]) == tricks[fewer] == s.scores[fewer]
    elif m["bid"] is not None:  # missed
        assert took < bid and int(m["bid"]) == bid and int(m["t"]) == tricks[fewer]
        assert int(m["s2"]) == bid + tricks[fewer] == s.scores[fewer]
    else:  # over
        own = s.settings["overtrick_setter"] == "own_tricks"
        assert took > bid and (m["whose"] is None) == own
        assert m["whose"] is None or s.seat(m["whose"]) == more
        base = tricks[fewer] if own else tricks[more]
        assert int(m["base"]) == int(m["base2"]) == base and int(m["over"]) == int(m["over2"]) == took - bid
        assert int(m["s3"]) == base + took - bid == s.scores[fewer]


@WHEEL(rf"(?P<m>{W}), the setter with more tricks, scores (?:the bid: (?P<bid>\d+)|(?P<zero>\d+))")
def _more(m, s):
    bid, took, _, more, tied = _wheel(s)
    assert s.seat(m["m"]) == more and not tied
    if m["bid"] is not None:
        assert took < bid and int(m["bid"]) == bid == s.scores[more]
    else:
        assert took >= bid and int(m["zero"]) == 0 == s.scores[more]


@WHEEL(rf"(?P<a>{W}) and (?P<b>{W}) both took (?P<t>\d+) tricks?, so each scores "
       r"(?:half of (?P<h>\d+), rounded down: (?P<s1>\d+)"
       r"|the bid plus half of (?P<h2>\d+), rounded down: (?P<bid>\d+) \+ (?P<half>\d+) = (?P<s2>\d+)"
       r"|half of \((?P<t2>\d+) tricks? \+ (?P<over>\d+) over = (?P<sum>\d+)\), rounded down: (?P<s3>\d+))")
def _tied_setters(m, s):
    bid, took, fewer, more, tied = _wheel(s)
    t = s.hand["tricks"][fewer]
    assert tied and {s.seat(m["a"]), s.seat(m["b"])} == {fewer, more} and int(m["t"]) == t
    if m["h"] is not None:
        expected = t // 2
        assert took == bid and int(m["h"]) == t and int(m["s1"]) == expected
    elif m["h2"] is not None:
        expected = bid + t // 2
        assert took < bid and int(m["h2"]) == t and int(m["bid"]) == bid and int(m["half"]) == t // 2
        assert int(m["s2"]) == expected
    else:
        over = took - bid
        expected = (t + over) // 2
        assert took > bid and int(m["t2"]) == t and int(m["over"]) == over and int(m["sum"]) == t + over
        assert int(m["s3"]) == expected
    assert s.scores[fewer] == s.scores[more] == expected


@WHEEL(rf"it counts as one of (?P<who>{W})'s deals, and (?P<s1>{W}) and (?P<s2>{W}) were the setters")
def _wheel_out_of_turn(m, s):
    assert s.seat(m["who"]) == s.dealer
    assert [s.seat(m["s1"]), s.seat(m["s2"])] == [(s.dealer + 1) % 3, (s.dealer + 2) % 3]


# --- Dummy Hand Spades --------------------------------------------------------------------

SPADES = Rules()


def _order(s: Seen) -> list[int]:
    return [(s.dealer + step) % 3 for step in (1, 2, 3)]


def _declarer(s: Seen) -> int:
    bids = s.hand["bids"]
    return next(seat for seat in _order(s) if bids[seat] == max(bids))


def _team(s: Seen, seat: int) -> tuple:
    declarer = _declarer(s)
    return (seat, "dummy") if seat == declarer else tuple(x for x in range(3) if x != declarer)


def _took(s: Seen, holder) -> int:
    return s.hand["dummy_tricks"] if holder == "dummy" else s.hand["tricks"][holder]


def _nils(s: Seen, seat: int) -> list:
    return (s.hand.get("nils") or [[], [], []])[seat]


def _counted(s: Seen, seat: int) -> tuple[int, int]:
    """(every trick the team took, the tricks that count toward the player's bid)."""
    team = _team(s, seat)
    everything = sum(_took(s, h) for h in team)
    if s.settings["nil_tricks_count"]:
        return everything, everything
    return everything, everything - sum(_took(s, h) for h in team if h in _nils(s, seat))


@SPADES(rf"Bids, from the left of the dealer \((?P<d>{W})\): (?P<said>{W} \d+, {W} \d+, {W} \d+)\.")
def _spades_bids(m, s):
    assert s.seat(m["d"]) == s.dealer
    pairs = [pair.split(" ") for pair in m["said"].split(", ")]
    assert [s.seat(name) for name, _ in pairs] == _order(s)
    assert all(s.hand["bids"][s.seat(name)] == int(bid) for name, bid in pairs)


@SPADES(rf"(?P<names>{NL}) (?:both|all) bid (?P<bid>\d+); (?P<first>{W}) bid it first")
def _tied_bids(m, s):
    top = max(s.hand["bids"])
    assert int(m["bid"]) == top and s.seats(m["names"]) == [x for x in _order(s) if s.hand["bids"][x] == top]
    assert s.seat(m["first"]) == _declarer(s)


@SPADES(rf"so (?P<who>{W}) is declarer with the dummy; (?P<defs>{NL}) defend")
def _declares(m, s):
    assert s.seat(m["who"]) == _declarer(s) and set(s.seats(m["defs"])) == set(_team(s, (_declarer(s) + 1) % 3))


@SPADES(rf"so (?P<first>{W}) bid first and (?P<last>{W}) last")
def _spades_out_of_turn(m, s):
    assert [s.seat(m["first"]), s.seat(m["last"])] == [_order(s)[0], s.dealer]


@SPADES(rf"(?P<dec>{W}) and the dummy took (?P<own>\d+) \+ (?P<dummy>\d+) = (?P<sum>\d+) tricks?; "
        rf"(?P<defs>{NL}) took (?P<a>\d+) \+ (?P<b>\d+) = (?P<theirs>\d+)\.")
def _tricks(m, s):
    declarer, tricks = _declarer(s), s.hand["tricks"]
    defenders = s.seats(m["defs"])
    assert s.seat(m["dec"]) == declarer and int(m["own"]) == tricks[declarer]
    assert int(m["dummy"]) == s.hand["dummy_tricks"] and int(m["sum"]) == tricks[declarer] + s.hand["dummy_tricks"]
    assert set(defenders) == set(_team(s, (declarer + 1) % 3))
    assert [int(m["a"]), int(m["b"])] == [tricks[x] for x in defenders] and int(m["theirs"]) == sum(
        tricks[x] for x in defenders)


CONTRACT_HEAD = (
    rf"(?:(?P<who>{W}) bid (?P<bid>\d+) (?:and took (?P<took>\d+) with the dummy|but took only (?P<short>\d+) "
    r"with the dummy|and the defenders took (?P<dtook>\d+)|but the defenders took only (?P<dshort>\d+))"
    rf"|(?P<team>{W} and (?:the dummy|{W})) took (?P<all>\d+); (?P<counted>\d+) counts? toward "
    rf"(?P<who2>{W})'s bid of (?P<bid2>\d+), (?P<held>the \d+ of .*?) (?:does|do) not)"
)


@SPADES("^" + CONTRACT_HEAD + r"(?:, so the contract failed: -(?P<fail>\d+)|, exactly(?: the bid)?: "
        r"(?P<ten>\d+) × (?P<bid3>\d+) = (?P<exact>\d+)|: (?P<ten2>\d+) × (?P<bid4>\d+) \+ (?P<over>\d+) over = "
        r"(?P<made>\d+), (?P<bags>\d+) bags? \((?P<inall>\d+) in all\))$")
def _contract(m, s):
    seat = s.seat(m["who"] or m["who2"])
    bid = s.hand["bids"][seat]
    everything, counted = _counted(s, seat)
    declarer = seat == _declarer(s)
    if m["who"]:
        # "took 4": every trick the team took, so nothing may be left out of the count
        said = int(next(m[g] for g in ("took", "short", "dtook", "dshort") if m[g] is not None))
        assert said == everything == counted, (f"says {said} taken; the team took {everything}, "
                                               f"{counted} of them counting")
        assert (m["took"] or m["short"]) is None or declarer
        assert (m["dtook"] or m["dshort"]) is None or not declarer
        assert int(m["bid"]) == bid
    else:
        if "the dummy" in m["team"]:
            assert declarer and names_in(m["team"]) == [m["who2"]]
        else:
            assert not declarer and set(s.seats(m["team"])) == set(_team(s, seat))
        assert int(m["all"]) == everything and int(m["counted"]) == counted and int(m["bid2"]) == bid
        out = 0
        for taken, whose in re.findall(r"the (\d+) of (.*?) nil hand", m["held"]):
            holder = "dummy" if whose == "the dummy's" else s.seat(whose.split("'")[0])
            assert holder in _team(s, seat) and holder in _nils(s, seat) and int(taken) == _took(s, holder) > 0
            out += int(taken)
        assert counted + out == everything
    if m["fail"] is not None:
        assert counted < bid and int(m["fail"]) == 10 * bid
    elif m["exact"] is not None:
        assert counted == bid and int(m["ten"]) == 10 and int(m["bid3"]) == bid and int(m["exact"]) == 10 * bid
    else:
        over = counted - bid
        assert over > 0 and int(m["ten2"]) == 10 and int(m["bid4"]) == bid and int(m["over"]) == over
        bags_before = (s.extra_before.get("bags") or [0, 0, 0])[seat]
        assert int(m["made"]) == 10 * bid + over and int(m["bags"]) == over and int(m["inall"]) == bags_before + over


@SPADES(rf"(?P<who>{W})'s nil on (?P<on>their own hand|the dummy|{W}'s hand)(?:(?P<not> is not applied): "
        rf"(?P<h2>{W}|the dummy) is on the other team this deal|: (?P<h3>{W}|the dummy) took (?:no tricks, so "
        r"\+(?P<plus>\d+)|(?P<n>\d+) tricks?, so -(?P<minus>\d+)))")
def _nil(m, s):
    seat = s.seat(m["who"])
    holder = seat if m["on"] == "their own hand" else "dummy" if m["on"] == "the dummy" else s.seat(m["on"][:-7])
    assert holder in _nils(s, seat)
    named = m["h2"] or m["h3"]
    assert ("dummy" if named == "the dummy" else s.seat(named)) == holder
    assert (m["not"] is not None) == (holder not in _team(s, seat))
    value = s.settings["nil_value"]
    if m["plus"] is not None:
        assert _took(s, holder) == 0 and int(m["plus"]) == value
    if m["n"] is not None:
        assert int(m["n"]) == _took(s, holder) > 0 and int(m["minus"]) == value


@SPADES(rf"(?P<who>{W})'s bags reached (?P<bags>\d+) \(limit (?P<limit>\d+)\): loses (?:(?P<times>\d+) × "
        r"(?P<penalty>\d+) = (?P<lost>\d+)|(?P<lost1>\d+)), leaving (?P<left>\d+) bags?")
def _bag_penalty(m, s):
    seat = s.seat(m["who"])
    limit, penalty = s.settings["bag_limit"], s.settings["bag_penalty"]
    _, counted = _counted(s, seat)
    bags = (s.extra_before.get("bags") or [0, 0, 0])[seat] + max(0, counted - s.hand["bids"][seat])
    times = bags // limit
    assert int(m["bags"]) == bags >= limit == int(m["limit"]) and int(m["left"]) == bags - times * limit
    assert int(m["left"]) == s.extra["bags"][seat]
    if m["lost1"] is not None:
        assert times == 1 and int(m["lost1"]) == penalty
    else:
        assert int(m["times"]) == times > 1 and int(m["penalty"]) == penalty and int(m["lost"]) == times * penalty


@SPADES(rf"(?P<who>{W}) this hand: (?P<sum>{N}(?: [+-] \d+)+) = (?P<score>{N})")
def _this_hand(m, s):
    total = eval(m["sum"])  # only digits, signs and spaces: the pattern says so
    assert total == int(m["score"]) == s.scores[s.seat(m["who"])]


# --- Third Rail ------------------------------------------------------------------------------

RAIL = Rules()


def _rail(s: Seen) -> tuple[list[int], list[int], list[list[int]] | None]:
    """Per seat: scoring tricks, other tricks and (trick by trick) which scoring tricks, by the rules."""
    n, first = s.table.seats, s.settings["scoring_from"]
    if "winners" in s.hand:
        won: list[list[int]] = [[] for _ in range(n)]
        other = [0] * n
        for number, seat in enumerate(s.hand["winners"], start=1):
            if number % 3 == first % 3:
                won[seat].append(number)
            else:
                other[seat] += 1
        return [len(w) for w in won], other, won
    return s.hand["scoring_tricks"], s.hand.get("other_tricks"), None


def _numbers(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"\d+", text)]


@RAIL(r"Tricks (?P<list>\d+(?:(?:, | and )\d+)*) score one point each")
def _scoring_tricks(m, s):
    first = s.settings["scoring_from"]
    assert _numbers(m["list"]) == [t for t in range(1, tricks_per_hand(s.table.seats) + 1) if t % 3 == first % 3]


@RAIL(rf"(?P<who>{W}) won (?:(?P<n>\d+) scoring tricks?|no scoring tricks)(?: \(tricks? "
      r"(?P<list>\d+(?:(?:, | and )\d+)*)\))?: (?P<points>\d+) points?")
def _won(m, s):
    seat = s.seat(m["who"])
    scoring, _, won = _rail(s)
    count = int(m["n"] or 0)
    assert count == scoring[seat] == int(m["points"])
    if won is not None and count:
        assert _numbers(m["list"]) == won[seat]
    else:
        assert m["list"] is None


@RAIL(rf"Most non-scoring tricks: (?P<names>{NL}) (?:with (?P<most>\d+)|tie with (?P<most2>\d+) each)"
      rf"(?: \(others: (?P<others>{W} \d+(?:, {W} \d+)*)\))?(?P<rest>, so (?:{W} scores|each of them scores) "
      r"(?P<two>\d+) more|; with a tie nobody scores the bonus)")
def _bonus(m, s):
    _, other, _ = _rail(s)
    most = max(other)
    leaders = [seat for seat, c in enumerate(other) if c == most]
    assert s.seats(m["names"]) == leaders and int(m["most"] or m["most2"]) == most
    assert (m["most"] is not None) == (len(leaders) == 1)
    others = [] if m["others"] is None else [pair.split(" ") for pair in m["others"].split(", ")]
    assert [(s.seat(name), int(c)) for name, c in others] == [(x, c) for x, c in enumerate(other) if c != most]
    given = m["two"] is not None
    assert given == (len(leaders) == 1 or s.settings["bonus_tie"] == "each")
    assert not given or int(m["two"]) == 2


@RAIL(rf"This hand: (?P<each>{W} \d+(?: \+ \d+ = \d+)?(?:, {W} \d+(?: \+ \d+ = \d+)?)*)")
def _rail_hand(m, s):
    scoring, _, _ = _rail(s)
    for part in m["each"].split(", "):
        name, *numbers = part.split(" ")
        seat = s.seat(name)
        if len(numbers) == 1:
            assert int(numbers[0]) == scoring[seat] == s.scores[seat]
        else:
            assert int(numbers[0]) == scoring[seat] and int(numbers[2]) == 2
            assert int(numbers[4]) == scoring[seat] + 2 == s.scores[seat]


# --- Score pad --------------------------------------------------------------------------------

PAD = Rules()


def _pad_best(s: Seen) -> tuple[str, list[int]]:
    """rules.md 5: the best total is the lowest with low_wins, else the highest."""
    low = s.settings["low_wins"]
    best = min(s.totals) if low else max(s.totals)
    return ("lowest" if low else "highest"), [seat for seat, t in enumerate(s.totals) if t == best]


def _pad_hands_done(s: Seen) -> bool:
    return bool(s.settings["hand_count"]) and s.number >= s.settings["hand_count"]


def _pad_reached(s: Seen) -> list[int]:
    target = s.settings["target"]
    return [seat for seat, t in enumerate(s.totals) if target and t >= target]


def _pad_ends(s: Seen) -> bool:
    """rules.md 5, "End": the fixed number of hands ends it whatever the totals; a total
    at or over the target ends it unless the best total is tied (then another hand)."""
    return _pad_hands_done(s) or (bool(_pad_reached(s)) and len(_pad_best(s)[1]) == 1)


@PAD(rf"^(?P<who>{W}) scored (?P<points>{N}) (?P<word>points?)\.$")
def _pad_scored(m: re.Match, s: Seen) -> None:
    seat = s.seat(m["who"])
    points = int(m["points"])
    assert points == s.hand["points"][seat] == s.scores[seat] == s.totals[seat] - s.before[seat]
    assert m["word"] == ("point" if points == 1 else "points")


@PAD(rf"the score pad only counts it as (?P<who>{W})'s deal")
def _pad_out_of_turn(m: re.Match, s: Seen) -> None:
    assert s.seat(m["who"]) == s.dealer != s.in_turn


@PAD(r"^Game over: ")
def _pad_over(m: re.Match, s: Seen) -> None:
    assert _pad_ends(s) and s.finished


@PAD(rf"(?P<who>{W}) deals next")
def _pad_goes_on(m: re.Match, s: Seen) -> None:
    assert not _pad_ends(s) and not s.finished


@PAD(r"all (?P<hands>\d+) hands? were played")
def _pad_all_played(m: re.Match, s: Seen) -> None:
    assert int(m["hands"]) == s.settings["hand_count"] == s.number and s.finished


@PAD(r"its one hand was played")
def _pad_one_played(m: re.Match, s: Seen) -> None:
    assert s.settings["hand_count"] == s.number == 1 and s.finished


@PAD(rf"(?P<who>{W}) has the (?P<side>highest|lowest) total, (?P<total>{N}), and wins")
def _pad_wins(m: re.Match, s: Seen) -> None:
    side, best = _pad_best(s)
    assert m["side"] == side and best == [s.seat(m["who"])] == s.winners
    assert int(m["total"]) == s.totals[best[0]]


@PAD(rf"(?P<names>{NL}) are tied on (?P<total>{N}) for the (?P<side>highest|lowest) total"
     r"(?: and (?P<share>share the win)|: (?P<again>another hand is dealt))")
def _pad_tied(m: re.Match, s: Seen) -> None:
    side, best = _pad_best(s)
    assert m["side"] == side and s.seats(m["names"]) == best and len(best) > 1
    assert int(m["total"]) == s.totals[best[0]]
    if m["share"]:  # only the last of a fixed number of hands shares a win
        assert _pad_hands_done(s) and s.finished and s.winners == best
    else:
        assert _pad_reached(s) and not _pad_hands_done(s) and not s.finished



# --- the matches ---------------------------------------------------------------------------


def third_hand_hand(game, place, rng):
    return game.rules.random_hand(place, rng)


def third_wheel_hand(game, place, rng):
    seats, dealer = place.seats, place.dealer
    hand = game.rules.random_hand(place, rng)
    if rng.random() < 0.3:  # exact bids and tied setters are rare at random
        hand["bid"] = hand["tricks"][dealer]
        hand["wheel"] = hand["wheel"] and (hand["bid"] == 0 or hand["bid"] >= 6)
    if rng.random() < 0.03:  # a made 11: the text's double score
        hand["tricks"] = [11 if seat == dealer else 0 for seat in range(seats)]
        hand["bid"] = 11
    return hand


def dummy_hand(game, place, rng):
    hand = game.rules.random_hand(place, rng)
    if rng.random() < 0.4:  # nils on every kind of hand, often on the dummy
        hand["nils"] = [rng.sample([0, 1, 2, "dummy"], rng.choice([0, 0, 1, 1, 2])) for _ in range(3)]
    return hand


def third_rail_hand(game, place, rng):
    seats, settings = place.seats, place.settings
    hand = game.rules.random_hand(place, rng)
    first = settings["scoring_from"]
    if rng.random() < 0.5:  # the counts form, other tricks left out where the rules allow
        scoring, other = [0] * seats, [0] * seats
        for number, seat in enumerate(hand.pop("winners"), start=1):
            if number % 3 == first % 3:
                scoring[seat] += 1
            else:
                other[seat] += 1
        hand["scoring_tricks"] = scoring
        if settings["most_other_tricks_bonus"] or rng.random() < 0.5:
            hand["other_tricks"] = other
    if settings["trump"] and rng.random() < 0.7:
        hand["trump"] = rng.choice(["hearts", "diamonds", "clubs", "spades"])
    return hand


def score_pad_hand(game: Game, place: HandContext, rng: random.Random) -> dict:
    """Points as a table types them: mostly small, some negative, now and then the edges
    of what may be typed, and often equal points so that totals tie (at the target, at
    the last hand) as well as apart."""
    seats = place.seats
    roll = rng.random()
    if roll < 0.06:
        return {"points": [rng.choice((-100_000, 100_000, 99_999, -1, 1, 0)) for _ in range(seats)]}
    points = [rng.randint(-15, 40) for _ in range(seats)]
    if roll < 0.3:  # everybody alike: totals tied stay tied
        points = [points[0]] * seats
    elif roll < 0.45:  # two alike
        a, b = rng.sample(range(seats), 2)
        points[b] = points[a]
    return {"points": points}


def every_players_points(s: Seen) -> list[str]:
    """The score pad says each player's points, every hand."""
    return [rf"^{player} scored -?\d+ points?\.$" for player in s.players]


GAME_CASES = {
    "third_hand": Case(third_hand_hand, [HAND], {"target": [1, 60, 150, 300]}, (2, 2),
                       next_dealer=higher_hand_score_deals, past_target=True),
    "third_wheel": Case(third_wheel_hand, [WHEEL], {"target": [0, 11, 20, 33], "deals_each": [0, 1, 2, 3]}, (3, 3)),
    "dummy_spades": Case(dummy_hand, [SPADES], {"target": [50, 150, 300], "bag_limit": [0, 1, 3, 10],
                                                "lose_at": [None, -1, -100]}, (3, 3)),
    "third_rail": Case(third_rail_hand, [RAIL], {"target": [1, 5, 12]}, (3, 6)),
    "score_pad": Case(score_pad_hand, [PAD], {"target": [0, 0, 1, 20, 60, 150], "hand_count": [0, 0, 1, 2, 3, 7]},
                      (2, 8), also_says=every_players_points),
}


def own_line_cases(keys: Iterable[str]) -> dict[str, Case]:
    """The cases games give in their own test modules (``LINE_CASE`` in tests/games/test_<key>.py),
    so a new game's sentences are checked here without this file naming the game."""
    found = {}
    for key in keys:
        name = f"{__package__}.test_{key}"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as missing:
            if missing.name != name:
                raise
            continue
        case = getattr(module, "LINE_CASE", None)
        if isinstance(case, Case):
            found[key] = case
    return found


GAME_CASES.update(own_line_cases(sorted(set(GAMES) - set(GAME_CASES))))


def play_many(key: str, matches: int) -> int:
    case, game = GAME_CASES[key], GAMES[key]
    rng = random.Random(f"every line {key}")
    lines = 0
    for _ in range(matches):
        seats = rng.randint(*case.seats)
        settings = random_settings(key, rng, seats)
        while True:  # the case's values, in a combination the game accepts
            chosen = dict(settings, **{name: rng.choice(values) for name, values in case.numbers.items()})
            if not game.rules.check_settings(blank_place(game, chosen, seats)):
                break
        lines += play_and_check(key, rng, chosen, seats, case.make_hand, [NEXT, *case.rules], must_say,
                                hands=40)
    return lines


@pytest.mark.parametrize("key", sorted(GAME_CASES))
def test_every_number_in_every_explanation_is_true(key):
    rules = GAME_CASES[key].rules
    before = [Counter(table.hits) for table in rules]  # other tests read lines too: count this one's own
    assert play_many(key, 200) > 1000  # the matches said something to check
    # every sentence of the game was met and read: none of its checks is idle
    unused = [p.pattern for table, had in zip(rules, before) for p, _ in table.patterns
              if table.hits[p.pattern] == had[p.pattern]]
    assert not unused, unused


def test_every_what_happens_next_sentence_is_met():
    before = Counter(NEXT.hits)  # other tests read lines too: count this one's own
    for key in sorted(GAME_CASES):
        play_many(key, 150)  # a shared win (Third Wheel) first comes after 60 to 100 matches
    unused = [p.pattern for p, _ in NEXT.patterns if NEXT.hits[p.pattern] == before[p.pattern]]
    assert not unused, unused


def test_every_real_game_has_its_lines_checked() -> None:
    """A game added to the registry without a case here would escape every check above;
    only the tests' own games (tests/oddball.py, registered by conftest) may."""
    real = {key for key, game in GAMES.items() if type(game).__module__.split(".")[0] != "tests"}
    assert "oddball" in GAMES and "oddball" not in real  # the test-only game is known and left out
    assert real - set(GAME_CASES) == set(), f"no GAME_CASES entry for {sorted(real - set(GAME_CASES))}"


def test_a_games_own_test_module_gives_its_line_case(monkeypatch) -> None:
    """A game's case may live in its own test module (``LINE_CASE``): found by the game's key,
    and a key without such a module gives none."""
    module = type(importlib)("own_case")
    module.LINE_CASE = Case(score_pad_hand, [PAD], {}, (2, 8))  # type: ignore[attr-defined]
    monkeypatch.setitem(__import__("sys").modules, f"{__package__}.test_made_up_game", module)
    found = own_line_cases(["made_up_game", "no_such_game"])
    assert list(found) == ["made_up_game"] and found["made_up_game"] is module.LINE_CASE
