"""No game's table words in the generic pages: what a seat does, what a hand nobody sits at is
called, what a new dealer changes come from the game (its ``Shown`` part, its hand form's
groups, its seat picture). The tests' own game (tests/oddball.py) deals, leads and counts
marbles: nobody bids, so a page of an Oddball match that says "bid" took another game's words."""
from __future__ import annotations

import re
from pathlib import Path

from flask import get_template_attribute

from scorekeeper.games import GAMES
from scorekeeper.games.base import FieldGroup, Table
from scorekeeper.web.forms import hand_forms

from .helpers import page_of, record, start, text
from .test_referee import make_match, slot_labels

EIGHT = ["Ann", "Bob", "Cy", "Di", "Ed", "Fay", "Gus", "Hal"]
# Words that belong to one of the real games' tables, never to Oddball's.
OTHER_GAMES = re.compile(r"\b(bids?|bidding|dummy|trump|nils?|bags?|wheel|declarer|contract|setter)\b", re.I)


def oddball_hand(**extra) -> dict:
    return {**{f"marbles_{seat}": seat for seat in range(8)}, "weather": "clear", **extra}


def dealer_moved(client, game: str) -> int:
    """A match of ``game`` at EIGHT's table whose hand 1 is corrected to Di's deal (out of
    turn), after three hands: the later dealers move one seat on."""
    match_id = start(client, game, EIGHT)  # Ann deals hand 1, Bob hand 2, Cy hand 3
    for _ in range(3):
        assert record(client, match_id, **oddball_hand()).status_code == 303
    edit = page_of(client.get(f"/matches/{match_id}/hands/1/edit"))
    data = {k: str(v) for k, v in oddball_hand(dealer=3, version=edit.value("version")).items()}
    assert client.post(f"/matches/{match_id}/hands/1/edit", data=data).status_code == 303
    return match_id


def test_a_correction_that_moves_later_dealers_says_what_the_new_dealer_does_in_that_game(client):
    match_id = dealer_moved(client, "oddball")
    words = text(client.get(f"/matches/{match_id}"))
    # Di dealt hand 1 out of turn: Ed now deals hand 2 and Fay hand 3; in Oddball the dealer leads
    assert "Hand 2 is now dealt by Ed, who leads there; check it." in words
    assert "Hand 3 is now dealt by Fay, who leads there; check it." in words
    assert not OTHER_GAMES.search(words), OTHER_GAMES.search(words)


def test_no_oddball_page_speaks_of_another_games_table(client):
    match_id = start(client, "oddball", EIGHT)
    assert record(client, match_id, **oddball_hand(rainbow="y")).status_code == 303
    assert record(client, match_id, **oddball_hand()).status_code == 303
    m = f"/matches/{match_id}"
    # every page of the match a phone can open, the exports too (the pages that list every
    # game, the new-match picker and the referee's, name the others' on purpose)
    for url in (m, f"{m}/hands/1/edit", f"{m}/rules", f"{m}/print", f"{m}/print/blank", f"{m}/log",
                f"{m}/hands/1/why", f"{m}/setup", f"{m}/board", f"{m}/live", f"{m}/screen", f"{m}/screen/live",
                f"{m}/tally", f"{m}/undo", f"{m}/delete", f"{m}/again", f"{m}/details", f"{m}/hands",
                f"{m}/chart", f"{m}/export.csv", f"{m}/export.json", "/rules/oddball", "/print/blank/oddball", "/"):
        response = client.get(url)
        assert response.status_code == 200, url
        words = text(response) if response.mimetype == "text/html" else response.get_data(as_text=True)
        found = OTHER_GAMES.search(words)
        assert not found, (url, found)


def seat_choices_html(app, group: FieldGroup, players: list[str]) -> str:
    """The seat-choices macro of ``_kinds.html`` drawn for ``group``, as a hand form draws it."""
    with app.test_request_context():
        kind = hand_forms.SeatChoices(group, players, GAMES["oddball"])
        attrs: dict = {}
        kind.add_fields(attrs)
        form = type("Form", (hand_forms.RecordHandForm,), attrs)(meta={"csrf": False})
        return str(get_template_attribute("_kinds.html", "seat_choices")(form, kind))


def test_a_choice_per_seat_notes_the_first_seat_only_in_the_games_own_words(app):
    choices = (("pass", "pass"), ("up", "up"))
    silent = seat_choices_html(app, FieldGroup("calls", "Calls", "seat_rank", (1, 0), choices=choices), ["Ann", "Bob"])
    assert "first" not in silent  # the game said nothing of who goes first: nothing is said
    noted = seat_choices_html(app, FieldGroup("calls", "Calls", "seat_rank", (1, 0), choices=choices,
                                              first_note="calls first"), ["Ann", "Bob"])
    assert re.search(r"Bob</bdi>\s*<small>\(calls first\)</small>|Bob\s*<small>\(calls first\)</small>", noted), noted
    assert noted.count("(calls first)") == 1


def test_third_hand_still_says_who_bids_first(client):
    match_id = start(client, "third_hand", ["Ann", "Bob"])  # Ann deals: Bob bids first
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert re.search(r"Bob\s*<small>\(bids first\)</small>", html)
    assert html.count("(bids first)") == 1


def test_the_referee_calls_a_hand_nobody_sits_at_what_the_seat_picture_calls_it(app, client):
    match_id = make_match(app, client, "dummy_spades", ["Ann", "Bob", "Cy"])
    game = GAMES["dummy_spades"]
    seating = game.shown.seating(game.empty_place(Table(("Ann", "Bob", "Cy"), game.defaults()), 0))
    seatless = next(place.name for place in seating.places if place.seat is None)
    labels = slot_labels(client.get(f"/referee/dummy_spades?match={match_id}&table=1,d,2,0"))
    assert labels == ["Bob leads", seatless, "Cy", "Ann"]
    assert "the dummy" not in labels


def test_the_match_log_describes_each_logged_hand_at_its_own_place(client):
    match_id = start(client, "oddball", EIGHT)  # Ann deals hand 1, Bob hand 2, Cy hand 3
    assert record(client, match_id, **oddball_hand()).status_code == 303
    assert record(client, match_id, **oddball_hand(rainbow="y")).status_code == 303
    assert record(client, match_id, **oddball_hand(rainbow="y", weather="fog")).status_code == 303
    words = text(client.get(f"/matches/{match_id}/log"))
    assert "Entered: clear · rainbow on hand 2, Bob's deal" in words
    assert "Entered: fog · rainbow on hand 3, Cy's deal" in words
    # undone, hand 3 is the one about to be played again: still hand 3, Cy's deal
    undo = page_of(client.get(f"/matches/{match_id}/undo"))
    assert client.post(f"/matches/{match_id}/undo", data={"version": undo.value("version")}).status_code == 303
    assert "Before: fog · rainbow on hand 3, Cy's deal" in text(client.get(f"/matches/{match_id}/log"))
    undo = page_of(client.get(f"/matches/{match_id}/undo"))
    assert client.post(f"/matches/{match_id}/undo", data={"version": undo.value("version")}).status_code == 303
    # hand 3 is no longer in the match: its number is known, its dealer no longer
    words = text(client.get(f"/matches/{match_id}/log"))
    assert "Entered: fog · rainbow on hand 3 " in words + " " and "Before: clear · rainbow on hand 2, Bob's deal" in words


def test_the_generic_pages_name_no_game_s_deck():
    """How a card is drawn is the face's kind ("named": a card known by its own name), not a
    branch on the one deck a game plays (the Decktet): templates, styles and scripts outside
    the games never name it."""
    root = Path(hand_forms.__file__).resolve().parents[1]
    found = [f"{path.relative_to(root)}:{number}" for folder in ("templates", "static", "web")
             for path in sorted((root / folder).rglob("*")) if path.suffix in (".html", ".css", ".js", ".py")
             and "rules" not in path.relative_to(root).parts  # a game's own rules page says its deck
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if re.search(r"decktet", line, re.I)]
    assert found == []
