"""Score pad (rules.md section 5): points per player per hand, and the three ways a
game ends (target, number of hands, never), highest or lowest winning."""
from __future__ import annotations

import pytest

from scorekeeper.engine import Match, MatchError, replay
from scorekeeper.games import GAMES
from scorekeeper.games.base import Table
from scorekeeper.games.score_pad import PadSettings
from tests.places import blank_place, dealt_place, place_at

PAD = GAMES["score_pad"]
FOUR = ["Ann", "Bob", "Cy", "Dee"]


def play(hands: list[list[int]], players: list[str] = FOUR, **settings):
    return replay(Match("score_pad", players, settings, hands=[{"points": p} for p in hands]))


def problems(hands: list, players: list[str] = FOUR, **settings) -> list[str]:
    with pytest.raises(MatchError) as refused:
        replay(Match("score_pad", players, settings, hands=hands))
    return refused.value.problems


def test_each_hand_scores_what_the_table_says_and_names_it():
    result = play([[12, -3, 0, 100000], [-100000, 5, 7, 1]])
    assert [h.scores for h in result.hands] == [[12, -3, 0, 100000], [-100000, 5, 7, 1]]
    assert result.totals == [-99988, 2, 7, 100001]
    lines = result.hands[0].explanation
    assert lines[:4] == ["Ann scored 12 points.", "Bob scored -3 points.", "Cy scored 0 points.",
                         "Dee scored 100000 points."]
    assert lines[-1] == "Bob deals next: the deal passes left."  # what happens next, as for every game
    assert not result.finished and result.next_dealer == 2


def test_two_to_eight_players():
    assert play([[1, 2]], ["Ann", "Bob"]).totals == [1, 2]
    eight = [f"P{n}" for n in range(8)]
    assert play([list(range(8))], eight).totals == list(range(8))
    assert problems([], ["Ann"]) == ["players: Score pad needs 2 to 8 players, got 1"]
    assert problems([], [f"P{n}" for n in range(9)]) == ["players: Score pad needs 2 to 8 players, got 9"]


def test_bad_points_name_the_hand_the_seat_and_the_player():
    assert problems([{"points": [1, 2, 3]}]) == ["hand 1: points: must be a list of 4 numbers, one per seat, got [1, 2, 3]"]
    found = problems([{"points": [1, 2, 3, 4]}, {"points": [1, 100001, -100001, 2.5]}])
    assert len(found) == 3 and all(line.startswith("hand 2: points") for line in found)
    assert "Bob" in found[0] and "100001" in found[0]
    assert "Cy" in found[1] and "-100001" in found[1]
    assert "Dee" in found[2] and "2.5" in found[2]
    assert problems([{"points": [True, 1, 2, 3]}])[0].startswith("hand 1: points")
    assert problems([{"score": [1, 2, 3, 4]}])[0].startswith("hand 1:")
    assert problems([], **{"target": -1})[0].startswith("settings.target")
    assert problems([], **{"hand_count": "ten"})[0].startswith("settings.hand_count")
    assert problems([], **{"low_wins": 1})[0].startswith("settings.low_wins")


def test_defaults_never_end_the_game():
    result = play([[1000, 0, 0, 0]] * 30)
    assert not result.finished and result.winners == [] and result.next_dealer == 30 % 4
    assert result.settings == {"name": "", "target": 0, "low_wins": False, "hand_count": 0}


def test_target_reached_at_or_over_ends_it_and_the_highest_wins():
    assert not play([[99, 0, 0, 0]], target=100).finished
    result = play([[99, 0, 0, 0], [1, 50, 0, 0]], target=100)
    assert result.finished and result.winners == [0] and result.next_dealer is None
    assert result.hands[-1].explanation[-1] == "Game over: Ann reached 100 with 100; Ann has the highest total, " \
                                               "100, and wins."


def test_low_wins_hearts_style_reaching_the_target_ends_it_and_the_lowest_wins():
    result = play([[26, 0, 0, 0], [80, 10, 26, 4]], target=100, low_wins=True)
    assert result.finished and result.winners == [3]
    assert result.hands[-1].ending == "Ann reached 100 with 106; Dee has the lowest total, 4, and wins"


def test_the_result_says_lowest_wins_from_the_settings_record_its_replay_made(monkeypatch):
    made = []
    of = PadSettings.of.__func__
    monkeypatch.setattr(PadSettings, "of", classmethod(lambda cls, values: made.append(values) or of(cls, values)))
    result, high = play([[26, 0, 0, 0]], target=100, low_wins=True), play([[1, 0, 0, 0]])
    replays_made = len(made)
    assert result.lowest_wins and result.lowest_wins and not high.lowest_wins
    assert len(made) == replays_made  # read from the record each replay made for its table: none more


def test_a_tie_for_best_at_the_target_deals_another_hand():
    result = play([[100, 100, 0, 0]], target=100)
    assert not result.finished and result.next_dealer == 1
    assert result.hands[0].ending == ("Ann and Bob reached 100 (Ann 100, Bob 100), but Ann and Bob are tied on 100 "
                                      "for the highest total: another hand is dealt")
    assert result.hands[0].explanation[-1].startswith("Ann and Bob reached 100")
    low = play([[100, 5, 5, 20]], target=100, low_wins=True)
    assert not low.finished and "Bob and Cy are tied on 5 for the lowest total" in low.hands[0].ending


def test_hand_count_ends_it_and_a_tie_shares_the_win():
    assert not play([[1, 2, 3, 4]] * 2, hand_count=3).finished
    result = play([[1, 2, 3, 4], [3, 2, 1, 0], [0, 0, 0, 0]], hand_count=3)
    assert result.finished and result.winners == [0, 1, 2, 3]
    assert result.hands[-1].ending == "all 3 hands were played; Ann, Bob, Cy and Dee are tied on 4 for the " \
                                      "highest total and share the win"
    low = play([[5, 2, 2, 9]], hand_count=1, low_wins=True)
    assert low.winners == [1, 2] and "share the win" in low.hands[0].ending
    with pytest.raises(MatchError) as refused:
        replay(Match("score_pad", FOUR, {"hand_count": 1}, hands=[{"points": [0] * 4}] * 2))
    assert refused.value.problems[0].startswith("hand 2:")  # a hand recorded after the game ended


def test_with_both_a_tie_at_the_target_on_the_last_hand_shares_the_win():
    result = play([[50, 50, 0, 0], [50, 50, 0, 0]], target=100, hand_count=2)
    assert result.finished and result.winners == [0, 1]
    assert result.hands[-1].ending.startswith("Ann and Bob reached 100 (Ann 100, Bob 100) and all 2 hands")
    early = play([[120, 0, 0, 0]], target=100, hand_count=5)
    assert early.finished and early.winners == [0]  # the target ends it before the last hand


def test_a_deal_out_of_turn_counts_as_a_hand_of_the_count_and_moves_the_deal():
    result = replay(Match("score_pad", FOUR, {"hand_count": 3},
                          hands=[{"points": [1, 0, 0, 0]}, {"points": [0, 1, 0, 0], "dealer": 3},
                                 {"points": [0, 0, 1, 0]}]))
    assert [h.dealer for h in result.hands] == [0, 3, 0]
    assert result.finished
    assert "Dee dealt this hand out of turn (it was Bob's deal)" in result.hands[1].explanation[-2]


def test_needs_panel_claims_hold():
    table = Table(tuple(FOUR), {"target": 100, "low_wins": True, "hand_count": 0})
    needs = PAD.needs(place_at(PAD, table, [90, 10, 10, 50], 2, None, [1, 1, 0, 0], 2))
    assert needs.table[0] == ("Playing to 100: a total of 100 or more ends the game; the lowest total then wins, "
                              "and a tie for it means another hand is dealt.")
    ann, bob = needs.seats[0].lines, needs.seats[1].lines
    assert ann[0] == "is 10 short of 100" and ann[1] == "is 80 above Bob and Cy"
    assert bob[1] == "shares the lead with Cy on 10"
    counted = Table(tuple(FOUR), {"target": 0, "low_wins": False, "hand_count": 2})
    # one hand left: a gap over 200,000 cannot close, a gap of exactly 200,000 can draw level
    needs = PAD.needs(place_at(PAD, counted, [200001, 0, 1, 0], 1, None, [1, 0, 0, 0], 1))
    assert "1 hand left" in needs.table[0]
    assert needs.seats[1].out and needs.seats[3].out and not needs.seats[2].out and not needs.seats[0].out
    assert needs.seats[0].lines == ("leads Cy by 200000",)
    endless = PAD.needs(place_at(PAD, Table(tuple(FOUR), PAD.defaults()), [0, 0, 0, 0], 0, None, [0] * 4, 0))
    assert endless.table[0].startswith("No target and no fixed number of hands")
    assert not any(n.out for n in endless.seats)


def test_hands_left_counts_hands_not_deals():
    assert PAD.rules.hands_left(dealt_place(PAD, {"hand_count": 5}, [2, 0, 1, 0], 0)) == 2
    assert PAD.rules.hands_left(dealt_place(PAD, {"hand_count": 5}, [2, 1, 1, 1], None)) == 0
    assert PAD.rules.hands_left(dealt_place(PAD, {"hand_count": 0}, [2, 0, 1, 0], 0)) is None


def test_no_referee_no_trick_tally_no_card_counter_and_the_seat_picture_only_deals():
    assert PAD.referee is None
    assert PAD.shown.trick_tally(blank_place(PAD, PAD.defaults(), 4)) is None and PAD.shown.card_counter() is None
    seating = PAD.shown.seating(PAD.empty_place(Table(tuple(FOUR), PAD.defaults()), 2))
    assert [p.roles for p in seating.places] == [(), (), ("deals",), ()]
    assert not any(p.leads for p in seating.places)
