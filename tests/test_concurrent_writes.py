"""Writes queue, never fail: many phones starting matches at once, and many
writers on one match, on a real SQLite file with a connection each (as the
server's threads have). Before writes began as writers, these failed with
"database is locked"."""
from __future__ import annotations

import threading

from scorekeeper import store
from scorekeeper.engine import Match
from scorekeeper.samples import long_settings

WHEEL = {"trump": "wyrms", "mode": "high", "wheel": False, "bid": 5, "tricks": [5, 4, 2]}


def run_together(count: int, work) -> list[BaseException]:
    barrier, errors = threading.Barrier(count), []

    def one(i: int) -> None:
        try:
            barrier.wait()
            work(i)
        except BaseException as error:  # collected: the test shows every failure
            errors.append(error)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def test_eight_phones_starting_matches_at_once_all_succeed(tmp_path):
    path = str(tmp_path / "db.sqlite")
    store.connect(path).close()

    def start(i: int) -> None:
        db = store.connect(path, migrate=False)
        try:
            for _ in range(5):
                store.create_match(db, Match("third_wheel", [f"A{i}", f"B{i}", f"C{i}"], hands=[WHEEL] * 3))
        finally:
            db.close()

    assert run_together(8, start) == []
    db = store.connect(path, migrate=False)
    assert len(store.all_matches(db)) == 40


def test_twenty_writers_on_one_match_save_or_are_told_it_changed(tmp_path):
    path = str(tmp_path / "db.sqlite")
    db = store.connect(path)
    match_id = store.create_match(db, Match("third_wheel", ["Ann", "Bob", "Cy"], long_settings("third_wheel", 1000)))
    db.close()
    outcomes: list[str] = []

    def save(i: int) -> None:
        db = store.connect(path, migrate=False)
        try:
            store.add_hand(db, match_id, WHEEL, expected_version=1, request_key=f"writer-{i:02d}-key")
            outcomes.append("saved")
        except store.StaleVersion:
            outcomes.append("stale")  # another phone saved first: answered as today
        finally:
            db.close()

    assert run_together(20, save) == []
    assert outcomes.count("saved") == 1 and outcomes.count("stale") == 19
    db = store.connect(path, migrate=False)
    assert len(store.get_record(db, match_id).match.hands) == 1
