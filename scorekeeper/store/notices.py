"""The notices a page shows once (Flask's flashed messages), kept on the server behind
a random key: the session cookie is signed, not hidden, and they name players."""
from __future__ import annotations

import datetime
import json
import secrets

from sqlite_utils import Database

from .core import now, writing

KEEP_NOTICE_HOURS = 24  # a notice not shown within a day (the page it led to never opened) goes


def keep_notices(db: Database, messages: list) -> str:
    """Keep ``messages`` (JSON-able) and return the key that takes them back, once."""
    key = secrets.token_urlsafe(16)
    stamp = now()
    oldest = (datetime.datetime.now(datetime.UTC) - datetime.timedelta(hours=KEEP_NOTICE_HOURS)).isoformat(
        timespec="seconds")
    with writing(db):
        db.execute("delete from notices where created_at < ?", [oldest])
        db.execute("insert into notices (id, messages, created_at) values (?, ?, ?)",
                   [key, json.dumps(messages, ensure_ascii=False), stamp])
    return key


def take_notices(db: Database, key: str) -> list:
    """The messages kept under ``key``, which are then gone ([] when there are none)."""
    with writing(db):
        row = db.execute("select messages from notices where id = ?", [key]).fetchone()
        if row is None:
            return []
        db.execute("delete from notices where id = ?", [key])
    messages = json.loads(row[0])
    return messages if isinstance(messages, list) else []
