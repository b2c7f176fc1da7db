"""One replay per request: a match's results, hand by hand, at one stored version.

A ``MatchReplay`` is made once per request for the match it reads (``page.replay_of``)
and serves everything that request needs: the scoreboard, the form's dealer, a
preview, the save and its answer. It keeps the results it worked out as snapshots by
hand count ("the first k hands"), so a correction of hand N goes on from the result of
hands 1..N-1 and folds only hands N onwards.

Across requests the snapshots live in one ``ReplayCache`` per app, keyed by (database,
match, version, hand count). Every write bumps the version, so an entry never goes
stale, even with several processes on one file. A write hands its result on to the
next version (``MatchReplay.saved``), so the next request resumes from it.

Pure: no Flask here (``page`` keeps the per-request object in ``g``)."""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...engine import Match, MatchError, MatchResult, dealers_kept, replay

if TYPE_CHECKING:
    from ...games.base import HandContext

# (database, match id, version, hands folded)
Key = tuple[str, int, int, int]


class ReplayCache:
    """The last few snapshots of the last few matches, shared by the app's threads
    (waitress serves requests on several). Bounded in entries: a snapshot of a long
    match holds every hand's result."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._items: OrderedDict[Key, MatchResult] = OrderedDict()
        self._matches: OrderedDict[tuple[str, int, int], Match] = OrderedDict()
        self._lock = threading.Lock()

    def match(self, database: str, match_id: int, version: int) -> Match | None:
        """The match as stored at this version, if a replay of it was made."""
        with self._lock:
            return self._matches.get((database, match_id, version))

    def keep_match(self, database: str, match_id: int, version: int, match: Match) -> None:
        self._keep(self._matches, (database, match_id, version), match)

    def get(self, key: Key) -> MatchResult | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def best(self, database: str, match_id: int, version: int, most: int) -> MatchResult | None:
        """The longest snapshot of this match at this version with at most ``most`` hands."""
        with self._lock:
            fits = [(key[3], result) for key, result in self._items.items()
                    if key[:3] == (database, match_id, version) and key[3] <= most]
        return max(fits, key=lambda item: item[0])[1] if fits else None

    def put(self, key: Key, result: MatchResult) -> None:
        self._keep(self._items, key, result)

    def _keep(self, items: OrderedDict[Any, Any], key: Any, value: Any) -> None:
        """``items[key] = value`` as the newest, the oldest dropped past ``size``."""
        with self._lock:
            items[key] = value
            items.move_to_end(key)
            while len(items) > self.size:
                items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._matches.clear()


class MatchReplay:
    """Match ``match_id`` as stored at ``version``: its result, the result of its
    first k hands, and the match with one hand added or replaced, each folded once."""

    def __init__(self, cache: ReplayCache, database: str, match_id: int, version: int, match: Match) -> None:
        self.cache, self.database, self.match_id, self.version = cache, database, match_id, version
        self.match = match
        cache.keep_match(database, match_id, version, match)
        self._snapshots: dict[int, MatchResult] = {}
        # the last hand tried as hand N: a save checks the very hand its form's check just scored
        self._tried: tuple[int, dict, MatchResult | MatchError] | None = None

    def _key(self, hands: int, version: int | None = None) -> Key:
        return (self.database, self.match_id, self.version if version is None else version, hands)

    def _keep(self, hands: int, result: MatchResult) -> MatchResult:
        self._snapshots[hands] = result
        self.cache.put(self._key(hands), result)
        return result

    def upto(self, hands: int) -> MatchResult:
        """The result of the stored match's first ``hands`` hands (raises MatchError
        when they cannot be scored; the store never holds such a match)."""
        if hands in self._snapshots:
            return self._snapshots[hands]
        found = self.cache.get(self._key(hands))
        if found is not None:
            self._snapshots[hands] = found
            return found
        start = max((k for k in self._snapshots if k < hands), default=None)
        resume = self._snapshots[start] if start is not None else \
            self.cache.best(self.database, self.match_id, self.version, hands)
        return self._keep(hands, replay(self._with(self.match.hands[:hands]), resume=resume))

    def place_of(self, number: int) -> HandContext:
        """Where hand ``number`` is dealt, from the hands before it: by the dealer the match
        records for it (a correction of a hand dealt out of turn), else in turn; the dealer
        None when none can deal it (the match is over)."""
        before = self.upto(number - 1)
        place = before.next_place()  # dealt in turn
        if number > len(self.match.hands) or "dealer" not in self.match.hands[number - 1]:
            return place
        dealer = self.match.hands[number - 1]["dealer"]
        return place.dealing(dealer if isinstance(dealer, int) and 0 <= dealer < len(before.players) else None)

    def result(self) -> MatchResult:
        """The stored match's result."""
        return self.upto(len(self.match.hands))

    def with_hand(self, number: int, hand: dict) -> MatchResult:
        """The match with ``hand`` as hand ``number``: a new last hand, or a
        replacement of a recorded one. Raises MatchError when it cannot be scored."""
        if self._tried is not None and self._tried[:2] == (number, hand):
            tried = self._tried[2]
        else:
            hands = list(self.match.hands)
            if number > len(hands):
                hands.append(hand)
            else:
                hands[number - 1] = hand
            try:
                tried = replay(self._with(hands), resume=self.upto(number - 1))
            except MatchError as error:
                tried = error
            self._tried = (number, dict(hand), tried)
        if isinstance(tried, MatchError):
            raise tried
        return tried

    def dealer_marks(self, number: int, hand: dict, plain: MatchResult | None) -> tuple[list, bool]:
        """What correcting hand ``number`` to ``hand`` does to the later hands'
        dealers (``engine.dealers_kept``): the marks, and whether the match can be
        scored with those hands kept as recorded. ``plain`` is the match with the
        correction as it is, when it can be scored: a later hand whose dealer it
        leaves as recorded needs no mark, so then nothing more is folded."""
        stored = self.result()
        if plain is not None and all(new.dealer == old.dealer for new, old in
                                     zip(plain.hands[number:], stored.hands[number:])):
            return [], True
        _, marks, kept = dealers_kept(self.match, number, hand, recorded=[h.dealer for h in stored.hands],
                                      before=self.upto(number - 1))
        return marks, kept is not None

    def saved(self, version: int, match: Match, result: MatchResult) -> MatchReplay:
        """A write made ``version`` of this match, ``match`` with ``result``: the
        replay of that version, for this request's answer and the next requests."""
        after = MatchReplay(self.cache, self.database, self.match_id, version, match)
        after._keep(len(match.hands), result)
        return after

    def _with(self, hands: list[dict]) -> Match:
        return replace(self.match, hands=hands)

