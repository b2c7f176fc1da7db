"""One database connection per request, on ``g``, closed on teardown."""
from __future__ import annotations

from flask import Flask, current_app, g
from sqlite_utils import Database

from .. import store


def get_db() -> Database:
    if "db" not in g:
        # the schema was brought up to date at start-up (init_app): no migration check per request
        g.db = store.connect(current_app.config["DATABASE"], migrate=False)
    return g.db


def close_db(exception: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
    # create or upgrade the schema at start-up
    store.connect(app.config["DATABASE"]).close()
