"""Two scorers at once: a save based on an old version is refused with what
changed and the entry kept; the same form sent twice saves once."""
from __future__ import annotations

import threading

from scorekeeper import store
from scorekeeper.web.edges.db import get_db

from .helpers import as_scorer, page_of, start, text, totals

WHEEL = {"trump": "wyrms", "mode": "high", "bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2}
OTHER = {"trump": "moons", "mode": "low", "bid": 3, "tricks_0": 3, "tricks_1": 2, "tricks_2": 6}


def form_fields(html: str) -> dict:
    """The hidden fields of the page's form, as the browser would send them."""
    page = page_of(html)
    return {name: value for name in ("version", "request_key") if (value := page.value(name)) is not None}


def opened(client, url: str) -> dict:
    return form_fields(client.get(url).get_data(as_text=True))


def two_scorers(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"], target=0, deals_each=10)
    second = app.test_client()
    as_scorer(app, match_id, second)
    return match_id, client, second


def state(app, match_id):
    with app.app_context():
        db = get_db()
        return store.get_record(db, match_id).match.hands, store.get_version(db, match_id)


def test_an_old_version_is_refused_with_what_changed_and_the_entry_kept(app, client):
    match_id, ann, bob = two_scorers(app, client)
    ann_form, bob_form = opened(ann, f"/matches/{match_id}"), opened(bob, f"/matches/{match_id}")
    assert ann.post(f"/matches/{match_id}/hands", data=dict(WHEEL, **ann_form)).status_code == 303
    refused = bob.post(f"/matches/{match_id}/hands", data=dict(OTHER, **bob_form))
    assert refused.status_code == 409
    words = text(refused)
    assert "Hand 1 was saved on another phone while you were typing: Ann +9, Bob 0, Cy +2." in words
    assert "Your entry is still below as hand 2, nothing was overwritten." in words
    assert "save it again only if this is a different hand" in words
    assert "It was the same hand: discard mine" in words
    html = refused.get_data(as_text=True)
    assert "Hand 2" in html  # the form is now for the next hand ...
    assert page_of(html).value("bid") == "3"  # ... with Bob's entry in it
    assert page_of(html).value("trump") == "moons"
    hands, version = state(app, match_id)
    assert len(hands) == 1 and hands[0]["trump"] == "wyrms"
    resent = form_fields(html)
    assert resent["version"] == str(version)
    assert bob.post(f"/matches/{match_id}/hands", data=dict(OTHER, **resent)).status_code == 303
    hands, _ = state(app, match_id)
    assert [h["trump"] for h in hands] == ["wyrms", "moons"]


def test_with_htmx_the_refusal_is_swapped_in(app, client):
    match_id, ann, bob = two_scorers(app, client)
    bob_form = opened(bob, f"/matches/{match_id}")
    ann.post(f"/matches/{match_id}/hands", data=dict(WHEEL, **opened(ann, f"/matches/{match_id}")))
    refused = bob.post(f"/matches/{match_id}/hands", data=dict(OTHER, **bob_form), headers={"HX-Request": "true"})
    assert refused.status_code == 200  # htmx swaps 2xx only
    html = refused.get_data(as_text=True)
    assert "<html" not in html and "while you were typing" in html
    assert totals(html) == {"Ann": 9, "Bob": 0, "Cy": 2}


def test_the_same_form_sent_twice_saves_one_hand(app, client):
    match_id, ann, _ = two_scorers(app, client)
    fields = opened(ann, f"/matches/{match_id}")
    assert len(fields["request_key"]) == 32
    first = ann.post(f"/matches/{match_id}/hands", data=dict(WHEEL, **fields))
    again = ann.post(f"/matches/{match_id}/hands", data=dict(WHEEL, **fields))
    assert first.status_code == again.status_code == 303
    assert "Hand 1 saved: " in text(ann.get(f"/matches/{match_id}"))
    hands, _ = state(app, match_id)
    assert len(hands) == 1
    htmx = ann.post(f"/matches/{match_id}/hands", data=dict(WHEEL, **fields), headers={"HX-Request": "true"})
    assert htmx.status_code == 200 and "Hand 1 saved: " in text(htmx)
    assert len(state(app, match_id)[0]) == 1


def test_a_double_tap_racing_in_two_threads_saves_one_hand(app, client):
    match_id, ann, _ = two_scorers(app, client)
    cookie = ann.get_cookie("scorekeeper_device").value
    for _ in range(5):
        fields = opened(ann, f"/matches/{match_id}")
        results = []
        barrier = threading.Barrier(3, timeout=30)

        def tap(fields=fields, results=results, barrier=barrier):
            tab = app.test_client()
            tab.set_cookie("scorekeeper_device", cookie)
            barrier.wait()
            results.append(tab.post(f"/matches/{match_id}/hands", data=dict(WHEEL, **fields)).status_code)

        threads = [threading.Thread(target=tap) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert results == [303, 303, 303]
    hands, _ = state(app, match_id)
    assert len(hands) == 5


def test_two_phones_racing_with_different_hands_never_lose_one_silently(app, client):
    match_id, ann, bob = two_scorers(app, client)
    fields = opened(ann, f"/matches/{match_id}")
    results = {}
    barrier = threading.Barrier(2, timeout=30)

    def save(name, tab, hand):
        barrier.wait()
        results[name] = tab.post(f"/matches/{match_id}/hands", data=dict(hand, version=fields["version"],
                                                                          request_key=name * 16)).status_code

    threads = [threading.Thread(target=save, args=("a", ann, WHEEL)), threading.Thread(target=save, args=("b", bob, OTHER))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results.values()) == [303, 409]
    hands, _ = state(app, match_id)
    assert len(hands) == 1


def test_a_correction_based_on_an_old_version_is_refused(app, client):
    match_id, ann, bob = two_scorers(app, client)
    ann.post(f"/matches/{match_id}/hands", data=dict(WHEEL, **opened(ann, f"/matches/{match_id}")))
    ann_edit = opened(ann, f"/matches/{match_id}/hands/1/edit")
    bob_edit = opened(bob, f"/matches/{match_id}/hands/1/edit")
    assert ann.post(f"/matches/{match_id}/hands/1/edit", data=dict(OTHER, **ann_edit)).status_code == 303
    refused = bob.post(f"/matches/{match_id}/hands/1/edit", data=dict(WHEEL, bid="6", tricks_0="6", tricks_1="3",
                                                                   **bob_edit))
    assert refused.status_code == 409
    words = text(refused)
    assert "Hand 1 was corrected on another phone; totals now" in words
    assert "Your correction is still below" in words
    assert page_of(refused).value("bid") == "6"
    hands, _ = state(app, match_id)
    assert hands[0]["trump"] == "moons"
    # the same correction sent twice is saved once
    fields = opened(ann, f"/matches/{match_id}/hands/1/edit")
    for _ in range(2):
        assert ann.post(f"/matches/{match_id}/hands/1/edit", data=dict(WHEEL, **fields)).status_code == 303
    with app.app_context():
        edits = [e for e in store.audit_log(get_db(), match_id) if e["action"] == "edit"]
    assert len(edits) == 2


def test_undo_twice_undoes_once_and_an_old_undo_is_refused(app, client):
    match_id, ann, bob = two_scorers(app, client)
    for hand in (WHEEL, OTHER, WHEEL):
        ann.post(f"/matches/{match_id}/hands", data=dict(hand, **opened(ann, f"/matches/{match_id}")))
    fields = opened(ann, f"/matches/{match_id}/undo")
    for _ in range(2):
        assert ann.post(f"/matches/{match_id}/undo", data=fields).status_code == 303
    assert len(state(app, match_id)[0]) == 2
    assert "Hand 3 undone." in text(ann.get(f"/matches/{match_id}"))
    bob_undo = opened(bob, f"/matches/{match_id}/undo")
    ann.post(f"/matches/{match_id}/hands", data=dict(WHEEL, **opened(ann, f"/matches/{match_id}")))
    bob.post(f"/matches/{match_id}/undo", data=bob_undo)
    words = text(bob.get(f"/matches/{match_id}"))
    assert "Nothing was undone: Hand 3 was saved on another phone while you were typing" in words
    assert len(state(app, match_id)[0]) == 3


def test_date_and_note_based_on_an_old_version_are_refused(app, client):
    match_id, ann, bob = two_scorers(app, client)
    bob_form = opened(bob, f"/matches/{match_id}/details")
    ann.post(f"/matches/{match_id}/hands", data=dict(WHEEL, **opened(ann, f"/matches/{match_id}")))
    refused = bob.post(f"/matches/{match_id}/details", data=dict(bob_form, date="2026-01-02", note="Bob's note"))
    assert refused.status_code == 422
    assert "Hand 1 was saved on another phone" in text(refused) and "Bob's note" in text(refused)
    with app.app_context():
        assert store.get_record(get_db(), match_id).note is None
