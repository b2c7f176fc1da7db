"""Every core: how many polls a second one ``scorekeeper serve`` answers at full load, and
with ``--workers 2`` (issue 28: two workers >= 1.7x one).

    .venv/bin/python bench/workers.py [--tables 2000] [--seconds 10] [--workers 1,2]
                                      [--markdown docs/performance.md]

``bench/tables.py`` paces its load as the tables do (a save every 2 minutes, 5 polls every
3 s a table), so it finds where the tables' mix breaks. Here the load is Debian's
``wrk`` (C, 1 thread, ``--connections`` kept-alive connections, 32 by default: see
docs/performance.md for one process under more), unpaced: it asks as fast as the
server answers: each connection sends the polls of the tables in turn (the scorer's page and
the four watchers' boards, each with the ETag of the match's version, as the pages do), all
unchanged (saves are under 1% of a table's requests). The server's database holds
``--tables`` matches of 10,000 hands' settings, as in ``bench/tables.py``; with
``--workers`` > 1 a real ``redis-server`` holds the shared rate limits.

Printed for each worker count: polls answered a second, the server's cores used, wrk's own
cores, and what that rate is in tables (a table asks 5 / 3 polls a second and a save every
120 s); then the ratio of the best to one worker. Everything runs on this one machine, so the
server's share of the cores is what the client and the system leave it: both are printed.
"""
from __future__ import annotations

import argparse
import datetime
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report import commit, machine, write_section
from tables import SCOREKEEPER, cpu_seconds, free_port, make_tables, server_pids, start_redis, stop, wait_for
from threaded import asking_script, wrk_figures

TABLE_REQUESTS_PER_SECOND = 5 / 3 + 1 / 120


def wrk_cpu(pid: int) -> float:
    return cpu_seconds([pid])


def saturate(workers: int, tables: list[dict], database: Path, workdir: Path, args) -> dict:
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(database), SCOREKEEPER_SECRET_KEY="workers",
               SCOREKEEPER_WRITES_PER_MINUTE="100000000", SCOREKEEPER_NEW_DEVICES_PER_MINUTE="100000000",
               SCOREKEEPER_MATCHES_PER_MINUTE="100000000", SCOREKEEPER_MATCHES_PER_HOUR="100000000")
    command = [SCOREKEEPER, "serve", "--host", "127.0.0.1", "--port", str(port), "--threads", str(args.threads)]
    redis = None
    if workers > 1:
        redis, env["SCOREKEEPER_RATELIMIT_STORAGE_URI"] = start_redis(workdir)
        command += ["--workers", str(workers)]
    server = subprocess.Popen(command, env=env, cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # the Host by name: a poll without one is not answered by the connection (it goes
    # through the threads and Flask)
    script = asking_script(tables, workdir / "polls.lua", f"127.0.0.1:{port}", etag=True, status=304)
    try:
        wait_for(port, server, "scorekeeper serve")
        url = f"http://127.0.0.1:{port}"
        # a first pass not counted: every match's board drawn once, caches warm
        subprocess.run(["wrk", "-t1", f"-c{args.connections}", f"-d{args.warmup:g}s", "-s", str(script), url],
                       capture_output=True, text=True, check=True)
        load = os.getloadavg()[0]
        server_before, began = cpu_seconds(server_pids(server)), time.monotonic()
        run = subprocess.Popen(["wrk", "-t1", f"-c{args.connections}", f"-d{args.seconds:g}s", "--latency",
                                "-s", str(script), url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        client = 0.0
        while run.poll() is None:  # wrk's own CPU, read while it still runs
            client = max(client, wrk_cpu(run.pid))
            time.sleep(0.2)
        out, err = run.communicate()
        elapsed = time.monotonic() - began
        server_cpu = cpu_seconds(server_pids(server)) - server_before
        if run.returncode != 0:
            raise SystemExit(f"wrk failed: {err}")
        answered = wrk_figures(out)
        return {"workers": workers, "server_cores": server_cpu / elapsed, "client_cores": client / elapsed,
                **answered, "load": load, "tables": answered["rate"] / TABLE_REQUESTS_PER_SECOND}
    finally:
        stop(server, redis)


def line(r: dict) -> str:
    return (f"{r['workers']:>7}{r['rate']:>10,.0f}{r['p50']:>9}{r['p99']:>9}{r['server_cores']:>9.2f}"
            f"{r['client_cores']:>9.2f}{r['tables']:>10,.0f}{r['errors'] + r['unexpected']:>8}{r['load']:>6.1f}")


HEADER = (f"{'workers':>7}{'polls/s':>10}{'p50':>9}{'p99':>9}{'server':>9}{'wrk':>9}{'tables':>10}"
          f"{'errors':>8}{'load':>6}")


def markdown(args, results: list[dict], ratio: float) -> str:
    rows = "\n".join(f"| {r['workers']} | {r['rate']:,.0f} | {r['p50']} / {r['p99']} | {r['server_cores']:.2f} | "
                     f"{r['client_cores']:.2f} | {r['tables']:,.0f} | {r['errors'] + r['unexpected']} | {r['load']:.1f} |"
                     for r in results)
    return (f"### Polls a second at full load, by workers (`bench/workers.py`)\n\n"
            f"Measured {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, commit {commit()}, {machine()}, "
            f"load average {results[0]['load']:.1f} before the first run; "
            f"`wrk -t1 -c{args.connections}`, {args.seconds:g} s after {args.warmup:g} s not counted, unchanged polls of "
            f"{args.tables:,} tables' pages and boards; `scorekeeper serve --threads {args.threads}`. Load average before "
            f"each run in the table; server and wrk in cores used; \"as tables\": polls/s over a table's 5/3 requests a "
            f"second.\n\n"
            f"| workers | polls/s | latency p50 / p99 | server cores | wrk cores | as tables | errors | load |\n"
            f"|---|---|---|---|---|---|---|---|\n{rows}\n\n"
            f"Best / one worker: **{ratio:.2f}x**.\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--workers", default="1,2", help="worker counts to run, in order")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--markdown", help="also write the figures to this file, as a section of Markdown")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs")
    args = parser.parse_args()
    if args.smoke:
        args.tables, args.seconds, args.warmup, args.connections = 20, 1, 1, 4
    if shutil.which("wrk") is None:
        raise SystemExit("bench/workers.py needs wrk: apt-get install -y wrk")
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-workers-"))
    try:
        database = workdir / "tables.sqlite"
        tables = make_tables(database, args.tables)
        print(HEADER, flush=True)
        results = []
        for workers in [int(n) for n in args.workers.split(",")]:
            results.append(saturate(workers, tables, database, workdir, args))
            print(line(results[-1]), flush=True)
        ratio = max(r["rate"] for r in results) / results[0]["rate"]
        print(f"best / first: {ratio:.2f}x")
        if any(r["errors"] or r["unexpected"] for r in results):
            raise SystemExit("some polls were not answered 304: see the errors column")
        if args.markdown:
            write_section(Path(args.markdown), "workers", markdown(args, results, ratio))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
