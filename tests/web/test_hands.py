"""Recording, previewing, editing and undoing hands through the real forms.
Numbers asserted come from rules.md's worked examples."""
from __future__ import annotations

import gzip
import re
import sqlite3

import pytest

from scorekeeper import store
from scorekeeper.web import create_app
from scorekeeper.web.edges.db import get_db

from .helpers import problems, record, start, text, totals, version

WHEEL = {"trump": "wyrms", "mode": "high", "bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2}
WHEEL_MISS = {"trump": "moons", "mode": "low", "bid": 5, "tricks_0": 3, "tricks_1": 2, "tricks_2": 6}
SPADES = {"bids_0": 7, "bids_1": 5, "bids_2": 6, "tricks_0": 4, "tricks_1": 5, "tricks_2": 0, "dummy_tricks": 4}


def wheel_match(client, **settings):
    return start(client, "third_wheel", ["Ann", "Bob", "Cy"], **settings)


def page(client, match_id):
    return client.get(f"/matches/{match_id}").get_data(as_text=True)


# --- each game, through the real forms ------------------------------------------------

def test_third_wheel_worked_example(client):
    match_id = wheel_match(client)
    response = record(client, match_id, **WHEEL)
    assert response.status_code == 303
    html = page(client, match_id)
    assert totals(html) == {"Ann": 9, "Bob": 0, "Cy": 2}
    assert "Hand 1 saved: " in html
    assert "bid 5 · wyrms high" in html
    assert "Next to deal: <strong>Bob</strong>" in html
    assert "hand 2 of 6 if the deal goes round in turn" in html


def test_dummy_spades_worked_example_and_bags(client):
    match_id = start(client, "dummy_spades", ["Ann", "Bob", "Cy"])
    assert record(client, match_id, **SPADES).status_code == 303
    html = page(client, match_id)
    assert totals(html) == {"Ann": 71, "Bob": 50, "Cy": -60}
    assert "Ann declares" in html
    assert "1 bag" in html  # Ann's overtrick


def test_dummy_spades_nil_checkboxes(client):
    match_id = start(client, "dummy_spades", ["Ann", "Bob", "Cy"])
    response = client.post(f"/matches/{match_id}/hands/preview",
                           data=dict(SPADES, nils_2=["2"], version=version(client, match_id)))
    assert "If saved:" in text(response)
    assert record(client, match_id, **dict(SPADES, nils_2="2")).status_code == 303
    with client.application.app_context():
        hand = store.get_record(get_db(), match_id).match.hands[0]
    assert hand["nils"] == [[], [], [2]]


def test_third_hand_no_contract_scores_own_points(client):
    match_id = start(client, "third_hand", ["Ann", "Bob"])
    response = record(client, match_id, bids_0="pass", bids_1="pass", trump="hearts", points_0=60, points_1=60)
    assert response.status_code == 303, problems(response)
    assert totals(page(client, match_id)) == {"Ann": 60, "Bob": 60}
    with client.application.app_context():
        hand = store.get_record(get_db(), match_id).match.hands[0]
    assert hand == {"bids": [None, None], "trump": "hearts", "exchanged": False, "points": [60, 60]}


def test_third_hand_impossible_points_are_refused(client):
    match_id = start(client, "third_hand", ["Ann", "Bob"])
    response = record(client, match_id, bids_0="pass", bids_1="pass", trump="hearts", points_0=60, points_1=55)
    assert response.status_code == 422
    assert "points" in " ".join(problems(response))
    assert totals(page(client, match_id)) == {"Ann": 0, "Bob": 0}


def test_third_rail_counts_form(client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy", "Dee"])
    fields = {"scoring_tricks_0": 2, "scoring_tricks_1": 1, "scoring_tricks_2": 1, "scoring_tricks_3": 0,
              "other_tricks_0": 3, "other_tricks_1": 2, "other_tricks_2": 2, "other_tricks_3": 2}
    response = record(client, match_id, **fields)
    assert response.status_code == 303, problems(response)
    assert totals(page(client, match_id)) == {"Ann": 2, "Bob": 1, "Cy": 1, "Dee": 0}


def test_third_rail_trump_only_with_the_setting(client):
    plain = start(client, "third_rail", ["Ann", "Bob", "Cy"])
    assert 'name="trump"' not in page(client, plain)
    flipped = start(client, "third_rail", ["Ann", "Bob", "Cy"], trump=True)
    assert 'name="trump"' in page(client, flipped)


def test_hand_form_labels_are_seat_names_in_bidding_order(client):
    match_id = start(client, "dummy_spades", ["Ann", "Bob", "Cy"])  # Ann deals: Bob bids first
    html = page(client, match_id)
    assert html.index('name="bids_1"') < html.index('name="bids_2"') < html.index('name="bids_0"')
    assert 'inputmode="numeric"' in html
    assert "nil on" in html


def test_out_of_turn_dealer(client):
    match_id = wheel_match(client)
    assert record(client, match_id, dealer="2", **WHEEL).status_code == 303
    html = page(client, match_id)
    assert "Cy dealt" in html and "dealt out of turn" in html
    assert "Next to deal: <strong>Ann</strong>" in html


# --- preview --------------------------------------------------------------------------

def test_preview_shows_the_result_if_saved(client):
    match_id = start(client, "dummy_spades", ["Ann", "Bob", "Cy"])
    response = client.post(f"/matches/{match_id}/hands/preview", data=SPADES, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "If saved: Ann +71, Bob +50, Cy -60" in text(response)
    assert "<html" not in response.get_data(as_text=True)
    with client.application.app_context():
        assert store.get_record(get_db(), match_id).match.hands == []  # a preview stores nothing


def test_preview_of_an_empty_form_only_says_what_is_missing(client):
    match_id = wheel_match(client)
    response = client.post(f"/matches/{match_id}/hands/preview", data={"trump": "wyrms"})
    body = text(response)
    assert "Still to fill in: high or low, dealer's bid, tricks " in body  # every seat blank: just "tricks"
    assert "must be" not in body and "If saved" not in body


def test_preview_puts_problems_next_to_their_fields(client):
    match_id = wheel_match(client)
    response = client.post(f"/matches/{match_id}/hands/preview", data=dict(WHEEL, tricks_2=3))
    html = response.get_data(as_text=True)
    assert 'data-errors-for="err-tricks"' in html and "hx-swap-oob" not in html  # app.js puts them in place
    tricks_box = html[html.index('data-errors-for="err-tricks"'):]
    assert "tricks add up to 12, not 11" in tricks_box[:400]


def test_preview_says_when_a_hand_ends_the_game(client):
    match_id = wheel_match(client, target=5, deals_each=0)
    assert "This ends the game: Ann wins." in text(client.post(f"/matches/{match_id}/hands/preview", data=WHEEL))


def test_preview_of_malformed_number(client):
    match_id = wheel_match(client)
    response = client.post(f"/matches/{match_id}/hands/preview", data=dict(WHEEL, tricks_0="five"))
    assert 'Ann: must be a whole number, got "five"' in text(response)


# --- saving: errors, partials, versions ---------------------------------------------

@pytest.mark.parametrize("change, message", [
    ({"tricks_2": 3}, "tricks add up to 12, not 11"),
    ({"bid": 12}, "bid"),
    ({"wheel": "y", "bid": 5}, "bid"),
    ({"trump": "hearts"}, "must be one of"),
    ({"mode": "sideways"}, "High or low"),
    ({"tricks_0": "x"}, 'Ann: must be a whole number, got "x"'),
    ({"bid": ""}, "Still to fill in: dealer's bid."),
    ({"tricks_1": ""}, "tricks"),
    ({"dealer": "7"}, "dealer"),
])
def test_bad_hand_shows_a_message_and_saves_nothing(client, change, message):
    match_id = wheel_match(client)
    response = record(client, match_id, **dict(WHEEL, **change))
    assert response.status_code == 422
    assert message in text(response), text(response)
    assert "<html" in response.get_data(as_text=True)  # JS off: the whole page again
    with client.application.app_context():
        assert store.get_record(get_db(), match_id).match.hands == []


def test_bad_hand_with_htmx_answers_with_the_partial(client):
    match_id = wheel_match(client)
    response = record(client, match_id, htmx=True, **dict(WHEEL, tricks_2=3))
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "<html" not in html
    assert "tricks add up to 12, not 11" in html and 'value="3"' in html  # entry kept


def test_save_with_htmx_answers_with_the_scoreboard_partial(client):
    match_id = wheel_match(client)
    response = record(client, match_id, htmx=True, **WHEEL)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<html" not in html and 'id="match-live"' in html
    assert totals(html) == {"Ann": 9, "Bob": 0, "Cy": 2}
    assert "Hand 2" in html and 'id="hand-form"' in html  # a fresh form


def test_a_resent_form_saves_one_hand(client):
    match_id = wheel_match(client)
    stale = version(client, match_id)
    assert record(client, match_id, version=stale, **WHEEL).status_code == 303
    response = record(client, match_id, version=stale, **WHEEL)
    # no request key (an old form): refused as stale, saying what changed
    assert "Hand 1 was saved on another phone while you were typing: Ann +9, Bob 0, Cy +2." in text(response)
    with client.application.app_context():
        assert len(store.get_record(get_db(), match_id).match.hands) == 1


def test_game_over_banner_and_no_more_form(client):
    match_id = wheel_match(client, target=5, deals_each=0)
    assert record(client, match_id, **WHEEL).status_code == 303
    html = page(client, match_id)
    assert "Game over" in html and "Ann wins" in html
    assert 'id="hand-form"' not in html
    response = record(client, match_id, version="", **WHEEL)
    assert response.status_code in (200, 422)
    assert "recorded after the game ended" in text(response)
    with client.application.app_context():
        assert len(store.get_record(get_db(), match_id).match.hands) == 1


def test_ties_share_a_place(client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"])
    fields = {"scoring_tricks_0": 2, "scoring_tricks_1": 2, "scoring_tricks_2": 1,
              "other_tricks_0": 4, "other_tricks_1": 4, "other_tricks_2": 4}
    assert record(client, match_id, **fields).status_code == 303
    body = text(client.get(f"/matches/{match_id}"))
    assert "1st tie Ann 2 +2 in hand 1 1st tie Bob 2 +2 in hand 1 3rd Cy 1 +1 in hand 1" in body


def test_why_explanations(client):
    match_id = wheel_match(client)
    record(client, match_id, **WHEEL)
    html = page(client, match_id)
    assert "<details" in html and "Why?" in html
    assert "Ann bid 5 and took exactly 5" in html
    response = client.get(f"/matches/{match_id}/hands/1/why")
    assert response.status_code == 200 and "Ann bid 5 and took exactly 5" in text(response)
    partial = client.get(f"/matches/{match_id}/hands/1/why", headers={"HX-Request": "true"})
    assert "<html" not in partial.get_data(as_text=True)
    assert client.get(f"/matches/{match_id}/hands/2/why").status_code == 404


def test_chart_is_inline_svg_with_labels(client):
    match_id = wheel_match(client)
    record(client, match_id, **WHEEL)
    html = page(client, match_id)
    assert "<svg" in html and "Running totals" in html
    assert ">Ann 9</text>" in html and 'class="legend"' in html


# --- edit, undo, audit ----------------------------------------------------------------

def test_edit_rescores_later_hands_and_highlights(client):
    match_id = wheel_match(client)
    record(client, match_id, **WHEEL)  # Ann deals: 9 0 2
    record(client, match_id, **WHEEL)  # Bob deals, took 4 of 5: Ann 5, Cy 5 + 2
    assert totals(page(client, match_id)) == {"Ann": 14, "Bob": 0, "Cy": 9}
    form = client.get(f"/matches/{match_id}/hands/1/edit")
    assert form.status_code == 200 and 'value="5"' in form.get_data(as_text=True)
    response = client.post(f"/matches/{match_id}/hands/1/edit",
                           data=dict(WHEEL_MISS, version=version(client, match_id)))
    assert response.status_code == 303
    html = page(client, match_id)
    assert totals(html) == {"Ann": 5, "Bob": 7, "Cy": 12}  # hand 1 now 0 7 5
    assert "Totals changed from hand 1 on" in html
    assert html.count('class="hand changed"') == 2
    assert 'class="hand changed"' not in page(client, match_id)  # only shown once


def test_edit_preview(client):
    match_id = wheel_match(client)
    record(client, match_id, **WHEEL)
    response = client.post(f"/matches/{match_id}/hands/1/preview", data=WHEEL_MISS)
    assert "If saved: Ann 0, Bob +7, Cy +5" in text(response)


def test_refused_edit_changes_nothing(client):
    match_id = wheel_match(client, target=10, deals_each=0)
    record(client, match_id, **WHEEL_MISS)  # 0 7 5
    record(client, match_id, **dict(WHEEL, tricks_0=4, tricks_1=5))  # Bob deals, takes 5 of 5: exact
    before = totals(page(client, match_id))
    # bid 11 made gives Ann 22 after hand 1: the game would end there, leaving hand 2 after the end
    response = client.post(f"/matches/{match_id}/hands/1/edit",
                           data={"trump": "suns", "mode": "high", "bid": 11, "tricks_0": 11, "tricks_1": 0,
                                 "tricks_2": 0, "version": version(client, match_id)})
    assert response.status_code == 422
    assert "hand 2: recorded after the game ended (it ended after hand 1)" in text(response)
    assert totals(page(client, match_id)) == before
    with client.application.app_context():
        actions = [e["action"] for e in store.audit_log(get_db(), match_id)]
    assert actions == ["create", "save", "save"]


def test_undo_needs_confirmation_and_is_logged(client):
    match_id = wheel_match(client)
    record(client, match_id, **WHEEL)
    record(client, match_id, **WHEEL)
    confirm = client.get(f"/matches/{match_id}/undo")
    body = text(confirm)
    assert "Undo hand 2?" in body and "Bob dealt" in body and "Keep it" in body
    assert totals(page(client, match_id)) == {"Ann": 14, "Bob": 0, "Cy": 9}  # GET changes nothing
    partial = client.get(f"/matches/{match_id}/undo", headers={"HX-Request": "true"})
    assert "<html" not in partial.get_data(as_text=True)
    response = client.post(f"/matches/{match_id}/undo", data={"version": version(client, match_id)})
    assert response.status_code == 303
    html = page(client, match_id)
    assert totals(html) == {"Ann": 9, "Bob": 0, "Cy": 2}
    assert "Hand 2 undone. It is kept in the match log." in html
    log = client.get(f"/matches/{match_id}/log")
    body = text(log)
    assert log.status_code == 200
    assert body.index("Undid hand 2") < body.index("Saved hand 2") < body.index("Saved hand 1") < body.index("Started")
    assert "Ann 14 → 9, Bob 0 → 0, Cy 9 → 2" in body
    with client.application.app_context():
        entries = store.audit_log(get_db(), match_id)
    undo = entries[-1]
    assert undo["action"] == "undo" and undo["hand"] == 2 and undo["after"] is None
    assert undo["before"]["bid"] == 5 and undo["totals_before"] == [14, 0, 9] and undo["totals_after"] == [9, 0, 2]


def test_undo_with_no_hands(client):
    match_id = wheel_match(client)
    response = client.post(f"/matches/{match_id}/undo", data={})
    assert response.status_code == 303
    assert "There is no hand to undo." in text(client.get(f"/matches/{match_id}"))


def test_edit_is_logged_with_before_and_after(client):
    match_id = wheel_match(client)
    record(client, match_id, **WHEEL)
    client.post(f"/matches/{match_id}/hands/1/edit", data=dict(WHEEL_MISS, version=version(client, match_id)))
    body = text(client.get(f"/matches/{match_id}/log"))
    assert "Corrected hand 1" in body and "Before: bid 5 · wyrms high" in body and "After: bid 5 · moons low" in body
    assert "Ann 9 → 0, Bob 0 → 7, Cy 2 → 5" in body


def test_edit_of_unknown_hand_is_404(client):
    match_id = wheel_match(client)
    assert client.get(f"/matches/{match_id}/hands/1/edit").status_code == 404
    assert client.post(f"/matches/{match_id}/hands/1/edit", data=WHEEL).status_code == 404


# --- the app around it ----------------------------------------------------------------

def test_csrf_missing_token_is_refused_with_a_message(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "csrf.sqlite", "SECRET_KEY": "x"})
    client = app.test_client()
    response = client.post("/matches/new", data={"game": "third_wheel"})
    assert response.status_code == 400
    assert "security token" in text(response)
    page_html = client.get("/matches/new").get_data(as_text=True)
    assert 'name="csrf_token"' in page_html


def test_first_load_of_a_match_page_is_small_when_gzipped(client):
    match_id = wheel_match(client)
    record(client, match_id, **WHEEL)
    total = 0
    for url in (f"/matches/{match_id}", "/static/app.css", "/static/app.js", "/static/htmx.min.js"):
        response = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200, url
        assert response.headers.get("Content-Encoding") == "gzip", url
        total += len(response.data)
        gzip.decompress(response.data)
    assert total < 60 * 1024


def test_no_gzip_unless_accepted(client):
    response = client.get("/matches/new")
    assert "Content-Encoding" not in response.headers


def test_no_inline_scripts_or_styles(client):
    match_id = wheel_match(client)
    record(client, match_id, **WHEEL)
    for url in ("/", "/matches/new", f"/matches/{match_id}", f"/matches/{match_id}/log",
                f"/matches/{match_id}/undo", f"/matches/{match_id}/hands/1/edit"):
        html = client.get(url).get_data(as_text=True)
        assert "<script>" not in html and "style=" not in html and "<style" not in html, url
        html = re.sub(r'value="http://localhost/[sw]/[A-Za-z0-9_-]+"', "", html)  # the share links, on purpose
        assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', ""), url


def test_server_error_is_a_friendly_page(app, client):
    wheel_match(client)
    # a database file damaged behind the app's back: the history's table is gone
    with sqlite3.connect(app.config["DATABASE"]) as damaged:
        damaged.execute("drop table summaries")
    response = client.get("/")
    assert response.status_code == 500
    assert "Something went wrong" in text(response)
    assert "summaries" not in text(response) and "sqlite" not in text(response).lower()  # no internals shown


def test_too_large_request(client):
    match_id = wheel_match(client)
    response = client.post(f"/matches/{match_id}/hands", data={"note": "x" * (2 * 1024 * 1024)})
    assert response.status_code == 413
    assert "Too large" in text(response)


def test_third_rail_trick_winners_entry(client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"])
    winners = " ".join(["1", "2", "3"] * 5 + ["1", "1"])  # 17 tricks
    response = record(client, match_id, winners=winners)
    assert response.status_code == 303, problems(response)
    with client.application.app_context():
        hand = store.get_record(get_db(), match_id).match.hands[0]
    assert hand["winners"][:4] == [0, 1, 2, 0] and "scoring_tricks" not in hand
    assert totals(page(client, match_id)) == {"Ann": 0, "Bob": 0, "Cy": 5}  # tricks 3, 6, ... 15 all Cy's
    response = record(client, match_id, winners="1 2 3")
    assert response.status_code == 422 and "winners" in text(response)
