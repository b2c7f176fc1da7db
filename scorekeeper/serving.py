"""``scorekeeper serve``: waitress with limits that fit a LAN app shared by many tables.

Far more connections than the phones at a club open (waitress's default of 100 let
~100 idle sockets lock everyone out), idle or half-sent requests dropped after 30 s
rather than 120 s, and the security headers on the answers waitress makes itself (a
malformed request's 400, a too-large header's 431), not only on the app's."""
from __future__ import annotations

import signal
import sys

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import ErrorTask, WSGITask

from .web.security import HEADERS

CONNECTION_LIMIT = 1000
IDLE_SECONDS = 30


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


class HeadedChannel(HTTPChannel):
    error_task_class = HeadedErrorTask
    task_class = KeptAliveTask


def serve(app: Flask, host: str, port: int, threads: int) -> None:
    # waitress drops X-Forwarded-* headers unless told otherwise: behind the proxies the app
    # was told to trust (SCOREKEEPER_PROXIES), they go through to its ProxyFix, which reads them
    behind_proxies = int(app.config.get("PROXIES", 0)) > 0
    server = create_server(app, host=host, port=port, threads=threads, connection_limit=CONNECTION_LIMIT,
                           channel_timeout=IDLE_SECONDS, cleanup_interval=10, backlog=1024,
                           clear_untrusted_proxy_headers=not behind_proxies)
    # one listening socket, or several (a host name with IPv4 and IPv6 addresses)
    listeners = [server] if hasattr(server, "channel_class") else list(getattr(server, "map", {}).values())
    for listener in listeners:
        if hasattr(listener, "channel_class"):
            listener.channel_class = HeadedChannel
    # stopped with SIGTERM (a service manager, a test): exit as after Ctrl+C, so what the
    # process made to remove at exit is removed (web.assets' folder of static copies)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    server.run()
