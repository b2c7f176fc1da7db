"""A table's watchers after a save, with one worker and with two: the CPU of their changed polls.

    .venv/bin/python bench/board_sharing.py [--matches 200] [--runs 3] [--markdown docs/performance.md]

Each of ``--matches`` tables (a Third Wheel match, its scorer and four watchers) saves a hand
through the app, then its four watchers poll their boards, each one version behind, as they do
within 3 s of a save. With ``serve --workers 2`` the kernel spreads the phones' connections over
the two processes, and each process has its own app: its own board cache. Three ways, each in
this one Python process with the apps ``serve`` would make (no network, so only the app's own
work is counted):

- one worker: every watcher asks the one app;
- two workers, each drawing its own boards: two watchers ask each app (``RATELIMIT_STORAGE_URI``
  in memory, as before boards were shared);
- two workers sharing boards through the Redis of their limits (``sharing.SharedBoards``, a real
  ``redis-server`` on a free port).

Prints, for each, the CPU of the four watchers' polls after a save (``time.process_time``, the
best of ``--runs`` rounds over every table) and how many boards the apps drew a save. So many
tables that the replay cache (64 entries) no longer holds a table's match when it saves again,
as on a server with thousands of tables.
"""
from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from report import measured, table, write_section
from tables import start_redis

from scorekeeper import store
from scorekeeper.engine import Match
from scorekeeper.samples import long_settings
from scorekeeper.store.devices import grant_in
from scorekeeper.web import create_app

HANDS = [{"trump": "wyrms", "mode": "high", "bid": "5", "tricks_0": "5", "tricks_1": "6", "tricks_2": "0"},
         {"trump": "moons", "mode": "low", "bid": "3", "tricks_0": "3", "tricks_1": "8", "tricks_2": "0"},
         {"trump": "knots", "mode": "high", "bid": "7", "tricks_0": "7", "tricks_1": "4", "tricks_2": "0"}]
WATCHERS = 4


def make_tables(database: Path, count: int) -> list[int]:
    db = store.connect(str(database))
    try:
        matches = []
        for n in range(count):
            match_id = store.create_match(db, Match(game="third_wheel", players=["Ann", "Bob", "Cy"],
                                                    settings=long_settings("third_wheel", 10_000)))
            with store.writing(db):
                grant_in(db, store.device_key(scorer(n)), match_id, score=True, how="bench")
                for w in range(WATCHERS):
                    grant_in(db, store.device_key(watcher(n, w)), match_id, watch=True, how="bench")
            matches.append(match_id)
        return matches
    finally:
        db.close()


def scorer(n: int) -> str:
    return f"scorer{n:026d}"


def watcher(n: int, w: int) -> str:
    return f"watcher{w}{n:024d}"


class Tables:
    """The tables' phones, asking the apps of one way of serving."""

    def __init__(self, database: Path, matches: list[int], storage: str, apps: int):
        config = {"DATABASE": str(database), "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                  "WRITES_PER_MINUTE": 10**9, "RATELIMIT_STORAGE_URI": storage}
        self.apps = [create_app(config) for _ in range(apps)]
        self.clients = [app.test_client() for app in self.apps]
        self.database, self.matches, self.saves = database, matches, 0

    def save(self, n: int) -> int:
        """Table ``n``'s scorer saves its next hand through the first app; the version before it."""
        db = store.connect(str(self.database), migrate=False)
        try:
            version = store.get_version(db, self.matches[n])
        finally:
            db.close()
        client = self.clients[0]
        client.set_cookie("scorekeeper_device", scorer(n))
        self.saves += 1
        answer = client.post(f"/matches/{self.matches[n]}/hands", headers={"HX-Request": "true"},
                             data=dict(HANDS[self.saves % len(HANDS)], version=str(version),
                                       request_key=f"bench{self.saves:020d}"))
        assert answer.status_code == 200, answer.status_code
        return version

    def watch(self, n: int, seen: int) -> None:
        """Table ``n``'s watchers poll their boards drawn at ``seen``, spread over the apps."""
        for w in range(WATCHERS):
            client = self.clients[w % len(self.clients)]
            client.set_cookie("scorekeeper_device", watcher(n, w))
            answer = client.get(f"/matches/{self.matches[n]}/board",
                                headers={"If-None-Match": f'W/"v{seen}"', "HX-Request": "true"})
            assert answer.status_code == 200, answer.status_code
            answer.close()

    def drawn(self) -> int:
        return sum(app.extensions["scorekeeper.boards"].rendered for app in self.apps)

    def round(self) -> tuple[float, float]:
        """Every table saves once and is watched: ms of CPU of the watchers' polls a save, boards drawn a save."""
        spent, drawn = 0.0, self.drawn()
        for n in range(len(self.matches)):
            seen = self.save(n)
            began = time.process_time()
            self.watch(n, seen)
            spent += time.process_time() - began
        return spent / len(self.matches) * 1000, (self.drawn() - drawn) / len(self.matches)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=200, help="tables, each saving once a round")
    parser.add_argument("--runs", type=int, default=3, help="rounds measured (the best is printed)")
    parser.add_argument("--markdown", help="also write the figures to this file, as a section of Markdown")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs")
    args = parser.parse_args()
    if args.smoke:
        args.matches, args.runs = 4, 1
    load = os.getloadavg()[0]
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-boards-"))
    redis = None
    try:
        redis, redis_url = start_redis(folder)
        ways = (("one worker", "memory://", 1), ("two workers, each drawing its own", "memory://", 2),
                ("two workers sharing boards (Redis)", redis_url, 2))
        print(f"{'the watchers of a table that saved':<40}{'ms CPU a save':>14}{'boards drawn a save':>21}")
        rows = []
        for label, storage, apps in ways:
            database = folder / f"boards-{apps}-{storage.split(':')[0]}.sqlite"
            tables = Tables(database, make_tables(database, args.matches), storage, apps)
            tables.round()  # a first hand at every table: the board's parts need one before them
            figures = [tables.round() for _ in range(args.runs)]
            best = min(cpu for cpu, _ in figures)
            drawn = figures[-1][1]
            print(f"{label:<40}{best:>14.2f}{drawn:>21.2f}")
            rows.append([label, f"{best:.2f} ms", f"{drawn:.2f}"])
        print(f"load average (1 min): {os.getloadavg()[0]:.1f}")
    finally:
        if redis is not None:
            redis.terminate()
            redis.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
    if args.markdown:
        write_section(Path(args.markdown), "board_sharing", (
            f"### A table's watchers after a save, by workers (`bench/board_sharing.py`)\n\n{measured(load)}; "
            f"{args.matches} tables each saving a hand through the app, then its {WATCHERS} watchers polling their "
            f"boards one version behind (two of them on each app with two workers); the best of {args.runs} rounds, "
            "through Flask's test client, no network.\n\n"
            + table(["the watchers of a table that saved", "CPU a save", "boards drawn a save"], rows)))


if __name__ == "__main__":
    main()
