"""What one saved hand costs the server, early and late in a long match.

    .venv/bin/python bench/save_cost.py [--at 10 100 300] [--saves 30] [--markdown docs/performance.md]

Builds one Third Wheel match (valid hands from scorekeeper.samples, settings
that never end it) in a temporary database, then at each point in the match
loads the match page once (as the phone showing it did), types the next
``--saves`` hands' forms, then saves them one after another through the
Flask test client exactly as htmx sends the
form: HX-Request header, the form's fields, the match version and a fresh
request key (CSRF off). Prints, per point, the server's CPU per save: the app's
(``time.process_time()`` around the WSGI call: routing, the view, the store,
the answer; what a save costs whatever serves it) and the whole POST's (the
test client's encoding and decoding added; the test client runs the app in
this process), the part of it spent in the store's write (``store.add_hand``:
the transaction, the engine's check, the derived rows), the wall time, and the
bytes of the answer; then hand N / hand 10 and the machine's load average (CPU
time is what to compare on a shared machine; wall time moves with the load).
Nothing is asserted.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from report import measured, table, write_section
from saving import first_hands, form_data, save, scoring

from scorekeeper import store
from scorekeeper.samples import long_match
from scorekeeper.web import create_app

GAME = "third_wheel"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--at", type=int, nargs="+", default=[10, 100, 300])
    parser.add_argument("--saves", type=int, default=30)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs (the test suite does this)")
    parser.add_argument("--markdown", help="also write the figures to this file, as a section of Markdown")
    args = parser.parse_args()
    if args.smoke:
        args.at, args.saves = [3, 6], 2
    load = os.getloadavg()[0]
    most = max(args.at) + args.saves
    in_store: list[float] = []
    in_app: list[float] = []
    real_add_hand = store.add_hand

    def timed_add_hand(*a, **k):  # the store's part of a save, CPU seconds
        start = time.process_time()
        try:
            return real_add_hand(*a, **k)
        finally:
            in_store.append(time.process_time() - start)

    store.add_hand = timed_add_hand  # the views call store.add_hand through the package
    sample = long_match(GAME, most, seed=8)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "bench.sqlite"), "WTF_CSRF_ENABLED": False,
                          "SECRET_KEY": "bench"})
        served = app.wsgi_app

        def timed_app(environ, start_response):  # the app's part of a POST, CPU seconds
            start = time.process_time()
            try:
                return served(environ, start_response)
            finally:
                in_app.append(time.process_time() - start)

        app.wsgi_app = timed_app
        client = app.test_client()
        for at in args.at:
            match_id, version = scoring(app, client, first_hands(sample, at - 1))
            cpu, wall, size = [], [], []
            in_store.clear()
            in_app.clear()
            # every form is typed before the first save: making one replays the whole match
            # here, in the bench, and that replay between two saves left the next save's
            # caches cold (more so the longer the match), which is no cost of the app's
            forms = []
            for number in range(at, at + args.saves):
                with app.test_request_context():
                    forms.append(form_data(first_hands(sample, number - 1), sample.hands[number - 1]))
            for number, data in zip(range(at, at + args.saves), forms):
                data.update(version=str(version), request_key=uuid.uuid4().hex)
                start, started = time.process_time(), time.perf_counter()
                response = save(client, match_id, data)
                cpu.append(time.process_time() - start)
                wall.append(time.perf_counter() - started)
                body = response.get_data()
                if response.status_code != 200 or f"Hand {number} saved".encode() not in body:
                    sys.exit(f"hand {number} was not saved: {response.status_code} {body[:3000]!r}")
                size.append(len(body))
                version += 1
            rows.append((at, statistics.median(in_app[-args.saves:]) * 1000, statistics.median(cpu) * 1000,
                         statistics.median(in_store) * 1000, statistics.median(wall) * 1000, statistics.mean(size)))
    print(f"{'hand':>6} {'app CPU ms/save':>16} {'whole POST':>11} {'of which store':>15} {'wall ms':>8} "
          f"{'bytes/answer':>13}   (medians)")
    for at, app_ms, ms, store_ms, wall_ms, size in rows:
        print(f"{at:>6} {app_ms:>16.2f} {ms:>11.2f} {store_ms:>15.2f} {wall_ms:>8.2f} {size:>13.0f}")
    first, last = rows[0], rows[-1]
    print(f"hand {last[0]} / hand {first[0]}: app CPU x{last[1] / first[1]:.2f}, whole POST x{last[2] / first[2]:.2f}, "
          f"store x{last[3] / first[3]:.2f}, bytes x{last[5] / first[5]:.2f}")
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    if args.markdown:
        write_section(Path(args.markdown), "save_cost", (
            f"### What a save costs (`bench/save_cost.py`)\n\n{measured(load)}; one Third Wheel match, "
            f"{args.saves} saves at each point as htmx sends them (the Flask test client, CSRF off), medians.\n\n"
            + table(["at hand", "app CPU / save", "whole POST", "of which the store", "bytes / answer"],
                    [[f"{at:,}", f"{app_ms:.2f} ms", f"{ms:.2f} ms", f"{store_ms:.2f} ms", f"{size:,.0f}"]
                     for at, app_ms, ms, store_ms, _, size in rows])
            + f"\nHand {last[0]:,} costs {last[1] / first[1]:.2f} x hand {first[0]:,} of the app's CPU.\n"))


if __name__ == "__main__":
    main()
