"""Every line of "What each player needs" holds under every continuation the rules allow.

For random positions of every game (seeded, under several settings), each player the panel
says can no longer win is searched for a continuation in which they win after all: hands
from the game's own ``random_hand``, scored by the engine's replay, any seat dealing (a hand
may carry "dealer": the rules allow a deal out of turn) unless the line names the deal going
round in turn as its assumption, in which case only the in-turn dealer deals. A shared win
is a win. Finding one is a false claim."""
from __future__ import annotations

import random
import re

import pytest

from scorekeeper.engine import Match, MatchResult, replay, showing
from scorekeeper.games import GAMES
from scorekeeper.web.model.view import needs
from tests.places import blank_place, dealt_place, place_at

# Each game's own variants worth playing (its ``sample_settings``), not a list kept here.
SETTINGS: dict[str, list[dict]] = {key: [dict(v) for v in game.sample_settings] for key, game in GAMES.items()}
IN_TURN = "if the deal goes round in turn"
NO_LONGER = "can no longer win"


def _play(match: Match, result: MatchResult, hand: dict) -> MatchResult:
    return replay(Match(match.game, match.players, match.settings, match.first_dealer, match.hands + [hand]),
                  resume=result)


def _hand(game, result: MatchResult, dealer: int, in_turn: int, rng: random.Random) -> dict:
    hand = game.rules.random_hand(result.next_place().dealing(dealer), rng)
    hand.pop("dealer", None)
    if dealer != in_turn:
        hand["dealer"] = dealer
    return hand


def positions(key: str, rng: random.Random, count: int):
    """Unfinished matches, each leaning towards one favourite so the totals spread out,
    with a deal out of turn now and then."""
    game = GAMES[key]
    for n in range(count):
        settings = SETTINGS[key][n % len(SETTINGS[key])]
        seats = rng.randint(game.min_players, game.max_players)
        match = Match(key, [f"P{i}" for i in range(seats)], dict(settings), rng.randrange(seats))
        result = replay(match)
        favourite = rng.randrange(seats)
        deals = settings.get("deals_each")
        length = rng.randint(max(0, 3 * deals - 4), 3 * deals) if deals else rng.randint(0, 14)
        for _ in range(length):
            for _ in range(20):  # a hand that does not end the game
                in_turn = result.next_dealer
                dealer = rng.randrange(seats) if rng.random() < 0.15 else in_turn
                options = [_hand(game, result, dealer, in_turn, rng) for _ in range(4)]
                scored = [(_play(match, result, h), h) for h in options]
                scored = [(r, h) for r, h in scored if not r.finished]
                if scored:
                    result, hand = max(scored, key=lambda rh: rh[0].hands[-1].scores[favourite])
                    match.hands.append(hand)
                    break
        yield match, result


def winning_continuation(match: Match, result: MatchResult, seat: int, any_dealer: bool,
                         rng: random.Random, depth: int = 30, tries: int = 60) -> list[dict] | None:
    """Greedy search, a few times over: each step plays the candidate hand that leaves
    ``seat`` best placed against the best of the others, and stops at once on a hand that
    ends the game with ``seat`` among the winners."""
    game, seats = GAMES[match.game], len(match.players)
    for _ in range(3):
        played: list[dict] = []
        here, now = Match(match.game, match.players, match.settings, match.first_dealer, list(match.hands)), result
        for _ in range(depth):
            in_turn = now.next_dealer
            best = None
            for dealer in (range(seats) if any_dealer else [in_turn]):
                for _ in range(tries):
                    hand = _hand(game, now, dealer, in_turn, rng)
                    after = _play(here, now, hand)
                    if after.finished:
                        if seat in after.winners:
                            return played + [hand]
                        continue
                    margin = after.totals[seat] - max(t for s, t in enumerate(after.totals) if s != seat)
                    if best is None or margin > best[0]:
                        best = (margin, hand, after)
            if best is None:
                break
            played.append(best[1])
            here.hands.append(best[1])
            now = best[2]
    return None


def panel(match: Match, result: MatchResult) -> dict:
    """The needs panel as the match page shows it (from the engine's record of the page, no hand rows)."""
    return needs(showing(result, match.hands, first=len(result.hands) + 1))


def claims(match: Match, result: MatchResult) -> list[tuple[int, str]]:
    """(seat, clause) for every clause of the panel that says a player can no longer win."""
    shown = panel(match, result)
    found = []
    for seat, need in enumerate(shown["seats"]):
        for line in need["lines"]:
            if NO_LONGER in line:
                found.append((seat, line))
    return found


@pytest.mark.parametrize("key", sorted(SETTINGS))
def test_nobody_told_they_can_no_longer_win_can_win(key):
    rng = random.Random(f"needs-{key}")
    checked = 0
    for match, result in positions(key, rng, 40):
        for seat, line in claims(match, result):
            checked += 1
            any_dealer = IN_TURN not in line
            found = winning_continuation(match, result, seat, any_dealer, rng)
            assert found is None, (
                f"{match.game} {match.settings}, totals {result.totals}, dealt {result.dealt}: "
                f"{match.players[seat]} is told \"{line}\", yet wins after the hands {found}")
    game = GAMES[key]
    if any(game.rules.hands_left(dealt_place(game, dict(game.defaults(), **variant), [0] * game.min_players, 0)) is not None
           and game.rules.most_in_a_hand(blank_place(game, dict(game.defaults(), **variant), game.min_players)) is not None
           for variant in game.sample_settings):
        # a deal count bounds the game: some position must be out of reach, or the search checked nothing
        assert checked, "no position had a player told they can no longer win: the search checked nothing"


def test_the_third_wheel_game_the_rules_describe():
    """Deals each 1, no target: Ann 38, Bob 0, Cy 11, Cy's deal to come. In turn that is the
    last hand and a hand moves two players at most 22 apart; but Bob may deal out of turn."""
    wheel = {"trump": "moons", "mode": "high", "wheel": False}
    match = Match("third_wheel", ["Ann", "Bob", "Cy"], {"deals_each": 1, "target": 0}, 0,
                  [dict(wheel, bid=11, tricks=[11, 0, 0]),   # Ann exact on 11: 22
                   dict(wheel, bid=11, tricks=[5, 0, 6])])   # Bob missed: setters 11, Ann (fewer) + 5
    result = replay(match)
    assert result.totals == [38, 0, 11] and result.next_dealer == 2
    lines = {seat: line for seat, line in claims(match, result)}
    assert 2 in lines
    # Bob deals out of turn twice (bid 0, takes 1: Cy, the setter with fewer tricks, scores
    # the other setter's 10 and the overtrick), then Cy deals the last hand.
    over = [dict(wheel, bid=0, tricks=[10, 1, 0], dealer=1), dict(wheel, bid=0, tricks=[10, 1, 0], dealer=1),
            dict(wheel, bid=0, tricks=[6, 5, 0])]
    later = replay(Match(match.game, match.players, match.settings, 0, match.hands + over))
    assert later.finished and later.winners == [2], later.totals
    assert IN_TURN in lines[2], lines[2]


def test_every_line_says_something_and_distances_are_above_the_floor():
    rng = random.Random("needs-lines")
    for key in sorted(SETTINGS):
        for match, result in positions(key, rng, 24):
            shown = panel(match, result)
            for line in shown["table"]:
                assert line.strip(), (key, shown)
                if "ends the game" in line:
                    assert "tie" in line, line  # what a tie at the top does
            for seat, need in enumerate(shown["seats"]):
                assert need["lines"] and all(line.strip() for line in need["lines"]), (key, result.totals, need)
                for line in need["lines"]:
                    above = re.search(r"is (-?\d+) points? above", line)
                    assert above is None or int(above.group(1)) > 0, line
                lose_at = match.settings.get("lose_at")
                if lose_at is not None and result.totals[seat] <= lose_at:
                    told = " ".join(need["lines"])
                    assert f"at or below {lose_at}" in told and "tied" in told, told


def test_third_hand_catch_up_holds_for_every_hand_it_names():
    """Bob, behind Ann, is told how one hand catches up. Every valid hand (each split of the
    card points, each pair of bids, either dealer, contract values anyone can make or nobody
    can) that fits what the line names must close the gap; "cannot" means none does."""
    from scorekeeper.games.base import Table
    from scorekeeper.games.third_hand import POSSIBLE_POINTS, RANKS

    game = GAMES["third_hand"]
    outcomes = []  # (Bob's card points over Ann's, how the contract went, doubled, Bob's gain on Ann)
    for value in (0, 75, 150):
        table = Table(("Ann", "Bob"), game.defaults() | {"contract_values": dict.fromkeys(RANKS, value)})
        for dealer in (0, 1):
            for bids in [[a, b] for a in (None, "9", "A") for b in (None, "10", "K")]:
                hand = {"bids": bids, "trump": "hearts", "points": [0, 140]}
                place = game.empty_place(table, dealer)
                if game.rules.check_hand(hand, place):
                    continue
                for ann, bob in POSSIBLE_POINTS:
                    scored = game.rules.score_hand(dict(hand, points=[ann, bob]), place)
                    holder, made = scored.extra.holder, scored.extra.made
                    kind = ("none" if holder is None else "bob_made" if holder == 1 and made
                            else "ann_failed" if holder == 0 and not made else "other")
                    outcomes.append((bob - ann, kind, None not in bids, scored.scores[1] - scored.scores[0]))
    outcomes = sorted(set(outcomes))  # ~38,000 hands give a few hundred different outcomes: each checked once per gap
    table = Table(("Ann", "Bob"), game.defaults())
    for gap in sorted({*range(1, 430, 9), 139, 140, 141, 279, 280, 281, 419, 420, 421}):
        line = game.needs(place_at(game, table, [300, 300 - gap], 1, None, [1, 0], 0)).seats[1].lines[-1]
        if line.startswith("cannot catch up"):
            assert all(gain < gap for *_, gain in outcomes), line
            continue
        ways = {"none": re.search(r"(\d+) more card points? than Ann with no contract", line),
                "contract": re.search(r"(\d+) more (?:card points than Ann )?with a contract Bob makes", line),
                "doubled": re.search(r"(\d+) more (?:if it is doubled|card points than Ann with a doubled)", line)}
        assert any(ways.values()), line
        at_least = {way: int(found.group(1)) if found else None for way, found in ways.items()}
        seen = set()
        for diff, kind, doubled, gain in outcomes:
            contract = kind in ("bob_made", "ann_failed")
            fits = [at_least["none"] is not None and kind == "none" and diff >= at_least["none"],
                    at_least["contract"] is not None and contract and diff >= at_least["contract"],
                    at_least["doubled"] is not None and contract and doubled and diff >= at_least["doubled"]]
            assert not any(fits) or gain >= gap, (gap, line, diff, kind, doubled, gain)
            seen |= {i for i, fit in enumerate(fits) if fit}
        # and no way named is one no hand can give
        assert seen == {i for i, way in enumerate(ways.values()) if way}, (gap, line)
