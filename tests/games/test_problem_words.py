"""What is wrong with a hand or the settings comes from a game's rules as facts (``Problem.fact``),
never as words: the game's ``Shown.problem_words`` says them, and the engine puts the words in
before anyone reads a problem (``Shown.worded``), so the match file's lines and the form's
words are the same as when the rules wrote them."""
from __future__ import annotations

import pytest

from scorekeeper.engine import Match, MatchError, replay, resolve_settings
from scorekeeper.games import GAMES, words
from scorekeeper.games.base import said
from tests.places import blank_place

ABC = ["Ann", "Bob", "Cy"]
RAIL_COUNTS = {"scoring_tricks": [1, 2, 9], "other_tricks": [9, 1, 1]}
SEVENTY = "Ann's 70 can only come from 8 or 10 captured cards and Bob's 70 from 8 or 10, which never add up to " \
          "the 14 cards captured"
# (game, players, settings, first dealer, a hand breaking the game's rules, the engine's lines, the form's words)
CASES = [
    ("third_wheel", ABC, {}, 0, {"trump": "moons", "mode": "high", "wheel": True, "bid": 3, "tricks": [3, 4, 4]},
     ["bid: a dealer who took the Wheel must bid 0 or 6 to 11, got 3"],
     ["Dealer's bid: a dealer who took the Wheel must bid 0 or 6 to 11, got 3"]),
    ("third_rail", ABC, {}, 0, {"winners": [0] * 17, "scoring_tricks": [1, 2, 2], "other_tricks": [3, 3, 4]},
     ["give either winners (who won each trick) or scoring_tricks and other_tricks (each player's counts), not both"],
     ["give either winners (who won each trick) or scoring tricks and other tricks (each player's counts), not both"]),
    ("third_rail", ABC, {}, 0, {},
     ["no tricks recorded: give either winners (who won each trick) or scoring_tricks and other_tricks (each "
      "player's counts)"],
     ["no tricks recorded: give either winners (who won each trick) or scoring tricks and other tricks (each "
      "player's counts)"]),
    ("third_rail", ABC, {"trump": False}, 0, {"winners": [0] * 17, "trump": "hearts"},
     ["trump: this match plays without trump (setting trump is off), so leave trump out or turn the setting on"],
     ["Trump: this match plays without trump (setting trump is off), so leave trump out or turn the setting on"]),
    ("third_rail", ABC, {"most_other_tricks_bonus": True}, 0, {"scoring_tricks": [1, 2, 2]},
     ["other_tricks: missing (the bonus for most other tricks counts them)"],
     ["Other tricks: still to fill in (the bonus for most other tricks counts them)"]),
    ("third_rail", ABC, {"most_other_tricks_bonus": True}, 0, RAIL_COUNTS,
     ["scoring_tricks[2] (Cy): must be 0 to 5, got 9",
      "other_tricks add up to 11, not 12 (17 tricks a hand, 5 of them scoring)"],
     ["Cy: must be 0 to 5, got 9", "other tricks add up to 11, not 12 (17 tricks a hand, 5 of them scoring)"]),
    ("third_rail", ABC, {}, 0, {"scoring_tricks": [1, 2, 1]},
     ["scoring_tricks add up to 4, not 5 (the scoring tricks are 3, 6, 9, 12 and 15)"],
     ["scoring tricks add up to 4, not 5 (the scoring tricks are 3, 6, 9, 12 and 15)"]),
    ("third_rail", ABC, {}, 0, {"winners": [0, 1]},
     ["winners: must be a list of 17 seats, one per trick (3 players play 17 tricks), got [0, 1]"],
     ["Trick winners: needs 17 winners, one per trick (3 players play 17 tricks); you typed 2: 1 2"]),
    ("third_rail", ABC, {}, 0, {"winners": [0, 5] + [0] * 15},
     ["winners[1] (trick 2): must be a seat 0 to 2, got 5"], ["Trick 2: must be a seat 1 to 3, got 6"]),
    ("dummy_spades", ABC, {}, 0, {"bids": [3, 4, 5], "tricks": [3, 3, 3], "dummy_tricks": 4, "nils": [0]},
     ["nils: must be a list of 3 lists, one per seat, of the hands each player bid nil on, got [0]"],
     ["Nil bids: must be a list of 3 lists, one per seat, of the hands each player bid nil on, got [0]"]),
    ("dummy_spades", ABC, {}, 0,
     {"bids": [3, 4, 5], "tricks": [3, 3, 3], "dummy_tricks": 4, "nils": [7, [5, "x"], [1, 1, "dummy", "dummy"]]},
     ['nils[0] (Ann): must be a list of seat numbers and/or "dummy", got 7',
      'nils[1] (Bob): each entry must be a seat 0 to 2 or "dummy", got 5',
      'nils[1] (Bob): each entry must be a seat 0 to 2 or "dummy", got "x"',
      "nils[2] (Cy): Bob's hand is listed twice", "nils[2] (Cy): the dummy is listed twice"],
     ['Ann: must be a list of seat numbers and/or "dummy", got 7', 'Bob: each entry must be a seat 0 to 2 or "dummy", '
      'got 5', 'Bob: each entry must be a seat 0 to 2 or "dummy", got "x"', "Cy: Bob's hand is listed twice",
      "Cy: the dummy is listed twice"]),
    ("dummy_spades", ABC, {}, 0, {"bids": [3, 4, 5], "tricks": [3, 3, 3], "dummy_tricks": 5},
     ["tricks add up to 14 with the dummy's 5, not 13"], ["tricks add up to 14 with the dummy's 5, not 13"]),
    ("third_hand", ABC[:2], {}, 0, {"bids": "x", "trump": "hearts", "points": [70, 70]},
     ['bids: must be a list of 2 bids, one per seat (a rank or null for face down), got "x"', f"points: {SEVENTY}"],
     ['Bids: must be a list of 2 bids, one per seat (a rank or null for face down), got "x"',
      f"Card points: {SEVENTY}"]),
    ("third_hand", ABC[:2], {}, 0, {"bids": ["Z", "K"], "trump": "hearts", "points": [100, 0]},
     ['bids[0] (Ann): must be one of "9", "10", "J", "Q", "K", "A" or null (face down), got "Z"'],
     ['Ann: must be one of "9", "10", "J", "Q", "K", "A" or null (face down), got "Z"']),
    ("third_hand", ABC[:2], {}, 0, {"bids": ["K", "K"], "trump": "hearts", "points": [100, 0]},
     ["bids: both bid K, but the dealer must bid a higher rank to top the non-dealer (equal rank does not top)"],
     ["Bids: both bid K, but the dealer must bid a higher rank to top the non-dealer (equal rank does not top)"]),
    ("third_hand", ABC[:2], {}, 1, {"bids": ["K", "Q"], "trump": "hearts", "points": [100, 0]},
     ["bids[1] (Bob): Bob bid Q, lower than Ann's K; as the dealer, Bob must bid higher than K or pass face down"],
     ["Bob: Bob bid Q, lower than Ann's K; as the dealer, Bob must bid higher than K or pass face down"]),
    ("third_hand", ABC[:2], {}, 0, {"bids": ["Q", "A"], "trump": "hearts", "points": [100, 0]},
     ["bids[0] (Ann): Ann bid Q, lower than Bob's A; as the dealer, Ann must pass face down (nothing is higher "
      "than A)"],
     ["Ann: Ann bid Q, lower than Bob's A; as the dealer, Ann must pass face down (nothing is higher than A)"]),
    ("third_hand", ABC[:2], {}, 0, {"bids": [None, None], "trump": "hearts", "points": [100, 0], "exchanged": True},
     ["exchanged: true, but both passed, so there was no contract and nobody may swap with the third hand"],
     ["Swap: ticked, but both passed, so there was no contract and nobody may swap with the third hand"]),
    ("third_hand", ABC[:2], {}, 0, {"bids": [None, None], "trump": "hearts", "points": [71, 3]},
     ["points add up to 74, which 14 captured cards cannot make (possible totals: 100-104, 109-113, 118-122, "
      "127-131, 136-140)", "points[1] (Bob): 3 can only be made from 3 captured cards, an odd number; every "
      "trick gives 2 cards, so each player captures an even number"],
     ["points add up to 74, which 14 captured cards cannot make (possible totals: 100-104, 109-113, 118-122, "
      "127-131, 136-140)", "Bob: 3 can only be made from 3 captured cards, an odd number; every trick gives 2 "
      "cards, so each player captures an even number"]),
    ("third_hand", ABC[:2], {}, 0, {"bids": [None, None], "trump": "hearts", "points": [2, 128]},
     ["points: Ann's 2 can only come from 2 captured cards and Bob's 128 from 14, which never add up to the 14 cards "
      "captured"],
     ["Card points: Ann's 2 can only come from 2 captured cards and Bob's 128 from 14, which never add up to the 14 "
      "cards captured"]),
]
# the params a problem's words read: a game's rules never give them, its Shown does
WORDS = {"text", "plain", "what", "why", "extra", "options"}


def refused(game: str, players: list[str], settings: dict, first: int, hand: dict) -> MatchError:
    with pytest.raises(MatchError) as caught:
        replay(Match(game, players, settings, first, [hand]))
    return caught.value


@pytest.mark.parametrize(("game", "players", "settings", "first", "hand", "lines", "plain"), CASES)
def test_the_engine_says_a_games_problems_in_the_games_words(game, players, settings, first, hand, lines, plain):
    error = refused(game, players, settings, first, hand)
    assert error.problems == [f"hand 1: {line}" for line in lines]
    assert [words.plain(p, GAMES[game].shown.field_word) for p in error.hand_problems[1]] == plain


@pytest.mark.parametrize(("game", "players", "settings", "first", "hand"), [case[:5] for case in CASES])
def test_a_games_rules_give_what_is_wrong_as_facts_without_words(game, players, settings, first, hand):
    played = GAMES[game]
    place = replay(Match(game, players, settings, first, [])).next_place()
    problems = played.rules.check_hand(dict(hand), place.dealing(first))
    own = [p for p in problems if p.fact is not None]
    assert own, problems  # each case breaks one of the game's own rules at least
    assert all(not WORDS & p.params.keys() for p in problems), [p.params for p in problems]
    assert all(p.fact is not None for p in problems if p.code == "rule")
    assert all(p.who is None or p.who in players for p in problems)  # a seat named otherwise is the Shown's word


def test_a_settings_problem_is_a_fact_the_game_says():
    wheel = GAMES["third_wheel"]
    facts = wheel.rules.check_settings(blank_place(wheel, {**wheel.defaults(), "deals_each": 0, "target": 0}, 3))
    assert [(p.code, p.params) for p in facts] == [("rule", {})] and facts[0].fact is not None
    _, problems = resolve_settings(wheel, {"deals_each": 0, "target": 0}, 3)
    assert [p.message for p in problems] == ["settings: deals_each and target are both 0, so the game would never "
                                             "end; set at least one of them"]


def test_the_words_are_the_shown_parts_not_the_rules(monkeypatch):
    wheel = GAMES["third_wheel"]
    monkeypatch.setattr(wheel.shown, "problem_words", lambda fact, place: said(f"no, {' '.join(place.players)}"))
    error = refused("third_wheel", ABC, {}, 0, CASES[0][4])
    assert error.problems == ["hand 1: bid: no, Ann Bob Cy"]
    # the settings checked before the players are known: stand-ins for them; with the file's, its names
    assert [p.message for p in resolve_settings(wheel, {"deals_each": 0, "target": 0}, 3)[1]] == [
        "settings: no, Player 1 Player 2 Player 3"]
    with pytest.raises(MatchError) as caught:
        replay(Match("third_wheel", ABC, {"deals_each": 0, "target": 0}, 0, []))
    assert caught.value.problems == ["settings: no, Ann Bob Cy"]
