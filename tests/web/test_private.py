"""Private by default: a device sees only the matches it started, imported or opened
through a link; its history reads the per-match summaries (no replay), pages and
searches; a scorer can end a link; the person running the server lists everything."""
from __future__ import annotations

import hashlib
import re

from scorekeeper import engine, store
from scorekeeper.engine import Match
from scorekeeper.web.edges.db import get_db

from .helpers import as_scorer, page_of, record, start, text, totals

WHEEL = {"trump": "wyrms", "mode": "high", "bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2}


def tokens(app, match_id: int) -> dict:
    with app.app_context():
        return store.get_tokens(get_db(), match_id)


def history(client, **args) -> str:
    return re.sub(r"\s+", " ", text(client.get("/", query_string=args)))


def test_each_device_sees_only_its_own_matches(app, client):
    start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    other = app.test_client()
    start(other, "third_wheel", ["Dee", "Eve", "Flo"])
    assert "Ann, Bob, Cy" in history(client) and "Dee, Eve, Flo" not in history(client)
    assert "Dee, Eve, Flo" in history(other) and "Ann, Bob, Cy" not in history(other)


def test_a_match_opened_through_a_link_joins_the_history(app, client):
    scorer_match = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    watched = start(client, "third_wheel", ["Dee", "Eve", "Flo"])
    phone = app.test_client()
    phone.get(f"/s/{tokens(app, scorer_match)['scorer_token']}")
    phone.get(f"/w/{tokens(app, watched)['watcher_token']}")
    words = history(phone)
    assert "Ann, Bob, Cy No hands yet" in words and "Ann, Bob, Cy No hands yet · watching" not in words
    assert "Dee, Eve, Flo No hands yet · watching" in words


def test_a_stranger_leaves_nothing_behind(app, client):
    stranger = app.test_client()
    stranger.get("/")
    stranger.get("/matches/1")
    assert stranger.get_cookie("scorekeeper_device") is None
    with app.app_context():
        assert get_db().execute("select count(*) from devices").fetchone()[0] == 0


def test_the_history_shows_the_engines_standing_without_replaying(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"], target=0, deals_each=1)
    record(client, match_id, **WHEEL)
    record(client, match_id, trump="moons", mode="low", bid=3, tricks_0=3, tricks_1=2, tricks_2=6)
    board = totals(client.get(f"/matches/{match_id}").get_data(as_text=True))
    leader = max(board, key=board.get)
    before = engine.replay_count()
    assert f"Ann, Bob, Cy Leader: {leader} ({board[leader]}) · 2 hands" in history(client)
    assert engine.replay_count() - before == engine.ReplayCount(replays=0, hands=0)


def test_the_summary_follows_every_save_edit_and_undo(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"], target=0, deals_each=1)
    record(client, match_id, **WHEEL)
    assert "Leader: Ann (9) · 1 hand" in history(client)
    version = page_of(client.get(f"/matches/{match_id}/hands/1/edit")).value("version")
    client.post(f"/matches/{match_id}/hands/1/edit", data=dict(WHEEL, tricks_0=2, tricks_1=4, tricks_2=5,
                                                               version=version))
    assert "Leader: Bob (9) · 1 hand" in history(client)
    client.post(f"/matches/{match_id}/undo")
    assert "Ann, Bob, Cy No hands yet" in history(client)
    for hand in (WHEEL, dict(WHEEL, bid=6), dict(WHEEL, bid=7)):
        record(client, match_id, **hand)
    with app.app_context():
        result = engine.replay(store.get_record(get_db(), match_id).match)
    assert result.finished
    winners = ", ".join(result.players[s] for s in result.winners)
    words = history(client)
    assert "Finished" in words and f"2026-11-20 Ann, Bob, Cy Won by {winners} · 3 hands" in words


def test_search_by_player_name_as_the_rules_compare_names(app, client):
    start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    start(client, "third_wheel", ["Ｍａｇｇｉｅ", "Tom", "Sue"])  # full-width letters: NFKC makes them "Maggie"
    start(client, "third_wheel", ["Dee", "Eve", "Flo"])
    words = history(client, q="maggie")
    assert "1 match with a player called “maggie”" in words
    assert "Ｍａｇｇｉｅ, Tom, Sue" in words and "Ann, Bob, Cy" not in words and "Dee, Eve, Flo" not in words
    assert "0 matches" in history(client, q="Zed")
    assert "Ann, Bob, Cy" in history(client, q="  ")


def test_the_history_comes_in_pages_of_twenty(app, client):
    for i in range(23):  # made in the store (starting 23 in a minute is refused), opened by link
        with app.app_context():
            made = store.create_match(get_db(), Match(game="third_wheel", players=[f"P{i}", "Bob", "Cy"],
                                                      date=f"2026-01-{i + 1:02d}"))
        as_scorer(app, made, client)
    first = history(client)
    assert "Page 1 of 2" in first and "P22, Bob, Cy" in first and "P2, Bob, Cy" not in first
    second = history(client, page=2)
    assert "P2, Bob, Cy" in second and "P0, Bob, Cy" in second and "P22, Bob, Cy" not in second
    assert "Newer" in second and "Older" not in second
    assert "P0, Bob, Cy" in history(client, page=500) and "Page 2 of 2" in history(client, page=500)
    for bad in ("0", "-3", "x", "9" * 40):
        assert client.get("/", query_string={"page": bad}).status_code == 200, bad


def test_a_new_scorer_link_ends_the_old_ones_grants(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    old = tokens(app, match_id)["scorer_token"]
    lost_phone, watcher = app.test_client(), app.test_client()
    lost_phone.get(f"/s/{old}")
    watcher.get(f"/w/{tokens(app, match_id)['watcher_token']}")
    assert record(lost_phone, match_id, **WHEEL).status_code == 303
    response = client.post(f"/matches/{match_id}/links/renew", data={"kind": "scorer"}, follow_redirects=True)
    words = text(response)
    assert "New scorer link made: the old one no longer opens this match." in words
    assert "1 other phone that came in through it can no longer see this match." in words
    assert record(lost_phone, match_id, **WHEEL).status_code == 404
    assert "Ann, Bob, Cy" not in history(lost_phone)
    assert lost_phone.get(f"/s/{old}").status_code == 404
    assert watcher.get(f"/matches/{match_id}").status_code == 200  # watchers keep watching
    assert record(client, match_id, **WHEEL).status_code == 303  # this phone keeps scoring
    new = tokens(app, match_id)["scorer_token"]
    assert new != old and new in client.get(f"/matches/{match_id}").get_data(as_text=True)
    log = re.sub(r"\s+", " ", text(client.get(f"/matches/{match_id}/log")))
    assert "New link" in log and "A new scorer link was made; the old one no longer opens this match (1 phone lost it)" in log


def test_a_new_watcher_link_ends_the_watchers_but_not_the_scorers(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    co_scorer, watcher = app.test_client(), app.test_client()
    co_scorer.get(f"/s/{tokens(app, match_id)['scorer_token']}")
    watcher.get(f"/w/{tokens(app, match_id)['watcher_token']}")
    client.post(f"/matches/{match_id}/links/renew", data={"kind": "watcher"})
    assert watcher.get(f"/matches/{match_id}").status_code == 404
    assert record(co_scorer, match_id, **WHEEL).status_code == 303


def test_only_a_scorer_may_renew_a_link(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    watcher = app.test_client()
    watcher.get(f"/w/{tokens(app, match_id)['watcher_token']}")
    before = tokens(app, match_id)
    assert watcher.post(f"/matches/{match_id}/links/renew", data={"kind": "scorer"}).status_code == 403
    assert app.test_client().post(f"/matches/{match_id}/links/renew", data={"kind": "scorer"}).status_code == 404
    assert client.post(f"/matches/{match_id}/links/renew", data={"kind": "everything"}).status_code == 400
    assert tokens(app, match_id) == before


def test_a_renewal_sent_twice_renews_once(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    form = {"kind": "scorer", "request_key": "k" * 20}
    client.post(f"/matches/{match_id}/links/renew", data=form)
    once = tokens(app, match_id)
    client.post(f"/matches/{match_id}/links/renew", data=form)
    assert tokens(app, match_id) == once


def test_grants_kept_in_an_old_session_move_to_the_device(app, client):
    with app.app_context():
        match_id = store.create_match(get_db(), Match(game="third_wheel", players=["A", "B", "C"]))
    tag = hashlib.sha256(tokens(app, match_id)["scorer_token"].encode()).hexdigest()[:16]
    with client.session_transaction() as session:
        session["scorer"] = {str(match_id): tag, "77": "forged"}
    assert record(client, match_id, **WHEEL).status_code == 303
    assert "A, B, C" in history(client)


def test_an_old_database_gets_summaries_in_the_migration(tmp_path):
    path = str(tmp_path / "old.sqlite")
    db = store.Database(path)
    store.migrations.apply(db, stop_before="m003_devices_and_summaries")
    db["matches"].insert({"game": "third_wheel", "players": '["A", "B", "C"]', "settings": "{}",
                          "first_dealer": 0, "date": "2026-01-01", "created_at": "x", "updated_at": "x",
                          "version": 1, "scorer_token": "s", "watcher_token": "w"})
    db["hands"].insert({"match_id": 1, "position": 1, "data": '{"trump": "wyrms", "mode": "high", '
                                                              '"wheel": false, "bid": 5, "tricks": [5, 4, 2]}'})
    db.close()
    db = store.connect(path)
    [match] = store.all_matches(db)
    assert (match["hands"], match["totals"], match["finished"]) == (1, [9, 0, 2], False)
    assert store.all_matches(db, "b")[0]["id"] == 1 and store.all_matches(db, "Z") == []


def test_as_scorer_helper_still_works(app, client):
    with app.app_context():
        match_id = store.create_match(get_db(), Match(game="third_wheel", players=["A", "B", "C"]))
    as_scorer(app, match_id, client)
    assert record(client, match_id, **WHEEL).status_code == 303


def test_the_history_prints_ticked_matches_and_only_this_devices(app, client):
    mine = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    record(client, mine, **WHEEL)
    html = client.get("/").get_data(as_text=True)
    assert 'id="print-ticked" method="get" action="/print"' in html
    assert f'name="match" value="{mine}" form="print-ticked"' in html
    printed = client.get("/print", query_string={"match": str(mine)})
    assert printed.status_code == 200 and "Ann" in text(printed)
    stranger = app.test_client()
    assert stranger.get("/print", query_string={"match": str(mine)}).status_code == 404
    assert stranger.get("/print", query_string={"date": "2026-11-20"}).status_code == 404
