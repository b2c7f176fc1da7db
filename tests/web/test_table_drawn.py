"""Issue 20 through the Flask test client: the seat picture on the scorer's and the
watcher's page, the big screen (who may open it, its 304 poll), the result as text,
Undo under a save's notice only, and what a hand did on the printed sheet."""
from __future__ import annotations

import re

from scorekeeper import store
from scorekeeper.web.edges import access
from scorekeeper.web.edges.db import get_db

from .helpers import record, start, text

WHEEL = {"trump": "wyrms", "mode": "high", "bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2}
MISSED = {"trump": "knots", "mode": "low", "bid": 5, "tricks_0": 6, "tricks_1": 3, "tricks_2": 2}


def watcher_of(app, match_id: int):
    with app.app_context():
        token = store.get_tokens(get_db(), match_id)["watcher_token"]
    watcher = app.test_client()
    watcher.get(f"/w/{token}")
    return watcher


def label(html: str) -> str:
    found = re.search(r'<svg class="seats[^"]*"[^>]*aria-label="([^"]*)"', html)
    assert found, "no seat picture"
    return found.group(1).replace("&#39;", "'")


def test_scorer_and_watcher_see_the_next_hands_table(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    assert label(client.get(f"/matches/{match_id}").get_data(as_text=True)) == (
        "Round the table clockwise from the bottom: Ann, Bob, Cy. Ann: deals, may take the Wheel, bids, leads; "
        "Bob: setter 1, calls trump; Cy: setter 2, calls high or low.")
    record(client, match_id, **WHEEL)  # Bob deals hand 2: Cy is setter 1
    watcher = watcher_of(app, match_id)
    assert "Bob: deals" in label(watcher.get(f"/matches/{match_id}").get_data(as_text=True))
    assert "Cy: setter 1, calls trump" in label(watcher.get(f"/matches/{match_id}/board").get_data(as_text=True))


def test_the_big_screen_is_open_to_a_watcher_read_only_and_polls_with_304(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    record(client, match_id, **WHEEL)
    stranger = app.test_client()
    missing = stranger.get("/matches/999/screen")
    for url in (f"/matches/{match_id}/screen", f"/matches/{match_id}/screen/live"):
        assert (stranger.get(url).status_code, stranger.get(url).data) == (404, missing.data)
    watcher = watcher_of(app, match_id)
    page = watcher.get(f"/matches/{match_id}/screen")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "<form" not in html and "/edit" not in html
    assert f'hx-get="/matches/{match_id}/screen/live"' in html and "Hand 2: <strong title=\"Bob\">Bob</strong> deals" in html
    assert "Bob: deals" in label(html)
    assert re.search(r'class="name"[^>]*>Ann</span>\s*<span class="total">9</span>', html)
    live = watcher.get(f"/matches/{match_id}/screen/live")
    tag = live.headers["ETag"]
    assert "<html" not in live.get_data(as_text=True) and 'id="screen-live"' in live.get_data(as_text=True)
    assert watcher.get(f"/matches/{match_id}/screen/live", headers={"If-None-Match": tag}).status_code == 304
    record(client, match_id, **MISSED)
    changed = watcher.get(f"/matches/{match_id}/screen/live", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and "Bob&#39;s bid of 5 failed (took 3)" in changed.get_data(as_text=True)
    # the watcher's page and the scorer's link to it
    assert f'href="/matches/{match_id}/screen"' in watcher.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f'href="/matches/{match_id}/screen"' in client.get(f"/matches/{match_id}").get_data(as_text=True)


def test_undo_is_offered_under_a_saves_notice_only(client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"], date="2025-11-23")
    saved = client.get(record(client, match_id, **WHEEL).headers["Location"])
    html = saved.get_data(as_text=True)
    notice = html[html.index('id="match-notice"'):html.index('id="match-banner"')]
    assert "Hand 1 saved" in notice and "Undo hand 1</button>" in notice
    assert f'action="/matches/{match_id}/undo"' in notice
    again = client.get(f"/matches/{match_id}").get_data(as_text=True)  # the notice is gone, and its Undo
    assert "Undo hand 1</button>" not in again
    assert "Third Wheel, 23 Nov: Ann 9, Cy 2, Bob 0, after 1 hand, still playing" in text(again)


def notice_undo_fields(html: str) -> dict:
    """The hidden fields of the Undo form under a save's notice, as the browser sends them."""
    form = html[html.index('<form class="notice-undo"'):]
    form = form[:form.index("</form>")]
    return dict(re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)">', form))


def test_undo_under_a_saves_notice_undoes_once_however_often_it_is_sent(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    record(client, match_id, **WHEEL)
    saved = client.get(record(client, match_id, **MISSED).headers["Location"]).get_data(as_text=True)
    fields = notice_undo_fields(saved)
    assert set(fields) == {"csrf_token", "version", "request_key"} and fields["request_key"]
    for _ in range(2):  # a double tap
        assert client.post(f"/matches/{match_id}/undo", data=fields).status_code == 303
    with app.app_context():
        assert len(store.get_record(get_db(), match_id).match.hands) == 1
    assert "Hand 2 undone." in text(client.get(f"/matches/{match_id}"))


def test_a_request_key_is_made_only_for_a_form_drawn_on_the_page(app, client, monkeypatch):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    saved = record(client, match_id, **WHEEL).headers["Location"]
    made: list[str] = []
    mint = access.new_request_key

    def counted() -> str:
        made.append(mint())
        return made[-1]
    monkeypatch.setattr(access, "new_request_key", counted)  # the views'
    monkeypatch.setitem(app.jinja_env.globals, "new_request_key", counted)  # and the templates'

    def drawn(url: str) -> list[str]:
        made.clear()
        return re.findall(r'name="request_key" value="([^"]*)"', client.get(url).get_data(as_text=True))

    keys = drawn(saved)  # the hand form's, the Undo's under the notice, the link renewal's
    assert sorted(made) == sorted(keys) and len(keys) == 3
    keys = drawn(f"/matches/{match_id}")  # no notice, so no Undo under it: no key for one
    assert sorted(made) == sorted(keys) and len(keys) == 2


def test_the_printed_sheet_names_what_its_columns_do_not_show(client):
    wheel = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    record(client, wheel, **WHEEL)
    record(client, wheel, **MISSED)
    sheet = text(client.get(f"/matches/{wheel}/print"))
    assert "missed −2" in sheet and "failed" not in sheet  # its Result column says it already
    spades = start(client, "dummy_spades", ["Ann", "Bob", "Cy"], bag_limit="2")
    record(client, spades, bids_0=3, bids_1=4, bids_2=2, nils_0="0", tricks_0=0, tricks_1=6, tricks_2=4,
           dummy_tricks=3)
    sheet = text(client.get(f"/matches/{spades}/print"))
    assert ("Hand 1: Ann's nil (own hand) made +100; Bob's bags reached 5: bag penalty -200; "
            "Cy's bags reached 2: bag penalty -100.") in sheet


def test_the_players_keep_their_places_in_the_seat_picture_once_the_bids_are_typed(client):
    """Issue 26: nobody moves at the table when the declarer is known; the dummy, laid
    between the two defenders, says so, while the referee's play order goes round it."""
    match_id = start(client, "dummy_spades", ["Ann", "Bob", "Cy"])
    before = label(client.get(f"/matches/{match_id}").get_data(as_text=True))
    assert before.startswith("Round the table clockwise from the bottom: Ann, Bob, Cy, Dummy.")
    # Ann deals: Bob bids first and leads
    for bids, declarer, between, ring in (((4, 5, 6), "Cy", "Ann and Bob", "1,2,0,d"),
                                          ((7, 6, 5), "Ann", "Bob and Cy", "1,d,2,0"),
                                          ((4, 6, 5), "Bob", "Ann and Cy", "1,2,d,0")):
        typed = client.post(f"/matches/{match_id}/hands/preview",
                            data={f"bids_{seat}": bid for seat, bid in enumerate(bids)}).get_data(as_text=True)
        drawn = label(typed)
        assert drawn.startswith("Round the table clockwise from the bottom: Ann, Bob, Cy, Dummy."), drawn
        assert f"Dummy: face up, played by {declarer}, laid between {between}" in drawn
        # the referee's ring (from who leads: Bob, left of the dealer Ann) has the dummy opposite the declarer
        assert f"table={ring.replace(',', '%2C')}" in typed or f"table={ring}" in typed, ring
