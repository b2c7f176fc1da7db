"""Third Rail (rules.md section 4): scoring, settings, hand checks and the trick referee."""
import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from scorekeeper.engine import Match, MatchError, replay
from scorekeeper.games import GAMES
from scorekeeper.games.third_rail import (
    TRICK_CARDS,
    card_label,
    cards_in_deck,
    is_scoring_trick,
    trick_winner,
    tricks_per_hand,
)

PLAYERS = ["Ann", "Bob", "Cy"]
# 17 tricks for 3 players. Tricks 3, 6, 9, 12, 15 go to Ann, Bob, Ann, Cy, Cy;
# the other tricks: Ann 5, Bob 4, Cy 3. From trick 2 (2, 5, 8, 11, 14, 17): Ann 2, Bob 2, Cy 2.
WINNERS = [1, 1, 0, 2, 2, 1, 0, 0, 0, 1, 2, 2, 0, 1, 2, 0, 0]


def play(hands, players=PLAYERS, first_dealer=0, **settings):
    return replay(Match(game="third_rail", players=list(players), settings=settings,
                        first_dealer=first_dealer, hands=hands))


def counts(scoring, other=(4, 4, 4), **more):
    return {"scoring_tricks": list(scoring), "other_tricks": list(other), **more}


def problems(hands, players=PLAYERS, **settings):
    with pytest.raises(MatchError) as err:
        play(hands, players, **settings)
    return err.value.problems


# --- the deal and the scoring tricks -------------------------------------------

@pytest.mark.parametrize("players, tricks", [(3, 17), (4, 13), (5, 16), (6, 13)])
def test_tricks_per_hand(players, tricks):
    assert tricks_per_hand(players) == tricks


@pytest.mark.parametrize("number, scoring_from, scores", [
    (1, 3, False), (2, 3, False), (3, 3, True), (6, 3, True), (15, 3, True), (16, 3, False),
    (1, 2, False), (2, 2, True), (3, 2, False), (5, 2, True), (17, 2, True),
])
def test_is_scoring_trick(number, scoring_from, scores):
    assert is_scoring_trick(number, scoring_from) is scores


def test_game_metadata():
    game = GAMES["third_rail"]
    assert (game.min_players, game.max_players, game.required_fields) == (3, 6, ())
    assert game.defaults() == {"target": 12, "scoring_from": 3,
                               "most_other_tricks_bonus": False, "bonus_tie": "each", "trump": False}
    assert set(game.hand_fields) == {"winners", "scoring_tricks", "other_tricks", "trump"}


# --- scoring -------------------------------------------------------------------

def test_each_scoring_trick_is_a_point_from_winners():
    assert play([{"winners": WINNERS}]).hands[0].scores == [2, 1, 2]


def test_each_scoring_trick_is_a_point_from_counts():
    assert play([counts([2, 1, 2], [5, 4, 3])]).hands[0].scores == [2, 1, 2]


def test_scoring_from_2_moves_the_scoring_tricks():
    assert play([{"winners": WINNERS}], scoring_from=2).hands[0].scores == [2, 2, 2]


def test_scoring_from_2_with_three_players_has_six_scoring_tricks():
    assert play([counts([6, 0, 0], [4, 4, 3])], scoring_from=2).hands[0].scores == [6, 0, 0]


@pytest.mark.parametrize("players, scoring, other", [
    (["A", "B", "C", "D"], [1, 1, 1, 1], [3, 2, 2, 2]),
    (["A", "B", "C", "D", "E"], [1, 1, 1, 1, 1], [3, 2, 2, 2, 2]),
    (["A", "B", "C", "D", "E", "F"], [1, 1, 1, 1, 0, 0], [2, 2, 2, 1, 1, 1]),
])
def test_counts_for_four_to_six_players(players, scoring, other):
    assert play([counts(scoring, other)], players).hands[0].scores == scoring


def test_bonus_off_by_default():
    assert play([counts([2, 1, 2], [5, 4, 3])]).hands[0].scores == [2, 1, 2]


def test_bonus_for_most_other_tricks():
    result = play([{"winners": WINNERS}], most_other_tricks_bonus=True)
    assert result.hands[0].scores == [4, 1, 2]


def test_ruling_tied_bonus_each_score_2():
    result = play([counts([2, 2, 1], [5, 5, 2])], most_other_tricks_bonus=True)
    assert result.hands[0].scores == [4, 4, 1]


def test_trump_is_recorded_not_scored():
    result = play([{"winners": WINNERS, "trump": "spades"}], trump=True)
    assert result.hands[0].scores == [2, 1, 2]
    assert "Trump was spades (recorded only; it does not change the score)." in result.hands[0].explanation


def test_trump_may_be_left_out_with_the_setting_on():
    assert play([{"winners": WINNERS}], trump=True).hands[0].scores == [2, 1, 2]


def test_no_extra_output_fields():
    assert play([{"winners": WINNERS}]).hands[0].extra.as_json() == {}


# --- explanation ---------------------------------------------------------------

def test_explanation_names_the_tricks_each_player_won():
    assert play([{"winners": WINNERS}]).hands[0].explanation == [
        "Tricks 3, 6, 9, 12 and 15 score one point each.",
        "Ann won 2 scoring tricks (tricks 3 and 9): 2 points",
        "Bob won 1 scoring trick (trick 6): 1 point",
        "Cy won 2 scoring tricks (tricks 12 and 15): 2 points",
        "Bob deals next: the deal passes left.",
    ]


def test_explanation_from_counts_says_no_scoring_tricks():
    lines = play([counts([5, 0, 0])]).hands[0].explanation
    assert lines[1:-1] == ["Ann won 5 scoring tricks: 5 points",
                         "Bob won no scoring tricks: 0 points",
                         "Cy won no scoring tricks: 0 points"]


def test_explanation_of_the_bonus():
    lines = play([{"winners": WINNERS}], most_other_tricks_bonus=True).hands[0].explanation
    assert lines[-3:-1] == [
        "Most non-scoring tricks: Ann with 5 (others: Bob 4, Cy 3), so Ann scores 2 more.",
        "This hand: Ann 2 + 2 = 4, Bob 1, Cy 2",
    ]


def test_explanation_of_a_tied_bonus():
    lines = play([counts([2, 2, 1], [5, 5, 2])], most_other_tricks_bonus=True).hands[0].explanation
    assert lines[-3] == ("Most non-scoring tricks: Ann and Bob tie with 5 each (others: Cy 2), "
                         "so each of them scores 2 more.")


def test_a_tied_bonus_scores_nothing_with_bonus_tie_none():
    result = play([counts([2, 2, 1], [5, 5, 2])], most_other_tricks_bonus=True, bonus_tie="none")
    assert result.hands[0].scores == [2, 2, 1]
    assert ("Most non-scoring tricks: Ann and Bob tie with 5 each (others: Cy 2); "
            "with a tie nobody scores the bonus.") in result.hands[0].explanation


def test_a_sole_bonus_is_scored_whatever_bonus_tie_says():
    result = play([counts([2, 2, 1], [6, 4, 2])], most_other_tricks_bonus=True, bonus_tie="none")
    assert result.hands[0].scores == [4, 2, 1]


# --- dealer and end of game ----------------------------------------------------

def test_deal_passes_left():
    result = play([counts([1, 2, 2])] * 3, first_dealer=1)
    assert [h.dealer for h in result.hands] == [1, 2, 0]
    assert result.next_dealer == 1


def test_game_goes_on_below_target():
    result = play([counts([5, 0, 0])] * 2)
    assert (result.totals, result.finished, result.winners) == ([10, 0, 0], False, [])


def test_reaching_target_wins():
    result = play([counts([5, 0, 0])] * 3)
    assert (result.finished, result.winners, result.next_dealer) == (True, [0], None)


def test_target_setting():
    assert play([counts([5, 0, 0])], target=5).winners == [0]


def test_tie_for_highest_plays_on_then_the_leader_wins():
    hands = [counts([5, 0, 0]), counts([0, 5, 0]), counts([5, 0, 0]), counts([0, 5, 0]),
             counts([2, 2, 1])]
    tied = play(hands)
    assert (tied.totals, tied.finished, tied.next_dealer) == ([12, 12, 1], False, 2)
    assert play(hands + [counts([1, 0, 4])]).winners == [0]


def test_hand_after_the_end_is_refused():
    assert problems([counts([5, 0, 0])] * 4) == ["hand 4: recorded after the game ended (it ended after hand 3)"]


# --- invalid hands -------------------------------------------------------------

@pytest.mark.parametrize("hand, message", [
    ({}, "hand 1: no tricks recorded: give either winners (who won each trick) "
         "or scoring_tricks and other_tricks (each player's counts)"),
    ({"winners": WINNERS, "scoring_tricks": [2, 1, 2]},
     "hand 1: give either winners (who won each trick) or scoring_tricks and other_tricks "
     "(each player's counts), not both"),
    ({"other_tricks": [4, 4, 4]}, "hand 1: scoring_tricks: missing (other_tricks and scoring_tricks go together)"),
    ({"winners": WINNERS[:16]}, "hand 1: winners: must be a list of 17 seats, one per trick "
                                "(3 players play 17 tricks), got " + str(WINNERS[:16])),
    ({"winners": "Ann"}, 'hand 1: winners: must be a list of 17 seats, one per trick '
                         '(3 players play 17 tricks), got "Ann"'),
    ({"winners": [3] + WINNERS[1:]}, "hand 1: winners[0] (trick 1): must be a seat 0 to 2, got 3"),
    ({"winners": WINNERS[:5] + ["Cy"] + WINNERS[6:]}, 'hand 1: winners[5] (trick 6): must be a seat 0 to 2, got "Cy"'),
    # JSON true is never a seat, though Python counts it as 1; nor is 1.0
    ({"winners": WINNERS[:3] + [True] + WINNERS[4:]}, "hand 1: winners[3] (trick 4): must be a seat 0 to 2, got true"),
    ({"winners": WINNERS[:3] + [1.0] + WINNERS[4:]}, "hand 1: winners[3] (trick 4): must be a seat 0 to 2, got 1.0"),
    (counts([2, 1, 2.5]), "hand 1: scoring_tricks[2] (Cy): must be a whole number, got 2.5"),
    (counts([6, 0, 0]), "hand 1: scoring_tricks[0] (Ann): must be 0 to 5, got 6"),
    (counts([2, 1, 1]), "hand 1: scoring_tricks add up to 4, not 5 (the scoring tricks are 3, 6, 9, 12 and 15)"),
    (counts([2, 1, 2], [13, 0, 0]), "hand 1: other_tricks[0] (Ann): must be 0 to 12, got 13"),
    (counts([2, 1, 2], [4, 4, 5]), "hand 1: other_tricks add up to 13, not 12 (17 tricks a hand, 5 of them scoring)"),
    (counts([2, 1], [4, 4, 4]), "hand 1: scoring_tricks: must be a list of 3 numbers, one per seat, got [2, 1]"),
    ({"winners": WINNERS, "trump": "spades"},
     "hand 1: trump: this match plays without trump (setting trump is off), so leave trump out or turn the setting on"),
])
def test_invalid_hand(hand, message):
    assert problems([hand]) == [message]


def test_other_tricks_are_needed_only_for_the_bonus():
    """Issue 11 item 5: without the bonus other tricks score nothing, so they may be left out;
    with it they are needed."""
    alone = {"scoring_tricks": [2, 1, 2]}
    assert play([alone]).hands[0].scores == [2, 1, 2]
    assert problems([alone], most_other_tricks_bonus=True) == [
        "hand 1: other_tricks: missing (the bonus for most other tricks counts them)"]
    assert problems([{"scoring_tricks": [2, 1, 1]}]) == [
        "hand 1: scoring_tricks add up to 4, not 5 (the scoring tricks are 3, 6, 9, 12 and 15)"]


def test_bad_trump_with_the_setting_on():
    assert problems([{"winners": WINNERS, "trump": "moons"}], trump=True) == [
        'hand 1: trump: must be one of "hearts", "diamonds", "clubs", "spades", got "moons"']


def test_scoring_from_2_changes_the_expected_sums():
    assert problems([counts([2, 1, 2], [4, 4, 3])], scoring_from=2) == [
        "hand 1: scoring_tricks add up to 5, not 6 (the scoring tricks are 2, 5, 8, 11, 14 and 17)"]


def test_sum_not_checked_when_a_count_is_wrong():
    assert problems([counts([2, 1, -1])]) == ["hand 1: scoring_tricks[2] (Cy): must be 0 to 5, got -1"]


def test_unknown_hand_field_is_refused():
    assert problems([{"winners": WINNERS, "tricks": [1, 2, 3]}]) == [
        'hand 1: unknown field "tricks" for Third Rail '
        "(allowed: dealer, other_tricks, scoring_tricks, trump, winners)"]


# --- invalid settings and players ----------------------------------------------

@pytest.mark.parametrize("settings, message", [
    ({"target": 0}, "settings.target: must be at least 1, got 0"),
    ({"scoring_from": 4}, "settings.scoring_from: must be 2 to 3, got 4"),
    ({"scoring_from": 1}, "settings.scoring_from: must be 2 to 3, got 1"),
    ({"most_other_tricks_bonus": "yes"}, 'settings.most_other_tricks_bonus: must be true or false, got "yes"'),
    ({"trump": 1}, "settings.trump: must be true or false, got 1"),
])
def test_invalid_setting(settings, message):
    assert problems([], **settings) == [message]


@pytest.mark.parametrize("players", [["A", "B"], ["A", "B", "C", "D", "E", "F", "G"]])
def test_player_count(players):
    assert problems([], players) == [f"players: Third Rail needs 3 to 6 players, got {len(players)}"]


# --- trick referee -------------------------------------------------------------

@pytest.mark.parametrize("cards, kwargs, winner", [
    (["5H", "9H", "7H"], {}, 1),                       # highest of the suit led
    (["KH", "QH", "JH"], {}, 0),                       # King high
    (["AH", "2H", "3S"], {}, 1),                       # Ace low
    (["5H", "KS", "KD", "KC"], {}, 0),                 # other suits cannot win
    (["5H", "9H", "2S"], {"trump": "spades"}, 2),      # a trump beats the suit led
    (["5H", "3S", "QS", "KH"], {"trump": "S"}, 2),     # highest trump
    (["5H", "9H", "2C"], {"trump": "spades"}, 1),      # no trump played: suit led
    (["5S", "9H", "7S"], {"trump": "spades"}, 2),      # trump led
    (["5H", "KH", "9H", "KH", "6H"], {"decks": 2}, 1),   # identical cards: the first wins
    (["KH", "5H", "9H", "KH", "6H", "7H"], {"decks": 2}, 0),
    (["5H", "KS", "9H", "KS", "6H"], {"decks": 2, "trump": "spades"}, 1),
])
def test_trick_winner(cards, kwargs, winner):
    assert trick_winner(cards, **kwargs)[0] == winner


@pytest.mark.parametrize("cards, kwargs, reason", [
    (["5H", "9H", "7H"], {}, "9♥ (played 2nd) is the highest heart, the suit led (King high, Ace low)."),
    (["5H", "9S", "2S"], {}, "Nobody else played a heart, so 5♥, the card led, wins."),
    (["5H", "3S", "QS", "KH"], {"trump": "spades"},
     "Q♠ (played 3rd) is the highest trump (spades), and a trump beats any card of another suit."),
    (["5H", "9H", "2C"], {"trump": "spades"},
     "No trump was played. 9♥ (played 2nd) is the highest heart, the suit led (King high, Ace low)."),
    (["5H", "KH", "9H", "KH", "6H"], {"decks": 2},
     "K♥ (played 2nd) is the highest heart, the suit led (King high, Ace low). "
     "Another K♥ was played 4th, but of two identical cards the one played first wins."),
])
def test_trick_winner_reason(cards, kwargs, reason):
    assert trick_winner(cards, **kwargs)[1] == reason


@pytest.mark.parametrize("cards, kwargs, message", [
    (["5H", "9H"], {}, "a trick has one card per player: 3 or 4 cards with 1 deck, got 2"),
    (["5H", "9H", "7H", "8H"], {"decks": 2}, "a trick has one card per player: 5 or 6 cards with 2 decks, got 4"),
    (["5H", "9H", "1H"], {}, 'unknown card "1H"'),
    (["5H", "9H", "3H", "8H", "7H"], {"decks": 2}, 'unknown card "3H"'),
    (["5H", "9H", "5H"], {}, "5♥ was played 2 times, but one deck has only one"),
    (["5H", "5H", "5H", "8H", "7H"], {"decks": 2}, "5♥ was played 3 times, but two decks have only two"),
    (["5H", "9H", "7H"], {"trump": "moons"}, "trump must be one of"),
    (["5H", "9H", "7H"], {"decks": 3}, "decks must be 1 or 2, got 3"),
])
def test_trick_winner_refuses_impossible_tricks(cards, kwargs, message):
    with pytest.raises(ValueError, match=message):
        trick_winner(cards, **kwargs)


def test_trick_cards_and_labels():
    assert len(TRICK_CARDS) == len(set(TRICK_CARDS)) == 52
    assert len(cards_in_deck(2)) == 40
    assert [card_label(c) for c in ("AS", "10H", "QD", "KC")] == ["A♠", "10♥", "Q♦", "K♣"]


# --- properties ----------------------------------------------------------------

@st.composite
def recorded_hands(draw):
    seats = draw(st.integers(3, 6))
    tricks = tricks_per_hand(seats)
    winners = draw(st.lists(st.integers(0, seats - 1), min_size=tricks, max_size=tricks))
    return seats, winners, draw(st.sampled_from([2, 3])), draw(st.booleans())


@hyp_settings(max_examples=60, deadline=None)
@given(recorded_hands())
def test_points_are_the_scoring_tricks_plus_bonuses(recorded):
    seats, winners, scoring_from, bonus = recorded
    players = [f"P{s}" for s in range(seats)]
    scores = play([{"winners": winners}], players, scoring_from=scoring_from,
                  most_other_tricks_bonus=bonus).hands[0].scores
    scoring = sum(is_scoring_trick(n, scoring_from) for n in range(1, len(winners) + 1))
    assert min(scores) >= 0
    if bonus:
        assert scoring + 2 <= sum(scores) <= scoring + 2 * seats
    else:
        assert sum(scores) == scoring


@hyp_settings(max_examples=60, deadline=None)
@given(recorded_hands())
def test_both_forms_score_alike(recorded):
    seats, winners, scoring_from, bonus = recorded
    players = [f"P{s}" for s in range(seats)]
    scoring, other = [0] * seats, [0] * seats
    for number, seat in enumerate(winners, start=1):
        (scoring if is_scoring_trick(number, scoring_from) else other)[seat] += 1
    both = [play([hand], players, scoring_from=scoring_from, most_other_tricks_bonus=bonus).hands[0].scores
            for hand in ({"winners": winners}, counts(scoring, other))]
    assert both[0] == both[1]


@st.composite
def tricks(draw):
    seats = draw(st.integers(3, 6))
    decks = 1 if seats <= 4 else 2
    cards = draw(st.permutations(cards_in_deck(decks) * decks))[:seats]
    trump = draw(st.none() | st.sampled_from(["hearts", "diamonds", "clubs", "spades"]))
    return cards, trump, decks


@hyp_settings(max_examples=100, deadline=None)
@given(tricks())
def test_the_winner_is_the_first_best_trump_or_card_of_the_suit_led(trick):
    cards, trump, decks = trick
    letter = {"hearts": "H", "diamonds": "D", "clubs": "C", "spades": "S", None: None}[trump]
    best, reason = trick_winner(cards, trump=trump, decks=decks)
    contenders = [c for c in cards if c[-1] == letter] or [c for c in cards if c[-1] == cards[0][-1]]
    order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert cards[best] in contenders
    assert all(order.index(c[:-1]) <= order.index(cards[best][:-1]) for c in contenders)
    assert cards.index(cards[best]) == best
    assert card_label(cards[best]) in reason
