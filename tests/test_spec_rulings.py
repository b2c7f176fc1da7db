"""The rulings rules.md and match-format.md added: what happens next in every
explanation, player names, and the match file's duplicate keys and nulls."""
import json
import random

import pytest

from scorekeeper.engine import Match, MatchError, replay
from scorekeeper.games import GAMES
from scorekeeper.matchfile import loads, rescore
from scorekeeper.samples import NAMES, PLAYERS, random_match

NEXT_WORDS = (" deals next: ", "Game over: ")


# --- what happens next ----------------------------------------------------------

@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", range(6))
def test_every_explanation_ends_with_what_happens_next(game, seed):
    result = replay(random_match(game, 40, seed=seed))
    for hand in result.hands[:-1]:
        assert " deals next: " in hand.explanation[-1], hand.explanation
        next_dealer = result.hands[hand.number].dealer  # the next hand, in turn (no deal out of turn here)
        assert hand.explanation[-1].split(" deals next: ")[0].endswith(result.players[next_dealer])
    last = result.hands[-1].explanation[-1]
    if result.finished:
        assert last.startswith("Game over: ")
        assert all(result.players[s] in last for s in result.winners)
    else:
        assert last.endswith(f"{result.players[result.next_dealer]} deals next: "
                             f"{last.split(' deals next: ')[1]}")


def test_a_tie_at_the_target_plays_on_and_says_why():
    split = ([3, 2, 0], [2, 3, 0], [3, 2, 0], [2, 3, 0], [2, 2, 1])  # 12 each for Ann and Bob
    hands = [{"scoring_tricks": s, "other_tricks": [4, 4, 4]} for s in split]
    result = replay(Match("third_rail", ["Ann", "Bob", "Cy"], {}, 0, hands))
    assert not result.finished
    assert result.hands[-1].explanation[-1] == ("Ann and Bob are tied on 12 at the top: another hand is dealt. "
                                                "Cy deals next: the deal passes left.")
    assert result.hands[-1].ending == "Ann and Bob are tied on 12 at the top: another hand is dealt"


def test_rescore_prints_what_happens_next(tmp_path, command):
    doc = {"game": "third_rail", "players": ["Ann", "Bob", "Cy"],
           "hands": [{"scoring_tricks": [2, 2, 1], "other_tricks": [4, 4, 4]}]}
    done = command("rescore", "-", stdin=json.dumps(doc))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hands"][0]["explanation"][-1] == "Bob deals next: the deal passes left."


# --- player names ------------------------------------------------------------------

def names_problems(players, game="third_rail"):
    with pytest.raises(MatchError) as caught:
        replay(Match(game, players))
    return caught.value.problems


def test_names_are_stored_nfc_normalised():
    decomposed = "Zoe\u0308"
    assert replay(Match("third_rail", [decomposed, "Bob", "Cy"])).players[0] == "Zo\u00eb"


def test_a_name_typed_two_ways_is_one_name():
    assert names_problems(["Zo\u00eb", "Zoe\u0308", "Cy"]) == [
        'players[1]: "Zo\u00eb" is already at the table (names must differ, ignoring case and invisible characters)']


def test_names_are_compared_after_nfkc_and_case_folding():
    # A full-width "ＡＮＮ" and "ann" are one name.
    assert names_problems(["\uff21\uff2e\uff2e", "ann", "Cy"])[0].startswith("players[1]:")
    assert names_problems(["STRASSE", "straße", "Cy"])[0].startswith("players[1]:")


def test_a_name_of_invisible_characters_is_empty():
    assert names_problems(["\u200b\u200d", "Bob", "Cy"]) == [
        'players[0]: a name cannot be empty: "\\u200b\\u200d" holds only invisible characters']


# --- match file: duplicates and nulls ---------------------------------------------------

def problems_of(text):
    with pytest.raises(MatchError) as caught:
        loads(text)
    return caught.value.problems


def test_a_key_twice_at_the_top_is_an_error_naming_it():
    assert problems_of('{"game": "third_rail", "players": ["A", "B", "C"], "players": ["D", "E", "F"]}') == [
        "players: appears twice"]


def test_a_key_twice_in_a_hand_names_the_hand_and_key():
    text = '{"game": "third_rail", "players": ["A", "B", "C"], "hands": [{"scoring_tricks": [2, 2, 1], ' \
           '"other_tricks": [4, 4, 4], "other_tricks": [4, 4, 4]}]}'
    assert problems_of(text) == ['hand 1: key "other_tricks" appears twice']


def test_a_key_twice_in_a_setting_table_names_where():
    text = '{"game": "third_hand", "players": ["A", "B"], "settings": {"contract_values": ' \
           '{"9": 60, "9": 61, "10": 65, "J": 70, "Q": 75, "K": 80, "A": 85}}}'
    assert problems_of(text) == ['settings.contract_values: key "9" appears twice']


def test_hands_may_be_left_out():
    result = rescore('{"game": "third_wheel", "players": ["A", "B", "C"]}')
    assert result.hands == [] and result.next_dealer == 0 and not result.finished


@pytest.mark.parametrize("key", ["format", "settings", "first_dealer", "date", "note"])
def test_null_for_an_optional_key_means_absent(key):
    doc = {"game": "third_wheel", "players": ["A", "B", "C"], key: None}
    result = rescore(json.dumps(doc))
    assert result.settings == GAMES["third_wheel"].defaults()
    assert result.next_dealer == 0


def test_null_hands_is_still_an_error():
    assert problems_of('{"game": "third_wheel", "players": ["A", "B", "C"], "hands": null}') == [
        "hands: must be a list of hands"]


def test_samples_still_make_valid_matches():
    # The samples build a match hand by hand through the engine; every player count works.
    rng_game = random.Random(3)
    for _ in range(5):
        game = rng_game.choice(sorted(GAMES))
        match = random_match(game, 20, seed=rng_game.randrange(100))
        assert match.players == NAMES[:PLAYERS[game]]
        replay(match)
