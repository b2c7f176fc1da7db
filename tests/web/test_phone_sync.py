"""The phone's own app and the server, with what the service worker does done here by
hand (tests/browser/test_offline_sync.py lets Chromium do it): the phone's Python queues
(phone.outbox), the server answers through the Flask test client on a real SQLite file,
the answers go back (phone.received). A match started on the phone reaches the server
once however often it is sent, its later hands follow in order, and when another phone
recorded on the server meanwhile the phone shows both versions and can keep its own as a
copy: nothing is lost."""
from __future__ import annotations

import json
import re

from scorekeeper import phone as phone_app
from scorekeeper.phone import Phone

from .helpers import page_of, record

ROOT = "http://localhost/offline/"
SERVER = "http://localhost/"  # sync.js's serverOf(ROOT): the app was kept from this server


def words(html: str) -> str:
    return " ".join(page_of(html).text.split())


def get(phone: Phone, path: str) -> str:
    status, _headers, body = phone.handle("GET", path, ROOT, [], b"")
    assert status == 200, (path, status)
    return body.decode()


def posted(phone: Phone, path: str, form: dict[str, str]) -> tuple[int, dict[str, str], str]:
    from urllib.parse import urlencode

    status, headers, body = phone.handle("POST", path, ROOT, [("Content-Type", "application/x-www-form-urlencoded")],
                                         urlencode(form).encode())
    return status, dict(headers), body.decode()


def post(phone: Phone, path: str, form: dict[str, str]) -> tuple[int, dict[str, str]]:
    status, headers, _body = posted(phone, path, form)
    return status, headers


def hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}"[^>]*value="([^"]*)"', page) or re.search(rf'value="([^"]*)"[^>]*name="{name}"', page)
    assert found, name
    return found.group(1)


def start_pad(phone: Phone) -> int:
    page = get(phone, "/matches/new?game=score_pad")
    status, headers = post(phone, "/matches/new", {
        "game": "score_pad", "shown_game": "score_pad", "setting_hand_count": "0", "player_0": "Ann",
        "player_1": "Bob", "first_dealer": "0", "setting_target": "100", "csrf_token": hidden(page, "csrf_token")})
    assert status == 303, status
    return int(headers["Location"].rsplit("/", 1)[1])


def save_hand(phone: Phone, match_id: int, points: tuple[int, int]) -> None:
    page = get(phone, f"/matches/{match_id}")
    form = {"csrf_token": hidden(page, "csrf_token"), "version": hidden(page, "version"),
            "request_key": hidden(page, "request_key"), "points_0": str(points[0]), "points_1": str(points[1])}
    status, _ = post(phone, f"/matches/{match_id}/hands", form)
    assert status in (200, 303), status


def carry(phone: Phone, client, lose_answers: bool = False) -> list[str]:
    """What the service worker does: send each queued item, hand back each answer; what
    was sent and answered, e.g. "match 201" (a match sent), "changes 200" (its hands and
    corrections), "pull 200" (has the server's copy changed?)."""
    statuses = []
    for item in json.loads(phone_app.outbox(phone)):
        answer = client.open("/" + item["path"], method=item["method"], data=item["body"],
                             content_type="application/json")
        statuses.append(f"{item['id'].split('-')[0]} {answer.status_code}")
        if not lose_answers:
            phone_app.received(phone, item["id"], answer.status_code, answer.get_data(as_text=True))
    return statuses


def server_hands(client, page: str) -> list[list[int]]:
    token = re.search(r'href="http://localhost/s/([^"]+)"', page)
    assert token, "no scorer link on the phone's page"
    return [h["points"] for h in client.get(f"/sync/match?scorer={token.group(1)}").get_json()["match"]["hands"]]


def test_the_page_says_where_the_app_stands_with_a_server_or_without(tmp_path):
    """A static build has no server: the page says so and offers nothing to send. An app kept
    from a server says its records go there, never "no server" (issue 29 item 6)."""
    alone = Phone(str(tmp_path / "alone"))
    match_id = start_pad(alone)
    save_hand(alone, match_id, (10, 20))
    assert "On this phone only: no server, no network needed." in words(get(alone, "/"))
    page = words(get(alone, f"/matches/{match_id}"))
    assert "With the server" not in page and "wait to be sent" not in page and "waits to be sent" not in page

    kept = Phone(str(tmp_path / "kept"), SERVER)
    match_id = start_pad(kept)
    page = words(get(kept, f"/matches/{match_id}"))
    assert "no server" not in page
    assert "On this phone, no network needed: what is recorded here goes to the server when it is in reach." in page


def test_a_match_started_on_the_phone_reaches_the_server_once_and_its_hands_follow(tmp_path, app, client):
    phone = Phone(str(tmp_path / "phone"), SERVER)
    match_id = start_pad(phone)
    # no hands yet: the match itself is what waits (not "0 hands wait to be sent")
    assert "On this phone only: the match goes to the server when the server is in reach." in words(
        get(phone, f"/matches/{match_id}"))
    save_hand(phone, match_id, (10, 20))
    assert "1 hand waits to be sent, with the match" in " ".join(get(phone, f"/matches/{match_id}").split())
    assert "With the server: 1 hand waits to be sent (1 match is not there yet)" in get(phone, "/")

    assert carry(phone, client, lose_answers=True) == ["match 201"]  # stored, but the answer never came back
    assert carry(phone, client) == ["match 200"]  # sent again with the same key: the same match, no second one
    page = " ".join(get(phone, f"/matches/{match_id}").split())
    assert "On the server too: every hand is there" in page
    assert server_hands(client, page) == [[10, 20]]

    # offline again: two hands on the phone, then the server is back
    save_hand(phone, match_id, (5, 0))
    save_hand(phone, match_id, (1, 1))
    assert "2 hands wait to be sent" in " ".join(get(phone, f"/matches/{match_id}").split())
    assert carry(phone, client, lose_answers=True) == ["changes 200"]
    assert carry(phone, client) == ["changes 200"]  # each hand's request key: sent twice, saved once
    page = " ".join(get(phone, f"/matches/{match_id}").split())
    assert server_hands(client, page) == [[10, 20], [5, 0], [1, 1]]
    assert "With the server: nothing waits to be sent." in get(phone, "/")
    assert carry(phone, client) == ["pull 200"]


def test_when_another_phone_recorded_meanwhile_both_versions_are_shown_and_nothing_is_lost(tmp_path, app, client):
    phone = Phone(str(tmp_path / "phone"), SERVER)
    match_id = start_pad(phone)
    save_hand(phone, match_id, (10, 20))
    assert carry(phone, client) == ["match 201"]
    page = get(phone, f"/matches/{match_id}")
    # the server out of reach for this phone: it records hand 2; another phone records its own hand 2 there
    save_hand(phone, match_id, (7, 3))
    second = app.test_client()
    token = re.search(r'href="http://localhost/s/([^"]+)"', page).group(1)
    opened = second.get(f"/s/{token}")  # the scorer link, on another phone
    assert opened.status_code == 303
    server_match = int(opened.headers["Location"].rsplit("/", 1)[1])
    assert record(second, server_match, points_0="0", points_1="40").status_code in (200, 303)

    assert carry(phone, client) == ["changes 409"]
    html = get(phone, f"/matches/{match_id}")
    page = words(html)
    assert "Another phone recorded on the server while this one scored on its own" in page
    assert "On this phone Hand 2: Ann +7, Bob +3 Totals: Ann 17, Bob 23" in page
    assert "On the server Hand 2: Ann 0, Bob +40 Totals: Ann 10, Bob 60" in page
    assert carry(phone, client) == []  # nothing more is sent until the table chooses
    assert server_hands(client, html) == [[10, 20], [0, 40]]  # the server's hand kept

    # the table keeps this phone's hands as a copy of the match: a new match on the server
    status, _ = post(phone, f"/matches/{match_id}/keep-copy", {"csrf_token": hidden(html, "csrf_token")})
    assert status == 303
    assert carry(phone, client) == ["match 201"]
    page = " ".join(get(phone, f"/matches/{match_id}").split())
    assert "On the server too: every hand is there" in page
    assert server_hands(client, page) == [[10, 20], [7, 3]]  # the copy
    assert len(second.get(f"/sync/match?scorer={token}").get_json()["match"]["hands"]) == 2  # the original, whole


def test_a_server_match_copied_onto_the_phone_goes_on_there_and_its_hands_come_back(tmp_path, app, client):
    links = client.post("/sync/matches", json={"key": "started-on-the-server", "match": {
        "game": "score_pad", "players": ["Ann", "Bob"], "settings": {"target": 100},
        "hands": [{"points": [10, 20]}]}}).get_json()
    share = words(client.get(f"/matches/{links['id']}").get_data(as_text=True))
    assert "Keep a copy on this phone" in share
    assert client.get(f"/offline/take?scorer={links['scorer_token']}").status_code == 404  # not kept yet: said

    phone = Phone(str(tmp_path / "phone"), SERVER)
    status = phone.handle("GET", f"/take?scorer={links['scorer_token']}", ROOT, [], b"")[0]
    assert status == 303
    assert carry(phone, client) == ["copy 200"]  # the server's match, copied
    index = get(phone, "/")
    match_id = int(re.search(r'href="/offline/matches/(\d+)"', index).group(1))
    page = words(get(phone, f"/matches/{match_id}"))
    assert "On the server too: every hand is there" in page and "Ann" in page
    assert carry(phone, client) == ["pull 200"]  # the copy is not sent back as a new match: only asked after

    # the server out of reach: the phone goes on; back, its hands are added to the server's match
    save_hand(phone, match_id, (5, 5))
    save_hand(phone, match_id, (0, 1))
    assert carry(phone, client) == ["changes 200"]
    assert [h["points"] for h in client.get(f"/sync/match?scorer={links['scorer_token']}").get_json()["match"]["hands"]] \
        == [[10, 20], [5, 5], [0, 1]]
    assert "bad link" not in get(phone, "/")
    assert phone.handle("GET", "/take?scorer=bad%20link", ROOT, [], b"")[0] == 400


def correct(phone: Phone, match_id: int, number: int, points: tuple[int, int]) -> None:
    """Edit hand ``number`` on the phone, as its Edit page posts it."""
    page = get(phone, f"/matches/{match_id}/hands/{number}/edit")
    form = {"csrf_token": hidden(page, "csrf_token"), "version": hidden(page, "version"),
            "request_key": hidden(page, "request_key"), "points_0": str(points[0]), "points_1": str(points[1])}
    status, _ = post(phone, f"/matches/{match_id}/hands/{number}/edit", form)
    assert status == 303, status


def undo(phone: Phone, match_id: int) -> None:
    page = get(phone, f"/matches/{match_id}/undo")
    form = {"csrf_token": hidden(page, "csrf_token"), "version": hidden(page, "version"),
            "request_key": hidden(page, "request_key")}
    status, _ = post(phone, f"/matches/{match_id}/undo", form)
    assert status == 303, status


def sent_match(tmp_path, client, *hands: tuple[int, int]) -> tuple[Phone, int, str]:
    """A match started on the phone with these hands and sent to the server: (phone, its id, scorer token)."""
    phone = Phone(str(tmp_path / "phone"), SERVER)
    match_id = start_pad(phone)
    for points in hands:
        save_hand(phone, match_id, points)
    assert carry(phone, client) == ["match 201"]
    token = re.search(r'href="http://localhost/s/([^"]+)"', get(phone, f"/matches/{match_id}")).group(1)
    return phone, match_id, token


def test_the_phones_copy_takes_the_hands_another_phone_recorded_on_the_server_then_scores_on(tmp_path, app, client):
    """Item 5: the phone holding the scorer link catches up with the server's later hands
    before it scores on, so its next hand follows them (no both-versions choice needed)."""
    phone, match_id, token = sent_match(tmp_path, client, (10, 20))
    second = app.test_client()
    server_match = int(second.get(f"/s/{token}").headers["Location"].rsplit("/", 1)[1])
    assert record(second, server_match, points_0="0", points_1="40").status_code in (200, 303)
    assert record(second, server_match, points_0="3", points_1="3").status_code in (200, 303)

    opened = get(phone, f"/matches/{match_id}")  # the phone's page, before it heard of them
    assert carry(phone, client) == ["pull 200"]
    # a hand typed on the page opened before is not saved over them: the form says why
    stale = {"csrf_token": hidden(opened, "csrf_token"), "version": hidden(opened, "version"),
             "request_key": hidden(opened, "request_key"), "points_0": "9", "points_1": "9"}
    status, _, body = posted(phone, f"/matches/{match_id}/hands", stale)
    assert status == 409, status
    said = words(body)
    assert "Another phone recorded on the server: this phone took its hands from hand 2 on; totals now Ann 13, " \
           "Bob 63." in said, said
    page = words(get(phone, f"/matches/{match_id}"))
    assert "On the server too: every hand is there." in page
    assert "Ann 13" in page and "Bob 63" in page, page  # the server's hands 2 and 3, on the phone
    assert "Took the server's hands from hand 2" in words(get(phone, f"/matches/{match_id}/log"))
    assert carry(phone, client) == ["pull 200"]  # unchanged since: nothing taken twice

    save_hand(phone, match_id, (1, 2))  # hand 4, after the server's
    assert carry(phone, client) == ["changes 200"]
    assert server_hands(client, get(phone, f"/matches/{match_id}")) == [[10, 20], [0, 40], [3, 3], [1, 2]]


def test_corrections_and_undos_of_sent_hands_reach_the_server_in_order_once(tmp_path, app, client):
    """Item 5: Edit and Undo of hands the server has, made with no server in reach, are
    sent with the new hands, in the order made; sent twice (a lost answer), done once."""
    phone, match_id, token = sent_match(tmp_path, client, (10, 20), (5, 0))
    correct(phone, match_id, 1, (11, 20))
    undo(phone, match_id)  # hand 2, which the server has
    save_hand(phone, match_id, (6, 6))  # a new hand 2
    correct(phone, match_id, 2, (6, 7))  # and it corrected before it was ever sent
    page = words(get(phone, f"/matches/{match_id}"))
    assert "On the server too: 1 hand and 3 corrections wait to be sent when it is in reach." in page
    assert "With the server: 1 hand and 3 corrections wait to be sent, when it is in reach." in words(get(phone, "/"))

    assert carry(phone, client, lose_answers=True) == ["changes 200"]
    assert carry(phone, client) == ["changes 200"]  # each change's request key: done once
    page = get(phone, f"/matches/{match_id}")
    assert "On the server too: every hand is there." in words(page)
    assert server_hands(client, page) == [[11, 20], [6, 7]]
    second = app.test_client()
    server_match = int(second.get(f"/s/{token}").headers["Location"].rsplit("/", 1)[1])
    server_log = words(second.get(f"/matches/{server_match}/log").get_data(as_text=True))
    for said in ("Corrected hand 1", "Undid hand 2", "Saved hand 2", "Corrected hand 2"):
        assert said in server_log
    assert carry(phone, client) == ["pull 200"]


def test_a_correction_while_another_phone_changed_the_match_shows_both_versions(tmp_path, app, client):
    """Item 5: the phone corrects a sent hand while another phone corrects it on the server:
    nothing is overwritten; both versions shown; the phone's kept as a copy."""
    phone, match_id, token = sent_match(tmp_path, client, (10, 20), (5, 0))
    correct(phone, match_id, 2, (5, 1))
    second = app.test_client()
    server_match = int(second.get(f"/s/{token}").headers["Location"].rsplit("/", 1)[1])
    edit = page_of(second.get(f"/matches/{server_match}/hands/2/edit").get_data(as_text=True))
    fields = {name: edit.value(name) for name in ("csrf_token", "version", "request_key")}
    assert second.post(f"/matches/{server_match}/hands/2/edit",
                       data={**fields, "points_0": "9", "points_1": "9"}).status_code == 303

    assert carry(phone, client) == ["changes 409"]
    html = get(phone, f"/matches/{match_id}")
    page = words(html)
    assert "On this phone Hand 2: Ann +5, Bob +1 Totals: Ann 15, Bob 21" in page
    assert "On the server Hand 2: Ann +9, Bob +9 Totals: Ann 19, Bob 29" in page
    assert server_hands(client, html) == [[10, 20], [9, 9]]  # the other phone's correction kept
    status, _ = post(phone, f"/matches/{match_id}/keep-copy", {"csrf_token": hidden(html, "csrf_token")})
    assert status == 303
    assert carry(phone, client) == ["match 201"]
    assert server_hands(client, get(phone, f"/matches/{match_id}")) == [[10, 20], [5, 1]]


def test_names_and_settings_changed_on_the_server_reach_the_phones_copy(tmp_path, app, client):
    """Item 5: the phone's copy follows the server's Players & settings too (a name fixed there)."""
    from scorekeeper import store

    phone, match_id, token = sent_match(tmp_path, client, (10, 20))
    db = store.connect(app.config["DATABASE"])
    try:
        server_match = store.match_for_token(db, "scorer", token)
        store.update_setup(db, server_match, ["Ann", "Bea"], {"target": 50}, 0)
    finally:
        db.close()
    assert carry(phone, client) == ["pull 200"]
    page = words(get(phone, f"/matches/{match_id}"))
    assert "Score pad: Ann, Bea" in page and "Playing to 50" in page, page
    assert "On the server too: every hand is there." in page
    save_hand(phone, match_id, (1, 1))
    assert carry(phone, client) == ["changes 200"]
    assert server_hands(client, get(phone, f"/matches/{match_id}")) == [[10, 20], [1, 1]]


def test_names_settings_date_and_note_changed_on_the_phone_reach_the_server(tmp_path, app, client):
    """Item 5: Players & settings and the date & note changed on the phone with no server are
    sent in order with the hands, so the server's next answer does not take them back."""
    from scorekeeper import store

    phone, match_id, token = sent_match(tmp_path, client, (10, 20))
    db = store.connect(str(phone.folder / "scorekeeper.sqlite"))
    try:
        store.update_setup(db, match_id, ["Ann", "Bea"], {"target": 50}, 0)
        store.update_details(db, match_id, "2026-11-20", "garden table")
    finally:
        db.close()
    save_hand(phone, match_id, (1, 1))
    page = words(get(phone, f"/matches/{match_id}"))
    assert "On the server too: 1 hand and 2 corrections wait to be sent when it is in reach." in page
    assert carry(phone, client) == ["changes 200"]
    server = client.get(f"/sync/match?scorer={token}").get_json()["match"]
    assert (server["players"], server["settings"]["target"], server["date"], server["note"]) == \
        (["Ann", "Bea"], 50, "2026-11-20", "garden table")
    assert [h["points"] for h in server["hands"]] == [[10, 20], [1, 1]]
    assert carry(phone, client) == ["pull 200"]
    assert "Score pad: Ann, Bea" in words(get(phone, f"/matches/{match_id}"))


def test_the_table_takes_the_servers_version_on_the_phone_and_scores_on_in_step(tmp_path, app, client):
    """Item 5: on both versions, the table may take the server's onto the phone: its copy is
    the server's again (the phone's own hand stays in its log) and what it records next is sent."""
    phone, match_id, token = sent_match(tmp_path, client, (10, 20))
    save_hand(phone, match_id, (7, 3))  # the server out of reach for this phone
    second = app.test_client()
    server_match = int(second.get(f"/s/{token}").headers["Location"].rsplit("/", 1)[1])
    assert record(second, server_match, points_0="0", points_1="40").status_code in (200, 303)
    assert carry(phone, client) == ["changes 409"]

    html = get(phone, f"/matches/{match_id}")
    status, _ = post(phone, f"/matches/{match_id}/take-server", {"csrf_token": hidden(html, "csrf_token")})
    assert status == 303
    page = words(get(phone, f"/matches/{match_id}"))
    assert "On the server too: every hand is there." in page and "Ann 10" in page and "Bob 60" in page, page
    log = words(get(phone, f"/matches/{match_id}/log"))
    assert "Saved hand 2" in log and "{\"points\": [7, 3]}" in log, log  # its own hand, kept there
    save_hand(phone, match_id, (1, 1))
    assert carry(phone, client) == ["changes 200"]
    assert server_hands(client, get(phone, f"/matches/{match_id}")) == [[10, 20], [0, 40], [1, 1]]


def test_a_match_sent_by_an_earlier_version_of_the_app_goes_on_in_step(tmp_path, app, client):
    """Updates keep the data: a phone whose sync.json an earlier app wrote (hands counted,
    no versions) sends its later hands as that app did, then goes on in step."""
    phone, match_id, _token = sent_match(tmp_path, client, (10, 20))
    state = json.loads((phone.folder / "sync.json").read_text())
    for name in ("version", "mine"):
        del state[str(match_id)][name]
    (phone.folder / "sync.json").write_text(json.dumps(state))
    save_hand(phone, match_id, (5, 0))
    assert "1 hand waits to be sent" in words(get(phone, f"/matches/{match_id}"))
    assert carry(phone, client) == ["hands 200"]
    assert carry(phone, client) == ["pull 200"]
    correct(phone, match_id, 1, (11, 20))
    assert carry(phone, client) == ["changes 200"]
    assert server_hands(client, get(phone, f"/matches/{match_id}")) == [[11, 20], [5, 0]]
