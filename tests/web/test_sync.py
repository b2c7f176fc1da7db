"""What a phone that scored on its own sends the server (web/views/sync.py), through the Flask
test client on a real SQLite file: a match sent through the import path is stored once
however often it is sent, and its links come back; the phone's hands are added in
order, each once by its request key; another phone's hand in the way stops the rest
and gives back the server's match; bad input is refused saying where, never a 500."""
from __future__ import annotations

from scorekeeper import store

from .helpers import as_scorer, record, text

MATCH = {"format": "scorekeeper-match-1", "game": "score_pad", "players": ["Ann", "Bob"],
         "settings": {"target": 100}, "date": "2026-11-26", "hands": [{"points": [10, 20]}, {"points": [5, 0]}]}
KEY = "phone-match-0001"


def send(client, match=MATCH, key=KEY):
    return client.post("/sync/matches", json={"key": key, "match": match})


def server_matches(app) -> list[int]:
    db = store.connect(app.config["DATABASE"])
    try:
        return [row[0] for row in db.execute("select id from matches where deleted_at is null")]
    finally:
        db.close()


def hands_of(client, token):
    response = client.get(f"/sync/match?scorer={token}")
    assert response.status_code == 200
    return response.get_json()["match"]["hands"]


def test_a_match_sent_twice_is_stored_once_and_its_links_come_back(app, client):
    first = send(client)
    assert first.status_code == 201, first.get_json()
    links = first.get_json()
    assert links["hands"] == 2 and links["scorer"].endswith(f"/s/{links['scorer_token']}")
    again = send(client)  # the answer was lost on the way: the phone sends it again
    assert again.status_code == 200
    assert again.get_json()["id"] == links["id"] and again.get_json()["scorer"] == links["scorer"]
    assert server_matches(app) == [links["id"]]
    # it continues there: the sending phone scores it, its totals as the phone had them
    page = client.get(f"/matches/{links['id']}")
    assert page.status_code == 200 and "Ann" in text(page)
    assert record(client, links["id"], points_0="1", points_1="2").status_code in (200, 303)
    assert [h["points"] for h in hands_of(client, links["scorer_token"])] == [[10, 20], [5, 0], [1, 2]]
    # another phone opens the scorer link given back
    other = app.test_client()
    assert other.get(links["scorer"].removeprefix("http://localhost")).status_code == 303
    assert other.get(f"/matches/{links['id']}").status_code == 200


def test_a_bad_match_is_refused_saying_where_and_nothing_is_stored(app, client):
    bad = {**MATCH, "hands": [{"points": [10, 20]}, {"points": [5]}]}
    response = send(client, bad)
    assert response.status_code == 400
    assert response.get_json()["problems"][0].startswith("match: hand 2:")
    assert send(client, MATCH, key="bad key!").status_code == 400
    assert "key: must be" in send(client, MATCH, key="bad key!").get_json()["problems"][0]
    response = client.post("/sync/matches", data={"key": KEY})
    assert response.status_code == 415 and "JSON" in response.get_json()["problems"][0]
    assert client.post("/sync/matches", json=[1]).status_code == 400
    assert server_matches(app) == []


def phone_hands(*numbered):
    return [{"number": n, "hand": {"points": points}, "request_key": f"hand-key-{n:04d}"} for n, points in numbered]


def test_the_phones_hands_are_added_in_order_once_each(app, client):
    token = send(client).get_json()["scorer_token"]
    sent = {"scorer": token, "hands": phone_hands((3, [7, 7]), (4, [1, 9]))}
    first = client.post("/sync/hands", json=sent)
    assert first.status_code == 200, first.get_json()
    assert first.get_json()["saved"] == [3, 4] and first.get_json()["hands"] == 4
    again = client.post("/sync/hands", json=sent)  # a retry: each key is known, nothing added
    assert again.status_code == 200 and again.get_json()["already"] == [3, 4] and again.get_json()["saved"] == []
    assert [h["points"] for h in hands_of(client, token)] == [[10, 20], [5, 0], [7, 7], [1, 9]]


def test_another_phones_hand_in_the_way_stops_the_rest_and_gives_the_servers_match(app, client):
    links = send(client).get_json()
    second = app.test_client()
    as_scorer(app, links["id"], second)
    assert record(second, links["id"], points_0="30", points_1="0").status_code in (200, 303)  # hand 3, on the server
    response = client.post("/sync/hands", json={"scorer": links["scorer_token"],
                                                "hands": phone_hands((3, [7, 7]), (4, [1, 9]))})
    assert response.status_code == 409
    body = response.get_json()
    assert body["problems"][0].startswith("hand 3: the match on the server has 3 hands: another phone recorded hand 3")
    assert body["saved"] == [] and [h["points"] for h in body["match"]["hands"]][-1] == [30, 0]
    assert len(hands_of(client, links["scorer_token"])) == 3  # nothing of the phone's was written


def test_a_hand_the_engine_refuses_is_named_and_the_ones_before_it_kept(app, client):
    token = send(client).get_json()["scorer_token"]
    response = client.post("/sync/hands", json={"scorer": token,
                                                "hands": phone_hands((3, [7, 7]), (4, [1]))})
    assert response.status_code == 400
    assert response.get_json()["problems"][0].startswith("hand 4:") and response.get_json()["saved"] == [3]
    assert len(hands_of(client, token)) == 3


def test_bad_hand_requests_are_refused_saying_where(app, client):
    token = send(client).get_json()["scorer_token"]
    cases = [
        ({"scorer": "nope", "hands": phone_hands((3, [1, 1]))}, 404, "scorer: no match has that scorer link"),
        ({"hands": phone_hands((3, [1, 1]))}, 400, "scorer: the match's scorer token is missing"),
        ({"scorer": token, "hands": []}, 400, "hands: must be a list"),
        ({"scorer": token, "hands": phone_hands((3, [1, 1]), (5, [1, 1]))}, 400, "hands[1].number: hands are sent in order"),
        ({"scorer": token, "hands": [{"number": 3, "hand": {"points": [1, 1]}}]}, 400, "hands[0]: must be an object with"),
        ({"scorer": token, "hands": [{"number": 3, "hand": [], "request_key": "hand-key-0003"}]}, 400, "hands[0].hand"),
        ({"scorer": token, "hands": [{"number": 3, "hand": {}, "request_key": "x"}]}, 400, "hands[0].request_key"),
        ({"scorer": token, "hands": [{"number": True, "hand": {}, "request_key": "hand-key-0003"}]}, 400,
         "hands[0].number"),
    ]
    for body, status, words in cases:
        response = client.post("/sync/hands", json=body)
        assert response.status_code == status, (body, response.get_json())
        assert response.get_json()["problems"][0].startswith(words), response.get_json()
    assert client.get("/sync/match?scorer=nope").status_code == 404
    assert len(hands_of(client, token)) == 2


def test_changes_are_made_on_the_version_the_phone_heard_once_each(app, client):
    links = send(client).get_json()
    token, version = links["scorer_token"], links["version"]
    changes = [{"action": "edit", "number": 1, "hand": {"points": [11, 20]}, "request_key": "change-key-0001"},
               {"action": "undo", "number": 2, "request_key": "change-key-0002"}]
    done = client.post("/sync/changes", json={"scorer": token, "version": version, "changes": changes})
    assert done.status_code == 200 and done.get_json()["saved"] == [0, 1], done.get_json()
    again = client.post("/sync/changes", json={"scorer": token, "version": version, "changes": changes})
    assert again.status_code == 200 and again.get_json()["already"] == [0, 1]  # a retry: nothing done twice
    assert [h["points"] for h in hands_of(client, token)] == [[11, 20]]
    # the phone heard an older version: another phone changed the match since, nothing is written
    stale = client.post("/sync/changes", json={"scorer": token, "version": version, "changes": [
        {"action": "save", "number": 2, "hand": {"points": [1, 1]}, "request_key": "change-key-0003"}]})
    assert stale.status_code == 409
    assert stale.get_json()["problems"][0].startswith("changes[0] (hand 2): the match on the server changed")
    assert [h["points"] for h in hands_of(client, token)] == [[11, 20]]
    asked = client.post("/sync/versions", json={"matches": [{"scorer": token, "version": version + 2},
                                                            {"scorer": token[::-1], "version": 1}]}).get_json()
    assert asked["matches"][token] == {"unchanged": True}
    assert asked["matches"][token[::-1]]["status"] == 404
    newer = client.post("/sync/versions", json={"matches": [{"scorer": token, "version": version}]}).get_json()
    assert [h["points"] for h in newer["matches"][token]["match"]["hands"]] == [[11, 20]]


def test_bad_change_requests_are_refused_saying_where(app, client):
    token = send(client).get_json()["scorer_token"]
    save = {"action": "save", "number": 3, "hand": {"points": [1, 1]}, "request_key": "change-key-0001"}
    cases = [
        ({"scorer": token, "changes": [save]}, "version: must be the version"),
        ({"scorer": token, "version": 1, "changes": []}, "changes: must be a list"),
        ({"scorer": token, "version": 1, "changes": [{**save, "action": "deal"}]}, "changes[0].action: must be one of"),
        ({"scorer": token, "version": 1, "changes": [{**save, "number": 0}]}, "changes[0].number"),
        ({"scorer": token, "version": 1, "changes": [{**save, "hand": None}]}, "changes[0].hand: must be an object"),
        ({"scorer": token, "version": 1, "changes": [{**save, "keep_dealers": "yes"}]}, "changes[0].keep_dealers"),
        ({"scorer": token, "version": 1, "changes": [{**save, "request_key": "x"}]}, "changes[0].request_key"),
        ({"scorer": token, "version": 1, "changes": [{"action": "setup", "players": "Ann", "settings": {},
                                                      "first_dealer": 0, "request_key": "change-key-0001"}]},
         "changes[0].players: must be a list"),
        ({"scorer": token, "version": 1, "changes": [{"action": "details", "date": 5, "note": None,
                                                      "request_key": "change-key-0001"}]}, "changes[0].date"),
    ]
    for body, words in cases:
        response = client.post("/sync/changes", json=body)
        assert response.status_code == 400, (body, response.get_json())
        assert response.get_json()["problems"][0].startswith(words), response.get_json()
    refused = client.post("/sync/versions", json={"matches": [{"scorer": token}]})
    assert refused.status_code == 400 and refused.get_json()["problems"][0].startswith("matches[0]: must be")
    assert len(hands_of(client, token)) == 2
