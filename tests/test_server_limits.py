"""The real ``scorekeeper serve`` stays up: 300 idle sockets (phones that opened a
connection and went quiet) do not lock anyone out. With waitress's default
connection limit of 100 the page below timed out."""
from __future__ import annotations

import http.client
import re
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from test_durability import Phone, free_port, serve  # the real server on a temp database, started and listening

from scorekeeper.serving import UNSENT_BYTES
from tests import slow_disk
from tests.servers import (
    every_thread_stalled,
    long_match,
    start_connections,
    starts_at_once,
    until_idle,
    wait_listening,
)


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


def test_forty_starts_sent_at_once_get_exactly_the_limit_through(tmp_path, monkeypatch):
    """The limit is counted in the same step as it is checked, before the match is made:
    checked before and counted after, 40 starts at once got 17 through a limit of 10."""
    monkeypatch.setenv("SCOREKEEPER_MATCHES_PER_MINUTE", "10")
    server, port = serve(tmp_path / "db.sqlite")
    try:
        assert starts_at_once(port, start_connections(port, 40)) == [303] * 10 + [429] * 30
    finally:
        server.terminate()
        server.wait(timeout=10)
    db = sqlite3.connect(tmp_path / "db.sqlite")
    try:
        assert db.execute("select count(*) from matches").fetchone()[0] == 10
    finally:
        db.close()


def _open_connections(port: int) -> set[int]:
    """The client ports of the server's established connections on ``port`` (/proc/net/tcp)."""
    found = set()
    with open("/proc/net/tcp") as table:
        for line in table.readlines()[1:]:
            local, remote, state = line.split()[1:4]
            if int(local.split(":")[1], 16) == port and state == "01":
                found.add(int(remote.split(":")[1], 16))
    return found


def test_sockets_that_pipeline_big_answers_and_never_read_do_not_lock_anyone_out(tmp_path):
    """A phone's own match of 1,000 hands; eight sockets (one per worker thread) each pipeline
    GETs of its board and never read: the GETs the server reads at once ask for 8 MiB (the
    board's size measured first), more than the kernel and the 1 MiB allowed unsent take, so
    each holds its thread (answers that fit left the socket idle: closed only after the idle
    timeout, too late for the check below; the shared hand table's smaller board did that).
    waitress's thread for each waited for its client to read without end once 16 MiB were
    unsent, so every thread was held and another phone's page never came (the idle timeout skips connections with requests
    in progress). Now a thread waits at most STALLED_READER_SECONDS for a client that takes
    nothing (and at most 1 MiB is held unsent), and the other phone is answered."""
    database = tmp_path / "db.sqlite"
    match_id, token = long_match(database)
    server, port = serve(database)
    stalled: list[socket.socket] = []
    try:
        phone = Phone(port, match_id, token)
        stalled = every_thread_stalled(server, port, match_id, phone)  # every worker thread is stuck (and without the fix, for good)
        for _ in range(3):  # another phone, again and again
            # the timeout guards against a hang: without the deadline no answer ever came
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=40) as response:
                assert response.status == 200 and b"Start a match" in response.read()
        # and the server closed them, rather than leave them open holding their answers (the
        # idle timeout marked such sockets to close, and waitress waited for them to be writable)
        stalled_ports = {sock.getsockname()[1] for sock in stalled}
        deadline = time.monotonic() + 30  # a guard against a hang, not a timing check
        while stalled_ports & _open_connections(port) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not stalled_ports & _open_connections(port)
    finally:
        for sock in stalled:
            sock.close()
        server.terminate()
        server.wait(timeout=10)


def test_a_body_larger_than_the_app_takes_is_refused_before_it_is_sent(tmp_path):
    """A 50 MiB upload is answered 413 when its headers arrive: the server no longer reads
    (and spools to disk) up to 1 GiB of body before the app's own 1 MiB check."""
    server, port = serve(tmp_path / "db.sqlite")
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
            sock.sendall(b"POST /import HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n"
                         b"Content-Length: %d\r\n\r\n" % (50 * 1024 * 1024))
            sock.sendall(b"x" * 65536)  # the first 64 KiB of the 50 MiB; the rest is never sent
            answer = b""
            while b"\r\n\r\n" not in answer and (chunk := sock.recv(65536)):
                answer += chunk
        head = answer.decode("latin-1").split("\r\n\r\n", 1)[0]
        assert re.match(r"HTTP/1\.[01] 413 ", head), head
        assert "Content-Security-Policy" in head
        # a form at the app's limit still reaches the app, which says why in its own page
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        connection.request("POST", "/import", body=b"x" * (1024 * 1024 + 10),
                           headers={"Content-Type": "application/x-www-form-urlencoded"})
        response = connection.getresponse()
        assert response.status == 413 and "text/html" in response.getheader("Content-Type", "")
        connection.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture
def slow_disk_server(tmp_path):
    """tests/slow_disk.py's server on a free port, listening; its folder is ``tmp_path``."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "tests.slow_disk", str(port), str(tmp_path)],
                              cwd=Path(__file__).resolve().parents[1], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        wait_listening(server, port, what="tests/slow_disk.py")
        yield server, port
    finally:
        server.terminate()
        server.wait(timeout=10)


def _main_thread_cpu(pid: int) -> float:
    """CPU seconds the process's main thread (waitress's main loop) has run so far, to the
    nanosecond (/proc's schedstat; stat counts in clock ticks of 10 ms)."""
    return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[0]) / 1e9


def test_the_main_loop_waits_without_spinning_while_a_thread_sends_an_answer(tmp_path, slow_disk_server):
    """While a worker thread sends an answer, here a file read from a slow disk (as WhiteNoise
    sends the static files, through waitress's file wrapper), the main loop has nothing to do
    for that connection. waitress's loop asked the socket whether it could send, sent nothing
    (the thread held the connection's lock) and asked again at once: it burnt a core for as
    long as the read took. Under back-to-back page loads the same spin took turns with every
    answer (docs/performance.md). Here the read waits 2 s. The bound is on CPU used while
    nothing is to be done, not on speed: the loop waiting in select() used 0.2 ms of those 2 s,
    the spinning one 268 ms at a load average of 16 on 2 cores (what the machine let it have;
    it stays above 50 ms up to a load of about 80)."""
    server, port = slow_disk_server
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"GET /file HTTP/1.1\r\nHost: x\r\n\r\n")
        deadline = time.monotonic() + 30  # a guard against a hang, not a timing check
        while not (tmp_path / "reading").exists():
            assert time.monotonic() < deadline and server.poll() is None, "the file was never read"
            time.sleep(0.02)
        before = _main_thread_cpu(server.pid)
        time.sleep(2)  # the thread is held in the read, its connection's lock taken
        held = _main_thread_cpu(server.pid) - before
        (tmp_path / "go").touch()
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
            if answer.endswith(slow_disk.BODY):
                break
    assert answer.startswith(b"HTTP/1.1 200 ") and answer.endswith(slow_disk.BODY)  # the file came whole
    assert held < 0.05, f"the main loop used {held * 1000:.0f} ms of CPU while a thread read a file for 2 s"


def _kernel_holds(port: int, client: int) -> int:
    """Bytes of the answer the kernel holds between the server on ``port`` and its client on
    port ``client``: the server end's send queue and the client end's receive queue (/proc/net/tcp)."""
    held = 0
    with open("/proc/net/tcp") as table:
        for line in table.readlines()[1:]:
            local, remote, _state, queues = line.split()[1:5]
            ends = (int(local.split(":")[1], 16), int(remote.split(":")[1], 16))
            send, receive = (int(n, 16) for n in queues.split(":"))
            held += send if ends == (port, client) else receive if ends == (client, port) else 0
    return held


def test_a_client_that_reads_late_gets_a_big_answer_whole(slow_disk_server):
    """The thread making an answer waits once the connection holds ``UNSENT_BYTES`` unsent
    for its client, and the main loop sends it as the client reads: the loop must not leave
    the connection alone then, although the thread waits inside ``write_soon`` (else the
    thread waits the stalled-reader deadline and the connection is closed half-sent). The
    client's receive buffer is made small, so the kernel's buffers take well under the 8 MiB
    answer less ``UNSENT_BYTES`` wherever they are large: the thread surely waits."""
    server, port = slow_disk_server
    size = len(slow_disk.PART) * slow_disk.BIG_PARTS
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)  # before connecting: the window it offers
        sock.settimeout(60)  # a guard against a hang
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        until_idle(server.pid)  # reads late: the thread has made what it can and waits
        held = _kernel_holds(port, sock.getsockname()[1])
        # what neither the kernel nor the connection's UNSENT_BYTES hold is still to be made:
        # the thread waits for the client to read
        assert size - held > UNSENT_BYTES + len(slow_disk.PART), f"the kernel holds {held:,} of {size:,} bytes"
        answer = b""
        while not answer.endswith(slow_disk.PART) or len(answer.split(b"\r\n\r\n", 1)[-1]) < size:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 ") and len(body) == size, (head[:200], len(body))
