"""Re-scoring speed: every edit re-scores the whole match, so this must stay
linear in the number of hands. Prints, per game and match length, the best of
several runs of ``engine.replay`` and the hands re-scored per second.

    .venv/bin/python bench/rescore.py
"""
from __future__ import annotations

import argparse
import time

from scorekeeper.engine import replay
from scorekeeper.games import GAMES
from scorekeeper.samples import long_match

SIZES = (100, 1_000, 10_000)


def best_seconds(match, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        replay(match)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs (the test suite does this)")
    sizes = (20, 50) if parser.parse_args().smoke else SIZES
    print(f"{'game':<14}{'hands':>8}{'ms':>10}{'hands/s':>12}{'ms/1000 hands':>15}")
    for key in GAMES:
        for size in sizes:
            if GAMES[key].long_match(size, GAMES[key].sample_players) is None:
                print(f"{key:<14}{size:>8}{'(no match this long)':>37}")  # the game says it plays fewer
                continue
            match = long_match(key, size, seed=size)
            assert len(replay(match).hands) == size, "the benchmark match ended early"
            seconds = best_seconds(match, repeats=7 if size < 10_000 else 3)
            print(f"{key:<14}{size:>8}{seconds * 1000:>10.2f}{size / seconds:>12,.0f}{seconds * 1e6 / size:>15.2f}")


if __name__ == "__main__":
    main()
