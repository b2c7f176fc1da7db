"""What each player needs, on the scoreboard, for each game's end rule: figures worked
out by hand from the rules."""
from __future__ import annotations

from scorekeeper.engine import Match
from scorekeeper.games import GAMES
from tests.places import blank_place, place_at

from .helpers import page_of, stored


def _panel(app, client, match: Match) -> tuple[dict[str, str], list[str], set[str]]:
    match_id = stored(app, client, match)
    page = page_of(client.get(f"/matches/{match_id}"))
    seats = {li.text.split(" ", 1)[0]: li.text.split(" ", 1)[1] for li in page.find_all("li", cls="need")}
    out = {li.text.split(" ", 1)[0] for li in page.find_all("li", cls="need") if "out" in li.classes}
    general = [p.text for p in page.find_all("p", cls="hint") if p in page.find_all("p")
               and any(p is q for q in page.elements[page.elements.index(page.find("details", cls="needs")):])]
    return seats, general, out


def test_third_hand_past_500(app, client):
    # no contract: each scores own points. 80/60, then 60/80: Ann 140, Bob 140
    hands = [{"bids": [None, None], "trump": "hearts", "points": [80, 60]},
             {"bids": [None, None], "trump": "hearts", "points": [60, 80]}]
    seats, general, out = _panel(app, client, Match("third_hand", ["Ann", "Bob"], hands=hands))
    assert seats["Ann"] == "needs 361 more to pass 500; is level with Bob on 140."
    assert seats["Bob"] == "needs 361 more to pass 500; is level with Ann on 140."
    assert "Playing past 500: a total of 501 or more ends the game (500 exactly is not past 500); " \
           "the highest total then wins, and a tie for the highest total means another hand is dealt." in general
    # true, and no help at the table: gone
    assert not any("The most a player can score" in line for line in general)
    assert out == set()


def test_third_hand_the_player_behind_is_told_how_one_hand_catches_up(app, client):
    # Ann holds at Q (75) undoubled and makes it with 100 to 30: 100 + 70 = 170; Bob 30
    hands = [{"bids": ["Q", None], "trump": "hearts", "points": [100, 30]}]
    seats, _, _ = _panel(app, client, Match("third_hand", ["Ann", "Bob"], first_dealer=1, hands=hands))
    assert seats["Ann"] == "needs 331 more to pass 500; leads Bob by 140."
    # 140 behind: 140 more card points with no contract; with a contract Bob makes or Ann fails
    # the difference counts twice (70), three times doubled (47)
    assert seats["Bob"] == ("needs 471 more to pass 500; is 140 behind Ann; could catch up with Ann in one "
                            "hand by taking at least 140 more card points than Ann with no contract, 70 more "
                            "with a contract Bob makes or Ann fails, or 47 more if it is doubled.")


def _wheel(bid, tricks):
    return {"trump": "moons", "mode": "high", "wheel": False, "bid": bid, "tricks": tricks}


def test_third_wheel_can_no_longer_win_names_its_assumption(app, client):
    # deals_each 1, no target. Ann deals: bid 11 made -> Ann 22. Bob deals: bid 11, takes 0:
    # each setter 11, Ann (fewer, 5) 11 + 5 -> Ann 38, Bob 0, Cy 11; Cy's deal is the last in turn.
    # Bob may deal out of turn, though, and lengthen the game (Cy then can win 44 to 38).
    hands = [_wheel(11, [11, 0, 0]), _wheel(11, [5, 0, 6])]
    seats, general, out = _panel(app, client, Match("third_wheel", ["Ann", "Bob", "Cy"],
                                                    {"deals_each": 1, "target": 0}, hands=hands))
    assert seats["Cy"] == ("is 27 behind Ann; can no longer win if the deal goes round in turn: 1 hand left, "
                           "and a hand moves two players at most 22 apart.")
    assert seats["Bob"] == ("is 38 behind Ann; can no longer win if the deal goes round in turn: 1 hand left, "
                            "and a hand moves two players at most 22 apart.")
    assert seats["Ann"] == "leads Cy by 27."
    assert out == {"Bob", "Cy"}
    assert "1 hand left if the deal goes round in turn (a deal out of turn can make it more)." in general
    assert "The most a player can score in one hand: 22." in general


def test_third_wheel_with_everyone_level_and_no_target_every_player_has_a_line(app, client):
    seats, _, out = _panel(app, client, Match("third_wheel", ["Ann", "Bob", "Cy"], {"deals_each": 2, "target": 0}))
    assert seats == {"Ann": "is level with Bob and Cy on 0.", "Bob": "is level with Ann and Cy on 0.",
                     "Cy": "is level with Ann and Bob on 0."}
    assert out == set()


def test_third_wheel_a_player_far_behind_with_hands_left_is_not_told_they_are_out(app, client):
    hands = [_wheel(11, [11, 0, 0]), _wheel(11, [0, 11, 0])]
    # 4 hands left: Cy 22 behind, 4 × 22 = 88: still in it; target 33 too
    seats, general, out = _panel(app, client, Match("third_wheel", ["Ann", "Bob", "Cy"], hands=hands))
    assert out == set()
    assert seats["Cy"] == "needs 33 more to reach 33; is 22 behind Ann and Bob."
    assert seats["Ann"] == "needs 11 more to reach 33; shares the lead with Bob on 22."
    assert ("Playing to 33: a total of 33 or more ends the game; the highest total then wins, "
            "and players tied for the highest total share the win.") in general
    assert ("4 hands left if the deal goes round in turn (fewer if someone reaches the target; "
            "a deal out of turn can make it more).") in general


def test_third_wheel_with_the_penalty_a_hand_moves_players_further_apart(app, client):
    wheel = GAMES["third_wheel"]
    penalty = {"overtrick_dealer": "penalty", "overtrick_setter": "other_setter"}
    assert wheel.rules.least_in_a_hand(blank_place(wheel, penalty, 3)) == -11  # bid 0, took 11
    hands = [{"trump": "moons", "mode": "high", "wheel": False, "bid": 11, "tricks": [11, 0, 0]},
             {"trump": "moons", "mode": "high", "wheel": False, "bid": 11, "tricks": [0, 11, 0]},
             {"trump": "moons", "mode": "high", "wheel": False, "bid": 0, "tricks": [6, 5, 0]},
             {"trump": "moons", "mode": "high", "wheel": False, "bid": 11, "tricks": [11, 0, 0]},
             {"trump": "moons", "mode": "high", "wheel": False, "bid": 11, "tricks": [0, 11, 0]}]
    # Ann 44, Bob 49, Cy 11 (no hand went over); a hand now moves two players 22 - (-11) = 33
    # apart: 38 > 33, out in turn
    seats, _, out = _panel(app, client, Match("third_wheel", ["Ann", "Bob", "Cy"],
                                              {"deals_each": 2, "target": 0, "overtrick_dealer": "penalty"},
                                              hands=hands))
    assert out == {"Cy"} and "at most 33 apart" in seats["Cy"]
    assert "can no longer win if the deal goes round in turn" in seats["Cy"]


def test_dummy_spades_bags_and_lose_at(app, client):
    # bids 7/5/6, Ann (seat 0) deals; declarer Ann (7). Tricks Ann 4 + dummy 4 = 8: Ann +71, 1 bag.
    # defenders Bob and Cy take 5 together: Bob bid 5 -> +50, Cy bid 6 -> -60.
    hands = [{"bids": [7, 5, 6], "tricks": [4, 3, 2], "dummy_tricks": 4}]
    seats, general, out = _panel(app, client, Match("dummy_spades", ["Ann", "Bob", "Cy"],
                                                    {"lose_at": -200, "target": 300}, hands=hands))
    assert seats["Ann"] == ("needs 229 more to reach 300; leads Bob by 21; has 1 bag: 9 more bags cost 100 points; "
                            "is 271 points above -200.")
    assert seats["Cy"] == ("needs 360 more to reach 300; is 131 behind Ann; has 0 bags: 10 more bags cost "
                           "100 points; is 140 points above -200.")
    assert ("A total of -200 or below also ends the game; the highest total then wins, and a tie for the "
            "highest total means another hand is dealt.") in general
    assert "The most a player can score in one hand: 230." in general  # 13 × 10 and a nil of 100
    assert out == set()


def test_dummy_spades_a_player_below_lose_at_is_told_why_play_goes_on(app, client):
    # Ann deals; bids Ann 2, Bob 2, Cy 7: Cy declares and is set (Cy 3 + dummy 2 = 5 of 7): -70.
    # Ann and Bob defend, 8 tricks together: each bid 2 -> 20 + 6 overtricks = 26, tied at the top.
    hands = [{"bids": [2, 2, 7], "tricks": [4, 4, 3], "dummy_tricks": 2}]
    seats, _, _ = _panel(app, client, Match("dummy_spades", ["Ann", "Bob", "Cy"],
                                            {"lose_at": -60, "target": 300}, hands=hands))
    assert seats["Cy"] == ("needs 370 more to reach 300; is 96 behind Ann and Bob; has 0 bags: 10 more bags "
                           "cost 100 points; is on -70, at or below -60, which ends the game: play goes on only "
                           "because Ann and Bob are tied on 26 at the top (a tie for the highest total means "
                           "another hand).")
    assert seats["Ann"].endswith("is 86 points above -60.")


def test_third_rail_most_in_a_hand_and_the_target(app, client):
    hands = [{"scoring_tricks": [2, 1, 1, 0], "other_tricks": [3, 2, 2, 2]}]
    seats, general, _ = _panel(app, client, Match("third_rail", ["Ann", "Bob", "Cy", "Dee"],
                                                  {"most_other_tricks_bonus": True}, hands=hands))
    # 13 tricks: 3, 6, 9 and 12 score, and the bonus is 2: Ann 2 + 2 = 4
    assert "The most a player can score in one hand: 6." in general
    assert seats["Ann"] == "needs 8 more to reach 12; leads Bob and Cy by 3."
    assert seats["Dee"] == "needs 12 more to reach 12; is 4 behind Ann."


def test_a_finished_match_has_no_panel(app, client):
    hands = [{"scoring_tricks": [2, 1, 1, 0], "other_tricks": [3, 2, 2, 2]}]
    match_id = stored(app, client, Match("third_rail", ["Ann", "Bob", "Cy", "Dee"], {"target": 1}, hands=hands))
    assert page_of(client.get(f"/matches/{match_id}")).find("details", cls="needs") is None


def test_exactly_catchable_is_not_out_because_a_tie_shares_the_win():
    from scorekeeper.games.base import Table

    game = GAMES["third_wheel"]
    table = Table(("Ann", "Bob", "Cy"), game.defaults() | {"target": 0})
    # five hands dealt in turn from Ann: Cy deals the last one
    for behind, is_out in ((22, False), (23, True)):
        found = game.needs(place_at(game, table, [50, 50 - behind, 50], 5, None, [2, 2, 1], 2))
        assert found.seats[1].out is is_out
        assert not found.seats[0].out and not found.seats[2].out


def test_no_random_hand_of_any_game_scores_outside_its_bounds():
    import random

    from scorekeeper.engine import replay

    rng = random.Random(13)
    for key, game in GAMES.items():
        seats = game.sample_players
        # as long a match as the game plays, up to 300 hands (its own settings for one that long,
        # else its defaults until it ends)
        settings = game.long_match(300, seats)
        match = Match(key, [f"P{i}" for i in range(seats)], dict(settings or {}))
        result = replay(match)
        for _ in range(300):
            if result.next_dealer is None:
                break
            hand = game.rules.random_hand(result.next_place(), rng)
            hand.pop("dealer", None)
            match.hands.append(hand)
            result = replay(match, resume=result)
        most, least = game.rules.most_in_a_hand(result.next_place()), game.rules.least_in_a_hand(result.next_place())
        scores = [s for h in result.hands for s in h.scores]
        # a bound is the game's to give (None: "no bound", as Rules.most_in_a_hand allows); one given holds
        assert most is None or max(scores) <= most, key
        assert least is None or min(scores) >= least, key


def _needs(key: str, players: tuple[str, ...], settings: dict, totals: list[int], dealt: list[int],
           next_dealer: int | None = 0):
    """The panel's words where the match stands at those totals, each seat having dealt ``dealt``."""
    import dataclasses

    from scorekeeper.games.base import HandContext, Table

    game = GAMES[key]
    table = Table(players, game.defaults() | settings)
    place = HandContext(table, sum(dealt) + 1, next_dealer, tuple(totals), game.rules.start(table), tuple(dealt))
    place = dataclasses.replace(place, hands_left=game.rules.hands_left(place))
    found = game.needs(place)
    return list(found.table), {players[n.seat]: "; ".join(n.lines) for n in found.seats}


def test_a_total_exactly_on_the_target_is_on_it_and_one_past_it_says_how_far():
    # Third Rail, target 12: Ann and Bob tied on 12 play on; "at or over 12" said neither
    _, seats = _needs("third_rail", ("Ann", "Bob", "Cy", "Dee"), {}, [12, 12, 3, 0], [1, 0, 0, 0])
    assert seats["Ann"].startswith("is on 12: needs to be alone at the top")
    _, seats = _needs("third_rail", ("Ann", "Bob", "Cy", "Dee"), {}, [14, 14, 3, 0], [1, 0, 0, 0])
    assert seats["Bob"].startswith("is 2 over 12: needs to be alone at the top")


def test_the_last_hand_left_is_not_told_it_may_be_fewer():
    # Third Wheel, 1 deal each, target 33: Ann and Bob dealt, Cy deals the last hand
    general, _ = _needs("third_wheel", ("Ann", "Bob", "Cy"), {"deals_each": 1}, [11, 0, 5], [1, 1, 0], 2)
    assert "1 hand left if the deal goes round in turn (a deal out of turn can make it more)." in general
    general, _ = _needs("third_wheel", ("Ann", "Bob", "Cy"), {"deals_each": 1}, [11, 0, 5], [1, 0, 0], 1)
    assert ("2 hands left if the deal goes round in turn (fewer if someone reaches the target; "
            "a deal out of turn can make it more).") in general


def test_score_pad_hearts_panel_reads_as_sentences_without_the_pads_bounds(app, client):
    # Hearts: to 100, lowest wins; Cy exactly on 100 (a tie for the lowest plays on)
    hands = [{"points": [10, 13, 50, 13]}, {"points": [50, 30, 50, 30]}]
    seats, general, _ = _panel(app, client, Match("score_pad", ["Ann", "Bob", "Cy", "Dee"],
                                                  {"name": "Hearts", "target": 100, "low_wins": True},
                                                  hands=hands))
    assert seats["Cy"] == "is on 100; is 57 above Bob and Dee."
    assert not any("can move a player" in line for line in general)
    assert not any("100000" in line for line in general)  # nor the form's hint (its guard is no help at a table)
    _, seats = _needs("score_pad", ("Ann", "Bob"), {"target": 100}, [107, 20], [1, 0])
    assert seats["Ann"].startswith("is 7 over 100; ")


def test_score_pad_last_hand_is_not_told_it_may_come_sooner():
    general, _ = _needs("score_pad", ("Ann", "Bob"), {"target": 60, "hand_count": 4}, [30, 20], [2, 1])
    assert ("4 hands in all: 1 hand left; the highest total then wins, and players tied for it share the win."
            in general)
    general, _ = _needs("score_pad", ("Ann", "Bob"), {"target": 60, "hand_count": 4}, [30, 20], [1, 1])
    assert "4 hands in all: 2 hands left, sooner if a total reaches 60; " in general[1]
