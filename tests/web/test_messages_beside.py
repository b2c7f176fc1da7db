"""What a refused save says about a box is said beside that box, and the box says so to a
screen reader: a box left blank that the hand needs carries its own "still to fill in" line
under its group (not only the summary at the top of the form, which on a phone may be a
screen away), and every box with a message, blank or impossible, is ``aria-invalid`` and
``aria-describedby`` the element holding its message. In every game, through real form posts."""
from __future__ import annotations

import pytest

from scorekeeper.games import GAMES
from scorekeeper.samples import NAMES

from .helpers import Page, page_of, record, start

SUMMARY = "Still to fill in:"


def boxes(page: Page) -> list:
    """The hand form's inputs a scorer types in or chooses (not the hidden ones)."""
    form = page.find("form", id="hand-form")
    assert form is not None
    start_at = page.elements.index(form)
    return [e for e in page.elements[start_at:] if e.tag in ("input", "select")
            and e.attrs.get("type") != "hidden" and e.attrs.get("name") not in (None, "request_key")]


def first_choices(form: Page) -> dict[str, str]:
    """Each radio group's first option chosen: the hand then reaches the engine's checks."""
    out: dict[str, str] = {}
    for b in boxes(form):
        if b.attrs.get("type") == "radio":
            out.setdefault(b.attrs["name"], b.attrs.get("value", ""))
    return out


def described(page: Page, box) -> list:
    """The elements the box's ``aria-describedby`` names."""
    ids = box.attrs.get("aria-describedby", "").split()
    return [page.find(id=i) for i in ids]


def beside(page: Page, box, message) -> bool:
    """The message is drawn in the box's own group, right after its boxes: no other group
    (fieldset) starts between them."""
    at, said = page.elements.index(box), page.elements.index(message)
    return at < said and not any(e.tag == "fieldset" for e in page.elements[at + 1:said])


def check_marks(page: Page, game: str) -> list:
    """Every box with a message is marked invalid and described by an element beside it that
    holds words; every message beside the boxes is one a box points at. Returns the marked boxes."""
    marked = []
    for box in boxes(page):
        if box.attrs.get("aria-invalid") != "true" and not box.attrs.get("aria-describedby"):
            continue
        name = box.attrs.get("name")
        assert box.attrs.get("aria-invalid") == "true", (game, name, "described but not marked")
        messages = described(page, box)
        assert messages and all(m is not None for m in messages), (game, name, box.attrs)
        assert all(m.text.strip() for m in messages), (game, name, "points at an empty message")
        assert all(beside(page, box, m) for m in messages), (game, name, "message not beside the box")
        marked.append(box)
    pointed = {i for box in marked for i in box.attrs.get("aria-describedby", "").split()}
    for slot in page.find_all(cls="field-error"):
        if slot.text.strip() and slot.attrs.get("id") != "err-dealer":
            assert slot.attrs.get("id") in pointed, (game, slot.attrs.get("id"), slot.text, "no box points at it")
    return marked


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_blank_save_says_beside_each_blank_box_what_is_missing(client, game):
    players = list(NAMES[:GAMES[game].min_players])
    match_id = start(client, game, players)
    page = page_of(record(client, match_id))
    assert SUMMARY in page.text  # the summary stays at the top
    marked = check_marks(page, game)
    assert marked, f"{game}: no box marked"
    for box in marked:
        said = " ".join(m.text for m in described(page, box))
        assert "still to fill in" in said.lower(), (game, box.attrs.get("name"), said)


def test_one_players_blank_box_names_that_player_beside_it(client):
    match_id = start(client, "score_pad", ["Ann", "Bob", "Cy", "Dee"])
    page = page_of(record(client, match_id, points_0=13, points_1=5, points_2=8, points_3=""))
    assert "Still to fill in: points (Dee)." in page.text
    marked = check_marks(page, "score_pad")
    assert [b.attrs["name"] for b in marked] == ["points_3"]
    said = " ".join(m.text for m in described(page, marked[0]))
    assert "Dee" in said and "Ann" not in said, said


def test_an_impossible_number_marks_its_own_box(client):
    match_id = start(client, "score_pad", ["Ann", "Bob", "Cy", "Dee"])
    page = page_of(record(client, match_id, points_0=200000, points_1=5, points_2=8, points_3=1))
    marked = check_marks(page, "score_pad")
    assert [b.attrs["name"] for b in marked] == ["points_0"]
    said = " ".join(m.text for m in described(page, marked[0]))
    assert "must be -100000 to 100000, got 200000" in said, said


def test_tricks_that_do_not_add_up_mark_every_tricks_box(client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    form = page_of(client.get(f"/matches/{match_id}"))
    names = [b.attrs["name"] for b in boxes(form) if b.attrs["name"].startswith("tricks_")]
    assert names
    # the dealer bids 7; 12 tricks where the deal has fewer
    data: dict = {**first_choices(form), "bid": 7, **{name: 4 for name in names}}
    page = page_of(record(client, match_id, **data))
    marked = check_marks(page, "third_wheel")
    assert set(names) <= {b.attrs["name"] for b in marked}, page.text[:600]
    said = " ".join(m.text for m in described(page, next(b for b in marked if b.attrs["name"] == names[0])))
    assert "add up to 12" in said, said


@pytest.mark.parametrize("game", sorted(GAMES))
def test_impossible_numbers_are_marked_in_every_game(client, game):
    players = list(NAMES[:GAMES[game].min_players])
    match_id = start(client, game, players)
    form = page_of(client.get(f"/matches/{match_id}"))
    typed = {**first_choices(form),
             **{b.attrs["name"]: 999999 for b in boxes(form) if b.attrs.get("type") == "number"}}
    page = page_of(record(client, match_id, **typed))
    marked = check_marks(page, game)
    assert any("still to fill in" not in " ".join(m.text for m in described(page, b)).lower() for b in marked), \
        (game, page.text[:600])
