"""A phone that kept the app (Chromium, a persistent profile, on localhost against the real
``scorekeeper serve``) plays a match with no server in reach, and the match reaches the
server when it is back: the server's copy has the same scores, and it is there once; the
corrections and undos made later with no server follow it. A whole match of every game
goes the same way. Then a server match copied onto the phone takes the hands a second
phone records there, goes on with no server while the second phone records on the
server: when the first phone is back it shows both versions, and keeping its hands as a
copy loses nothing on either side. The server is stopped (and the browser set
offline) to be out of reach, and started again on the same port and database."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper import store
from scorekeeper.engine import Match, replay

from .conftest import SCREENSHOTS, free_port
from .test_layout import axe_check
from .test_offline import (  # noqa: F401 (phone: the kept app's fixture)
    READY_MS,
    SHIPPED,
    fill_hand,
    phone,
    preview_words,
    shortest_match,
    start_offline,
    typed,
)
from .test_score_pad import start_pad, type_points
from .test_table_app import expect_totals, save_hand, wait_htmx


class Server:
    """The real ``scorekeeper serve`` on one port and database, stopped and started again."""

    def __init__(self, database: Path) -> None:
        from tests.oddball import ENV

        self.port = free_port()
        self.url = f"http://localhost:{self.port}"  # localhost: a secure origin, service workers run there
        self.database = database
        self.env = dict(os.environ, **ENV, SCOREKEEPER_DATABASE=str(database))
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        command = [str(Path(sys.executable).with_name("scorekeeper")), "serve", "--host", "127.0.0.1",
                   "--port", str(self.port)]
        self.process = subprocess.Popen(command, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(self.url + "/", timeout=1)
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("scorekeeper serve did not start")
                time.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def matches(self) -> list[Match]:
        """Every match on the server, oldest first."""
        db = store.connect(str(self.database))
        try:
            ids = [row[0] for row in db.execute("select id from matches where deleted_at is null order by id")]
            return [store.get_record(db, match_id).match for match_id in ids]
        finally:
            db.close()

    def matches_of(self, *players: str) -> list[list[list[int]]]:
        """Each match on the server with these players: its hands' points."""
        return [[h["points"] for h in match.hands] for match in self.matches() if tuple(match.players) == players]


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "server.sqlite")
    running.start()
    yield running
    running.stop()


def reload_until(page, selector: str, words: str, tries: int = 40) -> None:
    """The phone sends what waits after it answered a request: reload until the page says so."""
    for _ in range(tries):
        page.reload()
        if words in " ".join(page.locator(selector).inner_text().split()):
            return
        page.wait_for_timeout(500)
    expect(page.locator(selector)).to_contain_text(words)  # fails saying what the page says


def reload_until_shown(page, selector: str, tries: int = 40) -> None:
    for _ in range(tries):
        page.reload()
        if page.locator(selector).count():
            return
        page.wait_for_timeout(500)
    expect(page.locator(selector)).to_be_visible()


def out_of_reach(context, server: Server) -> None:
    server.stop()
    context.set_offline(True)


def back(context, server: Server) -> None:
    server.start()
    context.set_offline(False)


class Silent:
    """A server that takes connections on the server's port and never answers: a laptop
    asleep, or a network that lets the phone connect but never passes an answer back."""

    def __init__(self, port: int) -> None:
        self.socket = socket.create_server(("127.0.0.1", port))
        self.taken: list[socket.socket] = []

    def accept_all(self) -> None:
        self.socket.settimeout(0.05)
        try:
            while True:
                self.taken.append(self.socket.accept()[0])  # held open, never read, never answered
        except TimeoutError:
            pass

    def close(self) -> None:
        for connection in self.taken:
            connection.close()
        self.socket.close()


def keep_app(phone_launch, server: Server):
    context, page = phone_launch()
    page.goto(server.url + "/offline/")
    expect(page.locator("#where")).to_contain_text("On this phone, no network needed", timeout=READY_MS)
    return context, page


def test_a_match_played_with_no_server_reaches_it_when_it_is_back(phone, server):  # noqa: F811
    context, page = keep_app(phone, server)
    context.set_offline(True)
    server.stop()  # out of reach
    page.reload()
    start_pad(page, server.url + "/offline", ["Ann", "Bob", "Cy"], target="50")
    type_points(page, [10, 20, 5])
    save_hand(page, 1, "Ann +10, Bob +20, Cy +5")
    type_points(page, [45, 0, 5])
    save_hand(page, 2, "Ann +45, Bob 0, Cy +5", ends=True)
    expect(page.locator("#sync-state")).to_have_text(
        "On this phone only: 2 hands wait to be sent, with the match, when the server is in reach.")
    match_url = page.url

    server.start()
    context.set_offline(False)
    reload_until(page, "#sync-state", "On the server too: every hand is there")
    page.goto(server.url + "/offline/")
    expect(page.locator("#sync-waiting")).to_have_text("With the server: nothing waits to be sent.")
    page.goto(match_url)  # more requests: nothing is sent twice
    page.reload()
    assert server.matches_of("Ann", "Bob", "Cy") == [[[10, 20, 5], [45, 0, 5]]]

    # out of reach again: hand 1 corrected, hand 2 undone and played again, on the phone alone
    out_of_reach(context, server)
    page.reload()
    page.locator("#hand-1").get_by_role("link", name="Edit").click()
    expect(page.locator("h1")).to_contain_text("Correct hand 1")
    wait_htmx(page, "#preview")
    type_points(page, [12, 20, 5])
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator(".notice")).to_contain_text("Hand 1 corrected.")
    page.get_by_role("link", name="Undo hand 2").click()
    page.get_by_role("button", name="Undo hand 2").click()
    expect(page.locator(".notice")).to_contain_text("Hand 2 undone")
    expect(page.locator("#sync-state")).to_have_text(
        "On the server too: 2 corrections wait to be sent when it is in reach.")
    wait_htmx(page, "#preview")
    type_points(page, [40, 0, 5])
    save_hand(page, 2, "Ann +40, Bob 0, Cy +5", ends=True)
    expect(page.locator("#sync-state")).to_have_text(
        "On the server too: 1 hand and 2 corrections wait to be sent when it is in reach.")
    page.goto(server.url + "/offline/")
    expect(page.locator("#sync-waiting")).to_have_text(
        "With the server: 1 hand and 2 corrections wait to be sent, when it is in reach.")

    back(context, server)
    page.goto(match_url)
    reload_until(page, "#sync-state", "On the server too: every hand is there")
    page.reload()  # more requests: nothing is done twice
    assert server.matches_of("Ann", "Bob", "Cy") == [[[12, 20, 5], [40, 0, 5]]]

    # it continues on the server: the same scores there
    page.get_by_role("link", name="Continue on the server").click()
    page.wait_for_url(re.compile(re.escape(server.url) + r"/matches/\d+$"))
    expect_totals(page, {"Ann": 52, "Bob": 20, "Cy": 10})
    expect(page.locator("#game-over .banner-winner")).to_have_text("Ann wins")
    context.close()  # before the server stops: its page polls it


def test_a_server_match_goes_on_on_the_phone_with_no_server_while_another_phone_records_there(
        phone, server, browser):  # noqa: F811
    context, page = keep_app(phone, server)
    # a match on the server, scored from this phone's browser; the phone keeps a copy of it
    start_pad(page, server.url, ["Ann", "Bob"], target="100")
    type_points(page, [10, 20])
    save_hand(page, 1, "Ann +10, Bob +20")
    keep = page.locator("#keep-copy")
    page.get_by_text("Share this match").first.click()
    keep.click()
    page.wait_for_url(server.url + "/offline/")
    reload_until(page, "main", "Ann, Bob")
    page.locator('main a[href^="/offline/matches/"]:not([href*="new"])').first.click()
    expect(page.locator("#sync-state")).to_have_text("On the server too: every hand is there.")
    expect_totals(page, {"Ann": 10, "Bob": 20})
    scorer_link = page.locator("#sync-scorer").get_attribute("href")
    assert scorer_link and scorer_link.startswith(server.url + "/s/")
    # the watcher's page is a button a thumb taps (an inline address ran over two lines, 40 px high)
    for width in (390, 320):
        page.set_viewport_size({"width": width, "height": 844})
        expect(page.locator("#sync a")).to_have_count(2)  # the scorer's and the watcher's
        for link in page.locator("#sync a").all():
            box = link.bounding_box()
            assert box and box["height"] >= 44 and box["width"] >= 44, (link.inner_text(), width, box)
        page.locator("#sync").screenshot(path=str(SCREENSHOTS / f"offline-sync-watcher-{width}.png"), caret="initial")
    page.set_viewport_size({"width": 390, "height": 844})
    watcher = page.locator("#sync-watcher")
    expect(watcher).to_have_text("Watch on the server")
    assert (watcher.get_attribute("href") or "").startswith(server.url + "/w/")
    expect(page.locator("#sync")).to_contain_text("Watcher link, to share: " + server.url + "/w/")

    # a second phone at the table records hand 2 on the server: this phone's copy takes it
    other = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    second = other.new_page()
    second.goto(scorer_link)
    type_points(second, [0, 40])
    save_hand(second, 2, "Ann 0, Bob +40")
    reload_until_shown(page, "#hand-2")
    expect_totals(page, {"Ann": 10, "Bob": 60})
    expect(page.locator("#sync-state")).to_have_text("On the server too: every hand is there.")

    second.goto("about:blank")  # its page would poll the stopped server
    out_of_reach(context, server)  # mid-match: the phone goes on on its own, after the server's hand 2
    page.reload()
    wait_htmx(page, "#preview")
    type_points(page, [7, 3])
    save_hand(page, 3, "Ann +7, Bob +3")
    expect(page.locator("#sync-state")).to_contain_text("On the server too: 1 hand waits to be sent")

    server.start()  # back, and the second phone records its own hand 3 there first
    second.goto(scorer_link)
    type_points(second, [0, 30])
    save_hand(second, 3, "Ann 0, Bob +30")

    context.set_offline(False)
    reload_until(page, "#sync", "Another phone recorded on the server while this one scored on its own")
    versions = page.locator(".sync-version")
    expect(versions.nth(0)).to_contain_text("On this phone")
    expect(versions.nth(0)).to_contain_text("Hand 3: Ann +7, Bob +3")
    expect(versions.nth(1)).to_contain_text("On the server")
    expect(versions.nth(1)).to_contain_text("Hand 3: Ann 0, Bob +30")
    assert server.matches_of("Ann", "Bob") == [[[10, 20], [0, 40], [0, 30]]]
    assert axe_check(page) == []
    SCREENSHOTS.mkdir(exist_ok=True)
    page.locator("#sync").screenshot(path=str(SCREENSHOTS / "offline-sync-both-versions.png"), caret="initial")

    page.get_by_role("button", name="Keep this phone's hands as a copy of the match").click()
    reload_until(page, "#sync-state", "On the server too: every hand is there")
    # nothing lost: the server's match as the second phone left it, and this phone's as a copy
    assert server.matches_of("Ann", "Bob") == [[[10, 20], [0, 40], [0, 30]], [[10, 20], [0, 40], [7, 3]]]
    second.reload()
    expect_totals(second, {"Ann": 10, "Bob": 90})
    page.get_by_role("link", name="Continue on the server").click()
    expect_totals(page, {"Ann": 17, "Bob": 63})
    other.close()
    context.close()  # before the server stops: its page polls it


def test_every_game_played_with_no_server_is_kept_and_reaches_it_with_the_same_scores(phone, server):  # noqa: F811
    """Issue 29's "Done when": the app kept from the server, the network off, a whole match of
    every game played; the browser closed and opened again with no network finds every hand;
    back online, every match is sent, and the server's copies have the same hands and scores."""
    context, page = keep_app(phone, server)
    out_of_reach(context, server)
    page.reload()
    expect(page.locator("#where")).to_contain_text("On this phone, no network needed", timeout=READY_MS)
    site = server.url + "/offline"
    played = {key: shortest_match(key) for key in SHIPPED}
    urls = {}
    for key, match in played.items():
        result = replay(match)
        start_offline(page, site, match)
        so_far = Match(game=match.game, players=match.players, settings=match.settings, first_dealer=match.first_dealer)
        for number, hand in enumerate(match.hands, start=1):
            fill_hand(page, typed(match, so_far, hand))
            save_hand(page, number, preview_words(match, result.hands[number - 1].scores),
                      ends=number == len(match.hands))
            so_far.hands.append(hand)
        count = len(match.hands)
        expect(page.locator("#sync-state")).to_have_text(
            f"On this phone only: {count} hand{'' if count == 1 else 's'} wait{'s' if count == 1 else ''} to be "
            "sent, with the match, when the server is in reach.")
        urls[key] = page.url
    context.close()

    context, page = phone(offline=True)  # the browser opened again, still no network
    page.goto(site + "/")
    expect(page.locator("h1")).to_have_text("Matches", timeout=READY_MS)
    hands = sum(len(match.hands) for match in played.values())
    expect(page.locator("#sync-waiting")).to_have_text(
        f"With the server: {hands} hands wait to be sent ({len(played)} matches are not there yet), when it is in reach.")
    for key, match in played.items():
        page.goto(urls[key])
        expect(page.locator("#hand-table tbody")).to_have_count(len(match.hands))
        expect_totals(page, dict(zip(match.players, replay(match).totals)))

    back(context, server)
    page.goto(site + "/")
    reload_until(page, "#sync-waiting", "With the server: nothing waits to be sent.")
    on_server = server.matches()
    assert sorted(m.game for m in on_server) == sorted(played)  # each match once
    for match in on_server:
        mine = played[match.game]
        assert (match.players, match.settings, match.first_dealer) == (mine.players, mine.settings, mine.first_dealer)
        for kept, sent in zip(mine.hands, match.hands, strict=True):  # as played (the form adds its defaults)
            assert {name: sent.get(name) for name in kept} == kept
        assert replay(match).totals == replay(mine).totals
    for url in urls.values():  # each page says so
        page.goto(url)
        expect(page.locator("#sync-state")).to_have_text("On the server too: every hand is there.")
    context.close()  # before the server stops


def test_a_server_that_never_answers_holds_up_no_page(phone, server):  # noqa: F811
    """The phone sends after it answered a tap, outside the app's own queue: a server that
    takes the connection and never answers leaves every page and save of the phone as quick
    as with no network at all (item 6: no page waits for a network that is not there)."""
    context, page = keep_app(phone, server)
    start_pad(page, server.url + "/offline", ["Ann", "Bob"], target="100")
    type_points(page, [10, 20])
    save_hand(page, 1, "Ann +10, Bob +20")
    reload_until(page, "#sync-state", "On the server too: every hand is there")  # so it asks after each tap

    server.stop()
    silent = Silent(server.port)
    try:
        for number, points in ((2, [1, 2]), (3, [3, 4])):
            page.reload()  # answered by the phone, however long the server keeps the last question
            silent.accept_all()
            wait_htmx(page, "#preview")
            type_points(page, points)
            save_hand(page, number, f"Ann +{points[0]}, Bob +{points[1]}")
            silent.accept_all()
        expect(page.locator("#sync-state")).to_contain_text("On the server too: 2 hands wait to be sent")
        assert silent.taken, "the phone never asked the silent server"
    finally:
        context.close()
        silent.close()
