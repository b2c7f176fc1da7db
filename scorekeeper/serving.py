"""``scorekeeper serve``: waitress with limits that fit a LAN app shared by many tables.

Far more connections than the phones at a club open (waitress's default of 100 let
~100 idle sockets lock everyone out), idle or half-sent requests dropped after 30 s
rather than 120 s, and the security headers on the answers waitress makes itself (a
malformed request's 400, a too-large header's 431), not only on the app's.

Two more edges, each with a test against the real server in tests/test_server_limits.py:
a body larger than the app accepts is refused when its headers arrive, not spooled to
disk first (waitress's own limit is 1 GiB); and a client that stops reading its answers
cannot hold a worker thread (waitress waits for it for ever: eight such sockets, each
pipelining big GETs, held every thread and locked everyone out)."""
from __future__ import annotations

import time

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import ErrorTask

from .web.security import HEADERS

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


class HeadedChannel(HTTPChannel):
    """waitress's connection, with its error answers headed, and a deadline on a client
    that does not read."""

    error_task_class = HeadedErrorTask
    stalled = False  # its client took nothing for STALLED_READER_SECONDS: to be closed

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
            while self.connected and self.total_outbufs_len > self.adj.outbuf_high_watermark:
                self.server.pull_trigger()  # the main loop sends what the client takes
                self.outbuf_lock.wait(timeout=1)
                # last_activity moves whenever the client takes a byte of the answer
                if self.connected and time.time() - self.last_activity > STALLED_READER_SECONDS:
                    self.stalled = True  # the main loop closes it (``writable`` below)
                    self.will_close = True
                    self.connected = False  # the task's next write ends it
                    self.server.pull_trigger()

    def writable(self) -> bool:
        """Asked by the main loop before each wait. A connection to close whose client has
        taken nothing for ``STALLED_READER_SECONDS`` is closed here: waitress closes a
        connection only once its socket can be written to, which a client that never
        reads never allows (its idle timeout marked such sockets and left them open)."""
        if self.stalled or (self.will_close and time.time() - self.last_activity > STALLED_READER_SECONDS):
            self.handle_close()
            return False  # closed: not to be waited on
        return bool(super().writable())


def serve(app: Flask, host: str, port: int, threads: int) -> None:
    # waitress drops X-Forwarded-* headers unless told otherwise: behind the proxies the app
    # was told to trust (SCOREKEEPER_PROXIES), they go through to its ProxyFix, which reads them
    behind_proxies = int(app.config.get("PROXIES", 0)) > 0
    server = create_server(app, host=host, port=port, threads=threads, connection_limit=CONNECTION_LIMIT,
                           channel_timeout=IDLE_SECONDS, cleanup_interval=10, backlog=1024,
                           clear_untrusted_proxy_headers=not behind_proxies,
                           max_request_body_size=int(app.config["MAX_CONTENT_LENGTH"]) + FORM_OVERHEAD,
                           outbuf_high_watermark=UNSENT_BYTES)
    # one listening socket, or several (a host name with IPv4 and IPv6 addresses)
    listeners = [server] if hasattr(server, "channel_class") else list(getattr(server, "map", {}).values())
    for listener in listeners:
        if hasattr(listener, "channel_class"):
            listener.channel_class = HeadedChannel
    server.run()
