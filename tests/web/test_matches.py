"""History, starting a match for each game, the scoreboard, date and note."""
from __future__ import annotations

import pytest

from scorekeeper import store
from scorekeeper.games import GAMES
from scorekeeper.samples import NAMES
from scorekeeper.web.edges.db import get_db

from .helpers import problems, record, start, start_form, text, totals

# every registered game (the tests' own among them) at its sample table: a game added later is
# started here too, with no list to keep
PLAYERS = {key: NAMES[:game.sample_players] for key, game in GAMES.items()}


def test_empty_history(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "No matches yet" in text(response)
    assert "<html" in response.get_data(as_text=True)


def test_history_partial_with_htmx(client):
    response = client.get("/", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "<html" not in response.get_data(as_text=True)
    assert "No matches yet" in text(response)


def test_boosted_request_gets_the_full_page(client):
    response = client.get("/", headers={"HX-Request": "true", "HX-Boosted": "true"})
    assert "<html" in response.get_data(as_text=True)


@pytest.mark.parametrize("game", list(PLAYERS))
def test_new_match_page_shows_the_game_settings(client, game):
    response = client.get(f"/matches/new?game={game}")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    for setting in GAMES[game].settings:
        assert f'setting_{setting.name}' in page
    assert "Draw at random" in page


def test_new_match_shows_six_seats_for_third_rail(client):
    page = client.get("/matches/new?game=third_rail").get_data(as_text=True)
    assert 'name="player_5"' in page
    page = client.get("/matches/new?game=third_hand").get_data(as_text=True)
    assert 'name="player_2"' not in page


def test_third_hand_contract_values_are_marked_house_defaults(client):
    page = text(client.get("/matches/new?game=third_hand"))
    assert "House defaults" in page and "published table was lost" in page
    html = client.get("/matches/new?game=third_hand").get_data(as_text=True)
    assert 'name="setting_contract_values_Q"' in html and 'value="75"' in html


def test_changing_game_swaps_the_fields_with_htmx(client):
    response = client.post("/matches/new/fields", data={"game": "third_rail", "player_0": "Ann", "setting_target": "500"},
                           headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "<html" not in html
    assert 'id="game-fields"' in html and 'name="player_5"' in html
    assert 'value="Ann"' in html
    assert 'value="12"' in html  # Third Rail's own default target, not the 500 posted


def test_changing_game_without_javascript_is_a_two_step_form(client):
    data = start_form("third_hand", ["Ann", "Bob"])
    data["game"] = "third_wheel"  # changed the radio, settings still Third Hand's
    response = client.post("/matches/new", data=data)
    assert response.status_code == 200
    assert "Now check the players and settings for Third Wheel" in text(response)
    with client.application.app_context():
        assert store.all_matches(get_db()) == []


@pytest.mark.parametrize("game", list(PLAYERS))
def test_start_a_match_for_each_game(client, game):
    match_id = start(client, game, PLAYERS[game], note="Kitchen")
    page = client.get(f"/matches/{match_id}")
    assert page.status_code == 200
    assert totals(page.get_data(as_text=True)) == {p: 0 for p in PLAYERS[game]}
    assert "Kitchen" in text(page)
    assert "Next to deal: Ann" in text(page)  # first dealer seat 0
    assert 'id="hand-form"' in page.get_data(as_text=True)


def test_third_rail_blank_seats_are_ignored(client):
    match_id = start(client, "third_rail", ["Ann", "", "Bob", "", "Cy", ""], first_dealer="2")
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert totals(page) == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert "Next to deal: <strong>Bob</strong>" in page


def test_random_first_dealer(client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"], first_dealer="random")
    with client.application.app_context():
        assert store.get_record(get_db(), match_id).first_dealer in (0, 1, 2)


def test_settings_are_stored_and_used(client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"], target=10, deals_each=0)
    with client.application.app_context():
        assert store.get_record(get_db(), match_id).settings["target"] == 10
    assert "Playing to 10" in text(client.get(f"/matches/{match_id}"))


@pytest.mark.parametrize("players, message", [
    (["Ann", "ann", "Cy"], "is already at the table"),
    (["Ann", "", "Cy"], "a name cannot be empty"),
    (["Ann", "B" * 41, "Cy"], "at most 40 characters"),
])
def test_bad_player_names_are_refused_with_the_engine_message(client, players, message):
    response = client.post("/matches/new", data=start_form("third_wheel", players))
    assert response.status_code == 422
    assert any(message in p for p in problems(response)), problems(response)


def test_too_few_players_for_third_rail(client):
    response = client.post("/matches/new", data=start_form("third_rail", ["Ann", "Bob"]))
    assert response.status_code == 422
    assert "Third Rail needs 3 to 6 players, got 2" in text(response)


def test_bad_settings_are_refused(client):
    response = client.post("/matches/new", data=start_form("third_wheel", ["Ann", "Bob", "Cy"], target=0, deals_each=0))
    assert response.status_code == 422
    assert "deals_each and target are both 0, so the game would never end; set at least one of them" in text(response)
    response = client.post("/matches/new", data=start_form("dummy_spades", ["Ann", "Bob", "Cy"], lose_at=5))
    assert response.status_code == 422
    assert "settings.lose_at: must be at most -1, got 5" in text(response)


def test_malformed_setting_number_is_a_form_error(client):
    data = start_form("third_wheel", ["Ann", "Bob", "Cy"])
    data["setting_target"] = "thirty"
    response = client.post("/matches/new", data=data)
    assert response.status_code == 422
    assert 'must be a whole number, got "thirty"' in text(response)


def test_bad_date_and_long_note(client):
    response = client.post("/matches/new", data=start_form("third_wheel", ["Ann", "Bob", "Cy"], date="2026-13-45"))
    assert response.status_code == 422 and "date: must be a day as YYYY-MM-DD" in text(response)
    response = client.post("/matches/new", data=start_form("third_wheel", ["Ann", "Bob", "Cy"], note="x" * 501))
    assert response.status_code == 422 and "note: at most 500 characters" in text(response)


def test_first_dealer_must_be_a_filled_seat(client):
    response = client.post("/matches/new", data=start_form("third_rail", ["Ann", "Bob", "Cy"], first_dealer="4"))
    assert response.status_code == 422
    assert "that seat has no player" in text(response)


def test_unknown_match_is_a_404_page(client):
    for url in ("/matches/999", "/matches/999/details", "/matches/999/log", "/matches/999/undo",
                "/matches/999/hands/1/edit", "/matches/999/hands/1/why", "/no/such/page"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "Not found" in text(response)
        assert "Traceback" not in text(response)


def test_history_order_and_result(client):
    finished = start(client, "third_wheel", ["Ann", "Bob", "Cy"], target=5, deals_each=0, date="2026-11-01")
    older = start(client, "third_wheel", ["Dan", "Eve", "Fay"], date="2026-11-02")
    start(client, "third_hand", ["Gil", "Hal"], date="2026-11-03")
    hand = {"trump": "wyrms", "mode": "high", "bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2}
    assert record(client, finished, **hand).status_code == 303  # Ann 9 >= 5: game over
    assert record(client, older, **hand).status_code == 303
    page = text(client.get("/"))
    assert page.index("Gil") < page.index("Dan") < page.index("Finished") < page.index("Ann, Bob, Cy")
    assert "Won by Ann" in page
    assert "Leader: Dan (9)" in page
    assert "No hands yet" in page


def test_edit_date_and_note(client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    assert client.get(f"/matches/{match_id}/details").status_code == 200
    assert "<html" not in client.get(f"/matches/{match_id}/details", headers={"HX-Request": "true"}).get_data(as_text=True)
    response = client.post(f"/matches/{match_id}/details", data={"date": "2026-12-24", "note": "Christmas Eve"})
    assert response.status_code == 303
    page = text(client.get(f"/matches/{match_id}"))
    assert "2026-12-24" in page and "Christmas Eve" in page and "Date and note saved." in page
    response = client.post(f"/matches/{match_id}/details", data={"date": "24/12/2026", "note": ""})
    assert response.status_code == 422 and "date: must be a day as YYYY-MM-DD" in text(response)
    response = client.post(f"/matches/{match_id}/details", data={"date": "2026-12-24", "note": "n" * 501})
    assert response.status_code == 422 and "note: at most 500 characters, got 501" in text(response)
    assert "Christmas Eve" in text(client.get(f"/matches/{match_id}"))


def test_names_are_escaped(client):
    match_id = start(client, "third_wheel", ["<script>x</script>", "Bob", "Cy"])
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "<script>x</script>" not in html and "&lt;script&gt;" in html
