"""The web layer renders whatever a game describes: the tests' own game (tests/oddball.py:
8 seats, no target, no referee, its own hand fields) and every registered game play
through the real forms without the web knowing any of them."""
from __future__ import annotations

import pytest

from scorekeeper.games import GAMES
from scorekeeper.samples import NAMES

from .helpers import page_of, record, start, text, totals

ODD = [f"{name} Featherstonehaugh-Cholmondeley" for name in NAMES]  # 8 long names


def test_the_tests_own_game_is_registered_here_and_only_here():
    assert "oddball" in GAMES and GAMES["oddball"].max_players == 8


def test_a_game_without_a_referee_offers_none(client):
    match_id = start(client, "oddball", ODD)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'id="referee-link"' not in page and "Who won the trick?" not in page
    assert "Who won the trick?" not in text(client.get("/rules/oddball"))
    assert client.get("/referee/oddball").status_code == 404
    assert "/referee/oddball" not in client.get("/referee").get_data(as_text=True)
    # a game with a referee still offers it
    assert client.get("/referee/third_rail").status_code == 200
    assert "/referee/third_rail" in client.get("/referee").get_data(as_text=True)


def test_eight_players_record_a_hand_through_the_real_form(client):
    match_id = start(client, "oddball", ODD)
    fields = {f"marbles_{seat}": seat for seat in range(8)}
    response = record(client, match_id, weather="clear", **fields)
    assert response.status_code in (200, 303)
    board = totals(client.get(f"/matches/{match_id}").get_data(as_text=True))
    assert board == {name: seat for seat, name in enumerate(ODD)}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_starts_with_its_most_players_and_shows_its_page(client, key):
    game = GAMES[key]
    match_id = start(client, key, NAMES[:game.max_players])
    page = page_of(client.get(f"/matches/{match_id}"))
    assert all(name in page.text for name in NAMES[:game.max_players])
    assert client.get(f"/matches/{match_id}/rules").status_code == 200
    assert client.get(f"/matches/{match_id}/print").status_code == 200


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_count_per_seat_takes_the_least_the_game_allows(client, key):
    """A phone refuses to send a number under an input's ``min``: the form's least is the game's."""
    game = GAMES[key]
    players = NAMES[:game.max_players]
    match_id = start(client, key, players)
    page = page_of(client.get(f"/matches/{match_id}"))
    from scorekeeper.games.base import Table

    for group in game.shown.hand_form(game.empty_place(Table(tuple(players), game.defaults()), 0)):
        if group.kind != "seat_int":
            continue
        for seat in group.seats:
            field = page.find("input", name=f"{group.name}_{seat}")
            assert field is not None
            assert field.attrs.get("min") == (None if group.minimum is None else str(group.minimum)), field.attrs
            # the numeric keypad has no minus key: offered only where no number is below zero
            assert (field.attrs.get("inputmode") == "numeric") == (group.minimum is not None
                                                                   and group.minimum >= 0)


def test_the_referee_names_every_place_of_an_eight_card_trick():
    """Outside a match the referee names places by number: a game for 8 has an 8th card."""
    from scorekeeper.web.views.referee import next_prompt, slot_label

    assert [slot_label(None, i) for i in range(8)] == ["Led", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"]
    assert next_prompt(None, 7) == "Tap the card played 8th."
