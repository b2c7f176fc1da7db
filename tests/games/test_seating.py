"""The seat picture's data (``Game.seating``) and what a hand did (``Rules.hand_events``, worded by ``Shown.event_words``),
for every game and every dealer, against rules.md's "Table flow" and scoring."""
from __future__ import annotations

import pytest

from scorekeeper.engine import Match, replay
from scorekeeper.games import GAMES
from scorekeeper.games.base import Game, HandContext, Table

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal")  # a game may seat 8


def table(key: str, seats: int, **settings) -> Table:
    values = GAMES[key].defaults()
    values.update(settings)
    return Table(NAMES[:seats], values)


def at(t: Table, dealer: int) -> HandContext:
    """The first hand of a match at table ``t``, dealt by ``dealer``."""
    return Game().empty_place(t, dealer)


def roles(seating, name: str) -> tuple[str, ...]:
    return next(p.roles for p in seating.places if p.name == name)


@pytest.mark.parametrize("key", list(GAMES))
def test_every_place_once_clockwise_and_one_dealer(key):
    game = GAMES[key]
    for seats in range(game.min_players, game.max_players + 1):
        for dealer in range(seats):
            seating = game.shown.seating(at(table(key, seats), dealer))
            players = [p for p in seating.places if p.seat is not None]
            assert [p.seat for p in players] == list(range(seats))  # seat order = clockwise
            assert [p.name for p in players] == list(NAMES[:seats])
            assert [p.seat for p in seating.places if p.deals] == [dealer]
            assert "deals" in roles(seating, NAMES[dealer])
            assert len([p for p in seating.places if p.leads]) <= 1


def test_the_default_is_the_shared_flow():
    seating = Game().shown.seating(at(Table(("Ann", "Bob", "Cy"), {}), 2))
    assert [(p.name, p.roles, p.deals, p.leads) for p in seating.places] == [
        ("Ann", ("leads",), False, True), ("Bob", (), False, False), ("Cy", ("deals",), True, False)]


def test_third_hand_the_non_dealer_bids_first_and_the_holder_leads():
    seating = GAMES["third_hand"].shown.seating(at(table("third_hand", 2), 1))
    assert roles(seating, "Ann") == ("bids first", "leads if nobody bids")
    assert roles(seating, "Bob") == ("deals", "bids second")
    assert not any(p.leads for p in seating.places)  # the holder is not known before the bidding
    assert seating.notes == ("The contract holder leads the first trick; with no contract, Ann leads.",)


def test_third_wheel_setter_1_calls_trump_setter_2_high_or_low_the_dealer_leads():
    seating = GAMES["third_wheel"].shown.seating(at(table("third_wheel", 3), 1))
    assert roles(seating, "Cy") == ("setter 1", "calls trump")
    assert roles(seating, "Ann") == ("setter 2", "calls high or low")
    assert "bids" in roles(seating, "Bob") and [p.name for p in seating.places if p.leads] == ["Bob"]


def test_dummy_spades_bidding_order_the_first_bidder_leads_and_the_dummy_has_a_place():
    seating = GAMES["dummy_spades"].shown.seating(at(table("dummy_spades", 3), 0))
    assert [(p.name, p.roles) for p in seating.places] == [
        ("Ann", ("deals", "bids 3rd")), ("Bob", ("bids 1st", "leads")), ("Cy", ("bids 2nd",)),
        ("Dummy", ("dealt face down",))]
    assert seating.places[3].seat is None
    assert "opposite the declarer" in seating.notes[0]


@pytest.mark.parametrize("seats", range(3, 7))
def test_third_rail_left_of_the_dealer_leads_and_the_dealer_turns_up_trump(seats):
    dealer = seats - 1
    seating = GAMES["third_rail"].shown.seating(at(table("third_rail", seats, trump=True), dealer))
    assert [p.name for p in seating.places if p.leads] == ["Ann"]
    assert roles(seating, NAMES[dealer]) == ("deals", "turns up trump")
    plain = GAMES["third_rail"].shown.seating(at(table("third_rail", seats, trump=False), dealer))
    assert roles(plain, NAMES[dealer]) == ("deals",)


# --- what a hand did -----------------------------------------------------------------

def events(match: Match) -> list[list[tuple[str, int | None]]]:
    return [[(e.text, e.points) for e in hand.events] for hand in replay(match).hands]


def test_spades_names_nils_made_lost_or_not_applied_failed_bids_and_bag_penalties():
    # rules.md's example: Ann declares, 71 with 1 bag; Bob 50; Cy -60 (her nil on the dummy is not applied)
    example = Match("dummy_spades", ["Ann", "Bob", "Cy"], {}, 0, [
        {"bids": [7, 5, 6], "nils": [[], [], ["dummy"]], "tricks": [4, 5, 0], "dummy_tricks": 4}])
    assert events(example) == [[("Cy's bid of 6 failed (took 5)", -60),
                                ("Cy's nil on the dummy not applied (the other team's hand)", None)]]
    penalties = Match("dummy_spades", ["Ann", "Bob", "Cy"], {"bag_limit": 2}, 0, [
        {"bids": [3, 4, 2], "nils": [[0], [], [1]], "tricks": [0, 6, 4], "dummy_tricks": 3}])
    assert events(penalties) == [[("Ann's nil (own hand) made", 100),
                                  ("Bob's bags reached 5: bag penalty", -200),
                                  ("Cy's nil on Bob's hand not applied (the other team's hand)", None),
                                  ("Cy's bags reached 2: bag penalty", -100)]]
    lost = Match("dummy_spades", ["Ann", "Bob", "Cy"], {}, 0, [
        {"bids": [3, 4, 2], "nils": [[2], [], []], "tricks": [3, 6, 1], "dummy_tricks": 3}])
    assert ("Ann's nil on Cy's hand lost (1 trick)", -100) in events(lost)[0]


def test_third_hand_names_a_failed_and_a_doubled_contract_not_a_plain_made_one():
    hands = [{"bids": ["Q", None], "trump": "hearts", "points": [40, 80]},  # Ann needs Q's value: failed
             {"bids": [None, "10"], "trump": "hearts", "points": [50, 70]},  # Bob's 10 (65) made: nothing to say
             {"bids": ["J", "Q"], "trump": "hearts", "points": [40, 80]}]  # Bob deals, both face up: doubled
    found = events(Match("third_hand", ["Ann", "Bob"], {"target": 10**6}, 1, hands))
    assert found == [[("Ann's Q contract failed", None)], [], [("Bob's Q contract, doubled, made", None)]]


def test_third_wheel_names_a_failed_bid():
    hands = [{"trump": "wyrms", "mode": "high", "wheel": False, "bid": 5, "tricks": [5, 4, 2]},
             {"trump": "knots", "mode": "low", "wheel": False, "bid": 5, "tricks": [6, 3, 2]}]
    assert events(Match("third_wheel", ["Ann", "Bob", "Cy"], {}, 0, hands)) == [
        [], [("Bob's bid of 5 failed (took 3)", None)]]


def test_spades_counts_bags_in_words():
    assert [GAMES["dummy_spades"].shown.counter_text(n) for n in (0, 1, 2)] == ["0 bags", "1 bag", "2 bags"]


# --- roles the bidding decides, drawn once the hand's fields say them ---------------------

def test_third_hand_draws_the_holder_once_both_bids_are_known():
    game, t = GAMES["third_hand"], table("third_hand", 2)
    unknown = game.shown.seating(at(t, 0), {"bids": [None, "?"]})  # Bob's bid not chosen yet
    assert unknown == game.shown.seating(at(t, 0))
    held = game.shown.seating(at(t, 0), {"bids": [None, "Q"]})
    assert [(p.name, p.roles, p.leads) for p in held.places] == [
        ("Ann", ("deals", "passed"), False), ("Bob", ("holds the Q contract", "leads"), True)]
    doubled = game.shown.seating(at(t, 0), {"bids": ["A", "Q"]})
    assert doubled.notes == ("Ann holds the contract, doubled, and leads.",)
    nobody = game.shown.seating(at(t, 0), {"bids": [None, None]})
    assert [p.name for p in nobody.places if p.leads] == ["Bob"] and "no contract" in nobody.notes[0]


def test_dummy_spades_puts_the_dummy_opposite_the_declarer_once_every_bid_is_known():
    game, t = GAMES["dummy_spades"], table("dummy_spades", 3)
    assert game.shown.seating(at(t, 0), {"bids": [5, 4, None]}) == game.shown.seating(at(t, 0))
    for declarer in range(3):
        bids = [3, 3, 3]
        bids[declarer] = 7
        places = game.shown.seating(at(t, 0), {"bids": bids}).places
        names = [p.name for p in places]
        assert len(names) == 4 and names[(names.index(NAMES[declarer]) + 2) % 4] == "Dummy"
        assert places[names.index(NAMES[declarer])].roles[-1] == "declarer"
    tied = game.shown.seating(at(t, 2), {"bids": [6, 6, 6]})  # a tie goes to the earlier bidder: Ann, left of Cy
    assert [p.name for p in tied.places if "declarer" in p.roles] == ["Ann"]


def test_third_wheel_says_what_the_setters_called():
    seating = GAMES["third_wheel"].shown.seating(at(table("third_wheel", 3), 0), {"trump": "moons", "mode": "nope"})
    assert roles(seating, "Bob") == ("setter 1", "called moons")
    assert roles(seating, "Cy") == ("setter 2", "calls high or low")
