"""What the most expensive GETs cost the real server on the largest history one phone can hold.

    .venv/bin/python bench/long_matches.py [--matches 50] [--hands 1000] [--seats 8] [--repeat 3]

Fills a temporary database with ``--matches`` score pads of ``--hands`` hands for
``--seats`` players with 40-character names, all dated one day and all in one phone's
history (what one phone may import within the limits: 50 of 1,000 hands), starts
``scorekeeper serve`` on it over loopback and asks for each page below with that phone's
cookie and ``Accept-Encoding: gzip``, one at a time. For each it prints the server
process's CPU time across the GET (utime + stime from /proc/<pid>/stat), its peak memory
above what it held before (VmHWM, reset through /proc/<pid>/clear_refs, minus VmRSS) and
the bytes sent: the median of ``--repeat`` runs. Then the machine's load average. Nothing
is asserted (tests/test_long_matches.py holds the bounds).
"""
from __future__ import annotations

import argparse
import http.client
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from report import measured, table, write_section

from scorekeeper import store
from scorekeeper.engine import Match
from scorekeeper.samples import long_settings, random_match
from scorekeeper.web.views.exports import PART_HANDS

SCOREKEEPER = str(Path(sys.executable).with_name("scorekeeper"))
COOKIE = "bench-device-cookie-0123456789"
DAY = "2026-11-20"


def names(seats: int) -> list[str]:
    return [f"{name} " + "x" * (39 - len(name)) for name in random_match("score_pad", 0, players=seats).players]


def fill(database: Path, matches: int, hands: int, seats: int) -> None:
    db = store.connect(str(database))
    device = store.device_key(COOKIE)
    sample = random_match("score_pad", hands, seed=5, players=seats, settings=long_settings("score_pad", 10_000))
    for _ in range(matches):
        store.create_match(db, Match(game="score_pad", players=names(seats), settings=sample.settings,
                                     first_dealer=sample.first_dealer, hands=sample.hands, date=DAY), device=device)
    db.close()


def pages(matches: int, hands: int, seats: int) -> list[tuple[str, str]]:
    player = quote(names(seats)[0])
    parts = -(-matches // max(1, PART_HANDS // hands))  # a day's print holds whole matches, PART_HANDS hands a part
    figures = f"/stats/hands?player={player}&game=score_pad&figure="
    return [
        ("a day's print, part 1", f"/print?date={DAY}"),
        ("a day's print, last part, no explanations", f"/print?date={DAY}&part={parts}&appendix=off"),
        ("every match by id, part 1", "/print?" + "&".join(f"match={n}" for n in range(1, min(matches, 50) + 1))),
        ("one match's print", "/matches/1/print"),
        ("the match page", "/matches/1"),
        ("the watcher's board", "/matches/1/board"),
        ("the scorer's poll", "/matches/1/live"),
        ("earlier hands, page 1", "/matches/1/hands?page=1"),
        ("the big screen", "/matches/1/screen"),
        ("the match log", "/matches/1/log"),
        ("the chart", "/matches/1/chart"),
        ("CSV export", "/matches/1/export.csv"),
        ("history export", "/history/export.json"),
        ("stats: matches played", figures + "played"),
        ("stats: best hand, page 1", figures + "best_hand"),
        ("a player's stats", f"/stats?player={player}"),
        ("the history", "/"),
    ]


class Server:
    def __init__(self, database: Path):
        port = socket.socket()
        port.bind(("127.0.0.1", 0))
        self.port = port.getsockname()[1]
        port.close()
        env = dict(os.environ, SCOREKEEPER_DATABASE=str(database), SCOREKEEPER_SECRET_KEY="bench",
                   SCOREKEEPER_HEAVY_READS_PER_MINUTE="1000000")
        self.process = subprocess.Popen([SCOREKEEPER, "serve", "--host", "127.0.0.1", "--port", str(self.port)],
                                        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("scorekeeper serve did not start") from None
                time.sleep(0.05)

    def cpu(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def memory(self, field: str) -> float:
        found = re.search(rf"^{field}:\s+(\d+) kB", Path(f"/proc/{self.process.pid}/status").read_text(), re.M)
        return int(found.group(1)) / 1024 if found else 0.0

    def get(self, path: str) -> tuple[int, float, float, int]:
        Path(f"/proc/{self.process.pid}/clear_refs").write_text("5")
        rss, cpu = self.memory("VmRSS"), self.cpu()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        connection.request("GET", path, headers={"Cookie": f"scorekeeper_device={COOKIE}", "Accept-Encoding": "gzip"})
        response = connection.getresponse()
        size = len(response.read())
        connection.close()
        return response.status, self.cpu() - cpu, max(0.0, self.memory("VmHWM") - rss), size

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs (the test suite does this)")
    parser.add_argument("--markdown", help="also write the figures to this file, as a section of Markdown")
    args = parser.parse_args()
    if args.smoke:
        args.matches, args.hands, args.seats, args.repeat = 3, 60, 3, 1
    load = os.getloadavg()[0]
    rows = []
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-long-"))
    try:
        started = time.perf_counter()
        fill(workdir / "long.sqlite", args.matches, args.hands, args.seats)
        print(f"{args.matches} score pads of {args.hands} hands for {args.seats} players, one day, one phone "
              f"(filled in {time.perf_counter() - started:.1f} s)")
        server = Server(workdir / "long.sqlite")
        try:
            server.get("/")  # what every request shares is loaded once
            print(f"{'GET':45} {'status':>6} {'CPU s':>7} {'+MiB':>7} {'bytes':>10}")
            for label, path in pages(args.matches, args.hands, args.seats):
                runs = [server.get(path) for _ in range(args.repeat)]
                status = runs[-1][0]
                cpu = statistics.median(run[1] for run in runs)
                extra = statistics.median(run[2] for run in runs)
                print(f"{label:45} {status:>6} {cpu:7.2f} {extra:7.1f} {runs[-1][3]:>10,}")
                rows.append([label, f"{cpu:.2f}", f"{extra:.1f}", f"{runs[-1][3]:,}"])
        finally:
            server.stop()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    one, five, fifteen = os.getloadavg()
    print(f"load average (1, 5, 15 min): {one:.2f}, {five:.2f}, {fifteen:.2f}")
    if args.markdown:
        write_section(Path(args.markdown), "long_matches", (
            f"### Long matches (`bench/long_matches.py`)\n\n{measured(load)} (1 min; {one:.1f} after); "
            f"{args.matches} score pads of {args.hands:,} hands for {args.seats} players with 40-character names, "
            f"all on one day, one phone's; the real `scorekeeper serve`, `Accept-Encoding: gzip`, the median of "
            f"{args.repeat} GETs each.\n\n" + table(["GET", "CPU s", "+ MiB", "bytes sent (gzip)"], rows)))


if __name__ == "__main__":
    main()
