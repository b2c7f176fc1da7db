"""Slips in the app's sentences, searched for in everything every registered game says:
explanations, the game-over and playing-on banners, the save notice, table guides,
sheet rules, and the pages that show them. A sentence assembled from parts must not
leave a space before punctuation, a singular count with a plural noun ("1 cards"),
a range from a number to itself ("1–1") or a word said twice."""
from __future__ import annotations

import html as html_lib
import random
import re
from collections.abc import Callable

import pytest
from games.linecheck import random_settings

from scorekeeper.engine import Match, MatchError, next_why, replay, showing
from scorekeeper.games import GAMES
from scorekeeper.games.base import Table
from scorekeeper.samples import NAMES
from scorekeeper.web.model import page as web_page
from scorekeeper.web.model import view
from tests.places import blank_place

from .test_print import store_match

SLIPS = [
    (re.compile(r" [;,.](?!\d)"), "a space before punctuation"),
    (re.compile(r"(?<![\d.,−-])\b1 (?:cards|tricks|times|hands|points|bags|deals|players|more bags)\b"),
     "one with a plural"),
    (re.compile(r"(?<![\d−-])\b(\d+)[–-]\1\b(?![\d])"), "a range from a number to itself"),
    (re.compile(r"\b([A-Za-z]{2,}) \1\b"), "a word said twice"),
    (re.compile(r"  "), "two spaces"),
    (re.compile(r"\ball 1 [a-z]+\b|\b1 [a-z]+ were\b"), "all of one"),
]


def slips(text: str) -> list[str]:
    return [f"{why}: {m.group()!r} in {text!r}" for pattern, why in SLIPS for m in pattern.finditer(text)]


def test_the_slip_finder_finds_each_slip():
    assert slips("the end of the hand ; it is added") and slips("one of the 1 cards left over")
    assert slips("1–1") and slips("Fay reached 200 with with 208") and slips("every player has dealt 1 times")
    assert slips("all 1 hand were played")
    assert not slips("21 points, 11 tricks, 1 trick, 1–5, 5 - 5 = 0, 0.5, Ann 1, Bob 1, -1 points")


def random_play(key: str, rng: random.Random, settings_of: Callable[[int], dict]) -> tuple[Match, list]:
    """A random match, some hands dealt out of turn, and the replay after each hand."""
    game = GAMES[key]
    seats = rng.randint(game.min_players, game.max_players)
    match = Match(key, NAMES[:seats], settings_of(seats), rng.randrange(seats))
    result, results = replay(match), []
    for _ in range(30):
        if result.next_dealer is None:
            break
        dealer = rng.randrange(seats) if rng.random() < 0.15 else result.next_dealer
        hand = game.rules.random_hand(result.next_place().dealing(dealer), rng)
        if dealer != result.next_dealer:
            hand["dealer"] = dealer
        match.hands.append(hand)
        try:
            result = replay(match, resume=result)
        except MatchError:
            match.hands.pop()
            continue
        results.append(result)
    return match, results


@pytest.mark.parametrize("key", sorted(GAMES))
def test_no_slips_in_what_a_game_says(key):
    game, rng = GAMES[key], random.Random(f"slips {key}")
    found: list[str] = []
    said = 0
    # 80 matches under at most 10 combinations of settings per number of players: the words
    # follow the play; what some settings cost to work out once (Third Hand's most in one
    # hand) is paid 10 times, not 80
    pools: dict[int, list[dict]] = {}

    def settings_of(seats: int) -> dict:
        pool = pools.setdefault(seats, [])
        if len(pool) < 10:
            pool.append(random_settings(key, rng, seats))
            return dict(pool[-1])
        return dict(rng.choice(pool))

    for _ in range(80):
        match, results = random_play(key, rng, settings_of)
        for number, result in enumerate(results, start=1):
            hand = result.hands[-1]
            shown = showing(result, match.hands[:number], first=number)  # what the match page shows
            texts = [*hand.explanation, hand.ending or "", next_why(result, match.hands[:number]) or "",
                     web_page.saved_notice(result, number), view.sheet_status(result, match.first_dealer),
                     " · ".join(game.shown.hand_summary(match.hands[number - 1], result.place(number), hand.extra)),
                     " · ".join(shown.progress)]
            if not result.finished:  # the "What each player needs" panel
                texts += [*(shown.needs_table or ())] + [f"{result.players[seat.seat]} {line}" for seat in shown.needs
                                                         for line in seat.lines]
            for text in texts:
                found += slips(text)
                said += 1
        table = Table(tuple(match.players), replay(Match(key, match.players, match.settings)).settings)
        for dealer in range(table.seats):
            for text in game.shown.table_guide(game.empty_place(table, dealer)):
                found += slips(text)
        for text in game.shown.sheet_rules(blank_place(game, table.settings, table.seats)):
            found += slips(text)
    assert said > 500
    assert not found, "\n".join(sorted(set(found))[:20])


def words_of(html: str) -> str:
    """A page's words as written (tags dropped, no space added where a tag was)."""
    html = re.sub(r"<(script|style|title)\b.*?</\1>", "", html, flags=re.S)
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", html)).split())


def test_no_slips_on_the_pages_that_show_them(app, client):
    # a blank sheet continued after one hand, the tally with the bonus on, the match page and the print view
    one = Match("third_rail", ["Ann", "Bob", "Cy"], {"most_other_tricks_bonus": True},
                hands=[{"scoring_tricks": [2, 2, 1], "other_tricks": [4, 4, 4]}])
    match_id = store_match(app, client, one)
    pages = {path: client.get(path) for path in (f"/matches/{match_id}/print/blank", f"/matches/{match_id}/tally",
                                                 f"/matches/{match_id}", f"/matches/{match_id}/print")}
    found = []
    for path, response in pages.items():
        assert response.status_code == 200, path
        found += [f"{path}: {slip}" for slip in slips(words_of(response.get_data(as_text=True)))]
    assert not found, "\n".join(found)


def wheel(bid, tricks, **more):
    return {"trump": "wyrms", "mode": "high", "wheel": False, "bid": bid, "tricks": tricks, **more}


def test_the_banners_say_the_deal_count_as_it_is(app, client):
    # Ann deals hand 1 and, out of turn, hand 2; Bob deals hand 3: the usual 3 hands, and Cy has not dealt
    hands = [wheel(5, [5, 4, 2]), wheel(5, [5, 4, 2], dealer=0), wheel(5, [4, 5, 2])]
    match = Match("third_wheel", ["Ann", "Bob", "Cy"], {"deals_each": 1, "target": 0}, hands=hands)
    match_id = store_match(app, client, match)
    on = words_of(client.get(f"/matches/{match_id}").get_data(as_text=True))
    assert "Playing on Every player deals once and Cy has not dealt yet: the game goes on." in on
    match.hands.append(wheel(5, [4, 2, 5]))
    over = words_of(client.get(f"/matches/{store_match(app, client, match)}").get_data(as_text=True))
    assert "Game over Ann wins Every player has dealt at least once (Ann twice), and Ann wins with 18." in over
    assert "dealt once," not in over


def test_three_winners_are_named_as_a_list(app, client):
    # every hand exact with tied setters: after three deals all three have 7
    hands = [wheel(5, [5, 3, 3]), wheel(5, [3, 5, 3]), wheel(5, [3, 3, 5])]
    match_id = store_match(app, client, Match("third_wheel", ["Ann", "Bob", "Cy"], {"deals_each": 1, "target": 0},
                                      hands=hands))
    words = words_of(client.get(f"/matches/{match_id}").get_data(as_text=True))
    assert "Game over Ann, Bob and Cy share the win Every player" in words  # the heading, then the why


def test_a_preview_that_ends_in_a_three_way_share_names_them_as_a_list(app, client):
    hands = [wheel(5, [5, 3, 3]), wheel(5, [3, 5, 3])]  # Cy deals the third: exact, setters tied on 3
    match_id = store_match(app, client, Match("third_wheel", ["Ann", "Bob", "Cy"], {"deals_each": 1, "target": 0},
                                      hands=hands))
    third = {"trump": "wyrms", "mode": "high", "bid": 5, "tricks_0": 3, "tricks_1": 3, "tricks_2": 5}
    words = words_of(client.post(f"/matches/{match_id}/hands/preview", data=third).get_data(as_text=True))
    assert "This ends the game: Ann, Bob and Cy share the win." in words
