"""The real ``scorekeeper serve`` stays up: 300 idle sockets (phones that opened a
connection and went quiet) do not lock anyone out. With waitress's default
connection limit of 100 the page below timed out."""
from __future__ import annotations

import http.client
import re
import socket
import sqlite3
import threading
import time
import urllib.request
from urllib.parse import urlencode

import pytest
from test_durability import serve  # the real server on a temp database, started and listening


def test_three_hundred_idle_sockets_do_not_lock_anyone_out(tmp_path):
    server, port = serve(tmp_path / "db.sqlite")
    idle: list[socket.socket] = []
    try:
        for _ in range(300):
            idle.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        time.sleep(0.5)  # the server has accepted them all
        # the timeout guards against a hang; with waitress's default limit of 100 the request
        # waits until idle sockets are dropped (30 s), which the check below tells apart
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=25) as response:
            assert response.status == 200 and b"Start a match" in response.read()
        for sock in (idle[0], idle[-1]):  # answered while every idle socket is still held open
            sock.setblocking(False)
            with pytest.raises(BlockingIOError):
                sock.recv(1)  # b"" (closed by the server) would mean it was dropped first
    finally:
        for sock in idle:
            sock.close()
        server.terminate()
        server.wait(timeout=10)


def raw_answer(port: int, request: bytes) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer and (chunk := sock.recv(65536)):
            answer += chunk
    return answer.decode("latin-1")


def test_the_servers_own_error_answers_carry_the_security_headers(tmp_path):
    """waitress answers a malformed request or a too-large header itself, before the app."""
    server, port = serve(tmp_path / "db.sqlite")
    try:
        malformed = raw_answer(port, b"GET / HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n")
        huge = raw_answer(port, b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 300_000 + b"\r\n\r\n")
        for answer, status in ((malformed, "400"), (huge, "431")):
            head = answer.split("\r\n\r\n", 1)[0]
            assert re.match(rf"HTTP/1\.[01] {status} ", head), head
            assert "Content-Security-Policy: default-src 'self'" in head
            assert "X-Content-Type-Options: nosniff" in head and "X-Frame-Options: DENY" in head
    finally:
        server.terminate()
        server.wait(timeout=10)


def _phone_session(port: int) -> tuple[str, str]:
    """A phone that opened the new-match page: its cookies and the form's CSRF token."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    connection.request("GET", "/matches/new")
    response = connection.getresponse()
    page = response.read().decode()
    cookies = "; ".join(c.split(";", 1)[0] for c in response.msg.get_all("Set-Cookie") or [])
    connection.close()
    return cookies, re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)


def test_forty_starts_sent_at_once_get_exactly_the_limit_through(tmp_path, monkeypatch):
    """The limit is counted in the same step as it is checked, before the match is made:
    checked before and counted after, 40 starts at once got 17 through a limit of 10."""
    monkeypatch.setenv("SCOREKEEPER_MATCHES_PER_MINUTE", "10")
    server, port = serve(tmp_path / "db.sqlite")
    try:
        cookies, token = _phone_session(port)
        body = urlencode({"csrf_token": token, "game": "third_wheel", "shown_game": "third_wheel",
                          "player_0": "Ann", "player_1": "Bob", "player_2": "Cy", "first_dealer": "0",
                          "setting_target": "33", "setting_deals_each": "2", "setting_overtrick_dealer": "bid",
                          "setting_overtrick_setter": "other_setter"})
        gate = threading.Barrier(40)
        statuses: list[int] = []

        def start() -> None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            connection.connect()
            gate.wait()
            connection.request("POST", "/matches/new", body=body, headers={
                "Cookie": cookies, "Content-Type": "application/x-www-form-urlencoded",
                "Referer": f"http://127.0.0.1:{port}/matches/new"})
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
            connection.close()

        phones = [threading.Thread(target=start) for _ in range(40)]
        for phone in phones:
            phone.start()
        for phone in phones:
            phone.join(timeout=120)
        assert sorted(statuses) == [303] * 10 + [429] * 30
    finally:
        server.terminate()
        server.wait(timeout=10)
    db = sqlite3.connect(tmp_path / "db.sqlite")
    try:
        assert db.execute("select count(*) from matches").fetchone()[0] == 10
    finally:
        db.close()
