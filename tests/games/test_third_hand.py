"""Third Hand (rules.md section 1): scoring, rulings, hand checks, end of game and
the trick referee."""
import re

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from scorekeeper.engine import Match, MatchError, replay
from scorekeeper.games.third_hand import (
    POSSIBLE_POINTS,
    RANKS,
    TRICK_CARDS,
    card_label,
    check_capture_counts,
    high_rank_for,
    points_from_counts,
    trick_winner,
)

PLAYERS = ["Ann", "Bob"]


def hand(bids=(None, None), points=(60, 60), trump="hearts", **more):
    return {"bids": list(bids), "trump": trump, "points": list(points), **more}


def play(*hands, settings=None, first_dealer=0):
    return replay(Match(game="third_hand", players=PLAYERS, settings=settings or {},
                        first_dealer=first_dealer, hands=list(hands)))


def problems(*hands, settings=None):
    with pytest.raises(MatchError) as caught:
        play(*hands, settings=settings)
    return caught.value.problems


# --- scoring (Ann deals hand 1, so Bob bids first) ------------------------------

@pytest.mark.parametrize("bids, points, scores, extra", [
    # no contract: each scores own points
    ([None, None], [80, 60], [80, 60], {"holder": None, "made": None, "doubled": False}),
    # made: 80 + (80 - 60)
    ([None, "Q"], [60, 80], [60, 100], {"holder": 1, "made": True, "doubled": False}),
    # made, doubled: 80 + 2 * (80 - 60)
    (["Q", "10"], [80, 60], [120, 60], {"holder": 0, "made": True, "doubled": True}),
    # failed: 80 - (80 - 60), A needs 85
    ([None, "A"], [60, 80], [60, 60], {"holder": 1, "made": False, "doubled": False}),
    # failed, doubled: 80 - 2 * (80 - 60)
    (["A", "9"], [80, 60], [40, 60], {"holder": 0, "made": False, "doubled": True}),
    # exactly the value (9: 60) is made, and the difference is added even when behind
    ([None, "9"], [80, 60], [80, 80], {"holder": 1, "made": True, "doubled": False}),
    # the dealer bids on a non-dealer's pass
    (["J", None], [80, 60], [100, 60], {"holder": 0, "made": True, "doubled": False}),
])
def test_scoring_cases(bids, points, scores, extra):
    result = play(hand(bids, points))
    assert result.hands[0].scores == scores
    assert result.hands[0].extra.as_json() == extra


@pytest.mark.parametrize("rank, made, failed", [
    # the fewest card points that make each default value, and the most that fall short
    ("9", [40, 60], [80, 59]),   # 60
    ("10", [33, 67], [40, 64]),  # 65: 65 and 66 cannot be taken at all
    ("J", [30, 70], [60, 69]),   # 70
    ("Q", [24, 76], [40, 73]),   # 75
    ("K", [20, 80], [60, 79]),   # 80
    ("A", [13, 87], [20, 84]),   # 85
])
def test_default_contract_values(rank, made, failed):
    just_made = play(hand([None, rank], made)).hands[0]
    just_failed = play(hand([None, rank], failed)).hands[0]
    assert (just_made.extra.made, just_failed.extra.made) == (True, False)


def test_contract_values_setting_changes_the_target_points():
    values = {"9": 0, "10": 10, "J": 20, "Q": 30, "K": 40, "A": 140}
    result = play(hand([None, "A"], [0, 140]), settings={"contract_values": values})
    assert result.hands[0].scores == [0, 280]
    assert result.hands[0].extra.made is True


def test_settings_defaults_are_filled_in():
    assert play().settings == {"target": 500, "contract_values":
                               {"9": 60, "10": 65, "J": 70, "Q": 75, "K": 80, "A": 85}}


def test_exchange_is_recorded_but_not_scored():
    swapped = play(hand([None, "Q"], [60, 80], exchanged=True)).hands[0]
    kept = play(hand([None, "Q"], [60, 80], exchanged=False)).hands[0]
    assert swapped.scores == kept.scores == [60, 100]
    assert "Bob swapped hands with the third hand" in swapped.explanation[1]


# --- explanation -----------------------------------------------------------------

def test_explanation_of_a_doubled_contract():
    assert play(hand(["Q", "10"], [80, 60], trump="clubs")).hands[0].explanation == [
        "Bob bid 10, then Ann (dealer) bid Q: Ann holds the contract at Q, doubled because both bid face up.",
        "Trump: clubs.",
        "Ann needed 75 for the Q contract and took 80: made.",
        "Ann scores 80 + 2 × 20 (twice the difference between 80 and 60) = 120.",
        "Bob, the opponent, scores their own card points: 60.",
        "Ann deals next: Ann had the higher hand score (120 to 60).",
    ]


def test_explanation_of_a_failed_contract():
    lines = play(hand([None, "A"], [60, 80])).hands[0].explanation
    assert lines[0] == "Bob bid A, then Ann (dealer) passed face down: Bob holds the contract at A."
    assert lines[2] == "Bob needed 85 for the A contract but took only 80: failed."
    assert lines[3] == "Bob scores 80 - 20 (the difference between 80 and 60) = 60."


def test_explanation_without_contract():
    assert play(hand([None, None], [80, 60])).hands[0].explanation == [
        "Bob passed face down, then Ann (dealer) passed face down: no contract, Kings are high.",
        "Trump: hearts.",
        "No contract, so each scores their own card points: Ann 80, Bob 60.",
        "Ann deals next: Ann had the higher hand score (80 to 60).",
    ]


# --- next dealer -------------------------------------------------------------------

@pytest.mark.parametrize("first_dealer, points, next_dealer", [
    (0, [80, 60], 0),  # the higher hand score deals, even if that is the dealer again
    (0, [60, 80], 1),
    (1, [80, 60], 0),
    (0, [60, 60], 1),  # a tie passes the deal to the non-dealer
    (1, [60, 60], 0),
])
def test_next_dealer(first_dealer, points, next_dealer):
    assert play(hand(points=points), first_dealer=first_dealer).next_dealer == next_dealer


def test_next_dealer_counts_the_contract_not_the_card_points():
    # Ann took more card points, but her failed doubled A contract leaves her 40 against 60
    result = play(hand(["A", "9"], [80, 60]))
    assert result.hands[0].scores == [40, 60]
    assert result.next_dealer == 1


def test_dealer_of_each_hand_follows_the_scores():
    result = play(hand(points=[80, 60]), hand(points=[60, 80]), hand(points=[60, 60]))
    assert [h.dealer for h in result.hands] == [0, 0, 1]
    assert result.next_dealer == 0


def test_recorded_dealer_overrides_the_rotation():
    result = play(hand(points=[80, 60]), hand(points=[80, 60], dealer=1))
    assert [h.dealer for h in result.hands] == [0, 1]
    assert result.hands[1].explanation[0].startswith("Ann passed face down, then Bob (dealer)")


# --- end of game ---------------------------------------------------------------------

def test_game_goes_on_below_target():
    result = play(hand(points=[80, 60]), settings={"target": 100})
    assert (result.finished, result.winners, result.next_dealer) == (False, [], 0)


def test_reaching_the_target_exactly_is_not_past_it():
    result = play(hand(points=[80, 60]), settings={"target": 80})
    assert not result.finished


def test_highest_total_past_target_wins():
    result = play(hand(points=[80, 60]), hand(points=[20, 120]), settings={"target": 100})
    assert result.totals == [100, 180]
    assert (result.finished, result.winners, result.next_dealer) == (True, [1], None)


def test_both_past_target_highest_wins():
    result = play(hand(points=[80, 60]), settings={"target": 50})
    assert result.winners == [0]


def test_tie_past_target_plays_another_hand():
    tied = play(hand(), hand(), settings={"target": 100})
    assert tied.totals == [120, 120]
    assert (tied.finished, tied.next_dealer) == (False, 0)
    decided = play(hand(), hand(), hand(points=[80, 60]), settings={"target": 100})
    assert decided.winners == [0]


def test_default_target_is_past_500():
    result = play(*[hand(points=[100, 40])] * 5)
    assert result.totals == [500, 200] and not result.finished
    assert play(*[hand(points=[100, 40])] * 6).winners == [0]


def test_hand_after_the_end_is_refused():
    assert problems(hand(points=[80, 60]), hand(), settings={"target": 50}) == [
        "hand 2: recorded after the game ended (it ended after hand 1)"]


# --- invalid hands ---------------------------------------------------------------------

RANK_CHOICES = '"9", "10", "J", "Q", "K", "A"'


@pytest.mark.parametrize("bad, message", [
    ({"bids": "Q", "trump": "hearts", "points": [60, 60]}, 'bids: must be a list of 2 bids, one per seat (a rank or null for face down), got "Q"'),
    (hand(bids=[None]), "bids: must be a list of 2 bids, one per seat (a rank or null for face down), got [null]"),
    (hand(bids=[None, "8"]), f'bids[1] (Bob): must be one of {RANK_CHOICES} or null (face down), got "8"'),
    (hand(bids=[9, None]), f"bids[0] (Ann): must be one of {RANK_CHOICES} or null (face down), got 9"),
    (hand(bids=["Q", "Q"]), "bids: both bid Q, but the dealer must bid a higher rank to top the non-dealer "
                            "(equal rank does not top)"),
    (hand(bids=["10", "K"], dealer=0), "bids[0] (Ann): Ann bid 10, lower than Bob's K; "
                                       "as the dealer, Ann must bid higher than K or pass face down"),
    (hand(bids=["A", "9"], dealer=1), "bids[1] (Bob): Bob bid 9, lower than Ann's A; "
                                      "as the dealer, Bob must pass face down (nothing is higher than A)"),
    (hand(trump="wyrms"), 'trump: must be one of "hearts", "diamonds", "clubs", "spades", got "wyrms"'),
    (hand(exchanged="yes"), 'exchanged: must be true or false, got "yes"'),
    (hand(exchanged=True), "exchanged: true, but both passed, so there was no contract and nobody may "
                           "swap with the third hand"),
    (hand(points=[70, 70, 0]), "points: must be a list of 2 numbers, one per seat, got [70, 70, 0]"),
    (hand(points=[-10, 150]), "points[0] (Ann): must be 0 to 140, got -10"),
    (hand(points=[70, "70"]), 'points[1] (Bob): must be a whole number, got "70"'),
    (hand(points=[60, 56]), "points add up to 116, which 14 captured cards cannot make "
                            "(possible totals: 100-104, 109-113, 118-122, 127-131, 136-140)"),
    (hand(points=[15, 105]), "points[0] (Ann): no set of cards makes 15: points ending in 5 need at least "
                             "5 Aces or 5 nines, and the deck has only 4 of each"),
    (hand(points=[65, 40]), "points[0] (Ann): no set of cards makes 65: points ending in 5 need at least "
                            "5 Aces or 5 nines, and the deck has only 4 of each"),
    (hand(points=[100, 8]), "points[1] (Bob): no set of cards makes 8: points ending in 8 need at least "
                            "2 nines, which already make 18"),
    (hand(points=[27, 100]), "points[0] (Ann): 27 can only be made from 3 captured cards, an odd number; "
                             "every trick gives 2 cards, so each player captures an even number"),
    (hand(points=[1, 139]), "points[0] (Ann): 1 can only be made from 1 captured card, an odd number; "
                            "every trick gives 2 cards, so each player captures an even number"),
    (hand(points=[0, 134]), "points[1] (Bob): 134 needs at least 17 captured cards (4 Aces and 13 worth 10), "
                            "but a player captures at most 14"),
    (hand(points=[19, 121]), "points: Ann's 19 can only come from 2 captured cards and Bob's 121 from 14, "
                             "which never add up to the 14 cards captured"),
    ({"bids": [None, None], "trump": "hearts"}, "points: missing"),
])
def test_invalid_hand(bad, message):
    assert f"hand 1: {message}" in problems(bad)


def test_range_problems_skip_the_14_card_check():
    assert problems(hand(points=[150, 70])) == ["hand 1: points[0] (Ann): must be 0 to 140, got 150"]


def test_dealer_who_tops_is_accepted():
    assert play(hand(["10", "K"], [60, 80], dealer=1)).hands[0].extra.holder == 1


def test_every_problem_of_later_hands_is_listed():
    assert problems(hand(trump="moons"), hand(points=[60, 56])) == [
        'hand 1: trump: must be one of "hearts", "diamonds", "clubs", "spades", got "moons"',
        "hand 2: points add up to 116, which 14 captured cards cannot make "
        "(possible totals: 100-104, 109-113, 118-122, 127-131, 136-140)",
    ]


# --- invalid settings --------------------------------------------------------------------

@pytest.mark.parametrize("bad, message", [
    ({"target": 0}, "settings.target: must be at least 1, got 0"),
    ({"target": "500"}, 'settings.target: must be a whole number, got "500"'),
    ({"contract_values": {"9": 60}}, "settings.contract_values: missing 10, J, Q, K, A "
                                     "(all of 9, 10, J, Q, K, A are needed)"),
    ({"contract_values": {"9": 60, "10": 65, "J": 70, "Q": -5, "K": 80, "A": 85}},
     "settings.contract_values.Q: must be at least 0, got -5"),
    ({"bags": 10}, 'settings: unknown setting "bags" for Third Hand (allowed: target, contract_values)'),
])
def test_invalid_settings(bad, message):
    assert problems(settings=bad) == [message]


# --- card counts -----------------------------------------------------------------------------

def counts(aces=0, nines=0, tens=0, pictures=0):
    return {"aces": aces, "nines": nines, "tens": tens, "pictures": pictures}


def test_points_from_counts():
    assert points_from_counts(aces=2, nines=1, tens_and_pictures=3) == 41


@pytest.mark.parametrize("first, second, messages", [
    (counts(1, 1, 2, 4), counts(1, 1, 1, 3), []),
    (counts(0, 0, 0, 3), counts(0, 0, 4, 7), ["first player captured 3 cards, but every trick gives 2, "
                                              "so it must be even",
                                              "second player captured 11 cards, but every trick gives 2, "
                                              "so it must be even"]),
    (counts(0, 0, 0, 2), counts(0, 0, 0, 10), ["cards captured add up to 12, not 14"]),
    (counts(3, 0, 1, 2), counts(2, 0, 1, 5), ["aces add up to 5, but the deck has only 4"]),
    (counts(nines=5), counts(), ["first player's nines: must be 0 to 4, got 5"]),
])
def test_check_capture_counts(first, second, messages):
    assert check_capture_counts(first, second) == messages


# --- trick referee ------------------------------------------------------------------------------

@pytest.mark.parametrize("cards, trump, high, winner", [
    # J high: (A) J K Q 10 9 (A)
    (["KS", "JS"], "hearts", "J", 1),
    (["JS", "KS"], "hearts", "J", 0),
    (["QS", "KS"], "hearts", "J", 1),
    (["10S", "QS"], "hearts", "J", 1),
    (["10S", "9S"], "hearts", "J", 0),
    (["AS", "9S"], "hearts", "J", 1),   # Ace led is lowest
    (["JS", "AS"], "hearts", "J", 1),   # Ace second is highest, above the high rank
    # no contract: K high
    (["QD", "KD"], "clubs", "K", 1),
    (["KD", "AD"], "clubs", "K", 1),
    # A high: A is simply top, led or not
    (["AC", "KC"], "spades", "A", 0),
    (["KC", "AC"], "spades", "A", 1),
    (["9C", "10C"], "spades", "A", 1),
    # trump beats any non-trump; a discard loses
    (["AH", "9S"], "spades", "Q", 1),
    (["9S", "AH"], "spades", "Q", 0),
    (["KH", "AD"], "spades", "Q", 0),   # Ace second only wins in the suit led
    (["9S", "10S"], "spades", "9", 0),  # in trump, the high rank still rules
])
def test_trick_winner(cards, trump, high, winner):
    assert trick_winner(cards, trump=trump, high_rank=high)[0] == winner


@pytest.mark.parametrize("cards, trump, high, reason", [
    (["KS", "AS"], "hearts", "J", "An Ace played second is highest in Third Hand, so A♠ beats K♠."),
    (["AS", "9S"], "hearts", "J", "An Ace led is lowest in Third Hand, so 9♠ beats A♠."),
    (["QH", "JH"], "clubs", "J",
     "Both are hearts; with J high the order is (A) J K Q 10 9 (A), so J♥ beats Q♥."),
    (["AS", "9C"], "clubs", "K", "9♣ is a trump (clubs) and A♠ is not, so the trump wins."),
    (["9C", "AS"], "clubs", "K", "A♠ neither follows clubs nor is a trump, so the led 9♣ wins."),
])
def test_trick_winner_reason(cards, trump, high, reason):
    assert trick_winner(cards, trump=trump, high_rank=high)[1] == reason


@pytest.mark.parametrize("cards, trump, high, message", [
    (["AS"], "hearts", "K", "a Third Hand trick has 2 cards, got 1"),
    (["AS", "KS", "QS"], "hearts", "K", "a Third Hand trick has 2 cards, got 3"),
    (["8S", "KS"], "hearts", "K", 'unknown card "8S"'),
    (["AS", "as"], "hearts", "K", "A♠ is played twice, but the deck has only one"),
    (["AS", "KS"], "moons", "K", 'trump must be one of hearts, diamonds, clubs, spades, got "moons"'),
    (["AS", "KS"], "hearts", "8", 'high_rank must be one of 9 10 J Q K A, got "8"'),
])
def test_trick_winner_refuses(cards, trump, high, message):
    with pytest.raises(ValueError, match=message):
        trick_winner(cards, trump=trump, high_rank=high)


@pytest.mark.parametrize("bids, high", [([None, None], "K"), (["10", None], "10"), (["10", "Q"], "Q")])
def test_high_rank_is_the_holders_bid_or_king(bids, high):
    assert high_rank_for(bids) == high


def test_trick_cards_and_labels():
    assert len(TRICK_CARDS) == len(set(TRICK_CARDS)) == 24
    assert [card_label(c) for c in ("AS", "10H", "9D", "QC")] == ["A♠", "10♥", "9♦", "Q♣"]


# --- properties ----------------------------------------------------------------------------------

@st.composite
def splits(draw):
    """A possible split of the 14 captured cards, as (cards, aces, nines) per player."""
    cards0 = draw(st.sampled_from(range(0, 15, 2)))
    aces0 = draw(st.integers(0, min(4, cards0)))
    nines0 = draw(st.integers(0, min(4, cards0 - aces0)))
    aces1 = draw(st.integers(0, min(4 - aces0, 14 - cards0)))
    nines1 = draw(st.integers(0, min(4 - nines0, 14 - cards0 - aces1)))
    return (cards0, aces0, nines0), (14 - cards0, aces1, nines1)


@st.composite
def legal_hands(draw):
    """A dealer and a hand the table could really produce."""
    dealer = draw(st.integers(0, 1))
    bids = [None, None]
    bids[1 - dealer] = draw(st.sampled_from([None, *RANKS]))
    higher = [r for r in RANKS if bids[1 - dealer] is None or RANKS.index(r) > RANKS.index(bids[1 - dealer])]
    bids[dealer] = draw(st.sampled_from([None, *higher]))
    points = [points_from_counts(a, n, c - a - n) for c, a, n in draw(splits())]
    exchanged = bids != [None, None] and draw(st.booleans())
    return dealer, hand(bids, points, trump=draw(st.sampled_from(["hearts", "clubs"])), exchanged=exchanged)


@hyp_settings(max_examples=150, deadline=None)
@given(legal_hands())
def test_every_legal_hand_scores_by_the_formula(dealt):
    dealer, one = dealt
    scored = play(one, first_dealer=dealer).hands[0]
    holder = scored.extra.holder
    if holder is None:
        assert scored.scores == one["points"]
        return
    opponent = 1 - holder
    swing = (2 if scored.extra.doubled else 1) * abs(one["points"][0] - one["points"][1])
    assert scored.scores[opponent] == one["points"][opponent]
    assert scored.scores[holder] == one["points"][holder] + (swing if scored.extra.made else -swing)
    assert all(name in " ".join(scored.explanation) for name in PLAYERS)


@hyp_settings(max_examples=150, deadline=None)
@given(st.integers(0, 140), st.integers(0, 140))
def test_points_accepted_exactly_when_some_split_of_cards_makes_them(p0, p1):
    try:
        play(hand(points=[p0, p1]))
        accepted = True
    except MatchError:
        accepted = False
    assert accepted == ((p0, p1) in POSSIBLE_POINTS)


def made_by(points, most_each=4):
    """Every (cards, Aces, nines) of up to 30 cards, up to ``most_each`` Aces and nines, whose
    card points are ``points``: counted here, not by the game."""
    return [(c, a, n) for c in range(31) for a in range(most_each + 1) for n in range(most_each + 1)
            if a + n <= c and points_from_counts(a, n, c - a - n) == points]


def one_players_problem(points):
    """The problem with one player's ``points`` (Ann's), or None when her points alone are fine."""
    # Bob's 1 is always refused, so the hand is too; only Ann's problem is read
    said = [p for p in problems(hand(points=[points, 1])) if "points[0] (Ann): " in p]
    return said[0].split("points[0] (Ann): ")[1] if said else None


def test_every_reason_given_for_one_players_points_is_true():
    for points in range(141):
        made = [(c, a, n) for c, a, n in made_by(points) if c <= 14]
        said = one_players_problem(points)
        if any(c % 2 == 0 for c, _, _ in made):
            assert said is None, points
            continue
        if said.startswith(f"{points} can only be made from "):
            cards = sorted({c for c, _, _ in made})
            assert cards and all(c % 2 for c in cards), points
            assert said.startswith(f"{points} can only be made from {' or '.join(map(str, cards))} captured"), said
        elif said.startswith(f"no set of cards makes {points}: points ending in 5"):
            assert not made_by(points) and points % 10 == 5
            assert all(a >= 5 or n >= 5 for _, a, n in made_by(points, most_each=9)), points
        elif said.startswith(f"no set of cards makes {points}: points ending in {points % 10} need at least"):
            nines = int(re.search(r"at least (\d) nines, which already make (\d+)$", said).group(1))
            assert not made_by(points) and 9 * nines > points, said
            ending = [n for p in range(141) if p % 10 == points % 10 for _, _, n in made_by(p)]
            assert min(ending) == nines, said
        else:
            cards = int(re.fullmatch(r"\d+ needs at least (\d+) captured cards .*", said).group(1))
            assert not made and min(c for c, _, _ in made_by(points)) == cards > 14, said


@given(splits())
def test_card_count_check_agrees_with_the_points_check(split):
    (c0, a0, n0), (c1, a1, n1) = split
    tens0 = min(4, c0 - a0 - n0)
    tens1 = min(4 - tens0, c1 - a1 - n1)
    first = counts(a0, n0, tens0, c0 - a0 - n0 - tens0)
    second = counts(a1, n1, tens1, c1 - a1 - n1 - tens1)
    assert check_capture_counts(first, second) == []
    assert (points_from_counts(a0, n0, c0 - a0 - n0), points_from_counts(a1, n1, c1 - a1 - n1)) in POSSIBLE_POINTS


SAME_SUIT_PAIRS = [(a, b) for a in TRICK_CARDS for b in TRICK_CARDS
                   if a != b and a[-1] == b[-1] and "A" not in (a[:-1], b[:-1])]


@given(st.sampled_from(SAME_SUIT_PAIRS), st.sampled_from(RANKS), st.sampled_from(["hearts", "spades"]))
def test_without_an_ace_the_order_of_play_does_not_matter(pair, high, trump):
    first, second = pair
    winner = trick_winner([first, second], trump=trump, high_rank=high)[0]
    swapped = trick_winner([second, first], trump=trump, high_rank=high)[0]
    assert [first, second][winner] == [second, first][swapped]


@given(st.sampled_from(TRICK_CARDS), st.sampled_from(RANKS))
def test_a_trump_played_on_a_non_trump_lead_wins(led, high):
    trump_card = "9S" if led != "9S" else "10S"
    if led.endswith("S"):
        return
    assert trick_winner([led, trump_card], trump="spades", high_rank=high)[0] == 1


def test_dealer_bid_that_does_not_top_is_refused_from_the_rotation():
    # Seat 0 deals the first hand, so seat 1 bid first; a lower dealer bid cannot stand.
    hand = {"bids": ["9", "K"], "trump": "hearts", "points": [60, 60]}
    with pytest.raises(MatchError) as caught:
        replay(Match(game="third_hand", players=["Ann", "Bob"], first_dealer=0, hands=[hand]))
    assert caught.value.problems[0].startswith("hand 1: bids")


# --- what happens next (rules.md: every explanation ends with it) -------------------

def test_reaching_the_target_exactly_says_it_is_not_past_it():
    lines = play(hand(points=(80, 60)), settings={"target": 80}).hands[0].explanation
    assert lines[-1] == ("Ann has 80, and 80 is not past 80: another hand is dealt. "
                         "Ann deals next: Ann had the higher hand score (80 to 60).")


def test_a_tie_at_the_top_plays_on_and_a_tied_hand_passes_the_deal_to_the_non_dealer():
    result = play(hand(points=(60, 60)), settings={"target": 50})
    assert not result.finished
    assert result.hands[0].explanation[-1] == (
        "Ann and Bob are tied on 60 at the top: another hand is dealt. "
        "Bob deals next: the hand scores tied at 60, so the deal passes to the non-dealer.")


def test_passing_the_target_ends_the_game_with_the_reason():
    result = play(hand(points=(80, 60)), settings={"target": 60})
    assert result.finished
    assert result.hands[0].explanation[-1] == "Game over: Ann passed 60 with 80 and wins."


def test_a_hand_dealt_out_of_turn_says_so():
    lines = play(hand(points=(80, 60), dealer=1)).hands[0].explanation
    # what it means here: the deal does not "go on" from anyone, the hand scores choose the next dealer
    assert lines[-2] == ("Bob dealt this hand out of turn (it was Ann's deal): Bob counts as this hand's dealer, "
                         "so Ann is the non-dealer (bid first).")
