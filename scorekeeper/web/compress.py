"""Compressed answers when the client accepts it (the table's Wi-Fi may be slow).

Flask-Compress compresses pages and static files as they go out. It keeps no cache:
a cache keyed by the request's path grew by one entry per spelling of a file's
address (``/static/x/../app.css``...), so anyone could fill the server's memory."""
from __future__ import annotations

from flask import Flask
from flask_compress import Compress

# brotli where the phone takes it, else gzip; static files are streamed, so the
# streaming list says the same
ALGORITHMS = ["br", "gzip"]


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_ALGORITHM", ALGORITHMS)
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ALGORITHMS)
    # brotli's quality 5 costs what gzip's 6 does and is ~5% smaller; Flask-Compress's 4 is larger than gzip
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    app.config.setdefault("COMPRESS_MIMETYPES", ["text/html", "text/css", "text/javascript", "application/javascript",
                                                 "image/svg+xml", "application/json", "application/manifest+json",
                                                 "text/csv",
                                                 "application/wasm"])  # the runtime a phone keeps (web/keep.py): 9.6 MB, 3.5 gzipped
    Compress(app)
