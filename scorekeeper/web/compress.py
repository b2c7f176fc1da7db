"""Gzip text responses when the client accepts it (the table's Wi-Fi may be slow)."""
from __future__ import annotations

import gzip

from flask import Flask, Response, current_app, request

TYPES = ("text/html", "text/css", "text/javascript", "application/javascript",
         "image/svg+xml", "application/json", "text/csv")
_cache: dict[tuple, bytes] = {}  # static files: (path, etag) -> gzipped bytes


def _accepts_gzip() -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


def gzip_response(response: Response) -> Response:
    if (response.status_code < 200 or response.status_code in (204, 206, 304)
            or "Content-Encoding" in response.headers
            or response.mimetype not in TYPES):
        return response
    response.vary.add("Accept-Encoding")
    if not _accepts_gzip():
        return response
    static = response.direct_passthrough
    key = (request.path, response.get_etag()[0]) if static else None
    if key and key in _cache:
        body = _cache[key]
    else:
        response.direct_passthrough = False
        data = response.get_data()
        if len(data) < current_app.config.get("GZIP_MIN_SIZE", 500):
            return response
        body = gzip.compress(data, compresslevel=6, mtime=0)
        if key and key[1]:
            _cache[key] = body
    response.direct_passthrough = False
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    response.headers["Content-Length"] = str(len(body))
    return response


def init_app(app: Flask) -> None:
    app.after_request(gzip_response)
