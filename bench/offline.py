"""Costs of the app kept on a phone (issue 29), in Chromium at 390 x 844 on localhost:

- install: the bytes a phone downloads to keep the app, each file compressed as
  ``scorekeeper serve`` sends it (gzip level 6 here; brotli beside it where the
  ``brotli`` module is installed), from a fresh ``scorekeeper build-offline``;
- first start: from opening the kept app's address online to the app's first page
  (download, install, Python started in the service worker);
- cold start offline: the browser closed and opened again with no network, from
  opening the address to the match list (the worker starts Python again);
- a save offline: from tapping Save to the scoreboard showing the hand (score pad,
  two players), the median and the slowest of ``--saves``;
- cold start offline with the CPU throttled 4x (a mid-range phone): the same as the cold
  start, the browser reopened once more with its processes held together to a quarter of
  the machine's cores (a Linux cgroup's CPU quota: on 2 cores, half of one core, ``/sys/fs/cgroup/cpu``: needs root; without it the
  bench says so and skips this figure). CDP's ``Emulation.setCPUThrottlingRate`` is not
  used: it slows the page's main thread only, and Chromium refuses it for the service
  worker ("only supported for pages"), where Python runs.

With ``--breakdown``, each cold start is followed by where its time went, as the service
worker noted it (sw.js's steps: ms from opening the address, and each step's own ms).

    .venv/bin/python bench/offline.py [--saves 20] [--breakdown] [--smoke]

The folder is served by Python's plain static server; Chromium's profile is a temp folder.
"""
from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scorekeeper import offline

CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
WAIT_MS = 180_000


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def install_bytes(site: Path) -> tuple[int, int | None, int]:
    """gzip-6 and brotli-5 totals of what a phone fetches to keep the app, and the raw total."""
    try:
        import brotli
    except ImportError:
        brotli = None
    names = ["index.html", "sw.js", "_phone/boot.js"] + [f"_phone/{name}" for name in offline.RUNTIME_FILES
                                                         if name not in ("LICENSE", "SOURCE")] + ["_phone/app.zip"]
    raw = gz = br = 0
    for name in names:
        data = (site / name).read_bytes()
        raw += len(data)
        gz += min(len(data), len(gzip.compress(data, 6)))  # a server sends a zip as it is
        if brotli is not None:
            br += min(len(data), len(brotli.compress(data, quality=5)))
    return gz, (br if brotli is not None else None), raw


SLOW_CGROUP = Path("/sys/fs/cgroup/cpu/scorekeeper-bench-4x")


def slow_chromium(work: Path) -> str | None:
    """A Chromium that runs in a cgroup held to a quarter of this machine's cores (each core
    as if 4 times slower), or None where this machine gives no such cgroup."""
    try:
        SLOW_CGROUP.mkdir(exist_ok=True)
        (SLOW_CGROUP / "cpu.cfs_period_us").write_text("100000")
        (SLOW_CGROUP / "cpu.cfs_quota_us").write_text(str(25000 * (os.cpu_count() or 1)))
    except OSError:
        return None
    wrapper = work / "slow-chromium"
    wrapper.write_text(f"#!/bin/sh\necho $$ > {SLOW_CGROUP / 'cgroup.procs'}\nexec {CHROMIUM} \"$@\"\n")
    wrapper.chmod(0o755)
    return str(wrapper)


def breakdown(context, page) -> str:
    """The steps of the worker's start just made (sw.js ``self.startSteps``) and the page's
    own (its answer and each file it asked for, as the page's Resource Timing saw them), as
    lines: ms from the page's navigation (the worker's clock begins later: aligned here)."""
    page_origin, page_steps = page.evaluate("""() => [performance.timeOrigin, [
        ["page: its answer received", performance.getEntriesByType("navigation")[0].responseEnd],
        ...performance.getEntriesByType("resource").map((r) => [
            "page: " + new URL(r.name).pathname.split("/").pop() + " received", r.responseEnd]),
        ["page: parsed (DOMContentLoaded)", performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd],
    ]]""")
    worker = next(worker for worker in context.service_workers if worker.url.endswith("/sw.js"))
    origin, steps = worker.evaluate("[performance.timeOrigin, self.startSteps]")
    shift = origin - page_origin
    lines, before = [], 0.0
    noted = [(shift, "worker started")] + [(at + shift, name) for name, at in steps] + [(at, name) for name, at in page_steps]
    for at, name in sorted(noted, key=lambda step: step[0]):  # stable: steps of the same ms keep their order
        lines.append(f"  {at:7.0f} ms  {name}  (+{at - before:.0f})")
        before = at
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=20)
    parser.add_argument("--breakdown", action="store_true", help="where each cold start's time goes")
    parser.add_argument("--smoke", action="store_true", help="one save, with the breakdown: checks the bench runs")
    args = parser.parse_args()
    args.breakdown = args.breakdown or args.smoke
    saves = 1 if args.smoke else args.saves

    work = Path(tempfile.mkdtemp(prefix="offline-bench-"))
    site = work / "site"
    offline.build(site)
    gz, br, raw = install_bytes(site)
    print(f"install  gzip {gz:,} bytes ({gz / 1e6:.2f} MB)" + (f"  brotli {br:,} bytes ({br / 1e6:.2f} MB)" if br else "")
          + f"  uncompressed {raw:,} bytes")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/"
    with sync_playwright() as playwright:
        def launch(offline_: bool, chromium: str = CHROMIUM):
            context = playwright.chromium.launch_persistent_context(
                str(work / "profile"), executable_path=chromium, args=["--no-sandbox", "--disable-gpu"],
                viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, offline=offline_)
            return context, context.pages[0] if context.pages else context.new_page()

        context, page = launch(False)
        started = time.perf_counter()
        page.goto(url)
        expect(page.locator("#where")).to_be_visible(timeout=WAIT_MS)
        print(f"first start (online: download, install, start)  {time.perf_counter() - started:.2f} s")
        # what the first start compiled, and the snapshot made from it, are kept after its page
        # shows (sw.js keepCompiled, keepSnapshot): the starts below read them, as a phone's do
        page.wait_for_function("""async () => {
            for (const name of await caches.keys()) {
                if (await (await caches.open(name)).match("_phone/compiled/memory.bin")) return true;
            }
            return false;
        }""", timeout=WAIT_MS, polling=250)
        # Chromium writes a cache entry this large to disk a little after put() resolves: a
        # browser closed at once can lose it (seen here), a phone's stays open far longer
        page.wait_for_timeout(3000)
        context.close()

        context, page = launch(True)
        started = time.perf_counter()
        page.goto(url)
        expect(page.locator("#where")).to_be_visible(timeout=WAIT_MS)
        print(f"cold start offline (browser reopened)  {time.perf_counter() - started:.2f} s")
        if args.breakdown:
            print(breakdown(context, page))

        page.goto(url + "matches/new?game=score_pad")
        page.fill("#player_0", "Ann")
        page.fill("#player_1", "Bob")
        page.get_by_role("button", name="Start the match").click()
        page.wait_for_url("**/matches/*")
        times = []
        for number in range(1, saves + 1):
            page.fill('#hand-form input[name="points_0"]', str(number))
            page.fill('#hand-form input[name="points_1"]', "1")
            expect(page.locator("#preview .preview-line")).to_have_text(f"If saved: Ann +{number}, Bob +1",
                                                                        timeout=WAIT_MS)
            started = time.perf_counter()
            page.get_by_role("button", name=f"Save hand {number}").click()
            expect(page.locator(f"#hand-{number}")).to_be_visible(timeout=WAIT_MS)
            times.append((time.perf_counter() - started) * 1000)
            expect(page.locator("#record h2")).to_contain_text(f"Hand {number + 1}")
        print(f"save offline  median {statistics.median(times):.0f} ms  slowest {max(times):.0f} ms  "
              f"({len(times)} saves)")
        context.close()

        slow = slow_chromium(work)
        if slow is None:
            print(f"cold start offline, CPU throttled 4x  not measured: no cgroup to make at {SLOW_CGROUP}")
        else:
            context, page = launch(True, slow)
            started = time.perf_counter()
            page.goto(url)
            expect(page.locator("#where")).to_be_visible(timeout=WAIT_MS)
            print(f"cold start offline, CPU throttled 4x (the browser held to 1/4 of the cores)  "
                  f"{time.perf_counter() - started:.2f} s")
            if args.breakdown:
                print(breakdown(context, page))
            context.close()
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
