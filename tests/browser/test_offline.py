"""The app kept on a phone, with no network: ``scorekeeper build-offline`` writes it, a
plain static server serves it on localhost (browsers run service workers only on HTTPS
or localhost), and Chromium keeps it in a persistent profile. Offline, the same Python
app answers inside the browser (Pyodide in the service worker): a match is started and
played with the live preview and Save, and after the browser is closed and opened again,
still offline, the match and its hands are there. The real ``scorekeeper serve`` offers
the same at /offline/ ("Keep on this phone"), and says that keeping needs HTTPS on a
plain-http network address."""
from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect

import scorekeeper
from scorekeeper.engine import Match, replay
from scorekeeper.games import GAMES
from scorekeeper.samples import random_match
from scorekeeper.web import create_app
from scorekeeper.web.forms.hand_forms import browser_values
from scorekeeper.web.model.view import signed

from .conftest import CHROMIUM, PHONE, SCREENSHOTS
from .layout import NARROW, layout_problems, text_size
from .test_layout import axe_check
from .test_score_pad import start_pad, type_points
from .test_table_app import expect_totals, save_hand, wait_htmx

READY_MS = 120_000  # the first start downloads and compiles the runtime: slow on a loaded machine


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


@pytest.fixture(scope="module")
def static_site(tmp_path_factory):
    """The folder ``scorekeeper build-offline`` writes, served by Python's plain static server."""
    folder = tmp_path_factory.mktemp("offline") / "site"
    command = [str(Path(sys.executable).with_name("scorekeeper")), "build-offline", str(folder)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Wrote the offline app" in done.stdout
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


@pytest.fixture
def phone(browser, tmp_path):
    """launch(offline) -> (context, page): Chromium with one phone's own profile (its service
    worker, cache and IndexedDB are kept between launches); any page error or console error
    in any launch fails the test."""
    profile = tmp_path / "phone-profile"
    errors: list[str] = []
    contexts, allowed = [], []

    def launch(offline: bool = False, args: tuple[str, ...] = ()):
        context = browser.browser_type.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", *args],
            viewport=PHONE, is_mobile=True, has_touch=True, offline=offline)
        contexts.append(context)
        page = context.pages[0] if context.pages else context.new_page()
        page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
        page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
        return context, page
    launch.allow = allowed.append  # a console message the test causes on purpose
    yield launch
    for context in contexts:
        context.close()
    errors = [e for e in errors if not any(a in e for a in allowed)]
    assert not errors, errors


KEPT_COMPILED = """async () => {
  const found = [];
  for (const name of ["_phone/compiled/python_stdlib.zip", "_phone/compiled/app.zip"]) {
    found.push(Boolean(await caches.match(new URL(name, location.href))));
  }
  return found;
}"""


def test_a_phone_keeps_the_app_and_scores_with_no_network(phone, static_site):
    context, page = phone()
    page.goto(static_site)
    expect(page.locator("#status")).to_contain_text("Keeping the app on this phone")
    # the app's own first page, answered by the app on the phone
    expect(page.locator("h1")).to_have_text("Matches", timeout=READY_MS)
    expect(page.locator("#where")).to_contain_text("On this phone only")

    context.set_offline(True)
    page.reload()
    expect(page.locator("h1")).to_have_text("Matches", timeout=READY_MS)
    start_pad(page, static_site.rstrip("/"), ["Ann", "Bob", "Cy"], target="50")
    type_points(page, [10, 20, 5])
    save_hand(page, 1, "Ann +10, Bob +20, Cy +5")
    expect_totals(page, {"Ann": 10, "Bob": 20, "Cy": 5})
    type_points(page, [45, 0, 5])
    save_hand(page, 2, "Ann +45, Bob 0, Cy +5", ends=True)
    expect(page.locator("#game-over .banner-winner")).to_have_text("Ann wins")
    match_url = page.url
    context.close()

    # the browser closed and opened again with no network: the match and its hands are kept,
    # and Python starts from the code the first start compiled (sw.js: boot takes the
    # compiled copy whenever it is kept, so the pages below are answered by it)
    context, page = phone(offline=True)
    page.goto(static_site)
    expect(page.locator("h1")).to_have_text("Matches", timeout=READY_MS)
    assert page.evaluate(KEPT_COMPILED) == [True, True]
    expect(page.locator("main")).to_contain_text("Ann, Bob, Cy")
    page.goto(match_url)
    expect(page.locator("#hand-1")).to_be_visible()
    expect(page.locator("#hand-2")).to_be_visible()
    expect_totals(page, {"Ann": 55, "Bob": 20, "Cy": 10})
    expect(page.locator("#game-over .banner-winner")).to_have_text("Ann wins")


def test_the_server_offers_to_keep_the_app_and_a_plain_visit_fetches_none_of_it(phone, live_server):
    context, page = phone()
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(live_server + "/")
    start_pad(page, live_server, ["Ann", "Bob"])  # a plain visit: the server's own match page
    assert not [url for url in fetched if "/offline/" in url], fetched

    page.goto(live_server + "/")
    page.get_by_role("link", name="Keep on this phone").click()
    page.wait_for_url(live_server + "/offline/")
    # kept from the server: its records go there, so never "no server" (a static build says that)
    expect(page.locator("#where")).to_have_text(
        "On this phone, no network needed: what is recorded here goes to the server when it is in reach.",
        timeout=READY_MS)
    expect(page.locator("main")).not_to_contain_text("Ann, Bob")  # the phone's matches, not the server's
    context.set_offline(True)
    page.reload()
    start_pad(page, live_server + "/offline", ["Cy", "Dee"])
    type_points(page, [7, 3])
    save_hand(page, 1, "Cy +7, Dee +3")
    expect_totals(page, {"Cy": 7, "Dee": 3})
    assert page.url.startswith(live_server + "/offline/matches/")


def test_on_a_plain_http_address_keeping_the_app_says_it_needs_https(phone, live_server):
    port = live_server.rsplit(":", 1)[1]
    _context, page = phone(args=("--host-resolver-rules=MAP table.test 127.0.0.1",))
    # no console error either: the opener policy, ignored on a plain-http address, is not sent there
    page.goto(f"http://table.test:{port}/")
    expect(page.locator("#keep")).to_be_visible()
    page.get_by_role("link", name="Keep on this phone").click()
    expect(page.locator("#status")).to_have_text("Keeping the app on this phone needs HTTPS: open it at an https:// "
                                                 "address. Scoring with the server works as before.")


# What the app's stylesheet gives a page, read from it: an unstyled page has none of it.
APP_LOOK = """() => {
  const body = getComputedStyle(document.body), card = document.querySelector("main .card"),
        brand = document.querySelector(".brand");
  return {body: body.backgroundColor, font: body.fontFamily.split(",")[0], text: parseFloat(body.fontSize),
          card: card && getComputedStyle(card).backgroundColor, corner: card && getComputedStyle(card).borderRadius,
          brand: brand && getComputedStyle(brand).fontWeight};
}"""


def test_the_first_page_has_the_apps_look_at_any_width_and_text_size(phone, live_server):
    """The page a phone shows while the app starts (here it stays: a plain-http address
    cannot keep the app) wears the app's own stylesheet, at 390 and 320 px and 200% text."""
    port = live_server.rsplit(":", 1)[1]
    _context, page = phone(args=("--host-resolver-rules=MAP table.test 127.0.0.1",))
    page.goto(f"http://table.test:{port}/offline/")
    expect(page.locator("#status")).to_contain_text("needs HTTPS")
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "offline-first-page-390.png"), full_page=True)
    look = page.evaluate(APP_LOOK)
    # the app's light colours (the phone is in light mode here), its fonts, its 17 px text, its cards
    assert look == {"body": "rgb(238, 241, 245)", "font": "system-ui", "text": 17, "card": "rgb(255, 255, 255)",
                    "corner": "14px", "brand": "800"}, look
    assert axe_check(page) == []
    assert layout_problems(page) == []
    page.set_viewport_size(NARROW)
    page.screenshot(path=str(SCREENSHOTS / "offline-first-page-320.png"), full_page=True)
    assert layout_problems(page) == []
    text_size(page, 200)
    expect(page.locator("#status")).to_contain_text("needs HTTPS")
    assert page.evaluate(APP_LOOK)["text"] >= 34
    assert layout_problems(page) == []
    # only the screen: a whole-page screenshot sets the text size back
    page.screenshot(path=str(SCREENSHOTS / "offline-first-page-320-200pc.png"))


# --- every game, a whole match with no network ----------------------------------------------

# every game the app registers (the tests' own oddball is registered in this process only)
SHIPPED = [key for key, game in GAMES.items() if type(game).__module__.startswith("scorekeeper.")]

def shortest_match(key: str) -> Match:
    """The game's own hands (``Rules.random_hand``, through ``samples.random_match``) under the
    sample settings that end a match soonest: a whole match, to the game's own end."""
    game, found = GAMES[key], None
    for settings in ({}, *game.sample_settings):
        for seed in range(20):
            match = random_match(key, 60, seed, settings=dict(game.defaults(), **settings))
            if replay(match).next_dealer is None and (found is None or len(match.hands) < len(found.hands)):
                found = match
    assert found is not None, f"{key}: no sample settings end a match within 60 hands"
    return found


def start_offline(page, site: str, match: Match) -> None:
    """As a user: Start a match, tap the game, type the names, first dealer and settings."""
    game = GAMES[match.game]
    page.goto(site + "/")
    page.get_by_role("link", name="Start a match").click()
    page.wait_for_url(re.compile(r"/matches/new$"))
    wait_htmx(page, "fieldset.game-choice")
    page.locator("label.game-card", has=page.locator(f'input[value="{match.game}"]')).click()
    expect(page.locator("#game-fields .settings legend")).to_have_text(f"{game.title} settings")
    for i, name in enumerate(match.players):
        page.fill(f"#player_{i}", name)
    page.select_option("#first_dealer", str(match.first_dealer))
    for setting in game.settings:
        value, field = match.settings[setting.name], page.locator(f"#setting_{setting.name}")
        if value == game.defaults()[setting.name]:
            continue  # shown filled in already
        if setting.kind == "bool":
            field.set_checked(bool(value))
        elif setting.kind in ("int", "int_or_null", "text", "choice"):
            shown = "" if value is None else str(value)
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(shown)
            else:
                field.fill(shown)
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/matches/\d+$"))
    expect(page.locator(".match-head h1")).to_have_text(game.display_name(game.unplayed_place(match.settings)))
    wait_htmx(page, "#preview")


def fill_hand(page, values: dict[str, list[str]]) -> None:
    """Type a hand into the form as its inputs would send it (``hand_forms.browser_values``):
    tap the chips and boxes, pick from the lists, type the numbers; a field already showing
    its value is left alone, one folded away is unfolded first."""
    form = page.locator("#hand-form")
    for name, wanted in values.items():
        inputs = form.locator(f'[name="{name}"]')
        if inputs.count() == 0:
            continue
        kind = inputs.first.evaluate("e => e.tagName === 'SELECT' ? 'select' : e.type")
        if kind == "hidden":
            continue
        if kind in ("radio", "checkbox"):
            for box in inputs.all():
                if box.is_checked() != (box.get_attribute("value") in wanted):
                    label = form.locator(f'label:has(input[name="{name}"][value="{box.get_attribute("value")}"])')
                    target = label if label.count() else box
                    unfold(target)
                    target.click()
        elif kind == "select" and inputs.first.evaluate("e => [...e.selectedOptions].map(o => o.value)") != wanted:
            unfold(inputs.first)
            inputs.first.select_option(wanted)
        elif kind != "select" and wanted and inputs.first.input_value() != wanted[0]:
            unfold(inputs.first)
            inputs.first.fill(wanted[0])


def unfold(field) -> None:
    """Open the folded part of the form (``<details>``) ``field`` is in, as a user would."""
    if not field.is_visible():
        field.locator("xpath=ancestor::details[1]/summary").click()


def preview_words(match: Match, scores: list[int]) -> str:
    return ", ".join(f"{name} {signed(points)}" for name, points in zip(match.players, scores))


def typed(match: Match, played: Match, hand: dict) -> dict[str, list[str]]:
    """``hand`` as its form's inputs send it, at the place ``played`` leaves the match."""
    with create_app({"TESTING": True, "DATABASE": ":memory:"}).test_request_context():
        return browser_values(GAMES[match.game], replay(played).next_place(), hand)


def play_offline(page, site: str, match: Match) -> str:
    """Start ``match`` on the phone and play every hand of it to the game's end, through the
    preview, Why?, Undo (the hand given back and saved again), Edit, the log, the needs panel,
    the seat picture, the referee, print and export. Returns the match's address."""
    result = replay(match)
    start_offline(page, site, match)
    url = page.url
    expect(page.locator("#where")).to_have_text("On this phone only: no server, no network needed.")
    expect(page.locator("#seat-picture svg")).to_be_visible()
    if page.locator("#referee-link").count():
        page.locator("#referee-link").click()
        page.locator('#referee button[name="add"]').first.click()
        expect(page.locator(".ref-slot:not(.empty)")).to_have_count(1)
        page.goto(url)
        wait_htmx(page, "#preview")
    played = Match(game=match.game, players=match.players, settings=match.settings, first_dealer=match.first_dealer)
    for number, hand in enumerate(match.hands, start=1):
        fill_hand(page, typed(match, played, hand))
        ends = number == len(match.hands)
        save_hand(page, number, preview_words(match, result.hands[number - 1].scores), ends=ends)
        played.hands.append(hand)
        if number == 1:
            why = page.locator("#hand-1 details.why")
            why.locator("summary").click()
            expect(why).to_contain_text(result.hands[0].explanation[0])
            page.get_by_role("link", name="Undo hand 1").click()
            page.get_by_role("button", name="Undo hand 1").click()
            expect(page.locator(".notice")).to_contain_text("Hand 1 undone")
            expect(page.locator("#hand-form .draft-note")).to_contain_text("Draft kept on this phone")
            wait_htmx(page, "#preview")
            save_hand(page, 1, preview_words(match, result.hands[0].scores), ends=ends)  # as it came back
            page.locator("#hand-1").get_by_role("link", name="Edit").click()
            expect(page.locator("h1")).to_contain_text("Correct hand 1")
            expect(page.locator("#hand-form, #tally-choice")).to_be_visible()
            if page.locator("#tally-choice").count():  # a hand typed trick by trick is corrected the same way
                expect(page.get_by_role("link", name="Correct it trick by trick")).to_be_visible()
            else:
                first = typed(match, Match(game=match.game, players=match.players, settings=match.settings,
                                           first_dealer=match.first_dealer), hand)
                shown = page.locator("#hand-form").evaluate(
                    "(f, names) => Object.fromEntries(names.map(n => [n, new FormData(f).getAll(n).filter(v => v)]))",
                    list(first))
                assert shown == {name: [v for v in values if v] for name, values in first.items()}  # to correct
            page.goto(url)
            page.get_by_role("link", name="Match log").click()
            expect(page.locator("h1")).to_have_text("Match log")
            expect(page.locator("main")).to_contain_text("Undid hand 1")
            expect(page.locator("main")).to_contain_text("Saved hand 1")
            page.goto(url)
            if not ends:
                wait_htmx(page, "#preview")
        if page.locator("details.needs").count():
            page.locator("details.needs summary").click()
            expect(page.locator("details.needs .needs-seats li")).to_have_count(len(match.players))
            page.locator("details.needs summary").click()
    expect(page.locator("#game-over .banner-winner")).to_be_visible()
    expect(page.locator("#record")).to_have_count(0)
    expect_totals(page, dict(zip(match.players, result.totals)))

    with page.expect_download() as download:
        page.get_by_role("link", name="Export JSON").click()
    exported = json.loads(Path(download.value.path()).read_text())
    assert (exported["game"], exported["players"], len(exported["hands"])) == (match.game, match.players,
                                                                            len(match.hands))
    for mine, out in zip(match.hands, exported["hands"]):  # as played (the form adds its defaults)
        assert {name: out.get(name) for name in mine} == mine
    page.add_init_script("window.print = function () { window.__printed = (window.__printed || 0) + 1; };")
    page.get_by_role("link", name="Print", exact=True).click()
    page.wait_for_url(re.compile(r"/matches/\d+/print"))
    page.wait_for_function("window.__printed === 1")
    expect(page.locator("table.grid tbody tr")).to_have_count(len(match.hands))
    return url


def test_every_game_is_played_to_its_end_with_no_network_and_kept(phone, static_site):
    site = static_site.rstrip("/")
    context, page = phone()
    page.goto(static_site)
    expect(page.locator("h1")).to_have_text("Matches", timeout=READY_MS)
    context.set_offline(True)
    page.reload()
    expect(page.locator("h1")).to_have_text("Matches", timeout=READY_MS)
    played = {key: shortest_match(key) for key in SHIPPED}
    urls = {key: play_offline(page, site, match) for key, match in played.items()}
    context.close()

    # the browser closed and opened again with no network: every match, every hand
    context, page = phone(offline=True)
    page.goto(static_site)
    expect(page.locator("h1")).to_have_text("Matches", timeout=READY_MS)
    for key, match in played.items():
        page.goto(urls[key])
        expect(page.locator("#hand-table tbody")).to_have_count(len(match.hands))
        for number in range(1, len(match.hands) + 1):
            expect(page.locator(f"#hand-{number}")).to_be_visible()
        expect_totals(page, dict(zip(match.players, replay(match).totals)))
        expect(page.locator("#game-over .banner-winner")).to_be_visible()
        expect(page.locator("#where")).to_contain_text("On this phone only")  # where it stands, nothing waiting
        expect(page.locator(".offline")).to_have_count(0)
        expect(page.locator("body")).not_to_contain_text("can't reach")


# --- a later start begins from a snapshot of Python's memory --------------------------------

SNAPSHOT_BYTES = """async () => {
  const kept = await caches.match(new URL("/_phone/compiled/memory.bin", location.origin));
  return kept ? (await kept.arrayBuffer()).byteLength : 0;
}"""

BREAK_SNAPSHOT = """async () => {
  for (const name of await caches.keys()) {
    await (await caches.open(name)).put(new URL("/_phone/compiled/memory.bin", location.origin),
                                        new Response("not a snapshot"));
  }
}"""


def started_from(context) -> str:
    """How the service worker's Python started this time (sw.js's steps)."""
    worker = next(worker for worker in context.service_workers if worker.url.endswith("/sw.js"))
    return next(name for name, _ in worker.evaluate("self.startSteps") if name.startswith("loadPyodide"))


def test_a_later_start_begins_from_the_snapshot_and_one_that_cannot_be_read_is_made_again(phone, static_site):
    context, page = phone()
    page.goto(static_site)
    expect(page.locator("h1")).to_have_text("Matches", timeout=READY_MS)
    # after its first page, the first start keeps the compiled copies, then the snapshot
    page.wait_for_function(SNAPSHOT_BYTES, timeout=READY_MS, polling=250)
    context.set_offline(True)
    start_pad(page, static_site.rstrip("/"), ["Ann", "Bob"], target="50")
    type_points(page, [10, 20])
    save_hand(page, 1, "Ann +10, Bob +20")
    match_url = page.url
    context.close()

    # the next start, with no network, is Python's memory as the snapshot kept it: the app
    # answers from it, and a hand is saved as before
    context, page = phone(offline=True)
    page.goto(match_url)
    expect(page.locator("#hand-1")).to_be_visible(timeout=READY_MS)
    assert started_from(context) == "loadPyodide (from the snapshot)"
    type_points(page, [30, 5])
    save_hand(page, 2, "Ann +30, Bob +5")
    expect_totals(page, {"Ann": 40, "Bob": 25})
    page.evaluate(BREAK_SNAPSHOT)
    assert page.evaluate(SNAPSHOT_BYTES) == len("not a snapshot")
    context.close()

    # a snapshot that cannot be read: Python starts without it, nothing is lost, and the
    # snapshot is made again for the starts after
    context, page = phone(offline=True)
    page.goto(match_url)
    expect(page.locator("#hand-2")).to_be_visible(timeout=READY_MS)
    expect_totals(page, {"Ann": 40, "Bob": 25})
    assert started_from(context) == "loadPyodide (its compiled standard library read, Python started)"
    page.wait_for_function(f"async () => (await ({SNAPSHOT_BYTES})()) > 1000000", timeout=READY_MS, polling=250)


# --- an update keeps the data ----------------------------------------------------------------

NEWER_MIGRATION = '''

@migrations()
def m999_a_newer_version(db: Database) -> None:
    """Only in the newer build of the update test: proves it ran on the phone's database."""
    db.execute("UPDATE matches SET note = 'Kept through the update'")
'''


def build_site(folder: Path, package: Path | None = None) -> None:
    """``scorekeeper build-offline folder``, of ``package`` (a changed copy) if given."""
    env = dict(os.environ, PYTHONPATH=str(package.parent)) if package else None
    command = [sys.executable, "-c", "import sys; from scorekeeper.cli import main; sys.exit(main(sys.argv[1:]))",
               "build-offline", str(folder)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env, cwd=folder.parent)
    assert done.returncode == 0, done.stderr


def test_an_update_is_taken_on_the_next_start_and_keeps_every_match(phone, tmp_path):
    site_folder = tmp_path / "site"
    build_site(site_folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(QuietHandler, directory=str(site_folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site = f"http://127.0.0.1:{server.server_port}"
    try:
        context, page = phone()
        page.goto(site + "/")
        expect(page.locator("h1")).to_have_text("Matches", timeout=READY_MS)
        context.set_offline(True)
        start_pad(page, site, ["Ann", "Bob", "Cy"], target="50")
        type_points(page, [10, 20, 5])
        save_hand(page, 1, "Ann +10, Bob +20, Cy +5")
        match_url = page.url
        context.close()

        # a newer version (one more migration) is put on the site
        newer = tmp_path / "newer" / "scorekeeper"
        shutil.copytree(Path(scorekeeper.__file__).parent, newer, ignore=shutil.ignore_patterns("__pycache__"))
        with open(newer / "store" / "schema.py", "a") as schema:
            schema.write(NEWER_MIGRATION)
        build_site(site_folder, newer)

        # the phone opens the app with the network: this start is the old version's, which
        # takes the new one for the next start
        context, page = phone()
        page.add_init_script("navigator.serviceWorker.addEventListener('controllerchange',"
                             " () => { window.__updated = true; })")
        page.goto(site + "/")
        expect(page.locator("h1")).to_have_text("Matches", timeout=READY_MS)
        expect(page.locator("main")).to_contain_text("Ann, Bob, Cy")
        expect(page.locator("main")).not_to_contain_text("Kept through the update")
        page.wait_for_function("() => window.__updated === true", timeout=READY_MS)  # the browser found the new worker
        context.close()

        # the next start, with no network: the newer app, its migration run, every hand kept
        context, page = phone(offline=True)
        page.goto(site + "/")
        expect(page.locator("h1")).to_have_text("Matches", timeout=READY_MS)
        expect(page.locator(".match-note")).to_have_text("Kept through the update")
        page.goto(match_url)
        expect(page.locator("#hand-1")).to_be_visible()
        expect_totals(page, {"Ann": 10, "Bob": 20, "Cy": 5})
    finally:
        server.shutdown()
        server.server_close()
