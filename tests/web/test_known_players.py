"""Players you know: the start form offers the names this device used before (as you
type, through a datalist) and its last tables as one-tap chips."""
from __future__ import annotations

from .helpers import page_of, start


def _offered(client) -> list[str]:
    page = page_of(client.get("/matches/new"))
    datalist = page.find("datalist", id="known-players")
    assert datalist is not None
    names = []
    for element in page.elements[page.elements.index(datalist) + 1:]:
        if element.tag != "option":
            break
        names.append(element.attrs["value"])
    return names


def test_a_new_phone_has_no_tables_and_an_empty_list(client):
    page = page_of(client.get("/matches/new"))
    assert page.find("section", cls="known-tables") is None
    assert page.find("datalist", id="known-players") is not None
    assert all(e.attrs.get("list") == "known-players" for e in page.find_all("input") if e.attrs.get("name", "")
               .startswith("player_"))


def test_names_used_before_are_offered_once_as_the_rules_compare_them(client):
    start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    start(client, "third_wheel", ["ann", "Bob", "Dee"])
    start(client, "third_hand", ["Bob", "Ｅｖｅ"])
    names = _offered(client)
    # Bob (3 matches) first, then Ann/ann (2: the last spelling typed), then the others by name
    assert names == ["Bob", "ann", "Cy", "Dee", "Ｅｖｅ"]


def test_the_last_tables_are_chips_that_fill_the_game_and_seats(client):
    start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    start(client, "third_hand", ["Ann", "Bob"])
    start(client, "third_wheel", ["ANN", "bob", "cy"])  # the same table as the first: one chip
    page = page_of(client.get("/matches/new"))
    chips = page.find_all("a", cls="table-chip")
    assert [c.text for c in chips] == ["ANN, bob, cy Third Wheel", "Ann, Bob Third Hand"]
    filled = page_of(client.get(chips[1].attrs["href"]))
    assert filled.value("player_0") == "Ann" and filled.value("player_1") == "Bob"
    assert filled.find("input", name="game", value=chips[1].attrs["href"].split("game=")[1].split("&")[0]) \
        .attrs.get("checked") is not None


def test_another_phone_does_not_see_this_phones_names(app, client):
    start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    other = app.test_client()
    page = page_of(other.get("/matches/new"))
    assert page.find("section", cls="known-tables") is None
    assert "Ann" not in other.get("/matches/new").get_data(as_text=True)


def test_a_long_or_empty_name_in_the_link_is_trimmed_not_an_error(client):
    response = client.get("/matches/new?game=third_hand&player_0=" + "x" * 500 + "&player_1=%20")
    assert response.status_code == 200
    page = page_of(response)
    assert page.value("player_0") == "x" * 40 and page.value("player_1") == ""
