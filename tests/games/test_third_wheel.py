"""Third Wheel: scoring, settings, end of game and the trick referee (rules.md section 2)."""
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from scorekeeper.engine import Match, MatchError, replay
from scorekeeper.games.third_wheel import CARDS, DECK, SUITS, TRICK_CARDS, ThirdWheel, card_label, trick_winner
from tests.places import dealt_place

PLAYERS = ["Ann", "Bob", "Cy"]
DECKTET_JSON = Path(__file__).resolve().parents[3] / "shared" / "spec" / "decktet.json"


def hand(bid, tricks, wheel=False, trump="wyrms", mode="high", **more):
    return {"trump": trump, "mode": mode, "wheel": wheel, "bid": bid, "tricks": tricks, **more}


def play(*hands, first_dealer=0, **settings):
    return replay(Match("third_wheel", PLAYERS, settings, first_dealer, list(hands)))


def problems(*hands, **settings):
    with pytest.raises(MatchError) as error:
        play(*hands, **settings)
    return error.value.problems


def scores(bid, tricks, **settings):
    return play(hand(bid, tricks), **settings).hands[0].scores


# --- scoring ------------------------------------------------------------------

@pytest.mark.parametrize("bid, tricks, expected", [
    (5, [5, 4, 2], [9, 0, 2]),   # exact
    (5, [3, 2, 6], [0, 7, 5]),   # missed
    (4, [7, 1, 3], [4, 6, 0]),   # over
])
def test_worked_examples_from_the_text(bid, tricks, expected):
    assert scores(bid, tricks) == expected


@pytest.mark.parametrize("bid, tricks, expected", [
    (0, [0, 5, 6], [11, 5, 0]),   # bid 0 made scores exactly 11, not 0 + tM
    (11, [11, 0, 0], [22, 0, 0]),  # bid 11 made scores 22; setters tie on 0
    (6, [6, 5, 0], [11, 0, 0]),   # F took none
    (11, [10, 1, 0], [0, 11, 11]),  # missed: F adds its 0 tricks
    (0, [2, 4, 5], [0, 7, 0]),    # over a 0 bid: dealer scores the bid, 0
])
def test_scoring_cases(bid, tricks, expected):
    assert scores(bid, tricks) == expected


@pytest.mark.parametrize("dealer_rule, setter_rule, expected", [
    ("bid", "other_setter", [4, 6, 0]),
    ("bid", "own_tricks", [4, 4, 0]),
    ("penalty", "other_setter", [1, 6, 0]),
    ("penalty", "own_tricks", [1, 4, 0]),
])
def test_overtrick_settings(dealer_rule, setter_rule, expected):
    got = scores(4, [7, 1, 3], overtrick_dealer=dealer_rule, overtrick_setter=setter_rule)
    assert got == expected


def test_penalty_example_from_the_text():
    assert scores(4, [6, 2, 3], overtrick_dealer="penalty")[0] == 2


def test_penalty_can_go_negative():
    assert scores(0, [3, 4, 4], overtrick_dealer="penalty")[0] == -3


@pytest.mark.parametrize("overtrick_setter", ["other_setter", "own_tricks"])
def test_overtrick_settings_do_not_touch_exact_or_missed_bids(overtrick_setter):
    settings = {"overtrick_dealer": "penalty", "overtrick_setter": overtrick_setter}
    assert scores(5, [5, 4, 2], **settings) == [9, 0, 2]
    assert scores(5, [3, 2, 6], **settings) == [0, 7, 5]


@pytest.mark.parametrize("bid, tricks, expected", [
    (3, [3, 4, 4], [7, 2, 2]),    # exact: half of tF=4; dealer still b + tM
    (5, [5, 3, 3], [8, 1, 1]),    # exact: half of 3 rounds down
    (6, [3, 4, 4], [0, 8, 8]),    # missed: b + half of 4
    (7, [1, 5, 5], [0, 9, 9]),    # missed: 7 + floor(5/2)
    (2, [5, 3, 3], [2, 3, 3]),    # over: half of (3 + 3)
    (1, [3, 4, 4], [1, 3, 3]),    # over: half of (4 + 2)
])
def test_tied_setters_share_half_rounded_down(bid, tricks, expected):
    assert scores(bid, tricks) == expected


def test_tied_setters_are_the_same_under_own_tricks():
    assert scores(1, [3, 4, 4], overtrick_setter="own_tricks") == [1, 3, 3]


def test_setters_are_found_from_the_dealer():
    # Bob deals: Cy is setter 1, Ann setter 2; the tricks list stays in seat order.
    result = play(hand(5, [4, 5, 2]), first_dealer=1)
    assert result.hands[0].dealer == 1
    assert result.hands[0].scores == [0, 9, 2]


def test_wheel_trump_and_mode_do_not_change_the_score():
    plain = scores(6, [6, 3, 2])
    other = play(hand(6, [6, 3, 2], wheel=True, trump="moons", mode="low")).hands[0].scores
    assert plain == other == [9, 0, 2]


def test_no_extra_output_fields():
    assert play(hand(5, [5, 4, 2])).hands[0].extra.as_json() == {}


# --- explanation ----------------------------------------------------------------

def test_exact_explanation_names_players_and_arithmetic():
    lines = play(hand(5, [5, 4, 2])).hands[0].explanation
    assert "Ann bid 5 and took exactly 5: 5 + 4 (Bob, the setter with more tricks) = 9" in lines
    assert "Cy, the setter with fewer tricks, scores their 2 tricks: 2" in lines
    assert "Bob, the setter with more tricks, scores 0" in lines


def test_missed_explanation():
    lines = play(hand(5, [3, 2, 6])).hands[0].explanation
    assert "Ann bid 5 but took only 3, so the bid missed: 0" in lines
    assert "Bob, the setter with fewer tricks, scores the bid plus their own tricks: 5 + 2 = 7" in lines
    assert "Cy, the setter with more tricks, scores the bid: 5" in lines


def test_over_explanation_with_both_variants():
    lines = play(hand(4, [7, 1, 3]), overtrick_dealer="penalty",
                 overtrick_setter="own_tricks").hands[0].explanation
    assert "Ann bid 4 but took 7, 3 over the bid: the bid minus the overtricks, 4 - 3 = 1" in lines
    assert "Bob, the setter with fewer tricks, scores their own 1 trick plus 3 over the bid: 1 + 3 = 4" in lines


def test_tied_explanation():
    lines = play(hand(6, [3, 4, 4])).hands[0].explanation
    assert "Bob and Cy both took 4 tricks, so each scores the bid plus half of 4, rounded down: 6 + 2 = 8" in lines


def test_tied_over_explanation():
    lines = play(hand(2, [5, 3, 3])).hands[0].explanation
    assert "Bob and Cy both took 3 tricks, so each scores half of (3 tricks + 3 over = 6), rounded down: 3" in lines


def test_explanation_opens_with_the_deal_and_tricks():
    line = play(hand(6, [6, 3, 2], wheel=True)).hands[0].explanation[0]
    assert line == "Ann dealt, took the Wheel and bid 6; tricks: Ann 6, Bob 3, Cy 2"


@pytest.mark.parametrize("bid, tricks", [(5, [5, 4, 2]), (5, [3, 2, 6]), (4, [7, 1, 3]), (6, [3, 4, 4])])
def test_explanation_accounts_for_every_player(bid, tricks):
    result = play(hand(bid, tricks)).hands[0]
    outcome = " ".join(result.explanation[1:])
    for name, points in zip(PLAYERS, result.scores):
        assert name in outcome and str(points) in outcome
    assert not any(word in outcome for word in (" his ", " her "))


# --- dealer and end of game -------------------------------------------------------

def test_deal_passes_clockwise_and_wraps():
    result = play(hand(5, [5, 4, 2]), hand(5, [5, 4, 2]), first_dealer=1)
    assert [h.dealer for h in result.hands] == [1, 2]
    assert result.next_dealer == 0


def test_an_out_of_turn_dealer_continues_the_rotation():
    result = play(hand(5, [4, 2, 5], dealer=2))
    assert result.hands[0].scores == [0, 2, 9]
    assert result.next_dealer == 0


# Each dealer bids 0 and takes 1: the tied setters score half of (5 + 1) = 3 each.
ROUND = [hand(0, [1, 5, 5]), hand(0, [5, 1, 5]), hand(0, [5, 5, 1])]


def test_game_ends_after_everyone_dealt_deals_each_times():
    result = play(*ROUND * 2, target=0)
    assert result.finished and result.next_dealer is None


def test_game_goes_on_before_the_last_deal():
    result = play(*(ROUND * 2)[:5], target=0)
    assert not result.finished and result.winners == [] and result.next_dealer == 2


def test_deals_each_setting_changes_the_length():
    assert not play(*ROUND * 2, deals_each=3, target=0).finished
    assert play(*ROUND, deals_each=1, target=0).finished


def test_players_tied_for_highest_share_the_win():
    result = play(*ROUND * 2)
    assert result.totals == [12, 12, 12]
    assert result.winners == [0, 1, 2]


def test_highest_total_wins_at_the_deal_limit():
    result = play(hand(5, [5, 4, 2]), hand(5, [2, 5, 4]), hand(5, [6, 0, 5]), deals_each=1)
    assert result.totals == [11, 9, 13]
    assert result.winners == [2]


def test_reaching_the_target_ends_the_game():
    result = play(hand(11, [11, 0, 0]), target=22, deals_each=0)
    assert result.finished and result.winners == [0]


def test_target_reached_in_a_tie_is_shared():
    result = play(hand(11, [11, 0, 0]), hand(11, [0, 11, 0]), hand(11, [5, 5, 1]), target=30)
    assert result.totals == [35, 35, 0] and result.winners == [0, 1]


def test_below_target_plays_on_without_deal_limit():
    result = play(*[hand(5, [5, 4, 2])] * 7, deals_each=0, target=100)
    assert not result.finished


def test_a_hand_after_the_end_is_refused():
    assert problems(*ROUND * 2, ROUND[0]) == [
        "hand 7: recorded after the game ended (it ended after hand 6)"]


# --- invalid hands -----------------------------------------------------------------

@pytest.mark.parametrize("bad, message", [
    (hand(5, [5, 4, 2], trump="spades"),
     'trump: must be one of "moons", "suns", "waves", "leaves", "wyrms", "knots", got "spades"'),
    (hand(5, [5, 4, 2], mode="HIGH"), 'mode: must be one of "high", "low", got "HIGH"'),
    (hand(5, [5, 4, 2], wheel="yes"), 'wheel: must be true or false, got "yes"'),
    (hand(12, [5, 4, 2]), "bid: must be 0 to 11, got 12"),
    (hand(-1, [5, 4, 2]), "bid: must be 0 to 11, got -1"),
    (hand("5", [5, 4, 2]), 'bid: must be a whole number, got "5"'),
    (hand(5.0, [5, 4, 2]), "bid: must be a whole number, got 5.0"),
    (hand(3, [3, 4, 4], wheel=True), "bid: a dealer who took the Wheel must bid 0 or 6 to 11, got 3"),
    (hand(5, [5, 4, 3]), "tricks add up to 12, not 11"),
    (hand(5, [5, 4]), "tricks: must be a list of 3 numbers, one per seat, got [5, 4]"),
    (hand(5, [5, -1, 7]), "tricks[1] (Bob): must be 0 to 11, got -1"),
    (hand(5, [5, True, 5]), "tricks[1] (Bob): must be a whole number, got true"),
])
def test_invalid_hand_messages(bad, message):
    assert problems(bad) == [f"hand 1: {message}"]


def test_no_sum_check_when_a_count_is_bad():
    assert problems(hand(5, [12, 4, 2])) == ["hand 1: tricks[0] (Ann): must be 0 to 11, got 12"]


def test_every_problem_of_a_hand_is_listed():
    found = problems(hand(3, [5, 4, 3], wheel=True, mode="middle"))
    assert len(found) == 3 and all(line.startswith("hand 1: ") for line in found)


@pytest.mark.parametrize("bid", [0, 6, 11])
def test_wheel_bids_allowed(bid):
    tricks = [bid, 11 - bid, 0]
    assert play(hand(bid, tricks, wheel=True)).hands[0].scores[0] > 0


def test_missing_and_unknown_fields():
    bad = {"trump": "moons", "mode": "low", "bid": 5, "tricks": [5, 4, 2], "points": 3}
    found = problems(bad)
    assert "hand 1: wheel: missing" in found
    assert any(line.startswith('hand 1: unknown field "points"') for line in found)


# --- settings ------------------------------------------------------------------------

def test_settings_and_defaults():
    result = play()
    assert result.settings == {"overtrick_dealer": "bid", "overtrick_setter": "other_setter",
                               "deals_each": 2, "target": 33}
    assert [s.name for s in ThirdWheel.settings] == list(result.settings)


@pytest.mark.parametrize("settings, message", [
    ({"deals_each": 0, "target": 0},
     "settings: deals_each and target are both 0, so the game would never end; set at least one of them"),
    ({"deals_each": -1}, "settings.deals_each: must be at least 0, got -1"),
    ({"target": "33"}, 'settings.target: must be a whole number, got "33"'),
    ({"overtrick_dealer": "lose"}, 'settings.overtrick_dealer: must be one of "bid", "penalty", got "lose"'),
    ({"overtrick_setter": "own"},
     'settings.overtrick_setter: must be one of "other_setter", "own_tricks", got "own"'),
])
def test_invalid_settings(settings, message):
    assert problems(**settings) == [message]


@pytest.mark.parametrize("settings", [{"deals_each": 0}, {"target": 0}])
def test_either_end_rule_alone_is_fine(settings):
    assert not play(**settings).finished


def test_wrong_number_of_players():
    with pytest.raises(MatchError) as error:
        replay(Match("third_wheel", ["Ann", "Bob"]))
    assert error.value.problems == ["players: Third Wheel needs exactly 3 players, got 2"]


# --- trick referee ---------------------------------------------------------------------

@pytest.mark.parametrize("cards, trump, mode, winner", [
    # The text's example: Wyrms trump, Ace of Wyrms, 4 Leaves/Waves, 9 Wyrms/Waves.
    (["Ace of Wyrms", "The Sailor", "The Darkness"], "wyrms", "high", 2),
    (["Ace of Wyrms", "The Sailor", "The Darkness"], "wyrms", "low", 0),
    # A card is a trump through either of its suits, even played as a follow.
    (["Ace of Wyrms", "The Huntress", "The Battle"], "knots", "high", 2),
    # Any trump beats the led suit, high or low.
    (["The Sea", "The Cave", "Ace of Suns"], "suns", "high", 2),
    (["Ace of Waves", "The Cave", "The Bard"], "suns", "low", 2),
    # Best of several trumps: high rank in high, low rank in low.
    (["The Castle", "The Bard", "Ace of Suns"], "suns", "high", 1),
    (["The Castle", "The Bard", "Ace of Suns"], "suns", "low", 2),
    # No trump: a card follows by sharing either led suit; off-suit cards lose whatever their rank.
    (["The Journey", "The Sea", "The Huntress"], "knots", "high", 1),
    (["The Journey", "The End", "The Calamity"], "knots", "high", 0),
    (["The Lunatic", "Ace of Moons", "Ace of Leaves"], "knots", "low", 1),
    (["The Lunatic", "The Origin", "Ace of Leaves"], "knots", "low", 1),
    # Ace is 1 and Crown 10.
    (["Ace of Moons", "The Huntress", "The Pact"], "knots", "high", 1),
    (["The Huntress", "Ace of Moons", "The Pact"], "knots", "low", 1),
])
def test_trick_winner(cards, trump, mode, winner):
    assert trick_winner(cards, trump=trump, mode=mode)[0] == winner


@pytest.mark.parametrize("mode, winner", [("high", 1), ("low", 0)])
def test_equal_ranks_go_to_the_earlier_card(mode, winner):
    # The Mountain (4, Moons/Suns) and The Sailor (4, Waves/Leaves) both follow The Journey.
    index, reason = trick_winner(["The Journey", "The Mountain", "The Sailor"], "knots", mode)
    assert index == winner
    if mode == "high":
        assert "played earlier" in reason


def test_equal_ranks_when_the_later_card_is_listed_first():
    assert trick_winner(["The Journey", "The Sailor", "The Mountain"], "knots", "high")[0] == 1


def test_reason_names_the_winner_and_why():
    _, reason = trick_winner(["Ace of Wyrms", "The Sailor", "The Darkness"], "wyrms", "high")
    assert reason.startswith("The Darkness (played third) is the highest trump (Wyrms) in a high hand: 9")
    assert "The Sailor cannot win" in reason


def test_reason_for_an_off_suit_card():
    _, reason = trick_winner(["The Journey", "The End", "The Calamity"], "knots", "high")
    assert "The Journey (led) is the only card sharing a suit with the led card (Moons/Waves)" in reason
    assert "The End and The Calamity cannot win" in reason


@pytest.mark.parametrize("cards, trump, mode, message", [
    (["The Journey", "The End"], "knots", "high", "a Third Wheel trick has 3 cards, one per player, got 2"),
    (["The Journey", "The End", "The Sea", "The Bard"], "knots", "high", "got 4"),
    (["The Journey", "The End", "Queen of Hearts"], "knots", "high", 'unknown card "Queen of Hearts"'),
    (["The Journey", "The End", "The Journey"], "knots", "high", "The Journey played twice"),
    (["The Journey", "The End", "The Sea"], "hearts", "high", 'trump must be one of moons'),
    (["The Journey", "The End", "The Sea"], "knots", "middle", 'mode must be "high" or "low", got "middle"'),
])
def test_trick_winner_refuses_bad_input(cards, trump, mode, message):
    with pytest.raises(ValueError, match=message):
        trick_winner(cards, trump=trump, mode=mode)


def test_trick_cards_offer_the_whole_deck_once():
    assert len(TRICK_CARDS) == len(set(TRICK_CARDS)) == 36
    assert set(TRICK_CARDS) == set(CARDS)


@pytest.mark.parametrize("card, label", [
    ("The Author", "The Author (2, Moons/Knots)"),
    ("Ace of Moons", "Ace of Moons (1)"),
    ("The Windfall", "The Windfall (10, Knots)"),
])
def test_card_label(card, label):
    assert card_label(card) == label


@pytest.mark.skipif(not DECKTET_JSON.exists(), reason="shared/spec/decktet.json not present")
def test_deck_matches_the_shared_decktet_file():
    data = json.loads(DECKTET_JSON.read_text())
    assert list(SUITS) == data["suits"]
    assert [(c.name, c.rank, list(c.suits)) for c in DECK] == [
        (c["name"], c["rank"], c["suits"]) for c in data["cards"]]


# --- properties ----------------------------------------------------------------------

@st.composite
def valid_hands(draw):
    wheel = draw(st.booleans())
    bid = draw(st.sampled_from([0, 6, 7, 8, 9, 10, 11]) if wheel else st.integers(0, 11))
    took = draw(st.integers(0, 11))
    first = draw(st.integers(0, 11 - took))
    return hand(bid, [took, first, 11 - took - first], wheel=wheel,
                trump=draw(st.sampled_from(SUITS)), mode=draw(st.sampled_from(["high", "low"])))


@given(valid_hands())
@hsettings(max_examples=150, deadline=None)
def test_default_scores_follow_the_shape_of_the_rules(one):
    got = play(one, deals_each=0, target=1000).hands[0].scores
    bid, (took, s1, s2) = one["bid"], one["tricks"]
    fewer, more = (1, 2) if s1 < s2 else (2, 1)
    assert min(got) >= 0
    assert got[fewer] >= got[more]  # the setter with fewer tricks never does worse
    if s1 == s2:
        assert got[1] == got[2]
    elif took < bid:
        assert got[more] == bid and got[0] == 0
    else:
        assert got[more] == 0
    if took > bid:
        assert got[0] == bid


@given(valid_hands())
@hsettings(max_examples=100, deadline=None)
def test_penalty_dealer_loses_one_per_overtrick(one):
    plain = play(one, target=1000).hands[0].scores
    penalty = play(one, target=1000, overtrick_dealer="penalty").hands[0].scores
    over = max(0, one["tricks"][0] - one["bid"])
    assert penalty[0] == plain[0] - over and penalty[1:] == plain[1:]


@given(st.permutations(DECK).map(lambda deck: [c.name for c in deck[:3]]),
       st.sampled_from(SUITS), st.sampled_from(["high", "low"]))
@hsettings(max_examples=200, deadline=None)
def test_referee_winner_is_a_trump_or_follows(cards, trump, mode):
    index, reason = trick_winner(cards, trump, mode)
    played = [CARDS[name] for name in cards]
    winner = played[index]
    if any(trump in card.suits for card in played):
        assert trump in winner.suits
    else:
        assert set(winner.suits) & set(played[0].suits)
    assert winner.name in reason


# --- deals_each counts each player's deals (rules.md: End) -------------------------

def test_a_deal_out_of_turn_lengthens_the_game_until_everyone_has_dealt():
    # Ann deals, then Ann deals again out of turn: Bob and Cy have still to deal once.
    first, again = hand(5, [5, 4, 2]), hand(5, [5, 4, 2], dealer=0)
    assert not play(first, again, deals_each=1, target=0).finished
    three = play(first, again, hand(5, [5, 4, 2]), deals_each=1, target=0)
    assert not three.finished
    # the usual 3 hands are dealt: the last line says why the game goes on
    assert three.hands[-1].explanation[-1] == ("Every player deals once and Cy has not dealt yet: the game goes on. "
                                               "Cy deals next: the deal passes left.")
    result = play(first, again, hand(5, [5, 4, 2]), hand(5, [5, 4, 2]), deals_each=1, target=0)
    assert result.finished
    assert [h.dealer for h in result.hands] == [0, 0, 1, 2]
    # Ann dealt twice: "every player has dealt once" would not be true
    assert result.hands[-1].explanation[-1] == ("Game over: every player has dealt at least once (Ann twice), "
                                                "and Ann wins with 28.")


def test_three_deals_in_turn_end_a_one_deal_game_with_the_reason():
    result = play(hand(5, [5, 4, 2]), hand(5, [2, 5, 4]), hand(5, [4, 2, 5]), deals_each=1, target=0)
    assert result.finished
    assert result.hands[0].explanation[-1] == "Bob deals next: the deal passes left."
    assert result.hands[-1].explanation[-1].startswith("Game over: every player has dealt once, and ")


def test_hands_left_counts_the_deals_still_owed():
    game = ThirdWheel()
    assert game.rules.hands_left(dealt_place(game, {"deals_each": 2}, [0, 0, 0], 0)) == 6
    assert game.rules.hands_left(dealt_place(game, {"deals_each": 1}, [2, 0, 0], 1)) == 2   # Ann dealt twice, out of turn
    assert game.rules.hands_left(dealt_place(game, {"deals_each": 1}, [1, 0, 0], 2)) == 3   # Cy, then Ann (no need), then Bob
    assert game.rules.hands_left(dealt_place(game, {"deals_each": 0}, [1, 1, 1], 0)) is None
    assert game.rules.hands_left(dealt_place(game, {"deals_each": 10**6}, [0, 0, 0], 0)) == 3 * 10**6  # counted, not dealt out one by one


@given(st.lists(st.integers(0, 4), min_size=3, max_size=3), st.integers(0, 2), st.integers(1, 4))
def test_hands_left_is_what_dealing_in_turn_takes(dealt, next_dealer, deals_each):
    counts, seat, hands = list(dealt), next_dealer, 0
    while any(count < deals_each for count in counts):
        counts[seat] += 1
        hands += 1
        seat = (seat + 1) % 3
    assert ThirdWheel().rules.hands_left(dealt_place(ThirdWheel(), {"deals_each": deals_each}, dealt, next_dealer)) == hands


@given(st.lists(st.integers(0, 2) | st.none(), min_size=1, max_size=12), st.integers(1, 3))
@hsettings(max_examples=60, deadline=None)
def test_the_game_ends_exactly_when_every_player_has_dealt_enough(dealers, deals_each):
    hands = []
    for dealer in dealers:
        extra = {} if dealer is None else {"dealer": dealer}
        hands.append(hand(5, [5, 4, 2], **extra))
        try:
            result = play(*hands, deals_each=deals_each, target=0)
        except MatchError:
            return  # a hand recorded after the game ended: the end came earlier, checked then
        dealt = [sum(1 for h in result.hands if h.dealer == seat) for seat in range(3)]
        assert result.finished == all(count >= deals_each for count in dealt)


def test_a_target_end_names_who_reached_it_and_a_shared_win():
    result = play(hand(11, [11, 0, 0]), target=22, deals_each=0)
    assert result.hands[0].explanation[-1] == "Game over: Ann reached 22 with 22 and wins."
    tied = play(hand(5, [3, 2, 6]), target=5, deals_each=0)  # missed: Bob 7, Cy 5
    assert tied.hands[0].explanation[-1].startswith("Game over: Bob and Cy reached 5 (Bob 7, Cy 5): Bob has the "
                                                    "highest total and wins")
