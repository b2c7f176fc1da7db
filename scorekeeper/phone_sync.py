"""What the phone's own app sends the server, and what it heard back (issue 29, items 4-5).

Python decides everything here; the service worker (static/offline/sync.js) only moves
the requests this module queues (``outbox``) to the server and hands the answers back
(``received``). Kept in ``sync.json`` in the phone's folder beside the database (saved
to the phone's storage with it), one entry per match of the phone:

- ``key``: the phone's key for the match, made when it is first queued: the server
  stores a match sent with a key once (web/views/sync.py), so a send whose answer was lost is
  sent again safely;
- once the server stored it: its ``id``, ``scorer`` and ``watcher`` links and token,
  and ``sent``: how many of the phone's hands the server holds. Hands recorded on the
  phone after that (with or without a network) are sent in order, each with the
  request key of the form that saved it, so a resent hand is saved once;
- ``conflict``: the server's match, when another phone recorded there meanwhile:
  nothing more is sent, the match page shows both versions and the table chooses;
- ``refused``: what the server said was wrong (said on the match page).

Chosen, and why: the phone never overwrites the server and the server never overwrites
the phone. On a conflict the table sees both and either continues with the server's
version (its scorer link) or sends the phone's hands as a copy of the match (a new match
on the server, its own links): nothing recorded on either side is lost, and no rule for
merging two tables' hands is invented (two phones' hand 5 are two different deals)."""
from __future__ import annotations

import contextlib
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import store
from .engine import Match, MatchError
from .matchfile import parse, to_document

STATE = "sync.json"
COPIES = "_copies"  # the scorer links of server matches this phone asked to keep a copy of


def _path(folder: str | Path) -> Path:
    return Path(folder) / STATE


def load(folder: str | Path) -> dict[str, dict[str, Any]]:
    try:
        state = json.loads(_path(folder).read_text())
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def save(folder: str | Path, state: dict[str, dict[str, Any]]) -> None:
    path = _path(folder)
    path.write_text(json.dumps(state, ensure_ascii=False))
    os.utime(path)  # IDBFS keeps what changed by its time


def _phone_matches(db: store.Database, state: dict[str, dict[str, Any]]) -> list[tuple[int, Match]]:
    """The phone's matches with something the server lacks, oldest first: only those are
    read (this runs after every request the phone answers)."""
    counts = store.hand_counts(db, sorted(row["id"] for row in store.all_matches(db)))
    due = [match_id for match_id, count in counts.items()
           if "scorer_token" not in state.get(str(match_id), {}) or count > state[str(match_id)].get("sent", 0)]
    return [(match_id, store.get_record(db, match_id).match) for match_id in due]


def _hand_keys(db: store.Database, match_id: int, key: str, count: int) -> list[str]:
    """The request key of the save that recorded each hand now on the phone (one made from
    the match's key and the hand's number where the log has none)."""
    keys: dict[int, str] = {}
    for entry in store.audit_log(db, match_id):
        if entry["action"] == "save" and entry["hand"] and entry["request_key"]:
            keys[entry["hand"]] = entry["request_key"]
        elif entry["action"] == "undo" and entry["hand"]:
            keys.pop(entry["hand"], None)
    return [keys.get(number) or f"{key}-{number}" for number in range(1, count + 1)]


def outbox(folder: str | Path, db: store.Database) -> list[dict[str, Any]]:
    """What to send the server now, in order: [{"id", "method", "path", "body"}] (``path``
    relative to the server's root, ``body`` a JSON text)."""
    state = load(folder)
    items = [{"id": f"copy-{token}", "method": "GET", "path": f"sync/match?scorer={token}", "body": None}
             for token in state.get(COPIES, {})]
    for match_id, match in _phone_matches(db, state):
        entry = state.setdefault(str(match_id), {"key": secrets.token_urlsafe(16)})
        if "conflict" in entry or "refused" in entry:
            continue  # the table chooses first (the match page says what)
        if "scorer_token" not in entry:
            body: dict[str, Any] = {"key": entry["key"], "match": to_document(match)}
            items.append({"id": f"match-{match_id}", "method": "POST", "path": "sync/matches",
                          "body": json.dumps(body, ensure_ascii=False)})
        elif len(match.hands) > entry["sent"]:
            keys = _hand_keys(db, match_id, entry["key"], len(match.hands))
            hands = [{"number": n, "hand": match.hands[n - 1], "request_key": keys[n - 1]}
                     for n in range(entry["sent"] + 1, len(match.hands) + 1)]
            items.append({"id": f"hands-{match_id}", "method": "POST", "path": "sync/hands",
                          "body": json.dumps({"scorer": entry["scorer_token"], "hands": hands}, ensure_ascii=False)})
    save(folder, state)  # the keys made now are the ones sent again after a lost answer
    return items


def want_copy(folder: str | Path, scorer_token: str) -> None:
    """Keep a copy of the server's match with this scorer link on this phone: asked for
    the next time the server is in reach (``outbox``), stored by ``received``."""
    state = load(folder)
    state.setdefault(COPIES, {})[scorer_token] = True
    save(folder, state)


def _take_copy(state: dict[str, Any], db: store.Database, device: str, token: str, answer: dict[str, Any]) -> None:
    """The server's match stored on this phone, as the phone's own copy of it: the hands
    recorded here from now on are sent to it (``sent``: the server's hands)."""
    for entry in state.values():
        if entry.get("scorer_token") == token:
            return  # a copy is on this phone already
    match_id = store.import_match(db, parse(answer["match"]), device=device)
    state[str(match_id)] = {"key": secrets.token_urlsafe(16), "id": answer["id"], "scorer": answer["scorer"],
                            "watcher": answer["watcher"], "scorer_token": token, "sent": answer["hands"]}


def received(folder: str | Path, db: store.Database, device: str, item_id: str, status: int, text: str) -> None:
    """The server's answer to an ``outbox`` item (``device``: the phone's, given the copies
    it asked for). A busy or failing server (429, 5xx) or an answer that is not the
    server's JSON leaves the item to be sent again later."""
    kind, _, match_id = item_id.partition("-")
    try:
        answer = json.loads(text)
    except ValueError:
        return
    state = load(folder)
    if kind == "copy" and isinstance(answer, dict) and status < 500 and status != 429:
        state.get(COPIES, {}).pop(match_id, None)  # asked once: a link that opens nothing is not asked again
        if status == 200:
            # not a match this app can score (another version's game or rules): nothing kept
            with contextlib.suppress(MatchError, store.LimitReached, KeyError, TypeError):
                _take_copy(state, db, device, match_id, answer)
        save(folder, state)
        return
    entry = state.get(match_id)
    if entry is None or not isinstance(answer, dict) or status == 429 or status >= 500:
        return
    if status in (200, 201):
        if kind == "match":
            entry.update({"id": answer["id"], "scorer": answer["scorer"], "watcher": answer["watcher"],
                          "scorer_token": answer["scorer_token"]})
        entry["sent"] = answer["hands"]
    elif status == 409:
        entry["conflict"] = {"match": answer.get("match"), "problems": answer.get("problems", [])}
    else:
        entry["refused"] = answer.get("problems") or [f"The server answered {status}."]
    save(folder, state)


def keep_as_copy(folder: str | Path, match_id: int) -> None:
    """The table chose to keep this phone's hands as a copy: the whole match is sent
    again under a new key, as a new match on the server (its own links)."""
    state = load(folder)
    state[str(match_id)] = {"key": secrets.token_urlsafe(16), "copy_of": state.get(str(match_id), {}).get("scorer")}
    save(folder, state)


@dataclass(frozen=True)
class Where:
    """Where a match of the phone stands with the server, as its page says it."""

    waiting: int  # hands (a match not sent yet: all of them) still to send
    sent: bool
    scorer: str | None = None
    watcher: str | None = None
    conflict: dict[str, Any] | None = None
    refused: list[str] | None = None


def where(folder: str | Path, match_id: int, hands: int) -> Where:
    entry = load(folder).get(str(match_id), {})
    sent = "scorer_token" in entry
    return Where(max(0, hands - entry.get("sent", 0)) if sent else hands, sent, entry.get("scorer"), entry.get("watcher"),
                 entry.get("conflict"), entry.get("refused"))


def waiting(folder: str | Path, db: store.Database) -> tuple[int, int]:
    """(hands, matches) of the phone still to send the server."""
    hands = matches = 0
    state = load(folder)
    for match_id, count in store.hand_counts(db, [m["id"] for m in store.all_matches(db)]).items():
        entry = state.get(str(match_id), {})
        if "scorer_token" not in entry:
            matches += 1
            hands += count
        else:
            hands += max(0, count - entry.get("sent", 0))
    return hands, matches
