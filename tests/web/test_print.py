"""The printed score sheet, checked cell by cell against the engine's replay, and the
print routes around it (several matches at once, blank sheets, the appendix switch,
the Print buttons), through the Flask test client."""
from __future__ import annotations

import random
import re

import pytest

from scorekeeper import store
from scorekeeper.engine import Match, replay
from scorekeeper.games import GAMES
from scorekeeper.samples import long_settings, longest, random_match, wide_long_settings
from scorekeeper.web.model import view
from tests.places import blank_place

from .helpers import as_scorer, page_of, record, start, text

GAME_KEYS = sorted(GAMES)


def grid_seats(key: str) -> int:
    """The table a game's own grid is checked at: five seats where the game seats that many (a
    wide grid), else as many as it takes (read from the game, not a list kept per game)."""
    game = GAMES[key]
    return max(game.min_players, min(game.max_players, 5))


def store_match(app, client, match: Match) -> int:
    from .helpers import as_scorer

    with app.app_context():
        from scorekeeper.web.edges.db import get_db
        match_id = store.create_match(get_db(), match)
    as_scorer(app, match_id, client)
    return match_id


def grid_rows(html: str, cls: str = "grid") -> tuple[list[list], list[list]]:
    """The score grid's header rows and body rows, each a list of (classes, text) per
    cell, read from the first table of class ``cls`` (rows in document order)."""
    page = page_of(html)
    elements = page.elements
    start_at = elements.index(page.find("table", cls=cls))
    head: list[list] = []
    body: list[list] = []
    section = None
    for element in elements[start_at + 1:]:
        if element.tag == "table":
            break
        if element.tag in ("thead", "tbody"):
            section = head if element.tag == "thead" else body
        elif element.tag == "tr" and section is not None:
            section.append([])
        elif element.tag in ("td", "th") and section is not None:
            section[-1].append((element.classes, element.text))
    return head, body


def split_row(cells: list, layout, seats: int) -> tuple[str, list[str], list[list[str]]]:
    """A body row as (hand number, hand column texts, per-seat column texts)."""
    texts = [t for _, t in cells]
    number, rest = texts[0], texts[1:]
    hand, rest = rest[:len(layout.hand)], rest[len(layout.hand):]
    width = len(layout.seat)
    return number, hand, [rest[s * width:(s + 1) * width] for s in range(seats)]


def cell_words(cell) -> str:
    """A SheetCell as the page's text reads it."""
    return " ".join(" ".join(p for p in (cell.text, cell.mark) if p).split())


@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_grid_is_the_engines_replay_cell_by_cell(app, client, key):
    check_grid(app, client, key)


def test_the_grid_of_a_game_in_partnerships_names_each_players_partners(app, client, monkeypatch):
    # the tests' own game, given fixed partnerships (``Game.sides``) for the test: partners hold
    # the same marbles, so each side's seats share the team's total as the contract says
    monkeypatch.setattr(type(GAMES["oddball"]), "sides", lambda self, table: ((0, 4), (1, 5), (2, 6), (3, 7)))
    rng = random.Random(7)
    hands = [{"marbles": (held := [rng.randrange(10) for _ in range(4)]) + held, "weather": "clear"} for _ in range(6)]
    check_grid(app, client, "oddball", Match("oddball", ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"],
                                             hands=hands))


def standing_label(players: list[str], seat: int, sides) -> str:
    """A standings row's player as printed: the name, then the partners of a game in teams."""
    partners = [players[s] for side in sides or () if seat in side for s in side if s != seat]
    return players[seat] + (f" with {' and '.join(partners)}" if partners else "")


def check_grid(app, client, key: str, match: Match | None = None) -> None:
    """The printed grid of ``match`` (by default the game's own random hands) cell by cell."""
    if match is None:
        # 12 hands and the match not over, or as many as the game plays short of its last
        seats = grid_seats(key)
        room = longest(key, 24, seats)
        wanted = min(12, room - 1)
        match = random_match(key, wanted, seed=7, players=seats, settings=wide_long_settings(key, room, seats))
        assert len(match.hands) == wanted
    hands = len(match.hands)
    match.date = "2026-11-20"
    match_id = store_match(app, client, match)
    result = replay(match)
    game = GAMES[key]
    layout = game.shown.sheet_layout(result.next_place())
    html = client.get(f"/matches/{match_id}/print").get_data(as_text=True)
    head, body = grid_rows(html)
    # the headers: a repeated title row (an empty cell over the hand numbers, then the title), the
    # names over their groups, then each group's labels
    assert [t for _, t in head[0]] == ["", f"{game.title} · 2026-11-20 · {', '.join(result.players)}"]
    names = [t for classes, t in head[1] if "player" in classes]
    assert names == result.players
    assert [t for _, t in head[2]] == [c.label for c in layout.seat] * len(result.players)
    assert len(body) == hands
    for row, scored, hand in zip(body, result.hands, match.hands):
        number, hand_cells, seats = split_row(row, layout, len(result.players))
        assert number == str(scored.number)
        own = game.shown.sheet_cells(hand, result.place(scored.number), scored.extra)
        assert hand_cells == [cell_words(own.hand[c.key]) for c in layout.hand]
        for seat, cells in enumerate(seats):
            expected = []
            for column in layout.seat:
                if column.key == "points":
                    expected.append(view.signed(scored.scores[seat]))
                elif column.key == "total":
                    expected.append(str(scored.totals[seat]))
                else:
                    expected.append(cell_words(own.seats[seat][column.key]))
            if seat == scored.dealer:  # the dealer's group starts with the D mark
                expected[0] = f"D {expected[0]}".strip()
            assert cells == expected, (scored.number, seat)
    # the standings are the engine's final totals, highest first
    _, standings = grid_rows(html, "standings")
    sides = game.sides(result.next_place())
    # each row's player as printed, partners named: a row that says otherwise is no player's
    printed = {standing_label(result.players, seat, sides): name for seat, name in enumerate(result.players)}
    shown = {printed.get(row[1][1], row[1][1]): int(row[2][1]) for row in standings}
    assert shown == dict(zip(result.players, result.totals))
    lowest_first = result.lowest_wins  # the standings lead with who is winning
    assert [int(row[2][1]) for row in standings] == sorted(result.totals, reverse=not lowest_first)


def test_a_third_wheel_hand_reads_as_on_paper(app, client):
    hand = {"trump": "wyrms", "mode": "high", "wheel": True, "bid": 6, "tricks": [8, 1, 2]}
    match_id = store_match(app, client, Match("third_wheel", ["Ann", "Bob", "Cy"], hands=[hand], date="2026-11-20"))
    _head, body = grid_rows(client.get(f"/matches/{match_id}/print").get_data(as_text=True))
    # Ann dealt, bid 6 with the Wheel and took 8: over by 2, Ann 6, F (Bob) 2 + 2 = 4, Cy 0
    assert [t for _, t in body[0]] == ["1", "6 W", "over +2", "wyrms high",
                                       "D 8", "+6", "6", "1", "+4", "4", "2", "0", "0"]


def test_a_spades_hand_shows_bids_declarer_nil_and_bags(app, client):
    hand = {"bids": [7, 5, 6], "nils": [[], [], ["dummy"]], "tricks": [4, 5, 0], "dummy_tricks": 4}
    match_id = store_match(app, client, Match("dummy_spades", ["Ann", "Bob", "Cy"], hands=[hand], date="2026-11-20"))
    html = client.get(f"/matches/{match_id}/print").get_data(as_text=True)
    head, body = grid_rows(html)
    assert [t for _, t in head[2]] == ["Bid", "Took", "Pts", "Total", "Bags"] * 3
    # rules.md's example: Ann declares, 71 with 1 bag; Bob 50; Cy -60 (her nil on the dummy is not applied)
    assert [t for _, t in body[0]] == ["1", "4", "D 7 dec", "4", "+71", "71", "1", "5", "5", "+50", "50", "0",
                                       "6 nil", "0", "-60", "-60", "0"]
    head, standings = grid_rows(html, "standings")
    assert [t for _, t in head[0]] == ["Place", "Player", "Total", "Bags"]  # the bags counter too
    assert [t for _, t in standings[0]] == ["1st", "Ann", "71", "1"]


def test_a_third_hand_hand_marks_holder_and_double(app, client):
    hand = {"bids": ["9", "Q"], "trump": "spades", "points": [60, 80]}
    match_id = store_match(app, client, Match("third_hand", ["Ann", "Bob"], hands=[hand], first_dealer=1, date="2026-11-20"))
    _, body = grid_rows(client.get(f"/matches/{match_id}/print").get_data(as_text=True))
    # Bob deals and tops Ann's 9 with Q: doubled, made, 80 + 2 × 20 = 120
    assert [t for _, t in body[0]] == ["1", "♠\u00a0spades".replace("\u00a0", " "), "made ×2",
                                       "9", "60", "+60", "60", "D Q H", "80", "+120", "120"]


def test_third_rail_marks_the_bonus(app, client):
    hand = {"scoring_tricks": [3, 1, 1], "other_tricks": [2, 6, 4], "trump": "hearts"}
    match = Match("third_rail", ["Ann", "Bob", "Cy"], settings={"trump": True, "most_other_tricks_bonus": True},
                  hands=[hand], date="2026-11-20")
    _, body = grid_rows(client.get(f"/matches/{store_match(app, client, match)}/print").get_data(as_text=True))
    assert [t for _, t in body[0]] == ["1", "♥ hearts", "D 3", "+3", "3", "1 +2", "+3", "3", "1", "+1", "1"]


def test_the_header_has_date_note_players_settings_and_the_winner(app, client):
    hands = [{"trump": "wyrms", "mode": "high", "wheel": False, "bid": 5, "tricks": [5, 4, 2]}] * 6
    match = Match("third_wheel", ["Ann", "Bob", "Cy"], settings={"target": 0, "deals_each": 2}, hands=hands,
                  date="2026-11-20", note="Kitchen table")
    html = client.get(f"/matches/{store_match(app, client, match)}/print").get_data(as_text=True)
    page = page_of(html)
    head = page.find("header", cls="sheet-head")
    assert head is not None
    for words in ("Third Wheel", "2026-11-20", "Kitchen table", "Ann, Bob, Cy", "first dealer Ann",
                  "Deals each 2", "Target score none"):
        assert words in head.text, words
    result = replay(match)
    winner = result.players[result.winners[0]]
    assert page.find("p", cls="status").text == f"{winner} wins after 6 hands: {result.hands[-1].ending}."
    assert "Final standings" in page.find("table", cls="standings").text
    _, standings = grid_rows(html, "standings")
    assert [t for _, t in standings[0]][:2] == ["1st", f"{winner} winner"]
    assert len(page.find_all("tr", cls="winner")) == 1


def test_the_appendix_is_on_by_default_and_switches_off(app, client):
    match_id = store_match(app, client, random_match("third_wheel", 4, seed=1))
    on = client.get(f"/matches/{match_id}/print")
    assert "Why each hand scored what it did" in text(on)
    explanation = replay(random_match("third_wheel", 4, seed=1)).hands[2].explanation[0]
    assert explanation in text(on)
    switch = page_of(on).find("a", href=f"/matches/{match_id}/print?appendix=off")
    assert switch is not None and switch.text == "Leave out the explanations"
    off = client.get(f"/matches/{match_id}/print?appendix=off")
    assert off.status_code == 200
    assert "Why each hand scored what it did" not in text(off) and explanation not in text(off)
    assert page_of(off).find("a", href=f"/matches/{match_id}/print").text == "Add the explanations"
    assert len(grid_rows(off.get_data(as_text=True))[1]) == 4  # the sheet itself is all there
    bad = client.get(f"/matches/{match_id}/print?appendix=maybe")
    assert bad.status_code == 400 and "appendix must be on or off" in text(bad)


def test_a_match_without_hands_still_prints(app, client):
    match_id = start(client, "dummy_spades", ["Ann", "Bob", "Cy"])
    response = client.get(f"/matches/{match_id}/print")
    assert response.status_code == 200
    assert "No hands recorded yet; Ann deals first." in text(response)
    assert page_of(response).find("table", cls="grid") is None


# --- the Print buttons ---------------------------------------------------------------

def test_every_match_page_has_print_and_blank_sheet_buttons(app, client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"])  # no hands yet
    page = page_of(client.get(f"/matches/{match_id}"))
    printing = page.find("a", href=f"/matches/{match_id}/print?dialog=1")
    assert printing is not None and printing.text == "Print" and printing.attrs.get("hx-boost") == "false"
    blank = page.find("a", href=f"/matches/{match_id}/print/blank")
    assert blank is not None and "Blank sheet" in blank.text
    record(client, match_id, scoring_tricks="2 2 1", other_tricks="4 4 4")
    page = page_of(client.get(f"/matches/{match_id}"))
    assert len(page.find_all("a", href=f"/matches/{match_id}/print?dialog=1")) == 1


def test_the_print_view_has_a_print_link_and_app_js(app, client):
    match_id = store_match(app, client, random_match("third_hand", 3, seed=2))
    response = client.get(f"/matches/{match_id}/print?dialog=1&appendix=off")
    page = page_of(response)
    assert page.find("body").attrs.get("data-print-dialog") == ""  # app.js opens the dialog
    printing = page.find("a", cls="button")
    assert printing.text == "Print" and "data-print" in printing.attrs
    assert printing.attrs["href"] == f"/matches/{match_id}/print?appendix=off"  # without JS: the same sheet
    assert re.search(r'<script src="/static/app\.[0-9a-f]{12}\.js"', response.get_data(as_text=True))
    assert page.find("main") is not None
    assert 'style="' not in response.get_data(as_text=True)  # the CSP forbids inline styles
    assert "data-print-dialog" not in client.get(f"/matches/{match_id}/print").get_data(as_text=True)


# --- several matches at once ---------------------------------------------------------------

def evening(app, client) -> list[int]:
    ids = []
    for key in ("third_hand", "third_wheel", "dummy_spades"):
        match = random_match(key, 3, seed=3, settings=long_settings(key, 3))
        match.date = "2026-11-20"
        ids.append(store_match(app, client, match))
    other = random_match("third_rail", 2, seed=3)
    other.date = "2026-11-21"
    ids.append(store_match(app, client, other))
    return ids


def sheet_titles(response) -> list[str]:
    return [h.text.split(" 20")[0] for h in page_of(response).find_all("h2") if h.attrs.get("id", "").startswith("sheet-")
            and not h.attrs["id"].endswith("-why")]


def test_printing_several_matches_in_the_order_given(app, client):
    hand, wheel, _spades, rail = evening(app, client)
    response = client.get(f"/print?match={rail}&match={hand}&match={rail}")
    assert response.status_code == 200
    assert sheet_titles(response) == ["Third Rail", "Third Hand"]  # each once, as asked
    assert len(page_of(response).find_all("article", cls="sheet")) == 2
    assert page_of(response).find("h1").text == "2 matches"
    off = client.get(f"/print?match={hand}&match={wheel}&appendix=off")
    assert "Why each hand" not in text(off)
    switch = page_of(off).find("a", href=f"/print?match={hand}&match={wheel}")
    assert switch is not None and switch.text == "Add the explanations"


def test_printing_all_matches_of_a_date(app, client):
    _hand, _wheel, _spades, _rail = evening(app, client)
    response = client.get("/print?date=2026-11-20&appendix=off")
    assert response.status_code == 200
    assert sheet_titles(response) == ["Third Hand", "Third Wheel", "Dummy Hand Spades"]
    assert page_of(response).find("h1").text == "Matches of 2026-11-20"
    none = client.get("/print?date=2026-11-22")
    assert none.status_code == 404 and "No match of yours is dated 2026-11-22." in text(none)


@pytest.mark.parametrize("query, status, message", [
    ("", 400, "Say which matches to print"),
    ("?match=abc", 400, 'match must be a match number, got "abc"'),
    ("?match=-1", 400, "match must be a match number"),
    ("?match=1&date=2026-11-20", 400, "not both"),
    ("?date=20-11-2026", 400, "date must be a day as YYYY-MM-DD"),
    ("?date=2026-02-30", 400, "date must be a day as YYYY-MM-DD"),
    ("?match=99999", 404, ""),
    ("?match=99999999999999999999999", 400, "match must be a match number"),
    ("?match=9223372036854775808", 404, ""),
    ("?match=1&appendix=yes", 400, "appendix must be on or off"),
])
def test_bad_print_requests_are_told_why_never_a_500(app, client, query, status, message):
    evening(app, client)
    response = client.get(f"/print{query}")
    assert response.status_code == status, query
    assert message in text(response)


def test_too_many_matches_at_once_is_refused(app, client):
    response = client.get("/print?" + "&".join(f"match={n}" for n in range(1, 52)))
    assert response.status_code == 400 and "match: at most 50 matches print at once, got 51." in text(response)


def test_a_match_this_device_may_not_read_makes_the_whole_print_a_404(app, client):
    hand, wheel, spades, _rail = evening(app, client)
    # a second phone opened two of the evening's matches through their scorer links, not the third
    phone = app.test_client()
    for match_id in (hand, spades):
        as_scorer(app, match_id, phone)
    for asked in (f"match={hand}&match={wheel}", f"match={wheel}&match={hand}"):
        response = phone.get(f"/print?{asked}")
        assert response.status_code == 404, asked
        assert "Third Hand" not in text(response)  # nothing of the readable one either
    assert client.get(f"/print?match={hand}&match={wheel}").status_code == 200  # the phone that has all three
    assert sheet_titles(phone.get(f"/print?match={hand}&match={spades}")) == ["Third Hand", "Dummy Hand Spades"]
    # by date, only the matches this device may read are printed (from its grants in the store)
    assert sheet_titles(phone.get("/print?date=2026-11-20")) == ["Third Hand", "Dummy Hand Spades"]
    assert sheet_titles(client.get("/print?date=2026-11-20")) == ["Third Hand", "Third Wheel", "Dummy Hand Spades"]


# --- blank sheets ------------------------------------------------------------------------

@pytest.mark.parametrize("key", GAME_KEYS)
def test_a_blank_sheet_of_each_game_has_its_columns_and_rules(client, key):
    game = GAMES[key]
    response = client.get(f"/print/blank/{key}")
    assert response.status_code == 200
    head, body = grid_rows(response.get_data(as_text=True))
    seats = game.min_players
    layout = game.shown.sheet_layout(blank_place(game, game.defaults(), seats))
    assert [t for c, t in head[1] if "player" in c] == [f"Player {n}" for n in range(1, seats + 1)]
    assert [t for _, t in head[2]] == [c.label for c in layout.seat] * seats
    assert len(body) == view.BLANK_ROWS
    assert [row[0][1] for row in body] == [str(n) for n in range(1, view.BLANK_ROWS + 1)]
    assert all(t == "" for row in body for _, t in row[1:])
    words = text(response)
    for line in game.shown.sheet_rules(blank_place(game, game.defaults(), seats)):
        assert f" {line} " in words or line in words
    if game.defaults().get("target"):
        assert str(game.defaults()["target"]) in words


def test_a_blank_third_rail_sheet_for_six(client):
    response = client.get("/print/blank/third_rail?players=6")
    head, _ = grid_rows(response.get_data(as_text=True))
    assert len([t for c, t in head[1] if "player" in c]) == 6
    assert "6 players: two decks without the 2s, 3s and 4s" in text(response)
    assert page_of(response).find("a", href="/print/blank/third_rail?players=4").text == "4"
    for bad in ("2", "7", "x", ""):
        refused = client.get(f"/print/blank/third_rail?players={bad}")
        assert refused.status_code == 400 and "Third Rail is for 3 to 6 players" in text(refused)
    assert client.get("/print/blank/no_such_game").status_code == 404
    refused = client.get("/print/blank/third_hand?players=3")
    assert refused.status_code == 400 and "Third Hand is for 2 players" in text(refused)


def test_continue_on_paper_carries_names_settings_and_totals(app, client):
    match = random_match("dummy_spades", 5, seed=4, settings={"target": 5000, "bag_limit": 5})
    match.players = ["Zoë", "Bob", "Cy"]
    match_id = store_match(app, client, match)
    result = replay(match)
    response = client.get(f"/matches/{match_id}/print/blank")
    assert response.status_code == 200
    words = text(response)
    assert "Zoë, Bob, Cy" in words and "Bag limit 5" in words and "at 5 bags lose 100 points" in words
    assert "Continued on paper after hand 5 in the app" in words
    assert f"{result.players[result.next_dealer]} deals hand 6" in words
    head, body = grid_rows(response.get_data(as_text=True))
    assert [t for c, t in head[1] if "player" in c] == ["Zoë", "Bob", "Cy"]
    carried = [t for _, t in body[0]]
    last = result.hands[-1]
    expected = ["1–5", ""]
    for seat in range(3):
        expected += ["", "", "", str(last.totals[seat]), str(last.extra.bags[seat])]
    assert carried == expected
    assert [row[0][1] for row in body[1:]] == [str(n) for n in range(6, 6 + view.BLANK_ROWS)]


def test_a_finished_match_prints_a_fresh_sheet_with_the_same_names(app, client):
    hands = [{"trump": "wyrms", "mode": "high", "wheel": False, "bid": 5, "tricks": [5, 4, 2]}] * 3
    match = Match("third_wheel", ["Ann", "Bob", "Cy"], settings={"target": 0, "deals_each": 1}, hands=hands)
    response = client.get(f"/matches/{store_match(app, client, match)}/print/blank")
    assert "A new game with the same players and settings" in text(response)
    _, body = grid_rows(response.get_data(as_text=True))
    assert body[0][0][1] == "1" and "carried" not in text(response)


def test_a_hand_dealt_out_of_turn_is_marked_on_the_sheet(app, client):
    # Ann deals hand 1; Cy (not Bob, whose deal it was) deals hand 2
    hands = [{"scoring_tricks": [1, 2, 2], "other_tricks": [4, 4, 4]},
             {"scoring_tricks": [2, 2, 1], "other_tricks": [4, 4, 4], "dealer": 2}]
    match_id = store_match(app, client, Match("third_rail", ["Ann", "Bob", "Cy"], hands=hands, date="2026-11-20"))
    html = client.get(f"/matches/{match_id}/print").get_data(as_text=True)
    _, body = grid_rows(html)
    assert [t for _, t in body[0]][1] == "D 1" and [t for _, t in body[1]][7] == "D* 1"
    assert "D* dealt the hand out of turn" in text(client.get(f"/matches/{match_id}/print"))


def test_ids_are_counted_as_sent_before_any_work(app, client):
    """60 copies of one id were de-duplicated one by one (a list: 21,000 ids cost 2.1 s of
    CPU per anonymous GET) and then printed; the cap now counts the ids as sent, first."""
    hand, *_ = evening(app, client)
    response = client.get("/print?" + "&".join(f"match={hand}" for _ in range(60)))
    assert response.status_code == 400
    assert "match: at most 50 matches print at once, got 60." in text(response)
    response = client.get("/print?" + "&".join(f"match={n}" for n in range(1, 21_001)))
    assert response.status_code == 400 and "match is given 21,000 times" in text(response)
    assert "at most 64 are read" in text(response)
    assert client.get("/print?" + "&".join(f"match={hand}" for _ in range(50))).status_code == 200  # each once


def test_any_name_repeated_past_the_cap_is_a_400_that_names_it(client):
    """Every list a request carries is capped before a view reads it: query and form."""
    for address in ("/?" + "&".join("q=Ann" for _ in range(65)),
                    "/stats?" + "&".join("player=Ann" for _ in range(100)),
                    "/matches/new?" + "&".join("player_1=Ann" for _ in range(65))):
        response = client.get(address)
        name = address.split("?")[1].split("=")[0]
        assert response.status_code == 400, address
        assert f"{name} is given" in text(response) and "at most 64 are read" in text(response), address
    assert client.get("/?" + "&".join("q=Ann" for _ in range(64))).status_code == 200
    response = client.post("/matches/new", data={"game": ["third_wheel"] * 65})
    assert response.status_code == 400 and "game is given 65 times" in text(response)


def test_a_day_of_short_matches_is_one_part_and_long_ones_print_in_parts(app, client):
    """Whole matches, about ten sheets of paper (200 hands) a part; a short evening is one part."""
    from scorekeeper.samples import long_settings, random_match

    evening(app, client)
    short = client.get("/print?date=2026-11-20")
    assert short.status_code == 200 and "part 1 of" not in text(short) and "Part 2" not in text(short)
    with app.app_context():
        from scorekeeper.web.edges.db import get_db
        device = get_db().execute("select device_id from device_matches limit 1").fetchone()[0]
        for hands in (150, 40, 10, 230, 5):
            match = random_match("score_pad", hands, seed=hands, players=3, settings=long_settings("score_pad", 10_000))
            match.date = "2026-10-04"
            store.create_match(get_db(), match, device=device)
    first = client.get("/print?date=2026-10-04&appendix=off")
    assert "part 1 of 3, matches 1 to 3 of 5" in text(first)  # 150 + 40 + 10 hands: 200, one part
    assert len(page_of(first).find_all("article", cls="sheet")) == 3
    second = client.get("/print?date=2026-10-04&appendix=off&part=2")
    assert "part 2 of 3, match 4 of 5" in text(second)  # 230 hands: a part of its own, not split
    assert len(page_of(second).find_all("article", cls="sheet")) == 1
    assert "part 3 of 3, match 5 of 5" in text(client.get("/print?date=2026-10-04&part=3"))
    response = client.get("/print?date=2026-10-04&part=4")
    assert response.status_code == 400 and "part must be a number from 1 to 3, got \"4\"" in text(response)
