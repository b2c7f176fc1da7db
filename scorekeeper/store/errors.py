"""What a store call can answer besides doing it. Bad input stays ``engine.MatchError``
(the engine or the match file's rules refuse it: the person can fix what they typed);
these say something about the stored match instead, and each caller translates them."""
from __future__ import annotations


class StoreError(Exception):
    """Anything the store refuses that is not bad input."""


class NotFound(StoreError, LookupError):
    """No match (or hand, or link) with that id: a 404 to a person."""


class Conflict(StoreError):
    """The write raced another one; nothing was changed."""


class StaleVersion(Conflict):
    """The write was based on an older version of the match."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(f"the match changed since version {expected} (now {current})")
        self.expected = expected
        self.current = current


class AlreadySaved(Conflict):
    """This exact form (its request key) was already saved: a double tap or a
    re-sent form. Nothing was changed the second time."""

    def __init__(self, action: str, hand: int | None, version: int) -> None:
        super().__init__(f"already saved ({action} hand {hand}, version {version})")
        self.action = action
        self.hand = hand
        self.version = version


class LimitReached(StoreError):
    """The match holds the most the store keeps (hands, or changes in its log): the
    input was fine, but nothing more fits. ``problems``: what to tell the person."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems
