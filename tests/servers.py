"""Helpers for the tests that talk to the real ``scorekeeper serve`` over sockets
(test_server_limits, test_serve_polls, test_workers): waiting for a process to listen, a
phone's session, starts sent at once, a long match, and clients that never read."""
from __future__ import annotations

import http.client
import re
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

from waitress.adjustments import Adjustments

from scorekeeper import store
from scorekeeper.samples import long_settings, random_match

# How long a process may take to start listening: generous, since the machine running the
# suite may be shared and busy (a slow start is not what these tests check).
START_SECONDS = 60


def wait_listening(server: subprocess.Popen, port: int, ready: Callable[[socket.socket], bool] = lambda _: True,
                   what: str = "scorekeeper serve") -> None:
    """Probe ``port`` until the process answers (``ready`` says whether a connected socket
    answered as it should), failing at once if the process ends, and after START_SECONDS."""
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
                if ready(sock):
                    return
        except OSError:
            pass
        assert server.poll() is None, f"{what} ended before it listened (exit code {server.returncode})"
        assert time.monotonic() < deadline, f"{what} did not listen on port {port} in {START_SECONDS} s"
        time.sleep(0.05)


def until(done: Callable[[], bool], progress: Callable[[], object], what: str, still: float = 60) -> None:
    """Wait until ``done()``; fail only once ``progress()`` has not changed for ``still``
    seconds. On a busy machine the work takes longer but still moves: a fixed deadline
    failed there although nothing was wrong."""
    last, moved = progress(), time.monotonic()
    while not done():
        now = progress()
        if now != last:
            last, moved = now, time.monotonic()
        assert time.monotonic() - moved < still, f"{what}: no progress for {still} s (at {now})"
        time.sleep(0.1)


def phone_session(port: int) -> tuple[str, str]:
    """A phone that opened the new-match page: its cookies and the form's CSRF token."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", "/matches/new")
    response = connection.getresponse()
    page = response.read().decode()
    cookies = "; ".join(c.split(";", 1)[0] for c in response.msg.get_all("Set-Cookie") or [])
    connection.close()
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert match, page[:500]
    return cookies, match.group(1)


def start_connections(port: int, count: int) -> list[http.client.HTTPConnection]:
    """``count`` connections, each of its own, connected and not yet asked anything."""
    connections = []
    for _ in range(count):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        connection.connect()
        connections.append(connection)
    return connections


def starts_at_once(port: int, connections: list[http.client.HTTPConnection]) -> list[int]:
    """One phone's session starts a match on every connection at the same moment (a barrier):
    the answers' statuses, sorted."""
    cookies, token = phone_session(port)
    body = urlencode({"csrf_token": token, "game": "third_wheel", "shown_game": "third_wheel",
                      "player_0": "Ann", "player_1": "Bob", "player_2": "Cy", "first_dealer": "0",
                      "setting_target": "33", "setting_deals_each": "2", "setting_overtrick_dealer": "bid",
                      "setting_overtrick_setter": "other_setter"})
    gate = threading.Barrier(len(connections))
    statuses: list[int] = []

    def start(connection: http.client.HTTPConnection) -> None:
        gate.wait()
        connection.request("POST", "/matches/new", body=body, headers={
            "Cookie": cookies, "Content-Type": "application/x-www-form-urlencoded",
            "Referer": f"http://127.0.0.1:{port}/matches/new"})
        response = connection.getresponse()
        response.read()
        statuses.append(response.status)
        connection.close()

    phones = [threading.Thread(target=start, args=(connection,)) for connection in connections]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join()
    return sorted(statuses)


def long_match(database: Path, hands: int = 1000) -> tuple[int, str]:
    """A match of ``hands`` random Third Wheel hands that never ends: its id and scorer token."""
    db = store.connect(str(database))
    try:
        match_id = store.create_match(db, random_match("third_wheel", hands, settings=long_settings("third_wheel", hands)))
        return match_id, store.get_tokens(db, match_id)["scorer_token"]
    finally:
        db.close()


# What one stalled client must leave unsent at the server: more than the 1 MiB the server
# holds for a client, plus what the kernel's buffers take in (up to 4 MiB on loopback,
# net.ipv4.tcp_wmem), in the requests the server reads at once (waitress's recv_bytes):
# waitress reads no further request while any answer waits to be sent, so a client whose
# first requests' answers all fit in those buffers is left idle, never stalled.
STALLED_BYTES = 8 * 1024 * 1024


def stalled_readers(port: int, path: str, cookie: str, clients: int = 8) -> list[socket.socket]:
    """``clients`` sockets that each pipeline GETs of ``path`` and never read an answer
    (their receive buffers made small, so the answers pile up at the server). The answer's
    size is measured first: the GETs the server reads at once must ask for STALLED_BYTES."""
    request = f"GET {path} HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\n\r\n".encode()
    size = len(raw_get(port, path, cookie))
    at_once = Adjustments.recv_bytes // len(request)
    assert at_once * size > STALLED_BYTES, (
        f"{at_once} answers of {size} bytes ({path}) are less than {STALLED_BYTES} bytes: a longer match, "
        "or a shorter request (only the cookies the page needs)")
    stalled = []
    for _ in range(clients):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(60)  # a guard against a hang: the server reads the requests as they come
        sock.connect(("127.0.0.1", port))
        sock.sendall(request * at_once * 2)
        stalled.append(sock)
    return stalled


def every_thread_stalled(server: subprocess.Popen, port: int, match_id: int, phone) -> list[socket.socket]:
    """Eight stalled readers of the scorer's own board (``phone``'s), one per worker thread,
    once the server has stopped working on them: every thread then waits for its client."""
    # the scorer's device cookie alone (the page's only need): a short request
    device = f"scorekeeper_device={phone.cookies['scorekeeper_device']}"
    stalled = stalled_readers(port, f"/matches/{match_id}/live", device)
    until_idle(server.pid)
    return stalled


def raw_get(port: int, path: str, cookies: str) -> bytes:
    """One whole answer to a GET of ``path``, head and body, as a stalled client is sent it."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nCookie: {cookies}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]
    return answer


def until_idle(pid: int) -> None:
    """Wait until the process has used no CPU for a second (at most two minutes)."""
    def cpu() -> int:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks

    deadline = time.monotonic() + 120
    before = cpu()
    while time.monotonic() < deadline:
        time.sleep(1)
        now = cpu()
        if now - before <= 2:
            return
        before = now
