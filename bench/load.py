"""Load: scorers saving hands and watchers polling, against the real
``scorekeeper serve`` on a temporary database, over loopback only. Starts the
server itself, runs for a fixed time and stops by itself.

    .venv/bin/python bench/load.py [--scorers 50] [--watchers 200] [--seconds 25]
                                   [--save-every 5] [--poll-every 3]

Each scorer has its own match and its own session (it opens the match's scorer
link, then saves a hand every ``--save-every`` seconds with the form's CSRF
token, version and a fresh request key, as htmx does: the answer is the
re-rendered scoreboard). Four watchers follow each match: each polls the
scoreboard every 3 s with the ETag it last saw, as the watcher page does; a
poll with nothing new answers 304. A bounded pool of client
threads, each with one keep-alive connection, runs every user's requests on
schedule. Prints requests/s, p50/p95/p99 latency per kind, lateness of the
schedule, and errors.

Before the steady run, ``--starts`` phones (each with its own connection and
session) start ``--starts-each`` matches at the same moment, released together by a
barrier: the time of each start and any answer but a redirect to the new match are
reported. ``--idle`` sockets are opened first and held open, doing nothing, for the
whole run (phones that connected and went quiet).
"""
from __future__ import annotations

import argparse
import heapq
import http.client
import os
import random
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

from report import measured, table, write_section
from tables import SCOREKEEPER, free_port, stop, wait_for

from scorekeeper import store
from scorekeeper.engine import Match
from scorekeeper.games import GAMES
from scorekeeper.samples import long_settings

HANDS = [{"trump": t, "mode": m, "bid": str(b), "tricks_0": str(b), "tricks_1": str(11 - b), "tricks_2": "0"}
         for t, m, b in (("wyrms", "high", 5), ("moons", "low", 3), ("knots", "high", 7), ("suns", "low", 0))]


class Client:
    """One keep-alive connection (per worker thread)."""

    def __init__(self, port: int):
        self.port = port
        self.connection = None

    def request(self, method: str, path: str, headers: dict, body: str | None = None):
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.connection.close()
                    self.connection = None
                return response, data
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # a keep-alive connection the server closed while idle: reconnect once
                self.connection.close()
                self.connection = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


class User:
    def __init__(self, kind: str, match_id: int, every: float):
        self.kind, self.match_id, self.every = kind, match_id, every
        self.cookies: dict[str, str] = {}
        self.csrf = ""
        self.version = 0
        self.etag = ""
        self.saves = 0

    @property
    def cookie(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def remember(self, response) -> None:
        for cookie in response.msg.get_all("Set-Cookie") or []:  # the device's and the session's
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name] = value


def setup_scorer(client: Client, user: User, token: str) -> None:
    response, _ = client.request("GET", f"/s/{token}", {})
    assert response.status == 303, response.status
    user.remember(response)
    response, page = client.request("GET", f"/matches/{user.match_id}", {"Cookie": user.cookie})
    user.remember(response)
    page = page.decode()
    user.csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    user.version = int(re.search(r'id="version" name="version" type="hidden" value="(\d+)"', page).group(1))


def act(client: Client, user: User) -> tuple[str, bool]:
    """One request for this user; returns (kind measured, ok)."""
    if user.kind == "scorer":
        hand = HANDS[user.saves % len(HANDS)]
        body = urlencode(dict(hand, csrf_token=user.csrf, version=user.version, request_key=uuid.uuid4().hex))
        headers = {"Cookie": user.cookie, "Content-Type": "application/x-www-form-urlencoded",
                   "HX-Request": "true", "Accept-Encoding": "gzip"}
        response, _ = client.request("POST", f"/matches/{user.match_id}/hands", headers, body)
        user.remember(response)
        if response.status == 200:
            user.saves += 1
            user.version += 1
            return "save", True
        return "save", False
    headers = {"HX-Request": "true", "Accept-Encoding": "gzip", "Cookie": user.cookie}
    if user.etag:
        headers["If-None-Match"] = user.etag
    response, _ = client.request("GET", f"/matches/{user.match_id}/board", headers)
    if response.status == 304:
        return "poll unchanged", True
    if response.status == 200:
        user.etag = response.getheader("ETag") or ""
        return "poll changed", True
    return "poll", False


def run(args) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-load-"))
    database = workdir / "load.sqlite"
    db = store.connect(str(database))
    tokens = []
    for _ in range(args.scorers):
        match_id = store.create_match(db, Match(game="third_wheel", players=["Ann", "Bob", "Cy"],
                                                settings=long_settings("third_wheel", 1000)))
        links = store.get_tokens(db, match_id)
        tokens.append((match_id, links["scorer_token"], links["watcher_token"]))
    db.close()
    port = free_port()
    # every simulated phone comes from 127.0.0.1: the per-device write limit would count them as one
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(database), SCOREKEEPER_WRITES_PER_MINUTE="1000000", SCOREKEEPER_NEW_DEVICES_PER_MINUTE="1000000",
               SCOREKEEPER_MATCHES_PER_MINUTE="1000000", SCOREKEEPER_MATCHES_PER_HOUR="1000000")
    server = subprocess.Popen([SCOREKEEPER, "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--threads", str(args.threads)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(port, server, "scorekeeper serve")
        return drive(args, port, tokens)
    finally:
        stop(server, None)
        shutil.rmtree(workdir, ignore_errors=True)


def start_form(game: str) -> dict:
    """The new-match form as a phone sends it: names and the game's default settings."""
    data = {"game": game, "shown_game": game, "first_dealer": "0", "date": "2026-11-23",
            "player_0": "Ann", "player_1": "Bob", "player_2": "Cy"}
    for setting in GAMES[game].settings:
        if setting.kind == "table":
            data.update({f"setting_{setting.name}_{k}": str(v) for k, v in setting.default.items()})
        elif setting.kind == "bool":
            if setting.default:
                data[f"setting_{setting.name}"] = "y"
        elif setting.default is not None:
            data[f"setting_{setting.name}"] = str(setting.default)
    return data


def start_burst(port: int, phones: int, each: int) -> tuple[list[float], list[str]]:
    """``phones`` phones start ``each`` matches each, all released at the same moment."""
    times: list[float] = []
    errors: list[str] = []
    barrier = threading.Barrier(phones, timeout=60)
    lock = threading.Lock()

    def phone() -> None:
        client, user = Client(port), User("starter", 0, 0)
        response, page = client.request("GET", "/matches/new", {})
        user.remember(response)
        csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page.decode()).group(1)
        body = urlencode(dict(start_form("third_wheel"), csrf_token=csrf))
        barrier.wait()
        for _ in range(each):
            sent = time.monotonic()
            try:
                response, _ = client.request("POST", "/matches/new", {
                    "Cookie": user.cookie, "Content-Type": "application/x-www-form-urlencoded"}, body)
                user.remember(response)
                problem = None if response.status == 303 else f"start answered {response.status}"
            except Exception as error:  # a dropped connection is an error, not a crash
                problem = f"start: {type(error).__name__}: {error}"
            with lock:
                times.append(time.monotonic() - sent)
                if problem:
                    errors.append(problem)

    threads = [threading.Thread(target=phone) for _ in range(phones)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times, errors


def drive(args, port: int, tokens: list[tuple[int, str, str]]) -> dict:
    rng = random.Random(1)
    idle = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(args.idle)]
    try:
        return _drive(args, port, tokens, rng)
    finally:
        for sock in idle:
            sock.close()


def _drive(args, port: int, tokens: list[tuple[int, str, str]], rng: random.Random) -> dict:
    start_times, start_errors = start_burst(port, args.starts, args.starts_each) if args.starts else ([], [])
    setup = Client(port)
    users = []
    for match_id, token, _ in tokens:
        user = User("scorer", match_id, args.save_every)
        setup_scorer(setup, user, token)
        users.append(user)
    for i in range(args.watchers):
        match_id, _, watcher_token = tokens[i % len(tokens)]
        user = User("watcher", match_id, args.poll_every)
        response, _ = setup.request("GET", f"/w/{watcher_token}", {})  # matches are private: the link first
        user.remember(response)
        act(setup, user)  # the first poll (200) gives the ETag, as the page render does
        users.append(user)
    # each user's first request at a random moment of its own period, then on a fixed rhythm
    start = time.monotonic() + 0.5
    queue = [(start + rng.random() * u.every, i) for i, u in enumerate(users)]
    heapq.heapify(queue)
    lock = threading.Lock()
    end = start + args.seconds
    samples: dict[str, list[float]] = {}
    lateness: list[float] = []
    errors: list[str] = []

    def worker():
        client = Client(port)
        while True:
            with lock:
                if not queue:
                    return
                due, index = heapq.heappop(queue)
            if due >= end:
                return
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            user = users[index]
            sent = time.monotonic()
            problem = None
            try:
                kind, ok = act(client, user)
                if not ok:
                    problem = f"{kind}: unexpected answer"
            except Exception as error:  # a refused or dropped connection is an error, not a crash
                kind = user.kind
                problem = f"{user.kind}: {type(error).__name__}: {error}"
            took = time.monotonic() - sent
            with lock:
                samples.setdefault(kind, []).append(took)
                lateness.append(max(0.0, sent - due))
                if problem:
                    errors.append(problem)
                heapq.heappush(queue, (max(due + user.every, time.monotonic()), index))

    threads = [threading.Thread(target=worker) for _ in range(args.workers)]
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - began
    return {"samples": samples, "lateness": lateness, "errors": errors, "elapsed": elapsed,
            "saves": sum(u.saves for u in users), "starts": start_times, "start_errors": start_errors}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p / 100
    low = int(k)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def report(args, result: dict, load: float) -> None:
    samples, elapsed = result["samples"], result["elapsed"]
    rows = []
    total = sum(len(v) for v in samples.values())
    if result["starts"]:
        ms = [v * 1000 for v in result["starts"]]
        print(f"{args.starts} phones starting {args.starts_each} matches each at once: {len(ms)} starts, "
              f"p50 {percentile(ms, 50):.1f} ms, p95 {percentile(ms, 95):.1f} ms, max {max(ms):.1f} ms, "
              f"errors {len(result['start_errors'])}" + (f" (first: {result['start_errors'][0]})"
                                                        if result["start_errors"] else ""))
    if args.idle:
        print(f"{args.idle} idle sockets held open during the whole run")
    print(f"scorekeeper serve --threads {args.threads}: {args.scorers} scorers saving every {args.save_every:g} s, "
          f"{args.watchers} watchers polling every {args.poll_every:g} s, {args.workers} client threads, "
          f"{elapsed:.1f} s")
    print(f"{'request':<16}{'count':>7}{'per s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for kind in ("save", "poll unchanged", "poll changed", "poll", "scorer", "watcher"):
        values = samples.get(kind)
        if not values:
            continue
        ms = [v * 1000 for v in values]
        print(f"{kind:<16}{len(ms):>7}{len(ms) / elapsed:>8.1f}{percentile(ms, 50):>9.1f}{percentile(ms, 95):>9.1f}"
              f"{percentile(ms, 99):>9.1f}{max(ms):>9.1f}")
        rows.append([kind, f"{len(ms):,}", f"{len(ms) / elapsed:.1f}", f"{percentile(ms, 50):.1f} / "
                     f"{percentile(ms, 95):.1f} / {percentile(ms, 99):.1f} ms", f"{max(ms):.1f} ms"])
    late = [v * 1000 for v in result["lateness"]]
    print(f"all requests: {total} in {elapsed:.1f} s = {total / elapsed:.0f} requests/s; "
          f"schedule lateness p95 {percentile(late, 95):.1f} ms (the client kept up if small)")
    print(f"errors: {len(result['errors'])}" + (f" (first: {result['errors'][0]})" if result["errors"] else ""))
    saves = samples.get("save", [])
    unchanged = samples.get("poll unchanged", [])
    if saves and unchanged:
        print(f"targets: save p95 {percentile(saves, 95) * 1000:.1f} ms (< 50), unchanged poll p95 "
              f"{percentile(unchanged, 95) * 1000:.1f} ms (< 10), errors {len(result['errors'])} (0)")
    if args.markdown:
        starts = ""
        if result["starts"]:
            ms = [v * 1000 for v in result["starts"]]
            starts = (f" Before it, {args.starts} phones started {args.starts_each} matches each at once: {len(ms)} "
                      f"starts, p50 {percentile(ms, 50):.1f} ms, p95 {percentile(ms, 95):.1f} ms, "
                      f"{len(result['start_errors'])} errors.")
        write_section(Path(args.markdown), f"load --save-every {args.save_every:g}", (
            f"### Saves and polls, a save every {args.save_every:g} s at each table (`bench/load.py`)\n\n"
            f"{measured(load)}; `scorekeeper serve --threads {args.threads}`, {args.scorers} scorers saving every "
            f"{args.save_every:g} s and {args.watchers} watchers polling every {args.poll_every:g} s for "
            f"{elapsed:.1f} s, from {args.workers} client threads on the same machine, {args.idle} idle sockets "
            f"held open.{starts}\n\n"
            + table(["request", "count", "per s", "p50 / p95 / p99", "max"], rows)
            + f"\n{total / elapsed:,.0f} requests/s, {len(result['errors'])} errors.\n"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scorers", type=int, default=50)
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=25)
    parser.add_argument("--save-every", type=float, default=5.0,
                        help="seconds between one scorer's saves (a real table: one hand every few minutes)")
    parser.add_argument("--poll-every", type=float, default=3.0, help="seconds between one watcher's polls")
    parser.add_argument("--workers", type=int, default=24, help="client threads (one connection each)")
    parser.add_argument("--threads", type=int, default=8, help="waitress worker threads")
    parser.add_argument("--starts", type=int, default=8, help="phones starting matches at once before the run")
    parser.add_argument("--starts-each", type=int, default=5, help="matches each of those phones starts")
    parser.add_argument("--idle", type=int, default=300, help="idle sockets held open during the run")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs (the test suite does this)")
    parser.add_argument("--markdown", help="also write the figures to this file, as a section of Markdown "
                                           "(one section per --save-every)")
    args = parser.parse_args()
    if args.smoke:
        args.scorers, args.watchers, args.seconds, args.save_every, args.poll_every = 3, 6, 1.5, 0.5, 0.5
        args.workers, args.starts, args.starts_each, args.idle = 4, 2, 2, 5
    load = os.getloadavg()[0]
    report(args, run(args), load)


if __name__ == "__main__":
    main()
