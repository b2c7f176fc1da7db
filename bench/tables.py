"""Tables: how many tables one ``scorekeeper serve`` holds, and with ``--workers N``.

    .venv/bin/python bench/tables.py [--tables 300,600,1200,...] [--workers 1] [--seconds 15]
                                     [--markdown docs/performance.md]

A table is what issue 28 counts: its scorer saves a hand every ``--save-every`` seconds
(120) and polls its own page every ``--poll-every`` seconds (3), and four watchers poll
the board as often, each with the ETag of the version it last saw, as the pages do.
The real ``scorekeeper serve`` runs on a temporary database holding every table's match
(with ``--workers`` > 1, beside a real ``redis-server`` for the rate limits); the load
client is ``--clients`` processes of asyncio, each with its share of ``--connections``
keep-alive connections, sending every request on its schedule. Each step runs
``--seconds`` with more tables, one after another on the same server, until a step misses
the goals: poll p95 under 100 ms, no request sent more than 1 s late, no errors.
The break point printed is the last step that met them.

The client runs on the same machine as the server and takes CPU from it: on a 2-core
machine shared with others the figures move a lot; the load average is printed with each.
"""
from __future__ import annotations

import argparse
import asyncio
import datetime
import heapq
import multiprocessing
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

from report import commit, machine, write_section

SCOREKEEPER = str(Path(sys.executable).with_name("scorekeeper"))
HANDS = [{"trump": t, "mode": m, "bid": str(b), "tricks_0": str(b), "tricks_1": str(11 - b), "tricks_2": "0"}
         for t, m, b in (("wyrms", "high", 5), ("moons", "low", 3), ("knots", "high", 7), ("suns", "low", 0))]
POLL_P95_MS = 100
LATE_MS = 1000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, process: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{what} did not start") from None
            time.sleep(0.05)


def make_tables(database: Path, count: int) -> list[dict]:
    """``count`` matches, each with its scorer's device and four watchers' (their cookies)."""
    from scorekeeper import store
    from scorekeeper.engine import Match
    from scorekeeper.samples import long_settings
    from scorekeeper.store.devices import grant_in

    db = store.connect(str(database))
    db.execute("PRAGMA synchronous = OFF")  # a throwaway database, filled fast
    tables = []
    try:
        for _ in range(count):
            match_id = store.create_match(db, Match(game="third_wheel", players=["Ann", "Bob", "Cy"],
                                                    settings=long_settings("third_wheel", 10_000)))
            tables.append({"match": match_id, "version": store.get_version(db, match_id),
                           "scorer": uuid.uuid4().hex, "watchers": [uuid.uuid4().hex for _ in range(4)]})
        with store.writing(db):
            for table in tables:
                grant_in(db, store.device_key(table["scorer"]), table["match"], score=True, how="bench")
                for watcher in table["watchers"]:
                    grant_in(db, store.device_key(watcher), table["match"], watch=True, how="bench")
    finally:
        db.close()
    return tables


# --- the load client (one process of many) ------------------------------------------------

class Connection:
    def __init__(self, port: int):
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.opened = 0

    async def request(self, head: bytes, body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
                self.opened += 1
            assert self.reader is not None
            try:
                self.writer.write(head + body)
                raw = await self.reader.readuntil(b"\r\n\r\n")
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 2:
                    raise
                continue
            lines = raw.decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            headers = {}
            for line in lines[1:]:
                if ":" in line:
                    name, value = line.split(":", 1)
                    headers[name.strip().lower()] = value.strip()
            data = b""
            if "content-length" in headers:
                data = await self.reader.readexactly(int(headers["content-length"]))
            elif headers.get("transfer-encoding") == "chunked":
                while True:
                    size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                    data += await self.reader.readexactly(size + 2)
                    if size == 0:
                        break
            if headers.get("connection", "").lower() == "close":
                self.close()
            return status, headers, data
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def client_process(port: int, tables: list[dict], session: str, csrf: str, args: dict, seconds: float,
                   connections: int, seed: int, out: multiprocessing.Queue) -> None:
    out.put(asyncio.run(_client(port, tables, session, csrf, args, seconds, connections, seed)))


async def _client(port: int, tables: list[dict], session: str, csrf: str, args: dict, seconds: float,
                  connections: int, seed: int) -> dict:
    rng = random.Random(seed)
    began = time.monotonic() + 0.5
    end = began + seconds
    due: list[tuple[float, int, str, dict, int]] = []  # (when, order, kind, table, watcher)
    order = 0
    for table in tables:
        table.setdefault("etags", [table["version"]] * 4)
        table.setdefault("saves", 0)
        heapq.heappush(due, (began + rng.uniform(0, args["save_every"]), order, "save", table, -1))
        heapq.heappush(due, (began + rng.uniform(0, args["poll_every"]), order + 1, "live", table, -1))
        for w in range(4):
            heapq.heappush(due, (began + rng.uniform(0, args["poll_every"]), order + 2 + w, "board", table, w))
        order += 6
    samples: dict[str, list[float]] = {"poll unchanged": [], "poll changed": [], "save": []}
    late: list[float] = []
    errors: list[str] = []
    pool = [Connection(port) for _ in range(connections)]

    async def one(kind: str, table: dict, watcher: int, conn: Connection) -> None:
        match = table["match"]
        if kind == "save":
            hand = HANDS[table["saves"] % len(HANDS)]
            body = urlencode(dict(hand, csrf_token=csrf, version=table["version"],
                                  request_key=uuid.uuid4().hex)).encode()
            head = (f"POST /matches/{match}/hands HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    f"Cookie: scorekeeper_device={table['scorer']}; session={session}\r\nHX-Request: true\r\n"
                    f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n"
                    f"Referer: http://127.0.0.1:{port}/matches/{match}\r\n\r\n").encode()
            status, _, _ = await conn.request(head, body)
            if status != 200:
                raise RuntimeError(f"save: {status}")
            table["version"] += 1
            table["saves"] += 1
            return
        device = table["scorer"] if kind == "live" else table["watchers"][watcher]
        seen = table["version"] if kind == "live" else table["etags"][watcher]
        head = (f"GET /matches/{match}/{kind} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Cookie: scorekeeper_device={device}\r\nHX-Request: true\r\n"
                f'If-None-Match: W/"v{seen}"\r\n\r\n').encode()
        status, headers, _ = await conn.request(head)
        if status == 304:
            return
        if status != 200:
            raise RuntimeError(f"{kind}: {status}")
        if kind == "board":
            table["etags"][watcher] = int(re.search(r"v(\d+)", headers.get("etag", "v0")).group(1))

    async def worker(conn: Connection) -> None:
        while due:
            when, n, kind, table, watcher = heapq.heappop(due)
            if when >= end:
                return
            if kind == "save":
                every = args["save_every"]
            else:
                every = args["poll_every"]
            heapq.heappush(due, (when + every, n, kind, table, watcher))
            wait = when - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            sent = time.monotonic()
            late.append(sent - when)
            before = table["version"] if kind != "board" else table["etags"][watcher]
            try:
                await one(kind, table, watcher, conn)
            except Exception as error:  # counted, and the run goes on
                errors.append(f"{kind}: {type(error).__name__}: {error}")
                conn.close()
                continue
            took = time.monotonic() - sent
            if kind == "save":
                samples["save"].append(took)
            elif kind == "board" and table["etags"][watcher] != before:
                samples["poll changed"].append(took)
            else:
                samples["poll unchanged"].append(took)

    await asyncio.gather(*(worker(conn) for conn in pool))
    for conn in pool:
        conn.close()
    return {"samples": samples, "late": late, "errors": errors, "opened": sum(c.opened for c in pool),
            "tables": {t["match"]: {"version": t["version"], "etags": t["etags"], "saves": t["saves"]}
                       for t in tables}}


# --- the steps ------------------------------------------------------------------------------

def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p / 100
    low = int(k)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def server_pids(server: subprocess.Popen) -> list[int]:
    try:
        children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    except OSError:
        children = []
    return [server.pid, *map(int, children)]


def session_of(port: int) -> tuple[str, str]:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/matches/new")
    response = connection.getresponse()
    page = response.read().decode()
    session = next(c.split(";", 1)[0].split("=", 1)[1] for c in response.msg.get_all("Set-Cookie") or []
                   if c.startswith("session="))
    connection.close()
    return session, re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)


def step(port: int, server: subprocess.Popen, tables: list[dict], session: str, csrf: str, args) -> dict:
    clients = min(args.clients, len(tables))
    shares = [tables[k::clients] for k in range(clients)]
    out: multiprocessing.Queue = multiprocessing.Queue()
    settings = {"save_every": args.save_every, "poll_every": args.poll_every}
    load_before = os.getloadavg()[0]
    cpu_before, began = cpu_seconds(server_pids(server)), time.monotonic()
    processes = [multiprocessing.Process(target=client_process, args=(
        port, share, session, csrf, settings, args.seconds, max(1, args.connections // clients), k, out))
        for k, share in enumerate(shares)]
    for process in processes:
        process.start()
    results = [out.get() for _ in processes]
    for process in processes:
        process.join()
    elapsed = time.monotonic() - began
    cpu = cpu_seconds(server_pids(server)) - cpu_before
    merged: dict = {"samples": {}, "late": [], "errors": [], "opened": 0}
    for result in results:
        for kind, values in result["samples"].items():
            merged["samples"].setdefault(kind, []).extend(values)
        merged["late"] += result["late"]
        merged["errors"] += result["errors"]
        merged["opened"] += result["opened"]
        for table in tables:
            if table["match"] in result["tables"]:
                table.update(result["tables"][table["match"]])
    polls = merged["samples"]["poll unchanged"] + merged["samples"]["poll changed"]
    requests = len(polls) + len(merged["samples"]["save"])
    merged.update(tables=len(tables), requests=requests, per_second=requests / args.seconds,
                  poll_p95=percentile(polls, 95) * 1000, poll_p50=percentile(polls, 50) * 1000,
                  save_p95=percentile(merged["samples"]["save"], 95) * 1000,
                  late_max=max(merged["late"], default=0) * 1000, cores=cpu / elapsed,
                  load=load_before, cpu_per_request=cpu / max(requests, 1) * 1000)
    merged["held"] = (merged["poll_p95"] < POLL_P95_MS and merged["late_max"] <= LATE_MS
                      and not merged["errors"])
    return merged


def start_redis(workdir: Path) -> tuple[subprocess.Popen, str]:
    found = shutil.which("redis-server")
    if found is None:
        raise SystemExit("--workers > 1 needs redis-server for the shared rate limits: apt-get install -y redis-server")
    port = free_port()
    redis = subprocess.Popen([found, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(workdir),
                              "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(port, redis, "redis-server")
    return redis, f"redis://127.0.0.1:{port}"


def run(args) -> list[dict]:
    counts = [int(n) for n in args.tables.split(",")]
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-tables-"))
    database = workdir / "tables.sqlite"
    tables = make_tables(database, max(counts))
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(database), SCOREKEEPER_SECRET_KEY="tables",
               SCOREKEEPER_WRITES_PER_MINUTE="100000000", SCOREKEEPER_NEW_DEVICES_PER_MINUTE="100000000",
               SCOREKEEPER_MATCHES_PER_MINUTE="100000000", SCOREKEEPER_MATCHES_PER_HOUR="100000000")
    command = [SCOREKEEPER, "serve"]
    if args.source:  # another checkout's code (a before/after comparison), on this environment
        env["PYTHONPATH"] = args.source
        command = [sys.executable, "-m", "scorekeeper.cli", "serve"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--threads", str(args.threads)]
    redis = None
    if args.workers > 1:
        redis, env["SCOREKEEPER_RATELIMIT_STORAGE_URI"] = start_redis(workdir)
        command += ["--workers", str(args.workers)]
    # in the temp folder: a checkout's own folder would come first on sys.path for ``-m``
    server = subprocess.Popen(command, env=env, cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    steps = []
    try:
        wait_for(port, server, "scorekeeper serve")
        session, csrf = session_of(port)
        if args.warmup:  # the first step's load, not counted: each match's first replay and board, cold caches
            step(port, server, tables[:counts[0]], session, csrf, argparse.Namespace(**dict(vars(args),
                                                                                     seconds=args.warmup)))
        for count in counts:
            result = step(port, server, tables[:count], session, csrf, args)
            steps.append(result)
            print(line(result), flush=True)
            if not result["held"]:
                break
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        if redis is not None:
            redis.terminate()
            redis.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)
    return steps


HEADER = (f"{'tables':>7}{'req/s':>8}{'poll p50':>10}{'p95 ms':>8}{'save p95':>10}{'late max':>10}"
          f"{'server cores':>14}{'ms CPU/req':>12}{'conns':>7}{'errors':>8}{'load':>6}  held")


def line(r: dict) -> str:
    return (f"{r['tables']:>7}{r['per_second']:>8.0f}{r['poll_p50']:>10.1f}{r['poll_p95']:>8.1f}{r['save_p95']:>10.1f}"
            f"{r['late_max']:>10.0f}{r['cores']:>14.2f}{r['cpu_per_request']:>12.3f}{r['opened']:>7}"
            f"{len(r['errors']):>8}{r['load']:>6.1f}  {'yes' if r['held'] else 'NO'}")


def break_point(steps: list[dict]) -> int | None:
    held = [s["tables"] for s in steps if s["held"]]
    return max(held) if held else None


def markdown(args, steps: list[dict]) -> str:
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    found = break_point(steps)
    rows = "\n".join(f"| {s['tables']:,} | {s['per_second']:,.0f} | {s['poll_p50']:.1f} / {s['poll_p95']:.1f} ms | "
                     f"{s['save_p95']:.1f} ms | {s['late_max']:,.0f} ms | {s['cores']:.2f} | "
                     f"{s['cpu_per_request']:.3f} ms | {len(s['errors'])} | {s['load']:.1f} | "
                     f"{'yes' if s['held'] else 'no'} |" for s in steps)
    return (f"### Tables one server holds (`bench/tables.py --workers {args.workers}`)\n\n"
            f"Measured {when}, commit {commit()}, {machine()}; `scorekeeper serve --workers {args.workers} "
            f"--threads {args.threads}`, load client on the same machine ({args.clients} processes, "
            f"{args.connections} keep-alive connections), {args.seconds:g} s a step after {args.warmup:g} s of the first "
            f"step's load not counted. Load average before each "
            f"step in the table.\n\n"
            f"| tables | requests/s | poll p50 / p95 | save p95 | latest request | server cores | server CPU / "
            f"request | errors | load | held |\n|---|---|---|---|---|---|---|---|---|---|\n{rows}\n\n"
            f"Break point: **{found if found is not None else 'below the first step'} tables** (the last step "
            f"with poll p95 under {POLL_P95_MS} ms, no request more than {LATE_MS / 1000:g} s late, no errors).\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="300,600,900,1200,1800,2400,3000,3600,4500",
                        help="the steps: tables at each, comma-separated")
    parser.add_argument("--workers", type=int, default=1, help="scorekeeper serve --workers")
    parser.add_argument("--threads", type=int, default=8, help="scorekeeper serve --threads")
    parser.add_argument("--seconds", type=float, default=15, help="length of each step")
    parser.add_argument("--save-every", type=float, default=120, help="seconds between a table's saves")
    parser.add_argument("--poll-every", type=float, default=3, help="seconds between one phone's polls")
    parser.add_argument("--warmup", type=float, default=5, help="seconds of the first step's load before it, not counted")
    parser.add_argument("--clients", type=int, default=2, help="load client processes")
    parser.add_argument("--connections", type=int, default=64, help="keep-alive connections, all clients together")
    parser.add_argument("--source", help="serve this checkout's code instead (a folder holding scorekeeper/)")
    parser.add_argument("--markdown", help="also write the figures to this file, as a section of Markdown")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs")
    args = parser.parse_args()
    if args.smoke:
        args.tables, args.seconds, args.save_every, args.poll_every, args.connections = "3,6", 1.5, 0.7, 0.5, 4
        args.warmup = 0.5
    print(f"scorekeeper serve --workers {args.workers} --threads {args.threads}; {machine()}; "
          f"load average {os.getloadavg()[0]:.1f}; each step {args.seconds:g} s")
    print(HEADER)
    steps = run(args)
    found = break_point(steps)
    print(f"break point: {found if found is not None else 'below the first step'} tables "
          f"(workers {args.workers}; poll p95 < {POLL_P95_MS} ms, none late > {LATE_MS / 1000:g} s, no errors)")
    if args.markdown:
        write_section(Path(args.markdown), f"tables --workers {args.workers}", markdown(args, steps))


if __name__ == "__main__":
    main()
