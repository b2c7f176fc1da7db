"""A setting that applies only with another's value (``Setting.applies_when``): the setup
form marks it so the page shows it only then, and a match's settings list leaves it out
where it means nothing. Choices read as the game labels them."""
from __future__ import annotations

from web.helpers import page_of, start


def tied_settings(client, game: str) -> dict[str, tuple[str, str]]:
    """Each setting the start form shows only while another has a value: its label ->
    (that other field, the value)."""
    page = page_of(client.get(f"/matches/new?game={game}"))
    return {e.text.split(" ")[0]: (e.attrs["data-applies-field"], e.attrs["data-applies-value"])
            for e in page.elements if e.tag == "div" and "data-applies-field" in e.attrs}


def test_the_start_form_ties_the_flip_count_to_flipping(client):
    assert tied_settings(client, "dummy_spades") == {"Cards": ("setting_peek", "flip")}


def test_a_ticked_box_is_what_a_tie_rule_waits_for(client):
    assert tied_settings(client, "third_rail") == {"Tied": ("setting_most_other_tricks_bonus", "y")}
    assert tied_settings(client, "third_hand") == {}


def test_a_match_lists_a_setting_only_where_it_applies(client):
    plain = start(client, "dummy_spades", ["Ann", "Bob", "Cy"])
    flipped = start(client, "dummy_spades", ["Ann", "Bob", "Cy"], peek="flip", flip_count=3)
    assert "Cards flipped" not in page_of(client.get(f"/matches/{plain}/rules")).text
    assert "Cards flipped" in page_of(client.get(f"/matches/{flipped}/rules")).text


def test_a_choice_reads_as_the_game_labels_it(client):
    page = page_of(client.get("/matches/new?game=third_wheel"))
    select = page.find_all("select", name="setting_overtrick_setter")[0]
    options = page.elements[page.elements.index(select) + 1:][:2]
    assert [(o.tag, o.text) for o in options] == [("option", "other setter"), ("option", "own tricks")]
