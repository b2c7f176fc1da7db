"""Keeping the app on a phone, from the server: /offline/ serves the app that
``scorekeeper build-offline`` writes (offline.py), built once per process into the
instance folder. Nothing of it is fetched on a plain visit: only a phone that opens
"Keep on this phone" downloads the runtime. The kept app is mounted at /offline/ (the
service worker's scope), so it lives beside the server's pages without touching them."""
from __future__ import annotations

import threading
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, send_from_directory

from ... import offline
from ..edges.security import CSP

bp = Blueprint("keep", __name__, url_prefix="/offline")
_building = threading.Lock()
_built: dict[str, Path] = {}
# Pyodide compiles WebAssembly in the service worker: its own script allows that, and nothing more
WORKER_CSP = CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".zip": "application/zip", ".html": "text/html", ".css": "text/css"}


def built() -> Path:
    """The folder of the kept app, written on the first request of this process."""
    where = str(Path(current_app.instance_path) / "offline-app")
    with _building:
        if where not in _built:
            offline.build(where)
            _built[where] = Path(where)
    return _built[where]


def _send(folder: Path, name: str) -> Response:
    response = send_from_directory(folder, name, mimetype=TYPES.get(Path(name).suffix, "text/plain"))
    response.headers["Cache-Control"] = "no-cache"  # always checked: a new version is taken on the next start
    return response


@bp.get("/")
def start() -> Response:
    return _send(built(), "index.html")


@bp.get("/sw.js")
def worker() -> Response:
    response = _send(built(), "sw.js")
    response.headers["Content-Security-Policy"] = WORKER_CSP
    return response


@bp.get("/_phone/<name>")
def runtime(name: str) -> Response:
    return _send(built() / "_phone", name)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
