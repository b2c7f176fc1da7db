"""Issue 28: ``scorekeeper serve --workers N`` runs N processes on one database, the rate
limits shared between them through a real ``redis-server`` (Debian's package), started on a
free loopback port in a temp folder and stopped after. Without redis-server these tests fail:
install it (``apt-get install -y redis-server``)."""
from __future__ import annotations

import http.client
import os
import shutil
import socket
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import NamedTuple

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


class TwoWorkers(NamedTuple):
    port: int
    match_id: int
    token: str  # the match's scorer token
    workers: list[int]  # the two worker processes


@pytest.fixture
def two_workers(tmp_path, redis_url):
    """``scorekeeper serve --workers 2`` on a database holding one long match, the limits
    shared in redis, once both workers run; stopped after."""
    from test_durability import make_matches

    database = tmp_path / "db.sqlite"
    (match_id, token), = make_matches(database, 1)
    server, port = serve_workers(database, 2, RATELIMIT_STORAGE_URI=redis_url, WRITES_PER_MINUTE="100000")
    try:
        workers = workers_of(server, 2)
        assert len(workers) == 2, workers
        yield TwoWorkers(port, match_id, token, workers)
    finally:
        server.terminate()
        server.wait(timeout=20)


def workers_of(server: subprocess.Popen, count: int) -> list[int]:
    """The server's worker processes, once it has started ``count`` (the socket listens before)."""
    deadline = time.monotonic() + START_SECONDS
    while True:
        children = [int(pid) for pid in Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()]
        if len(children) >= count or time.monotonic() > deadline:
            return children
        time.sleep(0.05)


def open_files(pid: int) -> list[str]:
    """What each of the process's open file descriptors points to ("socket:[123]"), leaving
    out one closed while it is read (the server closes connections as it goes)."""
    links = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            links.append(os.readlink(fd))
        except OSError:  # closed meanwhile
            continue
    return links


def sockets_of(pids: list[int]) -> dict[int, int]:
    """How many sockets each process holds open, once that stays the same for 0.2 s (a
    connection its client closed is closed by the server a moment later)."""
    def count() -> dict[int, int]:
        return {pid: sum(link.startswith("socket:") for link in open_files(pid)) for pid in pids}

    seen, deadline = count(), time.monotonic() + 10
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if (now := count()) == seen:
            break
        seen = now
    return seen


def worker_holding(connection: http.client.HTTPConnection, port: int, workers: list[int]) -> int:
    """The worker that accepted ``connection`` (connected): the one holding the server's end
    of it, found by that end's socket in /proc/net/tcp (its inode, 0 until accepted)."""
    client = connection.sock.getsockname()[1]
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        with open("/proc/net/tcp") as table:
            ends = [line.split() for line in table.readlines()[1:]]
        inodes = {f"socket:[{end[9]}]" for end in ends if end[9] != "0"
                  and int(end[1].split(":")[1], 16) == port and int(end[2].split(":")[1], 16) == client}
        for pid in workers:
            if inodes & set(open_files(pid)):
                return pid
        time.sleep(0.05)
    raise AssertionError(f"no worker accepted the connection from port {client}")


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def settled(ticks: dict[int, int]) -> dict[int, int]:
    """The workers' CPU ticks once they have started up (no tick for 0.5 s): what they use
    after that is answering requests."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = {pid: cpu_ticks(pid) for pid in ticks}
        if now == ticks:
            break
        ticks = now
    return ticks


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
        before = settled({pid: cpu_ticks(pid) for pid in workers})

        def send_round() -> list[int]:
            """40 starts at once, each on a connection of its own (the kernel hands each to
            one of the two); their answers' statuses."""
            return starts_at_once(port, start_connections(port, 40))

        assert send_round() == [303] * 10 + [429] * 30
        # Whichever worker wakes first accepts a connection: on a busy machine one may take a
        # whole round. More rounds (every start refused: the limit holds across both) until
        # each has answered some, as it does at once on a quiet machine.
        for _ in range(10):
            worked = {pid: cpu_ticks(pid) - before[pid] for pid in workers}
            if all(ticks > 0 for ticks in worked.values()):
                break
            assert send_round() == [429] * 40
        assert all(ticks > 0 for ticks in worked.values()), worked  # both processes answered some
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert server.returncode == 0
    db = sqlite3.connect(tmp_path / "db.sqlite")
    try:
        assert db.execute("select count(*) from matches").fetchone()[0] == 10
    finally:
        db.close()


def test_unchanged_polls_keep_their_connections_with_two_workers(two_workers):
    """Each worker answers a phone's unchanged polls as one process does (tests/test_serve_polls.py):
    304 on the connection it keeps, whichever of the two the kernel handed the connection to."""
    from test_durability import HANDS, Phone
    from test_serve_polls import poll

    port, match_id, token, workers = two_workers
    phone = Phone(port, match_id, token)
    assert phone.save(HANDS[0], "k" * 22)
    before = sockets_of(workers)
    phones = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(24)]
    try:
        for _ in range(5):
            for sock in phones:  # each phone's scorer page and board, on its one connection
                for path in (f"/matches/{match_id}/live", f"/matches/{match_id}/board"):
                    head = poll(sock, path, phone.cookies, phone.version)
                    assert head.startswith("HTTP/1.1 304 ") and "Connection: close" not in head, head
        # the phones' connections, each held by the worker that accepted it
        held = {pid: count - before[pid] for pid, count in sockets_of(workers).items()}
    finally:
        for sock in phones:
            sock.close()
    assert sum(held.values()) == 24 and all(count > 0 for count in held.values()), held


def test_a_save_through_one_worker_is_a_change_on_the_next_poll_through_either(two_workers):
    """A phone's save is answered by one worker; every phone's very next poll, whichever worker
    holds its connection (each has read the match before, in its connection's own thread and
    snapshot), is answered with the new version, never 304, and the poll after it 304 again.
    Saves go on (at least 4) until each worker has taken some: which one accepts a save's
    connection is the kernel's choice, read from the connection itself."""
    from test_durability import HANDS, Phone

    port, match_id, token, workers = two_workers
    scorer = Phone(port, match_id, token)
    cookie = "; ".join(f"{name}={value}" for name, value in scorer.cookies.items())
    before = sockets_of(workers)
    phones = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in range(16)]

    def poll(phone: http.client.HTTPConnection, part: str, version: int) -> tuple[int, str | None]:
        phone.request("GET", f"/matches/{match_id}/{part}",
                      headers={"Cookie": cookie, "If-None-Match": f'W/"v{version}"', "HX-Request": "true"})
        answer = phone.getresponse()
        answer.read()
        return answer.status, answer.getheader("ETag")

    try:
        for phone in phones:  # each worker has read the match, on the connections it holds
            for part in ("live", "board"):
                assert poll(phone, part, scorer.version) == (304, f'W/"v{scorer.version}"')
        held = {pid: count - before[pid] for pid, count in sockets_of(workers).items()}
        assert sum(held.values()) == 16 and all(count > 0 for count in held.values()), held
        took: list[int] = []  # the worker that took each save
        # on a busy machine one worker may take several saves in a row: more, up to 24
        while len(took) < 4 or (set(took) != set(workers) and len(took) < 24):
            seen = scorer.version
            saving = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            saving.connect()
            took.append(worker_holding(saving, port, workers))
            assert scorer.save(HANDS[len(took) % len(HANDS)], f"save-{scorer.version:04d}-key", saving)
            for phone in phones:
                for part in ("live", "board"):
                    assert poll(phone, part, seen) == (200, f'W/"v{scorer.version}"'), (part, seen)
                    assert poll(phone, part, scorer.version) == (304, f'W/"v{scorer.version}"')
        assert set(took) == set(workers), f"every save taken by one worker: {took}"
    finally:
        for phone in phones:
            phone.close()
