"""``scorekeeper serve``: waitress with limits that fit a LAN app shared by many tables.

Far more connections than the phones at a club open (waitress's default of 100 let
~100 idle sockets lock everyone out), idle or half-sent requests dropped after 30 s
rather than 120 s, and the security headers on the answers waitress makes itself (a
malformed request's 400, a too-large header's 431), not only on the app's."""
from __future__ import annotations

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import ErrorTask

from .web.security import HEADERS

CONNECTION_LIMIT = 1000
IDLE_SECONDS = 30


class HeadedErrorTask(ErrorTask):
    """waitress's own error answer, with the headers every answer of the app carries."""

    def execute(self) -> None:
        self.response_headers.extend(HEADERS.items())  # type: ignore[attr-defined]  # a list at run time
        super().execute()


class HeadedChannel(HTTPChannel):
    error_task_class = HeadedErrorTask


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
    server.run()
