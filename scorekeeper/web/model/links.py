"""The address the phones at the table use to reach this server, for the links the app gives
out (the share page's links and QR codes, the links given back to a phone that sent a match)."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app, request

LOOPBACK = {"localhost", "127.0.0.1", "::1"}


def base_url() -> str:
    """scheme://host:port as this device reached the server: a phone on the
    LAN gets the LAN address. Opened on the server itself (localhost), the
    links use the LAN address when ``scorekeeper serve`` listens on all
    interfaces, so the QR codes work for the phones at the table."""
    parts = urlsplit(request.host_url)
    lan = current_app.config.get("LAN_ADDRESS")
    if parts.hostname in LOOPBACK and lan:
        return f"{parts.scheme}://{lan}" + (f":{parts.port}" if parts.port else "")
    return request.host_url.rstrip("/")
