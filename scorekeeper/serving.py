"""``scorekeeper serve``: waitress with limits that fit a LAN app shared by many tables.

Far more connections than the phones at a club open (waitress's default of 100 let
~100 idle sockets lock everyone out), idle or half-sent requests dropped after 30 s
rather than 120 s, and the security headers on the answers waitress makes itself (a
malformed request's 400, a too-large header's 431), not only on the app's.

Two more edges, each with a test against the real server in tests/test_server_limits.py:
a body larger than the app accepts is refused when its headers arrive, not spooled to
disk first (waitress's own limit is 1 GiB); and a client that stops reading its answers
cannot hold a worker thread (waitress waits for it for ever: eight such sockets, each
pipelining big GETs, held every thread and locked everyone out).

Most requests are a phone's unchanged poll: the connection answers those itself as their
head arrives (``HeadedChannel.received``), without a worker thread; see ``web.edges.polls``.
While a worker thread sends its answer, the main loop leaves the connection alone
(``HeadedChannel.writable``): waitress's loop spun on it (docs/performance.md)."""
from __future__ import annotations

import multiprocessing
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import ErrorTask, WSGITask
from waitress.utilities import build_http_date

from .web.edges.polls import UnchangedPolls
from .web.edges.security import HEADERS

CONNECTION_LIMIT = 1000
IDLE_SECONDS = 30
# A multipart form's boundaries and fields around the app's largest body (MAX_CONTENT_LENGTH,
# which Flask checks itself with a page saying why): anything larger is refused by waitress
# on its Content-Length, before a byte of it is kept.
FORM_OVERHEAD = 64 * 1024
# What one connection may have waiting to be sent before its worker thread waits for the
# client to read (waitress's default is 16 MiB in memory and on disk), and how long that
# thread waits for the client to take any of it before the connection is dropped.
UNSENT_BYTES = 1024 * 1024
STALLED_READER_SECONDS = 10


class HeadedErrorTask(ErrorTask):
    """waitress's own error answer, with the headers every answer of the app carries."""

    def execute(self) -> None:
        self.response_headers.extend(HEADERS.items())  # type: ignore[attr-defined]  # a list at run time
        super().execute()


class KeptAliveTask(WSGITask):
    """waitress 3.0.2 closes an HTTP/1.1 connection after any answer without a
    Content-Length (task.py, ``build_response_header``), a 304 or 204 included, although
    such an answer has no body to delimit (RFC 9112 6.3): every phone's poll opened a new
    TCP connection every 3 s. Here an answer without a body keeps the connection, unless
    the request asked to close it; every other case is waitress's own."""

    _no_body_kept = False

    def build_response_header(self) -> bytes:
        asked_close = self.request.headers.get("CONNECTION", "").lower() == "close"  # type: ignore[attr-defined]
        self._no_body_kept = (not self.has_body and self.version == "1.1" and not asked_close
                              and not self.close_on_finish)
        try:
            header: bytes = super().build_response_header()
            return header
        finally:
            self._no_body_kept = False

    def set_close_on_finish(self) -> None:
        # in build_response_header, for a 1.1 answer without a body, waitress calls this only
        # because there is no Content-Length, which such an answer must not have
        if not self._no_body_kept:
            super().set_close_on_finish()


_date: tuple[int, str] = (0, "")


def _http_date() -> str:
    """Now, as a Date header says it (made once a second, not for every answer)."""
    global _date
    second = int(time.time())
    if _date[0] != second:
        _date = (second, build_http_date(second))
    return _date[1]


class HeadedChannel(HTTPChannel):
    """waitress's connection, with its error answers headed, a deadline on a client that
    does not read, and unchanged polls answered as they arrive."""

    error_task_class = HeadedErrorTask
    task_class = KeptAliveTask
    stalled = False  # its client took nothing for STALLED_READER_SECONDS: to be closed
    polls: UnchangedPolls | None = None  # the app's, set on the class made for each server
    stalled_seconds: float = STALLED_READER_SECONDS  # the app's STALLED_READER_SECONDS, set likewise
    thread_sending = False  # a worker thread is in ``write_soon``, sending part of its answer itself

    def received(self, data: bytes) -> bool:
        """Called by the main loop with what the client sent. An unchanged poll is answered
        here: a worker thread's turn (a task, its WSGI environ, the hand-over and the wake-up
        of the main loop) cost several times the poll's own lookup, and nine requests in ten
        are such polls. Only a whole request head, alone, on a connection with nothing under
        way: anything else is waitress's, as is every request the app must answer."""
        if self.polls is not None and data.startswith(b"GET /matches/") and data.endswith(b"\r\n\r\n"):
            with self.requests_lock:  # type: ignore[attr-defined]  # waitress's, not in its stubs
                # no request half-read, none queued or being served (answers keep their order)
                idle = not (self.request is not None or self.requests or self.will_close or self.close_when_flushed)
                if idle and data.find(b"\r\n\r\n") == len(data) - 4 and self._answered(data):
                    return True
        return bool(super().received(data))

    def _answered(self, head: bytes) -> bool:
        """Write the 304 for ``head`` when it is an unchanged poll (``UnchangedPolls.answer_head``)."""
        assert self.polls is not None
        try:
            headers = self.polls.answer_head(head)
        except Exception:  # the database busy or gone: the app's own path says what
            self.logger.exception("Unchanged poll not answered in the connection")
            return False
        if headers is None:
            return False
        # with the Server and Date headers waitress adds to every answer
        headers += [("Server", self.adj.ident or "waitress"), ("Date", _http_date())]
        payload = ("HTTP/1.1 304 Not Modified\r\n" + "".join([f"{name}: {value}\r\n" for name, value in headers])
                   + "\r\n").encode("latin-1")
        with self.outbuf_lock:
            self.outbufs[-1].append(payload)
            self.current_outbuf_count += len(payload)
            self.total_outbufs_len += len(payload)
            self._flush_exception(self._flush_some)  # type: ignore[attr-defined]  # sent now; what the socket does not take, by the main loop
        return True

    def write_soon(self, data: bytes) -> int:
        """Called by a worker thread with part of its answer, which it sends itself, holding
        the connection's ``outbuf_lock`` meanwhile (waitress 3 sends from the thread as soon
        as a byte is waiting). What the socket does not take the main loop sends: its trigger
        is pulled once the lock is free again (see ``writable``)."""
        self.thread_sending = True
        try:
            return int(super().write_soon(data))
        finally:
            self.thread_sending = False
            if self.total_outbufs_len:
                self.server.pull_trigger()

    def _flush_outbufs_below_high_watermark(self) -> None:
        """A worker thread with more than ``UNSENT_BYTES`` waiting for this client waits
        for the client to read some, but no more than ``STALLED_READER_SECONDS`` with
        nothing taken: then the connection is closed and the thread goes back to serve
        others. waitress's own version of this method waits without end, and its idle
        timeout skips a connection with requests in progress, so a client that pipelines
        requests and never reads held one thread each for good. (A private method of
        waitress's: tests/test_server_limits.py's pipelining test fails if it goes.)"""
        if self.total_outbufs_len <= self.adj.outbuf_high_watermark:
            return
        with self.outbuf_lock:
            # the main loop sends now, while this thread waits with the lock let go
            sending, self.thread_sending = self.thread_sending, False
            try:
                while self.connected and self.total_outbufs_len > self.adj.outbuf_high_watermark:
                    self.server.pull_trigger()  # the main loop sends what the client takes
                    self.outbuf_lock.wait(timeout=1)
                    # last_activity moves whenever the client takes a byte of the answer
                    if self.connected and time.time() - self.last_activity > self.stalled_seconds:
                        self.stalled = True  # the main loop closes it (``writable`` below)
                        self.will_close = True
                        self.connected = False  # the task's next write ends it
                        self.server.pull_trigger()
            finally:
                self.thread_sending = sending

    def writable(self) -> bool:
        """Asked by the main loop before each wait: whether to wait for the socket to take
        more. A connection to close whose client has taken nothing for
        ``STALLED_READER_SECONDS`` is closed here: waitress closes a connection only once its
        socket can be written to, which a client that never reads never allows (its idle
        timeout marked such sockets and left them open).

        Not while a worker thread is sending (``write_soon``): waitress says yes whenever a
        byte waits, the socket can take it at once, and the main loop's send then finds the
        thread holding the lock and does nothing, over and over, with Python's lock taken
        from the very thread it waits for, until that thread gets it back (up to its 5 ms
        switch interval a time). Every answer passes through that moment: under back-to-back
        page loads on 16 connections the loop sent nothing 14 to 27 times a page
        (bench/threaded.py --count), and a file read from a slow disk for an answer spun it
        for the whole read (tests/test_server_limits.py)."""
        if self.stalled or (self.will_close and time.time() - self.last_activity > self.stalled_seconds):
            self.handle_close()
            return False  # closed: not to be waited on
        if self.thread_sending and not (self.will_close or self.close_when_flushed):
            return False  # the thread sends it; it pulls the trigger for what the socket leaves
        return bool(super().writable())


def _server(app: Flask, threads: int, **where: Any) -> Any:
    """waitress with the limits above, listening where ``where`` says (host and port, or
    sockets already bound)."""
    # waitress drops X-Forwarded-* headers unless told otherwise: behind the proxies the app
    # was told to trust (SCOREKEEPER_PROXIES), they go through to its ProxyFix, which reads them
    behind_proxies = int(app.config.get("PROXIES", 0)) > 0
    server = create_server(app, threads=threads, connection_limit=CONNECTION_LIMIT,
                           channel_timeout=IDLE_SECONDS, cleanup_interval=10, backlog=1024,
                           clear_untrusted_proxy_headers=not behind_proxies,
                           max_request_body_size=int(app.config["MAX_CONTENT_LENGTH"]) + FORM_OVERHEAD,
                           outbuf_high_watermark=UNSENT_BYTES, **where)
    # one listening socket, or several (a host name with IPv4 and IPv6 addresses)
    listeners = [server] if hasattr(server, "channel_class") else list(getattr(server, "map", {}).values())
    # each server's connections answer its app's unchanged polls themselves
    channel = type("HeadedChannel", (HeadedChannel,), {
        "polls": app.extensions.get("unchanged_polls"),
        "stalled_seconds": float(app.config.get("STALLED_READER_SECONDS", STALLED_READER_SECONDS))})
    for listener in listeners:
        if hasattr(listener, "channel_class"):
            listener.channel_class = channel
    return server


def _exit_on_sigterm() -> None:
    # stopped with SIGTERM (a service manager, a test): exit as after Ctrl+C, so what the
    # process made to remove at exit is removed (web.edges.assets' folder of static copies)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))


def serve(app: Flask, host: str, port: int, threads: int) -> None:
    server = _server(app, threads, host=host, port=port)
    _exit_on_sigterm()
    server.run()


def listening_sockets(host: str, port: int, own_queue: bool = False) -> list[socket.socket]:
    """Bound, listening sockets for ``host``:``port`` (one per address of the host name).
    With ``own_queue``, bound with ``SO_REUSEPORT``: each worker process gets its own set on the
    same port, and the kernel spreads new connections over them by their addresses. One socket
    shared by every worker does not: each new connection wakes them all and the first to accept
    takes it, so phones connecting one after another all went to the same worker, which then
    kept their kept-alive polls for good while the other idled (tests/test_workers.py)."""
    sockets = []
    seen = set()
    for family, kind, proto, _, address in socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                               flags=socket.AI_PASSIVE):
        if address in seen:
            continue
        seen.add(address)
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if own_queue:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        sock.listen(1024)
        sockets.append(sock)
    return sockets


def _worker(make_app: Callable[[], Flask], sockets: list[socket.socket], others: list[socket.socket],
            threads: int) -> None:
    """One worker process: its own app (its own database connections, replay and board
    caches; the limits in the shared storage), accepting on its own sockets."""
    _exit_on_sigterm()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C reaches every process: the parent stops them
    for sock in others:  # the other workers' queues: held open here, a queue outlives its worker
        sock.close()
    server = _server(make_app(), threads, sockets=sockets)
    server.run()


def serve_workers(make_app: Callable[[], Flask], host: str, port: int, threads: int, workers: int) -> int:
    """``workers`` processes on one database, each one waitress with ``threads`` threads,
    each with its own listening sockets on the same port (the kernel hands each new connection
    to one of them, see ``listening_sockets``).
    Every process has its own app; the database (SQLite in WAL mode: writes queue for its
    lock, across processes as across threads) and the rate limits (a shared storage, see
    ``security.Limits``) are shared. Returns when they have stopped: after Ctrl+C or
    SIGTERM, or when one of them ended (then the others are stopped too)."""
    # every worker's sockets bound before any starts: a port already taken fails here, at once
    queues = [listening_sockets(host, port, own_queue=True) for _ in range(workers)]
    context = multiprocessing.get_context("fork")  # each worker starts from this process, its app built
    processes = [context.Process(target=_worker, args=(make_app, mine, [s for q in queues if q is not mine for s in q],
                                                       threads), name=f"scorekeeper worker {n}")
                 for n, mine in enumerate(queues)]
    for process in processes:
        process.start()
    for sock in (s for q in queues for s in q):  # the workers hold them; this process accepts nothing
        sock.close()
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    while not stop.is_set() and all(process.is_alive() for process in processes):
        stop.wait(0.5)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(10)
    ended = [process.exitcode for process in processes if process.exitcode not in (0, -signal.SIGTERM)]
    if ended and not stop.is_set():
        print(f"A worker stopped (exit code {ended[0]}): the server stopped.", file=sys.stderr)
        return 1
    return 0
