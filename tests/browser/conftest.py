"""Browser tests: the real ``scorekeeper serve`` on a temp database, driven by
Debian's Chromium through Playwright at a phone viewport. Where Chromium is
missing these tests fail (never skip): install it with
``apt-get update && apt-get install -y chromium``."""
from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"
PHONE = {"width": 390, "height": 844}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(env: dict) -> tuple[subprocess.Popen, str]:
    """The real ``scorekeeper serve`` on a free loopback port with ``env``, once it answers."""
    port = free_port()
    command = [str(Path(sys.executable).with_name("scorekeeper")), "serve", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            urllib.request.urlopen(url + "/", timeout=1)
            return server, url
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                pytest.fail(f"scorekeeper serve did not start:\n{server.stdout.read()}")
            time.sleep(0.1)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The app as a user starts it, on loopback, with its own database."""
    from tests.oddball import ENV

    env = dict(os.environ, **ENV, SCOREKEEPER_DATABASE=str(tmp_path_factory.mktemp("live") / "live.sqlite"),
               SCOREKEEPER_MATCHES_PER_MINUTE="1000", SCOREKEEPER_MATCHES_PER_HOUR="100000",  # every browser test starts matches from 127.0.0.1
               SCOREKEEPER_WRITES_PER_MINUTE="100000", SCOREKEEPER_NEW_DEVICES_PER_MINUTE="100000",
               SCOREKEEPER_HEAVY_READS_PER_MINUTE="100000")  # the print tests print hundreds of sheets
    server, url = start_server(env)
    yield url
    server.terminate()
    server.wait(timeout=10)


# Every console error and page error of every tab of every context the browser opens,
# since the last test ended: the autouse fixture below fails the test they happened in
# (a module fixture's tabs count toward the first test that uses it).
CONSOLE_ERRORS: list[str] = []
ALLOWED: list[str] = []  # console messages a test causes on purpose, for that test only


def watch(context):
    """Record the console errors and uncaught page errors of every tab of ``context``."""
    context.on("console", lambda msg: CONSOLE_ERRORS.append(f"console: {msg.text} at {msg.page.url if msg.page else ''}")
               if msg.type == "error" else None)
    context.on("weberror", lambda error: CONSOLE_ERRORS.append(f"page error: {error.error}"))
    return context


@pytest.fixture(autouse=True)
def no_console_errors():
    """Any console error (a Content-Security-Policy refusal among them) in any tab fails the test."""
    yield
    found = [e for e in CONSOLE_ERRORS if not any(a in e for a in ALLOWED)]
    CONSOLE_ERRORS.clear()
    ALLOWED.clear()
    assert not found, found


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `apt-get update && apt-get install -y chromium`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        opened = chromium.new_context
        chromium.new_context = lambda **options: watch(opened(**options))  # type: ignore[method-assign]
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A fresh phone-sized tab; any page error or failed request fails the test (no_console_errors)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    tab = context.new_page()
    yield tab
    context.close()


@pytest.fixture
def phones(browser):
    """new(js=True) -> a fresh phone-sized tab in its own context; console
    errors and page errors in any of them fail the test (no_console_errors)."""
    contexts = []

    def new(js: bool = True):
        context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
                                      java_script_enabled=js)
        contexts.append(context)
        return context.new_page()
    new.allow = ALLOWED.append  # a console message the test causes on purpose
    yield new
    for context in contexts:
        context.close()


@pytest.fixture
def screenshot(page):
    """Save a screenshot under screenshots/ (git-ignored) for a person to look at."""
    def take(name: str, full_page: bool = True) -> Path:
        """``full_page=False``: only what is on the screen, for what must be in view."""
        SCREENSHOTS.mkdir(exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        # caret="initial": hiding the caret writes style="" on inputs, which the CSP (rightly) blocks
        page.screenshot(path=str(path), full_page=full_page, caret="initial")
        return path
    return take


def pytest_collection_modifyitems(config, items):
    """Every test here drives real Chromium: ``-m "not browser"`` leaves them out on purpose."""
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)


def import_file(page, live_server: str, text: str) -> int:
    """Import a match file through the real import page (this phone then scores it);
    returns the new match's id."""
    page.goto(f"{live_server}/import")
    page.set_input_files("input[type=file]", files=[{"name": "match.json", "mimeType": "application/json",
                                                      "buffer": text.encode()}])
    page.get_by_role("button", name="Import").click()
    page.wait_for_url(re.compile(r"/matches/\d+$"))
    return int(page.url.rsplit("/", 1)[1])
