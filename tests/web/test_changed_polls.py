"""Issue 28: a scorer's changed poll sends the parts that changed since the version its page
shows (htmx out-of-band swaps by id), not the whole page; the whole page when the page is
too far behind or a hand it shows changed. Real HTTP through the Flask test client."""
from __future__ import annotations

import dataclasses

from scorekeeper import store
from scorekeeper.samples import long_settings, random_match
from scorekeeper.web.model.view import HANDS_SHOWN

from .helpers import Page, as_scorer, page_of, record, start, totals
from .test_sharing import WHEEL, tokens

# what a scorer's page shows that one new hand changes, swapped in by id
PARTS = ("totals", "needs-panel", "match-banner", "again-slot", "match-guide", "match-record", "match-notice",
         "undo-link", "earlier-hands")


def shown_version(page: Page) -> int:
    """The version the page's poll names (app.js: the form's slot, #match-record)."""
    record_slot = page.find(id="match-record")
    assert record_slot is not None
    return int(record_slot.attrs["data-version"])


def poll(client, match_id: int, since: int):
    return client.get(f"/matches/{match_id}/live", headers={"If-None-Match": f'W/"v{since}"', "HX-Request": "true"})


def rows(page: Page) -> list[str]:
    return [e.attrs["id"] for e in page.find_all("tbody", cls="hand")]


def swapped(before: Page, parts: Page) -> dict[str, str]:
    """The text of each part of the page after the answer's swaps, as htmx makes them
    (hx-swap-oob: "true" and "innerHTML" replace the part of that id, "beforeend:#hand-table"
    adds rows, "delete:#hand-N" takes one away): part id -> text, and "rows" -> the row ids."""
    after = {part: e.text for part in PARTS if (e := before.find(id=part)) is not None}
    shown = rows(before)
    for element in parts.elements:
        how = element.attrs.get("hx-swap-oob")
        if how in ("true", "innerHTML") and element.attrs["id"] in PARTS:
            after[element.attrs["id"]] = element.text
        elif how == "beforeend:#hand-table":
            shown += [e.attrs["id"] for e in parts.find_all("tbody", cls="hand")]
        elif how and how.startswith("delete:#hand-"):
            shown.remove(how.removeprefix("delete:#"))
    after["rows"] = " ".join(shown)
    return after


def as_drawn(page: Page) -> dict[str, str]:
    drawn = {part: e.text for part in PARTS if (e := page.find(id=part)) is not None}
    drawn["rows"] = " ".join(rows(page))
    return drawn


def test_a_scorers_poll_after_a_hand_saved_on_another_phone_gets_only_the_parts(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    for _ in range(2):
        assert record(client, match_id, **WHEEL).status_code == 303
    bob = app.test_client()
    as_scorer(app, match_id, bob)
    held = page_of(bob.get(f"/matches/{match_id}"))
    since = shown_version(held)
    assert rows(held) == ["hand-1", "hand-2"]
    assert record(client, match_id, **WHEEL).status_code == 303  # Ann saves hand 3

    answer = poll(bob, match_id, since)
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and answer.headers["HX-Reswap"] == "none"
    assert 'id="match-live"' not in html  # not the page: its parts
    parts = page_of(html)
    assert rows(parts) == ["hand-3"]  # the new row only, added to the table
    assert answer.headers["ETag"] == f'W/"v{since + 1}"' and shown_version(parts) == since + 1

    # the page after the swaps reads as the whole page does: totals, rows, guide, next hand's form
    whole = bob.get(f"/matches/{match_id}/live?since={since}", headers={"HX-Request": "true"})
    assert 'id="match-live"' in whole.get_data(as_text=True) and "HX-Reswap" not in whole.headers
    assert swapped(held, parts) == as_drawn(page_of(whole))
    # the chart comes when it is scrolled into view, as the whole page draws it
    chart = bob.get(parts.find(id="chart").attrs["hx-get"], headers={"HX-Request": "true"})
    assert page_of(chart).find(id="chart").text == page_of(whole).find(id="chart").text
    assert totals(html) == totals(client.get(f"/matches/{match_id}").get_data(as_text=True))
    assert "Hand 3 was saved on another phone" in parts.find(id="match-notice").text
    assert "Hand 4" in parts.find(id="match-record").text
    # and the "Record hand N" jump at the top of the page, outside the live part, names it too
    assert held.find(id="to-record").text.strip() == "Record hand 3 ↓"
    assert parts.find(id="to-record").text.strip() == "Record hand 4 ↓"
    # the draft check's key: on the form's slot, which the answer replaces
    keyed = bob.get(f"/matches/{match_id}/live?key=k123", headers={"If-None-Match": f'W/"v{since}"', "HX-Request": "true"})
    assert page_of(keyed).find(id="match-record").attrs["data-checked-key"] == "k123"


def test_the_whole_page_when_too_far_behind_or_a_hand_it_shows_changed(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"], **long_settings("third_wheel", 100))
    first = shown_version(page_of(client.get(f"/matches/{match_id}")))
    assert record(client, match_id, **WHEEL).status_code == 303
    # no hand rows on the page yet: the whole page
    assert 'id="match-live"' in poll(client, match_id, first).get_data(as_text=True)
    assert record(client, match_id, **WHEEL).status_code == 303
    since = shown_version(page_of(client.get(f"/matches/{match_id}")))
    edited = client.post(f"/matches/{match_id}/hands/2/edit", data={
        **{k: str(v) for k, v in WHEEL.items()}, "bid": "6", "version": str(since)})
    assert edited.status_code in (302, 303)
    # hand 2, which the page shows, was corrected (one change, as a save would be): the whole page
    answer = poll(client, match_id, since)
    assert 'id="match-live"' in answer.get_data(as_text=True) and "HX-Reswap" not in answer.headers
    since = shown_version(page_of(client.get(f"/matches/{match_id}")))
    for _ in range(11):  # more than ten changes behind: the whole page
        assert record(client, match_id, **WHEEL).status_code == 303
    assert 'id="match-live"' in poll(client, match_id, since).get_data(as_text=True)
    assert "HX-Reswap" in poll(client, match_id, since + 10).headers


def long_match(app, client):
    """A match of HANDS_SHOWN + 2 hands that this client may score, and the hand another
    phone saves next."""
    played = HANDS_SHOWN + 3
    sample = random_match("third_wheel", played, seed=3, settings=long_settings("third_wheel", 1000))
    assert len(sample.hands) == played
    start(client, "third_wheel", ["Ann", "Bob", "Cy"])  # this phone's device
    db = store.connect(app.config["DATABASE"])
    try:
        match_id = store.create_match(db, dataclasses.replace(sample, hands=sample.hands[:-1]))
    finally:
        db.close()
    as_scorer(app, match_id, client)
    return match_id, sample.hands[-1]


def another_phone_saves(app, match_id: int, hand: dict) -> None:
    db = store.connect(app.config["DATABASE"])
    try:
        store.add_hand(db, match_id, hand)
    finally:
        db.close()


def test_a_long_matchs_page_moves_its_last_hands_on(app, client):
    """The page lists the last HANDS_SHOWN hands: the answer adds the new one, takes the
    first away and says which hands the earlier-hands pages hold."""
    match_id, hand = long_match(app, client)
    held = page_of(client.get(f"/matches/{match_id}"))
    since = shown_version(held)
    assert rows(held)[0] == "hand-3" and "(3 to 52)" in held.find(id="earlier-hands").text
    another_phone_saves(app, match_id, hand)
    answer = poll(client, match_id, since)
    assert answer.headers["HX-Reswap"] == "none"
    parts = page_of(answer)
    after = swapped(held, parts)
    assert after["rows"].split()[0] == "hand-4" and after["rows"].split()[-1] == "hand-53"
    assert "(4 to 53)" in parts.find(id="earlier-hands").text
    whole = page_of(client.get(f"/matches/{match_id}/live?since={since}", headers={"HX-Request": "true"}))
    assert after == as_drawn(whole) and parts.find(id="earlier-hands").text == whole.find(id="earlier-hands").text


def test_a_watchers_board_of_a_long_match_moves_its_last_hands_on_too(app, client):
    match_id, hand = long_match(app, client)
    watcher = app.test_client()
    watcher.get(f"/w/{tokens(app, match_id)['watcher_token']}")
    board = f"/matches/{match_id}/board"
    held = page_of(watcher.get(board))
    since = shown_version(held)
    another_phone_saves(app, match_id, hand)
    answer = watcher.get(board, headers={"If-None-Match": f'W/"v{since}"', "HX-Request": "true"})
    assert answer.headers["HX-Reswap"] == "none"
    parts = page_of(answer)
    whole = page_of(watcher.get(board))
    assert swapped(held, parts) == as_drawn(whole) and rows(whole)[0] == "hand-4"
    assert parts.find(id="earlier-hands").text == whole.find(id="earlier-hands").text
