"""The real ``scorekeeper serve`` stays up: 300 idle sockets (phones that opened a
connection and went quiet) do not lock anyone out. With waitress's default
connection limit of 100 the page below timed out."""
from __future__ import annotations

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
