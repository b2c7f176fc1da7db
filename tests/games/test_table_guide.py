"""The table guide: who deals, how many cards, who bids or calls, who leads, in
the players' names, for every seat as dealer (rules.md "Table flow")."""
from __future__ import annotations

import pytest

from scorekeeper.games import GAMES
from scorekeeper.games.base import Game, HandContext, Table

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal")  # a game may seat 8


def table(key: str, seats: int, **settings) -> Table:
    game = GAMES[key]
    values = game.defaults()
    values.update(settings)
    return Table(NAMES[:seats], values)


def at(t: Table, dealer: int) -> HandContext:
    """The first hand of a match at table ``t``, dealt by ``dealer``."""
    return Game().empty_place(t, dealer)


def line_with(lines: list[str], text: str) -> str:
    found = [line for line in lines if text in line]
    assert found, f"no line with {text!r} in {lines}"
    return found[0]


def test_base_game_has_no_guide():
    assert Game().shown.table_guide(at(Table(("a", "b"), {}), 0)) == []


@pytest.mark.parametrize("key", list(GAMES))
def test_every_game_gives_plain_sentences_for_every_dealer(key):
    game = GAMES[key]
    for seats in range(game.min_players, game.max_players + 1):
        t = table(key, seats)
        for dealer in range(seats):
            lines = game.shown.table_guide(at(t, dealer))
            assert lines and all(isinstance(line, str) and line.endswith(".") for line in lines)
            assert lines[0].startswith(f"{NAMES[dealer]} deals")


# --- Third Hand ---------------------------------------------------------------

@pytest.mark.parametrize("dealer, non_dealer", [(0, "Bob"), (1, "Ann")])
def test_third_hand_non_dealer_bids_first_and_leads_without_contract(dealer, non_dealer):
    lines = GAMES["third_hand"].shown.table_guide(at(table("third_hand", 2), dealer))
    dealer_name = NAMES[dealer]
    assert lines[0] == f"{dealer_name} deals 12 cards each to {non_dealer} and {dealer_name} (all 24 cards)."
    assert "4 cards aside" in line_with(lines, "third hand (8 cards)")
    assert line_with(lines, "bids first").startswith(f"{non_dealer} bids first")
    assert f"Then {dealer_name} (the dealer)" in line_with(lines, "must outrank")
    assert line_with(lines, "leads the first trick").endswith(f"with no contract, {non_dealer} leads.")
    assert "its suit is trump" in line_with(lines, "cut")


def test_third_hand_shows_the_match_contract_values():
    values = {"9": 50, "10": 55, "J": 60, "Q": 65, "K": 70, "A": 99}
    lines = GAMES["third_hand"].shown.table_guide(at(table("third_hand", 2, contract_values=values), 0))
    assert line_with(lines, "needs to make").endswith("9 50, 10 55, J 60, Q 65, K 70, A 99.")


# --- Third Wheel ----------------------------------------------------------------

@pytest.mark.parametrize("dealer, setter1, setter2", [(0, "Bob", "Cy"), (1, "Cy", "Ann"), (2, "Ann", "Bob")])
def test_third_wheel_setters_call_trump_and_high_low(dealer, setter1, setter2):
    lines = GAMES["third_wheel"].shown.table_guide(at(table("third_wheel", 3), dealer))
    d = NAMES[dealer]
    assert lines[0].startswith(f"{d} deals 11 cards each to {setter1}, {setter2} and {d}")
    assert "3 cards form the Wheel" in lines[0]
    assert line_with(lines, "calls trump").startswith(f"{setter1} (setter 1, left of the dealer) calls trump")
    assert line_with(lines, "high or low").startswith(f"{setter2} (setter 2)")
    assert line_with(lines, "take the Wheel") == (f"{d} may take the Wheel into hand and discard any 3 cards "
                                                 f"face down; then {d} must bid 0 or 6 to 11.")
    assert line_with(lines, "leads the first trick").startswith(f"{d} bids 0 to 11")


# --- Dummy Hand Spades ------------------------------------------------------------

@pytest.mark.parametrize("dealer, order", [(0, ("Bob", "Cy", "Ann")), (1, ("Cy", "Ann", "Bob")),
                                           (2, ("Ann", "Bob", "Cy"))])
def test_spades_bidding_from_the_left_of_the_dealer_dealer_last(dealer, order):
    lines = GAMES["dummy_spades"].shown.table_guide(at(table("dummy_spades", 3), dealer))
    first, second, last = order
    assert lines[0] == (f"{last} deals 13 cards each to {first}, {second}, {last} and the dummy hand; "
                        "the dummy's cards stay face down.")
    assert line_with(lines, "One round of bidding").startswith(
        f"One round of bidding: {first} first, then {second}, then {last} (the dealer) last.")
    assert f"({first} before {second} before {last})" in line_with(lines, "tie goes to")
    assert line_with(lines, "leads the first trick").startswith(f"{first} leads")


@pytest.mark.parametrize("peek, count, expected", [
    ("none", 2, "No peeking: nobody sees the dummy's cards before bidding."),
    ("three", 2, "Three Peeky: before bidding, Bob, Cy and Ann each choose 3 of the dummy's cards and look "
                 "at them in secret"),
    ("four", 2, "Four Peeky: before bidding, Bob, Cy and Ann each choose 4 of the dummy's cards"),
    ("flip", 1, "Flip 1: before bidding, Bob, Cy and Ann each choose 1 card of the dummy's and turn it face up "
                "for all to see (3 of its 13 cards showing)"),
    ("flip", 3, "Flip 3: before bidding, Bob, Cy and Ann each choose 3 cards of the dummy's and turn them face "
                "up for all to see (9 of its 13 cards showing); the rest are turned over after the opening lead."),
])
def test_spades_peek_step_follows_the_setting(peek, count, expected):
    lines = GAMES["dummy_spades"].shown.table_guide(at(table("dummy_spades", 3, peek=peek, flip_count=count), 0))
    assert lines[1].startswith(expected)


# --- Third Rail --------------------------------------------------------------------

@pytest.mark.parametrize("seats, cards, spare", [
    (3, "one 52-card deck", "17 cards each; 1 card is left over and set aside."),
    (4, "one 52-card deck", "13 cards each; no cards are left over."),
    (5, "two decks without the 2s, 3s and 4s (two 40-card decks, 80 cards", "16 cards each; no cards are left over."),
    (6, "two decks without the 2s, 3s and 4s", "13 cards each; 2 cards are left over and set aside."),
])
def test_third_rail_deal_and_spare_cards(seats, cards, spare):
    for dealer in range(seats):
        lines = GAMES["third_rail"].shown.table_guide(at(table("third_rail", seats), dealer))
        left = NAMES[(dealer + 1) % seats]
        assert lines[0].startswith(f"{NAMES[dealer]} deals {cards}")
        assert f"starting with {left}: {spare}" in lines[0]
        assert line_with(lines, "leads the first trick").startswith(f"{left} (left of the dealer) leads")


@pytest.mark.parametrize("seats, scoring_from, expected", [
    (3, 3, "17 tricks: tricks 3, 6, 9, 12 and 15 (5 of them)"),
    (3, 2, "17 tricks: tricks 2, 5, 8, 11, 14 and 17 (6 of them)"),
    (4, 3, "13 tricks: tricks 3, 6, 9 and 12 (4 of them)"),
    (6, 2, "13 tricks: tricks 2, 5, 8 and 11 (4 of them)"),
])
def test_third_rail_scoring_tricks_for_the_player_count(seats, scoring_from, expected):
    lines = GAMES["third_rail"].shown.table_guide(at(table("third_rail", seats, scoring_from=scoring_from), 0))
    assert line_with(lines, "score a point").startswith(expected)


def test_third_rail_specials_follow_the_settings():
    plain = GAMES["third_rail"].shown.table_guide(at(table("third_rail", 4), 2))
    assert not any("trump" in line for line in plain)
    assert not any("identical" in line for line in plain)
    assert not any("non-scoring" in line for line in plain)
    lines = GAMES["third_rail"].shown.table_guide(at(table("third_rail", 5, trump=True, most_other_tricks_bonus=True), 2))
    assert line_with(lines, "turns up") == ("No card is left over, so Cy turns up the last card dealt to themself: "
                                            "its suit is trump this hand, and the card stays in Cy's hand.")
    assert "a trump beats any other suit" in line_with(lines, "King is high")
    assert line_with(lines, "identical")
    assert line_with(lines, "most non-scoring tricks scores 2 more").endswith("(tied players each score 2).")
    no_tie = GAMES["third_rail"].shown.table_guide(at(table("third_rail", 3, most_other_tricks_bonus=True, bonus_tie="none"), 0))
    assert line_with(no_tie, "most non-scoring tricks").endswith("(on a tie nobody scores it).")


@pytest.mark.parametrize(("seats", "flipped"), [
    (3, "Ann turns up the card left over"),
    (4, "No card is left over, so Ann turns up the last card dealt to themself"),
    (5, "No card is left over, so Ann turns up the last card dealt to themself"),
    (6, "Ann turns up one of the 2 cards left over"),
])
def test_third_rail_flipped_trump_card_for_each_player_count(seats, flipped):
    lines = GAMES["third_rail"].shown.table_guide(at(table("third_rail", seats, trump=True), 0))
    assert line_with(lines, "turns up").startswith(flipped)
