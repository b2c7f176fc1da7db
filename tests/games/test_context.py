"""Where a game is told it is (``HandContext``): the engine builds one per hand while
replaying, and every hook of the hand sees the same place: its number, who deals it,
the totals, the game's state and the deals before it."""
from __future__ import annotations

import dataclasses
import random

import pytest

from scorekeeper.engine import Match, MatchError, replay, resolve_settings
from scorekeeper.games import GAMES
from scorekeeper.games.base import (
    Ending,
    Game,
    GameSettings,
    HandContext,
    Problem,
    Rules,
    Scored,
    Setting,
    Shown,
    Table,
    Target,
    rule,
    target_ending,
)
from scorekeeper.samples import random_match

GAME_KEYS = sorted(GAMES)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_each_hand_is_placed_where_the_match_stood_before_it(key):
    match = random_match(key, 15, seed=7)
    result = replay(match)
    game = GAMES[key]
    totals = (0,) * len(match.players)
    state = game.rules.start(Table(tuple(match.players), result.settings))
    dealt = [0] * len(match.players)
    for scored in result.hands:
        place = result.place(scored.number)
        assert (place.number, place.dealer, place.totals, place.dealt) == (scored.number, scored.dealer, totals,
                                                                            tuple(dealt))
        assert place.state == state and place.players == tuple(match.players)
        # the hands the count leaves from there, asked of the rules when a page first places the hand
        assert place.hands_left == game.rules.hands_left(place) and result.place(scored.number) is place
        totals, state = tuple(scored.totals), game.rules.score_hand(match.hands[scored.number - 1], place).state
        dealt[scored.dealer] += 1
    after = result.next_place()
    assert (after.number, after.dealer, after.totals, after.dealt) == (len(match.hands) + 1, result.next_dealer,
                                                                        totals, tuple(dealt))
    assert after.state == result.state and after.finished == result.finished
    assert after.hands_left == game.rules.hands_left(after) and result.place(len(match.hands) + 1) == after
    with pytest.raises(IndexError):
        result.place(len(match.hands) + 2)


def test_a_resumed_replay_places_its_hands_as_a_full_one_does():
    match = random_match("dummy_spades", 10, seed=3)
    whole = replay(match)
    first = replay(Match(match.game, match.players, match.settings, 0, match.hands[:4]))
    resumed = replay(match, resume=first)
    assert [resumed.place(n) for n in range(1, 11)] == [whole.place(n) for n in range(1, 11)]
    assert resumed.next_place() == whole.next_place()


def test_a_hand_dealt_out_of_turn_is_placed_with_its_own_dealer():
    match = random_match("third_rail", 3, seed=1)
    match.hands[1] = dict(match.hands[1], dealer=2)
    result = replay(match)
    assert result.place(2).dealer == 2 and result.place(2).dealt == (1, 0, 0)
    assert result.place(3).dealt == (1, 0, 1)


@dataclasses.dataclass(frozen=True)
class CountingSettings(GameSettings):
    most: int
    mode: str
    factor: int


class CountingRules(Rules[CountingSettings]):
    """Each hand scores its number for everyone; every hook records the place it was given;
    a setting says how many may play; no target: the game goes on."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, HandContext]] = []

    def check_settings(self, place: HandContext) -> list[Problem]:
        seats, most = place.seats, CountingSettings.at(place.table).most
        return [rule("settings.most", f"{seats} players is more than {most}")] if seats > most else []

    def check_hand(self, hand: dict, ctx: HandContext) -> list[Problem]:
        self.seen.append(("check", ctx))
        return []

    def score_hand(self, hand: dict, ctx: HandContext) -> Scored:
        self.seen.append(("score", ctx))
        points = hand.get("points") or [ctx.number] * ctx.seats
        return Scored(list(points), None, state=(ctx.state or 0) + 1)


class CountingShown(Shown):
    def explanation_words(self, hand: dict, scored: Scored, ctx: HandContext) -> list[str]:
        return [f"hand {ctx.number}"]


class LowRules(CountingRules):
    """The same hands, played to a target where the lowest total wins."""

    def target(self, place: HandContext) -> Target:
        return Target(10, low_wins=True)


class Counting(Game):
    """A game told where it is, registered only here."""

    key, title, summary = "counting", "Counting", "scores the hand number"
    min_players, max_players = 2, 8
    settings = (Setting("most", 8, "Most players", "a table larger than this is refused", minimum=2),
                Setting("mode", "plain", "Mode", "how it counts", kind="choice", choices=("plain", "twice"),
                        labels=(("plain", "plain counting"), ("twice", "counted twice"))),
                Setting("factor", 2, "Factor", "what twice means", minimum=2, maximum=3,
                        applies_when=("mode", "twice")))
    settings_type = CountingSettings
    hand_fields = ("points",)

    def __init__(self) -> None:
        self.rules = CountingRules()
        self.shown = CountingShown()


@pytest.fixture
def counting(monkeypatch):
    game = Counting()
    monkeypatch.setitem(GAMES, game.key, game)
    return game


def test_check_and_score_are_told_the_same_place(counting):
    result = replay(Match("counting", ["Ann", "Bob", "Cy"], {}, 1, [{}, {"dealer": 0}, {}]))
    assert result.totals == [6, 6, 6]
    places = [(what, ctx.number, ctx.dealer, ctx.totals, ctx.state) for what, ctx in counting.rules.seen]
    assert places == [("check", 1, 1, (0, 0, 0), None), ("score", 1, 1, (0, 0, 0), None),
                      ("check", 2, 0, (1, 1, 1), 1), ("score", 2, 0, (1, 1, 1), 1),
                      ("check", 3, 1, (3, 3, 3), 2), ("score", 3, 1, (3, 3, 3), 2)]


def test_an_explanation_is_worded_when_first_read(counting):
    worded: list[int] = []

    class Telling(type(counting.shown)):  # type: ignore[misc]
        """Records each time a deal out of turn is worded (an explanation line)."""

        def dealt_out_of_turn(self, ctx: HandContext) -> str:
            worded.append(ctx.number)
            return "it counts as their deal"

    counting.shown = Telling()
    result = replay(Match("counting", ["Ann", "Bob", "Cy"], {}, 0, [{}, {"dealer": 0}, {}]))
    assert worded == []  # the replay scored every hand and worded none
    second = result.hands[1]
    assert second.explanation == ["hand 2", "Ann dealt this hand out of turn (it was Bob's deal): it counts as their "
                                  "deal.", "Bob deals next: the deal passes left from Ann."]
    assert second.explanation is second.explanation and worded == [2]  # once, and kept
    assert result.hands[0].explanation == ["hand 1", "Bob deals next: the deal passes left."]


def test_settings_are_checked_knowing_how_many_play(counting):
    with pytest.raises(MatchError) as refused:
        replay(Match("counting", ["Ann", "Bob", "Cy"], {"most": 2}))
    assert refused.value.problems == ["settings.most: 3 players is more than 2"]
    assert replay(Match("counting", ["Ann", "Bob"], {"most": 2})).settings["most"] == 2
    assert resolve_settings(counting, {"most": 2}, 3)[1] and not resolve_settings(counting, {"most": 2}, 2)[1]


def test_a_setting_is_checked_even_where_it_does_not_apply(counting):
    # match-format.md, `settings`: every key given is checked; a value refused where the
    # setting applies is refused where it does not, naming the key
    _, problems = resolve_settings(counting, {"mode": "plain", "factor": 9}, 3)
    assert [p.field for p in problems] == ["settings.factor"]
    settings, problems = resolve_settings(counting, {"mode": "plain", "factor": 3}, 3)
    assert problems == [] and settings["factor"] == 3  # a valid value is kept as given
    _, problems = resolve_settings(counting, {"mode": "twice", "factor": 9}, 3)
    assert [p.field for p in problems] == ["settings.factor"]


def test_real_settings_that_depend_on_another():
    spades, rail = GAMES["dummy_spades"], GAMES["third_rail"]
    for peek in ("none", "flip"):
        assert [p.message for p in resolve_settings(spades, {"peek": peek, "flip_count": 9}, 3)[1]] == [
            "settings.flip_count: must be 1 to 4, got 9"]
    assert resolve_settings(spades, {"peek": "none", "flip_count": 3}, 3) == ({**spades.defaults(), "flip_count": 3},
                                                                              [])
    for bonus in (False, True):
        assert [p.field for p in resolve_settings(rail, {"most_other_tricks_bonus": bonus, "bonus_tie": "x"}, 3)[1]] \
            == ["settings.bonus_tie"]
    assert [p.field for p in resolve_settings(rail, {"bonus_tie": "most"}, 3)[1]] == ["settings.bonus_tie"]
    assert resolve_settings(rail, {"bonus_tie": "none"}, 3)[1] == []


def test_a_setting_words_its_own_values():
    counting = Counting()
    mode = counting.settings[1]
    assert [mode.text(v) for v in mode.choices] == ["plain counting", "counted twice"]
    setter = next(s for s in GAMES["third_wheel"].settings if s.name == "overtrick_setter")
    assert setter.text("own_tricks") == "own tricks"
    values = next(s for s in GAMES["third_hand"].settings if s.name == "contract_values")
    assert values.text({"9": 60, "10": 65}) == "9\u00a060, 10\u00a065"
    lose_at = next(s for s in GAMES["dummy_spades"].settings if s.name == "lose_at")
    assert (lose_at.text(None), lose_at.text(-200)) == ("off", "-200")
    assert Setting("on", True, "On", "", kind="bool").text(False) == "off"


def test_the_empty_place_is_a_match_before_any_hand():
    game = GAMES["dummy_spades"]
    place = game.empty_place(Table(("Ann", "Bob", "Cy"), game.defaults()), 2)
    assert (place.number, place.dealer, place.totals, place.state, place.dealt) == (1, 2, (0, 0, 0), (0, 0, 0),
                                                                                   (0, 0, 0))
    unknown = place.dealing(None)
    assert unknown.dealer is None and place.dealer == 2
    with pytest.raises(ValueError, match="hand 1: its dealer is not known"):
        _ = unknown.dealt_by
    with pytest.raises(dataclasses.FrozenInstanceError):
        place.number = 2  # type: ignore[misc]


@pytest.mark.parametrize("key", GAME_KEYS)
def test_random_hands_follow_the_place_they_are_dealt_in(key):
    """A random hand for the next hand of a match is valid where it is dealt."""
    game, rng = GAMES[key], random.Random(11)
    match = random_match(key, 5, seed=5)
    result = replay(match)
    if result.next_dealer is None:
        return
    for _ in range(10):
        hand = game.rules.random_hand(result.next_place(), rng)
        assert replay(Match(key, match.players, match.settings, 0, match.hands + [hand]), resume=result)


def test_a_game_without_a_target_never_ends_and_says_nothing_of_one(counting):
    result = replay(Match("counting", ["Ann", "Bob"], {}, 0, [{}] * 30))
    assert not result.finished and result.totals == [465, 465]
    panel = counting.needs(result.next_place())
    assert panel.table == () and [need.lines for need in panel.seats] == [("is level with Bob on 465",),
                                                                          ("is level with Ann on 465",)]
    line = counting.progress(result.next_place())
    assert (line.lines, line.percent) == ((), None)


def test_low_wins_ends_at_the_target_with_the_lowest_total(counting):
    counting.rules = LowRules()
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    hands = [{"points": [1, 2, 3, 4, 0, 0, 0, 5]}, {"points": [1, 0, 3, 4, 0, 1, 0, 5]}]
    result = replay(Match("counting", names, {}, 0, hands))
    assert not result.finished  # Hal reached 10, but Eve and Gus share the lowest total
    assert result.hands[-1].ending == "Eve and Gus are tied on 0 at the bottom: another hand is dealt"
    hands[1]["points"][6] = 1  # Gus no longer level with Eve at the bottom
    result = replay(Match("counting", names, {}, 0, hands))
    assert (result.finished, result.winners) == (True, [4])
    assert result.hands[-1].ending == "Hal reached 10 with 10, and Eve wins with the lowest total, 0"
    early = replay(Match("counting", names, {}, 0, hands[:1]))
    panel = counting.needs(early.next_place())
    assert panel.table[0].startswith("Playing to 10: a total of 10 or more ends the game; the lowest total")
    assert panel.seats[4].lines == ("10 more would end the game (reach 10)", "shares the lead with Fay and Gus on 0")
    assert panel.seats[7].lines == ("5 more would end the game (reach 10)", "is 5 behind Eve, Fay and Gus")
    line = counting.progress(early.next_place())
    assert (line.lines, line.percent) == (("Playing to 10: the lowest total wins", "5 more ends it"), 50)


class LowNoTargetRules(CountingRules):
    """The lowest total wins, and no target ends the game (a fixed number of hands might)."""

    def lowest_wins(self, place: HandContext) -> bool:
        return True


def test_the_needs_panel_ranks_the_lowest_first_without_a_target(counting):
    counting.rules = LowNoTargetRules()
    result = replay(Match("counting", ["Ann", "Bob", "Cy"], {}, 0, [{"points": [3, 0, 5]}]))
    panel = counting.needs(result.next_place())
    assert panel.table == ()
    assert [need.lines for need in panel.seats] == [("is 3 behind Bob",), ("leads Ann by 3",), ("is 5 behind Bob",)]


class EndsRules(CountingRules):
    """Records what the end check is told."""

    def ending(self, place: HandContext) -> Ending:
        self.seen.append(("ending", place))
        return super().ending(place)


def test_the_end_check_is_told_where_the_match_stands_after_the_hand(counting):
    counting.rules = EndsRules()
    replay(Match("counting", ["Ann", "Bob"], {}, 1, [{}, {}]))
    told = [(p.number, p.hands_played, p.dealer, p.totals, p.state, p.dealt)
            for what, p in counting.rules.seen if what == "ending"]
    assert told == [(2, 1, None, (1, 1), 1, (0, 1)), (3, 2, None, (3, 3), 2, (1, 1))]


def test_the_place_of_a_logged_hand_keeps_its_number():
    result = replay(random_match("oddball", 3, seed=2))
    assert result.logged_place(2) == result.place(2) and result.logged_place(4) == result.next_place()
    gone = result.logged_place(6)  # undone since, with the hands after it
    assert (gone.number, gone.dealer, gone.totals) == (6, None, tuple(result.totals))


class FiveHandsRules(CountingRules):
    """Five hands in all, whoever deals (a count of hands, not of deals); a hand scores 0 to 2."""

    hands_left_follow_deal = False

    def hands_left(self, place: HandContext) -> int | None:
        return 0 if place.finished else 5 - place.hands_played

    def most_in_a_hand(self, place: HandContext) -> int | None:
        return 2

    def least_in_a_hand(self, place: HandContext) -> int | None:
        return 0


def test_a_fixed_count_of_hands_is_a_fact_the_shared_words_follow(counting):
    counting.rules = FiveHandsRules()
    result = replay(Match("counting", ["Ann", "Bob"], {}, 0, [{"points": [5, 0]}, {"points": [2, 0]}]))
    facts = counting.rules.needs(result.next_place())
    assert (facts.hands_left, facts.left_if_in_turn, facts.swing) == (3, False, 2)
    assert [(s.gap, s.out) for s in facts.seats] == [(0, False), (7, True)]  # 7 > 3 hands x 2
    panel = counting.shown.needs_words(facts)
    assert panel.table == ("3 hands left.", "The most a player can score in one hand: 2.")
    assert panel.seats[1].lines == ("is 7 behind Ann", "can no longer win: 3 hands left, and a hand moves two "
                                                       "players at most 2 apart")
    assert counting.progress(result.next_place()).lines == ("hand 3 of 5: 3 hands left",)
    counting.rules = CountingRules()  # the same hands where deals are counted: the assumption is said
    assert counting.shown.hand_of(dataclasses.replace(counting.rules.progress(result.next_place()),
                                                      left_if_in_turn=True)).endswith("if the deal goes round in turn")


def test_the_target_rule_ends_with_facts_the_shown_words(counting):
    counting.rules = LowRules()
    names = ["Ann", "Bob", "Cy"]
    result = replay(Match("counting", names, {}, 0, [{"points": [4, 11, 0]}]))
    ending = counting.rules.ending(result.next_place())
    assert ending.winners == [2] and ending.own is None and ending.by_target is not None
    assert (ending.by_target.outcome, ending.by_target.at_top, ending.by_target.leaders) == ("won", (1,), (2,))
    assert result.hands[-1].ending == counting.shown.ending_words(ending, result.next_place()) \
        == "Bob reached 10 with 11, and Cy wins with the lowest total, 0"


@pytest.mark.parametrize(("totals", "at_top", "leaders", "outcome"), [
    ((4, 11, 0), (1,), (2,), "won"), ((11, 11, 0), (0, 1), (2,), "won"), ((11, 0, 0), (0,), (1, 2), "tied"),
    ((3, 5, 5), (1, 2), (0,), "short"), ((10, 10, 10), (0, 1, 2), (0, 1, 2), "tied")])
def test_the_target_rule_finds_every_seat_on_the_top_and_best_totals(totals, at_top, leaders, outcome):
    found = target_ending(totals, Target(10, low_wins=True)).by_target
    assert found is not None and (found.at_top, found.leaders, found.outcome) == (at_top, leaders, outcome)
    high = target_ending(list(totals), Target(10)).by_target  # a list as well as a tuple; the highest wins
    assert high is not None and high.leaders == high.at_top == at_top


def test_only_the_engine_builds_a_place():
    """The web asks the replay for a place (``MatchResult.place``, ``next_place``, ``logged_place``;
    ``Game.empty_place`` where there is no match): it never assembles one."""
    from pathlib import Path

    import scorekeeper

    package = Path(scorekeeper.__file__).parent
    builders = [path.relative_to(package).as_posix() for path in sorted(package.rglob("*.py"))
                if "HandContext(" in path.read_text(encoding="utf-8")]
    assert builders == ["engine.py", "games/base.py"]
