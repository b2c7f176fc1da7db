"""Limits on abuse, each with a clear message: changes per device per minute, and
changes one match's log keeps. Nothing a scorer does fills the disk or the memory."""
from __future__ import annotations

import sqlite3

import pytest

from scorekeeper import store
from scorekeeper.web import create_app

from .helpers import record, start, text

WHEEL = {"trump": "wyrms", "mode": "high", "bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2}


def test_a_device_sending_too_many_changes_is_asked_to_wait(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "db.sqlite", "SECRET_KEY": "t",
                      "WTF_CSRF_ENABLED": False, "WRITES_PER_MINUTE": 3})
    client = app.test_client()
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"], target=0, deals_each=100)
    for note in ("a", "b", "c"):
        assert client.post(f"/matches/{match_id}/details", data={"note": note}).status_code == 303
    preview = client.post(f"/matches/{match_id}/hands/preview", data={"trump": "wyrms"})
    assert preview.status_code == 200  # a preview changes nothing: never counted
    refused = client.post(f"/matches/{match_id}/details", data={"note": "d"})
    assert refused.status_code == 429
    assert "This device has sent 3 changes in the last minute" in text(refused)
    assert int(refused.headers["Retry-After"]) > 0
    assert "c" in text(client.get(f"/matches/{match_id}"))  # the note from before, unchanged


def test_a_script_opening_a_link_without_its_cookie_cannot_fill_the_disk_with_devices(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "db.sqlite", "SECRET_KEY": "t",
                      "WTF_CSRF_ENABLED": False, "NEW_DEVICES_PER_MINUTE": 3})
    client = app.test_client()
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])  # this phone is the first device
    with app.app_context():
        from scorekeeper.web.edges.db import get_db
        link = f"/w/{store.get_tokens(get_db(), match_id)['watcher_token']}"
    assert [app.test_client().get(link).status_code for _ in range(3)] == [200, 200, 200]
    refused = app.test_client().get(link)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "3 new phones opened links from this network in the last minute" in text(refused)
    assert client.get(link).status_code == 200  # a phone already known is never counted
    with app.app_context():
        assert get_db().execute("select count(*) from devices").fetchone()[0] == 4


def fill_log(app, match_id: int, entries: int) -> None:
    """Make match ``match_id``'s log hold ``entries`` changes, as thousands of note changes
    would have, by copying its last entry in SQLite (5,000 saves through the app take
    minutes: each is a transaction on disk)."""
    with sqlite3.connect(app.config["DATABASE"]) as db:
        columns = [row[1] for row in db.execute("pragma table_info(audit)") if not row[5]]  # not the key
        logged = db.execute("select count(*) from audit where match_id = ?", [match_id]).fetchone()[0]
        names = ", ".join(columns)
        last = db.execute(f"select {names} from audit where match_id = ? order by rowid desc limit 1",
                          [match_id]).fetchone()
        copy = [None if name == "request_key" else value for name, value in zip(columns, last)]
        db.executemany(f"insert into audit ({names}) values ({', '.join('?' * len(columns))})",
                       [copy] * (entries - logged))


def test_a_matchs_log_is_bounded(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"], target=0, deals_each=100)
    assert client.post(f"/matches/{match_id}/details", data={"note": "a"}).status_code == 303
    fill_log(app, match_id, 4999)
    assert client.post(f"/matches/{match_id}/details", data={"note": "b"}).status_code == 303  # the 5,000th
    refused = client.post(f"/matches/{match_id}/details", data={"note": "c"})
    assert refused.status_code == 422
    assert "this match's log holds 5,000 changes, the most one match keeps" in text(refused)
    saved = record(client, match_id, **WHEEL)
    assert "this match's log holds 5,000 changes" in text(saved)
    assert len(store.audit_log(store.connect(app.config["DATABASE"], migrate=False), match_id)) == 5000


def test_the_board_cache_is_bounded_in_bytes():
    from scorekeeper.web.views.sharing import BoardCache

    cache = BoardCache(size=100, max_bytes=1000)
    for version in range(50):
        cache.put((1, version), "x" * 300)
    assert cache.bytes <= 1000
    assert cache.get((1, 49)) == "x" * 300  # the newest stays
    assert cache.get((1, 0)) is None  # the oldest went first


def test_the_rate_limits_memory_stays_bounded_with_20000_addresses():
    """limits' own memory storage keeps an empty list for every address it ever saw (17 MiB
    for 100,000, for good); the app's drops an address once its entries have expired (20,000
    addresses show it as well as 100,000: after the sweep at most one is left)."""
    import time

    from limits import RateLimitItemPerSecond
    from limits.storage import MemoryStorage
    from limits.strategies import MovingWindowRateLimiter

    from scorekeeper.web.edges.ratelimits import BoundedMemoryStorage

    # the two private hooks it replaces: if limits renames them, the sweep below stops working
    assert hasattr(MemoryStorage, "_MemoryStorage__expire_events")
    assert hasattr(MemoryStorage, "_MemoryStorage__schedule_expiry")
    storage = BoundedMemoryStorage()
    window = MovingWindowRateLimiter(storage)
    item = RateLimitItemPerSecond(1)
    started = time.monotonic()
    for i in range(20_000):
        assert window.hit(item, "match", f"10.{i >> 16}.{(i >> 8) & 255}.{i & 255}")
    took = time.monotonic() - started
    assert not window.hit(item, "match", "10.0.78.31")  # still counted: one a second
    time.sleep(1.1 + storage.SWEEP_SECONDS)
    assert window.hit(item, "match", "10.0.0.1")  # a hit after the window: the sweep is due
    storage.timer.join(timeout=10)
    assert len(storage.events) <= 1 and len(storage.locks) <= 1
    print(f"20,000 addresses: {took:.1f} s of hits")


def test_the_limits_storage_is_a_setting(tmp_path):
    from limits.errors import ConfigurationError

    from scorekeeper.web.edges.ratelimits import BoundedMemoryStorage

    app = create_app({"TESTING": True, "DATABASE": tmp_path / "db.sqlite", "SECRET_KEY": "t"})
    assert isinstance(app.extensions["scorekeeper.limits"].storage, BoundedMemoryStorage)
    with pytest.raises(ConfigurationError, match="nosuch://host"):
        create_app({"TESTING": True, "DATABASE": tmp_path / "db.sqlite", "SECRET_KEY": "t",
                    "RATELIMIT_STORAGE_URI": "nosuch://host"})


def test_the_reads_that_cost_the_most_have_a_limit_of_their_own(tmp_path):
    """A day's print, the history export and the hands behind a stats figure are each
    bounded; how many one address may ask for in a minute is bounded too."""
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "db.sqlite", "SECRET_KEY": "t",
                      "WTF_CSRF_ENABLED": False, "HEAVY_READS_PER_MINUTE": 3})
    client = app.test_client()
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    for address in ("/history/export.json", "/print?date=2026-11-20",
                    "/stats/hands?player=Ann&game=third_wheel&figure=played"):
        assert client.get(address).status_code == 200, address
    for address in ("/history/export.json", "/print?date=2026-11-20", f"/print?match={match_id}",
                    f"/matches/{match_id}/print", f"/matches/{match_id}/export.csv",
                    "/stats/hands?player=Ann&game=third_wheel&figure=played"):
        refused = client.get(address)
        assert refused.status_code == 429, address
        assert "This device has asked for 3 printouts, exports or lists of hands in the last minute" in text(refused)
        assert int(refused.headers["Retry-After"]) > 0
    # the match's own page and its file are not among them
    assert client.get(f"/matches/{match_id}").status_code == 200
    assert client.get(f"/matches/{match_id}/export.json").status_code == 200


def test_a_full_log_is_read_a_page_at_a_time(app, client):
    """A log of 5,000 changes was one page of 5,000 entries; it is now 100 a page, newest first."""
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"], target=0, deals_each=100)
    record(client, match_id, **WHEEL)
    fill_log(app, match_id, 5000)
    first = client.get(f"/matches/{match_id}/log")
    assert first.status_code == 200
    assert first.get_data(as_text=True).count('<li class="log-entry') == 100
    assert "5000 changes, 100 on this page." in text(first) and "Page 1 of 50" in text(first)
    last = client.get(f"/matches/{match_id}/log?page=50")
    assert last.get_data(as_text=True).count('<li class="log-entry') == 100 and "Started" in text(last)
    assert "Page 50 of 50" in text(client.get(f"/matches/{match_id}/log?page=99"))  # past the end: the last
    assert "Started" not in text(first)


def test_a_poll_from_an_old_version_says_the_latest_changes_not_all_of_them(app, client):
    """/live?since=0 on a match whose log holds 5,000 changes said every one of them."""
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"], target=0, deals_each=100)
    record(client, match_id, **WHEEL)
    fill_log(app, match_id, 5000)
    answer = client.get(f"/matches/{match_id}/live?since=0")
    assert answer.status_code == 200
    assert "4,990 earlier changes (see the match log), then:" in text(answer)
    assert text(answer).count("was saved on another phone") == 10
    one = client.get(f"/matches/{match_id}/live?since=4")  # a few behind: each one told, as before
    assert "earlier change" not in text(one)
