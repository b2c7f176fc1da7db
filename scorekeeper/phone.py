"""The app kept on a phone: the same Flask app, run inside the phone's browser by Pyodide.

The service worker (static/offline/sw.js) hands each of the app's requests to
``Phone.handle`` and sends back what the app answered. Everything the app keeps lives in
one folder (``/phone`` in Pyodide's file system, stored in the browser's IndexedDB by the
service worker): the database, the key that signs the session, and the cookies. The
browser never sees the app's cookies (a service worker can neither read a request's
``Cookie`` nor set one from its answer), so this module keeps them as the browser would.
"""
from __future__ import annotations

import importlib.util
import json
import os
import secrets
import sys
import zipfile
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from jinja2 import BytecodeCache, TemplateError
from jinja2.bccache import Bucket
from werkzeug.test import EnvironBuilder, run_wsgi_app

from .web import create_app

COOKIES = "cookies.json"
# A download on the phone is fetched through the service worker and saved from a blob:
# address (app.js: the browser's own download would go past the worker, to no network);
# the page may read those addresses of its own making, nothing more.
BLOB_DOWNLOADS = "; connect-src 'self' blob:"


class CompiledTemplates(BytecodeCache):
    """The pages' templates as Jinja compiled them, kept in memory by the template's name
    and source (Jinja checks the source is the same). Filled before the snapshot is made
    (``import_again``), so a start from the snapshot compiles none: compiling them was most
    of the first page's time (bench/offline.py --breakdown)."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


TEMPLATES = CompiledTemplates()


class Phone:
    """The app on this phone, with its data in ``folder``; ``server``: the address of the
    server it was kept from (what it records is sent there), None for a static build."""

    def __init__(self, folder: str, server: str | None = None) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.app = create_app({
            "DATABASE": str(self.folder / "scorekeeper.sqlite"),
            "SECRET_KEY": self._secret_key(),
            "OFFLINE": True,  # no rate limits (one phone, its own data), no compression (nothing goes over a network)
            "PHONE_FOLDER": str(self.folder),
            # with a server, what it sends there is kept in the folder too (phone_sync.py)
            "PHONE_SERVER": server,
        })
        self.app.jinja_env.bytecode_cache = TEMPLATES
        try:
            self.cookies: dict[str, str] = json.loads((self.folder / COOKIES).read_text())
        except (OSError, ValueError):
            self.cookies = {}

    def _secret_key(self) -> str:
        path = self.folder / "secret_key"
        if not path.exists():
            path.write_text(secrets.token_hex(32))
        return path.read_text().strip()

    def handle(self, method: str, path: str, root: str, headers: list[tuple[str, str]],
               body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
        """One request, as the browser sent it to ``path`` (with its query) of the app
        mounted at the URL ``root`` (the service worker's scope): the answer's status,
        headers and body."""
        headers = [(name, value) for name, value in headers if name.lower() != "cookie"]
        if self.cookies:
            headers.append(("Cookie", "; ".join(f"{name}={value}" for name, value in self.cookies.items())))
        builder = EnvironBuilder(path=path, base_url=root, method=method, headers=headers, data=body)
        environ = builder.get_environ()
        environ["REMOTE_ADDR"] = "127.0.0.1"  # the phone itself
        app_iter, status, answer = run_wsgi_app(self.app.wsgi_app, environ, buffered=True)
        try:
            content = b"".join(app_iter)
        finally:
            close = getattr(app_iter, "close", None)
            if close is not None:
                close()
        self._keep_cookies(answer.getlist("Set-Cookie"))
        kept = [(name, value + BLOB_DOWNLOADS if name.lower() == "content-security-policy" else value)
                for name, value in answer.items() if name.lower() != "set-cookie"]
        return int(status.split(" ", 1)[0]), kept, content

    def _keep_cookies(self, set_cookies: list[str]) -> None:
        if not set_cookies:
            return
        for line in set_cookies:
            parsed: SimpleCookie = SimpleCookie()
            parsed.load(line)
            for name, morsel in parsed.items():
                if morsel["max-age"] == "0" or not morsel.value:
                    self.cookies.pop(name, None)  # the app took it back (Flask empties a session this way)
                else:
                    self.cookies[name] = morsel.value
        path = self.folder / COOKIES
        path.write_text(json.dumps(self.cookies))
        os.utime(path)


def start(folder: str, server: str | None = None) -> Phone:
    """Called by the service worker once Pyodide has the packages and the phone's folder
    (``server``: sync.js's ``serverOf``, None for a static build)."""
    return Phone(folder, server)


def answer(phone: Phone, request: Any) -> tuple[int, list[tuple[str, str]], bytes]:
    """``request``: the service worker's plain object {method, path, root, headers, body}."""
    body = request.body.to_bytes() if request.body is not None else b""
    return phone.handle(request.method, request.path, request.root,
                        [tuple(pair) for pair in request.headers.to_py()], body)


# --- a faster next start: the code this start compiled, kept compiled ---

def compiled_copy(source: str, target: str, root: str, *, beside: bool) -> int:
    """Copy the zip ``source`` to ``target`` with, for each of its ``.py`` files that this
    start imported (found at ``root`` + its name), the code compiled by this very Python:
    beside the source (``name.pyc``, what zipimport reads: the standard library) or in
    ``__pycache__`` (what a folder's imports read: the app's zip, unpacked). The next start
    reads them instead of compiling the source again, which was most of a cold start
    (bench/offline.py). Unchecked hash-based ``.pyc``: the zips of one app version never
    change, and their unpacked files carry no dates worth checking. Every file of the copy
    is stored, not deflated: it stays on the phone, and a start reads it unpacked. Returns
    the count of ``.pyc``."""
    imported = {getattr(module, "__file__", None) for module in list(sys.modules.values())}
    count = 0
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as copy:
        for info in original.infolist():
            data = original.read(info)
            info.compress_type = zipfile.ZIP_STORED  # read as it is: no inflating at each start
            copy.writestr(info, data)
            if not info.filename.endswith(".py") or root + info.filename not in imported:
                continue
            code = compile(data, root + info.filename, "exec", dont_inherit=True)
            folder, _, name = info.filename.rpartition("/")
            stem = name[:-3]
            pyc = (f"{folder}/" if folder else "") + (
                f"{stem}.pyc" if beside else f"__pycache__/{stem}.{sys.implementation.cache_tag}.pyc")
            copy.writestr(zipfile.ZipInfo(pyc, date_time=info.date_time),
                          importlib._bootstrap_external._code_to_hash_pyc(  # type: ignore[attr-defined]
                              code, importlib.util.source_hash(data), checked=False))
            count += 1
    return count


def imported_modules() -> list[str]:
    """The modules this start imported from files (the app's, its packages', the standard
    library's): a snapshot of Pyodide's memory is made with them imported (sw.js keepSnapshot)."""
    return sorted(name for name, module in list(sys.modules.items())
                  if name != "__main__" and getattr(module, "__file__", None))


def import_again(names: Any, folder: str) -> int:
    """Before the snapshot is made: import ``names`` (imported_modules of another start),
    and compile every template, with an app of its own in ``folder`` (dropped after). A
    module that fails is left out: it is imported when needed, as without a snapshot.
    Returns the count imported."""
    count = 0
    for name in names:
        try:
            importlib.import_module(name)
            count += 1
        except Exception:  # a snapshot without it still starts faster
            continue
    environment = Phone(folder).app.jinja_env
    for template in environment.list_templates():
        try:
            environment.get_template(template)
        except TemplateError:  # its page says so when it is asked for, as without a snapshot
            continue
    return count


# --- what the phone sends the server (phone_sync.py decides; sw.js's sync.js carries) ---

def outbox(phone: Phone) -> str:
    """The requests to send the server now, as JSON text (see ``phone_sync.outbox``)."""
    from . import phone_sync
    from .web.edges.db import get_db

    with phone.app.app_context():
        return json.dumps(phone_sync.outbox(phone.folder, get_db()))


def received(phone: Phone, item_id: str, status: int, text: str) -> None:
    """The server's answer to one of them."""
    from . import phone_sync, store
    from .web.edges.access import DEVICE_COOKIE
    from .web.edges.db import get_db

    if not phone.cookies.get(DEVICE_COOKIE):  # a copy kept on this phone is this browser's to open
        phone.cookies[DEVICE_COOKIE] = secrets.token_urlsafe(24)
        (phone.folder / COOKIES).write_text(json.dumps(phone.cookies))
    device = store.device_key(phone.cookies[DEVICE_COOKIE])
    with phone.app.app_context():
        phone_sync.received(phone.folder, get_db(), device, item_id, int(status), text)
