"""Taps per typical hand: how many touches a scorer makes to record one hand of each
game on a 390 x 844 phone, measured in Chromium on the real ``scorekeeper serve``
(temporary database, loopback only; starts and stops the server itself).

    .venv/bin/python bench/taps.py

A tap is one touch: a chip (a bid, trump, high or low), a number box to focus, each
digit typed on the number pad, a stepper press, and Save. The script fills in the
form as a scorer would, field by field in order, and skips a box the page has already
filled in with the right number (the last trick count follows from the others). Each
hand is checked against the live preview, then saved.

"before" is the same page as it was before issue "At the table": nothing filled in
(the inputs' data-sum totals removed), and Third Rail asking for every player's other
tricks (a match with the most-other-tricks bonus on, as every match was asked then);
for the score pad, before issue 26: every 0 typed, not "0 for the rest".

``--code DIR`` serves another checkout's package (a git worktree of an older commit) and
counts its page as it is, with no change made to it: a real before.
"""
from __future__ import annotations

import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright
from report import measured, table, write_section

CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")

# game, players, settings (before / after), the hand as the scorer enters it, its preview
HANDS = [
    ("third_hand", ["Ann", "Bob"], {}, {},
     [("chip", "bids_1", "K"), ("chip", "bids_0", "pass"), ("chip", "trump", "hearts"),
      ("type", "points_0", "60"), ("type", "points_1", "80")], "Ann +60, Bob +100"),
    ("third_wheel", ["Ann", "Bob", "Cy"], {}, {},
     [("chip", "trump", "wyrms"), ("chip", "mode", "high"), ("type", "bid", "5"),
      ("type", "tricks_0", "5"), ("type", "tricks_1", "4"), ("type", "tricks_2", "2")], "Ann +9, Bob 0, Cy +2"),
    ("dummy_spades", ["Ann", "Bob", "Cy"], {}, {},
     [("type", "bids_1", "7"), ("type", "bids_2", "5"), ("type", "bids_0", "6"),
      ("type", "tricks_1", "3"), ("type", "tricks_2", "5"), ("type", "tricks_0", "2"),
      ("type", "dummy_tricks", "3")], None),
    ("third_rail", ["Ann", "Bob", "Cy", "Dee", "Eve"], {"most_other_tricks_bonus": True}, {},
     [("type", f"scoring_tricks_{s}", "1") for s in range(5)]
     + [("type", f"other_tricks_{s}", n) for s, n in enumerate("32222")], None),  # the bonus differs
    ("third_rail", ["Ann", "Bob", "Cy", "Dee", "Eve"], {"most_other_tricks_bonus": True},
     {"most_other_tricks_bonus": True},
     [("type", f"scoring_tricks_{s}", "1") for s in range(5)]
     + [("type", f"other_tricks_{s}", n) for s, n in enumerate("32222")], "Ann +3, Bob +1, Cy +1, Dee +1, Eve +1"),
    # a Hearts hand on the score pad: Cy took every heart and the queen, the others 0
    ("score_pad", ["Ann", "Bob", "Cy", "Dee"], {}, {},
     [("type", "points_2", "26"), ("rest", "points", "0")], "Ann 0, Bob 0, Cy +26, Dee 0"),
]


def serve(code: str | None = None):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    database = Path(tempfile.mkdtemp()) / "taps.sqlite"
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(database), SCOREKEEPER_MATCHES_PER_MINUTE="1000")
    if code:  # another checkout's scorekeeper package, served by this venv (its dependencies)
        env["PYTHONPATH"] = code
    command = [str(Path(sys.executable).with_name("scorekeeper")), "serve", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "/", timeout=1)
            return server, url
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("scorekeeper serve did not start")


def start(page, url, game, players, settings):
    page.goto(f"{url}/matches/new?game={game}")
    for i, name in enumerate(players):
        page.fill(f"#player_{i}", name)
    page.select_option("#first_dealer", "0")
    for name, value in settings.items():
        if value is True:
            page.check(f"#setting_{name}")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/matches/\d+$"))
    page.wait_for_function("() => { const e = document.querySelector('#preview');"
                           " return e && e['htmx-internal-data'] && e['htmx-internal-data'].initHash; }")


def record(page, steps, preview, before: bool) -> int:
    if before:  # the page as it was: no number is filled in for the scorer
        page.evaluate("() => document.querySelectorAll('[data-sum]').forEach(e => e.removeAttribute('data-sum'))")
    taps = 0
    for kind, name, value in steps:
        fill = page.locator("#hand-form button[data-fill-blank]")
        if kind == "rest" and not before and fill.count():  # one tap: every blank box of the group gets the value
            fill.click()
            taps += 1
            continue
        if kind == "rest":  # the page as it was: each blank box typed
            for box in page.locator(f'#hand-form input[name^="{name}_"]').all():
                if box.input_value() == "":
                    box.click()
                    box.press_sequentially(value)
                    taps += 1 + len(value)
            continue
        if kind == "chip":
            page.locator(f'#hand-form label.chip:has(input[name="{name}"][value="{value}"])').click()
            taps += 1
            continue
        box = page.locator(f'#hand-form input[name="{name}"]')
        if box.count() == 0:
            continue  # not asked for
        if box.input_value() == value:
            continue  # filled in by the page: no tap
        box.click()
        box.press_sequentially(value)
        taps += 1 + len(value)
    if preview:
        page.locator("#preview .preview-line").filter(has_text=f"If saved: {preview}").wait_for()
    page.locator("#preview .preview-line").wait_for()
    page.locator("#hand-form button[type=submit]").click()
    taps += 1
    page.locator(".notice", has_text="Hand 1 saved").wait_for()
    return taps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="one game only, to check the bench still runs (the test suite does this)")
    parser.add_argument("--code", help="serve the scorekeeper package of this checkout instead (e.g. a git worktree "
                        "of an older commit) and count its page as it is: the 'as served' column")
    parser.add_argument("--markdown", help="also write the figures to this file, as a section of Markdown")
    args = parser.parse_args()
    hands = HANDS[1:2] if args.smoke else HANDS
    load = os.getloadavg()[0]
    rows = []
    server, url = serve(args.code)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            print("| game | as served |\n|---|---|" if args.code else "| game | before | after |\n|---|---|---|")
            for game, players, settings_before, settings_after, steps, preview in hands:
                counts = []
                for before in ((False,) if args.code else (True, False)):
                    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                                  has_touch=True)
                    page = context.new_page()
                    start(page, url, game, players, settings_before if before else settings_after)
                    counts.append(record(page, steps, preview, before))
                    context.close()
                bonus = " with the other-tricks bonus" if settings_after.get("most_other_tricks_bonus") else ""
                label = f"{game} ({len(players)} players{bonus})"
                print(f"| {label} | " + " | ".join(map(str, counts)) + " |")
                rows.append([label, *map(str, counts)])
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    if args.markdown:
        write_section(Path(args.markdown), "taps", (
            f"### Taps per typical hand (`bench/taps.py`)\n\n{measured(load)}; Chromium at 390 x 844, "
            "\"before\" and \"after\" as said above.\n\n" + table(["game", "as served"] if args.code else ["game", "before", "after"], rows)))


if __name__ == "__main__":
    main()
