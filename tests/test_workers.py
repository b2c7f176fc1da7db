"""Issue 28: ``scorekeeper serve --workers N`` runs N processes on one database, the rate
limits shared between them through a real ``redis-server`` (Debian's package), started on a
free loopback port in a temp folder and stopped after. Without redis-server these tests fail:
install it (``apt-get install -y redis-server``)."""
from __future__ import annotations

import http.client
import os
import shutil
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from test_durability import SCOREKEEPER, free_port

from tests.servers import START_SECONDS, start_connections, starts_at_once, wait_listening


@pytest.fixture
def redis_url(tmp_path):
    found = shutil.which("redis-server")
    if found is None:
        pytest.fail("redis-server not found: these tests need a real one (apt-get install -y redis-server)")
    port = free_port()
    server = subprocess.Popen([found, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(tmp_path),
                               "--save", "", "--appendonly", "no", "--protected-mode", "yes"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_listening(server, port, lambda sock: sock.sendall(b"PING\r\n") or sock.recv(64).startswith(b"+PONG"),
                   "redis-server")
    yield f"redis://127.0.0.1:{port}"
    server.terminate()
    server.wait(timeout=10)


def serve_workers(database: Path, workers: int, **settings: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(database), SCOREKEEPER_SECRET_KEY="workers",
               **{f"SCOREKEEPER_{name}": value for name, value in settings.items()})
    server = subprocess.Popen([SCOREKEEPER, "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--workers", str(workers)], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    wait_listening(server, port)
    return server, port


def workers_of(server: subprocess.Popen, count: int) -> list[int]:
    """The server's worker processes, once it has started ``count`` (the socket listens before)."""
    deadline = time.monotonic() + START_SECONDS
    while True:
        children = [int(pid) for pid in Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()]
        if len(children) >= count or time.monotonic() > deadline:
            return children
        time.sleep(0.05)


def waiting_to_be_accepted(port: int) -> int:
    """How many connections wait in the listening socket's queue (its rx_queue in /proc/net/tcp)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, _, state, queues = line.split()[1:5]
        if int(local.split(":")[1], 16) == port and state == "0A":  # LISTEN
            return int(queues.split(":")[1], 16)
    raise AssertionError(f"nothing listens on port {port}")


def accepted_by(worker: int, others: list[int], port: int, count: int) -> list[http.client.HTTPConnection]:
    """``count`` connections that ``worker`` accepts: the other workers are stopped (SIGSTOP)
    until it has taken every one off the shared socket's queue. Which process the kernel
    hands a connection to is otherwise up to the kernel (and to how busy the machine is)."""
    for pid in others:
        os.kill(pid, signal.SIGSTOP)
    try:
        connections = start_connections(port, count)
        deadline = time.monotonic() + START_SECONDS
        while waiting_to_be_accepted(port):
            assert time.monotonic() < deadline, f"worker {worker} did not accept its connections"
            time.sleep(0.05)
        return connections
    finally:
        for pid in others:
            os.kill(pid, signal.SIGCONT)


def test_more_than_one_worker_needs_a_shared_storage_for_the_limits(command, tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_DATABASE", str(tmp_path / "db.sqlite"))
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "x")
    done = command("serve", "--workers", "2", "--port", str(free_port()))
    assert done.returncode == 2
    assert "SCOREKEEPER_RATELIMIT_STORAGE_URI" in done.stderr and "redis://" in done.stderr, done.stderr
    assert "--workers 2" in done.stderr


def test_two_workers_hold_one_limit_between_them(tmp_path, redis_url):
    """40 starts sent at once to two processes, with a limit of 10 a minute per address:
    exactly 10 get through, and both processes served them."""
    server, port = serve_workers(tmp_path / "db.sqlite", 2, RATELIMIT_STORAGE_URI=redis_url,
                                 MATCHES_PER_MINUTE="10")
    try:
        workers = workers_of(server, 2)
        assert len(workers) == 2, workers
        first, second = workers
        # 20 connections to each process, then the 40 starts sent on them at the same moment
        connections = accepted_by(first, [second], port, 20) + accepted_by(second, [first], port, 20)
        assert starts_at_once(port, connections) == [303] * 10 + [429] * 30
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert server.returncode == 0
    db = sqlite3.connect(tmp_path / "db.sqlite")
    try:
        assert db.execute("select count(*) from matches").fetchone()[0] == 10
    finally:
        db.close()
