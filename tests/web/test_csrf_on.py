"""The table loop with CSRF protection on, as in production: every form the app
serves carries its token, and a post without one is refused in plain words."""
from __future__ import annotations

import pytest

from scorekeeper.web import create_app

from .helpers import page_of, start_form, text, totals

HAND = {"trump": "wyrms", "mode": "high", "bid": "5", "tricks_0": "5", "tricks_1": "4", "tricks_2": "2"}


@pytest.fixture
def client(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "csrf.sqlite", "SECRET_KEY": "csrf-on"})
    assert app.config.get("WTF_CSRF_ENABLED", True)
    return app.test_client()


def form_of(client, url: str) -> dict[str, str]:
    """The hidden fields (token, version, request key) of the form a page serves."""
    page = page_of(client.get(url))
    names = [e.attrs["name"] for e in page.find_all("input", type="hidden") if "name" in e.attrs
             and not e.attrs["name"].startswith("again-")]  # the Play again form is another form
    return {name: page.value(name) or "" for name in names}


def test_start_record_edit_and_undo_with_the_served_tokens(client):
    token = form_of(client, "/matches/new")["csrf_token"]
    started = client.post("/matches/new", data=dict(start_form("third_wheel", ["Ann", "Bob", "Cy"]), csrf_token=token))
    assert started.status_code == 303
    match = started.headers["Location"]

    hidden = form_of(client, match)
    saved = client.post(f"{match}/hands", data=dict(HAND, **hidden))
    assert saved.status_code == 303
    assert totals(client.get(match).get_data(as_text=True)) == {"Ann": 9, "Bob": 0, "Cy": 2}

    hidden = form_of(client, f"{match}/hands/1/edit")
    corrected = client.post(f"{match}/hands/1/edit", data={**HAND, "bid": "3", **hidden})  # Ann 2 over her bid
    assert corrected.status_code == 303
    page = client.get(match)
    assert "Hand 1 corrected. Totals changed from hand 1 on." in text(page)
    assert totals(page.get_data(as_text=True)) == {"Ann": 3, "Bob": 0, "Cy": 6}

    hidden = form_of(client, f"{match}/undo")
    undone = client.post(f"{match}/undo", data=hidden)
    assert undone.status_code == 303
    page = client.get(match)
    assert "Hand 1 undone. It is kept in the match log." in text(page)
    assert totals(page.get_data(as_text=True)) == {"Ann": 0, "Bob": 0, "Cy": 0}


def test_a_post_without_the_token_is_refused_plainly_and_saves_nothing(client):
    token = form_of(client, "/matches/new")["csrf_token"]
    match = client.post("/matches/new", data=dict(start_form("third_wheel", ["Ann", "Bob", "Cy"]),
                                                  csrf_token=token)).headers["Location"]
    hidden = form_of(client, match)
    hidden.pop("csrf_token")
    refused = client.post(f"{match}/hands", data=dict(HAND, **hidden))
    assert refused.status_code == 400
    assert "This form has expired or was not sent from this app" in text(refused)
    assert "Traceback" not in text(refused)
    assert totals(client.get(match).get_data(as_text=True)) == {"Ann": 0, "Bob": 0, "Cy": 0}
