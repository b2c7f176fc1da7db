"""Shared fixtures (flaskr style): an app on a real SQLite file in tmp_path."""
from __future__ import annotations

import shutil

import jinja2
import pytest
from flask import Flask

from scorekeeper import store
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


# Flask passes jinja_options to every environment it creates: every app of this session,
# the module-wide ones too (each sets up its environment inside create_app).
Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": SessionBytecodeCache()}


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
    })
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
