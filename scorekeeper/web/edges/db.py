"""The database connection of the thread serving a request.

Each worker thread keeps one connection open between requests: opening and closing
one per request cost about 5 ms a save (the last close of a WAL database checkpoints
it). A thread holds one connection at a time, for the database it last served.
"""
from __future__ import annotations

import threading

from flask import Flask, current_app, g
from sqlite_utils import Database

from ... import store

_threads = threading.local()


def thread_db(path: str) -> Database:
    """This thread's connection to the database at ``path`` (kept between requests)."""
    held = getattr(_threads, "held", None)
    if held is None or held[0] != path:
        if held is not None:
            held[1].close()
        # the schema was brought up to date at start-up (init_app): no migration check per request
        _threads.held = held = (path, store.connect(path, migrate=False))
    db: Database = held[1]
    return db


def get_db() -> Database:
    if "db" not in g:
        g.db = thread_db(current_app.config["DATABASE"])
    return g.db


def end_request(exception: BaseException | None = None) -> None:
    """Nothing a request began may outlive it: a transaction left open (it cannot be,
    every write is one ``store.writing`` block) is rolled back, never carried on."""
    db = g.pop("db", None)
    if db is not None and db.conn.in_transaction:
        db.conn.rollback()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(end_request)
    # create or upgrade the schema at start-up
    store.connect(app.config["DATABASE"]).close()
