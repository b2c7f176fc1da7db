"""The real ``scorekeeper serve`` stays up: 300 idle sockets (phones that opened a
connection and went quiet) do not lock anyone out. With waitress's default
connection limit of 100 the page below timed out."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

SCOREKEEPER = str(Path(sys.executable).with_name("scorekeeper"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_three_hundred_idle_sockets_do_not_lock_anyone_out(tmp_path):
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(tmp_path / "db.sqlite"))
    server = subprocess.Popen([SCOREKEEPER, "serve", "--host", "127.0.0.1", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    idle: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "scorekeeper serve did not start"
                time.sleep(0.05)
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
