"""What the home page (a phone's history) costs the server with a big history.

    .venv/bin/python bench/history.py [--matches 3000] [--long 100] [--hands 1000] [--requests 50]

Fills a temporary database with ``--matches`` short Third Wheel matches (0 to 5 hands)
and ``--long`` matches of ``--hands`` hands each (valid hands from scorekeeper.samples),
all in one device's history, then asks for the home page through the Flask test client
with that device's cookie: the first page, a page deep in the list, and a search by a
player's name. Prints the server time per request (median and 95th percentile, wall
clock around each GET; the test client runs the app in this process) and the page size.
Nothing is asserted.
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
from scorekeeper.engine import Match
from scorekeeper.samples import long_match
from scorekeeper.web import create_app

COOKIE = "bench-device-cookie-0123456789"


def fill(database: str, matches: int, long: int, hands: int) -> None:
    db = store.connect(database)
    device = store.device_key(COOKIE)
    short = long_match("third_wheel", 5, seed=3)
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal", "Ivy"]
    for i in range(matches):
        players = [names[i % 9], names[(i + 1) % 9], f"Guest {i}"]
        store.create_match(db, Match(game="third_wheel", players=players, settings=short.settings,
                                     hands=short.hands[:i % 6], date=f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}"),
                           device=device)
    sample = long_match("third_wheel", hands, seed=4)
    for _ in range(long):
        store.create_match(db, Match(game="third_wheel", players=sample.players, settings=sample.settings,
                                     first_dealer=sample.first_dealer, hands=sample.hands), device=device)
    db.close()


def measure(client, query: dict, requests: int) -> tuple[float, float, int]:
    times, size = [], 0
    for _ in range(requests):
        started = time.perf_counter()
        response = client.get("/", query_string=query)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
        size = len(response.data)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1], size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3000)
    parser.add_argument("--long", type=int, default=100)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs (the test suite does this)")
    parser.add_argument("--markdown", help="also write the figures to this file, as a section of Markdown")
    args = parser.parse_args()
    if args.smoke:
        args.matches, args.long, args.hands, args.requests = 20, 2, 30, 2
    load = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        database = str(Path(folder) / "bench.sqlite")
        started = time.perf_counter()
        fill(database, args.matches, args.long, args.hands)
        print(f"filled {args.matches} matches + {args.long} of {args.hands} hands "
              f"in {time.perf_counter() - started:.0f} s")
        app = create_app({"DATABASE": database, "SECRET_KEY": "bench"})
        client = app.test_client()
        client.set_cookie("scorekeeper_device", COOKIE)
        total = args.matches + args.long
        print(f"{'home page':<28} {'median ms':>10} {'p95 ms':>8} {'KB':>6}")
        for label, query in (("first page", {}), ("page 100", {"page": "100"}), ("search 'dee'", {"q": "dee"}),
                             ("search, page 10", {"q": "dee", "page": "10"})):
            median, p95, size = measure(client, query, args.requests)
            print(f"{label:<28} {median:>10.1f} {p95:>8.1f} {size / 1024:>6.1f}")
            rows.append([label, f"{median:.1f} ms", f"{p95:.1f} ms"])
        print(f"({total} matches in this device's history, 20 a page)")
    if args.markdown:
        write_section(Path(args.markdown), "history", (
            f"### The history's home page (`bench/history.py`)\n\n{measured(load)}; one phone's history of "
            f"{args.matches:,} short matches and {args.long} of {args.hands:,} hands, 20 a page, through the Flask "
            f"test client (no network), {args.requests} requests each.\n\n"
            + table([f"home page ({total:,} matches)", "median", "p95"], rows)))


if __name__ == "__main__":
    main()
