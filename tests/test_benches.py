"""Every script in bench/ runs in its smoke mode (tiny sizes), so a bench nobody runs cannot rot.

No timing is asserted: the figures are for people to read. Each test checks that the bench ran
to the end and printed the figures it exists to print.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


def run_bench(name: str, markdown: Path | None = None, more: tuple[str, ...] = ()) -> str:
    from tests.oddball import ENV  # the benches iterate the registry: the tests' own game too

    extra = (["--markdown", str(markdown)] if markdown else []) + list(more)
    done = subprocess.run([sys.executable, str(BENCH / name), "--smoke", *extra], capture_output=True, text=True,
                          timeout=300, cwd=BENCH.parent, env=dict(os.environ, **ENV))
    assert done.returncode == 0, f"bench/{name} --smoke failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def section(markdown: Path, name: str) -> str:
    """The section a bench wrote with ``--markdown``: between its markers, saying when, on which
    commit and machine and at what load (docs/performance.md keeps no figure copied by hand)."""
    text = markdown.read_text()
    found = re.search(rf"<!-- bench: {re.escape(name)} -->\n(.*?)<!-- /bench: {re.escape(name)} -->", text, re.S)
    assert found, text
    assert re.search(r"Measured \d{4}-\d\d-\d\d \d\d:\d\d UTC, commit \S+, .+, \d+ cores, load average [\d.]+",
                     found.group(1)), found.group(1)
    return found.group(1)


def test_every_bench_has_a_smoke_test():
    tested = set(re.findall(r'run_bench\("(\w+\.py)"', Path(__file__).read_text()))
    # report.py and saving.py are what the benches share (their sections, a save), not benches
    assert {path.name for path in BENCH.glob("*.py")} - {"report.py", "saving.py"} <= tested


def test_a_bench_section_replaces_the_one_it_wrote_before(tmp_path):
    sys.path.insert(0, str(BENCH))
    try:
        from report import write_section
    finally:
        sys.path.remove(str(BENCH))
    docs = tmp_path / "performance.md"
    docs.write_text("# Measurements\n\nProse.\n")
    write_section(docs, "x", "old figures\n")
    write_section(docs, "y", "other figures\n")
    write_section(docs, "x", "new figures\n")
    assert docs.read_text() == ("# Measurements\n\nProse.\n\n<!-- bench: x -->\nnew figures\n<!-- /bench: x -->\n"
                                "\n<!-- bench: y -->\nother figures\n<!-- /bench: y -->\n")


def test_rescore_bench_prints_hands_per_second_for_every_game(tmp_path):
    from scorekeeper.games import GAMES

    out = run_bench("rescore.py", tmp_path / "performance.md")
    for game in GAMES:
        assert re.search(rf"^{game}\s+\d+\s+[\d.]+\s+[\d,]+", out, re.M), out
        assert re.search(rf"^\| {game} \| [\d.]+ ms \| [\d.]+ ms \|", section(tmp_path / "performance.md", "rescore"), re.M)


def test_save_cost_bench_saves_every_hand(tmp_path):
    out = run_bench("save_cost.py", tmp_path / "performance.md")
    written = section(tmp_path / "performance.md", "save_cost")
    assert re.search(r"^\| 3 \| [\d.]+ ms \| [\d.]+ ms \| [\d.]+ ms \| [\d,]+ \|$", written, re.M), written
    # hand, the app's CPU ms per save, the whole POST's, the store's part, wall ms, bytes per answer
    assert re.search(r"^\s+3\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+\d+$", out, re.M), out
    assert re.search(r"^hand 6 / hand 3: app CPU x[\d.]+, whole POST x[\d.]+, store x[\d.]+, bytes x[\d.]+$",
                     out, re.M), out
    assert re.search(r"^load average \(1, 5, 15 min\): [\d.]+, [\d.]+, [\d.]+$", out, re.M), out


def test_history_bench_times_the_home_page(tmp_path):
    out = run_bench("history.py", tmp_path / "performance.md")
    written = section(tmp_path / "performance.md", "history")
    assert re.search(r"^\| first page \| [\d.]+ ms \| [\d.]+ ms \|$", written, re.M), written
    assert re.search(r"^first page\s+[\d.]+\s+[\d.]+\s+[\d.]+$", out, re.M), out
    assert "22 matches in this device's history" in out


def test_stats_bench_times_every_stats_page(tmp_path):
    out = run_bench("stats.py", tmp_path / "performance.md")
    written = section(tmp_path / "performance.md", "stats")
    for label in ("player list", "Ann's stats", "the hands behind a figure", "head-to-head Ann v Bob"):
        assert re.search(rf"^{re.escape(label)}\s+[\d.]+\s+[\d.]+\s+[\d.]+$", out, re.M), out
        assert re.search(rf"^\| {re.escape(label)} \| [\d.]+ ms \| [\d.]+ ms \|$", written, re.M), written


def test_load_bench_drives_the_real_server_without_errors(tmp_path):
    out = run_bench("load.py", tmp_path / "performance.md")
    assert re.search(r"^save\s+[1-9]\d*\s", out, re.M), out
    assert "errors: 0" in out, out
    written = section(tmp_path / "performance.md", "load --save-every 0.5")
    assert re.search(r"^\| save \| [1-9][\d,]* \| [\d.]+ \| [\d.]+ / [\d.]+ / [\d.]+ ms \|", written, re.M), written
    assert ", 0 errors." in written, written


@pytest.mark.browser
def test_taps_bench_counts_taps_in_chromium(tmp_path):
    out = run_bench("taps.py", tmp_path / "performance.md")
    assert re.search(r"^\| third_wheel \(3 players\) \| \d+ \| \d+ \|$", out, re.M), out
    assert re.search(r"^\| third_wheel \(3 players\) \| \d+ \| \d+ \|$", section(tmp_path / "performance.md", "taps"),
                     re.M)


def test_long_matches_bench_prints_the_cost_of_every_expensive_get(tmp_path):
    out = run_bench("long_matches.py", tmp_path / "performance.md")
    written = section(tmp_path / "performance.md", "long_matches")
    for label in ("a day's print, part 1", "the watcher's board", "history export", "stats: best hand, page 1"):
        assert re.search(rf"^{re.escape(label)}\s+200\s+[\d.]+\s+[\d.]+\s+[\d,]+$", out, re.M), out
        assert re.search(rf"^\| {re.escape(label)} \| [\d.]+ \| [\d.]+ \| [\d,]+ \|$", written, re.M), written
    assert re.search(r"^load average \(1, 5, 15 min\): [\d.]+, [\d.]+, [\d.]+$", out, re.M), out


def test_tables_bench_finds_the_break_point_of_one_worker_and_of_two(tmp_path):
    out = run_bench("tables.py", tmp_path / "performance.md")
    for workers in (1, 2):
        # the first step's figures: tables, requests/s, poll p50 and p95, ..., the client's CPU beside the server's
        assert re.search(rf"^\s+{workers}\s+3\s+\d+\s+[\d.]+\s+[\d.]+", out, re.M), out
        assert re.search(rf"^break point: (\d+|below the first step) tables \(workers {workers};", out, re.M), out
        assert re.search(rf"^saturation, workers {workers}: [\d,]+ unchanged polls/s, server [\d.]+ .*client [\d.]+ "
                         rf"cores \([\d.]+ ms a poll\), 0 errors, \d+ bytes an answer", out, re.M), out
        written = section(tmp_path / "performance.md", f"tables --workers {workers}")
        assert re.search(r"^\| 3 \| [\d,]+ \| [\d.]+ / [\d.]+ ms \|", written, re.M), written
        assert re.search(r"^Break point: \*\*(\d+|below the first step) tables\*\*", written, re.M), written
        assert re.search(r"^Saturation .*: \*\*[\d,]+ polls/s\*\*, server [\d.]+", written, re.M), written
    assert re.search(r"^break point, workers 2 / workers 1: .* tables = .*; saturation [\d,]+ / [\d,]+ polls/s = "
                     r"[\d.]+x$", out, re.M), out
    assert re.search(r"^bound on \d+ cores shared with the client: workers 1 at most 1 core / [\d.]+ ms = [\d,]+ "
                     r"polls/s; workers 2 at most \d+ cores / \([\d.]+ server \+ [\d.]+ client ms\) = [\d,]+ polls/s: "
                     r"at most [\d.]+x$", out, re.M), out
    assert "- break point, workers 2 / workers 1" in section(tmp_path / "performance.md", "tables --workers 2")
    # Saves make their versions: a save's request key sent again, in a later step or by the next
    # server on the same database, was "already saved" (200 with no new version), and every phone of
    # its table then polled as changed what had not changed; here every save of the two-worker run
    # made none. (On a busy machine one save may overtake the table's one before it, 0.7 s apart here,
    # and be refused as stale: counted too, but never every save.)
    for unsaved, saves in re.findall(r"^    (\d+) of (\d+) saves made no new version$", out, re.M):
        assert int(unsaved) < int(saves), out


def test_workers_bench_compares_one_worker_with_two(tmp_path):
    out = run_bench("workers.py", tmp_path / "performance.md")
    assert re.search(r"^\s+1\s+[\d,]+\s", out, re.M), out
    assert re.search(r"^\s+2\s+[\d,]+\s", out, re.M), out
    assert re.search(r"^best / first: [\d.]+x$", out, re.M), out
    written = section(tmp_path / "performance.md", "workers")
    assert re.search(r"^\| 2 \| [\d,]+ \| ", written, re.M), written
    assert re.search(r"^Best / one worker: \*\*[\d.]+x\*\*", written, re.M), written


def test_poll_cost_bench_times_an_unchanged_poll_both_ways(tmp_path):
    out = run_bench("poll_cost.py", tmp_path / "performance.md")
    assert re.search(r"^\| read by the connection \(serve\) \| [\d.]+ ms \|$",
                     section(tmp_path / "performance.md", "poll_cost"), re.M)
    assert re.search(r"^read by the connection \(serve\)\s+[\d.]+$", out, re.M), out
    assert re.search(r"^answered in front \(WSGI\)\s+[\d.]+$", out, re.M), out
    assert re.search(r"^through Flask \(before\)\s+[\d.]+$", out, re.M), out
    # a scorer's changed poll: in parts, and the whole page as before, with their sizes
    assert re.search(r"^third_wheel, 60 hands played, in parts\s+[\d.]+\s+[\d,]+$", out, re.M), out
    assert re.search(r"^third_wheel, 60 hands played, whole page \(before\)\s+[\d.]+\s+[\d,]+$", out, re.M), out
    assert re.search(r"^\| third_wheel \| 12 \| in parts \| [\d.]+ ms \| [\d,]+ \|$",
                     section(tmp_path / "performance.md", "poll_changed"), re.M)


@pytest.mark.browser
def test_offline_bench_measures_the_kept_app_in_chromium():
    out = run_bench("offline.py")
    assert re.search(r"^install  gzip [\d,]+ bytes", out, re.M), out
    assert re.search(r"^cold start offline \(browser reopened\)  [\d.]+ s$", out, re.M), out
    # the breakdown: the cold start began from the snapshot the first start kept, and answered
    assert re.search(r"^ +\d+ ms  loadPyodide \(from the snapshot\)  \(\+\d+\)$", out, re.M), out
    assert re.search(r"^ +\d+ ms  first answer \(/\)  \(\+\d+\)$", out, re.M), out
    assert re.search(r"^save offline  median \d+ ms  slowest \d+ ms  \(1 saves\)$", out, re.M), out
    assert re.search(r"^cold start offline, CPU throttled 4x (\(the browser held to 1/4 of the cores\)  [\d.]+ s"
                     r"|not measured: no cgroup to make at \S+)$", out, re.M), out


def test_limits_memory_bench_measures_every_way(tmp_path):
    out = run_bench("limits_memory.py", tmp_path / "performance.md")
    written = section(tmp_path / "performance.md", "limits_memory")
    for label in ("one start", "a table's evening", "one history file", "600 starts in an hour", "every limit full"):
        assert re.search(rf"^{re.escape(label)}\s+[\d.]+$", out, re.M), out
        assert re.search(rf"^\| {re.escape(label)} \| [\d.]+ \|$", written, re.M), written


def test_save_walk_bench_follows_a_save_through_the_modules():
    out = run_bench("save_walk.py")
    assert re.search(r"^third_wheel, hand 3 saved: \d+ stops in \d+ modules, \d+ returns to a module already left$",
                     out, re.M), out
    assert re.search(r"^the view \(web.views.hands\) hands off \d+ times to \d+ modules: .*\bweb\.model\.entries 1\b", out, re.M), out
    # issue 27's measure: the walk of the call structure, the record view's module among its stops
    found = re.search(r"^the call structure \(issue 27's measure\): (\d+) stops in (\d+) modules, (\d+) returns; "
                      r"walked into every file: (\d+) stops in (\d+) modules, (\d+) returns$", out, re.M)
    assert found, out
    stops, modules, back = (int(n) for n in found.groups()[:3])
    assert back == stops - modules and int(found[4]) >= stops, out
    walked = re.search(r"^the call structure's walk: (.*)$", out, re.M)
    assert walked, out
    # the view calls its service and answers: nothing calls back into the view's module
    assert walked[1].split(" > ").count("web.views.hands") == 1, out
    # the way in reads the posted form in one call (its kinds, their base class and the card
    # counter's inputs with it), and the answer draws the next one: hand_forms entered twice at most
    assert walked[1].split(" > ").count("web.forms.hand_forms") <= 2, out
    # the store is asked twice: the match loaded, the hand written (a double tap's look-up only for
    # a refused or stale form)
    assert walked[1].split(" > ").count("store") == 2, out
    preview = run_bench("save_walk.py", more=("--preview",))
    assert re.search(r"^third_wheel, hand 3 previewed: \d+ stops", preview, re.M), preview
    # the preview is one service (the check, and the page model's referee address and seat picture)
    assert re.search(r"^the view \(web.views.hands\) hands off 1 times to 1 modules: web\.model\.entries 1$",
                     preview, re.M), preview


def test_save_digests_bench_hashes_every_answer_of_saves_and_previews():
    out = run_bench("save_digests.py")
    from scorekeeper.games import GAMES

    for game in GAMES:  # every registered game, the tests' own among them
        found = re.search(rf"^{game}: (\d+) answers, (\d+) hands saved, [0-9a-f]{{16}}$", out, re.M)
        assert found and int(found[1]) > 10 and int(found[2]) >= 1, out  # real saves, not only refusals
    assert re.search(r"^all: [0-9a-f]{16}$", out, re.M), out
    # the same requests give the same digests: nothing from one run (keys, tokens, the clock) is hashed
    assert run_bench("save_digests.py") == out


def test_threaded_bench_sends_requests_through_the_threads_back_to_back(tmp_path):
    out = run_bench("threaded.py", tmp_path / "performance.md", more=("--count",))
    for kind in ("page", "poll"):
        # kind, connections, requests/s, p50 / p99, server cores, CPU a request, (py-spy's shares), the main
        # loop's passes and sends that sent nothing a request (--count), errors, load
        assert re.search(rf"^{kind}  4  [\d,]+  [\d.]+\w+ / [\d.]+\w+  [\d.]+  [\d.]+ ms  -  [\d.]+ / [\d.]+  0  [\d.]+$",
                         out, re.M), out
        assert re.search(rf"^\| {kind} \| 4 \| [\d,]+ \| .* \| [\d.]+ / [\d.]+ \| 0 \| [\d.]+ \|$",
                         section(tmp_path / "performance.md", "threaded"), re.M)


def test_answer_digests_bench_hashes_every_answer_of_every_game_the_same_each_run():
    first = run_bench("answer_digests.py")
    from scorekeeper.games import GAMES

    digests = dict(re.findall(r"^(\w+): ([0-9a-f]{64})$", first, re.M))
    assert set(GAMES) | {"all"} <= set(digests), first
    # what changes from run to run (keys, tokens, times) is left out: a second run hashes the same
    assert run_bench("answer_digests.py") == first
