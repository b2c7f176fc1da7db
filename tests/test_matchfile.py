"""The match file: every kind of invalid input match-format.md lists, each with its message."""
import json

import pytest

from scorekeeper.engine import MatchError, replay
from scorekeeper.games import GAMES
from scorekeeper.matchfile import dumps, loads, parse, to_document

WHEEL_HAND = {"trump": "wyrms", "mode": "high", "wheel": False, "bid": 5, "tricks": [5, 4, 2]}


def doc(**changes):
    base = {"format": "scorekeeper-match-1", "game": "third_wheel", "players": ["Ann", "Bob", "Cy"],
            "settings": {"target": 33}, "first_dealer": 0, "hands": [dict(WHEEL_HAND)]}
    base.update(changes)
    return base


def problems(document):
    with pytest.raises(MatchError) as caught:
        replay(parse(document))
    return caught.value.problems


def test_a_valid_document_round_trips():
    match = parse(doc(date="2026-11-23", note="Kitchen, loser washes up"))
    assert loads(dumps(match)) == match
    assert to_document(match)["note"] == "Kitchen, loser washes up"


def test_format_is_optional():
    document = doc()
    del document["format"]
    assert replay(parse(document)).totals == [9, 0, 2]


@pytest.mark.parametrize("changes, expected", [
    ({"format": "scorekeeper-match-2"}, 'format: must be "scorekeeper-match-1", got "scorekeeper-match-2"'),
    ({"colour": "red"}, "colour: unknown key"),
    ({"game": "bridge"}, f"game: must be one of {', '.join(GAMES)}, got \"bridge\""),
    ({"players": ["Ann", "Bob"]}, "players: Third Wheel needs exactly 3 players, got 2"),
    ({"players": ["Ann", " ", "Cy"]}, "players[1]: a name cannot be empty"),
    ({"players": ["Ann", "B" * 41, "Cy"]}, "players[1]: a name is at most 40 characters, got 41"),
    # a name too long to be anyone's is read afresh each time (the engine keeps only short ones)
    ({"players": ["Ann", "B" * 5000, "Cy"]}, "players[1]: a name is at most 40 characters, got 5000"),
    ({"players": ["Ann", "e\u0301" * 60, "Cy"]}, "players[1]: a name is at most 40 characters, got 60"),
    ({"players": ["Ann", "ann", "Cy"]}, 'players[1]: "ann" is already at the table as "Ann" '
                                        '(names must differ, ignoring case and invisible characters)'),
    ({"players": ["Ann", 7, "Cy"]}, "players[1]: must be a name in quotes, got 7"),
    ({"players": "Ann, Bob, Cy"}, "players: must be a list of names"),
    ({"players": ["Ann", "Bo\nb", "Cy"]}, "players[1]: a name cannot hold line breaks, control characters or broken text"),
    ({"settings": {"colour": 1}}, 'settings: unknown setting "colour" for Third Wheel'),
    ({"settings": {"target": "33"}}, 'settings.target: must be a whole number, got "33"'),
    ({"settings": []}, "settings: must be an object"),
    ({"first_dealer": 3}, "first_dealer: must be a seat 0 to 2, got 3"),
    ({"first_dealer": True}, "first_dealer: must be a seat 0 to 2, got true"),
    ({"date": "23/11/2026"}, 'date: must be a day as YYYY-MM-DD, got "23/11/2026"'),
    ({"date": "2026-02-30"}, 'date: must be a day as YYYY-MM-DD, got "2026-02-30"'),
    ({"note": "x" * 501}, "note: at most 500 characters, got 501"),
    ({"note": 5}, "note: must be text, got 5"),
    ({"hands": {"bid": 5}}, "hands: must be a list of hands"),
])
def test_bad_documents_name_what_is_wrong(changes, expected):
    assert any(line.startswith(expected) for line in problems(doc(**changes))), problems(doc(**changes))


@pytest.mark.parametrize("hand, expected", [
    (dict(WHEEL_HAND, colour=1), 'hand 1: unknown field "colour" for Third Wheel'),
    ({k: v for k, v in WHEEL_HAND.items() if k != "bid"}, "hand 1: bid: missing"),
    (dict(WHEEL_HAND, bid="5"), "hand 1: bid:"),
    (dict(WHEEL_HAND, bid=12), "hand 1: bid:"),
    (dict(WHEEL_HAND, tricks=[5, 4, 1]), "hand 1: tricks add up to 10, not 11"),
    (dict(WHEEL_HAND, wheel=True, bid=4), "hand 1: bid:"),
    (dict(WHEEL_HAND, dealer=5), "hand 1: dealer: must be a seat 0 to 2, got 5"),
    ("bid 5", "hand 1: must be an object"),
])
def test_bad_hands_name_the_hand_and_field(hand, expected):
    found = problems(doc(hands=[hand]))
    assert any(line.startswith(expected) for line in found), found


def test_a_list_where_a_word_belongs_is_shown_as_json():
    found = problems(doc(hands=[dict(WHEEL_HAND, trump=["wyrms"])]))
    assert found == ['hand 1: trump: must be one of "moons", "suns", "waves", "leaves", "wyrms", "knots", '
                     'got ["wyrms"]']


def test_a_problem_stays_on_one_line_whatever_was_typed():
    found = problems(doc(hands=[dict(WHEEL_HAND, trump="wy\nrms", mode='"high"')]))
    assert found == ['hand 1: trump: must be one of "moons", "suns", "waves", "leaves", "wyrms", "knots", '
                     'got "wy\\nrms"',
                     'hand 1: mode: must be one of "high", "low", got "\\"high\\""']


def test_a_value_nested_near_the_limit_is_refused_not_a_crash():
    # deep enough to read, maybe too deep to quote back in the message: a problem either way
    for depth in range(800, 1000):
        text = json.dumps(doc(hands=[dict(WHEEL_HAND, mode="@")])).replace('"@"', "[" * depth + "]" * depth)
        with pytest.raises(MatchError):
            replay(loads(text))


def test_a_hand_after_the_game_ended_is_refused():
    # One deal each ends the game after three hands.
    hands = [dict(WHEEL_HAND) for _ in range(4)]
    found = problems(doc(settings={"deals_each": 1, "target": 0}, hands=hands))
    assert found == ["hand 4: recorded after the game ended (it ended after hand 3)"]


def test_problems_in_several_hands_are_all_reported():
    hands = [dict(WHEEL_HAND, tricks=[5, 4, 1]), dict(WHEEL_HAND), dict(WHEEL_HAND, bid=99)]
    found = problems(doc(hands=hands))
    assert found[0] == "hand 1: tricks add up to 10, not 11"
    assert found[1].startswith("hand 3: bid:")


def test_a_dealer_out_of_turn_moves_the_rotation():
    hands = [dict(WHEEL_HAND, dealer=2), dict(WHEEL_HAND)]
    result = replay(parse(doc(hands=hands)))
    assert [h.dealer for h in result.hands] == [2, 0]
    assert result.next_dealer == 1


@pytest.mark.parametrize("text, expected", [
    ("{", "match file: not valid JSON"),
    ("[" * 100000, "match file:"),
    (b"\xff\xfe", "match file: not valid JSON"),
    ("[]", "match: must be a JSON object"),
    ('{"game": "third_wheel", "first_dealer": ' + "9" * 5000 + "}", "match file: a number has too many digits"),
])
def test_unreadable_text_is_a_match_error(text, expected):
    with pytest.raises(MatchError) as caught:
        loads(text)
    assert caught.value.problems[0].startswith(expected)
