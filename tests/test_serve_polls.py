"""Issue 28: a phone's poll over the real ``scorekeeper serve`` keeps its connection.

waitress 3.0 closed the connection after every ``304 Not Modified`` (an answer with no
Content-Length), so every phone at every table opened a new TCP connection every 3 s."""
from __future__ import annotations

import socket

from test_durability import HANDS, Phone, make_matches, serve


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
