"""What a first-time user found on a phone (issues P1..13 of the UX pass), each
through Flask's test client."""
from __future__ import annotations

import re

from scorekeeper import store
from scorekeeper.engine import Match
from scorekeeper.web.edges.db import get_db
from scorekeeper.web.model.chart import WIDTH

from .helpers import as_scorer, record, start, text

HX = {"HX-Request": "true"}
WHEEL = {"trump": "wyrms", "mode": "high", "bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2}
SPADES = {"bids_0": 7, "bids_1": 5, "bids_2": 6, "tricks_0": 4, "tricks_1": 5, "tricks_2": 0, "dummy_tricks": 4}


def make_match(app, client, game, players, hands=None, settings=None) -> int:
    with app.app_context():
        match_id = store.create_match(get_db(), Match(game=game, players=players, settings=settings or {},
                                                      first_dealer=0, hands=hands or []))
    as_scorer(app, match_id, client)
    return match_id


# --- 1, 11: the trick referee ------------------------------------------------------------

def test_third_rail_low_cards_have_faces_for_three_players(client):
    page = client.get("/referee/third_rail?players=3&c1=AH&c2=KH&c3=2S&trump=spades")
    html = page.get_data(as_text=True)
    assert 'cardface unknown' not in html and ">?<" not in html
    words = text(page)
    assert "3rd card wins: 2 ♠" in words  # the verdict names the card, not a blank
    for code in ("2S", "3D", "4C"):  # a one-deck game has every low card in the grid
        assert f'name="add" value="{code}"' in html


def test_referee_undo_and_new_trick_are_disabled_until_a_card_is_played(client):
    empty = client.get("/referee/dummy_spades").get_data(as_text=True)
    assert re.search(r'name="undo" value="1" class="button" disabled', empty)
    assert re.search(r'name="clear" value="1" class="button" disabled', empty)
    one = client.get("/referee/dummy_spades?c1=AH").get_data(as_text=True)
    assert 'name="undo" value="1" class="button">' in one and 'name="clear" value="1" class="button">' in one


def test_a_completed_tricks_cards_can_lead_the_next_trick(client):
    done = client.get("/referee/dummy_spades?c1=AH&c2=KH&c3=2S&c4=QH", headers=HX).get_data(as_text=True)
    assert "3rd card wins" in done
    assert not re.search(r'value="AH" class="ref-card used"\s*disabled', done)  # not disabled once the trick is over
    assert "Tap a card to lead the next trick." in done
    nxt = client.get("/referee/dummy_spades?c1=AH&c2=KH&c3=2S&c4=QH&add=AH", headers=HX).get_data(as_text=True)
    assert 'name="c1" value="AH"' in nxt or re.search(r'<option value="AH" selected>', nxt)
    assert "Tap the card played 2nd." in text_of(nxt)
    # in a trick still being played, a card already in it stays disabled (one deck)
    assert re.search(r'value="AH" class="ref-card used"\s*disabled', nxt)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# --- 2: the Third Rail tally lives in the address --------------------------------------------

def test_tally_taps_are_kept_in_the_address(app, client):
    match_id = make_match(app, client, "third_rail", ["Ann", "Bob", "Cy"])
    # JavaScript off: each tap redirects to a GET that carries the winners
    tapped = client.post(f"/matches/{match_id}/tally", data={"w": "0 1", "tap": "2"})
    assert tapped.status_code == 303
    assert re.search(rf"/matches/{match_id}/tally\?w=0,1,2(&|$)", tapped.location)
    resumed = client.get(tapped.location)  # a reload (or a discarded tab) resumes at trick 4
    assert "Trick 4 of 17" in text(resumed) and 'name="w" value="0 1 2"' in resumed.get_data(as_text=True)
    # htmx: the partial, and the address bar is pushed to the same state
    swapped = client.post(f"/matches/{match_id}/tally", data={"w": "0 1 2", "tap": "0"}, headers=HX)
    assert swapped.status_code == 200 and "Trick 5 of 17" in text(swapped)
    assert re.search(rf"^/matches/{match_id}/tally\?w=0,1,2,0(&|$)", swapped.headers["HX-Push-Url"])
    undone = client.post(f"/matches/{match_id}/tally", data={"w": "0 1 2 0", "undo": "1"}, headers=HX)
    assert "w=0,1,2" in undone.headers["HX-Push-Url"] and "w=0,1,2,0" not in undone.headers["HX-Push-Url"]
    cleared = client.post(f"/matches/{match_id}/tally", data={"w": "0 1 2", "clear": "1"}, headers=HX)
    assert "w=" not in cleared.headers["HX-Push-Url"]


def test_a_history_restore_gets_the_whole_page(app, client):
    match_id = make_match(app, client, "third_rail", ["Ann", "Bob", "Cy"])
    page = client.get(f"/matches/{match_id}/tally?w=0,1",
                      headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert "<html" in page.get_data(as_text=True) and "Trick 3 of 17" in text(page)


# --- 3, 4: sharing -----------------------------------------------------------------------------

def test_scorer_code_is_behind_a_disclosure_and_loopback_links_warn(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    share = html[html.index('id="share"'):]
    share = share[:share.index("</details>\n</details>") if "</details>\n</details>" in share else None]
    watcher, scorer = share.index('id="watcher-url"'), share.index('id="scorer-url"')
    hidden = share.index("<summary>Show the scorer code (gives full control: record, edit, undo)</summary>")
    assert watcher < hidden < scorer  # the watcher code is open, the scorer code a tap further
    assert "Other phones can't open localhost" in text(client.get(f"/matches/{match_id}"))
    app.config["LAN_ADDRESS"] = "192.168.1.9"
    words = text(client.get(f"/matches/{match_id}"))
    assert "Other phones can't open" not in words and "http://192.168.1.9/w/" in client.get(
        f"/matches/{match_id}").get_data(as_text=True)


# --- 5: the history page ---------------------------------------------------------------------------

def test_history_heading_empty_status_and_imported_tag(app, client):
    start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    with app.app_context():
        imported = store.import_match(get_db(), Match(game="third_wheel", players=["Dee", "Eve", "Flo"], settings={},
                                                      first_dealer=0, hands=[]))
    as_scorer(app, imported, client)
    words = text(client.get("/"))
    assert "Your matches" not in words
    assert "Matches The matches this phone started, imported or opened through a link, in progress first." in re.sub(r"\s+", " ", words.replace(
        "Start a match", "").replace("Import a match file", ""))
    assert "No hands yet · 0 hands" not in words and "No hands yet" in words
    assert words.count("· imported") == 1 and re.search(r"Dee, Eve, Flo No hands yet · imported", words)


# --- 6: the table guide is closed ---------------------------------------------------------------

def test_table_guide_is_closed_for_the_first_hand(client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert re.search(r'id="table-guide">\s*<details>\s*<summary><span>At the table: hand 1, Ann deals', html)


# --- 8, 9, 10: the scoreboard ------------------------------------------------------------------

def test_no_places_before_the_first_hand(client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "1st" not in re.sub(r"<[^>]+>", "", html[html.index('id="totals"'):html.index('id="table-guide"')])
    # the standings (the needs panel below them says what a tie at the top does)
    assert "tie" not in text_of(html[html.index('id="totals"'):html.index('id="needs-panel"')])
    record(client, match_id, **WHEEL)
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert '<span class="place">1st</span>' in html


def test_the_winner_is_marked_in_text_not_an_emoji(client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"], target=5)
    record(client, match_id, **WHEEL)  # Ann 9: past 5, the match is over
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    # (the name links to the player's stats)
    assert re.search(r'<span class="place">1st<small class="winner-tag">★ winner</small></span>\s*'
                     r'<span class="name"><a [^>]*>Ann</a></span>', html)
    assert html.count("★ winner") == 1
    css = client.get("/static/app.css").get_data(as_text=True)
    assert "🏆" not in css


def test_spades_bags_are_written_out(client):
    match_id = start(client, "dummy_spades", ["Ann", "Bob", "Cy"])
    assert record(client, match_id, **SPADES).status_code == 303
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "71 · 1 bag</span>" in html and not re.search(r"\d+b</span>", html)


# --- 7, 12: sizes in CSS and the chart ---------------------------------------------------------

def test_file_input_fits_and_chart_text_is_readable(client):
    css = client.get("/static/app.css").get_data(as_text=True)
    rule = re.search(r"input\[type=file\] \{([^}]*)\}", css).group(1)
    assert "max-width: 100%" in rule and "min-height: var(--tap)" in rule
    assert "::file-selector-button" in css
    tick = int(re.search(r"\.chart \.tick \{[^}]*font-size: (\d+)px", css).group(1))
    label = int(re.search(r"\.chart \.label \{[^}]*font-size: (\d+)px", css).group(1))
    # drawn ~305 px wide on a 360 px phone: the text must come out at 12 px or more
    for size in (tick, label):
        assert size * 305 / WIDTH >= 12


# --- 13: the match log -------------------------------------------------------------------------

def test_log_lists_what_a_correction_changed_in_local_time(app, client):
    hand = {"bids": ["K", "Q"], "trump": "spades", "points": [60, 80]}
    match_id = make_match(app, client, "third_hand", ["Alice", "Bob"])
    with app.app_context():
        db = get_db()
        store.add_hand(db, match_id, hand)
        store.edit_hand(db, match_id, 1, dict(hand, points=[80, 60]))
    page = client.get(f"/matches/{match_id}/log")
    words = text(page)
    assert "Changed: points: Alice 60 → 80, Bob 80 → 60" in words
    assert "bids:" not in words.split("Changed:")[1].split("Totals")[0]  # only what differs
    assert 'data-local-time="date"' in page.get_data(as_text=True)
    js = client.get("/static/app.js").get_data(as_text=True)
    assert 'getAttribute("data-local-time") === "date"' in js


def test_the_log_names_only_the_seats_a_correction_changed_at_a_table_of_eight(app, client):
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    match_id = make_match(app, client, "score_pad", names)
    hand = {"points": [0, 13, -10, 5, 8, 2, 1, 7]}
    with app.app_context():
        db = get_db()
        store.add_hand(db, match_id, hand)
        store.edit_hand(db, match_id, 1, {"points": [0, 13, -15, 5, 8, 2, 1, 7]})
    words = text(client.get(f"/matches/{match_id}/log"))
    assert "Changed: points: Cy -10 → -15" in words
    assert "Bob 13" not in words.split("Changed:")[1].split("Totals")[0]  # the seats that did not change are left out
