"""Play again: one tap starts the next match of the table (same game, players, seats,
settings; the first dealer one seat left, changeable), linked both ways."""
from __future__ import annotations

from scorekeeper import store
from scorekeeper.engine import Match

from .helpers import page_of, record, start, stored, text


def _finished_rail(app, client) -> int:
    # target 1: the first point ends it
    hand = {"scoring_tricks": [2, 1, 1, 0], "other_tricks": [3, 2, 2, 2]}
    return stored(app, client, Match("third_rail", ["Ann", "Bob", "Cy", "Dee"], {"target": 1, "most_other_tricks_bonus": True},
                              first_dealer=3, hands=[hand], date="2026-11-20"))


def test_a_finished_match_offers_play_again_prominently_with_the_next_dealer(app, client):
    match_id = _finished_rail(app, client)
    page = page_of(client.get(f"/matches/{match_id}"))
    section = page.find("section", id="play-again")
    assert section is not None and "prominent" in section.classes
    select = page.find("select", name="again-first_dealer")
    assert select is not None
    chosen = [o for o in page.find_all("option") if "selected" in o.attrs and o.attrs.get("value") == "0"]
    assert chosen and chosen[0].text == "Ann"  # seat 3 dealt first, so seat 0 (left of Dee) now


def test_play_again_copies_game_players_seats_settings_and_links_both_ways(app, client):
    match_id = _finished_rail(app, client)
    response = client.post(f"/matches/{match_id}/again", data={"again-first_dealer": "0"})
    assert response.status_code == 303
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])
    db = store.connect(app.config["DATABASE"])
    try:
        old, new = store.get_record(db, match_id), store.get_record(db, new_id)
    finally:
        db.close()
    assert (new.game, new.players, new.settings) == (old.game, old.players, old.settings)
    assert new.first_dealer == 0 and new.match.hands == [] and new.previous_id == match_id
    assert new.date == store.today()
    new_page = page_of(client.get(f"/matches/{new_id}"))
    assert new_page.find("a", rel="prev").attrs["href"] == f"/matches/{match_id}"
    old_page = page_of(client.get(f"/matches/{match_id}"))
    assert old_page.find("a", rel="next").attrs["href"] == f"/matches/{new_id}"
    # the new match is this device's to score; with no hand yet there is nothing to play again
    assert "Play again" not in text(client.get(f"/matches/{new_id}"))
    assert page_of(client.get(f"/matches/{new_id}")).find("form", cls="hand-form") is not None or \
        "Record hand" in text(client.get(f"/matches/{new_id}"))


def test_the_first_dealer_can_be_changed(app, client):
    match_id = _finished_rail(app, client)
    response = client.post(f"/matches/{match_id}/again", data={"again-first_dealer": "2"})
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])
    db = store.connect(app.config["DATABASE"])
    try:
        assert store.get_record(db, new_id).first_dealer == 2
    finally:
        db.close()


def test_a_bad_first_dealer_is_a_clear_error(app, client):
    match_id = _finished_rail(app, client)
    for bad in ("7", "x", ""):
        response = client.post(f"/matches/{match_id}/again", data={"again-first_dealer": bad})
        assert response.status_code == 422
        assert "pick one of the players" in text(response)


def test_a_match_in_progress_offers_it_too_and_wraps_the_dealer(app, client):
    match_id = start(client, "third_hand", ["Ann", "Bob"], first_dealer="1")
    assert page_of(client.get(f"/matches/{match_id}")).find("section", id="play-again") is None  # no hand yet
    saved = record(client, match_id, bids_0="pass", bids_1="pass", trump="hearts", points_0="60", points_1="80")
    assert saved.status_code == 303
    page = page_of(client.get(f"/matches/{match_id}"))
    section = page.find("section", id="play-again")
    assert section is not None and "prominent" not in section.classes
    chosen = [o for o in page.find_all("option") if "selected" in o.attrs and o.attrs.get("value") == "0"]
    assert chosen and chosen[0].text == "Ann"


def test_a_watcher_is_not_offered_it_and_the_links_hide_matches_it_cannot_open(app, client):
    match_id = _finished_rail(app, client)
    new_id = int(client.post(f"/matches/{match_id}/again", data={"again-first_dealer": "0"})
                 .headers["Location"].rsplit("/", 1)[1])
    db = store.connect(app.config["DATABASE"])
    try:
        watcher_token = store.get_tokens(db, match_id)["watcher_token"]
    finally:
        db.close()
    other = app.test_client()
    other.get(f"/w/{watcher_token}")
    page = page_of(other.get(f"/matches/{match_id}"))
    assert page.find("section", id="play-again") is None
    assert page.find("a", rel="next") is None  # the next match is not theirs to see
    assert other.get(f"/matches/{new_id}").status_code == 404
    assert other.get(f"/matches/{match_id}/again").status_code == 403
    assert other.post(f"/matches/{match_id}/again", data={"again-first_dealer": "1"}).status_code == 403


def test_play_again_of_a_match_this_device_cannot_open_is_a_404(app, client):
    match_id = _finished_rail(app, client)
    stranger = app.test_client()
    assert stranger.post(f"/matches/{match_id}/again", data={"again-first_dealer": "0"}).status_code == 404
    assert stranger.get(f"/matches/{match_id}/again").status_code == 404
