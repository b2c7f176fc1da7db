"""A save refused for blanks marks each box still to fill in, not only names it above the
form: on a phone the scorer sees which input to fill (``aria-invalid``, the error colour),
in every game, through the real form as a browser without JavaScript posts it."""
from __future__ import annotations

import pytest

from scorekeeper.games import GAMES
from scorekeeper.samples import NAMES

from .helpers import Page, page_of, record, start


def marked(page: Page) -> list[str]:
    """The names of the form's inputs marked invalid, each once, in page order."""
    return list(dict.fromkeys(e.attrs.get("name", "") for e in page.find_all(**{"aria-invalid": "true"})))


def test_the_players_points_left_blank_are_marked_and_only_them(client):
    match_id = start(client, "score_pad", ["Ann", "Bob", "Cy", "Dee"])
    page = page_of(record(client, match_id, points_0=13, points_1=5, points_2=8, points_3=""))
    assert "Still to fill in: points (Dee)." in page.text
    assert marked(page) == ["points_3"]
    box = page.find("input", name="points_3")
    assert box is not None and box.attrs.get("value", "") == ""
    # nothing saved: the form is still for hand 1
    assert page.find("input", name="points_0").attrs.get("value") == "13"
    assert "Save hand 1" in page.text


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_save_with_nothing_typed_marks_every_box_it_names(client, game):
    players = list(NAMES[:GAMES[game].min_players])
    match_id = start(client, game, players)
    page = page_of(record(client, match_id))
    still = next((line for line in (li.text for li in page.find_all("li")) if line.startswith("Still to fill in:")),
                 None)
    assert still is not None, page.text[:400]
    names = marked(page)
    assert names, f"{game}: {still} but no box marked"
    for name in names:
        for box in page.find_all(name=name):  # still blank: no number typed, no option chosen
            assert box.attrs.get("value", "") == "" or box.attrs.get("type") == "radio", (game, name)
            assert "checked" not in box.attrs and "selected" not in box.attrs, (game, name)
    # the form's own boxes that nothing says are missing are left alone: the dealer choice
    assert "dealer" not in names
