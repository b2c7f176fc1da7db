"""What the phone's own app sends the server, and what it heard back (issue 29, items 4-5).

Python decides everything here; the service worker (static/offline/sync.js) only moves
the requests this module queues (``outbox``) to the server and hands the answers back
(``received``). Kept in ``sync.json`` in the phone's folder beside the database (saved
to the phone's storage with it), one entry per match of the phone:

- ``key``: the phone's key for the match, made when it is first queued: the server
  stores a match sent with a key once (web/views/sync.py), so a send whose answer was lost is
  sent again safely;
- once the server stored it: its ``id``, ``scorer`` and ``watcher`` links and token;
  ``version``: the server's version of the match when the phone's copy was last the same
  as the server's, and ``mine``: the phone's version then. What the phone did to it
  since (hands saved, corrected, undone: its log after ``mine``) is sent in order, each
  change with the request key of the form that made it, so a resent change is made once,
  and each made on the version it was made on here, so another phone's change in the way
  is never overwritten. With nothing to send, the phone asks whether the server's match
  changed (another phone recorded there) and its copy takes the server's hands: it
  scores on from them (``sending``: the phone's version an item in flight carries;
  ``sent``: the server's hand count, all an earlier version of the app kept);
- ``conflict``: the server's match, when another phone recorded there meanwhile:
  nothing more is sent, the match page shows both versions and the table chooses;
- ``refused``: what the server said was wrong (said on the match page).

Chosen, and why: the phone never overwrites the server and the server never overwrites
the phone's own changes (its copy takes the server's hands only when it has none to
send). On a conflict the table sees both and either continues with the server's version
(its scorer link) or sends the phone's hands as a copy of the match (a new match on the
server, its own links): nothing recorded on either side is lost, and no rule for
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


HAND_CHANGES = ("save", "edit", "undo")
HEADER_CHANGES = ("setup", "details")  # with the hands, what the server takes from the phone (sync/changes)


def _changes(db: store.Database, match_id: int, entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The phone's hands saved, corrected and undone, and its players & settings and date &
    note changed, since its copy was last the server's
    (``mine``: the phone's version of the match then), oldest first, one per write: the
    log's entries of one write share its version (a correction that kept the dealers
    logs each later hand it marked)."""
    mine = entry["mine"]
    if store.get_version(db, match_id) == mine:
        return []  # one look-up: nothing written on the phone since
    writes: dict[int, list[dict[str, Any]]] = {}
    for logged in store.changes_since(db, match_id, mine):
        writes.setdefault(logged["version"], []).append(logged)
    changes = []
    for version, (first, *more) in sorted(writes.items()):
        key = first["request_key"] or f"{entry['key']}-v{version}"
        if first["action"] in HEADER_CHANGES:  # the players, settings or first dealer; the date or note
            changes.append({"action": first["action"], "request_key": key, **first["after"]})
            continue
        if first["action"] not in HAND_CHANGES:
            continue  # a new link (the phone's own), a delete (then nothing is sent at all)
        change = {"action": first["action"], "number": first["hand"], "request_key": key}
        if first["action"] != "undo":
            change["hand"] = first["after"]
        if more:
            change["keep_dealers"] = True  # the same correction on the same hands marks the same dealers
        changes.append(change)
    return changes


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


def _item(kind: str, match_id: int | str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"id": f"{kind}-{match_id}", "method": "POST", "path": path, "body": json.dumps(body, ensure_ascii=False)}


def outbox(folder: str | Path, db: store.Database) -> list[dict[str, Any]]:
    """What to send the server now, in order: [{"id", "method", "path", "body"}] (``path``
    relative to the server's root, ``body`` a JSON text). The phone's own matches and
    changes first, then one question for every copy the phone holds that has nothing to
    send: has the server's match changed (another phone recorded there)?"""
    state = load(folder)
    items = [{"id": f"copy-{token}", "method": "GET", "path": f"sync/match?scorer={token}", "body": None}
             for token in state.get(COPIES, {})]
    asked = []
    for row in store.all_matches(db)[::-1]:  # oldest first
        match_id = row["id"]
        entry = state.setdefault(str(match_id), {"key": secrets.token_urlsafe(16)})
        if "conflict" in entry or "refused" in entry:
            continue  # the table chooses first (the match page says what)
        if "scorer_token" not in entry:
            entry["sending"] = store.get_version(db, match_id)  # the phone's copy as sent
            match = store.get_record(db, match_id).match
            items.append(_item("match", match_id, "sync/matches", {"key": entry["key"], "match": to_document(match)}))
        elif "mine" not in entry:  # kept by an earlier version of the app: its hands after ``sent``
            count = store.hand_counts(db, [match_id])[match_id]
            entry["sending"] = store.get_version(db, match_id)
            if count > entry.get("sent", 0):
                match = store.get_record(db, match_id).match
                keys = _hand_keys(db, match_id, entry["key"], count)
                hands = [{"number": n, "hand": match.hands[n - 1], "request_key": keys[n - 1]}
                         for n in range(entry.get("sent", 0) + 1, count + 1)]
                items.append(_item("hands", match_id, "sync/hands", {"scorer": entry["scorer_token"], "hands": hands}))
            else:
                asked.append({"scorer": entry["scorer_token"], "version": 0})
        elif changes := _changes(db, match_id, entry):
            entry["sending"] = store.get_version(db, match_id)
            items.append(_item("changes", match_id, "sync/changes",
                               {"scorer": entry["scorer_token"], "version": entry["version"], "changes": changes}))
        else:
            asked.append({"scorer": entry["scorer_token"], "version": entry["version"]})
    if asked:
        items.append(_item("pull", "all", "sync/versions", {"matches": asked}))
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
                            "watcher": answer["watcher"], "scorer_token": token, "sent": answer["hands"],
                            "version": answer["version"], "mine": store.get_version(db, match_id)}


def _in_step(db: store.Database, match_id: int, entry: dict[str, Any], answer: dict[str, Any]) -> None:
    """The server's match is now the phone's copy: the versions each side had then."""
    entry["version"] = answer["version"]
    entry["mine"] = entry.pop("sending", None) or store.get_version(db, match_id)


def _become(db: store.Database, match_id: int, server: Match) -> None:
    """The phone's copy of the match made the server's: its names, settings and first dealer
    (changed there on its Players & settings page), then its hands."""
    mine = store.get_record(db, match_id).match
    if (server.players, server.settings, server.first_dealer) != (mine.players, mine.settings, mine.first_dealer):
        store.update_setup(db, match_id, server.players, server.settings, server.first_dealer)
    if server.hands != mine.hands:
        store.take_hands(db, match_id, server.hands)


def _catch_up(db: store.Database, match_id: int, entry: dict[str, Any], answer: dict[str, Any]) -> None:
    """The server's match changed (another phone recorded there) and the phone has
    nothing of its own to send: its copy takes the server's hands, so it scores on from
    them. Should the phone have changed it meanwhile, its changes go first (and a 409
    shows both versions): nothing here overwrites them."""
    if "mine" in entry and _changes(db, match_id, entry):
        return
    if "mine" not in entry and store.hand_counts(db, [match_id])[match_id] > entry.get("sent", 0):
        return
    try:
        _become(db, match_id, parse(answer["match"]))
    except (MatchError, store.LimitReached) as error:  # not a match this phone's copy can be
        entry["conflict"] = {"match": answer["match"], "problems": getattr(error, "problems", [])}
        return
    entry["version"] = answer["version"]
    entry["mine"] = store.get_version(db, match_id)
    entry.pop("sending", None)


def _pulled(db: store.Database, state: dict[str, Any], answer: dict[str, Any]) -> None:
    by_token = {entry.get("scorer_token"): (int(match_id), entry) for match_id, entry in state.items()
                if match_id != COPIES and "scorer_token" in entry}
    for token, server in (answer.get("matches") or {}).items():
        if token not in by_token or not isinstance(server, dict) or server.get("unchanged"):
            continue
        match_id, entry = by_token[token]
        if "problems" in server:  # the scorer link was renewed or the match deleted there
            entry["refused"] = server["problems"]
        elif "match" in server:
            with contextlib.suppress(store.NotFound, KeyError, TypeError):
                _catch_up(db, match_id, entry, server)


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
    if kind == "pull" and isinstance(answer, dict) and status == 200:
        _pulled(db, state, answer)
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
        _in_step(db, int(match_id), entry, answer)
    elif status == 409:
        entry.pop("sending", None)
        entry["conflict"] = {"match": answer.get("match"), "problems": answer.get("problems", []),
                             "version": answer.get("version")}
    else:
        entry.pop("sending", None)
        entry["refused"] = answer.get("problems") or [f"The server answered {status}."]
    save(folder, state)


def take_server_version(folder: str | Path, db: store.Database, match_id: int) -> None:
    """The table chose the server's version: this phone's copy becomes it (its own hands
    that differ stay readable in its match log, each save logged with the hand) and it is
    in step again, scoring on from the server's hands with or without a network.
    MatchError when this app cannot score the server's version (it says why)."""
    state = load(folder)
    entry = state[str(match_id)]
    _become(db, match_id, parse(entry["conflict"]["match"]))
    conflict = entry.pop("conflict")
    entry["version"] = conflict.get("version") or 0  # unknown: the next answer gives the server's match again
    entry["mine"] = store.get_version(db, match_id)
    entry.pop("sending", None)
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
    corrections: int = 0  # sent hands corrected or undone, players & settings or date & note changed: to send too


def _unsent(db: store.Database, match_id: int, hands: int, entry: dict[str, Any]) -> tuple[int, int]:
    """(hands, corrections) of a match the server has, still to send it."""
    if "mine" not in entry:
        return max(0, hands - entry.get("sent", 0)), 0  # kept by an earlier version of the app
    changes = _changes(db, match_id, entry)
    saved = sum(change["action"] == "save" for change in changes)
    return saved, len(changes) - saved


def where(folder: str | Path, db: store.Database, match_id: int, hands: int) -> Where:
    entry = load(folder).get(str(match_id), {})
    if "scorer_token" not in entry:
        return Where(hands, False)
    saved, corrections = _unsent(db, match_id, hands, entry)
    return Where(saved, True, entry.get("scorer"), entry.get("watcher"), entry.get("conflict"), entry.get("refused"),
                 corrections)


def waiting(folder: str | Path, db: store.Database) -> tuple[int, int, int]:
    """(hands, corrections, matches) of the phone still to send the server."""
    hands = corrections = matches = 0
    state = load(folder)
    for match_id, count in store.hand_counts(db, [m["id"] for m in store.all_matches(db)]).items():
        entry = state.get(str(match_id), {})
        if "scorer_token" not in entry:
            matches += 1
            hands += count
        else:
            saved, corrected = _unsent(db, match_id, count, entry)
            hands += saved
            corrections += corrected
    return hands, corrections, matches
