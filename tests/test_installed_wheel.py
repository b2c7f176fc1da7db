"""The app as a user installs it: the built wheel, installed into a fresh virtual
environment, serves every kind of page from an unrelated folder (templates and
static files ship inside the package)."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port: int, path: str) -> tuple[int, str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        return response.status, response.read().decode()


def test_the_built_wheel_serves_pages_from_a_fresh_virtual_environment(tmp_path):
    # From a copy without build leftovers: an editable install's egg-info would smuggle in
    # files the package declaration forgot.
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "*.egg-info", "build", "instance", "screenshots", "__pycache__", ".pytest_cache", ".hypothesis"))
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(source)],
                   check=True, timeout=300)
    wheel = next(wheels.glob("scorekeeper-*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], check=True, timeout=600)

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
        for game in ("third_hand", "third_wheel", "dummy_spades", "third_rail"):
            status, rules = get(port, f"/rules/{game}")
            assert status == 200 and "Who wins a trick" in rules
    finally:
        server.terminate()
        server.wait(timeout=10)
    # the package was not imported from this source tree
    installed = subprocess.run([str(venv / "bin" / "python"), "-c", "import scorekeeper; print(scorekeeper.__file__)"],
                               cwd=elsewhere, capture_output=True, text=True, check=True).stdout
    assert str(venv) in installed
