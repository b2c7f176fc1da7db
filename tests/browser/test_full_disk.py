"""The server's disk fills up during a match, for real (the database on a 1 MiB tmpfs
under the real ``scorekeeper serve``): Chromium keeps the hand as typed, says the server
could not save and why, and the same hand saves once room is made."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import ALLOWED, PHONE, SCREENSHOTS, start_server
from .test_table_app import choose, start_match, type_numbers

pytestmark = pytest.mark.browser


@pytest.fixture
def small_disk(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)], capture_output=True)
    if mounted.returncode:
        pytest.skip("mounting a small tmpfs needs root")
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(disk / "live.sqlite"), SCOREKEEPER_SECRET_KEY="disk")
    server, url = start_server(env)
    try:
        yield url, disk
    finally:
        server.terminate()
        server.wait(timeout=10)
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def fill(disk: Path) -> None:
    filler = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(filler, b"\0" * 65536)
    except OSError:
        pass
    finally:
        os.close(filler)


def test_a_full_disk_keeps_the_hand_on_the_phone_and_saves_it_once_there_is_room(browser, small_disk):
    url, disk = small_disk
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    ALLOWED.append("status of 503 (SERVICE UNAVAILABLE)")  # the full disk's answer, logged by Chromium
    try:
        start_match(page, url, "third_wheel", ["Ann", "Bob", "Cy"], {})
        for name, value in (("trump", "wyrms"), ("mode", "high")):
            choose(page, name, value)
        type_numbers(page, {"bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2})
        expect(page.locator("#preview .preview-line")).to_have_text("If saved: Ann +9, Bob 0, Cy +2")
        fill(disk)
        page.get_by_role("button", name="Save hand 1").click()
        box = page.locator("#hand-form .offline")
        expect(box).to_contain_text("The server could not save: its disk is full.")
        expect(box).to_contain_text("Nothing you typed was lost")
        for name, value in (("bid", "5"), ("tricks_0", "5"), ("tricks_1", "4"), ("tricks_2", "2")):
            expect(page.locator(f'#hand-form input[name="{name}"]')).to_have_value(value)
        page.screenshot(path=str(SCREENSHOTS / "table-disk-full.png"), caret="initial")
        os.unlink(disk / "filler")
        box.get_by_role("button", name="Try again").click()
        expect(page.locator(".notice")).to_contain_text("Hand 1 saved: Ann +9, Bob 0, Cy +2.")
        expect(page.locator("#hand-form .offline")).to_have_count(0)
    finally:
        context.close()
    assert not errors, errors
