"""What the stats pages cost the server with 1,000 matches in a phone's history.

    .venv/bin/python bench/stats.py [--matches 1000] [--hands 20] [--requests 30]

Fills a temporary database with ``--matches`` matches (the four games in turn, default
settings, up to ``--hands`` random valid hands each from scorekeeper.samples, so most are
finished), all in one device's history and all with Ann at the table, then asks through the
Flask test client with that device's cookie for: the player list, Ann's stats page (she is
in every match), the hands behind one figure, and head-to-head Ann v Bob. Prints the server
time per request (median and 95th percentile, wall clock around each GET; the test client
runs the app in this process). Nothing is asserted.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from report import measured, table, write_section

from scorekeeper import store
from scorekeeper.games import GAMES
from scorekeeper.samples import random_match
from scorekeeper.web import create_app

COOKIE = "bench-device-cookie-0123456789"


def fill(database: str, matches: int, hands: int) -> None:
    db = store.connect(database)
    device = store.device_key(COOKIE)
    games = list(GAMES)
    for i in range(matches):
        match = random_match(games[i % len(games)], hands, seed=i)
        match.date = f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}"
        store.create_match(db, match, device=device)
    db.close()


def measure(client, url: str, query: dict, requests: int) -> tuple[float, float, int]:
    times, size = [], 0
    for _ in range(requests):
        started = time.perf_counter()
        response = client.get(url, query_string=query)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.status_code
        size = len(response.data)
    times.sort()
    return statistics.median(times), times[max(0, int(len(times) * 0.95) - 1)], size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs (the test suite does this)")
    parser.add_argument("--markdown", help="also write the figures to this file, as a section of Markdown")
    args = parser.parse_args()
    if args.smoke:
        args.matches, args.hands, args.requests = 8, 5, 2
    load = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        database = str(Path(folder) / "bench.sqlite")
        started = time.perf_counter()
        fill(database, args.matches, args.hands)
        print(f"filled {args.matches} matches of up to {args.hands} hands in {time.perf_counter() - started:.0f} s")
        app = create_app({"DATABASE": database, "SECRET_KEY": "bench"})
        client = app.test_client()
        client.set_cookie("scorekeeper_device", COOKIE)
        print(f"{'page':<34} {'median ms':>10} {'p95 ms':>8} {'KB':>6}")
        game = next(iter(GAMES))
        figure = GAMES[game].stats.figures[0].key
        for label, url, query in (
                ("player list", "/players", {}),
                ("Ann's stats", "/stats", {"player": "Ann"}),
                ("the hands behind a figure", "/stats/hands", {"player": "Ann", "game": game, "figure": figure}),
                ("head-to-head Ann v Bob", "/stats/versus", {"player": "Ann", "other": "Bob"})):
            median, p95, size = measure(client, url, query, args.requests)
            print(f"{label:<34} {median:>10.1f} {p95:>8.1f} {size / 1024:>6.1f}")
            rows.append([label, f"{median:.1f} ms", f"{p95:.1f} ms"])
        print(f"({args.matches} matches in this device's history, Ann in all of them)")
        # the upload limit's figure in docs/match-file.md: how big this history is as the export writes it
        exported = client.get("/history/export.json").get_data()
        print(f"the history export: {len(exported):,} bytes, {len(exported) // args.matches:,} a match")
    if args.markdown:
        write_section(Path(args.markdown), "stats", (
            f"### Stats pages (`bench/stats.py`)\n\n{measured(load)}; one phone's history of {args.matches:,} "
            f"matches (the games in turn, up to {args.hands} random hands each, Ann in every one), through the "
            f"Flask test client (no network), {args.requests} requests each.\n\n"
            + table(["page", "median", "p95"], rows)))


if __name__ == "__main__":
    main()
