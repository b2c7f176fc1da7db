"""The scoring engine: validate a match and replay its hands from the start.

Pure Python: the web app, the exports and the CLI all call ``replay``; none of
them computes a score of its own.
"""
from __future__ import annotations

import dataclasses
import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .games import GAMES
from .games.base import (
    NO_OUTPUT,
    Event,
    Game,
    HandContext,
    HandOutput,
    NextDeal,
    Problem,
    Scored,
    Seating,
    Table,
    TrickTally,
    is_whole,
    ordinal,
    places,
    rule,
    show,
    stand_ins,
)
from .names import isolate_names, isolated, read_name, visible


class MatchError(Exception):
    """The input cannot be scored. ``problems`` are the contract's lines, each naming
    where ("hand 3: tricks add up to 10, not 11"). The same problems as data:
    ``header`` (players, settings, first dealer, date, note) and ``hand_problems``
    per hand number, so a form shows each beside its field without reading words."""

    def __init__(self, problems: list[str], hand_problems: dict[int, list[Problem]] | None = None,
                 header: list[Problem] | None = None, unchecked: int = 0):
        super().__init__("\n".join(problems))
        self.problems = problems
        self.hand_problems = hand_problems or {}
        self.header = header or []
        self.unchecked = unchecked  # hands not checked: checking stopped at ``max_problems``

    @classmethod
    def of(cls, header: list[Problem]) -> MatchError:
        return cls([p.message for p in header], header=header)


@dataclass
class Match:
    """A match as recorded: who plays, which variant, and the hands' raw inputs."""

    game: str
    players: list[str]
    settings: dict = field(default_factory=dict)
    first_dealer: int = 0
    hands: list[dict] = field(default_factory=list)
    date: str | None = None
    note: str | None = None


@dataclass
class HandResult:
    number: int
    dealer: int
    scores: list[int]
    totals: list[int]
    # The explanation's lines, made when first read (``explanation``, by ``explained``): a replay
    # scores every hand, a page shows the last few.
    explained: Callable[[], list[str]] = field(repr=False, compare=False)
    extra: HandOutput = NO_OUTPUT  # the game's own output fields (its typed record)
    # Why the game ended after this hand, or why it goes on although a target was
    # reached (also the explanation's last line); None when there is nothing to say.
    ending: str | None = None
    warnings: list[str] = field(default_factory=list)
    # Why the next hand's dealer deals it (None once the game is over); not in the
    # rescore output, which gives the seat only.
    next_why: str | None = None
    # The same as the rules' facts (None once the game is over): ``own`` None when the
    # deal passes on as usual.
    next_deal: NextDeal | None = None
    # What the hand did beyond its points, as the game names it (a bag penalty, a nil
    # made; ``Rules.hand_events`` worded by ``Shown.event_words``), worked out when first asked for: a replay scores every
    # hand, a page names few. Not in the rescore output, which has the explanation.
    events_of: Callable[[], list] | None = field(default=None, repr=False, compare=False)
    _events: list | None = field(default=None, init=False, repr=False, compare=False)
    # Where the game stood for this hand (before it was scored; its dealer the one who dealt
    # it), as its check and scoring were told: ``MatchResult.place`` adds the hands the count
    # leaves from there when first asked (a replay scores every hand, a page places few).
    place: HandContext | None = field(default=None, repr=False, compare=False)
    _placed: HandContext | None = field(default=None, init=False, repr=False, compare=False)

    _explanation: list[str] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def explanation(self) -> list[str]:
        if self._explanation is None:
            self._explanation = self.explained()
        return self._explanation

    @property
    def events(self) -> list:
        if self._events is None:
            self._events = self.events_of() if self.events_of else []
        return self._events

    def as_json(self) -> dict:
        out = {"number": self.number, "dealer": self.dealer, "scores": self.scores,
               "totals": self.totals, "explanation": self.explanation}
        out.update(self.extra.as_json())
        return out


@dataclass
class MatchResult:
    game: str
    players: list[str]
    settings: dict
    hands: list[HandResult]
    totals: list[int]
    finished: bool
    winners: list[int]
    next_dealer: int | None
    state: Any = None
    # Hands each seat has dealt: the end rule of a game that counts deals needs it.
    dealt: list[int] = field(default_factory=list)
    # Where the match stands now, for the hand about to be played (see ``next_place``).
    now: HandContext | None = field(default=None, repr=False, compare=False)
    # The game the replay scored it by (``check_match`` found it by the match's key, once).
    replayed_by: Game | None = field(default=None, repr=False, compare=False)

    @property
    def table(self) -> Table:
        return Table(tuple(self.players), self.settings)

    @property
    def played(self) -> Game:
        """The game itself, for whoever holds the result past the engine: the one the replay
        scored it by, never looked up again by its key."""
        if self.replayed_by is None:  # every result the engine replayed has it
            raise ValueError("this result was not replayed: no game")
        return self.replayed_by

    @property
    def lowest_wins(self) -> bool:
        """Whether the lowest total wins at this table (``Rules.lowest_wins`` of its settings),
        read from the settings record the replay made for its table (once per replay)."""
        return self.played.rules.lowest_wins(self.standing())

    def standing(self) -> HandContext:
        """Where the match stands now (``next_place``); for a result made by hand, not replayed,
        the empty place of its table: what the hooks fixed for a whole match (``Game.sides``,
        ``Rules.lowest_wins``) read there the same."""
        return self.now if self.now is not None else self.played.empty_place(self.table)

    def place(self, number: int) -> HandContext:
        """Where the match stood for recorded hand ``number`` (from 1), as it was scored; one
        past the last, where it stands now (``next_place``)."""
        if number == len(self.hands) + 1:
            return self.next_place()
        if not 1 <= number <= len(self.hands):
            raise IndexError(f"no hand {number} in a match of {len(self.hands)}")
        hand = self.hands[number - 1]
        if hand._placed is None:
            found = hand.place
            if found is None:  # every hand the engine replayed has one; only a hand-made result lacks it
                raise ValueError(f"hand {number} of this result was not replayed: no place")
            hand._placed = dataclasses.replace(found, hands_left=self.played.rules.hands_left(found))
        return hand._placed

    def next_place(self) -> HandContext:
        """Where the match stands for the hand about to be played (its dealer None and
        ``finished`` once the match is over)."""
        if self.now is None:  # every result the engine replayed has one
            raise ValueError("this result was not replayed: no place")
        return self.now

    def logged_place(self, number: int) -> HandContext:
        """The place of hand ``number`` as the match log names it: where that hand stands in
        the match now; a hand no longer in it (undone, with the hands after it) keeps only
        its number, its dealer unknown, the rest as the match stands now."""
        if 1 <= number <= len(self.hands) + 1:
            return self.place(number)
        return dataclasses.replace(self.next_place(), number=number, dealer=None, hands_left=None, finished=False)

    def as_json(self) -> dict:
        return {
            "game": self.game,
            "players": self.players,
            "settings": self.settings,
            "hands": [h.as_json() for h in self.hands],
            "totals": self.totals,
            "finished": self.finished,
            "winners": self.winners,
            "next_dealer": self.next_dealer,
        }


def resolve_settings(game: Game, raw: Any, seats: int | None = None,
                     players: list[str] | None = None) -> tuple[dict, list[Problem]]:
    """Every setting in force (defaults filled in) and the problems with ``raw``, for a
    table of ``seats`` players (None: not known yet, so only each setting on its own and
    the rules between settings that hold at any table are checked). The rules between
    settings are told the empty place of that table (``Rules.check_settings``): its players
    are ``players`` where they are the seats' names, stand-ins otherwise (``stand_ins``)."""
    settings = game.defaults()
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        return settings, [rule("settings", f"must be an object, got {show(raw)}")]
    known = {s.name: s for s in game.settings}
    problems: list[Problem] = []
    # Every key given is checked, one that means nothing under the others too (the flip
    # count when nobody flips): a file says what it says, and a value refused where the
    # setting applies is refused where it does not (match-format.md, `settings`).
    for name, value in raw.items():
        if name not in known:
            allowed = ", ".join(known)
            problems.append(rule("settings", f"unknown setting \"{name}\" for {game.title} "
                                             f"(allowed: {allowed})"))
            continue
        parsed, problem = known[name].parse(value)
        if problem:
            problems.append(problem)
        else:
            settings[name] = parsed
    if not problems and seats is not None:
        names = tuple(players) if players is not None and len(players) == seats else stand_ins(seats)
        place = game.empty_place(Table(names, settings))
        problems = game.shown.worded(game.rules.check_settings(place), place)
    return settings, problems


def check_players(game: Game, players: Any) -> tuple[list[str], list[Problem]]:
    """Names, NFC-normalised and trimmed, and the problems with them (compared as
    ``names.same_name`` says: ignoring case and invisible characters)."""
    if not isinstance(players, list):
        return [], [rule("players", "must be a list of names")]
    if game.min_players == game.max_players and len(players) != game.min_players:
        return [], [rule("players", f"{game.title} needs exactly {game.min_players} players, got {len(players)}")]
    if not game.min_players <= len(players) <= game.max_players:
        return [], [rule("players", f"{game.title} needs {game.min_players} to {game.max_players} players, "
                                    f"got {len(players)}")]
    names: list[str] = []
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for seat, name in enumerate(players):
        if not isinstance(name, str):
            problems.append(rule("players", f"must be a name in quotes, got {show(name)}", seat=seat))
            continue
        name, key, wrong = read_name(name)
        if wrong:
            problems.append(rule("players", wrong, seat=seat))
        elif key in seen:
            other = seen[key]
            as_other = "" if other == name else f" as {visible(other)}"
            problems.append(rule("players", f"{visible(name)} is already at the table{as_other} (names must differ, "
                                            "ignoring case and invisible characters)", seat=seat))
        seen.setdefault(key, name)
        names.append(name)
    return names, problems


def check_match(match: Match) -> tuple[Game, Table]:
    """The game and table of a match whose header (game, players, settings,
    first dealer) is valid; raises MatchError otherwise."""
    game = GAMES.get(match.game) if isinstance(match.game, str) else None
    if game is None:
        raise MatchError.of([Problem("game", "choice", {"options": ", ".join(GAMES), "got": show(match.game)})])
    players, problems = check_players(game, match.players)
    settings, setting_problems = resolve_settings(game, match.settings,
                                                    len(match.players) if isinstance(match.players, list) else None,
                                                    players)
    problems += setting_problems
    if players and not problems and (not is_whole(match.first_dealer)
                                     or not 0 <= match.first_dealer < len(players)):
        problems.append(Problem("first_dealer", "not_seat", {"last": len(players) - 1, "got": show(match.first_dealer)}))
    if problems:
        raise MatchError.of(problems)
    return game, Table(tuple(players), settings)


def hand_shape_problems(game: Game, hand: Any, table: Table) -> list[Problem]:
    """Problems with a hand's keys and its optional ``dealer``."""
    if not isinstance(hand, dict):
        fields = game.required_fields or game.hand_fields
        return [Problem(None, "not_object", {"fields": ", ".join(fields), "got": show(hand)})]
    problems = []
    allowed = _allowed_keys(game)
    if not allowed.issuperset(hand):
        for key in hand:
            if key not in allowed:
                problems.append(Problem(key, "unknown_field", {"key": key, "game": game.title,
                                                               "allowed": ", ".join(sorted(allowed))}))
    for key in game.required_fields:
        if key not in hand:
            problems.append(Problem(key, "missing"))
    if "dealer" in hand:
        dealer = hand["dealer"]
        if not is_whole(dealer) or not 0 <= dealer < table.seats:
            problems.append(Problem("dealer", "not_seat", {"last": table.seats - 1, "got": show(dealer)}))
    return problems


@functools.cache
def _allowed_keys(game: Game) -> frozenset[str]:
    """The keys a hand of ``game`` may have (made once per game: a replay asks for every hand)."""
    return frozenset(game.hand_fields) | {"dealer"}


def present(game: Game, hand: Any, place: HandContext) -> Any:
    """The hand with its null optional fields left out: null for a field that may be
    left out means the same as leaving it out (match-format.md). A null for a required
    field stays, to be refused naming where."""
    if not isinstance(hand, dict) or None not in hand.values():
        return hand
    optional = {"dealer", *game.optional_fields(place)}
    return {key: value for key, value in hand.items() if not (value is None and key in optional)}


def without_nulls(match: Match) -> Match:
    """The match with null optional fields left out of its hands (see ``present``), as
    it is stored; unchanged when its header cannot be read (``replay`` says why)."""
    try:
        game, table = check_match(match)
    except MatchError:
        return match
    if not isinstance(match.hands, list):
        return match
    start = game.empty_place(table)  # what may be left out is the same at every place of a match
    return _with_hands(match, [present(game, hand, start) for hand in match.hands])


def hand_problems(game: Game, hand: Any, ctx: HandContext) -> list[Problem]:
    """Every problem with one hand in the place ``ctx`` gives it; ``ctx.dealer`` is who
    the rotation says deals it (None when unknown), overridden by the hand's own ``dealer``."""
    hand = present(game, hand, ctx)
    problems = hand_shape_problems(game, hand, ctx.table)
    if problems:
        return problems
    ctx = ctx.dealing(hand.get("dealer", ctx.dealer))
    return game.shown.worded(game.rules.check_hand(hand, ctx), ctx)


def replay(match: Match, resume: MatchResult | None = None, max_problems: int | None = None) -> MatchResult:
    """Score every hand in order from the start (a pure fold). Raises MatchError
    listing every problem when any hand cannot be scored (with ``max_problems``, the
    hands after the one that brought that many are not checked: a file of 100,000
    bad hands costs the same as one of twenty).

    ``resume`` is the result of this same match's first k hands; the fold goes on
    from it, so adding a hand to a long match costs one hand, not the match."""
    game, table = check_match(match)
    if not isinstance(match.hands, list):
        raise MatchError(["hands: must be a list of hands"])
    if resume is not None and (resume.game != game.key or len(resume.hands) > len(match.hands)):
        raise ValueError("resume must be a result of the same match's first hands")
    totals = list(resume.totals) if resume else [0] * table.seats
    state = resume.state if resume else game.rules.start(table)
    dealer = resume.next_dealer if resume else match.first_dealer
    dealt = list(resume.dealt) if resume else [0] * table.seats
    results: list[HandResult] = list(resume.hands) if resume else []
    problems: list[str] = []
    by_hand: dict[int, list[Problem]] = {}
    winners: list[int] | None = (resume.winners if resume.finished else None) if resume else None
    start = len(results)
    _counted(len(match.hands) - start)
    rules, shown_by = game.rules, game.shown
    # the totals and deals as they stand, frozen once a hand: the end check's place and the next hand's share them
    standing, dealt_so_far = tuple(totals), tuple(dealt)
    for number, hand in enumerate(match.hands[start:], start=start + 1):
        place = HandContext(table, number, None if problems else dealer, standing, state, dealt_so_far)
        hand = present(game, hand, place)
        # as hand_problems, the hand in its own dealer's place (kept for scoring it below)
        found = hand_shape_problems(game, hand, table)
        if not found:
            place = place.dealing(hand.get("dealer", place.dealer))
            found = rules.check_hand(hand, place)
            if found:  # the game's facts in its words (most hands have none: nothing to do)
                found = shown_by.worded(found, place)
        if winners is not None and not problems:
            found.append(Problem(None, "after_end", {"last": number - 1}))
        if found:
            by_hand[number] = found
            problems += [f"hand {number}: {p.message}" for p in found]
            if max_problems is not None and len(problems) >= max_problems:
                raise MatchError(problems, by_hand, unchecked=len(match.hands) - number)
        if problems:
            continue  # keep checking later hands' fields, but score nothing more
        if dealer is None:  # only once the match ended, and a hand after the end is a problem (above)
            raise RuntimeError(f"hand {number}: no one deals it, yet no problem was found")
        in_turn, dealer = dealer, hand.get("dealer", dealer)  # place.dealer (above)
        dealt[dealer] += 1
        scored = rules.score_hand(hand, place)
        events = functools.partial(named_events, game, hand, place, scored)
        state = scored.state
        totals = [t + s for t, s in zip(totals, scored.scores)]
        # the end check is told where the match stands after the hand (no dealer yet)
        standing, dealt_so_far = tuple(totals), tuple(dealt)
        after = HandContext(table, number + 1, None, standing, state, dealt_so_far)
        ending = rules.ending(after)
        winners = ending.winners
        why = shown_by.ending_words(ending, after)
        deal = None if winners is not None else rules.next_deal(place, scored)
        next_why = None if deal is None else shown_by.next_deal_words(deal, place)
        explained = functools.partial(explanation, game, hand, place, scored, in_turn, why, deal, next_why)
        results.append(HandResult(number, dealer, scored.scores, totals, explained, scored.extra, why,
                                  [shown_by.warning_words(w, place) for w in scored.warnings], next_why, deal,
                                  events, place=place))
        if deal is not None:
            dealer = deal.seat
    if problems:
        raise MatchError(problems, by_hand)
    finished = winners is not None
    now = HandContext(table, len(results) + 1, None if finished else dealer, tuple(totals), state, tuple(dealt),
                      finished=finished)
    now = dataclasses.replace(now, hands_left=game.rules.hands_left(now))
    return MatchResult(
        game=game.key,
        players=list(table.players),
        settings=table.settings,
        hands=results,
        totals=totals,
        finished=winners is not None,
        winners=winners or [],
        next_dealer=None if winners is not None else dealer,
        state=state,
        dealt=dealt,
        now=now,
        replayed_by=game,
    )


def explanation(game: Game, hand: dict, ctx: HandContext, scored: Scored, in_turn: int, ending: str | None,
                deal: NextDeal | None, next_why: str | None) -> list[str]:
    """A hand's explanation: how it scored (the rules' facts, ``scored.why``, in the game's words),
    then what happens next (``what_happens_next``)."""
    return game.shown.explanation_words(hand, scored, ctx) + what_happens_next(game, ctx, in_turn, ending, deal,
                                                                                next_why)


def named_events(game: Game, hand: dict, ctx: HandContext, scored: Scored) -> list[Event]:
    """What the hand did beyond its points (the rules' facts), each with the game's words."""
    return [dataclasses.replace(event, text=game.shown.event_words(event, ctx))
            for event in game.rules.hand_events(hand, ctx, scored)]


def what_happens_next(game: Game, ctx: HandContext, in_turn: int, ending: str | None,
                      deal: NextDeal | None, next_why: str | None) -> list[str]:
    """The explanation's last lines: a deal out of turn and what it meant in the game,
    then the end of the game or who deals next, each with its reason (``next_why``: the
    game's words for ``deal``)."""
    names, dealer = ctx.players, ctx.dealt_by
    lines = []
    if dealer != in_turn:
        lines.append(f"{names[dealer]} dealt this hand out of turn (it was {names[in_turn]}'s deal): "
                     f"{game.shown.dealt_out_of_turn(ctx)}.")
    if deal is None:
        lines.append(f"Game over: {ending}.")
    else:
        why = f"{ending[:1].upper()}{ending[1:]}. " if ending else ""
        # after a deal out of turn "the deal passes left" would not say from whom
        reason = f"{next_why} from {names[dealer]}" if dealer != in_turn and deal.own is None else next_why
        lines.append(f"{why}{names[deal.seat]} deals next: {reason}.")
    return lines


@dataclass(frozen=True)
class DealerMark:
    """A later hand a correction would give another dealer: ``number`` was recorded
    with ``recorded`` dealing; in turn after the correction ``in_turn`` would deal."""

    number: int
    recorded: int
    in_turn: int


def keep_dealers(match: Match, number: int, hand: dict) -> tuple[list[dict], list[DealerMark]]:
    """The hands with hand ``number`` replaced by ``hand`` and every later hand that
    would then come round to someone else marked as dealt by the player it was recorded
    with (out of turn), so the later hands stay exactly as the table played them; and
    the marks made. Folds each hand once. Stops at the first hand that cannot be
    scored for another reason (the caller's replay will say why)."""
    hands, marks, _ = dealers_kept(match, number, hand)
    return hands, marks


def dealers_kept(match: Match, number: int, hand: dict, *, recorded: list[int] | None = None,
                 before: MatchResult | None = None) -> tuple[list[dict], list[DealerMark], MatchResult | None]:
    """``keep_dealers``, and the result of the match with those hands (None when it
    cannot be scored so). A caller that has them gives ``recorded``, the dealers of
    the stored match's hands, and ``before``, the result of its first ``number - 1``
    hands: then only the hands from ``number`` on are folded."""
    if recorded is None:
        recorded = [h.dealer for h in replay(match).hands]
    hands = [dict(h) for h in match.hands]
    hands[number - 1] = hand
    marks: list[DealerMark] = []
    try:
        result = replay(_with_hands(match, hands[:number]), resume=before)
    except MatchError:
        return hands, marks, None
    for index in range(number, len(hands)):
        if result.next_dealer is None:
            return hands, marks, None  # the game now ends earlier: no dealer can fix that
        later = hands[index]
        if isinstance(later, dict) and later.get("dealer") is None and result.next_dealer != recorded[index]:
            marks.append(DealerMark(index + 1, recorded[index], result.next_dealer))
            hands[index] = {**later, "dealer": recorded[index]}
        try:
            result = replay(_with_hands(match, hands[:index + 1]), resume=result)
        except MatchError:
            return hands, marks, None
    return hands, marks, result


def _with_hands(match: Match, hands: list[dict]) -> Match:
    return Match(game=match.game, players=match.players, settings=match.settings, first_dealer=match.first_dealer,
                 hands=hands, date=match.date, note=match.note)


@dataclass(frozen=True)
class ReplayCount:
    """The engine's work since the process started: ``replays`` run and ``hands`` folded
    (a resumed replay folds only the hands after the result it resumes from)."""

    replays: int
    hands: int

    def __sub__(self, earlier: ReplayCount) -> ReplayCount:
        return ReplayCount(self.replays - earlier.replays, self.hands - earlier.hands)


_replays = [0, 0]
_replays_lock = threading.Lock()  # waitress serves requests on several threads


def _counted(hands: int) -> None:
    with _replays_lock:
        _replays[0] += 1
        _replays[1] += hands


def replay_count() -> ReplayCount:
    """How much replaying this process has done, for tests and benches that measure what a
    request costs: take it before and after, and subtract (``after - before``)."""
    with _replays_lock:
        return ReplayCount(*_replays)


# --- what the match page shows at a place ------------------------------------------------
#
# The page of a match (its scoreboard, the table guide, a save's answer) shows what the game
# says about the match as it stands: built here at once, as one frozen record of plain
# fields (``Showing``), so the web reads attributes and calls no rule or word of a game.
# Every sentence in it has the players' names isolated (``names.isolate_names``): a
# right-to-left name never reorders it, wherever it is written. Only what the page shows is
# made: the hands from ``first`` on (their explanations and events are the costly part).


@dataclass(frozen=True)
class ShownHand:
    """One recorded hand as the scoreboard shows it: who dealt it, the game's short summary
    of its inputs ("bid 5 · wyrms high", "dealt out of turn"), the points and totals, its
    explanation and events (each a sentence), and the game's running count per seat in
    words (Spades' bags; None for a game without one)."""

    number: int
    dealer: int
    summary: str
    scores: list[int]
    totals: list[int]
    explanation: tuple[str, ...]
    events: tuple[str, ...]
    counter: tuple[str, ...] | None

    def __init__(self, number: int, dealer: int, summary: str, scores: list[int], totals: list[int],
                 explanation: tuple[str, ...], events: tuple[str, ...], counter: tuple[str, ...] | None):
        # made for each hand a page lists: set at once, as HandContext's (a frozen dataclass's
        # own __init__ sets each field by a call of object.__setattr__)
        self.__dict__.update(number=number, dealer=dealer, summary=summary, scores=scores, totals=totals,
                             explanation=explanation, events=events, counter=counter)


@dataclass(frozen=True)
class ShownStanding:
    """A player's line in the standings: their place (ties share one, a team is placed once)
    also in words ("1st"), whether someone outside their side has the same total
    (``tied``), their partners' names, whether they won, and their points in the last hand."""

    seat: int
    name: str
    total: int
    place: int
    place_text: str
    tied: bool
    partners: tuple[str, ...]
    winner: bool
    last: int | None


@dataclass(frozen=True)
class ShownNeed:
    """One player's lines of the needs panel, also joined as one sentence (``text``)."""

    seat: int
    lines: tuple[str, ...]
    text: str
    out: bool


@dataclass(frozen=True)
class ShownGuide:
    """The table guide of the hand about to be dealt: its number, its dealer, the game's
    sentences about the deal (``lines``), its seat picture's facts (``seating``, its notes
    in words) and its trick-by-trick tally (None where the game has none)."""

    number: int
    dealer: int
    lines: tuple[str, ...]
    seating: Seating
    tally: TrickTally | None


@dataclass(frozen=True)
class Showing:
    """What the match page shows of a match at the place it stands (``showing``): each a plain
    field, every word the game's (or the engine's), the names in each sentence isolated."""

    title: str  # the game as the table knows it (``Game.display_name``)
    players: tuple[str, ...]
    isolated: tuple[str, ...]  # each name as plain text writes it (``names.isolated``)
    hands: tuple[ShownHand, ...]  # the hands from ``first`` on
    first: int
    played: int  # hands recorded
    running: tuple[list[int], ...]  # the totals after each hand, from the first
    standings: tuple[ShownStanding, ...]  # by place, then seat
    lowest_wins: bool
    finished: bool
    winners: tuple[int, ...]
    team_won: bool  # the winners are one side of a game in fixed partnerships
    ending: str | None  # why the game ended (or goes on) after the last hand
    counter: tuple[str, ...] | None  # the last hand's running count per seat, in words
    progress: tuple[str, ...]  # the progress line's parts
    progress_text: str  # ... joined
    percent: int | None
    hands_left: int | None
    next_dealer: int | None
    next_why: str | None  # why the next dealer deals, where it is more than the deal passing on
    needs_table: tuple[str, ...] | None  # the needs panel (None once the match is over)
    needs: tuple[ShownNeed, ...]
    guide: ShownGuide | None  # the table guide (None once the match is over)


def game_title(game: Game, settings: dict | None = None, kind: bool = False) -> str:
    """The game's name as the table knows it (``Game.display_name``: a score pad's
    "Hearts"), with ``settings`` the match's; ``kind``: "Hearts (score pad)"."""
    # the place of a match of these settings: the name is the settings', whoever plays
    named = game.display_name(None if settings is None else game.unplayed_place(settings), kind)
    return named or game.title or game.key.replace("_", " ").title()


def hand_summary(game: Game, hand: dict, ctx: HandContext, extra: HandOutput = NO_OUTPUT) -> str:
    """The key inputs of a hand, short: "bid 5 · wyrms high · wheel" (``ctx``: where it was
    played; ``extra``: what the engine made of it, where it was scored). A recorded hand names
    its dealer only when someone dealt out of turn (the match file's rule): said last."""
    parts = game.shown.hand_summary(hand, ctx, extra)
    if dealt_out_of_turn(hand):
        parts.append("dealt out of turn")
    return " · ".join(p for p in parts if p)


def dealt_out_of_turn(hand: dict) -> bool:
    """A recorded hand names its dealer only when someone dealt out of turn (the match file's rule)."""
    return isinstance(hand.get("dealer"), int)


def seat_counts(game: Game, hand: HandResult) -> list[int] | None:
    """The game's extra running count per seat after ``hand`` (Spades' bags), as its output
    record declares it (``HandOutput.seat_counts``); None for a game without one. Its shape
    is checked here, so a game whose scoring gives something else fails at its own door, not
    in a page."""
    if not game.shown.seat_counter:
        return None
    counts = hand.extra.seat_counts()
    if not isinstance(counts, list) or len(counts) != len(hand.totals) \
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in counts):
        raise TypeError(f"{game.key}: hand {hand.number}'s {game.shown.seat_counter} are not a whole number per "
                        f"seat: {counts!r}")
    return counts


def seat_counter(game: Game, hand: HandResult) -> tuple[str, ...] | None:
    """The game's extra running count per seat after ``hand`` (Spades' bags), in words."""
    counts = seat_counts(game, hand)
    return None if counts is None else tuple(game.shown.counter_text(value) for value in counts)


def event_text(event: Event) -> str:
    """An event as the page says it: the game's words, then its points ("+100", "0")."""
    if event.points is None:
        return event.text
    return f"{event.text} {f'+{event.points}' if event.points > 0 else str(event.points)}"


def shown_hands(result: MatchResult, hands: list[dict], first: int, last: int | None = None) -> tuple[ShownHand, ...]:
    """Recorded hands ``first`` to ``last`` (numbered from 1; the last one by default) as the
    scoreboard shows them (``hands``: the match's, as recorded)."""
    game, players = result.played, result.players
    last = len(result.hands) if last is None else last
    rows = []
    for scored, hand in zip(result.hands[first - 1:last], hands[first - 1:last]):
        summary = hand_summary(game, hand, result.place(scored.number), scored.extra)
        rows.append(ShownHand(scored.number, scored.dealer, isolate_names(summary, players), scored.scores,
                              scored.totals, tuple([isolate_names(line, players) for line in scored.explanation]),
                              tuple([isolate_names(event_text(event), players) for event in scored.events]),
                              seat_counter(game, scored)))
    return tuple(rows)


def standings(result: MatchResult, winners: list[int] | None = None,
              last: list[int] | None = None) -> tuple[ShownStanding, ...]:
    """The players by total, highest first (lowest first where the lowest total wins, see
    ``Rules.lowest_wins``); ties share a place (1st, 1st, 3rd). ``last``: each seat's points in
    the last hand. In a game of sides (``Game.sides``) partners on their team's total are not
    tied, and a team is placed once (the second team is 2nd)."""
    players, totals = result.players, result.totals
    sides = result.played.sides(result.standing())
    side_of = {seat: side for side in sides or () for seat in side}
    rows = []
    for seat, (name, total, place) in enumerate(zip(players, totals, places(totals, result.lowest_wins, sides))):
        own = side_of.get(seat, (seat,))
        rows.append(ShownStanding(
            seat=seat, name=name, total=total, place=place, place_text=ordinal(place),
            tied=any(t == total for s, t in enumerate(totals) if s not in own),
            partners=tuple(players[s] for s in own if s != seat), winner=seat in (winners or []),
            last=None if last is None else last[seat]))
    return tuple(sorted(rows, key=lambda r: (r.place, r.seat)))


def team_won(result: MatchResult) -> bool:
    """Whether the winners are one side of a game played in fixed partnerships: they win
    together ("Bob and Dee win"), where players tied at the top share the win."""
    sides = result.played.sides(result.standing())
    return bool(result.winners) and any(sorted(side) == sorted(result.winners) for side in sides or ())


def next_why(result: MatchResult, hands: list[dict]) -> str | None:
    """Why the next dealer deals, where it is more than the deal passing on: the game's
    own reason (Third Hand's higher hand score, a tie), or a deal out of turn."""
    if not result.hands or result.next_dealer is None:
        return None
    last = result.hands[-1]
    if last.next_deal is not None and last.next_deal.own is not None:
        return last.next_why
    if isinstance(hands[-1], dict) and "dealer" in hands[-1]:
        return (f"the deal goes on from {result.players[last.dealer]}, who dealt hand {last.number} "
                "out of turn")
    return None


def guide_at(result: MatchResult, dealer: int | None = None) -> ShownGuide | None:
    """The table guide of the hand about to be dealt, by ``dealer`` (who its form says dealt
    it; by default, or when not a seat, whoever deals in turn); None once the match is over."""
    if result.next_dealer is None:
        return None
    if dealer is None or not 0 <= dealer < len(result.players):
        dealer = result.next_dealer
    game, now = result.played, result.next_place()
    dealt = now.dealing(dealer)
    return ShownGuide(number=len(result.hands) + 1, dealer=dealer,
                      lines=tuple(isolate_names(line, result.players) for line in game.shown.table_guide(dealt)),
                      seating=game.shown.seating(dealt), tally=game.shown.trick_tally(now))


def showing(result: MatchResult, hands: list[dict], first: int = 1, dealer: int | None = None) -> Showing:
    """What the match page shows of the match ``result`` replayed (``hands``: its hands as
    recorded), its hands from ``first`` on, the table guide for ``dealer`` (``guide_at``)."""
    game, players = result.played, result.players
    last = result.hands[-1] if result.hands else None
    progress = game.progress(result.next_place())
    needs = None if result.finished else game.needs(result.next_place())
    why = next_why(result, hands)
    return Showing(
        title=game_title(game, result.settings),
        players=tuple(players),
        isolated=tuple(isolated(name) for name in players),
        hands=shown_hands(result, hands, first),
        first=first,
        played=len(result.hands),
        running=tuple(hand.totals for hand in result.hands),
        standings=standings(result, result.winners if result.finished else None,
                            None if last is None else last.scores),
        lowest_wins=result.lowest_wins,
        finished=result.finished,
        winners=tuple(result.winners),
        team_won=team_won(result),
        ending=None if last is None else last.ending,
        counter=None if last is None else seat_counter(game, last),
        progress=tuple(progress.lines),
        progress_text=isolate_names(" · ".join(progress.lines), players),
        percent=progress.percent,
        hands_left=progress.hands_left,
        next_dealer=result.next_dealer,
        next_why=None if why is None else isolate_names(why, players),
        needs_table=None if needs is None else tuple(isolate_names(line, players) for line in needs.table),
        needs=() if needs is None else tuple(
            ShownNeed(seat=n.seat, lines=tuple(n.lines), text=isolate_names("; ".join(n.lines), players), out=n.out)
            for n in needs.seats),
        guide=guide_at(result, dealer),
    )


@dataclass(frozen=True)
class ShownPreview:
    """What the preview of a hand as typed shows (``previewed``): each seat's points and the
    totals if it were saved, the game's summary of it (names isolated), its warnings, and
    whether it ends the game, who wins and whether they win as one side."""

    players: tuple[str, ...]
    scores: list[int]
    totals: list[int]
    summary: str
    warnings: list[str]
    finished: bool
    winners: tuple[int, ...]
    team_won: bool


def previewed(result: MatchResult, hand: dict, number: int) -> ShownPreview:
    """The preview of hand ``number`` (``hand`` as typed; ``result``: the match with it)."""
    scored, players = result.hands[number - 1], result.players
    return ShownPreview(
        players=tuple(players), scores=scored.scores, totals=result.totals,
        summary=isolate_names(hand_summary(result.played, hand, result.place(number), scored.extra), players),
        warnings=scored.warnings, finished=result.finished, winners=tuple(result.winners), team_won=team_won(result))
