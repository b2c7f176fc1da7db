"""Every change a scorer makes to a match, one function each: check it, write it
through the store, say how it went as a typed outcome.

``Saved`` (written now), ``AlreadySaved`` (the same form was saved before: a double
tap or a re-sent form; nothing more was written), ``Stale`` (another phone changed the
match since the form was opened; nothing written), ``Refused`` (the engine would not score
it, or the match holds the most the store keeps; nothing written) and ``Gone`` (no such match, or hand, any more).

Pure: the database, the engine and the store, never Flask. The views read the form,
call one of these (or a service that does, ``entries``), and turn the outcome into an answer
(``page.answer``, or the view's own match on the outcome)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ... import store
from ...engine import Match, MatchError, MatchResult, replay
from .replays import MatchReplay

Database = store.Database


@dataclass(frozen=True)
class Saved:
    """Written. ``number``: the hand it was about (added, corrected, undone);
    ``before`` and ``after``: the match's results around a scored change;
    ``replayed``: the match as the write left it, when its version is known (the
    answer and the next request go on from it); ``match_id``: a match started;
    ``ended``: the devices a renewed link shut out."""

    number: int | None = None
    before: MatchResult | None = None
    after: MatchResult | None = None
    replayed: MatchReplay | None = None
    match_id: int | None = None
    ended: int = 0


@dataclass(frozen=True)
class AlreadySaved:
    """This very form (its request key) was saved before, as hand ``number``."""

    number: int | None = None


@dataclass(frozen=True)
class Stale:
    """The form was opened at version ``expected``; the match is now at ``current``."""

    expected: int
    current: int


@dataclass(frozen=True)
class Refused:
    """Not written: ``problems`` in words; ``error``, the engine's, placed by field."""

    problems: list[str] = field(default_factory=list)
    error: MatchError | None = None

    @classmethod
    def of(cls, error: MatchError) -> Refused:
        return cls(list(error.problems), error)


@dataclass(frozen=True)
class Gone:
    """The match (or the hand) is not there any more."""


Outcome = Saved | AlreadySaved | Stale | Refused | Gone


def _stored(write: Any) -> Outcome | tuple[Any]:
    """Run a store write; its value in a 1-tuple, or the outcome it raised."""
    try:
        return (write(),)
    except store.NotFound:
        return Gone()
    except store.AlreadySaved as already:
        return AlreadySaved(already.hand)
    except store.StaleVersion as stale:
        return Stale(stale.expected, stale.current)
    except store.LimitReached as full:  # the match holds the most the store keeps: nothing more fits
        return Refused(list(full.problems))
    except MatchError as error:
        return Refused.of(error)


def _before_writing(db: Database, replayed: MatchReplay, based_on: int | None,
                    request_key: str | None) -> Outcome | None:
    """What comes before any check: a form already saved, or opened on an older version."""
    if request_key:
        done = store.saved_request(db, replayed.match_id, request_key)
        if done is not None:
            return AlreadySaved(done["hand"])
    if based_on is not None and based_on != replayed.version:
        return Stale(based_on, replayed.version)
    return None


def _next(replayed: MatchReplay, based_on: int | None, hands: list[dict], after: MatchResult) -> MatchReplay | None:
    """The replay of the version a write made: known when the form said what it was based on."""
    if based_on is None:
        return None
    return replayed.saved(based_on + 1, replace(replayed.match, hands=hands), after)


def record_hand(db: Database, replayed: MatchReplay, hand: dict | None, *, based_on: int | None,
                request_key: str | None) -> Outcome:
    """Add ``hand`` as the match's next hand. ``hand`` None: the form could not be read
    (its messages are the form's). A form saved before, or opened on an older version, is
    said before any refusal; a hand the engine scores goes to the store, whose write says
    them itself (``store.AlreadySaved``, ``store.StaleVersion``), so a save asks it once."""
    number = len(replayed.match.hands) + 1
    try:
        checked = None if hand is None else replayed.with_hand(number, hand)
    except MatchError as error:
        return _before_writing(db, replayed, based_on, request_key) or Refused.of(error)
    if hand is None or (based_on is not None and based_on != replayed.version):
        # nothing to write, or a form opened on an older version: a double tap is said as saved
        return _before_writing(db, replayed, based_on, request_key) or Refused()
    done = _stored(lambda: store.add_hand(db, replayed.match_id, hand, expected_version=based_on,
                                          request_key=request_key, known=replayed.upto(number - 1),
                                          known_after=checked))
    if not isinstance(done, tuple):
        return done
    before, after = done[0]
    hands = replayed.match.hands + [hand]
    return Saved(number, before, after, _next(replayed, based_on, hands, after))


def correct_hand(db: Database, replayed: MatchReplay, number: int, hand: dict | None, *, based_on: int | None,
                 request_key: str | None, keep_dealers: bool = False) -> Outcome:
    """Replace hand ``number`` with ``hand`` (None: as ``record_hand``); with
    ``keep_dealers``, the later hands the correction would give another dealer are
    kept as recorded, dealt out of turn."""
    if not 1 <= number <= len(replayed.match.hands):
        return Gone()
    early = _before_writing(db, replayed, based_on, request_key)
    if early is not None or hand is None:
        return early or Refused()
    try:
        replayed.with_hand(number, hand)
    except MatchError as error:
        if not keep_dealers:
            return Refused.of(error)
        marks, keep_ok = replayed.dealer_marks(number, hand, None)
        if not (marks and keep_ok):
            return Refused.of(error)
    done = _stored(lambda: store.edit_hand(db, replayed.match_id, number, hand, expected_version=based_on,
                                           request_key=request_key, known=replayed.result(),
                                           keep_dealers=keep_dealers))
    if not isinstance(done, tuple):
        return done
    before, after = done[0]
    if keep_dealers:  # the later hands may carry marks: the next request reads them as stored
        return Saved(number, before, after)
    hands = list(replayed.match.hands)
    hands[number - 1] = hand
    return Saved(number, before, after, _next(replayed, based_on, hands, after))


def undo_last(db: Database, replayed: MatchReplay, *, based_on: int | None, request_key: str | None) -> Outcome:
    """Remove the last hand (the match log keeps it)."""
    if not replayed.match.hands:
        return Refused(["there is no hand to undo"])
    done = _stored(lambda: store.undo_last(db, replayed.match_id, expected_version=based_on,
                                           request_key=request_key, known=replayed.result()))
    if not isinstance(done, tuple):
        return done
    before, after = done[0]
    hands = replayed.match.hands[:-1]
    return Saved(len(replayed.match.hands), before, after, _next(replayed, based_on, hands, after))


def setup_candidate(replayed: MatchReplay, players: list[str], settings: dict,
                    first_dealer: int) -> MatchResult | Refused:
    """The match scored again under new names, settings or first dealer (nothing written)."""
    match = replace(replayed.match, players=players, settings=settings, first_dealer=first_dealer, date=None,
                    note=None)
    try:
        return replay(match)
    except MatchError as error:
        return Refused.of(error)


def change_setup(db: Database, replayed: MatchReplay, players: list[str], settings: dict, first_dealer: int, *,
                 based_on: int | None, request_key: str | None) -> Outcome:
    """Rename players, change settings or the first dealer: every hand scored again."""
    done = _stored(lambda: store.update_setup(db, replayed.match_id, players, settings, first_dealer,
                                              expected_version=based_on, request_key=request_key))
    if not isinstance(done, tuple):
        return done
    before, after = done[0]
    if based_on is None:
        return Saved(None, before, after)
    match = replace(replayed.match, players=after.players, settings=settings, first_dealer=first_dealer)
    return Saved(None, before, after, replayed.saved(based_on + 1, match, after))


def change_details(db: Database, match_id: int, date: str | None, note: str | None, *, based_on: int | None,
                   request_key: str | None) -> Outcome:
    """The match's date and note (not scored)."""
    done = _stored(lambda: store.update_details(db, match_id, date, note, expected_version=based_on,
                                                request_key=request_key))
    return Saved() if isinstance(done, tuple) else done


def delete_match(db: Database, match_id: int, *, based_on: int | None, request_key: str | None) -> Outcome:
    """Delete the match, recoverably (``store.delete_match``)."""
    done = _stored(lambda: store.delete_match(db, match_id, expected_version=based_on, request_key=request_key))
    return Saved() if isinstance(done, tuple) else done


def renew_link(db: Database, match_id: int, kind: str, device: str, *, request_key: str | None) -> Outcome:
    """A new scorer or watcher link; the old one opens nothing any more."""
    done = _stored(lambda: store.renew_link(db, match_id, kind, device, request_key=request_key))
    return Saved(ended=done[0]) if isinstance(done, tuple) else done


def start_match(db: Database, match: Match, *, device: str | None, previous: int | None = None) -> Outcome:
    """A new match (or the next one of a table: ``previous``), scored by ``device``."""
    done = _stored(lambda: store.create_match(db, match, device=device, previous=previous))
    return Saved(match_id=done[0]) if isinstance(done, tuple) else done
