"""Shared fixtures (flaskr style): an app on a real SQLite file in tmp_path."""
from __future__ import annotations

import io
import os
import shutil
import sys
import tempfile

# Compiled modules kept outside the source tree where PYTHONDONTWRITEBYTECODE keeps them
# out of it. Without them each process of a run compiles every module it imports again:
# each xdist worker rewrites and compiles every test module (3 s), and each server, bench
# and CLI the tests start compiles the app (0.3 s, some forty times a run). Set here, before
# the app is imported, and in the environment, for the workers and the processes the tests start.
if sys.dont_write_bytecode and not sys.pycache_prefix:
    sys.pycache_prefix = os.path.join(tempfile.gettempdir(), f"scorekeeper-pycache-{os.getuid()}")
    sys.dont_write_bytecode = False
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix
    del os.environ["PYTHONDONTWRITEBYTECODE"]

# The tests' temp folders (tmp_path) in memory, where the system has /dev/shm: every test's
# database commits with synchronous = FULL, and those fsyncs to this machine's disk made a fifth
# of the suite's wall time. A server killed mid-write (test_durability) loses what it would on
# a disk, no more: what is written before the kill is in the page cache either way.
# (Only where it has room: a container's /dev/shm may be 64 MB, and a run writes about 83 MB.)
if "PYTEST_DEBUG_TEMPROOT" not in os.environ and os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) \
        and shutil.disk_usage("/dev/shm").free > 2 * 1024**3:
    os.environ["PYTEST_DEBUG_TEMPROOT"] = "/dev/shm"

from hypothesis import settings as _hypothesis_settings

# No deadline on any property test: a deadline is a timing assertion, and on a shared machine
# under load an example that takes 200 ms failed tests whose behaviour was right
# (test_third_wheel's hands_left property, in a merged run at load 19).
_hypothesis_settings.register_profile("scorekeeper", deadline=None)
_hypothesis_settings.load_profile("scorekeeper")

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, ClassVar

import jinja2
import pytest
from flask import Flask
from werkzeug.routing import Rule

from scorekeeper import cli, store
from scorekeeper.games import register_extra
from scorekeeper.web import create_app


class SessionBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept in memory for the whole test session. Each test makes its
    own app, and each app's Jinja environment compiled every template it rendered again:
    half the suite's CPU. Jinja checks each entry against a checksum of the template's
    source, so an edited template is compiled anew; what a template renders is unchanged."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


class RuleBuiltOnce(Rule):
    """A URL rule whose URL-building function is generated once per session. Werkzeug
    generates and compiles Python code for each rule of each app (two functions per
    rule): three quarters of what making an app costs, and every test makes one. The
    generated function reads nothing but its arguments and the rule it is bound to (its
    converters), so one made for the same rule text, converters and defaults serves every
    app. Should werkzeug change what it keeps, this builds each one anew, as before."""

    built: ClassVar[dict[tuple, Callable[..., Any]]] = {}

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., Any]:
        trace, converters = getattr(self, "_trace", None), getattr(self, "_converters", None)
        if trace is None or converters is None:
            return super()._compile_builder(append_unknown)
        key = (tuple(trace), tuple(sorted((name, type(c).__qualname__) for name, c in converters.items())),
               repr(sorted((self.defaults or {}).items())), append_unknown)
        if key not in self.built:
            self.built[key] = super()._compile_builder(append_unknown)
        return self.built[key]


# Flask passes jinja_options to every environment it creates and makes every URL rule
# with url_rule_class: this holds for every app of the session, the module-wide ones too.
Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": SessionBytecodeCache()}
Flask.url_rule_class = RuleBuiltOnce


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory):
    """An empty database brought up to today's schema once: each test's app starts from a
    copy of the file (the migrations' own tests start from nothing or from an old schema)."""
    path = tmp_path_factory.mktemp("schema") / "migrated.sqlite"
    store.connect(str(path)).close()
    return path


@pytest.fixture
def app(tmp_path, migrated_database):
    database = tmp_path / "test.sqlite"
    shutil.copyfile(migrated_database, database)
    app = create_app({
        "TESTING": True,
        "DATABASE": database,
        "WTF_CSRF_ENABLED": False,
        "SECRET_KEY": "test",
        # one test client is one address: the per-device write limit has its own tests
        "WRITES_PER_MINUTE": 10**6,
        "NEW_DEVICES_PER_MINUTE": 10**6,
        "HEAVY_READS_PER_MINUTE": 10**6,  # printouts and exports: tested in tests/web/test_abuse_limits.py
    })
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


# The tests' own game, unlike every real one (tests/oddball.py), in this process's registry;
# the servers and benches the tests start get it through oddball.ENV.
register_extra("tests.oddball")


@pytest.fixture
def command(capsys, monkeypatch):
    """``scorekeeper`` with these arguments, in this process: its exit code and what it printed."""
    def run_here(*args: str, stdin: str | None = None) -> SimpleNamespace:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        try:
            code = cli.main(list(args))
        except SystemExit as exit_:  # argparse's own refusals
            code = exit_.code
        out, err = capsys.readouterr()
        return SimpleNamespace(returncode=code, stdout=out, stderr=err)
    return run_here
