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
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import CHROMIUM, PHONE
from .test_score_pad import start_pad, type_points
from .test_table_app import expect_totals, save_hand

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

    # the browser closed and opened again with no network: the match and its hands are kept
    context, page = phone(offline=True)
    page.goto(static_site)
    expect(page.locator("h1")).to_have_text("Matches", timeout=READY_MS)
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
    expect(page.locator("#where")).to_contain_text("On this phone only", timeout=READY_MS)
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
    phone.allow("Cross-Origin-Opener-Policy header has been ignored")  # as on any plain-http address today
    page.goto(f"http://table.test:{port}/")
    expect(page.locator("#keep")).to_be_visible()
    page.get_by_role("link", name="Keep on this phone").click()
    expect(page.locator("#status")).to_have_text("Keeping the app on this phone needs HTTPS: open it at an https:// "
                                                 "address. Scoring with the server works as before.")
