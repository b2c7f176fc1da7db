"""A server the tests start as a process of its own: ``python -m tests.slow_disk PORT FOLDER``.

Waitress as ``scorekeeper serve`` sets it up (``scorekeeper.serving._server``: our
``HeadedChannel``), in front of a Flask app whose one page is a file read from a slow disk,
answered through waitress's ``wsgi.file_wrapper`` as WhiteNoise answers the app's static
files. Waitress reads such a file in the worker thread while it sends it, holding the
connection's lock; the read of this one makes ``FOLDER/reading`` and waits until
``FOLDER/go`` exists, as a read from a busy SD card or network disk would wait. Its other
page, ``/big``, is ``BIG_PARTS`` parts of 64 KiB (8 MiB, more where the kernel buffers more),
each handed to waitress on its own: more than the kernel and a connection may hold unsent
(``serving.UNSENT_BYTES``) for a client that reads late.
"""
from __future__ import annotations

import io
import sys
import time
from pathlib import Path

from flask import Flask, Response, send_file

from scorekeeper.serving import _exit_on_sigterm, _server

BODY = b"a line of the file\n" * 2000  # 38,000 bytes, sent in one piece
PART = b"x" * 65536


def _big_parts() -> int:
    """8 MiB of parts, or more where the kernel lets one socket's send buffer hold more than
    4 MiB (tcp_wmem's largest): the kernel and ``UNSENT_BYTES`` must leave some unsent."""
    try:
        most = int(Path("/proc/sys/net/ipv4/tcp_wmem").read_text().split()[2])
    except (OSError, IndexError, ValueError):
        most = 4 * 1024 * 1024
    return max(128, (most + 4 * 1024 * 1024) // len(PART))


BIG_PARTS = _big_parts()


class SlowDiskFile(io.BytesIO):
    """A file whose first read waits for the test to say go."""

    def __init__(self, folder: Path) -> None:
        super().__init__(BODY)
        self.folder = folder
        self.waited = False

    def read(self, size: int | None = -1) -> bytes:
        if not self.waited:
            (self.folder / "reading").touch()
            while not (self.folder / "go").exists():
                time.sleep(0.02)  # this thread's own wait; the test watches the main loop's CPU
            self.waited = True
        return super().read(size)


def make_app(folder: Path) -> Flask:
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = 1024 * 1024

    @app.get("/file")
    def file():  # type: ignore[no-untyped-def]
        return send_file(SlowDiskFile(folder), mimetype="text/plain")

    @app.get("/big")
    def big():  # type: ignore[no-untyped-def]
        return Response((PART for _ in range(BIG_PARTS)), mimetype="application/octet-stream",
                        headers={"Content-Length": str(len(PART) * BIG_PARTS)})

    return app


if __name__ == "__main__":
    port, folder = int(sys.argv[1]), Path(sys.argv[2])
    server = _server(make_app(folder), 2, host="127.0.0.1", port=port)
    _exit_on_sigterm()
    server.run()
