"""Devices and grants: who may open a match. A device is remembered behind a
long-lived cookie (stored here as a digest); a grant says whether it may score the
match or only watch it. The links that hand out grants are renewed here too."""
from __future__ import annotations

import hashlib
import secrets

from sqlite_utils import Database

from .core import audit, lock, match_key, match_row, now, writing
from .errors import NotFound


def new_token() -> str:
    """An unguessable link token: 128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def device_key(cookie_value: str) -> str:
    """What the database keeps of a device's cookie: a digest, so a copy of the
    database does not hand out the devices' access."""
    return hashlib.sha256(cookie_value.encode()).hexdigest()[:32]


def device_known(db: Database, device: str) -> bool:
    """Was ``device`` (a digest, see ``device_key``) ever given a match here? Only such a
    device's cookie is one the server issued (one primary-key lookup)."""
    return db.execute("select 1 from devices where id = ?", [device]).fetchone() is not None


def device_of(db: Database, device: str) -> str | None:
    """``device`` (a digest, see ``device_key``) when the server issued its cookie and it is
    still in use, else None. A device whose cookie replaced another's is used for the first
    time here: the grants of the one it replaced move to it, and that one (its old cookie
    value with it) is gone, so a copy of the old value, wherever it is, opens nothing."""
    row = db.execute("select parent from devices where id = ?", [device]).fetchone()
    if row is None:
        return None
    if row[0] is not None:
        with writing(db):
            _take_over(db, device, row[0])
    return device


def _take_over(db: Database, device: str, parent: str) -> None:
    """Inside a transaction: ``device`` gets ``parent``'s grants (a grant both hold keeps the
    most it allowed), and ``parent`` is forgotten."""
    db.execute("insert into device_matches (device_id, match_id, score, watch, how, added_at) "
               "select ?, match_id, score, watch, how, added_at from device_matches where device_id = ? "
               "on conflict(device_id, match_id) do update set score = max(score, excluded.score), "
               "watch = max(watch, excluded.watch)", [device, parent])
    db.execute("delete from device_matches where device_id = ?", [parent])
    db.execute("delete from devices where id = ?", [parent])
    db.execute("update devices set parent = null where id = ?", [device])


def replace_device(db: Database, device: str, successor: str) -> None:
    """``successor`` (the digest of a new cookie) will be ``device`` once its cookie is first
    used (``device_of``); until then ``device`` keeps what it had, and ``successor`` holds
    only the grants given to it from now on."""
    stamp = now()
    with writing(db):
        db.execute("insert into devices (id, created_at, seen_at, parent) values (?, ?, ?, ?)",
                   [successor, stamp, stamp, device])


def grant_in(db: Database, device: str, match_id: int, *, score: bool = False, watch: bool = False,
           how: str = "") -> None:
    """Inside a write transaction: ``device`` may now score (or watch) the match; a grant
    it already holds is kept (opening the watcher link never takes scoring away)."""
    stamp = now()
    db.execute("insert into devices (id, created_at, seen_at) values (?, ?, ?) "
               "on conflict(id) do update set seen_at = excluded.seen_at", [device, stamp, stamp])
    db.execute("insert into device_matches (device_id, match_id, score, watch, how, added_at) "
               "values (?, ?, ?, ?, ?, ?) on conflict(device_id, match_id) do update set "
               "score = max(score, excluded.score), watch = max(watch, excluded.watch)",
               [device, match_id, int(score), int(watch), how, stamp])


def grant(db: Database, device: str, match_id: int, *, score: bool = False, watch: bool = False,
          how: str = "") -> None:
    """``device`` opened a link of the match (or started it): remember it in its history."""
    with writing(db):
        match_row(db, match_id)
        grant_in(db, device, match_id, score=score, watch=watch, how=how)


def access_of(db: Database, device: str | None, match_id: int) -> str | None:
    """What ``device`` may do in the match: "score", "watch" or None (not even see it).
    Raises NotFound when there is no such match."""
    row = db.execute("select d.score, d.watch from matches m left join device_matches d "
                     "on d.match_id = m.id and d.device_id = ? where m.id = ? and m.deleted_at is null",
                     [device or "", match_key(match_id)]).fetchone()
    if row is None:
        raise NotFound(f"no match {match_id}")
    return "score" if row[0] else "watch" if row[1] else None


def poll_state(db: Database, device: str, match_id: int) -> tuple[int, str | None] | None:
    """The match's version and what ``device`` may do in it ("score", "watch" or None), in
    one lookup by primary keys: all an unchanged poll needs. None when there is no such match.
    A device not known, or whose cookie replaced another's and has not taken its grants over
    yet (``device_of`` does that), may do nothing here: the app answers it."""
    row = db.execute("select m.version, d.score, d.watch, v.id is not null and v.parent is null from matches m "
                     "left join device_matches d on d.match_id = m.id and d.device_id = ? "
                     "left join devices v on v.id = ? where m.id = ? and m.deleted_at is null",
                     [device, device, match_key(match_id)]).fetchone()
    if row is None:
        return None
    if not row[3]:
        return row[0], None
    return row[0], "score" if row[1] else "watch" if row[2] else None


def renew_link(db: Database, match_id: int, kind: str, device: str, request_key: str | None = None) -> int:
    """A new ``kind`` ("scorer" or "watcher") link for the match: the old one opens
    nothing any more, and every grant it gave ends. A device that scored loses the
    match entirely with a new scorer link, even if it also opened the watcher link:
    that is how a lost phone is shut out (a scorer shares the match anyway, so being
    able to score is what it held, not a watcher grant on top). With a new watcher
    link the watchers lose the match and the scorers keep scoring. ``device``, the one
    asking, keeps its grants. Returns how many devices lost the match; logged in the match's log."""
    column, grant_column = {"scorer": ("scorer_token", "score"), "watcher": ("watcher_token", "watch")}[kind]
    token = new_token()
    with writing(db):
        row = lock(db, match_id, None, request_key)
        db.execute(f"update matches set {column} = ? where id = ?", [token, match_id])
        if kind == "scorer":
            db.execute("update device_matches set score = 0, watch = 0 where match_id = ? and device_id != ? "
                       "and score = 1", [match_id, device])
        else:
            db.execute(f"update device_matches set {grant_column} = 0 where match_id = ? and device_id != ?",
                       [match_id, device])
        ended: int = db.execute("select count(*) from device_matches where match_id = ? and score = 0 and watch = 0",
                           [match_id]).fetchone()[0]
        db.execute("delete from device_matches where match_id = ? and score = 0 and watch = 0", [match_id])
        audit(db, match_id, "relink", None, None, {"link": kind, "devices_ended": ended},
              None, None, row["version"], request_key)
    return ended
