"""Issue "At the table" item 8: a player's name, a setting and the first dealer can be
changed once a match is under way, and a match can be deleted and restored. Each is
scored again by the engine, kept in the match log, and confirmed where totals change."""
from __future__ import annotations

from scorekeeper import store
from scorekeeper.web.edges.db import get_db

from .helpers import page_of, record, start, text, totals
from .test_referee import make_match

WHEEL = {"trump": "wyrms", "mode": "high", "bid": 4}


def setup_form(client, match_id) -> dict:
    """The setup form as the page fills it in (every field it would send)."""
    page = page_of(client.get(f"/matches/{match_id}/setup"))
    data = {}
    for e in page.find_all("input"):
        name = e.attrs.get("name")
        if not name or (e.attrs.get("type") == "checkbox" and "checked" not in e.attrs):
            continue
        data[name] = e.attrs.get("value", "y" if e.attrs.get("type") == "checkbox" else "")
    for e in page.find_all("select"):
        chosen = [o for o in page.elements[page.elements.index(e):] if o.tag == "option" and "selected" in o.attrs]
        data[e.attrs["name"]] = chosen[0].attrs["value"] if chosen else ""
    return data


def log_words(client, match_id) -> str:
    return text(client.get(f"/matches/{match_id}/log"))


def test_a_typo_in_a_name_is_fixed_without_asking_and_logged(client):
    match_id = start(client, "third_wheel", ["Ann", "Tom", "Cy"])
    assert record(client, match_id, **WHEEL, tricks_0=7, tricks_1=1, tricks_2=3).status_code == 303
    data = setup_form(client, match_id)
    assert data["player_1"] == "Tom" and data["setting_target"] == "33"
    response = client.post(f"/matches/{match_id}/setup", data=dict(data, player_1="Thomas"))
    assert response.status_code == 303  # totals unchanged: nothing to confirm
    words = text(client.get(response.headers["Location"]))
    assert "Saved: Tom is now Thomas. No totals changed." in words
    assert totals(client.get(f"/matches/{match_id}").get_data(as_text=True)) == {"Ann": 4, "Thomas": 6, "Cy": 0}
    assert "Changed players or settings" in log_words(client, match_id)
    assert "Tom is now Thomas" in log_words(client, match_id)


def test_a_setting_that_changes_totals_is_confirmed_first(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    # rules.md: bid 4, D7/S1 1/S2 3 -> D 4 (the bid), S1 6, S2 0; "penalty": D 4 - 3 = 1
    assert record(client, match_id, **WHEEL, tricks_0=7, tricks_1=1, tricks_2=3).status_code == 303
    data = dict(setup_form(client, match_id), setting_overtrick_dealer="penalty")
    asked = client.post(f"/matches/{match_id}/setup", data=data)
    assert asked.status_code == 200
    page = page_of(asked)
    assert "This changes the scores" in page.text
    assert "You changed: Dealer over the bid: bid → penalty." in page.text
    assert "Ann: 4 → 1" in page.text
    assert totals(client.get(f"/matches/{match_id}").get_data(as_text=True))["Ann"] == 4  # not yet
    confirmed = client.post(f"/matches/{match_id}/setup", data=dict(data, confirm=page.value("confirm")))
    assert confirmed.status_code == 303
    words = text(client.get(confirmed.headers["Location"]))
    assert "Scored again from the first hand: Ann: 4 → 1." in words
    assert totals(client.get(f"/matches/{match_id}").get_data(as_text=True)) == {"Ann": 1, "Bob": 6, "Cy": 0}
    db = store.connect(app.config["DATABASE"])
    try:
        entry = store.audit_log(db, match_id)[-1]
    finally:
        db.close()
    assert entry["action"] == "setup" and entry["totals_before"] == [4, 6, 0] and entry["totals_after"] == [1, 6, 0]
    assert entry["before"]["settings"]["overtrick_dealer"] == "bid"
    assert entry["after"]["settings"]["overtrick_dealer"] == "penalty"


def test_the_first_dealer_can_change(client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    assert record(client, match_id, **WHEEL, tricks_0=7, tricks_1=1, tricks_2=3).status_code == 303
    data = dict(setup_form(client, match_id), first_dealer="1")  # Bob dealt, not Ann
    page = page_of(client.post(f"/matches/{match_id}/setup", data=data))
    assert page.value("confirm")
    assert "first dealer: Ann → Bob" in page.text
    # Bob dealt with 1 trick for a bid of 4: missed, each setter scores 4, the one with fewer tricks 3 more
    assert "Ann: 4 → 4" not in page.text
    # a confirmation is for that change only: changed again, it is asked again
    again = page_of(client.post(f"/matches/{match_id}/setup",
                                data=dict(data, confirm=page.value("confirm"), first_dealer="2")))
    assert "This changes the scores" in again.text and "first dealer: Ann → Cy" in again.text
    confirmed = client.post(f"/matches/{match_id}/setup", data=dict(data, confirm=page.value("confirm")))
    assert confirmed.status_code == 303
    assert "Hand 1 · Bob dealt" in text(client.get(f"/matches/{match_id}"))


def test_a_setting_the_recorded_hands_do_not_fit_is_refused_and_nothing_changes(client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"])  # target 12
    for scoring in ([5, 0, 0], [0, 5, 0]):
        assert record(client, match_id, **{f"scoring_tricks_{s}": n for s, n in enumerate(scoring)}).status_code == 303
    refused = client.post(f"/matches/{match_id}/setup", data=dict(setup_form(client, match_id), setting_target="5"))
    assert refused.status_code == 422
    words = text(refused)
    assert "The hands already recorded do not fit this setup, so nothing was changed:" in words
    assert "hand 2: recorded after the game ended (it ended after hand 1)" in words
    bonus = client.post(f"/matches/{match_id}/setup",
                        data=dict(setup_form(client, match_id), setting_most_other_tricks_bonus="y"))
    assert bonus.status_code == 422
    assert "hand 1: Other tricks: still to fill in (the bonus for most other tricks counts them)" in text(bonus)
    assert "Playing to 12" in text(client.get(f"/matches/{match_id}"))


def test_a_duplicate_name_is_refused_beside_its_seat(client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    refused = client.post(f"/matches/{match_id}/setup", data=dict(setup_form(client, match_id), player_2="ANN"))
    assert refused.status_code == 422
    assert "\"ANN\" is already at the table as \"Ann\" (names must differ, ignoring case and invisible characters)" in text(refused)


# --- deleting, restoring ---------------------------------------------------------------

def test_a_deleted_match_leaves_the_history_and_can_be_restored(client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    assert record(client, match_id, **WHEEL, tricks_0=7, tricks_1=1, tricks_2=3).status_code == 303
    page = page_of(client.get(f"/matches/{match_id}/delete"))
    assert "Delete this match?" in page.text and "totals Ann 4, Bob 6, Cy 0" in page.text
    deleted = client.post(f"/matches/{match_id}/delete", data={"version": page.value("version"),
                                                                "request_key": page.value("request_key")})
    assert deleted.status_code == 303 and deleted.headers["Location"].endswith("/#deleted")
    assert client.get(f"/matches/{match_id}").status_code == 404
    history = page_of(client.get("/"))
    assert "Deleted Third Wheel with Ann, Bob, Cy. It can be restored below for 30 days." in history.text
    section = history.find(id="deleted")
    assert section is not None and "Ann, Bob, Cy" in section.text
    restore = history.find("form", action=f"/deleted/{match_id}/restore")
    assert restore is not None
    restored = client.post(f"/deleted/{match_id}/restore", data={})
    assert restored.status_code == 303
    words = text(client.get(restored.headers["Location"]))
    assert "Match restored, exactly as it was." in words
    assert totals(client.get(f"/matches/{match_id}").get_data(as_text=True)) == {"Ann": 4, "Bob": 6, "Cy": 0}
    log = log_words(client, match_id)
    assert "Deleted the match" in log and "Restored the match" in log
    assert page_of(client.get("/")).find(id="deleted") is None


def _delete(client, match_id) -> None:
    page = page_of(client.get(f"/matches/{match_id}/delete"))
    assert client.post(f"/matches/{match_id}/delete", data={"version": page.value("version"),
                                                            "request_key": page.value("request_key")}).status_code == 303


def test_no_cookie_carries_a_name(app, client):
    """The notice after a delete names the match's players: it travelled in the session
    cookie (signed, not hidden: base64 that anyone holding the cookie reads), after the match
    was gone. Notices stay on the server; the cookie holds a random key to them."""
    import base64
    import zlib

    match_id = start(client, "third_wheel", ["Zyxwabc", "Qorvenik", "Cy"])
    record(client, match_id, **WHEEL, tricks_0=7, tricks_1=1, tricks_2=3)  # a saved notice too
    page = page_of(client.get(f"/matches/{match_id}/delete"))
    deleted = client.post(f"/matches/{match_id}/delete", data={"version": page.value("version"),
                                                                "request_key": page.value("request_key")})
    assert deleted.status_code == 303
    for cookie in deleted.headers.getlist("Set-Cookie"):
        value = cookie.split(";", 1)[0].split("=", 1)[1]
        payload = value.lstrip(".").split(".")[0]
        raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
        readable = zlib.decompress(raw) if value.startswith(".") else raw  # Flask compresses long sessions
        assert b"Zyxwabc" not in readable and b"Qorvenik" not in readable, readable
    # the notice still says what was deleted, on the page it leads to, once
    assert "Deleted Third Wheel with Zyxwabc, Qorvenik, Cy." in text(client.get("/"))
    assert "Deleted Third Wheel" not in text(client.get("/"))


def test_a_notice_that_cannot_be_kept_is_dropped_not_a_500(app, client):
    """The database refuses to keep the notice (here a trigger fails it as a full disk
    would): the delete still answers, the cookie still carries no name, the notice is lost."""
    match_id = start(client, "third_wheel", ["Zyxwabc", "Bob", "Cy"])
    with app.app_context():
        db = get_db()
        db.execute("create trigger full before insert on notices begin select raise(fail, 'disk full'); end")
        db.conn.commit()
    page = page_of(client.get(f"/matches/{match_id}/delete"))
    deleted = client.post(f"/matches/{match_id}/delete", data={"version": page.value("version"),
                                                                "request_key": page.value("request_key")})
    assert deleted.status_code == 303
    assert "Zyxwabc" not in " ".join(deleted.headers.getlist("Set-Cookie"))
    home = client.get("/")
    assert home.status_code == 200 and "Deleted Third Wheel" not in text(home)


def test_a_deletion_older_than_thirty_days_is_gone_when_read(app, client):
    """Nobody deleted another match since: the old deletion is neither listed nor
    restorable, and the match is removed for good (it was listed and restorable until
    some match was next deleted)."""
    old, recent = (start(client, "third_wheel", names) for names in (["Ann", "Bob", "Cy"], ["Dee", "Eve", "Flo"]))
    _delete(client, old)
    _delete(client, recent)
    with app.app_context():
        db = get_db()
        db.execute("update matches set deleted_at = '2026-01-01T00:00:00+00:00' where id = ?", [old])
        db.conn.commit()
    section = page_of(client.get("/")).find(id="deleted")
    assert section is not None and "Dee, Eve, Flo" in section.text and "Ann, Bob, Cy" not in section.text
    with app.app_context():
        assert get_db().execute("select count(*) from matches where id = ?", [old]).fetchone()[0] == 0
    assert client.post(f"/deleted/{old}/restore", data={}).status_code == 303
    assert client.get(f"/matches/{old}").status_code == 404


def test_an_old_deletion_cannot_be_restored_even_unlisted(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    _delete(client, match_id)
    with app.app_context():
        db = get_db()
        db.execute("update matches set deleted_at = '2026-01-01T00:00:00+00:00' where id = ?", [match_id])
        db.conn.commit()
    assert client.post(f"/deleted/{match_id}/restore", data={}).status_code == 303  # to the history: nothing there
    assert client.get(f"/matches/{match_id}").status_code == 404
    with app.app_context():
        assert get_db().execute("select count(*) from matches where id = ?", [match_id]).fetchone()[0] == 0


def test_only_a_scorer_deletes_or_restores(app, client):
    match_id = make_match(app, client, "third_wheel", ["Ann", "Bob", "Cy"])
    other = app.test_client()
    assert other.post(f"/matches/{match_id}/delete", data={}).status_code == 404  # cannot even see it
    assert other.post(f"/deleted/{match_id}/restore", data={}).status_code == 303  # nothing to restore there
    assert client.get(f"/matches/{match_id}").status_code == 200


def test_the_log_names_the_dealer_of_a_hand_marked_out_of_turn(app, client):
    hand = {"trump": "wyrms", "mode": "high", "wheel": False, "bid": 4, "tricks": [7, 1, 3]}
    match_id = make_match(app, client, "third_wheel", ["Ann", "Bob", "Cy"], hands=[hand])
    page = page_of(client.get(f"/matches/{match_id}/hands/1/edit"))
    data = {"trump": "wyrms", "mode": "high", "bid": "4", "tricks_0": "1", "tricks_1": "7", "tricks_2": "3",
            "dealer": "1", "version": page.value("version")}
    assert client.post(f"/matches/{match_id}/hands/1/edit", data=data).status_code == 303
    words = log_words(client, match_id)
    assert "dealer: in turn → Bob (out of turn)" in words
