"""Migrations are frozen history: they run without the engine or the games, and an
old database opens with the summaries and stats rows today's engine gives, rebuilt
once at start-up (idempotently), whatever an older engine had left there."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from scorekeeper import store
from scorekeeper.engine import Match
from scorekeeper.samples import long_match, random_match

SCHEMA_M007 = Path(__file__).with_name("schema_m007.sql").read_text()
SCHEMA_PY = Path(store.__file__).with_name("schema.py")


def sample_matches() -> list[tuple[str, Match]]:
    """(how it was stored, match): one finished, one imported in progress, one empty,
    and one with a name the rules fold (an invisible character, a capital)."""
    finished = random_match("third_wheel", 40, seed=2)
    finished.hands = finished.hands[:next(i for i in range(1, len(finished.hands) + 1)
                                          if _finished(finished, i))]
    going = long_match("dummy_spades", 9, seed=1)
    empty = Match(game="third_hand", players=["Ann", "Bob"])
    folded = long_match("third_rail", 5, seed=6)
    folded.players = ["Ann\u200b", "BOB", *folded.players[2:]]
    return [("create", finished), ("import", going), ("create", empty), ("create", folded)]


def _finished(match: Match, hands: int) -> bool:
    from scorekeeper.engine import replay
    try:
        return replay(Match(game=match.game, players=match.players, settings=match.settings,
                            first_dealer=match.first_dealer, hands=match.hands[:hands])).finished
    except Exception:
        return False


def as_today(tmp_path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """The derived rows of the sample matches stored by today's code."""
    db = store.connect(str(tmp_path / "today.sqlite"))
    for action, match in sample_matches():
        store.create_match(db, match, action=action)
    rows = derived_rows(db)
    db.close()
    return rows


def derived_rows(db: Any) -> dict[str, list[tuple[Any, ...]]]:
    return {table: db.execute(f"select * from {table} order by 1, 2").fetchall()
            for table in ("summaries", "match_players", "hand_facts")}


def store_old_way(conn: sqlite3.Connection, with_derived: bool) -> None:
    """The sample matches as the old code stored them: rows, hands, the first log entry;
    with ``with_derived``, summaries and stats rows such as an older engine left
    (wrong totals, facts that no longer exist, a stats row missing)."""
    for number, (action, match) in enumerate(sample_matches(), start=1):
        conn.execute("insert into matches (id, game, players, settings, first_dealer, date, note, created_at, "
                     "updated_at, version, scorer_token, watcher_token) values (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)",
                     [number, match.game, json.dumps(match.players), json.dumps(match.settings), match.first_dealer,
                      "2026-01-0" + str(number), None, "2026-01-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00",
                      f"s{number}", f"w{number}"])
        for position, hand in enumerate(match.hands, start=1):
            conn.execute("insert into hands values (?, ?, ?)", [number, position, json.dumps(hand)])
        conn.execute("insert into audit (match_id, at, action, version) values (?, ?, ?, 1)",
                     [number, "2026-01-01T00:00:00+00:00", action])
        if with_derived:
            conn.execute("insert into summaries values (?, ?, 0, null, ?, ?, 0)",
                         [number, len(match.hands), json.dumps([999] * len(match.players)), "stale"])
            if number != 2:
                conn.execute("insert into match_players values (?, 0, 'X', 'x', ?, 0, 0, 9, 0, ?, ?)",
                             [number, match.game, '{"gone":{"n":[1],"p":5}}', '{"gone":[1,5]}'])
    conn.commit()


def test_a_database_as_m007_left_it_opens_with_todays_summaries_and_stats(tmp_path):
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA_M007)
    store_old_way(conn, with_derived=True)
    conn.close()
    db = store.connect(str(path))
    assert derived_rows(db) == as_today(tmp_path)
    listed = {m["id"]: m for m in store.all_matches(db)}
    assert listed[2]["imported"] and not listed[1]["imported"] and listed[1]["finished"]
    assert store.refresh_stale(db) == 0  # once rebuilt, a start-up finds nothing to do
    before = derived_rows(db)
    db.close()
    again = store.connect(str(path))
    assert derived_rows(again) == before
    again.close()


def test_a_database_from_before_the_summaries_opens_with_them(tmp_path):
    path = tmp_path / "older.sqlite"
    db = store.Database(str(path))
    store.migrations.apply(db, stop_before="m003_devices_and_summaries")
    db.close()
    conn = sqlite3.connect(path)
    store_old_way(conn, with_derived=False)
    conn.close()
    db = store.connect(str(path))
    assert derived_rows(db) == as_today(tmp_path)
    db.close()


def test_a_stored_match_todays_engine_no_longer_scores_is_listed_not_fatal(tmp_path):
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA_M007)
    store_old_way(conn, with_derived=True)
    conn.execute("update hands set data = ? where match_id = 1 and position = 1", [json.dumps({"bid": "many"})])
    conn.commit()
    conn.close()
    db = store.connect(str(path))
    listed = {m["id"]: m for m in store.all_matches(db)}
    assert listed[1]["totals"] is None and listed[1]["hands"] == len(sample_matches()[0][1].hands)
    assert db.execute("select count(*) from match_players where match_id = 1").fetchone()[0] == 0
    assert derived_rows(db)["summaries"][1:] == as_today(tmp_path)["summaries"][1:]
    db.close()


def test_the_migrations_run_without_the_engine_or_the_games(tmp_path):
    """schema.py loaded on its own, as a file outside the package: it can import nothing
    of scorekeeper, and it builds the whole schema."""
    script = f"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("frozen_schema", {str(SCHEMA_PY)!r})
schema = importlib.util.module_from_spec(spec)
spec.loader.exec_module(schema)
from sqlite_utils import Database
db = Database({str(tmp_path / "fresh.sqlite")!r})
schema.migrations.apply(db)
assert not [m for m in sys.modules if m.startswith("scorekeeper")], sorted(sys.modules)
print(sorted(db.table_names()))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "'match_players'" in done.stdout and "'summaries'" in done.stdout


def test_names_the_new_rule_refuses_are_repaired_once_and_logged(tmp_path):
    """rules.md's new name rule (issues 25 and 27, finding 9): a stored match whose names
    it refuses would no longer replay, nor could it be renamed; m011 repairs them."""
    path = tmp_path / "before-m011.sqlite"
    db = store.Database(str(path))
    store.migrations.apply(db, stop_before="m011_names_under_the_new_rule")
    db.close()
    conn = sqlite3.connect(path)
    store_old_way(conn, with_derived=False)
    stored = {1: ["Ann", "B\u202eob", "Cy"], 3: ["\u2800\u2800", "Bob"], 4: ["Ann", "Bob", "Ann \u200b"]}
    # match 2 keeps its names: a name the rule allows is not touched (a joiner inside an emoji)
    emoji = ["\U0001f469\u200d\U0001f4bb", "Zo\u00eb", "Cy"]
    stored[2] = emoji
    for match_id, players in stored.items():
        count = len(json.loads(conn.execute("select players from matches where id = ?", [match_id]).fetchone()[0]))
        players = (players + ["Dee", "Eve", "Fay"])[:count]
        stored[match_id] = players
        conn.execute("update matches set players = ? where id = ?", [json.dumps(players), match_id])
    conn.commit()
    conn.close()
    db = store.connect(str(path))
    try:
        names = {row[0]: json.loads(row[1]) for row in db.execute("select id, players from matches")}
        assert names[1] == ["Ann", "Bob", "Cy"]  # the override taken out
        assert names[2] == stored[2]
        assert names[3] == ["Player 1", "Bob"]  # blank braille only: empty
        assert names[4][:3] == ["Ann", "Bob", "Ann (3)"]  # the duplicate named by its seat
        for match_id in (1, 3, 4):  # each replays again, and its log says what changed
            assert store.all_matches(db) and db.execute(
                "select count(*) from match_players where match_id = ?", [match_id]).fetchone()[0] == len(names[match_id])
            entry = db.execute("select action, before, after from audit where match_id = ? order by id desc limit 1",
                               [match_id]).fetchone()
            assert entry[0] == "setup" and json.loads(entry[1])["players"] == stored[match_id]
            assert json.loads(entry[2])["players"] == names[match_id]
        assert db.execute("select count(*) from audit where match_id = 2").fetchone()[0] == 1
    finally:
        db.close()
