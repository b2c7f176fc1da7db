"""Imports cost the sender what they cost the server: every file counts, good or bad; a
file is counted (matches, hands) before anything is replayed; a history file costs one
match of the hourly budget per match it holds; a refused file's answer stays small."""
from __future__ import annotations

import io
import json
import time

import pytest

from scorekeeper import store
from scorekeeper.web import create_app
from scorekeeper.web.edges import security

from .helpers import start, start_form, text


def _app(tmp_path, **config):
    return create_app({"TESTING": True, "DATABASE": tmp_path / "db.sqlite", "SECRET_KEY": "t",
                       "WTF_CSRF_ENABLED": False, **config})


def _upload(client, body: str | bytes, name: str = "history.json"):
    data = body.encode() if isinstance(body, str) else body
    return client.post("/import", data={"file": (io.BytesIO(data), name)}, content_type="multipart/form-data")


def _match(players=("Ann", "Bob"), hands=()) -> dict:
    return {"format": "scorekeeper-match-1", "game": "third_hand", "players": list(players), "hands": list(hands)}


def _count(app) -> int:
    db = store.connect(app.config["DATABASE"], migrate=False)
    try:
        return db.execute("select count(*) from matches").fetchone()[0]
    finally:
        db.close()


def test_failed_imports_count_against_the_limit(tmp_path):
    app = _app(tmp_path, MATCHES_PER_MINUTE=3)
    client = app.test_client()
    bad = [_upload(client, "{not json"), _upload(client, json.dumps(_match(players=["Ann"]))),
           _upload(client, "hand,dealer\n1,Ann\n", "scores.csv")]
    assert [answer.status_code for answer in bad] == [400, 400, 400]
    refused = _upload(client, json.dumps(_match()))  # a good file, but this address has sent three
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "This device has started 3 matches in the last minute" in text(refused)
    assert _count(app) == 0
    other = app.test_client()
    assert _upload(other, json.dumps(_match()), "m.json").status_code == 429  # the same address: counted per address
    assert other.post("/import", data={"file": (io.BytesIO(json.dumps(_match()).encode()), "m.json")},
                      content_type="multipart/form-data",
                      environ_base={"REMOTE_ADDR": "192.168.1.9"}).status_code == 303


def test_a_file_of_150000_empty_hands_is_answered_in_a_few_lines(app, client):
    body = json.dumps(_match(hands=[{}] * 150_000))
    assert len(body) > 600_000
    started = time.monotonic()
    answer = _upload(client, body)
    took = time.monotonic() - started
    assert answer.status_code == 400
    assert "hands: 150,000 hands, but one match can hold at most 1,000" in text(answer)
    assert len(answer.get_data()) < 20_000  # the whole page; it was 32 MB of problems
    print(f"150,000 empty hands: {len(answer.get_data()):,} bytes in {took * 1000:.0f} ms")
    assert _count(app) == 0


def test_a_history_of_bad_hands_lists_twenty_problems_and_says_what_was_not_checked(app, client):
    body = json.dumps([_match(hands=[{}] * 1000)] * 250, separators=(",", ":"))
    assert 700_000 < len(body) < 1024 * 1024
    started = time.monotonic()
    answer = _upload(client, body)
    took = time.monotonic() - started
    assert answer.status_code == 400
    shown = [line for line in text(answer).split(" match 1: ")[1:]]
    assert len(shown) == 20  # three problems a hand: checking stopped after hand 7, at 21
    assert "match 1: hand 1: " in text(answer) and "match 1: hand 7: " in text(answer)
    assert "match 1: hand 8: " not in text(answer)
    assert "… and 1 more problem." in text(answer)
    assert "Checking stopped there: the 249,993 hands after it were not checked." in text(answer)
    assert len(answer.get_data()) < 20_000
    print(f"250 matches of 1,000 empty hands: {len(answer.get_data()):,} bytes in {took * 1000:.0f} ms")
    assert _count(app) == 0


def test_a_history_file_costs_one_match_of_the_hourly_budget_per_match(tmp_path):
    app = _app(tmp_path, MATCHES_PER_HOUR=5)
    client = app.test_client()
    three = json.dumps([_match(players=[f"A{i}", "B"]) for i in range(3)])
    assert "3 of 3 matches imported." in text(_upload(client, three))
    refused = _upload(client, json.dumps([_match(players=[f"C{i}", "D"]) for i in range(3)]))
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "This file holds 3 matches, but 2 more may be started or imported from this network in the next hour " \
           "(5 an hour at most). Nothing was imported" in text(refused)
    assert _count(app) == 3
    start(client, "third_wheel", ["Ann", "Bob", "Cy"])  # starts come out of the same budget
    start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    again = client.post("/matches/new", data=start_form("third_wheel", ["Ann", "Bob", "Cy"]))
    assert again.status_code == 429
    assert "This network has started or imported 5 matches in the last hour, the most allowed." in text(again)
    too_big = _upload(app.test_client(), json.dumps([_match()] * 6), "h.json")  # more than an hour's budget
    assert too_big.status_code == 400 and "history file: 6 matches, but one file can hold at most 5" in text(too_big)
    assert _count(app) == 5


def test_a_refused_file_costs_its_attempt_only(tmp_path):
    """A history of 2,000 tiny matches whose first is bad stores nothing: it was charged all
    2,000 of the hourly budget, so every phone on the address got 429 for an hour, told the
    network "has started or imported 2,000 matches". Now it costs its attempt (one file of the
    per-minute limit) and the budget counts the matches stored."""
    app = _app(tmp_path, MATCHES_PER_HOUR=2000)
    client = app.test_client()
    matches = [_match(players=["Ann"])] + [_match(players=[f"A{i}", "B"]) for i in range(1999)]
    refused = _upload(client, json.dumps(matches))
    assert refused.status_code == 400 and "match 1:" in text(refused)
    assert _count(app) == 0
    assert start(client, "third_wheel", ["Ann", "Bob", "Cy"])  # the address may still start a match
    # and a file of duplicates stores (and costs) only its new matches
    three = json.dumps([dict(_match(players=[f"A{i}", "B"]), date="2026-11-20") for i in range(3)])
    assert "3 of 3 matches imported." in text(_upload(client, three))
    again = _upload(client, three)
    assert again.status_code == 200 and "0 of 3 matches imported" in text(again)  # all three already here
    assert _count(app) == 4
    with app.test_request_context(environ_base={"REMOTE_ADDR": "127.0.0.1"}):
        assert security.limits().remaining("match_hour", "127.0.0.1") == 2000 - 4


def test_the_hourly_limits_message_is_true(tmp_path):
    """What the 429 says the network did is what it did: 3 matches stored of a budget of 3."""
    app = _app(tmp_path, MATCHES_PER_HOUR=3)
    client = app.test_client()
    assert _upload(client, json.dumps([_match(players=["Ann"])] * 2 + [_match()])).status_code == 400
    assert "3 of 3 matches imported." in text(_upload(client, json.dumps([_match(players=[f"A{i}", "B"])
                                                                         for i in range(3)])))
    again = client.post("/matches/new", data=start_form("third_wheel", ["Ann", "Bob", "Cy"]))
    assert again.status_code == 429
    assert "This network has started or imported 3 matches in the last hour, the most allowed." in text(again)
    assert _count(app) == 3


@pytest.mark.parametrize("limit", [1, 2])
def test_a_single_match_file_costs_one_match(tmp_path, limit):
    app = _app(tmp_path, MATCHES_PER_HOUR=limit)
    client = app.test_client()
    statuses = [_upload(client, json.dumps(_match(players=[f"P{i}", "Q"])), "m.json").status_code for i in range(3)]
    assert statuses == [303] * limit + [429] * (3 - limit)


def test_a_big_file_with_a_repeated_key_is_told_what_without_a_walk_through_every_value(app, client):
    """Naming where costs a walk through every value (seconds for a crafted 1 MiB file), so a
    file over 256 KiB is told what is wrong; a small one is still told where."""
    big = json.dumps([_match(hands=[{}] * 1000)] * 300, separators=(",", ":"))[:-5] + '{"a":1,"a":2}]}]'
    assert len(big) > 900_000
    started = time.monotonic()
    answer = _upload(client, big)
    took = time.monotonic() - started
    assert answer.status_code == 400
    assert 'match file: key "a" appears twice in one object' in text(answer)
    print(f"a repeated key at the end of 900 KB: answered in {took * 1000:.0f} ms")
    small = _upload(client, json.dumps([_match(hands=[{}] * 10)])[:-5] + '{"a":1,"a":2}]}]')
    assert '[0].hands[9]: key "a" appears twice' in text(small)
    assert _count(app) == 0
