"""Stats: every figure checked against hand-made matches whose figures were counted by
hand (the comments show the counting), and each figure's link to the hands it counts."""
from __future__ import annotations

import pytest

from scorekeeper import store
from scorekeeper.engine import Match

from .helpers import as_scorer, page_of, text

# --- the matches, counted by hand -----------------------------------------------------------
# A. Third Hand, Ann and Bob, Ann deals first, target 500 (in progress):
#   1. Bob bids Q, Ann tops with K: Ann holds K (80), doubled. Points 80/60: made,
#      Ann 80 + 2 × 20 = 120, Bob 60. Ann scored more: Ann deals.
#   2. Bob bids 9, Ann passes: Bob holds 9 (60). Points 100/40: failed, Bob 40 - 60 = -20,
#      Ann 100. Ann deals.
#   3. Both pass: Ann 60, Bob 80 (no contract).
#   Totals Ann 280, Bob 120. Ann: held 1 (hand 1), made 1, doubled made 1, as holder 120,
#   as opponent 100 (hand 2). Bob: held 1 (hand 2), failed 1, as holder -20, as opponent 60.
HAND_A = [{"bids": ["K", "Q"], "trump": "hearts", "points": [80, 60]},
          {"bids": [None, "9"], "trump": "clubs", "points": [100, 40]},
          {"bids": [None, None], "trump": "spades", "points": [60, 80]}]
# B. Third Hand, target 100: both pass, 140/0: Ann passes 100 and wins (Bob 2nd).
HAND_B = [{"bids": [None, None], "trump": "hearts", "points": [140, 0]}]
# C. Third Wheel, Ann Bob Cy, one deal each, no target (finished after 3 hands):
#   1. Ann deals, takes the Wheel, bids 6, tricks 6/3/2: exact, Ann 6 + 3 = 9, Cy (fewer) 2, Bob 0.
#   2. Bob deals, bids 5, tricks Ann 4 Bob 3 Cy 4: missed; setters tied on 4: each 5 + 2 = 7.
#   3. Cy deals, bids 2, tricks Ann 3 Bob 2 Cy 6: 4 over; Cy 2, Bob (fewer) 3 + 4 = 7, Ann 0.
#   Totals Ann 16, Bob 7, Cy 11: Ann wins; places Ann 1, Cy 2, Bob 3.
#   Ann: dealt 1, exact 1, Wheel 1 made 1, as setter (7 + 0) / 2 = 3.5.
#   Bob: dealt 1, missed 1, as setter (0 + 7) / 2 = 3.5. Cy: dealt 1, over 1, as setter (2 + 7) / 2 = 4.5.
WHEEL_C = [{"trump": "moons", "mode": "high", "wheel": True, "bid": 6, "tricks": [6, 3, 2]},
           {"trump": "suns", "mode": "low", "wheel": False, "bid": 5, "tricks": [4, 3, 4]},
           {"trump": "waves", "mode": "high", "wheel": False, "bid": 2, "tricks": [3, 2, 6]}]
# D. Dummy Hand Spades, Ann Bob Cy, bag limit 3 (in progress):
#   1. Ann deals; bids 7/5/6: Ann declares. Ann 4 + dummy 4 = 8: made, 1 bag. Defenders take
#      3 + 2 = 5: Bob (5) made, Cy (6) set.
#   2. Bob deals; bids 3/8/2: Bob declares. Ann bids nil on her own hand, Cy on the dummy
#      (the other team's: not applied). Tricks Ann 0, Bob 5, Cy 5, dummy 3: Bob 8 made exactly;
#      defenders 5: Ann (3) made, 2 bags: 3 bags, pays a penalty; her nil made. Cy (2) made,
#      3 bags: pays a penalty.
#   Ann: declarer 1, made as declarer 1, made as defender 1, set 0, own nil 1 made 1,
#   bags 3 in 2 hands = 1.5 a hand, penalties 1. Bob: declarer 1 made 1, made as defender 1,
#   bags 0. Cy: set 1, made as defender 1, bags 1.5 a hand, penalties 1, no nil counted.
SPADES_D = [{"bids": [7, 5, 6], "tricks": [4, 3, 2], "dummy_tricks": 4},
            {"bids": [3, 8, 2], "nils": [[0], [], ["dummy"]], "tricks": [0, 5, 5], "dummy_tricks": 3}]
# E. Third Rail, Ann Bob Cy Dee, with the bonus (13 tricks: 4 scoring, 9 others):
#   1. scoring 2/1/1/0, others 3/2/2/2: Ann has most others, bonus.
#   2. scoring 0/2/1/1, others 2/3/3/1: Bob and Cy tie on 3, each a bonus.
#   Scoring tricks per hand: Ann 1, Bob 1.5, Cy 1, Dee 0.5. Bonuses: Ann 1 (hand 1),
#   Bob 1 and Cy 1 (hand 2), Dee 0.
RAIL_E = [{"scoring_tricks": [2, 1, 1, 0], "other_tricks": [3, 2, 2, 2]},
          {"scoring_tricks": [0, 2, 1, 1], "other_tricks": [2, 3, 3, 1]}]


@pytest.fixture
def table(app, client):
    """The five matches above, on this client's phone; returns their ids by letter."""
    matches = {
        "A": Match("third_hand", ["Ann", "Bob"], hands=HAND_A, date="2026-11-01"),
        "B": Match("third_hand", ["ann", "Bob"], {"target": 100}, hands=HAND_B, date="2026-11-02"),
        "C": Match("third_wheel", ["Ann", "Bob", "Cy"], {"deals_each": 1, "target": 0}, hands=WHEEL_C,
                   date="2026-11-03"),
        "D": Match("dummy_spades", ["Ann", "Bob", "Cy"], {"bag_limit": 3}, hands=SPADES_D, date="2026-11-04"),
        "E": Match("third_rail", ["Ann", "Bob", "Cy", "Dee"], {"most_other_tricks_bonus": True}, hands=RAIL_E,
                   date="2026-11-05"),
    }
    ids = {}
    db = store.connect(app.config["DATABASE"])
    try:
        for letter, match in matches.items():
            ids[letter] = store.create_match(db, match)
    finally:
        db.close()
    for match_id in ids.values():
        as_scorer(app, match_id, client)
    return ids


def figures(client, name: str) -> dict[str, dict[str, str]]:
    """The stats page as a user reads it: section heading -> row label -> value."""
    page = page_of(client.get("/stats", query_string={"player": name}))
    out: dict[str, dict[str, str]] = {}
    section = ""
    label = None
    for element in page.elements:
        if element.tag in ("h1", "h2"):
            section = element.text
            out.setdefault(section, {})
        elif element.tag == "th" and element.attrs.get("scope") == "row":
            label = element.text
        elif element.tag == "td" and label is not None:
            out[section][label] = element.text
            label = None
    return out


def test_overall_and_per_game_records(table, client):
    ann = figures(client, "Ann")
    # finished: B (won), C (won); in progress: A, D, E
    assert ann["All games"] == {"Matches played (finished)": "2 + 3 in progress", "Won (a shared win counts)": "2",
                                "Win rate": "100%", "Average final place": "1"}
    assert ann["Third Hand"]["Matches played (finished)"] == "1 + 1 in progress"
    bob = figures(client, "bob")  # names as the rules compare them
    assert bob["All games"] == {"Matches played (finished)": "2 + 3 in progress", "Won (a shared win counts)": "0",
                                "Win rate": "0%", "Average final place": "2.5"}  # 2nd in B, 3rd in C
    assert bob["Third Wheel"]["Average final place"] == "3"


def test_third_hand_figures(table, client):
    ann, bob = figures(client, "Ann")["Third Hand"], figures(client, "Bob")["Third Hand"]
    assert (ann["Contracts held"], ann["Made"], ann["Failed"]) == ("1", "1 of 1 (100%)", "0 of 1 (0%)")
    assert (ann["Doubled contracts made"], ann["Doubled contracts failed"]) == ("1", "0")
    assert (ann["Average hand score as holder"], ann["Average hand score as opponent"]) == ("120", "100")
    assert (bob["Contracts held"], bob["Made"], bob["Failed"]) == ("1", "0 of 1 (0%)", "1 of 1 (100%)")
    assert (bob["Average hand score as holder"], bob["Average hand score as opponent"]) == ("-20", "60")


def test_third_wheel_figures(table, client):
    ann, bob, cy = (figures(client, n)["Third Wheel"] for n in ("Ann", "Bob", "Cy"))
    assert (ann["Hands dealt"], ann["Exact as dealer"], ann["Missed as dealer"], ann["Over as dealer"]) == \
        ("1", "1 of 1 (100%)", "0 of 1 (0%)", "0 of 1 (0%)")
    assert (ann["Took the Wheel"], ann["Took the Wheel and made the bid"]) == ("1 of 1 (100%)", "1 of 1 (100%)")
    assert ann["Points per hand as setter"] == "3.5"
    assert (bob["Missed as dealer"], bob["Points per hand as setter"]) == ("1 of 1 (100%)", "3.5")
    assert (cy["Over as dealer"], cy["Points per hand as setter"], cy["Took the Wheel"]) == \
        ("1 of 1 (100%)", "4.5", "0 of 1 (0%)")
    assert cy["Average final place"] == "2"


def test_dummy_spades_figures(table, client):
    ann, bob, cy = (figures(client, n)["Dummy Hand Spades"] for n in ("Ann", "Bob", "Cy"))
    assert (ann["Times declarer"], ann["Contracts made as declarer"], ann["Contracts made as defender"],
            ann["Times set"]) == ("1", "1 of 1 (100%)", "1", "0")
    assert (ann["Nils bid on own hand (that counted)"], ann["Bags per hand"], ann["Bag penalties paid"]) == \
        ("1", "1.5", "1")
    assert (bob["Times declarer"], bob["Contracts made as declarer"], bob["Contracts made as defender"],
            bob["Bags per hand"], bob["Bag penalties paid"]) == ("1", "1 of 1 (100%)", "1", "0", "0")
    assert (cy["Times set"], cy["Contracts made as defender"], cy["Bags per hand"], cy["Bag penalties paid"],
            cy["Nils bid on partner's hand (that counted)"]) == ("1", "1", "1.5", "1", "0")


def test_third_rail_figures(table, client):
    got = {n: figures(client, n)["Third Rail"] for n in ("Ann", "Bob", "Cy", "Dee")}
    assert {n: f["Scoring tricks per hand"] for n, f in got.items()} == {"Ann": "1", "Bob": "1.5", "Cy": "1",
                                                                        "Dee": "0.5"}
    assert {n: f["Most-other-tricks bonuses"] for n, f in got.items()} == {"Ann": "1", "Bob": "1", "Cy": "1",
                                                                          "Dee": "0"}


def test_each_figure_links_to_the_hands_it_counts(table, client):
    page = page_of(client.get("/stats", query_string={"player": "Bob"}))
    links = [a.attrs["href"] for a in page.find_all("a") if "figure=failed" in a.attrs.get("href", "")]
    assert len(links) == 1
    counted = client.get(links[0])
    assert counted.status_code == 200
    hand_links = [a.attrs["href"] for a in page_of(counted).find_all("a", cls="hand-link")]
    assert hand_links == [f"/matches/{table['A']}/hands/2/why"]  # Bob's failed contract: hand 2 of A
    spades = client.get("/stats/hands", query_string={"player": "Ann", "game": "dummy_spades", "figure": "bags"})
    assert [a.attrs["href"] for a in page_of(spades).find_all("a", cls="hand-link")] == \
        [f"/matches/{table['D']}/hands/1/why", f"/matches/{table['D']}/hands/2/why"]
    won = client.get("/stats/hands", query_string={"player": "Ann", "game": "third_hand", "figure": "won"})
    assert f"/matches/{table['B']}" in won.get_data(as_text=True)
    assert f"/matches/{table['A']}\"" not in won.get_data(as_text=True)


def test_figures_follow_an_edit(table, app, client):
    # Bob's failed contract becomes made (points 40 -> 60 and 100 -> 80): held 1, made 1,
    # scoring 60 + |60 - 80| = 80 as holder
    db = store.connect(app.config["DATABASE"])
    try:
        store.edit_hand(db, table["A"], 2, {"bids": [None, "9"], "trump": "clubs", "points": [80, 60]})
    finally:
        db.close()
    bob = figures(client, "Bob")["Third Hand"]
    assert (bob["Made"], bob["Failed"], bob["Average hand score as holder"]) == ("1 of 1 (100%)", "0 of 1 (0%)",
                                                                                 "80")


def test_head_to_head(table, client):
    response = client.get("/stats/versus", query_string={"player": "Ann", "other": "Cy"})
    assert response.status_code == 200
    words = text(response)
    # together: C, D, E; finished: C (Ann 1st, Cy 2nd)
    assert " 3 matches together on this phone, 1 finished. " in words
    assert " Ann finished ahead 1 Cy finished ahead 0 Level (same total) 0 " in words
    page = page_of(response)
    assert [h.text for h in page.find_all("h2")][:3] == ["Third Wheel 1 together", "Dummy Hand Spades 1 together",
                                                         "Third Rail 1 together"]


def test_the_player_list_and_links_from_the_scoreboard_and_home(table, client):
    people = text(client.get("/players"))
    assert " Ann 5 matches · 2 won of 2 finished " in people and " Dee 1 match · 0 won of 0 finished " in people
    board = page_of(client.get(f"/matches/{table['C']}"))
    assert board.find("a", href="/stats?player=Cy") is not None
    assert page_of(client.get("/")).find("a", href="/players") is not None


def test_bad_addresses_say_what_is_wrong(table, app, client):
    assert client.get("/stats").status_code == 400
    assert "Say which player" in text(client.get("/stats"))
    assert client.get("/stats?player=" + "x" * 41).status_code == 400
    missing = client.get("/stats?player=Zed")
    assert missing.status_code == 404 and "No match on this phone has a player called Zed" in text(missing)
    assert client.get("/stats/hands?player=Ann&game=chess&figure=made").status_code == 400
    assert client.get("/stats/hands?player=Ann&game=third_hand&figure=nope").status_code == 400
    assert client.get("/stats/versus?player=Ann&other=ANN").status_code == 400
    assert client.get("/stats/versus?player=Ann&other=Zed").status_code == 404
    # another phone sees none of this phone's players
    assert app.test_client().get("/stats?player=Ann").status_code == 404


def test_bid_accuracy_is_charted_match_by_match(app, client):
    # Third Wheel, Ann deals hand 1 of each match: exact in the first (bid 5, took 5), missed in
    # the second (bid 6, took 5), exact in the third: 100%, 0%, 100%
    db = store.connect(app.config["DATABASE"])
    try:
        ids = [store.create_match(db, Match("third_wheel", ["Ann", "Bob", "Cy"],
                                            hands=[{"trump": "moons", "mode": "high", "wheel": False, "bid": bid,
                                                    "tricks": [5, 4, 2]}], date=f"2026-11-0{day}"))
               for day, bid in ((1, 5), (2, 6), (3, 5))]
    finally:
        db.close()
    for match_id in ids:
        as_scorer(app, match_id, client)
    page = page_of(client.get("/stats", query_string={"player": "Ann"}))
    chart = page.find("svg", cls="trend")
    assert chart is not None
    assert chart.attrs["aria-label"] == "Exact as dealer: 3 matches, from 100% in the first to 100% in the last"
    points = [e for e in page.elements if e.tag == "circle" and "trend-point" in e.classes]
    assert [float(p.attrs["cy"]) for p in points] == [10.0, 118.0, 10.0]  # 100%, 0%, 100%
    assert "Exact as dealer (share of hands dealt), match by match" in text(client.get("/stats?player=Ann"))


def test_a_renamed_player_and_a_deleted_match_are_counted_as_they_now_are(table, app, client):
    db = store.connect(app.config["DATABASE"])
    try:
        info = store.get_record(db, table["E"])
        store.update_setup(db, table["E"], ["Ann", "Bob", "Cy", "Dora"], info.settings, info.first_dealer)
        store.delete_match(db, table["C"])
    finally:
        db.close()
    assert client.get("/stats?player=Dee").status_code == 404  # renamed Dora: her only match
    assert figures(client, "Dora")["Third Rail"]["Scoring tricks per hand"] == "0.5"
    ann = figures(client, "Ann")
    assert "Third Wheel" not in ann  # C deleted
    assert ann["All games"]["Matches played (finished)"] == "1 + 3 in progress"
    assert " Dora 1 match " in text(client.get("/players")) and " Dee " not in text(client.get("/players"))


def test_head_to_head_offers_only_players_met(table, app, client):
    db = store.connect(app.config["DATABASE"])
    try:
        other_table = store.create_match(db, Match("third_hand", ["Zoe", "Yan"], hands=HAND_B[:0]))
    finally:
        db.close()
    as_scorer(app, other_table, client)
    assert against(client, "Ann") == ["Bob", "Cy", "Dee"]
    assert against(client, "Zoe") == ["Yan"]


def against(client, name: str) -> list[str]:
    """The names head-to-head offers on ``name``'s page."""
    return [e.text for e in page_of(client.get(f"/stats?player={name}")).find_all("option")]


def test_score_pad_figures_read_as_what_they_count_and_a_quarter_is_not_rounded_away(app, client):
    # Ann scores 5, 4, 4, 4 = 17 in 4 hands: 4.25 a hand; the best score of hands 1 and 3 (a count: 2)
    hands = [{"points": [5, 1]}, {"points": [4, 6]}, {"points": [4, 2]}, {"points": [4, 9]}]
    db = store.connect(app.config["DATABASE"])
    try:
        match_id = store.create_match(db, Match("score_pad", ["Ann", "Bob"], {"name": "Rummy"}, hands=hands))
    finally:
        db.close()
    as_scorer(app, match_id, client)
    pad = figures(client, "Ann")["Rummy (score pad)"]
    assert pad["Points per hand"] == "4.25"
    assert pad["Hands with the best score"] == "2"


def test_the_win_rate_chart_puts_each_games_name_above_its_bar_not_into_it(table, client):
    page = page_of(client.get("/stats", query_string={"player": "Ann"}))
    assert page.find("svg", cls="win-rate") is not None
    labels, tracks = page.find_all("text", cls="bar-label"), page.find_all("rect", cls="bar-track")
    assert [label.text for label in labels][:2] == ["Third Hand", "Third Wheel"]
    assert len(labels) == len(tracks) >= 4
    for label, track in zip(labels, tracks):
        # the name's baseline is above the top of its bar, and the bar starts at the left edge (its full width)
        assert float(label.attrs["y"]) < float(track.attrs["y"]) and track.attrs["x"] == "0"
