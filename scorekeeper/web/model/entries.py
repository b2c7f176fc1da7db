"""A hand entry as a service, the same for a preview and a save: the form for hand N drawn
where the match stands, what was typed read and checked by the engine (``check``: what the
preview shows), and the save of a new hand or a correction through ``writes``. The views read
the request, call one of ``preview``, ``save_new`` or ``save_correction``, and answer; what a
page draws beside the hand as it is typed (the referee's address, the seat picture) is the page
model's (``page.typed_hand``)."""
from __future__ import annotations

from dataclasses import dataclass, field

from werkzeug.datastructures import MultiDict

from ...engine import MatchError, MatchResult
from ..edges import access
from ..edges.db import get_db
from ..forms import hand_forms
from . import page, view, writes


@dataclass
class Check:
    """What the engine and the form say of a hand as typed (the preview shows it; a
    save writes ``hand`` only when ``preview`` is set): the hand, its blanks (and in
    words, ``still``), problems by field (``errors``) and above the form (``general``),
    the card counter's points, the preview and the result behind it, and the later
    dealers a correction changes. What the page draws beside it as it is typed (the referee's
    address, the seat picture) is the page model's (``page.typed_hand``), not the check's."""

    hand: dict
    missing: list[hand_forms.Blank]
    still: str
    errors: dict[str, list[str]]
    groups: list[hand_forms.Kind]
    number: int
    counted: list[dict] = field(default_factory=list)
    counted_into: str = ""
    general: list[str] = field(default_factory=list)
    preview: dict | None = None
    result: MatchResult | None = None
    later_only: bool = False  # refused only for hands after this one (their dealer changed)
    dealers: dict | None = None

    @property
    def ready(self) -> bool:
        """Nothing found: the hand may be written."""
        return self.preview is not None


def check(info: page.Info, entry: hand_forms.HandEntry, number: int, final: bool = False) -> Check:
    """Run the engine on the match with the form's hand as hand ``number``
    (a new last hand, or a replacement). Returns what the preview shows."""
    # checked by the form first: its errors, its blanks in words (read once, when posted)
    reading = entry.reading if entry.reading is not None else hand_forms.read(entry)
    hand, missing = reading.hand, reading.missing
    counter = entry.counter
    found = Check(hand, missing, reading.still, reading.errors, entry.groups, number)
    if counter is not None:
        found.counted = [{"name": entry.players[seat], "points": points, "field": f"{counter.into}_{seat}"}
                         for seat, points in sorted(reading.counted.items())]
        found.counted_into = entry.word(counter.into)
    if final and missing:  # on save, every blank at once
        found.general.append(f"Still to fill in: {found.still}.")
    if found.errors:
        return said_beside(entry, found, final)
    try:
        result = page.replay_of(info).with_hand(number, hand)
    except MatchError as error:
        if missing and not final:
            return found  # still typing: only say what is still to fill in
        place_refusal(entry, error, found)
        return said_beside(entry, found, final)
    found.result = result
    # what the preview shows, as the page writes it (a save writes the hand and never draws it)
    found.preview = {"checked": True} if final else view.preview_shown(info.played, hand, result, number)
    return found


def said_beside(entry: hand_forms.HandEntry, found: Check, final: bool) -> Check:
    """A save refused with blanks: each group's blanks also said under its own boxes, first
    (the summary above the form may be a screen away from them on a phone). Added once the
    engine has checked the hand: its problems are found whatever is blank."""
    if final and found.missing:
        for name, line in hand_forms.blank_messages(entry, found.missing).items():
            found.errors.setdefault(name, []).insert(0, line)
    return found


def place_refusal(entry: hand_forms.HandEntry, error: MatchError, found: Check) -> None:
    """The engine's problems with the hand beside their fields, the others above the form."""
    number = found.number
    known = {g.name for g in entry.groups}
    found.later_only = not error.header and bool(error.hand_problems) and number not in error.hand_problems
    for problem in error.hand_problems.get(number, []):
        if found.missing and problem.is_blank:
            continue  # said once, with every other blank, in "Still to fill in"
        if problem.field is not None and problem.field in known:
            found.errors.setdefault(problem.field, []).append(hand_forms.plain(entry, problem, in_place=True))
            hand_forms.mark_problem(entry, problem)
        else:
            found.general.append(hand_forms.plain(entry, problem))
    found.general += other_problems(entry, error, number)


def other_problems(entry: hand_forms.HandEntry, error: MatchError, number: int | None = None) -> list[str]:
    """The engine's problems that are not about hand ``number``, in the form's words."""
    lines = [hand_forms.plain(entry, p) for p in error.header]
    for other, problems in sorted(error.hand_problems.items()):
        if other != number:
            lines += [f"hand {other}: {hand_forms.plain(entry, p)}" for p in problems]
    return lines or ([] if error.hand_problems else list(error.problems))


def form_for(info: page.Info, number: int, formdata: MultiDict | None = None,
               hand: dict | None = None) -> hand_forms.HandEntry:
    """The form for hand ``number`` (dealt as the replay places it, or by the dealer the posted
    form names)."""
    return hand_forms.make_form(info.played, page.replay_of(info).place_of(number),
                                formdata=formdata, hand=hand, version=info.version, number=number)


def posted_form(info: page.Info, number: int, formdata: MultiDict) -> hand_forms.HandEntry:
    """``form_for`` as posted, read once: what ``check`` checks."""
    return hand_forms.read_posted(info.played, page.replay_of(info).place_of(number), formdata,
                                  version=info.version, number=number)


def dealer_changes(info: page.Info, number: int, found: Check) -> dict | None:
    """What a correction of hand ``number`` does to the later hands' dealers (a game
    whose deal follows the scores): the hands that would come round to someone else,
    whether the correction can be saved as it is, and whether it can be saved with
    those hands kept as recorded (marked as dealt out of turn). None when no later
    dealer changes or the hand itself still has problems."""
    if number >= len(info.match.hands) or found.errors or found.missing:
        return None
    if found.preview is None and not found.later_only:
        return None  # the hand's own problems come first
    return page.dealer_offer(info, number, found.hand, found.result)


@dataclass
class Preview:
    """What a preview shows: the check of the hand as typed, and for the next hand what the page
    draws beside it as it is typed (``page.typed_hand``: the referee's address and the seat
    picture, from the page model; None for a correction)."""

    check: Check
    typed: dict | None = None


def preview(info: page.Info, number: int, formdata: MultiDict) -> Preview:
    """What the engine says of hand ``number`` as typed (a new last hand, or a correction,
    with the later dealers it changes), and what the page draws beside the next hand. Nothing
    is written."""
    entry = posted_form(info, number, formdata)
    found = check(info, entry, number)
    if number <= len(info.match.hands):
        found.dealers = dealer_changes(info, number, found)
        return Preview(found)
    # the referee and the seat picture follow the hand as it is typed (its trump, who holds
    # the contract...): the page's, beside the preview; a save's answer never draws them
    assert entry.place is not None  # every form is made for a place
    return Preview(found, page.typed_hand(info, found.hand, entry.place))


@dataclass
class Saving:
    """A save as the view answers it: the form as posted, what the check found, and the
    write's outcome (``writes.Outcome``: saved, stale, refused or gone), already taken into
    the request (``page.wrote``: the match is read again after it)."""

    entry: hand_forms.HandEntry
    check: Check
    outcome: writes.Outcome
    request_key: str | None = None  # the form's own (``access.posted``): its draft on the phone is done with


def save_new(info: page.Info, formdata: MultiDict) -> Saving:
    """The next hand as posted, checked and written (only when nothing was found)."""
    number = len(info.match.hands) + 1
    posted = access.posted(formdata)
    entry = posted_form(info, number, formdata)
    found = check(info, entry, number, final=True)
    outcome = writes.record_hand(get_db(), page.replay_of(info), found.hand if found.ready else None,
                                 based_on=posted.version, request_key=posted.request_key)
    page.wrote(outcome)
    return Saving(entry, found, outcome, posted.request_key)


def save_correction(info: page.Info, number: int, formdata: MultiDict, keep_dealers: bool) -> Saving:
    """Hand ``number`` corrected as posted, checked and written; with ``keep_dealers``, the later
    hands a new dealer would move are kept as recorded (marked dealt out of turn)."""
    posted = access.posted(formdata)
    entry = posted_form(info, number, formdata)
    found = check(info, entry, number, final=True)
    entry.dealers = dealer_changes(info, number, found)
    if keep_dealers and entry.dealers and entry.dealers["keep_ok"] and found.preview is None:
        found.preview, found.general = {"keep": True}, []  # refused only for the later dealers: kept
    outcome = writes.correct_hand(get_db(), page.replay_of(info), number, found.hand if found.ready else None,
                                  based_on=posted.version, request_key=posted.request_key, keep_dealers=keep_dealers)
    page.wrote(outcome)
    return Saving(entry, found, outcome, posted.request_key)
