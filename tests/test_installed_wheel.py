"""The app as a user installs it: the built wheel, installed into a fresh virtual
environment, serves every kind of page from an unrelated folder (templates and
static files ship inside the package).

The wheel is built and installed once per test session. Its dependencies come from a
wheelhouse kept beside pip's cache, keyed by what the wheel declares (``wheelhouse``).
The environment is new each session, made without pip of its own (the test
environment's pip installs into it)."""
from __future__ import annotations

import fcntl
import hashlib
import html
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from scorekeeper.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
# the games the package itself registers (the tests' own are registered in this process only)
SHIPPED = {key: game for key, game in GAMES.items() if type(game).__module__.startswith("scorekeeper.")}
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port: int, path: str) -> tuple[int, str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        return response.status, response.read().decode()


def build_wheel(source: Path, out: Path) -> Path:
    """The wheel, from setuptools' build hook (what pip calls, without pip's isolated
    build environment); by ``pip wheel`` where this environment's setuptools is too old
    to build wheels itself (before 70.1)."""
    hook = subprocess.run([sys.executable, "-c", "import sys; from setuptools import build_meta; "
                           "build_meta.build_wheel(sys.argv[1])", str(out)],
                          cwd=source, capture_output=True, text=True, timeout=300)
    if hook.returncode != 0:
        subprocess.run([*PIP, "wheel", "--no-deps", "-w", str(out), str(source)], check=True, timeout=300)
    return next(out.glob("scorekeeper-*.whl"))


def declared(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        metadata = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        lines = archive.read(metadata).decode().splitlines()
    return sorted(line for line in lines if line.startswith(("Requires-Dist:", "Requires-Python:"))
                  and "extra ==" not in line)


def wheelhouse(wheel: Path) -> Path:
    """The wheels of what ``wheel`` declares, in a folder kept beside pip's own cache and
    named by those requirements: the first run fills it (pip resolves them online, as for
    a user), every later run on this machine (any clone, any worktree) installs offline.
    Filled under a temporary name and renamed, so two runs at once never share a half-full one."""
    key = hashlib.sha256("\n".join(declared(wheel)).encode()).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "scorekeeper-tests"
    house = cache / f"wheelhouse-{key}"
    if not house.is_dir():
        cache.mkdir(parents=True, exist_ok=True)
        filling = Path(tempfile.mkdtemp(prefix="filling-", dir=cache))
        subprocess.run([*PIP, "wheel", "-w", str(filling), str(wheel)], check=True, timeout=600)
        try:
            filling.rename(house)
        except OSError:  # another run filled it first
            shutil.rmtree(filling, ignore_errors=True)
    return house


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> Path:
    """A fresh virtual environment with the built wheel installed: its folder. Under
    pytest-xdist the workers share one, made by whichever asks first, in the run's own
    temp folder (the parent of each worker's), behind a lock (as xdist's docs suggest)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # one process: the folder is this session's own
        return install(tmp_path_factory.mktemp("wheel"))
    shared = tmp_path_factory.getbasetemp().parent / "wheel"
    with open(f"{shared}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (shared / "done").exists():
            shutil.rmtree(shared, ignore_errors=True)  # what a worker that died mid-install left
            shared.mkdir()
            install(shared)
            (shared / "done").touch()
    return shared / "venv"


def install(tmp: Path) -> Path:
    """The wheel built from a copy of the source and installed into a new venv in ``tmp``."""
    # From a copy without build leftovers: an editable install's egg-info would smuggle in
    # files the package declaration forgot.
    source = tmp / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "*.egg-info", "build", "instance", "screenshots", "__pycache__", ".pytest_cache", ".hypothesis",
        ".mypy_cache", ".ruff_cache"))
    wheel = build_wheel(source, tmp / "wheels")
    house = wheelhouse(wheel)
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    subprocess.run([*PIP, "--python", str(venv / "bin" / "python"), "install", "--no-compile", "--no-index",
                    "--find-links", str(house), str(wheel)], check=True, timeout=600)
    return venv


def test_the_built_wheel_serves_pages_from_a_fresh_virtual_environment(installed, tmp_path):
    venv = installed
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(tmp_path / "scores.sqlite"))
    env.pop("PYTHONPATH", None)
    server = subprocess.Popen([str(venv / "bin" / "scorekeeper"), "serve", "--host", "127.0.0.1", "--port", str(port)],
                              cwd=elsewhere, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
                assert time.monotonic() < deadline, "scorekeeper serve did not start"
                time.sleep(0.1)
        status, home = get(port, "/")
        assert status == 200 and "Start a match" in home
        status, new = get(port, "/matches/new")
        assert status == 200 and "<form" in new
        status, htmx = get(port, "/static/htmx.min.js")
        assert status == 200 and "htmx" in htmx
        status, css = get(port, "/static/app.css")
        assert status == 200 and "--accent" in css
        # every game the package ships (read from the registry, not a list kept here): its own
        # rules page template came in the wheel
        for key, game in SHIPPED.items():
            status, rules = get(port, f"/rules/{key}")
            assert status == 200 and html.escape(game.title) in rules, key
    finally:
        server.terminate()
        server.wait(timeout=10)
    # the package was not imported from this source tree
    installed_at = subprocess.run([str(venv / "bin" / "python"), "-c", "import scorekeeper; print(scorekeeper.__file__)"],
                                  cwd=elsewhere, capture_output=True, text=True, check=True).stdout
    assert str(venv) in installed_at


def test_the_installed_wheel_builds_the_app_a_phone_keeps_from_its_own_files(installed, tmp_path):
    """The runtime ships in the wheel; the phone's packages come from the installed environment."""
    site = tmp_path / "site"
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    subprocess.run([str(installed / "bin" / "scorekeeper"), "build-offline", str(site)], cwd=tmp_path, env=env,
                   check=True, capture_output=True, timeout=120)
    for name in ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide.mjs", "LICENSE"):
        assert (site / "_phone" / name).read_bytes() == (ROOT / "scorekeeper" / "static" / "pyodide" / name).read_bytes()
    with zipfile.ZipFile(site / "_phone" / "app.zip") as archive:
        names = set(archive.namelist())
    assert {"scorekeeper/templates/match.html", "scorekeeper/phone.py", "flask/app.py", "sqlite_utils/db.py"} <= names
    assert (site / "sw.js").is_file() and (site / "index.html").is_file()
