"""What the save benches share (save_cost.py, save_walk.py): a match made in the store up to
the hand to save, its scorer's session in the test client, and a hand saved through the
app's form as a phone with htmx sends it."""
from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import store
from scorekeeper.engine import Match, replay
from scorekeeper.web.forms import hand_forms


def form_data(match: Match, hand: dict) -> dict:
    """The hand as the record form's fields (what a scorer types)."""
    result = replay(match)
    form = hand_forms.make_form(result.played, result.next_place())
    data = hand_forms.hand_to_data(form.groups, hand)
    # a ticked box is sent as "y", an unticked one not at all
    return {k: "y" if v is True else str(v) for k, v in data.items() if v is not False and not isinstance(v, list)}


def first_hands(sample: Match, count: int) -> Match:
    """The sample's match with only its first ``count`` hands."""
    return Match(game=sample.game, players=sample.players, settings=sample.settings,
                 first_dealer=sample.first_dealer, hands=sample.hands[:count])


def scoring(app: Flask, client: FlaskClient, match: Match) -> tuple[int, int]:
    """``match`` stored, the client its scorer with the match's page open: its id and version."""
    db = store.connect(app.config["DATABASE"])
    try:
        match_id = store.create_match(db, match)
        token = store.get_tokens(db, match_id)["scorer_token"]
        version = store.get_version(db, match_id)
    finally:
        db.close()
    client.get(f"/s/{token}")
    client.get(f"/matches/{match_id}")  # the page the scorer saves from
    return match_id, version


def save(client: FlaskClient, match_id: int, data: dict, preview: bool = False):
    """The record form posted as htmx sends it from the match's page (or, ``preview``, as
    its preview asks what the hand would score)."""
    return client.post(f"/matches/{match_id}/hands" + ("/preview" if preview else ""), data=data,
                       headers={"HX-Request": "true", "HX-Target": "preview" if preview else "match-live",
                                "HX-Current-URL": f"http://localhost/matches/{match_id}"})
