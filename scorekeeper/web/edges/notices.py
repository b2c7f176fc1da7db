"""Flask's flashed messages kept on the server, not in the session cookie.

Flask keeps them in the session, a cookie that is signed but readable by whoever holds it
(base64 JSON), and they name players ("Deleted Third Wheel with Ann, Bob, Cy", after the
match is gone). Here, at the end of a request that flashed and did not show them, they go
into the database (``store.keep_notices``) and the session keeps only a random key; the
next page asked for (a GET, not a static file: a preview posted at each keystroke never
takes them) takes them back into the session, where Flask's ``get_flashed_messages``
finds them as ever. (A page that does not show them puts them back under a new key.)"""
from __future__ import annotations

import logging
import sqlite3

from flask import Flask, Response, request, session

from ... import store
from .db import get_db

FLASHES = "_flashes"  # where Flask's flash() puts them in the session
KEY = "notices"  # the session's key to them on the server


def bring_back() -> None:
    """before_request: the notices kept for this browser, back where flash() left them."""
    if KEY not in session or request.method != "GET" or request.endpoint == "static":
        return
    key = session.pop(KEY)
    try:
        messages = store.take_notices(get_db(), key) if isinstance(key, str) else []
    except sqlite3.Error:  # the page comes without its notice rather than not at all
        logging.getLogger("scorekeeper").warning("a notice could not be read", exc_info=True)
        return
    if messages:
        session[FLASHES] = [tuple(message) if isinstance(message, list) else message for message in messages]


def put_away(response: Response) -> Response:
    """after_request: notices flashed and not shown go to the server; the cookie keeps a key."""
    messages = session.get(FLASHES)
    if messages:
        session.pop(FLASHES)
        try:
            session[KEY] = store.keep_notices(get_db(), list(messages))
        except sqlite3.Error:  # a full disk, a lock held too long: the notice is lost, never a name in the cookie
            logging.getLogger("scorekeeper").warning("a notice could not be kept", exc_info=True)
    return response


def init_app(app: Flask) -> None:
    app.before_request(bring_back)
    app.after_request(put_away)
