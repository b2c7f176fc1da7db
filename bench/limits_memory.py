"""What the rate limits hold in memory per address (the default ``memory://`` storage).

    .venv/bin/python bench/limits_memory.py [--addresses 500]

Counts, through the app's own ``Limits`` (``scorekeeper.web.edges.security``), what each of
``--addresses`` addresses does in one of these ways, and measures with ``tracemalloc`` the
memory the storage holds afterwards, per address:

- one start: a phone starts one match (one entry in the minute's and the hour's window);
- a table's evening: 10 starts, 120 saves and one new phone within a minute;
- one history file: a file of 2,000 matches imported (one entry, counted 2,000 times);
- 600 starts in an hour: the most starts one address can make in an hour at 10 a minute
  (the minute's limit is lifted here, to make them at once), each its own entry of the
  hour's window: the most the hourly window can hold for one address;
- every limit full: 10 starts, 1,990 matches imported, 120 saves and 30 new phones.

The minute's entries go a minute after they were counted; the hour's stay the hour (the
sweep drops an address once all of its entries have expired). Nothing is asserted.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from report import measured, table, write_section

from scorekeeper.web import create_app
from scorekeeper.web.edges.ratelimits import Limits


def one_start(limits: Limits, address: str) -> None:
    limits.take(address, {"match": 1, "match_hour": 1})


def evening(limits: Limits, address: str) -> None:
    for _ in range(10):
        limits.take(address, {"match": 1, "match_hour": 1})
    for _ in range(120):
        limits.take(address, {"write": 1})
    limits.take(address, {"device": 1})


def history_file(limits: Limits, address: str) -> None:
    limits.take(address, {"match": 1})
    limits.take(address, {"match_hour": 2000})


def starts_in_an_hour(limits: Limits, address: str) -> None:
    for _ in range(600):
        limits.take(address, {"match": 1, "match_hour": 1})


def every_limit(limits: Limits, address: str) -> None:
    evening(limits, address)
    limits.take(address, {"match_hour": 1990})
    for _ in range(29):
        limits.take(address, {"device": 1})


WAYS: list[tuple[str, Callable[[Limits, str], None], dict]] = [
    ("one start", one_start, {}),
    ("a table's evening", evening, {}),
    ("one history file", history_file, {}),
    ("600 starts in an hour", starts_in_an_hour, {"MATCHES_PER_MINUTE": 10**6}),
    ("every limit full", every_limit, {}),
]


def measure(addresses: int, way: Callable[[Limits, str], None], config: dict) -> float:
    """Bytes the storage holds per address once ``addresses`` did ``way``."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "DATABASE": str(Path(folder) / "db.sqlite"), "SECRET_KEY": "bench",
                          **config})
        limits: Limits = app.extensions["scorekeeper.limits"]
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for i in range(addresses):
            way(limits, f"10.{i >> 16}.{(i >> 8) & 255}.{i & 255}")
        held = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        return held / addresses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--addresses", type=int, default=500)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, for the test suite")
    parser.add_argument("--markdown", help="also write the figures to this file, as a section of Markdown")
    args = parser.parse_args()
    addresses = 20 if args.smoke else args.addresses
    load = os.getloadavg()[0]
    print(f"{addresses:,} addresses; memory held per address (tracemalloc)")
    print(f"{'what each address did':<24}{'KiB':>8}")
    rows = []
    for label, way, config in WAYS:
        kib = measure(addresses, way, config) / 1024
        print(f"{label:<24}{kib:>8.1f}")
        rows.append([label, f"{kib:.1f}"])
    if args.markdown:
        write_section(Path(args.markdown), "limits_memory", (
            f"### The limiter's memory (`bench/limits_memory.py`)\n\n{measured(load)}; {addresses:,} addresses, "
            "what the default `memory://` storage holds afterwards, per address (`tracemalloc`).\n\n"
            + table(["what each address did", "KiB per address"], rows)))


if __name__ == "__main__":
    main()
