"""Issue "At the table" item 11: the smaller findings."""
from __future__ import annotations

import io
import json
import re

from .helpers import page_of, record, start, text
from .test_referee import make_match


def test_third_wheel_summary_says_exact_missed_or_over(client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    hand = {"trump": "wyrms", "mode": "high", "bid": 5}
    assert record(client, match_id, **hand, tricks_0=5, tricks_1=4, tricks_2=2).status_code == 303  # Ann deals
    assert record(client, match_id, **hand, tricks_0=2, tricks_1=3, tricks_2=6).status_code == 303  # Bob deals
    assert record(client, match_id, **hand, tricks_0=1, tricks_1=3, tricks_2=7).status_code == 303  # Cy deals
    page = page_of(client.get(f"/matches/{match_id}"))
    rows = [page.find(id=f"hand-{n}").text for n in (1, 2, 3)]
    assert "bid 5 · wyrms high · exact" in rows[0]
    assert "bid 5 · wyrms high · missed by 2" in rows[1]
    assert "bid 5 · wyrms high · over by 2" in rows[2]


def test_the_wheel_hint_follows_the_box_it_depends_on(client):
    html = client.get(f"/matches/{start(client, 'third_wheel', ['Ann', 'Bob', 'Cy'])}").get_data(as_text=True)
    assert html.index("Ann took the Wheel") < html.index("If so, the bid must be 0 or 6 to 11.")


def test_the_first_scoring_trick_is_a_choice_of_two(client):
    page = page_of(client.get("/matches/new?game=third_rail"))
    select = page.find("select", name="setting_scoring_from")
    assert select is not None
    options = [e.attrs["value"] for e in page.elements[page.elements.index(select):] if e.tag == "option"][:2]
    assert options == ["2", "3"]
    assert page.find("input", name="setting_scoring_from") is None


def test_a_setting_below_zero_gets_a_keyboard_with_a_minus_key(client):
    page = page_of(client.get("/matches/new?game=dummy_spades"))
    lose_at = page.find("input", name="setting_lose_at")
    assert "inputmode" not in lose_at.attrs  # an iPhone's numeric keypad has no minus key
    assert page.find("input", name="setting_target").attrs["inputmode"] == "numeric"


def test_a_csv_export_imported_by_mistake_is_named_as_such(app, client):
    match_id = make_match(app, client, "third_wheel", ["Ann", "Bob", "Cy"], hands=[
        {"trump": "wyrms", "mode": "high", "wheel": False, "bid": 5, "tricks": [5, 4, 2]}])
    csv = client.get(f"/matches/{match_id}/export.csv").get_data()
    for name in ("match.csv", "match.json"):  # however the file is named
        response = client.post("/import", data={"file": (io.BytesIO(csv), name)}, content_type="multipart/form-data")
        assert response.status_code == 400
        words = text(response)
        assert "This is a CSV file (the spreadsheet export), which cannot be read back into a match." in words
        assert "not valid JSON" not in words
    good = client.get(f"/matches/{match_id}/export.json").get_data()
    assert json.loads(good)["game"] == "third_wheel"
    other_phone = app.test_client()  # (this phone has the match already: it would be reported as a duplicate)
    imported = other_phone.post("/import", data={"file": (io.BytesIO(good), "m.json")},
                                content_type="multipart/form-data")
    assert imported.status_code == 303


def test_the_tally_adds_the_bonus_once_every_trick_is_in(app, client):
    winners = [0, 1, 2] * 5 + [0, 0]  # Ann takes 7 other tricks, Bob 5, Cy 0; Cy every scoring trick
    match_id = make_match(app, client, "third_rail", ["Ann", "Bob", "Cy"], settings={"most_other_tricks_bonus": True})
    page = page_of(client.get(f"/matches/{match_id}/tally?w=" + ",".join(map(str, winners))))
    cells = [e.text for e in page.find_all("td", cls="tally-pts")]
    assert cells == ["2 (0 + 2 bonus)", "0", "5"]
    assert "If saved: Ann +2, Bob 0, Cy +5" in page.text


def test_the_tally_offers_each_trump_in_its_cards_ink(app, client):
    match_id = make_match(app, client, "third_rail", ["Ann", "Bob", "Cy"], settings={"trump": True})
    html = client.get(f"/matches/{match_id}/tally").get_data(as_text=True)
    chips = re.findall(r'name="trump" value="(\w+)"[^>]*><span><span class="suit-(\w+)">(.)</span>', html)
    assert chips == [("hearts", "red", "♥"), ("diamonds", "red", "♦"), ("clubs", "black", "♣"),
                     ("spades", "black", "♠")]


def test_installable_a_manifest_and_icons(client):
    """"Add to Home Screen" opens the app full screen, with its icon."""
    import struct

    page = page_of(client.get("/"))
    manifest_url = page.find("link", rel="manifest").attrs["href"]
    manifest = client.get(manifest_url)
    assert manifest.status_code == 200 and manifest.mimetype in ("application/json", "application/manifest+json")
    data = json.loads(manifest.get_data())
    assert data["name"] == "Scorekeeper" and data["start_url"] == "/" and data["display"] == "standalone"
    sizes = set()
    for icon in data["icons"]:
        response = client.get("/static/" + icon["src"])
        assert response.status_code == 200, icon
        if icon["type"] == "image/png":
            body = response.get_data()
            assert body[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", body[16:24])
            assert f"{width}x{height}" == icon["sizes"]
            sizes.add((width, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes
    touch = client.get(page.find("link", rel="apple-touch-icon").attrs["href"])
    assert touch.status_code == 200 and touch.get_data()[:4] == b"\x89PNG"
    assert page.find("meta", name="theme-color") is not None


def test_the_hand_form_names_who_calls_what(client):
    # Ann deals hand 1: Bob (her left) calls trump, Cy high or low, Ann bids
    words = text(client.get(f"/matches/{start(client, 'third_wheel', ['Ann', 'Bob', 'Cy'])}"))
    assert "Trump (called by Bob)" in words and "High or low (called by Cy)" in words
    assert "Ann's bid (0 to 11)" in words and "Ann took the Wheel" in words
    spades = text(client.get(f"/matches/{start(client, 'dummy_spades', ['Ann', 'Bob', 'Cy'])}"))
    assert "Bids (Bob first)" in spades


def test_the_preview_says_who_declares(client):
    match_id = start(client, "dummy_spades", ["Ann", "Bob", "Cy"])
    preview = text(client.post(f"/matches/{match_id}/hands/preview",
                               data={"bids_0": "7", "bids_1": "5", "bids_2": "6", "tricks_0": "4", "tricks_1": "5",
                                     "tricks_2": "0", "dummy_tricks": "4"}))
    assert "Ann declares" in preview and "If saved: Ann +71" in preview


def test_a_nil_on_the_hand_row_says_whose_hand_it_was_on(app, client):
    hand = {"bids": [5, 3, 2], "nils": [[], [1], ["dummy"]], "tricks": [4, 3, 3], "dummy_tricks": 3}
    match_id = make_match(app, client, "dummy_spades", ["Ann", "Bob", "Fay"], hands=[hand])
    row = text(client.get(f"/matches/{match_id}"))
    assert "Bob bid nil on their own hand" in row and "Fay bid nil on the dummy" in row
