"""Shared fixtures (flaskr style): an app on a real SQLite file in tmp_path."""
from __future__ import annotations

import pytest

from scorekeeper.web import create_app


@pytest.fixture
def app(tmp_path):
    app = create_app({
        "TESTING": True,
        "DATABASE": tmp_path / "test.sqlite",
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
