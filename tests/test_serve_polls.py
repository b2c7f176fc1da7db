"""Issue 28: a phone's poll over the real ``scorekeeper serve`` keeps its connection.

waitress 3.0 closed the connection after every ``304 Not Modified`` (an answer with no
Content-Length), so every phone at every table opened a new TCP connection every 3 s."""
from __future__ import annotations

import socket
import time

import pytest
from test_durability import HANDS, Phone, make_matches, serve

from tests.servers import every_thread_stalled, long_match


def head_of(sock: socket.socket) -> str:
    """One answer's status line and headers (a 304 has no body)."""
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"the server closed the connection after {answer!r}")
        answer += chunk
    return answer.decode("latin-1").split("\r\n\r\n", 1)[0]


def poll(sock: socket.socket, path: str, cookies: dict, version: int, extra: str = "") -> str:
    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    sock.sendall(f'GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n{extra}'
                 f'If-None-Match: W/"v{version}"\r\nHX-Request: true\r\n\r\n'.encode())
    return head_of(sock)


def test_unchanged_polls_keep_their_connection(tmp_path):
    database = tmp_path / "db.sqlite"
    (match_id, token), = make_matches(database, 1)
    server, port = serve(database)
    try:
        phone = Phone(port, match_id, token)
        assert phone.save(HANDS[0], "k" * 22)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            # the scorer's own page and the board, ten polls each, on one connection
            for _ in range(10):
                for path in (f"/matches/{match_id}/live", f"/matches/{match_id}/board"):
                    head = poll(sock, path, phone.cookies, phone.version)
                    assert head.startswith("HTTP/1.1 304 "), head
                    assert "Connection: close" not in head, head
                    assert f'etag: w/"v{phone.version}"' in head.lower() and "Content-Security-Policy:" in head
            # a client that asks to close still gets its connection closed
            head = poll(sock, f"/matches/{match_id}/board", phone.cookies, phone.version, "Connection: close\r\n")
            assert head.startswith("HTTP/1.1 304 ") and "Connection: close" in head, head
            assert sock.recv(1) == b""
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_an_unchanged_poll_is_answered_while_every_worker_thread_is_busy(tmp_path):
    """The server answers an unchanged poll as its head arrives, without a worker thread
    (``serving.HeadedChannel``): with all eight threads held by clients that pipeline big
    answers and never read (as in test_server_limits), a phone's page waits for a thread,
    and a watcher's unchanged poll sent after it is answered before it, on a connection it keeps."""
    database = tmp_path / "db.sqlite"
    match_id, token = long_match(database)
    # the threads stay held longer than a loaded machine takes to run the checks below
    server, port = serve(database, STALLED_READER_SECONDS="120")
    stalled: list[socket.socket] = []
    try:
        phone = Phone(port, match_id, token)
        cookies = "; ".join(f"{name}={value}" for name, value in phone.cookies.items())
        stalled = every_thread_stalled(server, port, match_id, phone)  # every worker thread is held (for the 120 s set above)
        with socket.create_connection(("127.0.0.1", port), timeout=60) as page, \
                socket.create_connection(("127.0.0.1", port), timeout=60) as watcher:
            page.sendall(f"GET /matches/{match_id} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookies}\r\n\r\n".encode())
            time.sleep(0.5)  # the page's request is queued for a thread first
            for _ in range(3):
                head = poll(watcher, f"/matches/{match_id}/board", phone.cookies, phone.version)
                assert head.startswith("HTTP/1.1 304 ") and "Connection: close" not in head, head
                assert f'etag: w/"v{phone.version}"' in head.lower() and "Content-Security-Policy:" in head
            page.setblocking(False)
            with pytest.raises(BlockingIOError):  # the page is still waiting for a thread
                page.recv(1)
            page.setblocking(True)
            for sock in stalled:  # the stalled clients go: their threads are freed
                sock.close()
            assert head_of(page).startswith("HTTP/1.1 200 ")  # and comes once the threads are freed
    finally:
        for sock in stalled:
            sock.close()
        server.terminate()
        server.wait(timeout=10)
