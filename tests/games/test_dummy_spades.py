"""Dummy Hand Spades (rules.md section 3), scored through the engine."""
import dataclasses
import re

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from scorekeeper.engine import Match, MatchError, replay
from scorekeeper.games import GAMES
from scorekeeper.games.base import Table
from scorekeeper.games.dummy_spades import TRICK_CARDS, card_label, trick_winner

PLAYERS = ["Ann", "Bob", "Cy"]


def play(*hands, first_dealer=0, **settings):
    return replay(Match(game="dummy_spades", players=PLAYERS, settings=settings,
                        first_dealer=first_dealer, hands=list(hands)))


def deal(bids, tricks, dummy_tricks, nils=None, **more):
    hand = {"bids": list(bids), "tricks": list(tricks), "dummy_tricks": dummy_tricks, **more}
    if nils is not None:
        hand["nils"] = nils
    return hand


def problems(*hands, **settings):
    with pytest.raises(MatchError) as error:
        play(*hands, **settings)
    return error.value.problems


# With Ann dealing, Bob bids first, then Cy, then Ann. Bob bids 7 and declares.
WORKED = [6, 7, 5]


# --- the game's description ------------------------------------------------------

def test_settings_and_fields_match_rules():
    game = GAMES["dummy_spades"]
    assert game.defaults() == {"target": 500, "bag_limit": 10, "bag_penalty": 100, "nil_value": 100,
                               "nil_tricks_count": True, "lose_at": None, "peek": "none", "flip_count": 2}
    assert set(game.hand_fields) == {"bids", "nils", "tricks", "dummy_tricks"}
    assert set(game.required_fields) == {"bids", "tricks", "dummy_tricks"}
    assert (game.min_players, game.max_players) == (3, 3)


def test_settings_in_force_are_reported_with_defaults():
    result = play(target=300, peek="flip", flip_count=4)
    assert result.settings["target"] == 300
    assert result.settings["peek"] == "flip" and result.settings["flip_count"] == 4
    assert result.settings["bag_limit"] == 10


# --- worked examples from the text ----------------------------------------------

@pytest.mark.parametrize("tricks, dummy, scores, bags", [
    # defenders take 5: the 5-bidder makes, the 6-bidder is set, declarer +71 and a bag
    ([3, 4, 2], 4, [-60, 71, 50], [0, 1, 0]),
    # defenders take 7: +52 (2 bags), +61 (1 bag), declarer set 70
    ([4, 3, 3], 3, [61, -70, 52], [1, 0, 2]),
])
def test_worked_examples(tricks, dummy, scores, bags):
    hand = play(deal(WORKED, tricks, dummy)).hands[0]
    assert hand.scores == scores
    assert hand.extra.as_json() == {"bags": bags, "declarer": 1}


# --- the contract ------------------------------------------------------------------

@pytest.mark.parametrize("bid, team_tricks, score, bags", [
    (7, 7, 70, 0),     # exact
    (7, 9, 72, 2),     # two over: a point and a bag each
    (7, 6, -70, 0),    # set
    (0, 4, 4, 4),      # a team bid of 0: every trick is a bag
    (13, 13, 130, 0),  # all of them
])
def test_declarer_contract(bid, team_tricks, score, bags):
    # Bob declares; their team tricks are their own plus the dummy's
    own = min(team_tricks, 7)
    dummy = team_tricks - own
    rest = 13 - team_tricks
    hand = play(deal([0, bid, 0], [rest, own, 0], dummy)).hands[0]
    assert hand.extra.declarer == 1
    assert hand.scores[1] == score and hand.extra.bags[1] == bags


def test_defenders_share_both_defenders_tricks():
    # Ann took 0 and Cy 5: both defenders count 5 team tricks
    hand = play(deal([4, 9, 5], [0, 6, 5], 2)).hands[0]
    assert hand.scores == [41, -90, 50]


def test_declarer_counts_dummy_tricks():
    hand = play(deal([1, 8, 1], [1, 2, 2], 8)).hands[0]
    assert hand.scores[1] == 82


# --- who declares ------------------------------------------------------------------

@pytest.mark.parametrize("dealer, bids, declarer", [
    (0, [6, 7, 5], 1),   # plain highest bid
    (0, [7, 7, 7], 1),   # all tied: Bob bid first (left of the dealer, Ann)
    (1, [7, 7, 7], 2),   # Bob deals: Cy bids first
    (2, [7, 7, 7], 0),   # Cy deals: Ann bids first
    (2, [5, 7, 7], 1),   # Bob and Cy tie; Bob bids before Cy, the dealer
    (1, [7, 5, 7], 2),   # Bob deals: Cy bids before Ann although Ann's seat is lower
])
def test_declarer_is_highest_then_earliest_bidder(dealer, bids, declarer):
    result = play(deal(bids, [3, 3, 3], 4, dealer=dealer))
    assert result.hands[0].extra.declarer == declarer


def test_tie_is_explained_by_bidding_order():
    lines = play(deal([7, 5, 7], [3, 3, 3], 4, dealer=1)).hands[0].explanation
    assert lines[0] == ("Bids, from the left of the dealer (Bob): Cy 7, Ann 7, Bob 5. Cy and Ann both bid 7; "
                        "Cy bid it first, so Cy is declarer with the dummy; Ann and Bob defend.")


# --- nil -------------------------------------------------------------------------------

@pytest.mark.parametrize("nils, tricks, dummy, nil_points", [
    # Bob (declarer) nil on their own hand, which took nothing
    ([[], [1], []], [3, 0, 2], 8, [0, 100, 0]),
    # ... and on their own hand, which took tricks
    ([[], [1], []], [3, 1, 2], 7, [0, -100, 0]),
    # Bob nil on the dummy, their partner
    ([[], ["dummy"], []], [3, 8, 2], 0, [0, 100, 0]),
    # Ann (defender) nil on Cy's hand, their partner this deal
    ([[2], [], []], [5, 8, 0], 0, [100, 0, 0]),
    # Ann nil on both defenders' hands: each is assessed
    ([[0, 2], [], []], [0, 8, 0], 5, [200, 0, 0]),
    # Ann and Cy both nil on Cy's hand: each bidder gets the result
    ([[2], [], [2]], [5, 8, 0], 0, [100, 0, 100]),
    # a defender's nils on the declarer or the dummy do not apply
    ([["dummy", 1], [], [1]], [5, 8, 0], 0, [0, 0, 0]),
    # the declarer's nils on defenders do not apply
    ([[], [0, 2], []], [5, 8, 0], 0, [0, 0, 0]),
])
def test_nil(nils, tricks, dummy, nil_points):
    bids = [4, 7, 0]  # Bob declares
    plain = play(deal(bids, tricks, dummy)).hands[0].scores
    with_nils = play(deal(bids, tricks, dummy, nils)).hands[0].scores
    assert [n - p for n, p in zip(with_nils, plain)] == nil_points


def test_nil_value_setting():
    hand = play(deal([4, 7, 0], [5, 8, 0], 0, [[], [], [2]]), nil_value=50).hands[0]
    assert hand.scores[2] == 5 + 50  # bid 0, the defenders took 5, nil made


def test_nil_hand_tricks_still_count_for_the_team():
    # Bob bid nil on the dummy, which took 2: the nil fails, but the 2 tricks make their 7
    hand = play(deal([0, 7, 0], [1, 5, 5], 2, [[], ["dummy"], []])).hands[0]
    assert hand.scores[1] == 70 - 100


def test_nil_explanation_lines():
    lines = play(deal([4, 7, 0], [4, 8, 1], 0, [[2, "dummy"], [], [2]])).hands[0].explanation
    assert "Ann's nil on Cy's hand: Cy took 1 trick, so -100" in lines
    assert "Ann's nil on the dummy is not applied: the dummy is on the other team this deal" in lines
    assert "Cy's nil on their own hand: Cy took 1 trick, so -100" in lines
    assert "Ann this hand: 41 - 100 = -59" in lines


# --- bags --------------------------------------------------------------------------------

def test_bags_accumulate_per_player():
    # Bob declares 7 twice and takes 9; Ann and Cy bid 0 and take 4 each time
    hands = [deal([0, 7, 0], [4, 5, 0], 4, dealer=0)] * 2
    result = play(*hands)
    assert [h.extra.bags for h in result.hands] == [[4, 2, 4], [8, 4, 8]]


def test_bag_penalty_at_limit():
    # Ann bids 0 as a defender; the defenders take 5 every hand: 5 bags each time
    hands = [deal([0, 8, 0], [5, 8, 0], 0, dealer=0)] * 2
    second = play(*hands).hands[1]
    assert second.extra.bags[0] == 0
    assert second.scores[0] == 5 - 100
    assert "Ann's bags reached 10 (limit 10): loses 100, leaving 0 bags" in second.explanation
    assert "Ann this hand: 5 - 100 = -95" in second.explanation


def test_bag_penalty_repeats_while_at_or_over_limit():
    hand = play(deal([0, 13, 0], [5, 8, 0], 0), bag_limit=2, bag_penalty=30).hands[0]
    assert hand.extra.bags == [1, 0, 1]
    assert hand.scores[0] == 5 - 60
    assert "Ann's bags reached 5 (limit 2): loses 2 × 30 = 60, leaving 1 bag" in hand.explanation


def test_bag_limit_zero_turns_penalties_off():
    hands = [deal([0, 8, 0], [5, 8, 0], 0, dealer=0)] * 3
    result = play(*hands, bag_limit=0)
    assert result.hands[2].extra.bags[0] == 15
    assert result.totals[0] == 15


def test_bag_penalty_setting():
    hands = [deal([0, 8, 0], [5, 8, 0], 0, dealer=0)] * 2
    assert play(*hands, bag_penalty=50).hands[1].scores[0] == 5 - 50


def test_score_hand_returns_new_state_and_leaves_the_old_alone():
    # replays reuse earlier states, so scoring must never change one
    before = (5, 0, 5)
    table = Table(tuple(PLAYERS), GAMES["dummy_spades"].defaults())
    game = GAMES["dummy_spades"]
    place = dataclasses.replace(game.empty_place(table, 0), state=before)
    scored = game.rules.score_hand(deal([0, 8, 0], [5, 8, 0], 0), place)
    assert before == (5, 0, 5)
    assert scored.state == (0, 0, 0) and scored.scores == [5 - 100, 80, 5 - 100]


# --- explanation -----------------------------------------------------------------------

def test_explanation_names_everyone_with_numbers():
    lines = play(deal(WORKED, [3, 4, 2], 4)).hands[0].explanation
    assert lines == [
        "Bids, from the left of the dealer (Ann): Bob 7, Cy 5, Ann 6. Bob bid highest, so Bob is declarer "
        "with the dummy; Cy and Ann defend.",
        "Bob and the dummy took 4 + 4 = 8 tricks; Ann and Cy took 3 + 2 = 5.",
        "Ann bid 6 but the defenders took only 5, so the contract failed: -60",
        "Bob bid 7 and took 8 with the dummy: 10 × 7 + 1 over = 71, 1 bag (1 in all)",
        "Cy bid 5 and the defenders took 5, exactly: 10 × 5 = 50",
        "Bob deals next: the deal passes left.",
    ]


# --- dealing and the end ------------------------------------------------------------------

def test_deal_passes_clockwise():
    hand = deal([3, 3, 3], [3, 3, 3], 4)
    result = play(hand, hand, hand, first_dealer=1)
    assert [h.dealer for h in result.hands] == [1, 2, 0]
    assert result.next_dealer == 1


def test_out_of_turn_dealer_continues_rotation():
    hand = deal([3, 3, 3], [3, 3, 3], 4)
    result = play(hand, {**hand, "dealer": 0})
    assert [h.dealer for h in result.hands] == [0, 0]
    assert result.next_dealer == 1


def test_reaching_target_wins():
    result = play(deal(WORKED, [3, 4, 2], 4), target=71)
    assert result.finished and result.winners == [1] and result.next_dealer is None


def test_highest_wins_even_if_not_the_one_reaching_target():
    # Cy reaches 50 but Bob's 71 is highest
    result = play(deal(WORKED, [3, 4, 2], 4), target=50)
    assert result.winners == [1]


def test_tie_for_highest_plays_on():
    # Cy deals; Ann declares 2 and makes it (20); Cy bid 1 and the defenders took 11 (10 + 10)
    result = play(deal([2, 0, 1], [2, 11, 0], 0, dealer=2), target=20, bag_limit=0)
    assert result.totals == [20, 11, 20]
    assert not result.finished and result.winners == [] and result.next_dealer == 0


def test_lose_at_ends_the_game():
    result = play(deal(WORKED, [3, 4, 2], 4), lose_at=-60)
    assert result.finished and result.winners == [1]


def test_lose_at_not_reached_plays_on():
    assert not play(deal(WORKED, [3, 4, 2], 4), lose_at=-61).finished


def test_no_lose_at_by_default():
    assert not play(deal([13, 0, 0], [0, 0, 0], 13, dealer=2)).finished  # Ann is set 130


def test_hand_after_the_end_is_refused():
    hand = deal(WORKED, [3, 4, 2], 4)
    assert problems(hand, hand, target=50) == ["hand 2: recorded after the game ended (it ended after hand 1)"]


# --- invalid hands -------------------------------------------------------------------------

@pytest.mark.parametrize("change, message", [
    ({"bids": [6, 14, 5]}, "bids[1] (Bob): must be 0 to 13, got 14"),
    ({"bids": [6, 7]}, "bids: must be a list of 3 numbers, one per seat, got [6, 7]"),
    ({"bids": [6, "7", 5]}, 'bids[1] (Bob): must be a whole number, got "7"'),
    ({"tricks": [3, -1, 2]}, "tricks[1] (Bob): must be 0 to 13, got -1"),
    ({"tricks": [3, 4, 3]}, "tricks add up to 14 with the dummy's 4, not 13"),
    ({"dummy_tricks": 14}, "dummy_tricks: must be 0 to 13, got 14"),
    ({"dummy_tricks": True}, "dummy_tricks: must be a whole number, got true"),
    ({"nils": [[], []]}, "nils: must be a list of 3 lists, one per seat, of the hands each player bid nil on, "
                         "got [[], []]"),
    ({"nils": [[], 1, []]}, 'nils[1] (Bob): must be a list of seat numbers and/or "dummy", got 1'),
    ({"nils": [[3], [], []]}, 'nils[0] (Ann): each entry must be a seat 0 to 2 or "dummy", got 3'),
    ({"nils": [[], ["Dummy"], []]}, 'nils[1] (Bob): each entry must be a seat 0 to 2 or "dummy", got "Dummy"'),
    ({"nils": [[], [], [0, 0]]}, "nils[2] (Cy): Ann's hand is listed twice"),
    ({"nils": [["dummy", "dummy"], [], []]}, "nils[0] (Ann): the dummy is listed twice"),
    ({"trump": "spades"}, 'unknown field "trump" for Dummy Hand Spades '
                          "(allowed: bids, dealer, dummy_tricks, nils, tricks)"),
])
def test_invalid_hand(change, message):
    assert problems({**deal(WORKED, [3, 4, 2], 4), **change}) == [f"hand 1: {message}"]


def test_missing_field():
    assert problems({"bids": WORKED, "tricks": [3, 4, 2]}) == ["hand 1: dummy_tricks: missing"]


def test_no_sum_check_when_a_count_is_wrong():
    assert problems(deal(WORKED, [3, 4, 20], 4)) == ["hand 1: tricks[2] (Cy): must be 0 to 13, got 20"]


def test_no_sum_check_when_dummy_tricks_is_wrong():
    assert problems(deal(WORKED, [3, 4, 2], -4)) == ["hand 1: dummy_tricks: must be 0 to 13, got -4"]


def test_every_problem_is_listed():
    found = problems(deal([6, 7, 99], [3, 4, 2], 5, [[], [], [7]]))
    assert found == ["hand 1: bids[2] (Cy): must be 0 to 13, got 99",
                     'hand 1: nils[2] (Cy): each entry must be a seat 0 to 2 or "dummy", got 7',
                     "hand 1: tricks add up to 14 with the dummy's 5, not 13"]


def test_problem_fields_point_at_the_input():
    with pytest.raises(MatchError) as error:
        play(deal(WORKED, [3, 4, 3], 4, [[9], [], []]))
    assert [p.field for p in error.value.hand_problems[1]] == ["nils", "tricks"]


# --- invalid settings ----------------------------------------------------------------------

@pytest.mark.parametrize("settings, message", [
    ({"target": 0}, "settings.target: must be at least 1, got 0"),
    ({"bag_limit": -1}, "settings.bag_limit: must be at least 0, got -1"),
    ({"bag_penalty": -5}, "settings.bag_penalty: must be at least 0, got -5"),
    ({"nil_value": 2.5}, "settings.nil_value: must be a whole number, got 2.5"),
    ({"lose_at": 200}, "settings.lose_at: must be at most -1, got 200"),
    ({"lose_at": 0}, "settings.lose_at: must be at most -1, got 0"),
    ({"peek": "five"}, 'settings.peek: must be one of "none", "three", "four", "flip", got "five"'),
    ({"peek": "flip", "flip_count": 5}, "settings.flip_count: must be 1 to 4, got 5"),
    ({"trump": "spades"}, 'settings: unknown setting "trump" for Dummy Hand Spades '
                          "(allowed: target, bag_limit, bag_penalty, nil_value, nil_tricks_count, lose_at, peek, flip_count)"),
])
def test_invalid_setting(settings, message):
    assert problems(**settings) == [message]


@pytest.mark.parametrize("peek", ["none", "three", "four", "flip"])
def test_peek_is_recorded_not_scored(peek):
    assert play(deal(WORKED, [3, 4, 2], 4), peek=peek).hands[0].scores == [-60, 71, 50]


# --- trick referee ---------------------------------------------------------------------------

@pytest.mark.parametrize("cards, winner, reason", [
    (["KH", "AH", "2D", "3C"], 1, "No spade was played, so the highest heart (the suit led) wins: A♥ (played 2nd)."),
    (["KH", "QH", "2S", "AH"], 2, "Spades are trump: 2♠ (played 3rd) is the only spade, so it beats the hearts led."),
    (["KH", "3S", "2S", "AH"], 1, "Spades are trump: 3♠ (played 2nd) is the highest spade, so it beats the hearts led."),
    (["5S", "AS", "AH", "KS"], 1, "Spades were led and A♠ (played 2nd) is the highest spade, so it wins."),
    (["9D", "AC", "AH", "KH"], 0, "No spade was played and nobody else followed with a diamond, "
                                  "so the card led, 9♦, wins."),
    (["9C", "10C", "JD", "2C"], 1, "No spade was played, so the highest club (the suit led) wins: 10♣ (played 2nd)."),
    (["QD", "KD", "JD", "AD"], 3, "No spade was played, so the highest diamond (the suit led) wins: A♦ (played 4th)."),
])
def test_trick_winner(cards, winner, reason):
    assert trick_winner(cards) == (winner, reason)


@pytest.mark.parametrize("cards, message", [
    (["AS", "KS", "QS"], "a trick has 4 cards (three players and the dummy), got 3"),
    (["AS", "KS", "QS", "JS", "10S"], "a trick has 4 cards (three players and the dummy), got 5"),
    (["AS", "KS", "QS", "1S"], 'unknown card "1S"'),
    (["AS", "KS", "QS", "js"], 'unknown card "js"'),
    (["AS", "KS", "QS", 10], "unknown card 10"),
    (["AS", "KS", "AS", "JS"], "A♠ is in the trick twice, but the deck has only one"),
])
def test_trick_winner_refuses_bad_tricks(cards, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        trick_winner(cards)


def test_trick_cards_are_one_deck_spades_first():
    assert len(TRICK_CARDS) == len(set(TRICK_CARDS)) == 52
    assert TRICK_CARDS[:3] == ["AS", "KS", "QS"] and TRICK_CARDS[-1] == "2C"


@pytest.mark.parametrize("card, label", [("AS", "A♠"), ("10H", "10♥"), ("QD", "Q♦"), ("2C", "2♣")])
def test_card_label(card, label):
    assert card_label(card) == label


# --- properties ---------------------------------------------------------------------------------

@st.composite
def valid_hands(draw):
    cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
    counts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]
    holders = st.sampled_from([0, 1, 2, "dummy"])
    nils = draw(st.lists(st.lists(holders, unique=True, max_size=4), min_size=3, max_size=3))
    return {"bids": draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)),
            "tricks": counts[:3], "dummy_tricks": counts[3], "nils": nils,
            "dealer": draw(st.integers(0, 2))}


@hyp_settings(max_examples=60, deadline=None)
@given(st.lists(valid_hands(), min_size=1, max_size=4))
def test_bags_stay_under_limit_and_declarer_bid_highest(hands):
    result = play(*hands, target=10_000)
    for hand, scored in zip(hands, result.hands):
        assert all(0 <= bags < 10 for bags in scored.extra.bags)
        assert hand["bids"][scored.extra.declarer] == max(hand["bids"])


@hyp_settings(max_examples=60, deadline=None)
@given(valid_hands())
def test_declarer_and_a_defender_cannot_both_make_more_than_13(hand):
    # the two teams share 13 tricks, so a made contract (score >= 0) on each side fits in 13
    scored = play({**hand, "nils": [[], [], []]}, bag_limit=0).hands[0]
    declarer = scored.extra.declarer
    for defender in {0, 1, 2} - {declarer}:
        if scored.scores[declarer] >= 0 and scored.scores[defender] >= 0:
            assert hand["bids"][declarer] + hand["bids"][defender] <= 13


@hyp_settings(max_examples=60, deadline=None)
@given(valid_hands())
def test_nils_only_add_whole_nil_values(hand):
    with_nils = play(hand, bag_limit=0).hands[0].scores
    without = play({**hand, "nils": [[], [], []]}, bag_limit=0).hands[0].scores
    for seat in range(3):
        change = with_nils[seat] - without[seat]
        assert change % 100 == 0 and abs(change) <= 100 * len(hand["nils"][seat])
        # a nil on one's own hand always applies, so it always moves the score
        if hand["nils"][seat] == [seat]:
            assert abs(change) == 100


# --- nil_tricks_count (rules.md: Team tricks) ---------------------------------------

def test_nil_tricks_left_out_of_own_contract_when_the_setting_is_off():
    # Ann deals; Bob bids 7 and declares. Bob also bid nil on the dummy, which took 2.
    nils = [[], ["dummy"], []]
    on = play(deal(WORKED, [3, 4, 2], 4, nils))
    off = play(deal(WORKED, [3, 4, 2], 4, nils), nil_tricks_count=False)
    # On: Bob's team took 4 + 4 = 8 of 7; the nil fails (-100): 71 - 100.
    assert on.hands[0].scores[1] == 71 - 100
    # Off: only Bob's own 4 count for Bob's contract of 7: -70, and the failed nil -100.
    assert off.hands[0].scores[1] == -70 - 100
    assert off.hands[0].extra.bags[1] == 0
    # The line says every trick Bob's team took, then which of them count (rules.md "Every line is true").
    assert ("Bob and the dummy took 8; 4 count toward Bob's bid of 7, the 4 of the dummy's nil hand do not, "
            "so the contract failed: -70") in off.hands[0].explanation
    # Other players' team tricks are not affected by Bob's nil.
    assert off.hands[0].scores[0] == on.hands[0].scores[0]
    assert off.hands[0].scores[2] == on.hands[0].scores[2]


def test_a_nil_that_does_not_count_leaves_the_tricks_in():
    nils = [[], [0], []]  # Bob (declarer) bid nil on Ann's hand, a defender's: not applied
    on = play(deal(WORKED, [3, 4, 2], 4, nils))
    off = play(deal(WORKED, [3, 4, 2], 4, nils), nil_tricks_count=False)
    assert off.hands[0].scores == on.hands[0].scores


@given(st.lists(st.integers(0, 13), min_size=3, max_size=3),
       st.lists(st.integers(0, 13), min_size=3, max_size=3).map(sorted).map(
           lambda cut: [cut[0], cut[1] - cut[0], cut[2] - cut[1], 13 - cut[2]]),  # four hands, 13 tricks
       st.lists(st.sampled_from([[], [0], [1], [2], ["dummy"], [0, "dummy"], [1, 2]]), min_size=3, max_size=3))
@hyp_settings(max_examples=150, deadline=None)
def test_nil_tricks_count_off_only_changes_players_whose_counting_nil_hand_took_tricks(bids, tricks, nils):
    hand = deal(bids, tricks[:3], tricks[3], nils)
    on, off = play(hand).hands[0], play(hand, nil_tricks_count=False).hands[0]
    declarer = on.extra.declarer
    for seat in range(3):
        team = (seat, "dummy") if seat == declarer else tuple(s for s in range(3) if s != declarer)
        left_out = [h for h in nils[seat] if h in team]
        took = sum(tricks[3] if h == "dummy" else tricks[h] for h in left_out)
        if took == 0:  # nothing left out: scored exactly as today
            assert off.scores[seat] == on.scores[seat]
            assert off.extra.bags[seat] == on.extra.bags[seat]
        else:  # the contract line says every trick the team took, and how many did not count
            assert any(f" took {took + off_counted(hand, seat, team, took)}; " in line
                       and f"toward {PLAYERS[seat]}'s bid of {bids[seat]}" in line for line in off.explanation)


def off_counted(hand, seat, team, left_out_tricks):
    """The tricks that count toward the contract of ``seat``: the team's, less the nil hands'."""
    return sum(hand["dummy_tricks"] if h == "dummy" else hand["tricks"][h] for h in team) - left_out_tricks


# --- a team bid of 0 -------------------------------------------------------------------

def test_a_team_bid_of_zero_without_nil_is_scored_but_warned():
    result = play(deal([0, 7, 5], [3, 4, 2], 4))
    assert result.hands[0].scores[0] == 5  # a contract of 0: the defenders took 3 + 2, 5 over
    assert result.hands[0].warnings == ["A team bid of 0 is a contract, not a nil: tick Nil for Ann's own "
                                        "hand if that is what Ann bid"]
    assert play(deal([0, 7, 5], [0, 4, 5], 4, [[0], [], []])).hands[0].warnings == []


# --- what happens next ----------------------------------------------------------------

def test_lose_at_with_a_tie_at_the_top_plays_on_and_says_why():
    # Ann deals, Bob declares 7 and fails; Ann and Cy defend and both make 5: tied on 50.
    result = play(deal([5, 7, 5], [4, 2, 3], 4), lose_at=-50)
    assert not result.finished
    assert result.hands[0].explanation[-1] == (
        "Bob is at -70, at or below -50, but Ann and Cy are tied on 52 at the top: another hand is dealt. "
        "Bob deals next: the deal passes left.")


def test_reaching_the_target_names_the_winner():
    result = play(deal(WORKED, [3, 4, 2], 4), target=70)
    # the winner and the total are said once (not "Bob reached 70 with 71, and Bob has the highest total, 71")
    assert result.hands[0].explanation[-1] == "Game over: Bob reached 70 with 71 and wins."
