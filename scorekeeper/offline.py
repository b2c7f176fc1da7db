"""The app a phone keeps, as static files (``scorekeeper build-offline DIR``).

The phone runs the app's own Python (engine, games, forms, pages) inside its browser
with Pyodide (vendored in static/pyodide/). The folder written here holds:

- ``index.html``: the page a phone opens first; it installs the service worker and
  waits until the app answers, then shows it;
- ``sw.js``: the service worker (static/offline/sw.js), which keeps every file below
  in the browser's cache and answers the app's requests by calling the Flask app;
- ``_phone/``: the Pyodide runtime, ``boot.js``, the app's ``app.css`` (the first page's look), and ``app.zip``: the scorekeeper
  package and the pure-Python packages it imports, copied from this environment's
  own installed files (no network).

Served by any static host (HTTPS or localhost: browsers run service workers nowhere
else), or by ``scorekeeper serve`` at /offline/.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import io
import shutil
import zipfile
from pathlib import Path

import scorekeeper

PACKAGE = Path(scorekeeper.__file__).resolve().parent
RUNTIME = PACKAGE / "static" / "pyodide"
SHELL = PACKAGE / "static" / "offline"
RUNTIME_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
                 "LICENSE", "SOURCE"]
# What the app imports on the phone (checked by tests/browser/test_offline.py, which plays there).
# Left out: waitress (no server on the phone), Flask-Compress and limits (create_app's OFFLINE),
# and sqlite-utils' command line (tabulate, click-default-group) the app never imports.
DISTRIBUTIONS = ["flask", "werkzeug", "jinja2", "markupsafe", "itsdangerous", "click", "blinker", "wtforms",
                 "flask-wtf", "htmx-flask", "sqlite-utils", "sqlite-fts4", "pluggy", "python-dateutil",
                 "segno"]
# kept out of app.zip: compiled for this machine (markupsafe falls back to pure Python),
# caches, and the runtime, which the phone fetches on its own
_LEFT_OUT_SUFFIXES = (".so", ".pyd", ".pyc", ".pyi")


# never imported on the phone: WTForms' translations (the app sets no locale) and
# sqlite-utils' command line (it needs tabulate, not shipped)
_LEFT_OUT_PATHS = ("wtforms/locale/", "sqlite_utils/cli.py", "sqlite_utils/__main__.py")


def _wanted(relative: str) -> bool:
    parts = relative.split("/")
    return not (relative.startswith("..") or "__pycache__" in parts or relative.endswith(_LEFT_OUT_SUFFIXES)
                or ".dist-info" in parts[0] or parts[0] == "bin" or relative.startswith(_LEFT_OUT_PATHS))


def _distribution_files(name: str) -> list[tuple[str, Path]]:
    dist = importlib.metadata.distribution(name)
    found = []
    for file in dist.files or []:
        relative = str(file).replace("\\", "/")
        if _wanted(relative):
            found.append((relative, Path(str(dist.locate_file(file)))))
    return found


def _package_files() -> list[tuple[str, Path]]:
    """This scorekeeper package as it is on disk (installed or checked out), without the
    runtime: an editable install lists no files of its own."""
    found = []
    for path in sorted(PACKAGE.rglob("*")):
        relative = "scorekeeper/" + path.relative_to(PACKAGE).as_posix()
        if path.is_file() and _wanted(relative) and not relative.startswith("scorekeeper/static/pyodide/"):
            found.append((relative, path))
    return found


def app_zip() -> bytes:
    """scorekeeper and the packages it imports on the phone, as one zip for site-packages.
    The same files give the same bytes (fixed dates), so the phone's cache keeps it."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        files = _package_files()
        for name in DISTRIBUTIONS:
            files += _distribution_files(name)
        for relative, path in sorted(files):
            info = zipfile.ZipInfo(relative, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return out.getvalue()


def build(folder: str | Path) -> dict[str, int]:
    """Write the offline app into ``folder`` (made if needed; files of an earlier build are
    replaced). Returns each file's size in bytes, by its path in the folder."""
    target = Path(folder)
    phone = target / "_phone"
    phone.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        shutil.copyfile(RUNTIME / name, phone / name)
    (phone / "app.zip").write_bytes(app_zip())
    shutil.copyfile(SHELL / "boot.js", phone / "boot.js")
    shutil.copyfile(SHELL / "sync.js", phone / "sync.js")  # imported by the worker, kept with it
    shutil.copyfile(SHELL / "index.html", target / "index.html")
    # the first page's look: the app's own stylesheet, fetched before the worker answers anything
    shutil.copyfile(PACKAGE / "static" / "app.css", phone / "app.css")
    kept = [f"_phone/{name}" for name in RUNTIME_FILES if name not in ("LICENSE", "SOURCE")]
    kept += ["_phone/app.zip", "_phone/sync.js"]
    # the version names this build's cache: a new build replaces the phone's copy on its next start
    digest = hashlib.sha256()
    for name in sorted(kept):
        digest.update(name.encode() + b"\0" + (target / name).read_bytes())
    version = digest.hexdigest()[:16]
    cached = [name for name in kept if not name.endswith((".mjs", "sync.js"))]  # the worker's own scripts: kept with it
    worker = (SHELL / "sw.js").read_text().replace("__VERSION__", version).replace(
        '"__FILES__"', ", ".join(f'"{name}"' for name in cached))
    (target / "sw.js").write_text(worker)
    return {path.relative_to(target).as_posix(): path.stat().st_size
            for path in sorted(target.rglob("*")) if path.is_file()}
