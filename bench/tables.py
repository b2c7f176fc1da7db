"""Tables: how many tables one ``scorekeeper serve`` holds, and with ``--workers N``.

    .venv/bin/python bench/tables.py [--workers 1,2] [--tables 1500,3000,...] [--seconds 15]
                                     [--markdown docs/performance.md]

A table is what issue 28 counts: its scorer saves a hand every ``--save-every`` seconds
(120) and polls its own page every ``--poll-every`` seconds (3), and four watchers poll
the board as often, each with the ETag of the version it last saw, as the pages do.
The real ``scorekeeper serve`` runs on a temporary database holding every table's match
(with ``--workers`` > 1, beside a real ``redis-server`` for the rate limits). Each step runs
``--seconds`` with more tables, one after another on the same server, until a step misses
the goals: p95 under 100 ms (of every request: wrk does not tell which request an answer is to,
and saves are 1 in 200), no request sent more than 1 s late, no errors. The break
point printed is the last step that met them; with several ``--workers`` counts, each is
measured in turn and the break points' ratio printed.

The load client is Debian's ``wrk`` (C and LuaJIT) running ``bench/tables.lua``: ``--client-threads``
threads (one per core), each sending its share of the tables' requests on their schedule over
its share of ``--connections`` keep-alive connections. The client runs on the same machine
as the server and takes CPU from it, so its own CPU a request is printed beside the server's
(wrk's is about a quarter of the server's; the asyncio client this bench had before took 1.3
to 1.5 times wrk's, and its two processes fell behind first on a busy machine).

After the steps, each server's saturation is measured: every connection sends unchanged
polls one after another for ``--flood-seconds`` as fast as they are answered (requests/s,
and the cores the server and the client used). What two workers can hold against one is
bound by it, and on a machine whose cores the client shares, by the cores left to the server:
the bench prints that bound from the measured CPU a request.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from report import machine, measured, write_section

SCOREKEEPER = str(Path(sys.executable).with_name("scorekeeper"))
CLIENT_SCRIPT = Path(__file__).with_name("tables.lua")
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


def add_tables(database: Path, tables: list[dict], count: int) -> None:
    """Matches added to ``tables`` up to ``count``, each with its scorer's device and four
    watchers' (their cookies); the server may be running (each step adds the tables it needs)."""
    from scorekeeper import store
    from scorekeeper.engine import Match
    from scorekeeper.samples import long_settings
    from scorekeeper.store.devices import grant_in

    db = store.connect(str(database))
    db.execute("PRAGMA synchronous = OFF")  # a throwaway database, filled fast
    added = []
    try:
        for _ in range(count - len(tables)):
            match_id = store.create_match(db, Match(game="third_wheel", players=["Ann", "Bob", "Cy"],
                                                    settings=long_settings("third_wheel", 10_000)))
            added.append({"match": match_id, "scorer": uuid.uuid4().hex,
                          "watchers": [uuid.uuid4().hex for _ in range(4)]})
        with store.writing(db):
            for table in added:
                grant_in(db, store.device_key(table["scorer"]), table["match"], score=True, how="bench")
                for watcher in table["watchers"]:
                    grant_in(db, store.device_key(watcher), table["match"], watch=True, how="bench")
    finally:
        db.close()
    tables += added


def make_tables(database: Path, count: int) -> list[dict]:
    """``count`` tables on a new database, each with its version (bench/workers.py's)."""
    tables: list[dict] = []
    add_tables(database, tables, count)
    current_versions(database, tables)
    return tables


def current_versions(database: Path, tables: list[dict]) -> None:
    """Each table's version now: every phone starts a step having seen its match as it is."""
    from scorekeeper import store

    db = store.connect(str(database))
    try:
        for table in tables:
            table["version"] = store.get_version(db, table["match"])
    finally:
        db.close()


def versions_added(database: Path, tables: list[dict]) -> int:
    """How many versions ``tables``' matches gained since their ``version`` was read, once the
    saves still under way when the client stopped are done (the total stays the same 0.2 s)."""
    from scorekeeper import store

    db = store.connect(str(database))
    try:
        total, deadline = None, time.monotonic() + 10
        while True:
            now = sum(store.get_version(db, t["match"]) for t in tables)
            if now == total or time.monotonic() > deadline:
                return now - sum(t["version"] for t in tables)
            total = now
            time.sleep(0.2)
    finally:
        db.close()


def cpu_of(pid: int) -> float:
    """The CPU seconds the process has used (user and system)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    """The CPU seconds the processes have used together (bench/workers.py's too)."""
    return sum(cpu_of(pid) for pid in pids)


def server_pids(server: subprocess.Popen) -> list[int]:
    """The server's process and its workers (``serve --workers N`` forks them)."""
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


# --- the load client: wrk -----------------------------------------------------------------

def wrk(port: int, folder: Path, tables: list[dict], login: tuple[str, str], args, seconds: int,
        flood: bool = False) -> dict:
    """One run of wrk with ``bench/tables.lua`` over ``tables``: each wrk thread takes every
    ``threads``-th table and sends its requests on its share of the connections. Returns its
    figures and its own CPU seconds."""
    threads = max(1, min(args.client_threads, args.connections, len(tables)))
    for k in range(threads):
        (folder / f"tables-{k}.txt").write_text("".join(
            f"{t['match']} {t['version']} {t['scorer']} {' '.join(t['watchers'])}\n" for t in tables[k::threads]))
    env = dict(os.environ, TABLES_DIR=str(folder), TABLES_POLL_EVERY=str(args.poll_every),
               TABLES_SAVE_EVERY=str(args.save_every), TABLES_SESSION=login[0], TABLES_CSRF=login[1],
               TABLES_FLOOD="1" if flood else "0", TABLES_RUN=uuid.uuid4().hex)
    result = folder / "result.txt"
    result.unlink(missing_ok=True)
    connections = max(threads, args.connections // threads * threads)  # wrk gives each thread as many
    client = subprocess.Popen(["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s",
                               "--timeout", "10s", "-s", str(CLIENT_SCRIPT), f"http://127.0.0.1:{port}/"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert client.stdout is not None
    said = client.stdout.read().decode(errors="replace")
    _, status, usage = os.wait4(client.pid, 0)
    client.returncode = os.waitstatus_to_exitcode(status)
    if client.returncode != 0 or not result.exists():
        raise SystemExit(f"wrk failed ({client.returncode}):\n{said}")
    figures: dict = {"late_max": 0.0, "late_over": 0, "sent": 0, "saved": 0, "unchanged": 0, "answered": 0, "errors": 0,
                     "first_errors": [], "closed": 0, "client_cpu": usage.ru_utime + usage.ru_stime}
    for row in result.read_text().splitlines():
        name, *values = row.split(" ")
        if name == "thread":
            sent, late_over, late_max, saved, unchanged, answered, errors, closed = values
            figures["late_over"] += int(late_over)
            figures["late_max"] = max(figures["late_max"], float(late_max))
            for key, value in (("sent", sent), ("saved", saved), ("unchanged", unchanged), ("answered", answered),
                               ("errors", errors), ("closed", closed)):
                figures[key] += int(value)
        elif name == "error":
            figures["first_errors"].append(" ".join(values))
        else:
            figures[name] = float(values[0])
    if figures["socket_errors"]:
        figures["first_errors"].append(f"{figures['socket_errors']:.0f} socket errors (connect, read, write, timeout)")
    # the script reads no answer in a flood: wrk's count of those of 400 and over stands
    figures["errors"] = int(figures["socket_errors"] + (figures["status_errors"] if flood else figures["errors"]))
    return figures


# --- the steps ------------------------------------------------------------------------------

def timed(pids: list[int], run) -> tuple[dict, list[float], float]:
    """``run()``'s figures, with the CPU seconds of each server process and the wall time."""
    before = [cpu_of(pid) for pid in pids]
    began = time.monotonic()
    figures = run()
    elapsed = time.monotonic() - began
    return figures, [cpu_of(pid) - b for pid, b in zip(pids, before, strict=True)], elapsed


def step(pids: list[int], run, count: int, load: float, added=None) -> dict:
    """One step's figures; ``pids``: the server's processes (with ``redis-server`` when the limits are there).
    ``added()``: how many versions the step's matches gained. A save that made none (answered
    200, as the page's form is, with "already saved", "changed meanwhile" or a rule's problem)
    is an error: its table's phones would then poll a version its match never reaches."""
    figures, cpu, elapsed = timed(pids, run)
    if added is not None:
        unsaved = figures["saved"] - added()
        if unsaved > 0:
            figures["errors"] += unsaved
            figures["first_errors"].insert(0, f"{unsaved} of {figures['saved']} saves made no new version")
    requests = int(figures["requests"])
    figures.update(tables=count, per_second=requests / figures["duration"], cores=sum(cpu) / elapsed,
                   changed=max(0, figures["answered"] - figures["saved"]),
                   bytes_per_answer=figures["bytes"] / max(requests, 1),
                   worker_cores=[c / elapsed for c in cpu],
                   client_cores=figures["client_cpu"] / elapsed, load=load,
                   cpu_per_request=sum(cpu) / max(requests, 1) * 1000,
                   client_per_request=figures["client_cpu"] / max(requests, 1) * 1000)
    figures["held"] = (figures["p95"] < POLL_P95_MS and figures["late_max"] <= LATE_MS
                       and not figures["errors"] and requests > 0)
    return figures


def stop(server: subprocess.Popen, redis: subprocess.Popen | None) -> None:
    """The server and its redis-server stopped (bench/workers.py's too)."""
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
    if redis is not None:
        redis.terminate()
        redis.wait(timeout=10)


def start_redis(workdir: Path) -> tuple[subprocess.Popen, str]:
    found = shutil.which("redis-server")
    if found is None:
        raise SystemExit("--workers > 1 needs redis-server for the shared rate limits: apt-get install -y redis-server")
    port = free_port()
    redis = subprocess.Popen([found, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(workdir),
                              "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(port, redis, "redis-server")
    return redis, f"redis://127.0.0.1:{port}"


def run(args, workers: int, workdir: Path, tables: list[dict]) -> tuple[list[dict], dict]:
    """The steps for ``serve --workers {workers}``, then its saturation; ``tables`` grows as steps need."""
    counts = [int(n) for n in args.tables.split(",")]
    database = workdir / "tables.sqlite"
    add_tables(database, tables, counts[0])
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
    if workers > 1:
        redis, env["SCOREKEEPER_RATELIMIT_STORAGE_URI"] = start_redis(workdir)
        command += ["--workers", str(workers)]
    # in the temp folder: a checkout's own folder would come first on sys.path for ``-m``
    server = subprocess.Popen(command, env=env, cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    steps: list[dict] = []
    try:
        wait_for(port, server, "scorekeeper serve")
        login = session_of(port)
        pids = server_pids(server) + ([redis.pid] if redis else [])
        if args.warmup:  # the first step's load, not counted: each match's first replay and board, cold caches
            current_versions(database, tables)
            wrk(port, workdir, tables[:counts[0]], login, args, args.warmup)
            versions_added(database, tables[:counts[0]])  # its last saves done before the versions are read
        for count in counts:
            add_tables(database, tables, count)
            current_versions(database, tables)
            load = os.getloadavg()[0]
            result = step(pids, lambda count=count: wrk(port, workdir, tables[:count], login, args, args.seconds),
                          count, load, lambda count=count: versions_added(database, tables[:count]))
            steps.append(result)
            print(line(workers, result), flush=True)
            if not result["held"]:
                for error in result["first_errors"][:3]:
                    print(f"    {error}")
                break
        current_versions(database, tables)
        load = os.getloadavg()[0]
        flood = step(pids, lambda: wrk(port, workdir, tables[:counts[0]], login, args, args.flood_seconds,
                                         flood=True), counts[0], load)
    finally:
        stop(server, redis)
    return steps, flood


HEADER = (f"{'workers':>7}{'tables':>7}{'req/s':>8}{'p50 ms':>8}{'p95 ms':>8}{'late max':>10}"
          f"{'server cores':>14}{'ms CPU/req':>12}{'client cores':>14}{'client ms/req':>15}{'changed':>9}"
          f"{'closed':>8}{'errors':>8}{'load':>6}  held  each process's cores")


def line(workers: int, r: dict) -> str:
    return (f"{workers:>7}{r['tables']:>7}{r['per_second']:>8.0f}{r['p50']:>8.1f}{r['p95']:>8.1f}"
            f"{r['late_max']:>10.0f}{r['cores']:>14.2f}{r['cpu_per_request']:>12.3f}"
            f"{r['client_cores']:>14.2f}{r['client_per_request']:>15.3f}{r['changed']:>9}{r['closed']:>8}"
            f"{r['errors']:>8}{r['load']:>6.1f}  {'yes' if r['held'] else 'NO ':4}  {cores(r)}")


def cores(r: dict) -> str:
    """The server's cores, and each process's when there are several (the parent, each worker and
    redis-server: how the kernel shared the connections between the workers)."""
    each = r["worker_cores"]
    return f"{r['cores']:.2f}" + (f" ({'+'.join(f'{c:.2f}' for c in each)})" if len(each) > 1 else "")


def break_point(steps: list[dict]) -> int | None:
    held = [s["tables"] for s in steps if s["held"]]
    return max(held) if held else None


def saturation_line(workers: int, flood: dict) -> str:
    return (f"saturation, workers {workers}: {flood['per_second']:,.0f} unchanged polls/s, server {cores(flood)} "
            f"cores ({flood['cpu_per_request']:.3f} ms CPU a poll), client {flood['client_cores']:.2f} cores "
            f"({flood['client_per_request']:.3f} ms a poll), {flood['errors']} errors, "
            f"{flood['bytes_per_answer']:.0f} bytes an answer, load {flood['load']:.1f}")


def summary(runs: dict[int, tuple[list[dict], dict]]) -> list[str]:
    """The break points' and saturations' ratios to one worker's, and the bound the machine's
    cores put on them. One worker answers every unchanged poll in one thread (its main loop), so
    it answers at most one core's worth: 1 / its CPU a poll. N workers share the machine's cores
    with the client: at most cores / (their CPU a poll + the client's)."""
    lines = []
    ordered = sorted(runs)
    one = ordered[0]
    cpus = os.cpu_count() or 1
    for workers in ordered[1:]:
        base, found = break_point(runs[one][0]), break_point(runs[workers][0])
        ratio = f"{found / base:.2f}x" if base and found else "not shown (no step held)"
        flood, flood_one = runs[workers][1], runs[one][1]
        alone = 1000 / flood_one["cpu_per_request"]
        shared = cpus * 1000 / (flood["cpu_per_request"] + flood["client_per_request"])
        lines.append(f"break point, workers {workers} / workers {one}: {found} / {base} tables = {ratio}; "
                     f"saturation {flood['per_second']:,.0f} / {flood_one['per_second']:,.0f} polls/s = "
                     f"{flood['per_second'] / flood_one['per_second']:.2f}x")
        lines.append(f"bound on {cpus} cores shared with the client: workers {one} at most 1 core / "
                     f"{flood_one['cpu_per_request']:.3f} ms = {alone:,.0f} polls/s; workers {workers} at most {cpus} "
                     f"cores / ({flood['cpu_per_request']:.3f} server + {flood['client_per_request']:.3f} client ms) = "
                     f"{shared:,.0f} polls/s: at most {shared / alone:.2f}x")
        if base and found:  # the same bound for the tables' mix, from the steps each held last
            held_one = next(s for s in runs[one][0] if s["tables"] == base)
            held = next(s for s in runs[workers][0] if s["tables"] == found)
            lines.append(f"the tables' mix at the break points: workers {one} {held_one['cpu_per_request']:.3f} ms a "
                         f"request; workers {workers} {held['cpu_per_request']:.3f} server + "
                         f"{held['client_per_request']:.3f} client ms: at most {cpus} x "
                         f"{held_one['cpu_per_request']:.3f} / {held['cpu_per_request'] + held['client_per_request']:.3f} "
                         f"= {cpus * held_one['cpu_per_request'] / (held['cpu_per_request'] + held['client_per_request']):.2f}x "
                         f"(one worker may pass one core a little: its threads wait for the disk and the network "
                         f"without the GIL)")
    return lines


def markdown(args, runs: dict[int, tuple[list[dict], dict]], workers: int) -> str:
    steps, flood = runs[workers]
    found = break_point(steps)
    rows = "\n".join(f"| {s['tables']:,} | {s['per_second']:,.0f} | {s['p50']:.1f} / {s['p95']:.1f} ms | "
                     f"{s['late_max']:,.0f} ms | {cores(s)} | {s['cpu_per_request']:.3f} ms | "
                     f"{s['client_cores']:.2f} | {s['client_per_request']:.3f} ms | {s['changed']:,} | "
                     f"{s['errors']} | {s['load']:.1f} | {'yes' if s['held'] else 'no'} |" for s in steps)
    text = (f"### Tables one server holds (`bench/tables.py --workers {workers}`)\n\n"
            f"{measured(steps[0]['load'] if steps else flood['load'])}; `scorekeeper serve --workers {workers} "
            f"--threads {args.threads}`, load client `wrk` with `bench/tables.lua` on the same machine "
            f"({args.client_threads} threads, {args.connections} keep-alive connections), {args.seconds:g} s a step "
            f"after {args.warmup:g} s of the first step's load not counted. Latencies are of every request (saves "
            f"are 1 in 200); load average before each step in the table.\n\n"
            f"| tables | requests/s | p50 / p95 | latest request | server cores | server CPU / request | "
            f"client cores | client CPU / request | changed polls | errors | load | held |\n"
            f"|---|---|---|---|---|---|---|---|---|---|---|---|\n{rows}\n\n"
            f"Break point: **{found if found is not None else 'below the first step'} tables** (the last step "
            f"with p95 under {POLL_P95_MS} ms, no request more than {LATE_MS / 1000:g} s late, no errors).\n\n"
            f"Saturation ({args.flood_seconds:g} s of unchanged polls sent as fast as they are answered): "
            f"**{flood['per_second']:,.0f} polls/s**, server {cores(flood)} cores "
            f"({flood['cpu_per_request']:.3f} ms CPU a poll), client {flood['client_cores']:.2f} cores "
            f"({flood['client_per_request']:.3f} ms a poll), load {flood['load']:.1f}.\n")
    if workers != min(runs):
        text += "\n" + "\n".join(f"- {entry}" for entry in summary({min(runs): runs[min(runs)],
                                                                     workers: runs[workers]})) + "\n"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="1500,3000,4500,6000,8000,10000,12000,14000,16000,18000,20000",
                        help="the steps: tables at each, comma-separated")
    parser.add_argument("--workers", default="1,2", help="scorekeeper serve --workers, each in turn (comma-separated)")
    parser.add_argument("--threads", type=int, default=8, help="scorekeeper serve --threads")
    parser.add_argument("--seconds", type=int, default=15, help="length of each step (whole seconds)")
    parser.add_argument("--save-every", type=float, default=120, help="seconds between a table's saves")
    parser.add_argument("--poll-every", type=float, default=3, help="seconds between one phone's polls")
    parser.add_argument("--warmup", type=int, default=5, help="seconds of the first step's load before it, not counted")
    parser.add_argument("--flood-seconds", type=int, default=10, help="length of the saturation run")
    parser.add_argument("--connections", type=int, default=64, help="keep-alive connections, all threads together")
    parser.add_argument("--client-threads", type=int, default=os.cpu_count() or 1, help="wrk's threads")
    parser.add_argument("--source", help="serve this checkout's code instead (a folder holding scorekeeper/)")
    parser.add_argument("--markdown", help="also write the figures to this file, as a section of Markdown")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs")
    args = parser.parse_args()
    if args.smoke:
        args.tables, args.seconds, args.save_every, args.poll_every, args.connections = "3,6", 2, 0.7, 0.5, 4
        args.warmup, args.flood_seconds = 0, 1
    if shutil.which("wrk") is None:
        raise SystemExit("the load client is wrk: apt-get install -y wrk")
    counts = [int(n) for n in args.workers.split(",")]
    print(f"scorekeeper serve --workers {args.workers} --threads {args.threads}; {machine()}; "
          f"load average {os.getloadavg()[0]:.1f}; each step {args.seconds:g} s; client wrk, "
          f"{args.client_threads} threads, {args.connections} connections")
    print(HEADER)
    runs = {}
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-tables-"))
    tables: list[dict] = []
    try:
        for workers in counts:
            runs[workers] = run(args, workers, workdir, tables)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    for workers, (steps, flood) in runs.items():
        found = break_point(steps)
        print(f"break point: {found if found is not None else 'below the first step'} tables "
              f"(workers {workers}; p95 < {POLL_P95_MS} ms, none late > {LATE_MS / 1000:g} s, no errors)")
        print(saturation_line(workers, flood))
    for entry in summary(runs):
        print(entry)
    if args.markdown:
        for workers in runs:
            write_section(Path(args.markdown), f"tables --workers {workers}", markdown(args, runs, workers))


if __name__ == "__main__":
    main()
