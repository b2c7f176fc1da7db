"""Static files cached for good: a returning phone asks for none of them.

At start-up each file of ``static/`` is copied under a name that carries a digest of its
content (``app.css`` -> ``app.1f2e3d4c5b6a.css``), our own CSS and JavaScript without their
comments and spaces (rcssmin, rjsmin: the comments are for people reading the source, a
fifth of what a phone downloads), and compressed once, brotli and gzip at their best
(WhiteNoise's ``Compressor``). WhiteNoise serves those names with
``Cache-Control: immutable`` and a year's max-age, the compressed copy the phone takes;
``url_for('static', ...)`` gives the pages those names. A new release changes the digest
of each file that changed, so a page never gets an old copy. The plain names are still
served by Flask as before (the manifest's icons, an old page still open), revalidated.

The copies live in a private temporary folder, made once per process (every app the
process makes shares it: the tests make hundreds) and removed when the process ends; the
folder of a process that was killed is removed by the next one to start."""
from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import tempfile
import threading
from pathlib import Path
from wsgiref.headers import Headers

import rcssmin
import rjsmin
from flask import Flask
from whitenoise import WhiteNoise
from whitenoise.compress import Compressor

from .security import HEADERS

PREFIX = "scorekeeper-static-"
_built: dict[tuple, tuple[str, dict[str, str]]] = {}
_lock = threading.Lock()


def fingerprinted(name: str, content: bytes) -> str:
    """``app.css`` -> ``app.<12 hex digits of its SHA-256>.css``."""
    stem, dot, suffix = name.rpartition(".")
    digest = hashlib.sha256(content).hexdigest()[:12]
    return f"{stem}.{digest}.{suffix}" if dot and stem else f"{name}.{digest}"


def served(name: str, content: bytes) -> bytes:
    """What a phone gets of a file: our CSS and JavaScript minified (a ``.min.`` file already is)."""
    if ".min." in name:
        return content
    if name.endswith(".js"):
        return rjsmin.jsmin(content.decode()).encode()
    if name.endswith(".css"):
        return rcssmin.cssmin(content.decode()).encode()
    return content


def build(source: Path) -> tuple[str, dict[str, str]]:
    """The folder of fingerprinted, compressed copies of ``source``'s files, and each
    file's served name; made once per process and content."""
    contents = {path.name: served(path.name, path.read_bytes()) for path in sorted(source.iterdir()) if path.is_file()}
    names = {name: fingerprinted(name, content) for name, content in contents.items()}
    key = (str(source), tuple(names.items()))
    with _lock:
        if key not in _built:
            _remove_left_behind()
            folder = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")
            atexit.register(_remove, folder, os.getpid())
            compressor = Compressor(quiet=True)
            for name, content in contents.items():
                target = Path(folder) / names[name]
                target.write_bytes(content)
                if compressor.should_compress(target.name):
                    compressor.compress(str(target))
            _built[key] = (folder, names)
        return _built[key]


def _remove_left_behind() -> None:
    """The folders of this user's processes that ended without removing theirs (killed)."""
    for folder in Path(tempfile.gettempdir()).glob(f"{PREFIX}*-*"):
        pid = folder.name[len(PREFIX):].split("-", 1)[0]
        if not pid.isdigit() or folder.stat().st_uid != os.getuid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except PermissionError:
            pass  # alive, another user's


def _remove(folder: str, made_by: int) -> None:
    """At exit, by the process that made the folder only (a forked worker shares it)."""
    if os.getpid() == made_by:
        shutil.rmtree(folder, ignore_errors=True)


def _headers(headers: Headers, path: str, url: str) -> None:
    """The headers every answer of the app carries (nosniff, CSP...)."""
    for name, value in HEADERS.items():
        headers[name] = value


def init_app(app: Flask) -> None:
    if not app.static_folder:
        return
    folder, names = build(Path(app.static_folder))
    app.extensions["scorekeeper.static_names"] = names
    prefix = (app.static_url_path or "/static").rstrip("/") + "/"
    app.wsgi_app = WhiteNoise(app.wsgi_app, root=folder, prefix=prefix,  # type: ignore[method-assign]
                              immutable_file_test=lambda path, url: True,  # every name it serves is fingerprinted
                              allow_all_origins=False, add_headers_function=_headers,
                              mimetypes={".json": "application/manifest+json"})  # the only JSON file: the manifest
