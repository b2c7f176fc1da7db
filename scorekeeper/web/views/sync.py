"""What a phone that scored on its own sends the server (issue 29, items 4 and 5).

The app kept on a phone (phone.py) scores with no network; when the server is in reach
its service worker posts here what the phone's own Python queued (phone_sync.py):

- ``POST /sync/matches`` {"key", "match"}: a match started on the phone, as its match
  file, through the import path (replayed, checked, counted like an import). ``key`` is
  the phone's key for that match: sent again (the answer was lost), the match stored the
  first time is given back and nothing is stored twice. The answer gives the links.
- ``POST /sync/hands`` {"scorer", "hands": [{"number", "hand", "request_key"}]}: the
  hands the phone recorded on its own, in order, each with the request key of the form
  that saved it. A hand whose key the server has is skipped (a retry); the next hand
  must be the match's next one: if another phone recorded meanwhile, nothing more is
  written and the answer (409) holds the server's match, for the table to choose.
- ``POST /sync/changes`` {"scorer", "version", "changes": [{"action", "request_key", ...}]}:
  what the phone did to a match the server has since it last heard the server's
  ``version`` of it, in order, each with its request key: a hand saved ("save": "number",
  "hand"), corrected ("edit": "number", "hand", "keep_dealers") or undone ("undo":
  "number"); the players, settings or first dealer changed ("setup": "players",
  "settings", "first_dealer"); the date or note ("details": "date", "note"). Each is written with the version it was made on, so
  if another phone changed the match meanwhile nothing more is written and the answer
  (409) holds the server's match; a change whose key the server has is skipped (a retry).
- ``GET /sync/match?scorer=TOKEN``: the server's match (file, version), for the phone's copy.
- ``POST /sync/versions`` {"matches": [{"scorer", "version"}]}: for each match the phone
  keeps a copy of, the server's match if its version is not the one the phone last heard
  (another phone recorded there), else just ``{"unchanged": true}``: asked in one request
  after every request the phone answers, so its copies catch up before it scores on.

JSON in and out; every refusal says what is wrong and where, never a 500. The scorer
token is what lets a phone change a match here, as the scorer link does. Not a form:
no CSRF token, so only a JSON body is taken (a page of another site cannot send one
without the browser asking this server first, and it is never told yes)."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NamedTuple

from flask import Blueprint, Flask, Response, jsonify, request, url_for
from flask.typing import ResponseReturnValue

from ... import store
from ...engine import MatchError, replay
from ...matchfile import loads, to_document
from ..edges import access, security
from ..edges.db import get_db
from ..edges.errors import render_error
from ..model.links import base_url

bp = Blueprint("sync", __name__, url_prefix="/sync")
MAX_HANDS_SENT = 1000  # one request: as many as a match holds


def _refused(status: int, problems: list[str], **more: Any) -> Response:
    response = jsonify({"problems": problems, **more})
    response.status_code = status
    return response


def _limited(refusal: security.Refusal | None) -> Response | None:
    """A rate limit's 429 page as JSON, its words and Retry-After kept."""
    if refusal is None:
        return None
    response = _refused(429, ["Too many matches or hands sent from this network just now: try again in a minute."])
    response.headers.update(refusal[2])
    return response


def _body() -> dict[str, Any] | Response:
    if not request.is_json:
        return _refused(415, ["Send the body as JSON (Content-Type: application/json)."])
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return _refused(400, ["The body is not a JSON object."])
    return body


class Writing(NamedTuple):
    """What a request that writes to a match (``/sync/hands``, ``/sync/changes``) opens with."""

    body: dict[str, Any]
    match_id: int  # the match its ``scorer`` key opens
    sent: list[dict[str, Any]]  # the hands or changes, each checked for its shape
    db: store.Database


def _writing(listed: str, read: Callable[[Any], list[dict[str, Any]] | Response],
             check: Callable[[dict[str, Any]], Response | None] = lambda body: None) -> Writing | Response:
    """The JSON body, the match its ``scorer`` key opens, the body's own ``check`` (None: fine),
    the sent list (``read`` from the body's ``listed``), the write limit: each refused in that order."""
    body = _body()
    if isinstance(body, Response):
        return body
    match_id = _scorer_match(body.get("scorer"))
    if isinstance(match_id, Response):
        return match_id
    refused = check(body)
    if refused is not None:
        return refused
    sent = read(body.get(listed))
    if isinstance(sent, Response):
        return sent
    limited = _limited(security.refuse_write())
    if limited:
        return limited
    return Writing(body, match_id, sent, get_db())


def _key(value: Any, where: str) -> str | Response:
    if not isinstance(value, str) or not access.KEY_PATTERN.match(value):
        return _refused(400, [f"{where}: must be 8 to 64 letters, digits, '-' or '_', got {value!r:.80}"])
    return value


def _links(match_id: int) -> dict[str, Any]:
    tokens = store.get_tokens(get_db(), match_id)
    base = base_url()
    return {"id": match_id,
            "scorer": base + url_for("sharing.scorer_link", token=tokens["scorer_token"]),
            "watcher": base + url_for("sharing.watcher_link", token=tokens["watcher_token"]),
            "scorer_token": tokens["scorer_token"]}


@bp.post("/matches")
def send_match() -> ResponseReturnValue:
    body = _body()
    if isinstance(body, Response):
        return body
    key = _key(body.get("key"), "key")
    if isinstance(key, Response):
        return key
    found = store.imported_with_key(get_db(), key)
    if found is None:
        limited = _limited(security.refuse_import())
        if limited:
            return limited
        try:
            match = loads(json.dumps(body.get("match")))
            replay(match)
            store.check_details(match.date, match.note)
        except MatchError as error:
            return _refused(400, [f"match: {line}" for line in error.problems])
        limited = _limited(security.refuse_matches(1))
        if limited:
            return limited
        try:
            found, _new = store.import_once(get_db(), match, key, device=access.device(create=True))
        except (MatchError, store.LimitReached) as error:
            return _refused(400, [f"match: {line}" for line in error.problems])
        status = 201
    else:
        status = 200  # sent before: the same match, its links again
    record = store.get_record(get_db(), found)
    return jsonify({**_links(found), "hands": len(record.match.hands), "version": record.version}), status


def _scorer_match(token: Any) -> int | Response:
    if not isinstance(token, str) or not token:
        return _refused(400, ["scorer: the match's scorer token is missing."])
    try:
        return store.match_for_token(get_db(), "scorer", token)
    except store.NotFound:
        return _refused(404, ["scorer: no match has that scorer link (it may have been renewed or the "
                              "match deleted)."])


def _server_copy(match_id: int) -> dict[str, Any]:
    record = store.get_record(get_db(), match_id)
    return {"match": to_document(record.match), "version": record.version, "hands": len(record.match.hands)}


@bp.get("/match")
def server_match() -> ResponseReturnValue:
    match_id = _scorer_match(request.args.get("scorer"))
    if isinstance(match_id, Response):
        return match_id
    return jsonify({**_server_copy(match_id), **_links(match_id)})


def not_kept() -> ResponseReturnValue:
    """/offline/take reaches the server only when this phone has not kept the app (the
    kept app answers it itself): say so."""
    return render_error(404, "This phone has not kept the app yet: open the match list, tap Keep on this phone, "
                             "then Keep a copy on this phone on the match's page again.")


def _sent_hands(raw: Any) -> list[dict[str, Any]] | Response:
    if not isinstance(raw, list) or not raw:
        return _refused(400, ["hands: must be a list of at least one hand."])
    if len(raw) > MAX_HANDS_SENT:
        return _refused(400, [f"hands: at most {MAX_HANDS_SENT:,} in one request, got {len(raw):,}."])
    for index, sent in enumerate(raw):
        where = f"hands[{index}]"
        if not isinstance(sent, dict) or set(sent) != {"number", "hand", "request_key"}:
            return _refused(400, [f"{where}: must be an object with number, hand and request_key."])
        if not isinstance(sent["number"], int) or isinstance(sent["number"], bool) or sent["number"] < 1:
            return _refused(400, [f"{where}.number: must be a hand number from 1, got {sent['number']!r:.40}."])
        if index and sent["number"] != raw[index - 1]["number"] + 1:
            return _refused(400, [f"{where}.number: hands are sent in order, hand {raw[index - 1]['number'] + 1} "
                                  f"next, got {sent['number']}."])
        if not isinstance(sent["hand"], dict):
            return _refused(400, [f"{where}.hand: must be an object."])
        key = _key(sent["request_key"], f"{where}.request_key")
        if isinstance(key, Response):
            return key
    return raw


@bp.post("/hands")
def send_hands() -> ResponseReturnValue:
    """The phone's hands in order: each saved once (its request key), the next after the
    server's last; another phone's hand in the way stops it, with the server's match."""
    writing = _writing("hands", _sent_hands)
    if isinstance(writing, Response):
        return writing
    match_id, hands, db = writing.match_id, writing.sent, writing.db
    saved: list[int] = []
    already: list[int] = []
    for sent in hands:
        number = sent["number"]
        if store.saved_request(db, match_id, sent["request_key"]) is not None:
            already.append(number)
            continue
        stored = len(store.get_record(db, match_id).match.hands)
        if number != stored + 1:
            return _refused(409, [f"hand {number}: the match on the server has {stored} hands: another phone "
                                  f"recorded {'hand' if stored == number else 'hands'} {number}"
                                  f"{'' if stored == number else f' to {stored}'} meanwhile. "
                                  "Nothing after it was written; choose which to keep on the phone."],
                            saved=saved, already=already, **_server_copy(match_id))
        try:
            store.add_hand(db, match_id, sent["hand"], request_key=sent["request_key"])
        except store.AlreadySaved:
            already.append(number)
            continue
        except (MatchError, store.LimitReached) as error:
            return _refused(400, [f"hand {number}: {line}" for line in error.problems],
                            saved=saved, already=already, **_server_copy(match_id))
        except store.NotFound:
            return _refused(404, ["scorer: the match was deleted on the server."], saved=saved, already=already)
        saved.append(number)
    return jsonify({"saved": saved, "already": already, **_server_copy(match_id)})


@bp.post("/versions")
def server_versions() -> ResponseReturnValue:
    body = _body()
    if isinstance(body, Response):
        return body
    asked = body.get("matches")
    if not isinstance(asked, list) or len(asked) > MAX_HANDS_SENT:
        return _refused(400, [f"matches: must be a list of at most {MAX_HANDS_SENT:,} matches."])
    answers: dict[str, Any] = {}
    for index, item in enumerate(asked):
        if (not isinstance(item, dict) or not isinstance(item.get("scorer"), str)
                or not isinstance(item.get("version"), int) or isinstance(item.get("version"), bool)):
            return _refused(400, [f"matches[{index}]: must be an object with scorer (text) and version (a number)."])
        match_id = _scorer_match(item["scorer"])
        if isinstance(match_id, Response):
            answers[item["scorer"]] = {"status": match_id.status_code, **(match_id.get_json() or {})}
        elif store.get_version(get_db(), match_id) == item["version"]:
            answers[item["scorer"]] = {"unchanged": True}
        else:
            answers[item["scorer"]] = _server_copy(match_id)
    return jsonify({"matches": answers})


CHANGES = ("save", "edit", "undo", "setup", "details")


def _hand_problem(sent: dict[str, Any]) -> str | None:
    number = sent.get("number")
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        return f"number: must be a hand number from 1, got {number!r:.40}."
    if sent["action"] != "undo" and not isinstance(sent.get("hand"), dict):
        return "hand: must be an object."
    return None


def _header_problem(sent: dict[str, Any]) -> str | None:
    """What is wrong with a setup or details change's shape (the store checks the values)."""
    if sent["action"] == "details":
        for name in ("date", "note"):
            if not isinstance(sent.get(name), (str, type(None))):
                return f"{name}: must be text or null."
        return None
    if not isinstance(sent.get("players"), list) or not all(isinstance(p, str) for p in sent["players"]):
        return "players: must be a list of names."
    if not isinstance(sent.get("settings"), dict):
        return "settings: must be an object."
    if not isinstance(sent.get("first_dealer"), int) or isinstance(sent.get("first_dealer"), bool):
        return "first_dealer: must be a seat number."
    return None


def _sent_changes(raw: Any) -> list[dict[str, Any]] | Response:
    if not isinstance(raw, list) or not raw:
        return _refused(400, ["changes: must be a list of at least one change."])
    if len(raw) > MAX_HANDS_SENT:
        return _refused(400, [f"changes: at most {MAX_HANDS_SENT:,} in one request, got {len(raw):,}."])
    for index, sent in enumerate(raw):
        where = f"changes[{index}]"
        if not isinstance(sent, dict) or sent.get("action") not in CHANGES:
            return _refused(400, [f"{where}.action: must be one of {', '.join(CHANGES)}."])
        problem = _header_problem(sent) if sent["action"] in ("setup", "details") else _hand_problem(sent)
        if problem:
            return _refused(400, [f"{where}.{problem}"])
        if not isinstance(sent.get("keep_dealers", False), bool):
            return _refused(400, [f"{where}.keep_dealers: must be true or false."])
        key = _key(sent.get("request_key"), f"{where}.request_key")
        if isinstance(key, Response):
            return key
    return raw


def _write_change(db: store.Database, match_id: int, sent: dict[str, Any], version: int) -> None:
    """One of the phone's changes, written on the server's match as it was at ``version``."""
    key = sent["request_key"]
    if sent["action"] == "save":
        store.add_hand(db, match_id, sent["hand"], expected_version=version, request_key=key)
    elif sent["action"] == "edit":
        store.edit_hand(db, match_id, sent["number"], sent["hand"], expected_version=version, request_key=key,
                        keep_dealers=sent.get("keep_dealers", False))
    elif sent["action"] == "undo":
        store.undo_last(db, match_id, expected_version=version, request_key=key)
    elif sent["action"] == "setup":
        store.update_setup(db, match_id, sent["players"], sent["settings"], sent["first_dealer"],
                           expected_version=version, request_key=key)
    else:
        store.update_details(db, match_id, sent["date"], sent["note"], expected_version=version, request_key=key)


def _version_problem(body: dict[str, Any]) -> Response | None:
    version = body.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        return _refused(400, [f"version: must be the version of the server's match the phone last heard, "
                              f"got {version!r:.40}."])
    return None


@bp.post("/changes")
def send_changes() -> ResponseReturnValue:
    """The phone's changes in order, each made on the version before it: the first is
    made on the ``version`` of the server's match the phone last heard, and every write
    there adds one to it. Another phone's change in the way stops it (409, the server's
    match): the table chooses; nothing of either side is overwritten."""
    writing = _writing("changes", _sent_changes, _version_problem)
    if isinstance(writing, Response):
        return writing
    match_id, changes, db, version = writing.match_id, writing.sent, writing.db, writing.body["version"]
    saved: list[int] = []
    already: list[int] = []
    for index, sent in enumerate(changes):
        what = ({"setup": "players & settings", "details": "date & note"}.get(sent["action"])
                or {"save": "", "edit": "correction of ", "undo": "undo of "}[sent["action"]] + f"hand {sent['number']}")
        try:
            _write_change(db, match_id, sent, version + index)
        except store.AlreadySaved:
            already.append(index)  # sent before, its answer lost: written then
            continue
        except store.StaleVersion as stale:
            return _refused(409, [f"changes[{index}] ({what}): the match on the server changed meanwhile "
                                  f"(version {stale.current}, this phone last heard {version + index}): another "
                                  "phone recorded there. Nothing after it was written; choose which to keep on "
                                  "the phone."], saved=saved, already=already, **_server_copy(match_id))
        except (MatchError, store.LimitReached) as error:
            return _refused(400, [f"changes[{index}] ({what}): {line}" for line in error.problems],
                            saved=saved, already=already, **_server_copy(match_id))
        except store.NotFound as error:
            if str(error).startswith("no hand"):
                return _refused(400, [f"changes[{index}] ({what}): the match has no hand {sent['number']}."],
                                saved=saved, already=already, **_server_copy(match_id))
            return _refused(404, ["scorer: the match was deleted on the server."], saved=saved, already=already)
        saved.append(index)
    return jsonify({"saved": saved, "already": already, **_server_copy(match_id)})


def init_app(app: Flask) -> None:
    from .. import csrf

    app.register_blueprint(bp)
    app.add_url_rule("/offline/take", "sync.not_kept", not_kept)
    csrf.exempt(bp)  # JSON only (see the module's note): no form, no token
