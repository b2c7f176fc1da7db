"""Requests through the worker threads, back to back: does one ``scorekeeper serve`` spin?

    .venv/bin/python bench/threaded.py [--kinds page,poll] [--connections 16,64] [--seconds 8]
                                       [--spy] [--count] [--checkout DIR] [--markdown docs/performance.md]

Most requests are unchanged polls, which the connection answers itself in waitress's main
loop (``serving.HeadedChannel.received``). Every other request goes to a worker thread and
Flask: ``page`` asks for a scorer's page or a watcher's board of ``--tables`` tables, drawn
whole each time (no ETag); ``poll`` asks unchanged polls without a ``Host`` header, which the
connection leaves to the threads (``UnchangedPolls`` in front of Flask). Debian's ``wrk``
(1 thread) sends them one after another on every connection, as fast as they are answered.

Printed for each kind and connection count: requests a second, the latency's p50 and p99,
the cores the server used and its CPU a request. With ``--spy`` (py-spy installed, allowed to
trace), ``py-spy record --gil`` samples the server meanwhile and the share of the samples
with Python's lock held in the main loop asking the connections ``readable()`` /
``writable()`` is printed: before the fix of issue 28's spin, the main loop found a byte
waiting on a connection whose thread was still sending, sent nothing and asked again at once.
With ``--count``, the server runs through this file with waitress's main loop counted: its
passes (each a wait in select() and a round of every connection) and its sends that sent
nothing, each a request. ``--checkout DIR`` runs the server from another checkout's
``scorekeeper`` package (``git archive COMMIT | tar -x -C DIR``), to compare; the load and the
database are made by this one's.
"""
from __future__ import annotations

import argparse
import atexit
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report import measured, table, write_section
from tables import SCOREKEEPER, cpu_seconds, free_port, make_tables, stop, wait_for

LUA = """
requests = {}
local asks = {%(asks)s}
for i, a in ipairs(asks) do
  local headers = {["Cookie"] = "scorekeeper_device=" .. a[2], ["HX-Request"] = "true"}
  if a[3] ~= "" then headers["If-None-Match"] = a[3] end
  -- no Host unless named: wrk.format adds its own only once the script has loaded
  if "%(host)s" ~= "" then headers["Host"] = "%(host)s" end
  requests[i] = wrk.format("GET", a[1], headers)
end
counter = 0
request = function()
  counter = counter %% #requests + 1
  return requests[counter]
end
unexpected = 0
response = function(status, headers, body)
  if status ~= %(status)d then unexpected = unexpected + 1 end
end
done = function(summary, latency, requests_)
  io.write(string.format("unexpected %%d\\n", unexpected))
end
"""

KINDS = {
    # what the kind asks: whole pages through Flask, or unchanged polls through the threads
    "page": {"etag": False, "host": True, "status": 200},
    "poll": {"etag": True, "host": False, "status": 304},
}


def lua_script(kind: str, tables: list[dict], folder: Path, host: str) -> Path:
    how = KINDS[kind]
    return asking_script(tables, folder / f"{kind}.lua", host if how["host"] else "", how["etag"], how["status"])


def asking_script(tables: list[dict], script: Path, host: str, etag: bool, status: int) -> Path:
    """A wrk script asking every table's scorer page and watchers' boards in turn, with the
    ETag of the match's version (``etag``) or none, ``host`` as the Host header (none when
    empty), counting an answer other than ``status`` as unexpected (``bench/workers.py`` too)."""
    asks = []
    for one in tables:
        tag = f'W/"v{one["version"]}"' if etag else ""
        asks.append(f'{{"/matches/{one["match"]}/live", "{one["scorer"]}", \'{tag}\'}}')
        asks += [f'{{"/matches/{one["match"]}/board", "{watcher}", \'{tag}\'}}' for watcher in one["watchers"]]
    script.write_text(LUA % {"asks": ",\n".join(asks), "host": host, "status": status})
    return script


def spin_share(raw: Path) -> tuple[float, float]:
    """From py-spy's raw samples (with the lock held): the main loop's share, and the share
    spent in a connection's ``readable`` / ``writable``."""
    samples: Counter[str] = Counter()
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        samples["all"] += int(count)
        if "BaseWSGIServer.run" in stack:
            samples["loop"] += int(count)
            if re.search(r"\.(readable|writable) \(", stack):
                samples["asking"] += int(count)
    return samples["loop"] / max(samples["all"], 1), samples["asking"] / max(samples["all"], 1)


def serve(argv: list[str]) -> None:
    """``threaded.py --serve CHECKOUT COUNTS serve-arguments...``: ``scorekeeper serve`` from
    CHECKOUT's package (or this one's, when empty), with waitress's main loop counted into the
    JSON file COUNTS (when not empty) each time the process gets SIGUSR1, and at its end."""
    checkout, counts_file, rest = argv[0], argv[1], argv[2:]
    if checkout:  # ahead of this checkout's package (an editable install finds it first otherwise)
        sys.meta_path[:] = [finder for finder in sys.meta_path if "editable" not in repr(finder).lower()]
        sys.path.insert(0, str(Path(checkout).resolve()))
    if counts_file:
        count_main_loop(Path(counts_file))
    from scorekeeper.cli import main as scorekeeper

    sys.exit(scorekeeper(["serve", *rest]))


def count_main_loop(into: Path) -> None:
    from waitress import channel, wasyncore

    counts: Counter[str] = Counter()
    poll, handle_write, service = wasyncore.poll, channel.HTTPChannel.handle_write, channel.HTTPChannel.service

    def counted_poll(timeout, map):  # one pass: every connection asked, one wait in select()
        counts["passes"] += 1
        return poll(timeout, map)

    def counted_write(self) -> None:
        unsent = self.total_outbufs_len
        handle_write(self)
        if self.total_outbufs_len == unsent and self.connected:
            counts["sent_nothing"] += 1

    def counted_service(self) -> None:
        counts["requests"] += 1
        service(self)

    wasyncore.poll, channel.HTTPChannel.handle_write = counted_poll, counted_write
    channel.HTTPChannel.service = counted_service

    def dump(*_) -> None:
        into.write_text(json.dumps(counts))

    signal.signal(signal.SIGUSR1, dump)
    atexit.register(dump)


def read_counts(server: subprocess.Popen, counts: Path) -> Counter[str]:
    """The server's counts now (it writes them when sent SIGUSR1)."""
    counts.unlink(missing_ok=True)
    server.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 30
    while not counts.exists() or not counts.read_text():
        if time.monotonic() > deadline:
            raise SystemExit("the server wrote no counts")
        time.sleep(0.05)
    return Counter(json.loads(counts.read_text()))


def measure(kind: str, connections: int, server: subprocess.Popen, port: int, tables: list[dict], workdir: Path,
            args) -> dict:
    url = f"http://127.0.0.1:{port}"
    script = lua_script(kind, tables, workdir, f"127.0.0.1:{port}")
    # a first pass not counted: every page drawn once, caches warm, the connections' threads started
    subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{args.warmup:g}s", "-s", str(script), url],
                   capture_output=True, text=True, check=True)
    counted = read_counts(server, workdir / "counts.json") if args.count else None
    load = os.getloadavg()[0]
    before, began = cpu_seconds([server.pid]), time.monotonic()
    run = subprocess.Popen(["wrk", "-t1", f"-c{connections}", f"-d{args.seconds:g}s", "--latency", "-s", str(script),
                            url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    share = None
    if args.spy:
        raw = workdir / f"{kind}-{connections}.txt"
        spied = subprocess.run([args.spy, "record", "--gil", "--nonblocking", "-f", "raw", "-o", str(raw), "-d",
                                str(max(1, int(args.seconds) - 1)), "-p", str(server.pid)], capture_output=True, text=True)
        share = spin_share(raw) if spied.returncode == 0 and raw.exists() else None
    out, err = run.communicate()
    elapsed = time.monotonic() - began
    cpu = cpu_seconds([server.pid]) - before
    loop = None
    if counted is not None:
        now = read_counts(server, workdir / "counts.json")
        requests = max(now["requests"] - counted["requests"], 1)
        loop = ((now["passes"] - counted["passes"]) / requests, (now["sent_nothing"] - counted["sent_nothing"]) / requests)
    if run.returncode != 0:
        raise SystemExit(f"wrk failed: {err}")
    answered = wrk_figures(out)
    rate = answered["rate"]
    return {"kind": kind, "connections": connections, "rate": rate, "cores": cpu / elapsed,
            "cpu_ms": cpu / elapsed / rate * 1000 if rate else 0.0, "load": load, "share": share, "loop": loop,
            "p50": answered["p50"], "p99": answered["p99"], "errors": answered["errors"] + answered["unexpected"]}


def wrk_figures(out: str) -> dict:
    """What wrk printed of a run of ``asking_script``'s script (``bench/workers.py`` too):
    requests a second, p50 and p99 latency, answers not 2xx/3xx, and answers not the status
    the script expected."""
    p50 = re.search(r"50%\s+([\d.]+)(us|ms|s)", out)
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rate": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "p50": "".join(p50.groups()) if p50 else "?", "p99": "".join(p99.groups()) if p99 else "?",
            "errors": int(errors.group(1)) if errors else 0,
            "unexpected": int(re.search(r"unexpected (\d+)", out).group(1))}


def row(r: dict) -> list[str]:
    share = f"{r['share'][0]:.0%} / {r['share'][1]:.0%}" if r["share"] else "-"
    loop = f"{r['loop'][0]:.2f} / {r['loop'][1]:.2f}" if r["loop"] else "-"
    return [r["kind"], str(r["connections"]), f"{r['rate']:,.0f}", f"{r['p50']} / {r['p99']}", f"{r['cores']:.2f}",
            f"{r['cpu_ms']:.3f} ms", share, loop, str(r["errors"]), f"{r['load']:.1f}"]


HEAD = ["kind", "connections", "requests/s", "p50 / p99", "server cores", "CPU / request",
        "main loop / asking", "passes / sent nothing", "errors", "load"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", default="page,poll")
    parser.add_argument("--connections", default="16,64")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--spy", action="store_const", const=str(Path(sys.executable).with_name("py-spy")),
                        help="sample the server with py-spy --gil (pip install py-spy into the venv)")
    parser.add_argument("--count", action="store_true", help="count the main loop's passes and empty sends")
    parser.add_argument("--checkout", default="", help="run the server from this checkout's scorekeeper package")
    parser.add_argument("--markdown", help="also write the figures to this file, as a section of Markdown")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs")
    args = parser.parse_args()
    if args.smoke:
        args.tables, args.seconds, args.warmup, args.connections = 3, 1, 1, "4"
    if shutil.which("wrk") is None:
        raise SystemExit("bench/threaded.py needs wrk: apt-get install -y wrk")
    if args.spy and not Path(args.spy).exists():
        raise SystemExit(f"--spy needs py-spy beside the venv's python ({args.spy}): pip install py-spy")
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-threaded-"))
    results = []
    try:
        database = workdir / "tables.sqlite"
        tables = make_tables(database, args.tables)
        port = free_port()
        env = dict(os.environ, SCOREKEEPER_DATABASE=str(database), SCOREKEEPER_SECRET_KEY="threaded",
                   SCOREKEEPER_WRITES_PER_MINUTE="100000000", SCOREKEEPER_NEW_DEVICES_PER_MINUTE="100000000",
                   SCOREKEEPER_MATCHES_PER_MINUTE="100000000", SCOREKEEPER_MATCHES_PER_HOUR="100000000")
        serve_args = ["--host", "127.0.0.1", "--port", str(port), "--threads", str(args.threads)]
        command = [SCOREKEEPER, "serve", *serve_args]
        if args.count or args.checkout:
            command = [sys.executable, __file__, "--serve", args.checkout,
                       str(workdir / "counts.json") if args.count else "", *serve_args]
        server = subprocess.Popen(command, env=env, cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for(port, server, "scorekeeper serve")
            print("  ".join(HEAD), flush=True)
            for kind in args.kinds.split(","):
                for connections in (int(n) for n in args.connections.split(",")):
                    results.append(measure(kind, connections, server, port, tables, workdir, args))
                    print("  ".join(row(results[-1])), flush=True)
        finally:
            stop(server, None)
        if any(r["errors"] for r in results):
            raise SystemExit("some requests were not answered as expected: see the errors column")
        if args.markdown:
            write_section(Path(args.markdown), "threaded", markdown(args, results))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def markdown(args, results: list[dict]) -> str:
    flags = " --count" * args.count + " --spy" * bool(args.spy) + (f" --checkout {args.checkout}" if args.checkout else "")
    return (f"### Requests through the worker threads, back to back (`bench/threaded.py`)\n\n"
            f"{measured(results[0]['load'])}; `.venv/bin/python bench/threaded.py{flags}`: one server with "
            f"{args.threads} threads, `wrk -t1`, {args.seconds:g} s a row after {args.warmup:g} s not counted, "
            f"{args.tables} tables; page: a scorer's page or a watcher's board drawn whole; poll: an unchanged poll "
            f"without a Host (through the threads). Main loop / asking (with `bench/threaded.py --spy`): py-spy's "
            f"samples with Python's lock held in waitress's main loop, and in it asking the connections "
            f"`readable()` / `writable()`. Passes / sent nothing (with `bench/threaded.py --count`): the main "
            f"loop's passes and its sends that sent nothing, each a request.\n\n"
            + table(HEAD, [row(r) for r in results]))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(sys.argv[2:])
    else:
        main()
