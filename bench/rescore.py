"""Re-scoring speed: every edit re-scores the whole match, so this must stay
linear in the number of hands. Prints, per game and match length, the best of
several runs of ``engine.replay`` (its CPU time: on a shared machine the wall time is
mostly other people's work) and the hands re-scored per second.

    .venv/bin/python bench/rescore.py [--sizes 1000] [--markdown docs/performance.md]
"""
from __future__ import annotations

import argparse
import datetime
import os
import time
from pathlib import Path

from scorekeeper.engine import replay
from scorekeeper.games import GAMES
from scorekeeper.samples import long_match

SIZES = (100, 1_000, 10_000)


def best_seconds(match, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        replay(match)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs (the test suite does this)")
    parser.add_argument("--markdown", help="also write the figures to this file, as a section of Markdown")
    parser.add_argument("--sizes", type=int, nargs="+", help="these match lengths only (to compare two codes "
                                                             "at one length, taking turns)")
    args = parser.parse_args()
    sizes = (20, 50) if args.smoke else tuple(args.sizes) if args.sizes else SIZES
    load = os.getloadavg()[0]
    print(f"{'game':<14}{'hands':>8}{'ms':>10}{'hands/s':>12}{'ms/1000 hands':>15}")
    rows = []
    for key in GAMES:
        for size in sizes:
            if GAMES[key].long_match(size, GAMES[key].sample_players) is None:
                print(f"{key:<14}{size:>8}{'(no match this long)':>37}")  # the game says it plays fewer
                continue
            match = long_match(key, size, seed=size)
            assert len(replay(match).hands) == size, "the benchmark match ended early"
            seconds = best_seconds(match, repeats=15 if size < 10_000 else 3)
            rows.append((key, size, seconds))
            print(f"{key:<14}{size:>8}{seconds * 1000:>10.2f}{size / seconds:>12,.0f}{seconds * 1e6 / size:>15.2f}")
    print(f"load average (1 min) before: {load:.1f}, after: {os.getloadavg()[0]:.1f}")
    if args.markdown:
        from report import commit, machine, write_section

        when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
        head = "| game | " + " | ".join(f"{size:,} hands" for size in sizes) + " | hands/s |"
        lines = [head, "|---" * (len(sizes) + 2) + "|"]
        for key in dict.fromkeys(key for key, _, _ in rows):
            mine = [(size, seconds) for k, size, seconds in rows if k == key]
            lines.append(f"| {key} | " + " | ".join(f"{seconds * 1000:.1f} ms" for _, seconds in mine)
                         + f" | {mine[-1][0] / mine[-1][1]:,.0f} |")
        text = (f"### Replaying a match (`bench/rescore.py`)\n\nMeasured {when}, commit {commit()}, {machine()}, "
                f"load average {load:.1f} before the run; the best CPU time of 15 replays (3 of 10,000 hands).\n\n"
                + "\n".join(lines) + "\n")
        write_section(Path(args.markdown), "rescore", text)


if __name__ == "__main__":
    main()
