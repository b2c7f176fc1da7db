"""The real ``scorekeeper serve`` stays up: 300 idle sockets (phones that opened a
connection and went quiet) do not lock anyone out. With waitress's default
connection limit of 100 the page below timed out."""
from __future__ import annotations

import re
import socket
import time
import urllib.request

from test_durability import serve  # the real server on a temp database, started and listening


def test_three_hundred_idle_sockets_do_not_lock_anyone_out(tmp_path):
    server, port = serve(tmp_path / "db.sqlite")
    idle: list[socket.socket] = []
    try:
        for _ in range(300):
            idle.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        time.sleep(0.5)  # the server has accepted them all
        started = time.monotonic()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
            assert response.status == 200 and b"Start a match" in response.read()
        assert time.monotonic() - started < 10
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
