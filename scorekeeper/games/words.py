"""Problems in words: the one place a ``Problem`` (what is wrong, as data) becomes
text. ``line`` is the match-format contract's wording (the CLI, import, the store);
``plain`` is the form's wording: the player before the message, "still to fill
in" for a blank, Third Rail's trick winners counted from seat 1 as typed.
Nothing reads these words back: code that needs to know what is wrong asks the
problem's ``code``, ``field`` and ``seat``."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Codes whose line names no field first: the sentence names it itself.
UNPREFIXED = {"sum", "unknown_field", "not_object", "after_end"}


def reason(problem: Any) -> str:
    """What is wrong, after the "field: " part of the line."""
    code, a = problem.code, problem.params
    if code == "missing":
        if "why" in a:
            return f"missing ({a['why']})"
        return "missing" + (f" ({a['with']} and {problem.field} go together)" if "with" in a else "")
    if code == "not_whole":
        return f"must be a whole number, got {a['got']}"
    if code == "out_of_range":
        low, high = a.get("minimum"), a.get("maximum")
        if low is not None and high is not None:
            return f"must be {low} to {high}, got {a['got']}"
        return f"must be at least {low}, got {a['got']}" if low is not None else f"must be at most {high}, got {a['got']}"
    if code == "not_seat":
        return f"must be a seat 0 to {a['last']}, got {a['got']}"
    if code == "not_list":  # a number per seat, or what the game says the list holds
        what = a["what"] if "what" in a else f"{a['per_seat']} numbers, one per seat"
        return f"must be a list of {what}, got {a['got']}"
    if code == "choice":
        return f"must be one of {a['options']}, got {a['got']}"
    if code == "not_bool":
        return f"must be true or false, got {a['got']}"
    if code == "sum":
        return f"{problem.field} add up to {a['total']}{a.get('extra', '')}, not {a['expected']}{a.get('why', '')}"
    if code == "unknown_field":
        return f"unknown field \"{a['key']}\" for {a['game']} (allowed: {a['allowed']})"
    if code == "not_object":
        return f"must be an object with the fields {a['fields']}, got {a['got']}"
    if code == "after_end":
        return f"recorded after the game ended (it ended after hand {a['last']})"
    if code == "repeated_key":
        return f"key \"{a['key']}\" appears twice"
    if code == "rule":
        if "text" not in a:  # a game's fact the engine has not had its game say (``Shown.worded``)
            raise ValueError(f"no words yet for the game's fact {problem.fact!r}: see Shown.worded")
        return a["text"]
    raise ValueError(f"no words for problem code {code!r}")


def prefixed(problem: Any) -> bool:
    if problem.code == "rule":
        return problem.params.get("prefix", True)
    return problem.code not in UNPREFIXED


def line(problem: Any) -> str:
    """The contract's line: "tricks[2] (Cy): must be 0 to 11, got 12"."""
    if problem.seat is not None:
        who = f" ({problem.who})" if problem.who else ""
        return f"{problem.field}[{problem.seat}]{who}: {reason(problem)}"
    if problem.field and prefixed(problem):
        return f"{problem.field}: {reason(problem)}"
    return reason(problem)


def plain(problem: Any, word: Callable[[str], str], in_place: bool = False) -> str:
    """The form's words. ``word`` names a hand field as the form does ("dealer's
    bid"); ``in_place``: shown beside its own field, so the field is not named."""
    head = None
    if problem.seat is not None and problem.who:
        head = problem.who[:1].upper() + problem.who[1:]
    elif problem.field and prefixed(problem) and not in_place:
        head = word(problem.field)[:1].upper() + word(problem.field)[1:]
    text = _plain_reason(problem, word)
    return f"{head}: {text}" if head else text


def _plain_reason(problem: Any, word: Callable[[str], str]) -> str:
    code, a = problem.code, problem.params
    if problem.is_blank:
        if "why" in a:
            return f"still to fill in ({a['why']})"
        together = f" ({word(a['with'])} and {word(problem.field)} go together)" if "with" in a else ""
        return "still to fill in" + together
    if a.get("one_based") and code == "not_seat":
        value = a.get("value")
        got = value + 1 if isinstance(value, int) and not isinstance(value, bool) else a["got"]
        return f"must be a seat 1 to {a['last'] + 1}, got {got}"
    if a.get("one_based") and code == "not_list" and isinstance(a.get("value"), list):
        typed = [str(v + 1) if isinstance(v, int) and not isinstance(v, bool) else str(v) for v in a["value"]]
        return (f"needs {a['count']} winners, one per trick ({a['seats']} players play {a['count']} tricks); "
                f"you typed {len(typed)}: " + " ".join(typed))
    if code == "sum":
        return f"{word(problem.field)} add up to {a['total']}{a.get('extra', '')}, not {a['expected']}{a.get('why', '')}"
    if code == "rule":
        return a.get("plain", a["text"])
    return reason(problem)
