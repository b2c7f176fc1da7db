"""The match file (``scorekeeper-match-1``): read, validate and write it.

See ../shared/spec/match-format.md. Reading only checks the document's own shape;
``engine.replay`` checks the game, players, settings and every hand.
"""
from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from .engine import Match, MatchError, MatchResult, replay, without_nulls
from .games.base import Problem, rule, show
from .names import same_name

FORMAT = "scorekeeper-match-1"
KEYS = ("format", "game", "players", "settings", "first_dealer", "date", "note", "hands")
OPTIONAL = ("format", "settings", "first_dealer", "date", "note")
NOTE_LIMIT = 500
WALKED_BYTES = 256 * 1024  # a bigger file with a repeated key or broken text is told what, not where


class _Object(dict):
    """A decoded JSON object that remembers the keys it held more than once."""

    repeated: tuple[str, ...] = ()


def _object(pairs: list[tuple[str, Any]], noted: list | None = None) -> dict:
    plain = dict(pairs)  # unless a key repeats: three times faster to make than an _Object
    if len(plain) == len(pairs):
        return plain
    obj = _Object(pairs)
    if noted is not None:
        noted.append(obj)
    counts: dict[str, int] = {}
    for key, _ in pairs:
        counts[key] = counts.get(key, 0) + 1
    obj.repeated = tuple(key for key, count in counts.items() if count > 1)
    return obj


def places(value: Any, where: str = "") -> Iterator[tuple[str, Any]]:
    """Every value in a decoded document with where it stands ("hand 2.bids[0]")."""
    yield where, value
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from places(inner, f"{where}.{key}" if where else str(key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from places(inner, f"hand {index + 1}" if where == "hands" else f"{where}[{index}]")


def repeated_keys(doc: Any) -> list[Problem]:
    """A problem for every key that appears twice in one object, naming where."""
    return [Problem(where, "repeated_key", {"key": key}) if where else rule(key, "appears twice")
            for where, value in places(doc) if isinstance(value, _Object) for key in value.repeated]


def broken_text(doc: Any) -> list[Problem]:
    """Text no page can show: a lone surrogate ("\\ud800" in JSON) is half a character.
    Player names are the engine's to refuse (with the names' own message)."""
    problems = []
    for where, value in places(doc):
        if where.startswith("players"):
            continue
        texts = ([value] if isinstance(value, str) else []) + (list(value) if isinstance(value, dict) else [])
        if any(is_broken(text) for text in texts):
            problems.append(rule(where or "match", f"holds broken text (a lone surrogate, got {show(value)})"))
    return problems


def is_broken(text: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def parse(doc: Any) -> Match:
    """A Match from a decoded match document; raises MatchError on any problem
    with the document itself (hands are checked when replayed)."""
    if not isinstance(doc, dict):
        raise MatchError(["match: must be a JSON object with game, players and hands"])
    # null for an optional key means the same as leaving it out
    doc = {key: value for key, value in doc.items() if not (value is None and key in OPTIONAL)}
    problems = [rule(key, f"unknown key (allowed: {', '.join(KEYS)})") for key in doc if key not in KEYS]
    if "format" in doc and doc["format"] != FORMAT:
        problems.append(rule("format", f"must be \"{FORMAT}\", got {show(doc['format'])}"))
    problems += [Problem(key, "missing") for key in ("game", "players") if key not in doc]
    if "hands" in doc and not isinstance(doc["hands"], list):
        problems.append(rule("hands", "must be a list of hands"))
    problems += date_problems(doc.get("date"))
    problems += note_problems(doc.get("note"))
    if problems:
        raise MatchError.of(problems)
    # and inside a hand too: the hands are kept (and imported) without them
    return without_nulls(Match(
        game=doc["game"],
        players=doc["players"],
        settings=doc.get("settings", {}),
        first_dealer=doc.get("first_dealer", 0),
        hands=doc.get("hands", []),
        date=doc.get("date"),
        note=doc.get("note"),
    ))


# Exactly YYYY-MM-DD in ASCII digits: date.fromisoformat alone also takes week dates
# ("2024-W01-1"), compact forms ("20240101") and other digits ("２０２４-01-01").
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def date_problems(value: Any) -> list[Problem]:
    """Problems with a match's day: exactly YYYY-MM-DD, a real calendar day."""
    if value is None:
        return []
    if isinstance(value, str) and DATE.fullmatch(value):
        try:
            datetime.date(int(value[:4]), int(value[5:7]), int(value[8:]))
            return []
        except ValueError:
            pass
    return [rule("date", f"must be a day as YYYY-MM-DD, got {show(value)}")]


def note_problems(value: Any) -> list[Problem]:
    if value is None:
        return []
    if not isinstance(value, str):
        return [rule("note", f"must be text, got {show(value)}")]
    if len(value) > NOTE_LIMIT:
        return [rule("note", f"at most {NOTE_LIMIT} characters, got {len(value)}")]
    return []


def loads(text: str | bytes) -> Match:
    """Parse match-file text; raises MatchError for bad JSON too."""
    return parse(_decode(text))


def loads_history(text: str | bytes, max_matches: int | None = None, max_hands: int | None = None) -> list[Match]:
    """A history file (a JSON list of match documents, one a line, as the history export writes) or a
    single match file, as matches; raises MatchError naming each bad match ("match 3: ...").
    A file of more than ``max_matches`` matches, or ``max_hands`` hands in a match, is
    refused on counting them, before anything else is read."""
    doc = _decode(text, lambda doc: _sizes(doc, max_matches, max_hands))
    if not isinstance(doc, list):
        return [parse(doc)]
    if not doc:
        raise MatchError(["history file: the list holds no matches"])
    matches, problems = [], []
    for number, item in enumerate(doc, start=1):
        try:
            matches.append(parse(item))
        except MatchError as error:
            problems += [f"match {number}: {line}" for line in error.problems]
    if problems:
        raise MatchError(problems)
    return matches


def history_line(match: Match) -> str:
    """One match of a history file, on one line (the export streams them one by one)."""
    return json.dumps(to_document(match), ensure_ascii=False, separators=(",", ":"))


def duplicate_key(match: Match) -> str:
    """What two copies of one match share: the game, the players (as the rules compare
    names, in seat order), the date and the hands as recorded."""
    players = [same_name(p) if isinstance(p, str) else p for p in match.players] \
        if isinstance(match.players, list) else match.players
    return json.dumps([match.game, players, match.date, match.hands], sort_keys=True, ensure_ascii=False)


def _sizes(doc: Any, max_matches: int | None, max_hands: int | None) -> None:
    """Raise MatchError when the decoded file holds too many matches, or a match too many hands."""
    if isinstance(doc, list) and max_matches is not None and len(doc) > max_matches:
        raise MatchError([f"history file: {len(doc):,} matches, but one file can hold at most {max_matches:,}"])
    problems = []
    for number, item in enumerate(doc if isinstance(doc, list) else [doc], start=1):
        hands = item.get("hands") if isinstance(item, dict) else None
        if max_hands is not None and isinstance(hands, list) and len(hands) > max_hands:
            where = f"match {number}: " if isinstance(doc, list) else ""
            problems.append(f"{where}hands: {len(hands):,} hands, but one match can hold at most {max_hands:,}")
    if problems:
        raise MatchError(problems)


def _decode(text: str | bytes, check: Callable[[Any], None] | None = None) -> Any:
    """The decoded document; ``check`` sees it first, read without the hook that notes
    repeated keys (five times faster), so a file that is too big costs no more than that."""
    try:
        if check is not None:
            check(json.loads(text))
        repeats: list[_Object] = []
        doc = json.loads(text, object_pairs_hook=lambda pairs: _object(pairs, repeats))
    except RecursionError:
        raise MatchError(["match file: nested too deeply to be a match"]) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        where = f" (line {error.lineno}, column {error.colno})" if isinstance(error, json.JSONDecodeError) else ""
        raise MatchError([f"match file: not valid JSON{where}: {getattr(error, 'msg', str(error))}"]) from None
    except ValueError:  # Python refuses integers of more than 4,300 digits
        raise MatchError(["match file: a number has too many digits to be part of a match"]) from None
    # the walks that name where cost a second or more for a 1 MiB file: only run when something is
    # there to name, and for a big file name what without where (a crafted file would make every
    # import of it cost that second)
    broken = _lone_surrogate(doc)
    if (repeats or broken) and len(text) > WALKED_BYTES:
        keys = list(dict.fromkeys(key for obj in repeats for key in obj.repeated))
        raise MatchError.of([rule("match file", f'key "{key}" appears twice in one object') for key in keys[:20]]
                            + ([rule("match file", "holds broken text (a lone surrogate)")] if broken else []))
    problems = (repeated_keys(doc) if repeats else []) + (broken_text(doc) if broken else [])
    if problems:
        raise MatchError.of(problems)
    return doc


def _lone_surrogate(doc: Any) -> bool:
    try:
        json.dumps(doc, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, RecursionError):  # too deep to write out: let the walk look
        return True
    return False


def to_document(match: Match) -> dict:
    """The match file for a match, keys in the documented order."""
    doc: dict[str, Any] = {
        "format": FORMAT,
        "game": match.game,
        "players": list(match.players),
        "settings": dict(match.settings),
        "first_dealer": match.first_dealer,
    }
    if match.date:
        doc["date"] = match.date
    if match.note:
        doc["note"] = match.note
    doc["hands"] = [dict(h) for h in match.hands]
    return doc


def dumps(match: Match) -> str:
    return json.dumps(to_document(match), indent=2, ensure_ascii=False) + "\n"


def rescore(text: str | bytes) -> MatchResult:
    """Read a match file and replay it: the whole of ``scorekeeper rescore``."""
    return replay(loads(text))
