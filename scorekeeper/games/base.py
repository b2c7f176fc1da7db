"""What a game provides, and the small checks the games share.

A ``Game`` is its metadata (key, title, players, settings, the fields a hand records)
and four parts a maintainer reads alone: ``Rules`` (checks, scoring, who deals, when it
ends, what each player needs), ``Shown`` (hand form, summary, table guide, seat picture,
score sheet, rules page, progress line), ``Referee`` (deck and the judge of a trick; None
for a game without one) and ``Stats`` (per-player figures). Every hook is told where the
match stands by one frozen ``HandContext`` (or a record carrying it: ``NeedsFacts``,
``ProgressFacts``, the referee's ``Trick``), which only the engine builds: while replaying,
or where no match exists, as the place of a match before its first hand (``Game.empty_place``). The rules give the needs panel, the progress line, the target's ending, a hand's
explanation and what is wrong with a hand or the settings as facts (``NeedsFacts``,
``ProgressFacts``, ``TargetEnd``, ``Scored.why``, ``Problem.fact``); the game's ``Shown`` says
them. A hook reads its place's settings as the game's typed record (``GameSettings``).

Each game is one module holding its parts as classes, in that order: a package per game
would split the small vocabulary its parts share (rank orders, card counts) into a file
of its own without making any part shorter to read, and one file keeps a new game to
"its module, a registry line, its rules page". The engine (``scorekeeper.engine``)
replays a match through the rules; a game never sees the web, the database or the
match file.
"""
from __future__ import annotations

import copy
import dataclasses
import functools
import json
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypeVar, cast, get_args, get_origin

from ..names import isolate_names
from . import words
from .trick_referee import Face, Setup


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input, as data: the ``field`` it is about (a hand
    field, a setting as "settings.<name>", or a match key such as "players"), the
    ``seat`` (for Third Rail's winners, the trick) and ``who`` sits there, a ``code``
    saying what is wrong and the ``params`` its words need. ``games.words`` is the
    one place that turns it into words; nobody reads the words back.

    A game's rules give their own problems as facts (``fact``: a rule of the game broken,
    code "rule", made by ``broken``; or what a shared code's words say in the game's terms,
    such as what a list must hold): the game's ``Shown.problem_words`` says the fact, and
    the engine puts those words in ``params`` (``Shown.worded``) before anyone reads them."""

    field: str | None
    code: str
    params: dict = dataclasses.field(default_factory=dict)
    seat: int | None = None
    who: str | None = None
    fact: Any = None

    @property
    def message(self) -> str:
        """The match-format contract's line, without the "hand N: " before it."""
        return words.line(self)

    @property
    def is_blank(self) -> bool:
        """Only says that a field (or a seat's value) was left empty."""
        return self.code == "missing" or (self.code == "not_whole" and self.params.get("value", 0) is None)


def said(text: str, *, prefix: bool = True, plain: str | None = None) -> dict[str, Any]:
    """The words of a broken rule (code "rule"), as ``games.words`` reads them: ``text`` after
    the field's name (none before it without ``prefix``) and ``plain``, the form's words where
    they differ (a checkbox is "ticked", not "true")."""
    params: dict[str, Any] = {"text": text, "prefix": prefix}
    if plain is not None:
        params["plain"] = plain
    return params


def rule(field: str | None, text: str, *, prefix: bool = True, plain: str | None = None,
         seat: int | None = None, who: str | None = None) -> Problem:
    """A rule of the match file or of a setting's kind broken, in words (``said``): for the
    engine and the shared checks; a game's rules give a fact instead (``broken``)."""
    return Problem(field, "rule", said(text, prefix=prefix, plain=plain), seat, who)


def broken(field: str | None, fact: Any, *, seat: int | None = None, who: str | None = None) -> Problem:
    """A rule of the game broken, as the game's ``fact`` (no words: its ``Shown.problem_words``
    says it, and the engine puts the words in before the problem is read)."""
    return Problem(field, "rule", {}, seat, who, fact)


@dataclass(frozen=True)
class Setting:
    """A variant the players choose. ``kind`` is one of:
    ``int`` (whole number, optional ``minimum``/``maximum``), ``choice`` (one of
    ``choices``), ``bool``, ``int_or_null`` (a whole number or null),
    ``table`` (a dict of ``choices`` keys to whole numbers >= ``minimum``) and
    ``text`` (a line of text, trimmed, at most ``maximum`` characters)."""

    name: str
    default: Any
    label: str
    help: str
    kind: str = "int"
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple = ()
    # How each choice reads on the setup form and wherever the value is shown:
    # (value, label) pairs; a choice not listed reads as its value. A number may have
    # them too, for a value that means something other than itself ((0, "none")).
    labels: tuple[tuple[Any, str], ...] = ()
    # (another setting's name, the value it must have): this setting is offered and
    # checked only then (the flip count only when the dummy is flipped). When it does
    # not apply, a value that would be refused falls back to the default unsaid.
    applies_when: tuple[str, Any] | None = None
    # A caution the setup form shows beside the setting (where its default comes from).
    note: str = ""

    def applies(self, settings: GameSettings) -> bool:
        """Whether this setting means anything with these (other) settings, the game's record."""
        if self.applies_when is None:
            return True
        name, value = self.applies_when
        return bool(getattr(settings, name) == value)

    def choice_label(self, value: Any) -> str:
        return dict(self.labels).get(value, str(value))

    def text(self, value: Any) -> str:
        """The value as a person reads it (the settings list, the match log): on/off,
        "9 60, 10 65, …" (a break only between pairs), "off" for none, a choice's label
        (or a number's, where ``labels`` names one: "none" for a target of 0)."""
        if self.kind == "bool":
            return "on" if value else "off"
        if self.kind == "table" and isinstance(value, dict):
            return ", ".join(f"{k}\u00a0{v}" for k, v in value.items())
        if value is None:
            return "off"
        if self.kind == "choice" or self.labels:
            return self.choice_label(value)
        return str(value)

    def parse(self, value: Any) -> tuple[Any, Problem | None]:
        """Return (value, None) when valid, else (None, the problem with it)."""
        where = f"settings.{self.name}"
        if self.kind == "bool":
            return (value, None) if isinstance(value, bool) else (None, bool_problem(where, value))
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value, None
            return None, choice_problem(where, value, self.choices)
        if self.kind == "int_or_null" and value is None:
            return None, None
        if self.kind in ("int", "int_or_null"):
            problem = range_check(where, value, self.minimum, self.maximum)
            return (value, None) if problem is None else (None, problem)
        if self.kind == "table":
            return self._parse_table(value, where)
        if self.kind == "text":
            return self._parse_text(value, where)
        raise ValueError(f"unknown setting kind {self.kind}")

    def _parse_text(self, value: Any, where: str) -> tuple[Any, Problem | None]:
        if not isinstance(value, str):
            return None, rule(where, f"must be text, got {show(value)}")
        text = value.strip()
        if self.maximum is not None and len(text) > self.maximum:
            return None, rule(where, f"must be at most {self.maximum} characters, got {len(text)}")
        if not all(unicodedata.category(ch) not in ("Cc", "Cs") for ch in text):
            return None, rule(where, "must be one line of printable text")
        return text, None

    def _parse_table(self, value: Any, where: str) -> tuple[Any, Problem | None]:
        keys = ", ".join(self.choices)
        if not isinstance(value, dict):
            return None, rule(where, f"must be an object with keys {keys}")
        missing = [k for k in self.choices if k not in value]
        extra = [k for k in value if k not in self.choices]
        if missing:
            return None, rule(where, f"missing {', '.join(missing)} (all of {keys} are needed)")
        if extra:
            return None, rule(where, f"unknown key {', '.join(map(str, extra))}")
        for key in self.choices:
            problem = range_check(f"{where}.{key}", value[key], self.minimum, self.maximum)
            if problem:
                return None, problem
        return {k: value[k] for k in self.choices}, None


@dataclass(frozen=True)
class FieldGroup:
    """One hand field as a form shows it, described without any web code: the web
    layer turns it into inputs. ``name`` is the engine's hand field; ``kind`` is one of
    ``seat_int`` (a count per seat), ``int``, ``radio`` (one of ``choices``), ``seat`` (one of the
    players of ``seats``, by name, recorded as their seat number), ``bool``,
    ``seat_rank`` (one of ``choices`` per seat, "pass" meaning null), ``seat_ticks`` (ticks
    per seat from ``seat_choices``), ``winners`` (seat numbers typed in a line) and
    ``counts`` (the game's card counter, see ``Shown.card_counter``)."""

    name: str
    legend: str
    kind: str
    seats: tuple[int, ...] = ()  # in display order
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)
    seat_choices: tuple[tuple[tuple[str, str], ...], ...] = ()  # one tuple of choices per entry of ``seats``
    optional: bool = False
    hint: str = ""
    in_details: bool = False
    stepper: bool = True  # +/- buttons help with small counts, not with card points
    label: str = ""  # the input's own label when it differs from the legend
    placeholder: str = ""
    # Beside the first seat of a per-seat group, in the game's words: what that seat does
    # first ("bids first"); empty for none.
    first_note: str = ""
    # Groups this one replaces when it is filled in (another way to enter the same
    # thing): left blank, they are not asked for; filled in too, the engine refuses both.
    alternative_to: tuple[str, ...] = ()
    # The numbers of this group (and of the groups in ``adds_up_with``) always add up to
    # this: once all but one are typed, the form fills in the last (the scorer may change it).
    adds_up_to: int | None = None
    adds_up_with: tuple[str, ...] = ()
    # The least a number of a ``seat_int`` group may be (None: no least, below zero typed too).
    minimum: int | None = 0
    # A ``seat_int`` group where most players often score this (0 in Hearts): the form offers
    # one tap that gives it to every player left blank, who then see it typed in (never assumed).
    fill_blank: int | None = None


@dataclass(frozen=True)
class CountKind:
    """One kind of thing a counter counts per player, in the game's words: ``name``
    keys it in the counts the game reads, ``label`` heads its input, ``word`` names it
    in a message ("Ann's pictures: ..."; the label when empty), and a count outside
    ``least``..``most`` is refused before the game's own check sees it."""

    name: str
    label: str
    most: int
    least: int = 0
    word: str = ""

    @property
    def said(self) -> str:
        return self.word or self.label


@dataclass(frozen=True)
class CardCounter:
    """Things a player may count instead of typing their points (the ``counts`` group
    of the hand form): any number of ``kinds``; ``points`` makes one player's counts
    (by kind name) into the value of the seat-count hand field ``into``. ``problems``
    says what is impossible about the counts by seat (None: not counted), given the
    players' names; each kind's limits are checked before it is asked."""

    into: str
    kinds: tuple[CountKind, ...]
    points: Callable[[dict[str, int]], int]
    problems: Callable[[dict[int, dict[str, int] | None], tuple[str, ...]], list[str]]
    # Its words when a typed number and the counts disagree (Third Hand's: "Card points and
    # counted cards disagree (Ann: 70 typed, but the counted cards make 60). Clear the points
    # or the counts, or make them match."): the typed value heading the sentence, what was
    # counted, and the typed value as cleared.
    heading: str = "Points"
    counted: str = "counted things"
    typed: str = "points"


@dataclass(frozen=True)
class TallyColumn:
    """One running column per player under a trick tally, as the game names it
    ("Points", "Other tricks"). The column ``settles`` (at most one does) becomes the
    hand's score once every trick is in; where the score differs from its running
    count, the difference is named with that word: "5 (3 + 2 bonus)"."""

    label: str
    settles: str | None = None


@dataclass(frozen=True)
class TrickMark:
    """A mark some tricks carry, in the game's words (Third Rail's scoring tricks):
    the next trick is announced "Trick 3 of 16, {announce}", and a marked trick in the
    list of tricks so far carries ``sign``, read aloud as ``name``."""

    marked: Callable[[int], bool]  # trick number (from 1) -> carries the mark
    announce: str
    sign: str
    name: str


@dataclass(frozen=True)
class TallyChoice:
    """One optional pick the hand records beside its tricks (Third Rail: the trump turned
    up). ``name`` is its form field (and its name in the tally's address); ``blank`` is the
    label of picking nothing; each option is (value, sign, ink), the sign drawn before the
    value in its ink (``cards.faces`` gives a suit's), both may be empty."""

    name: str
    legend: str
    blank: str
    options: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True)
class TrickTally:
    """A hand recorded trick by trick, the winner of each tapped in turn. The game
    names and computes the running ``columns`` (``count``: the winners so far -> one
    list per column, a number per seat), may mark some tricks (``mark``), offer one
    pick beside the tricks (``choice``) and put ``notes`` under the counts. It says how
    taps become a hand (``to_hand``), which recorded hands were taken trick by trick
    (``from_hand``: their winners and pick, else None) so a correction opens them the
    same way, and how such a hand reads as per-player counts (``as_counts``) when the
    scorer chooses to correct it as counts instead."""

    tricks: int
    columns: tuple[TallyColumn, ...]
    count: Callable[[list[int]], list[list[int]]]
    to_hand: Callable[[list[int], str | None], dict]  # winners, pick -> the hand as recorded
    from_hand: Callable[[dict], tuple[list[int], str | None] | None]
    as_counts: Callable[[dict], dict]  # a hand recorded trick by trick -> the same hand as counts
    mark: TrickMark | None = None
    choice: TallyChoice | None = None
    notes: tuple[str, ...] = ()
    # What the game calls one of the things tapped, and more than one (the pages say "Trick 3
    # of 16", "Record trick by trick" in these words; the plural, when empty, adds an "s").
    unit: str = "trick"
    unit_plural: str = ""

    @property
    def units(self) -> str:
        return self.unit_plural or f"{self.unit}s"

    @property
    def a_unit(self) -> str:
        """ "a trick", "an end"."""
        return f"{'an' if self.unit[:1].lower() in 'aeiou' else 'a'} {self.unit}"

    def marked(self, number: int) -> bool:
        """Whether trick ``number`` (from 1) carries the game's mark."""
        return self.mark is not None and self.mark.marked(number)


@dataclass(frozen=True)
class SheetColumn:
    """One column of the printed score sheet. ``key`` names it in the game's cells;
    ``label`` is its short printed header and ``words`` says what it holds (the legend
    under the sheet). The keys ``points`` and ``total`` (see ``POINTS``, ``TOTAL``) are
    the engine's: the web layer fills them from the replay, never the game."""

    key: str
    label: str
    words: str = ""
    # "number" cells line up on the right; "text" cells on the left
    kind: str = "number"


POINTS = SheetColumn("points", "Pts", "points scored this hand")
TOTAL = SheetColumn("total", "Total", "running total after the hand")


@dataclass(frozen=True)
class SheetLayout:
    """The columns of a game's score sheet: ``hand`` columns say something about the
    whole hand (after its number), ``seat`` columns repeat in each player's group (in
    that order, ``POINTS`` and ``TOTAL`` among them); ``marks`` are the short marks a
    cell may carry and what they mean."""

    hand: tuple[SheetColumn, ...]
    seat: tuple[SheetColumn, ...]
    marks: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class SheetCell:
    """One cell of a score sheet: its text and a short mark after it (explained
    in the layout's ``marks``), either may be empty."""

    text: str = ""
    mark: str = ""


@dataclass
class SheetRow:
    """A recorded hand's cells on the score sheet, by column key: ``hand`` for the
    hand columns, ``seats`` one dict per seat (without ``points`` and ``total``)."""

    hand: dict[str, SheetCell] = field(default_factory=dict)
    seats: list[dict[str, SheetCell]] = field(default_factory=list)


@dataclass(frozen=True)
class GameSettings:
    """The settings in force at a table as the game's own typed record: each game declares
    a frozen dataclass of this kind (``Game.settings_type``) with one field per ``Setting``,
    named and typed as the setting, so its hooks read ``settings.target``, never a string
    key. The recorded mapping (``Table.settings``, the match file's ``settings``) stays as
    it is; the record is made from it once the engine has checked every value
    (``resolve_settings``), which is what makes its types true. The game's declaration
    gives the defaults of settings a mapping leaves out (``Game.__init_subclass__``)."""

    # the game's defaults, bound by its declaration: for a mapping that leaves a setting out
    _defaults: ClassVar[dict[str, Any]] = {}
    _names: ClassVar[tuple[str, ...]] = ()
    _slot: ClassVar[str] = "_settings_record"  # where a table keeps this record (``at``)

    @classmethod
    def of(cls, settings: Mapping[str, Any]) -> Self:
        """The record of checked ``settings`` (a setting left out: its default)."""
        made = object.__new__(cls)
        # as HandContext's: set directly, a frozen dataclass's __init__ goes through object.__setattr__
        made.__dict__.update({name: settings[name] if name in settings else cls._defaults[name]
                              for name in cls._names})
        return made

    @classmethod
    def at(cls, table: Table) -> Self:
        """The record of a table's settings, made once per table (a replay asks for it several
        times a hand: kept in the table under the record's own name, found in one lookup)."""
        try:
            made: Self = table.__dict__[cls._slot]
        except KeyError:
            made = table.__dict__[cls._slot] = cls.of(table.settings)
        return made

    @classmethod
    def declare(cls, settings: Sequence[Setting]) -> None:
        """Bind the record to the game's settings: one field per setting, no more, no fewer."""
        names = tuple(f.name for f in dataclasses.fields(cls))
        declared = tuple(s.name for s in settings)
        if names != declared:
            raise TypeError(f"{cls.__name__}: fields {', '.join(names) or 'none'} must be the game's settings, "
                            f"in order: {', '.join(declared) or 'none'}")
        cls._names, cls._defaults = names, {s.name: s.default for s in settings}
        cls._slot = f"_settings_record_{cls.__module__}.{cls.__qualname__}"


@dataclass(frozen=True)
class HandOutput:
    """What a game's scoring makes of a hand beyond its points, as the game's own typed record
    (``Game.output_type``; this base, with no fields, for a game that gives nothing more):
    each field is in the rescore output under its own name, in field order (``as_json``).
    Pages read it only through what the record declares (``seat_counts``), never by a name."""

    @classmethod
    def read(cls, extra: HandOutput) -> Self:
        """``extra`` as this game's record: what every scored hand of the game gives."""
        if not isinstance(extra, cls):
            raise TypeError(f"a scored hand's output is a {type(extra).__name__}, not the game's {cls.__name__}")
        return extra

    def as_json(self) -> dict[str, Any]:
        """The fields as the rescore output gives them (match-format.md: a game's own keys)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def seat_counts(self) -> list[int] | None:
        """The game's extra running count per seat after the hand (Spades' bags), shown beside
        the totals as ``Shown.seat_counter`` names it; None for a game without one."""
        return None


NO_OUTPUT = HandOutput()

# The settings record a game's ``Rules`` read (``Rules[SpadesSettings]``).
S = TypeVar("S", bound=GameSettings)


@dataclass
class Scored:
    """What one hand is worth. ``why`` is how the rules scored it, as the game's own facts
    (which rule applied, with its numbers; None where the scores say it all), which its
    ``Shown.explanation_words`` says: the hand's explanation. ``extra`` holds the game's own
    output fields as its typed record (``HandOutput``: bags, declarer, holder...), each under
    the name the rescore output gives it. ``state`` is the game's running state after this
    hand (bags, for example)."""

    scores: list[int]
    why: Any
    extra: HandOutput = NO_OUTPUT
    state: Any = None
    # Things a scorer may have meant otherwise (scored as recorded, never refused), as the
    # game's facts (Dummy Hand Spades' ``ZeroBid``), which its ``Shown.warning_words`` says.
    warnings: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class Table:
    """What stays fixed for a whole match."""

    players: tuple[str, ...]
    settings: dict

    # cached: a replay asks for it several times a hand, and the players never change
    @functools.cached_property
    def seats(self) -> int:
        return len(self.players)

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.seats


@dataclass(frozen=True)
class HandContext:
    """Where the match stands, as the engine replayed it: the one picture every game hook
    is told. ``number`` is the hand about to be played (or being checked, scored or shown),
    counting from 1, so ``hands_played`` is one less; ``dealer`` deals it (None when it
    cannot be known: an earlier hand is invalid, or the match is over); ``totals``,
    ``state`` (the game's own running state) and ``dealt`` (hands dealt per seat) are as
    they stood before it. What the engine knows of what comes: ``hands_left``, the hands
    the rules' count leaves from here, this one included, if the deal goes round in turn
    (None when nothing fixes it, or when not asked: the place an end check is told), and
    ``finished`` once the match is over.

    Only the engine builds one (``MatchResult.place``, ``MatchResult.next_place()``,
    ``Game.empty_place``); a game never assembles one except for itself."""

    table: Table
    number: int
    dealer: int | None
    totals: tuple[int, ...]
    state: Any
    dealt: tuple[int, ...]
    hands_left: int | None = None
    finished: bool = False

    def __init__(self, table: Table, number: int, dealer: int | None, totals: tuple[int, ...], state: Any,
                 dealt: tuple[int, ...], hands_left: int | None = None, finished: bool = False):
        # the fields, in order: dataclass's own __init__ of a frozen class sets each through
        # object.__setattr__, 2.5 times as slow, and a replay makes several of these a hand
        self.__dict__.update(table=table, number=number, dealer=dealer, totals=totals, state=state, dealt=dealt,
                             hands_left=hands_left, finished=finished)

    @property
    def players(self) -> tuple[str, ...]:
        return self.table.players

    @property
    def settings(self) -> dict:
        return self.table.settings

    @property
    def seats(self) -> int:
        return self.table.seats

    @property
    def hands_played(self) -> int:
        return self.number - 1

    @property
    def dealt_by(self) -> int:
        """The dealer, where a hook may only be called once it is known."""
        if self.dealer is None:
            raise ValueError(f"hand {self.number}: its dealer is not known")
        return self.dealer

    def dealing(self, dealer: int | None) -> HandContext:
        """The same place with another dealer (a hand dealt out of turn names its own)."""
        return self if dealer == self.dealer else dataclasses.replace(self, dealer=dealer)


@dataclass(frozen=True)
class Ending:
    """The end-of-game check after a hand: the winning seats (None: the game goes
    on) and, where there is something to say, why, as facts ``Shown.ending_words`` says:
    the shared target rule's (``by_target``) or the game's own (``own``)."""

    winners: list[int] | None
    by_target: TargetEnd | None = None
    # A game's own end facts (its end rule is not the shared target's), which its
    # ``Shown.ending_words`` says.
    own: Any = None

    def __init__(self, winners: list[int] | None, by_target: TargetEnd | None = None, own: Any = None):
        # as HandContext's: a replay makes one after every hand
        self.__dict__.update(winners=winners, by_target=by_target, own=own)


# The end check's answer after most hands: the game goes on, nothing to say (one shared record,
# not one made after every hand).
GOES_ON = Ending(None)


@dataclass(frozen=True)
class TargetEnd:
    """What the shared target rule found after a hand (``target_ending``): the ``target``, the
    ``top`` total and the seats on it (``at_top``), the ``best`` total (the lowest where the
    lowest wins) and the seats on it (``leaders``), and the ``outcome``: "short" (nobody has
    ended the game), "exactly" (a total sits on a target that must be passed: play goes on),
    "tied" (ended, but the best total is shared: another hand) or "won"."""

    target: Target
    top: int
    at_top: tuple[int, ...]
    best: int
    leaders: tuple[int, ...]
    outcome: str

    def __init__(self, target: Target, top: int, at_top: tuple[int, ...], best: int, leaders: tuple[int, ...],
                 outcome: str):
        # as HandContext's: the target rule finds one after every hand
        self.__dict__.update(target=target, top=top, at_top=at_top, best=best, leaders=leaders, outcome=outcome)


@dataclass(frozen=True)
class Need:
    """What one player needs, in plain sentences (the scoreboard's "What each player
    needs"); ``out`` when they cannot win under the assumption their line names (the
    deal going round in turn)."""

    seat: int
    lines: tuple[str, ...]
    out: bool = False


@dataclass(frozen=True)
class Needs:
    """The "What each player needs" panel: lines about the whole table, then one
    ``Need`` per seat (seat order)."""

    table: tuple[str, ...]
    seats: tuple[Need, ...]


@dataclass(frozen=True)
class SeatNeeds:
    """What the rules know of one player for the needs panel: their ``total``, the ``gap`` to
    the best placed (0: leading or level), the points ``to_end`` the game by the target (None
    without one; 0 or less: at or over it), whether they are ``out`` (cannot win under the
    panel's assumption) and the game's ``own`` facts (``Rules.seat_facts``)."""

    seat: int
    total: int
    gap: int
    to_end: int | None
    out: bool
    own: Any = None


@dataclass(frozen=True)
class NeedsFacts:
    """What each player needs, as facts (``Rules.needs``), for ``Shown.needs_words`` to say:
    where the match stands, its ``target`` (None: none), whether the lowest total wins and a
    tie at the top shares the win, the ``hands_left`` (None: no count), whether that count
    holds only if the deal goes round in turn (``left_if_in_turn``), the most and least one
    player can score in a hand, and one ``SeatNeeds`` per seat."""

    place: HandContext
    target: Target | None
    low_wins: bool
    tie_shares_win: bool
    hands_left: int | None
    left_if_in_turn: bool
    most: int | None
    least: int | None
    seats: tuple[SeatNeeds, ...]

    @property
    def swing(self) -> int | None:
        """The most one hand moves two players apart (None: no bound)."""
        return None if self.most is None or self.least is None else self.most - self.least


@dataclass(frozen=True)
class Figure:
    """One statistic a game keeps per player (the stats page). ``key`` names the fact
    the game's ``hand_facts`` reports; ``kind`` says how the facts make the figure:
    ``count`` (the hands counted), ``sum`` (their values added), ``mean`` (their values
    per counted hand) or ``per_hand`` (their values per hand the player played).
    ``of``: for a count, the figure it is a part of ("made" of "held"), shown as a share;
    ``trend``: that share is charted match by match ("bid accuracy over time")."""

    key: str
    label: str
    kind: str = "count"
    of: str | None = None
    # drawn match by match on the stats page (the game's bid accuracy: a share ``of`` another count)
    trend: bool = False


@dataclass(frozen=True)
class NextDeal:
    """Who deals the next hand, and why, as facts ``Shown.next_deal_words`` says: ``own``
    None when the deal passes left as usual, else the game's own reason (Third Hand's
    higher hand score)."""

    seat: int
    own: Any = None

    def __init__(self, seat: int, own: Any = None):
        # as HandContext's: a replay makes one for every hand
        self.__dict__.update(seat=seat, own=own)


@dataclass(frozen=True)
class Event:
    """Something in a scored hand worth naming where the hand is shown (its row, the
    save notice, the printed sheet), not only in its explanation: a bag penalty, a nil
    made or lost, a contract failed or doubled. ``what`` is the game's own fact (the rules'
    ``hand_events``); ``text`` its words, whose it is ("Ann's nil on the dummy made"), which
    the engine fills in from ``Shown.event_words``; ``points``, where it has its own, what it
    scored; ``on_sheet`` False where the game's score sheet columns already show it (a
    "failed" cell)."""

    what: Any
    seat: int | None = None
    points: int | None = None
    on_sheet: bool = True
    text: str = ""


@dataclass(frozen=True)
class Place:
    """One place at the table in the seat picture: a player's seat (``seat``), or a hand
    nobody sits at (``seat`` None: Dummy Hand Spades' dummy), with what it does this hand
    in short words, each a label the picture draws ("deals", "calls trump"). ``sits_out``: the
    place plays no card this hand (a lone player's partner): drawn, but left out of the
    referee's play order, so a trick of one card fewer still names who played each card."""

    name: str
    seat: int | None
    roles: tuple[str, ...] = ()
    deals: bool = False
    leads: bool = False
    sits_out: bool = False


@dataclass(frozen=True)
class Seating:
    """The seat picture of one hand: every place, clockwise round the table from the
    bottom of the picture (seat 0 first), and ``notes``, sentences about the table the
    roles do not say (where the dummy goes, who leads when nobody holds a contract)."""

    places: tuple[Place, ...]
    notes: tuple[str, ...] = ()
    # where each place is drawn, as indices into ``places`` clockwise from the bottom, when
    # people sit in another order than the play goes round (Dummy Hand Spades: the players
    # keep their chairs and the dummy its dealt place, while the play goes round the dummy
    # laid opposite the declarer); empty: drawn in play order
    seated: tuple[int, ...] = ()
    # The places where they are drawn, clockwise from the bottom: where people sit (made
    # with the seating: the picture reads it as a plain field)
    drawn: tuple[Place, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "drawn", tuple(self.places[i] for i in self.seated) if self.seated else self.places)
        # the notes name the places: each name isolated where it stands, so a right-to-left
        # name never reorders a note, wherever it is written (``names.isolate_names``)
        names = [place.name for place in self.places]
        object.__setattr__(self, "notes", tuple(isolate_names(note, names) for note in self.notes))


@dataclass(frozen=True)
class Target:
    """The score that ends a game: once a total reaches ``points`` (passes it, when
    ``past``), the single highest total wins, or with ``low_wins`` the single lowest.
    A game may have none (``Rules.target`` gives None): it then ends another way."""

    points: int
    past: bool = False
    low_wins: bool = False

    def __init__(self, points: int, past: bool = False, low_wins: bool = False):
        # as HandContext's: a replay asks the target after every hand
        self.__dict__.update(points=points, past=past, low_wins=low_wins)

    @property
    def ends_at(self) -> int:
        """The least total that ends the game."""
        return self.points + 1 if self.past else self.points


@dataclass(frozen=True)
class ProgressFacts:
    """How far a match has gone (``Rules.progress``), for ``Shown.progress_words`` to say: where
    it stands, its ``target``, the points the leading total still needs to end it (``to_go``,
    None without a target), how far it is in percent (None when nothing says) and whether the
    hands left hold only if the deal goes round in turn (``left_if_in_turn``)."""

    place: HandContext
    target: Target | None
    to_go: int | None
    percent: int | None
    left_if_in_turn: bool


@dataclass(frozen=True)
class MatchProgress:
    """The scoreboard's progress line: what the match plays towards, in short parts the
    page joins, how far it has gone (``percent``, None when nothing says) and the hands
    the deal count leaves (None when it fixes none)."""

    lines: tuple[str, ...]
    percent: int | None
    hands_left: int | None


class Rules(Generic[S]):
    """How a game is played and scored: its settings' rules, a hand's check, its score,
    who deals next, when the game ends, and what that leaves each player needing. Pure:
    no words for a form or a sheet (``Shown``), no cards (``Referee``); what each player
    needs, the progress, the ending and the next deal come back as facts ``Shown`` words
    (a game's own end rule gives its own facts in ``Ending.own``, its own reason for the
    next dealer in ``NextDeal.own``, its warnings in ``Scored.warnings``, how it scored a hand
    in ``Scored.why``, what is wrong with a hand or the settings in ``Problem.fact``)."""

    # True when players tied for the best total at the end share the win; False when a
    # tie at the top means another hand is dealt.
    tie_shares_win: bool = False
    # The game's settings record, which every hook reads from its place (``settings_at(place.table)``,
    # made once per table): declared once, as ``Rules[SpadesSettings]``.
    settings_type: ClassVar[type[GameSettings]] = GameSettings

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in cls.__dict__.get("__orig_bases__", ()):
            (record,) = get_args(base) if get_origin(base) is Rules else (None,)
            if isinstance(record, type) and issubclass(record, GameSettings):
                cls.settings_type = record

    def settings_at(self, table: Table) -> S:
        """The table's settings as the game's record (made once per table)."""
        return cast(S, self.settings_type.at(table))

    def target(self, place: HandContext) -> Target | None:
        """The score that ends the match standing at ``place``, if one does: fixed for the whole
        match (read from its settings, ``settings_at(place.table)``), so asked once per table."""
        return None

    def target_at(self, place: HandContext) -> Target | None:
        """``target`` of the match at ``place``, found once per table: the end check asks after every
        hand, and the target is the table's (the settings') for the whole match."""
        table = place.table
        found = table.__dict__.get("_target")
        if found is None or found[0] is not self:
            found = (self, self.target(place))
            table.__dict__["_target"] = found
        return found[1]

    def lowest_wins(self, place: HandContext) -> bool:
        """Whether the lowest total wins in the match standing at ``place`` (with a target or
        without; fixed by its settings): the standings then list it first."""
        target = self.target_at(place)
        return target is not None and target.low_wins

    def check_settings(self, place: HandContext) -> list[Problem]:
        """Rules between settings (each already valid on its own), for the match about to start
        at ``place`` (``Game.empty_place``: its seats are the match's; its players the file's, the
        form's, or stand-ins where none are known yet, ``stand_ins``)."""
        return []

    def start(self, table: Table) -> Any:
        """The running state before the first hand (``None`` if the game has none)."""
        return None

    def check_hand(self, hand: dict, ctx: HandContext) -> list[Problem]:
        """Every problem with one recorded hand. Keys are already known to be
        allowed and required ones present. ``ctx.dealer`` is None when it cannot be
        known (an earlier hand is invalid); checks that need it are then skipped."""
        raise NotImplementedError

    def score_hand(self, hand: dict, ctx: HandContext) -> Scored:
        """Score one valid hand (``ctx.dealer`` is known: who dealt it)."""
        raise NotImplementedError

    def next_deal(self, ctx: HandContext, scored: Scored) -> NextDeal:
        """Who deals after the hand ``ctx`` places, which scored ``scored``."""
        return NextDeal(ctx.table.left_of(ctx.dealt_by))

    def hand_events(self, hand: dict, ctx: HandContext, scored: Scored) -> list[Event]:
        """What a scored hand did beyond its points, worth naming on its row, as facts
        (``Event.what``, which ``Shown.event_words`` says; ``scored``: what ``score_hand``
        made of it). None by default."""
        return []

    def ending(self, place: HandContext) -> Ending:
        """Whether the game is over after a hand, and why (or why not), told where the match
        stands after it (``place.hands_played`` counts it; no dealer yet): by default the
        target's rule, and a game without a target goes on."""
        target = self.target_at(place)
        if target is None:
            return GOES_ON
        return target_ending(place.totals, target)

    def hands_left(self, place: HandContext) -> int | None:
        """How many hands the settings' count leaves from ``place`` (its hand included),
        dealing in turn from its dealer (none once the match is over), when they fix one;
        else None. The engine asks it and puts the answer in the places it builds."""
        return None

    def random_hand(self, ctx: HandContext, rng: Any) -> dict:
        """A random valid hand for the place ``ctx`` gives it, as a table might record it
        (``rng`` is a random.Random): what tests, benchmarks and demo matches play."""
        raise NotImplementedError

    # --- what each player needs (the scoreboard's panel) ---------------------------
    def most_in_a_hand(self, place: HandContext) -> int | None:
        """The most one player can score in the hand ``place`` places (None: no bound)."""
        return None

    def least_in_a_hand(self, place: HandContext) -> int | None:
        """The least (most negative) one player can score in that hand (None: no bound)."""
        return None

    def progress(self, place: HandContext) -> ProgressFacts:
        """How far the match standing at ``place`` has gone, as facts (``Shown.progress_words``
        says them): what the leading total still needs to end it by the target, and how far
        it is (the leader's share of the target, else the share of the hands played)."""
        target = self.target_at(place)
        highest = max(place.totals) if place.totals else 0
        percent = to_go = None
        if target is not None:
            percent = max(0, min(100, round(100 * highest / target.points))) if target.points > 0 else None
            to_go = target.ends_at - highest
        total_hands = None if place.hands_left is None else place.hands_played + place.hands_left
        if percent is None and total_hands:
            percent = round(100 * place.hands_played / total_hands)
        return ProgressFacts(place, target, to_go, percent, self.hands_left_follow_deal)

    # Whether the hands left (``hands_left``) count deals, so a deal out of turn can make more
    # and a count holds only "if the deal goes round in turn"; False where the count is of
    # hands, which no deal changes (the score pad's fixed number of hands).
    hands_left_follow_deal: ClassVar[bool] = True

    def seat_facts(self, place: HandContext, seat: int) -> Any:
        """The game's own facts about one player for the needs panel (how the player behind
        catches up...), which its ``Shown.seat_needs`` words; None by default."""
        return None

    def needs(self, place: HandContext) -> NeedsFacts:
        """What each player needs to win, as facts from the rules and the match so far
        (``Shown.needs_words`` says them): the target, where each stands, the hands left and
        who cannot win then. A player is out only under the assumption the facts name: a
        deal out of turn can make a game that ends by deal count longer, so who cannot catch
        up in the hands left is out only "if the deal goes round in turn"."""
        totals = list(place.totals)
        target = self.target_at(place)
        low = self.lowest_wins(place)  # with a target or without: the lowest total leads
        left = place.hands_left
        most, least = self.most_in_a_hand(place), self.least_in_a_hand(place)
        best = min(totals) if low else max(totals)
        seats = []
        for seat, total in enumerate(totals):
            gap = total - best if low else best - total
            # The game lasts ``left`` more hands at most; each moves two players at most
            # most - least apart. Drawing level may still share the win (or play on), so only a
            # gap wider than that is out of reach.
            out = (left is not None and gap > 0 and most is not None and least is not None
                   and gap > left * (most - least))
            to_end = None if target is None else target.ends_at - total
            seats.append(SeatNeeds(seat, total, gap, to_end, out, self.seat_facts(place, seat)))
        return NeedsFacts(place, target, low, self.tie_shares_win, left, self.hands_left_follow_deal, most, least,
                          tuple(seats))


class Shown:
    """How a game is shown: the hand form, a hand's summary, the table guide and seat
    picture, the printed score sheet, the rules page, the progress line, the needs panel
    and the target's ending. Words and layouts only: every number comes from the ``Rules``
    (their facts) through the engine's replay."""

    # How the form names a hand field in its messages, where the key does not read well.
    field_words: ClassVar[dict[str, str]] = {}
    # The name of the game's extra per-seat running count (its ``HandOutput.seat_counts``)
    # beside the totals, and the key of its score sheet column.
    seat_counter: str | None = None
    # The rules page's template, under templates/ (the game's own page).
    rules_template: str = ""

    def field_word(self, name: str) -> str:
        return self.field_words.get(name, name.replace("_", " "))

    def hand_numbers(self, hand: dict, place: HandContext) -> list[str]:
        """The numbers typed per player for the hand at ``place`` (the log's place of it,
        ``MatchResult.logged_place``), in words ("tricks: Ann 5 · Bob 4 · Cy 2"): the match log
        shows them beside the summary, where they were hidden in the exact input."""
        players = place.players
        return [by_player(self.field_word(key), list(players), value) for key, value in hand.items()
                if isinstance(value, list) and len(value) == len(players) and all(is_whole(v) for v in value)]

    def counter_text(self, value: int) -> str:
        """One value of ``seat_counter`` in words, as the board shows it beside a total."""
        return f"{value} {self.seat_counter}"

    def hand_form(self, ctx: HandContext) -> list[FieldGroup]:
        """The hand form, field group by field group, in the order the table fills it in.
        ``ctx.dealer`` is None when it cannot be known; seats are then in seat order."""
        raise NotImplementedError

    def hand_form_shown(self, ctx: HandContext) -> list[FieldGroup]:
        """``hand_form`` as a page writes it: each player's name in a legend or hint isolated
        (``names.isolate_names``), so a right-to-left name never reorders the words round it."""
        return [_group_shown(group, ctx.table.players) for group in self.hand_form(ctx)]

    def card_counter(self) -> CardCounter | None:
        """The card counter its ``counts`` hand-form group offers, if any."""
        return None

    def trick_tally(self, place: HandContext) -> TrickTally | None:
        """How to record a hand trick by trick, when the game offers it (the match
        page then shows "Record trick by trick")."""
        return None

    def hand_summary(self, hand: dict, ctx: HandContext, extra: HandOutput) -> list[str]:
        """The key inputs of a hand, short, as parts the caller joins: ["bid 5", "wyrms high"].
        ``extra``: what the engine made of it (``NO_OUTPUT`` for a hand not scored)."""
        return []

    def table_guide(self, ctx: HandContext) -> list[str]:
        """Plain sentences, in the players' names, for the hand ``ctx.dealer`` is about
        to deal: the deal, the bidding or calling order, who leads, anything special.
        Not scored; the match page shows it above the hand form."""
        return []

    def seating(self, ctx: HandContext, hand: dict | None = None) -> Seating:
        """Who sits where and what each does in the hand ``ctx.dealer`` deals: the picture the
        web layer draws. ``hand``: what is known of the hand so far (the fields typed into
        its form, perhaps incomplete or wrong: a game reads only what it can use), so a
        role the bidding decides (a contract holder, a declarer) is drawn once known. The
        shared flow: the dealer deals, the player on the dealer's left leads the first trick."""
        table, dealer = ctx.table, ctx.dealt_by
        left = table.left_of(dealer)
        return Seating(tuple(
            Place(name, seat, tuple(role for role, on in (("deals", seat == dealer), ("leads", seat == left)) if on),
                  deals=seat == dealer, leads=seat == left)
            for seat, name in enumerate(table.players)))

    def new_dealer(self, ctx: HandContext) -> str:
        """The sentence for a recorded hand that a correction gives another dealer
        (``ctx.dealt_by``, in ``ctx``, the place that hand now has): its inputs were typed for
        the old dealer, so the table checks them. By default it says what the new dealer
        does there besides dealing, in the seat picture's words ("bids second")."""
        name = ctx.players[ctx.dealt_by]
        roles = next((p.roles for p in self.seating(ctx).places if p.seat == ctx.dealt_by), ())
        does = [role for role in roles if role != "deals"]
        who = f", who {name_list(does)} there" if does else ""
        return f"Hand {ctx.number} is now dealt by {name}{who}; check it."

    def explanation_words(self, hand: dict, scored: Scored, ctx: HandContext) -> list[str]:
        """Why the hand ``ctx`` places (recorded as ``hand``) scored what it did (``scored.why``:
        the rules' facts, beside its scores and output), in sentences: the hand's explanation,
        before what happens next."""
        raise NotImplementedError(f"{type(self).__name__} gives no words for {scored.why!r}")

    def event_words(self, event: Event, ctx: HandContext) -> str:
        """One thing the hand ``ctx`` places did (``Rules.hand_events``), in words, whose it
        is first ("Ann's bid of 5 failed (took 3)"), without its points."""
        raise NotImplementedError(f"{type(self).__name__} gives no words for {event.what!r}")

    def warning_words(self, warning: Any, ctx: HandContext) -> str:
        """One thing the scorer of the hand ``ctx`` places may have meant otherwise
        (``Scored.warnings``), in words."""
        raise NotImplementedError(f"{type(self).__name__} gives no words for {warning!r}")

    def dealt_out_of_turn(self, ctx: HandContext) -> str:
        """What it means in this game that ``ctx.dealer`` dealt the hand out of turn: who
        then held which role (a clause for the explanation, after "Ann dealt this hand
        out of turn (it was Bob's deal): ")."""
        table, dealer = ctx.table, ctx.dealt_by
        names = table.players
        return (f"{names[dealer]} counts as this hand's dealer, so {names[table.left_of(dealer)]} "
                "was first after the dealer")

    def problem_words(self, fact: Any, place: HandContext) -> dict[str, Any]:
        """One of the game's own facts about what is wrong (``Problem.fact``) in words: the
        params its problem's code reads (``games.words``): a broken rule's ``said(...)``, or the
        game's terms a shared code names ("what" a list must hold, "why" a field is needed, "who"
        where a seat's is not a player's).
        ``place``: where the hand checked stands (for a check of the settings alone, the empty
        place ``Rules.check_settings`` was told)."""
        raise NotImplementedError(f"{type(self).__name__} gives no words for {fact!r}")

    def worded(self, problems: list[Problem], place: HandContext) -> list[Problem]:
        """``problems`` with the words of each of the game's facts filled in (``problem_words``;
        its "who", where it gives one, names the problem's seat: Third Rail's "trick 2"): what the
        engine does to every problem a game's rules give at ``place`` before it is read."""
        return [problem if problem.fact is None else self._worded(problem, place) for problem in problems]

    def _worded(self, problem: Problem, place: HandContext) -> Problem:
        said = self.problem_words(problem.fact, place)
        who = said.pop("who", problem.who)
        return dataclasses.replace(problem, params={**problem.params, **said}, who=who)

    # the reason the deal passes on as usual (``NextDeal.own`` None)
    deal_passes: ClassVar[str] = "the deal passes left"

    def next_deal_words(self, deal: NextDeal, ctx: HandContext) -> str:
        """Why ``deal.seat`` deals next, after the hand ``ctx`` places: the deal passing on,
        or the game's own reason (``deal.own``), which a game that gives one says."""
        if deal.own is not None:
            raise NotImplementedError(f"{type(self).__name__} gives no words for {deal.own!r}")
        return self.deal_passes

    def ending_words(self, ending: Ending, place: HandContext) -> str | None:
        """Why the game ended after a hand, or why it goes on (``place``: where the match stands
        after it), for the explanation: the shared target rule's facts in words (a game with
        its own end rule says its ``own`` facts)."""
        found = ending.by_target
        if found is None:
            return None
        if found.outcome == "short":
            return None  # most hands: no names to join (a replay asks after every hand)
        players, target = place.players, found.target
        points, names = target.points, name_list([players[s] for s in found.leaders])
        done = "passed" if target.past else "reached"
        if found.outcome == "exactly":
            verb = "has" if len(found.at_top) == 1 else "have"
            return (f"{name_list([players[s] for s in found.at_top])} {verb} {points}, and {points} is not past "
                    f"{points}: another hand is dealt")
        if found.outcome == "short":
            return None
        if found.outcome == "tied":
            if target.low_wins:
                return f"{names} are tied on {found.best} at the bottom: another hand is dealt"
            return tied_at_top(players, list(found.leaders), found.best)
        if target.low_wins:
            return (f"{name_list([players[s] for s in found.at_top])} {done} {points} with {found.top}, "
                    f"and {names} wins with the lowest total, {found.best}")
        return f"{names} {done} {points} with {found.best} and wins"

    def progress_words(self, facts: ProgressFacts) -> MatchProgress:
        """The progress line in words: what the match plays towards, what the leader still
        needs, and the count of hands (``hand_of``) while hands are left."""
        place, target = facts.place, facts.target
        lines: list[str] = []
        if target is not None:
            lines.append(f"Playing {'past' if target.past else 'to'} {target.points}"
                         + (": the lowest total wins" if target.low_wins else ""))
            if not place.finished and facts.to_go is not None and facts.to_go > 0:
                lines.append(f"{facts.to_go} more ends it" if target.low_wins else f"leader needs {facts.to_go} more")
        played = place.hands_played
        if place.hands_left is not None:
            lines.append(f"{played} hand{'' if played == 1 else 's'} played" if place.finished or not place.hands_left
                         else self.hand_of(facts))
        return MatchProgress(tuple(lines), facts.percent, place.hands_left)

    def hand_of(self, facts: ProgressFacts) -> str:
        """The progress line's count of hands (while some are left): this hand of all of them.
        Where the count is of deals, a deal out of turn adds a hand, so the count holds only
        if the deal goes round in turn; a count of hands says how many are left."""
        place = facts.place
        left = place.hands_left or 0
        if facts.left_if_in_turn:
            return f"hand {place.number} of {place.hands_played + left} if the deal goes round in turn"
        return f"hand {place.number} of {place.hands_played + left}: {plural(left, 'hand')} left"

    # --- what each player needs (the scoreboard's panel) -------------------------
    def needs_words(self, facts: NeedsFacts) -> Needs:
        """The "What each player needs" panel in words: lines about the whole table (the
        target, the game's own, the hands left, what one hand can do), then each player's
        (the target, where they stand, out of reach, the game's own). Every line holds
        whatever the table does next, or names its assumption in the same sentence."""
        general: list[str] = []
        if facts.target is not None:
            general.append(self.target_needs(facts))
        general += self.table_needs(facts)
        general += self.hands_left_needs(facts)
        general += self.hand_needs(facts)
        seats: list[Need] = []
        for seat in facts.seats:
            lines: list[str] = []
            if facts.target is not None:
                lines.append(self.target_line(facts, seat))
            lines.append(self.standing_line(facts, seat))
            if seat.out:
                lines.append(self.out_line(facts, seat))
            lines += self.seat_needs(facts, seat)
            seats.append(Need(seat.seat, tuple(lines), seat.out))
        return Needs(tuple(general), tuple(seats))

    def target_needs(self, facts: NeedsFacts) -> str:
        """The target's line: what ends the game and what a tie at the top then does."""
        target = facts.target
        assert target is not None  # said only with a target
        best = "lowest" if target.low_wins else "highest"
        tie = (f"players tied for the {best} total share the win" if facts.tie_shares_win
               else f"a tie for the {best} total means another hand is dealt")
        points = target.points
        if target.past:
            return (f"Playing past {points}: a total of {points + 1} or more ends the game "
                    f"({points} exactly is not past {points}); the {best} total then wins, and {tie}.")
        return f"Playing to {points}: a total of {points} or more ends the game; the {best} total then wins, and {tie}."

    def table_needs(self, facts: NeedsFacts) -> list[str]:
        """The game's own lines about the whole table (another way the game ends...)."""
        return []

    def hands_left_needs(self, facts: NeedsFacts) -> list[str]:
        """What the count of hands says: how many are left, and under which assumption."""
        left = facts.hands_left
        if left is None:
            return []
        # the last hand is the last whoever reaches the target: "fewer" only before it
        fewer = facts.target is not None and left > 1
        if not facts.left_if_in_turn:
            return [f"{plural(left, 'hand')} left" + (" (fewer if someone reaches the target)." if fewer else ".")]
        return [f"{plural(left, 'hand')} left if the deal goes round in turn "
                + ("(fewer if someone reaches the target; " if fewer else "(")
                + "a deal out of turn can make it more)."]

    def hand_needs(self, facts: NeedsFacts) -> list[str]:
        """What one hand can do, for the panel's lines about the whole table."""
        return [] if facts.most is None else [f"The most a player can score in one hand: {facts.most}."]

    def target_line(self, facts: NeedsFacts, seat: SeatNeeds) -> str:
        """One player's line about the target: how far it is, or what reaching it means."""
        target = facts.target
        assert target is not None and seat.to_end is not None  # said only with a target
        points, verb = target.points, "pass" if target.past else "reach"
        if seat.to_end > 0:
            if target.low_wins:
                return f"{seat.to_end} more would end the game ({verb} {points})"
            return f"needs {seat.to_end} more to {verb} {points}"
        where = over_target(points, seat.total, target.past)
        if target.low_wins:
            return f"{where}: the game ends with the lowest total winning"
        return f"{where}: needs to be alone at the top at the end of a hand"

    def standing_line(self, facts: NeedsFacts, seat: SeatNeeds) -> str:
        """Where the player stands against the others."""
        return standing(facts.place.players, list(facts.place.totals), seat.seat, low_wins=facts.low_wins)

    def out_line(self, facts: NeedsFacts, seat: SeatNeeds) -> str:
        """Why the player can no longer win, with the assumption it holds under."""
        assumption = " if the deal goes round in turn" if facts.left_if_in_turn else ""
        return (f"can no longer win{assumption}: {plural(facts.hands_left or 0, 'hand')} left, "
                f"and a hand moves two players at most {facts.swing} apart")

    def seat_needs(self, facts: NeedsFacts, seat: SeatNeeds) -> list[str]:
        """The game's own lines for one player (bags, a losing floor...), after the shared ones;
        each a clause without a full stop (the panel joins them with semicolons)."""
        return []

    # --- the score sheet (print view and blank sheets) ---------------------------
    def sheet_layout(self, place: HandContext) -> SheetLayout:
        """The columns of this game's score sheet (one group of ``seat`` columns
        per player), for the match standing at ``place`` (a blank sheet's: ``Game.empty_place``)."""
        return SheetLayout((), (POINTS, TOTAL))

    def sheet_cells(self, hand: dict, ctx: HandContext, extra: HandOutput) -> SheetRow:
        """A scored hand's cells for the columns of ``sheet_layout`` other than the
        points and totals (``extra`` is the engine's output for the hand)."""
        return SheetRow(seats=[{} for _ in range(ctx.seats)])

    def sheet_rules(self, place: HandContext) -> list[str]:
        """What each case scores, in short lines with these settings filled in: the
        summary a scorer needs on a blank sheet when the phones are away."""
        raise NotImplementedError

    def rules_context(self, place: HandContext) -> dict:
        """Anything more the game's rules page needs, from the settings of the match at ``place``
        (the rules page's: ``Game.empty_place`` of the page's settings, its players stand-ins for
        the fewest the game seats, ``stand_ins``: read the settings, not the seats)."""
        return {}


@dataclass
class Trick:
    """A trick the referee is asked about, as every referee hook is told it: where the match
    stands (``place``: in a match, the hand about to be played; outside one, the place of a
    match of the game's defaults before its first hand, ``Game.unplayed_place``), whether it is
    a match's (``in_match``: outside one the table picks what a match would say, its player
    count too), and the hand's own facts its winner depends on (``facts``: trump, high or
    low..., by the names the referee's query carries, None while the table has not said;
    ``Referee.read`` updates them from the query)."""

    place: HandContext
    in_match: bool
    facts: dict[str, Any]


class Referee:
    """The trick referee of a game that has one: its deck, the "This hand" box, the tap
    grid and the judge of a trick (``trick_referee`` holds the pieces, ``tricks`` the
    judge every trick-taking game here shares)."""

    # The query keys the referee page reads for this game (trump, high rank...): what it
    # carries from the hand form into the referee's address and back.
    args: tuple[str, ...] = ()
    # True when the referee's context is read from the match and its last hand.
    from_match: bool = True

    def context(self, hand: dict, place: HandContext, in_match: bool) -> dict:
        """The hand's own facts a trick's winner depends on (trump, high or low...), by the names
        the referee's query carries (``args``), for the hand ``place`` places: from what is known
        of it (``hand``: the fields typed into its form so far, often none); in a match what is
        not known yet is None (the referee asks for it), outside a match (``in_match`` False: the
        place of a match of the game's defaults, ``Game.unplayed_place``) the game's defaults."""
        return {}

    def trick(self, hand: dict, place: HandContext, in_match: bool) -> Trick:
        """The trick the referee is asked about at ``place``: the record every other hook of the
        referee is told (its facts from ``context``)."""
        return Trick(place, in_match, self.context(hand, place, in_match))

    def read(self, trick: Trick, args: Any) -> list[str]:
        """Update ``trick.facts`` from the referee's query ``args``; problems, if any."""
        return []

    def address(self, trick: Trick) -> dict:
        """The trick's facts as the referee's address carries them (the keys it reads, ``args``):
        the choices its "This hand" box shows, set."""
        shown, facts = {c.name for c in self.setup(trick).choices}, trick.facts
        return {key: facts[key] for key in self.args if key in shown and facts.get(key)}

    def typed_address(self, hand: dict, place: HandContext) -> dict:
        """``address`` of the hand being typed in a match: its trick from the fields typed so far
        (``hand``), dealt as its form says (``place``)."""
        return self.address(self.trick(hand, place, in_match=True))

    def setup(self, trick: Trick) -> Setup:
        """What the "This hand" box shows."""
        raise NotImplementedError

    def slots(self, trick: Trick) -> int:
        """How many cards make a trick."""
        raise NotImplementedError

    def decks(self, trick: Trick) -> int:
        return 1

    def options(self, decks: int) -> list[Face]:
        """Every card's face, in the order the lists offer them."""
        raise NotImplementedError

    def groups(self, decks: int) -> list[tuple[str, str, list[Face]]]:
        """The tap grid: (heading, colour, faces) groups, in the order players sort a hand."""
        raise NotImplementedError

    def face(self, code: str) -> Face | None:
        """The face of a card code, or None when the game has no such card."""
        raise NotImplementedError

    def judge(self, cards: list[str], trick: Trick) -> tuple[int, str]:
        """Who won the trick (index in ``cards``) and why; ValueError for a trick that cannot happen."""
        raise NotImplementedError


class Stats:
    """The statistics a game keeps per player (the stats page): its figures, and the facts
    each scored hand counts for them."""

    # The figures this game keeps per player, in the order the stats page shows them.
    figures: tuple[Figure, ...] = ()

    def hand_facts(self, hand: dict, ctx: HandContext, scores: list[int], extra: HandOutput,
                   before: HandOutput) -> list[dict[str, int]]:
        """What one scored hand counts for each player (seat order): fact key -> value
        (1 for a plain count). ``extra`` is the engine's output for the hand, ``before``
        the previous hand's (``NO_OUTPUT`` for the first)."""
        return [{} for _ in range(ctx.seats)]


@dataclass(frozen=True)
class Typed:
    """What a page draws beside a hand as it is typed (``Game.typed``): its seating with the
    roles what is typed decides (who holds the contract...; None once the match is over), and
    the trick context the referee's address carries of it (``Referee.typed_address``; None for
    a game without a referee)."""

    seating: Seating | None
    referee_address: dict | None


class Game:
    """One game: what it is (key, title, players, settings, the fields a hand records)
    and its parts, each read alone: ``rules`` (checks, scoring, dealing, ending, needs),
    ``shown`` (forms, summaries, guide, seat picture, sheet, rules page), ``referee``
    (None for a game without one) and ``stats``."""

    key: str = ""
    title: str = ""
    summary: str = ""
    min_players: int = 0
    max_players: int = 0
    settings: tuple[Setting, ...] = ()
    # The settings as the game's typed record (one field per setting: ``GameSettings``), and
    # what its scoring gives beyond the points (``HandOutput``): declared once, read by the
    # game's hooks as typed fields and by the pages only through what the records declare.
    settings_type: ClassVar[type[GameSettings]] = GameSettings
    output_type: ClassVar[type[HandOutput]] = HandOutput
    # Every key a recorded hand may carry, besides the engine's own "dealer".
    hand_fields: tuple[str, ...] = ()
    required_fields: tuple[str, ...] = ()
    # Players for sample matches (benchmarks, fuzzing, demos).
    sample_players: int = 3
    # Variants of the settings worth playing in tests and demos (each over the defaults).
    sample_settings: ClassVar[tuple[dict, ...]] = ({},)

    rules: Rules[Any] = Rules()
    shown: Shown = Shown()
    referee: Referee | None = None
    stats: Stats = Stats()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.settings_type is not GameSettings:  # a game that declares its record binds it to its settings
            cls.settings_type.declare(cls.settings)
        rules = cls.__dict__.get("rules")
        if rules is not None and rules.settings_type is not cls.settings_type:
            # its rules' hooks would read the table's settings as another record than the game's
            raise TypeError(f"{cls.__name__}: its rules read {rules.settings_type.__name__}, not its settings "
                            f"record {cls.settings_type.__name__} (declare them as "
                            f"Rules[{cls.settings_type.__name__}])")

    def settings_of(self, values: Mapping[str, Any]) -> GameSettings:
        """Checked settings (a match's, the defaults) as the game's record, for its hooks."""
        return self.settings_type.of(values)

    def display_name(self, place: HandContext | None = None, kind: bool = False) -> str:
        """What the table calls this game, wherever its name is shown (a title, the share line,
        the history...): the game's title unless the settings of the match at ``place`` name it
        (None: no match, the game itself: the list of games). ``kind``: where the kind of game
        matters beside the name ("Hearts (score pad)")."""
        return self.title

    def defaults(self) -> dict:
        # A copy, so a match that edits a table setting never edits the defaults.
        return {s.name: copy.deepcopy(s.default) for s in self.settings}

    def long_match(self, hands: int, seats: int) -> dict | None:
        """Settings (over the defaults) under which a match of ``seats`` players goes on for
        ``hands`` hands whatever they score, for benchmarks and tests that need a long match;
        None when no settings make a match that long (a game whose hands follow a fixed
        schedule). Each game says its own: nothing else may assume a match can be endless.
        The one game hook not told a place: it designs the settings of a sample match before
        any exists (no table, no players: its answer is what a table would be made from)."""
        raise NotImplementedError

    def sides(self, place: HandContext) -> tuple[tuple[int, ...], ...] | None:
        """The fixed partnerships of the match at ``place``, in a game scored per team: each side's
        seats, whose totals are always the same (the team's); None where every player plays for
        themself. The standings name each player's partners, and a tie between partners is no tie."""
        return None

    def progress(self, place: HandContext) -> MatchProgress:
        """The progress line of the match standing at ``place``: the rules' facts in the game's words."""
        return self.shown.progress_words(self.rules.progress(place))

    def needs(self, place: HandContext) -> Needs:
        """The needs panel of the match standing at ``place``: the rules' facts in the game's words."""
        return self.shown.needs_words(self.rules.needs(place))

    def optional_fields(self, place: HandContext) -> tuple[str, ...]:
        """The hand fields that may be left out of the hand at ``place`` (null for one of them
        means left out): by default those not required. What may be left out is the table's, the
        same at every place of a match: asked once where the hands' own places are not known yet
        (a match file's hands before their replay: its empty place)."""
        return tuple(f for f in self.hand_fields if f not in self.required_fields)

    def typed(self, place: HandContext, hand: dict) -> Typed:
        """What a page draws beside a hand as it is typed (``Typed``), at ``place`` (where its
        form placed it, dealt by whoever the form names), from ``hand`` (its fields so far)."""
        seating = None if place.finished or place.dealer is None else self.shown.seating(place, hand)
        if self.referee is None:
            return Typed(seating, None)
        return Typed(seating, self.referee.typed_address(hand, place) if hand else {})

    def empty_place(self, table: Table, dealer: int | None = None) -> HandContext:
        """The place of a match with no hands (nothing scored, nothing dealt yet), its first
        hand dealt by ``dealer`` (None: not known, as on a blank sheet): what a replay of no
        hands gives, for where there is no match to replay."""
        zeros = (0,) * table.seats
        place = HandContext(table, 1, dealer, zeros, self.rules.start(table), zeros)
        return place if dealer is None else dataclasses.replace(place, hands_left=self.rules.hands_left(place))

    def unplayed_place(self, settings: Mapping[str, Any] | None = None,
                       players: Sequence[str] | None = None) -> HandContext:
        """The place of a match that is not played here, before its first hand (``empty_place``,
        its dealer unknown): ``settings`` (None: the game's defaults) at a table of ``players``
        (None: stand-ins for the fewest the game seats, ``stand_ins``). What a hook is told where
        no match exists: the rules page, the referee outside a match, a game's name in a list."""
        names = tuple(players) if players is not None else stand_ins(self.min_players)
        return self.empty_place(Table(names, dict(self.defaults() if settings is None else settings)))


# --- helpers shared by the games ------------------------------------------

# A form is described on every page that draws it and twice a save, with the same groups
# and names hand after hand: each group's names are isolated once, not on every drawing
# (a right-to-left name costs the most to isolate).
@functools.lru_cache(maxsize=1024)
def _group_shown(group: FieldGroup, players: tuple[str, ...]) -> FieldGroup:
    legend, hint = isolate_names(group.legend, players), isolate_names(group.hint, players)
    if legend == group.legend and hint == group.hint:
        return group  # no name to isolate: kept as it is
    return dataclasses.replace(group, legend=legend, hint=hint)


def show(value: Any) -> str:
    """A value as the JSON the user typed, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):  # quotes and line breaks escaped: a message stays one line
        # a lone surrogate (JSON "\ud800") has no UTF-8: shown as that same escape
        return json.dumps(value, ensure_ascii=False).encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, (list, dict)):
        return show_json(value)
    return str(value)


def is_whole(value: Any) -> bool:
    # JSON true/false arrive as Python bools, which are ints: never a count.
    return isinstance(value, int) and not isinstance(value, bool)


def range_check(field: str | None, value: Any, minimum: int | None = None, maximum: int | None = None,
                seat: int | None = None, who: str | None = None) -> Problem | None:
    """The problem when ``value`` is not a whole number in [minimum, maximum], or None."""
    # the words of a problem are made only when there is one: a replay checks every count of every hand
    if not is_whole(value):
        return Problem(field, "not_whole", {"got": show(value), "value": value}, seat, who)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        return Problem(field, "out_of_range", {"got": show(value), "value": value, "minimum": minimum,
                                               "maximum": maximum}, seat, who)
    return None


def range_problem(value: Any, minimum: int | None = None, maximum: int | None = None) -> str | None:
    """Why ``value`` is not a whole number in [minimum, maximum], in words, or None."""
    problem = range_check(None, value, minimum, maximum)
    return None if problem is None else words.reason(problem)


def choice_problem(field: str, value: Any, choices: tuple[str, ...], extra: str = "") -> Problem:
    options = ", ".join(f'"{c}"' for c in choices) + extra
    return Problem(field, "choice", {"options": options, "got": show(value), "value": value})


def bool_problem(field: str, value: Any) -> Problem:
    return Problem(field, "not_bool", {"got": show(value), "value": value})


def check_count(hand: dict, name: str, minimum: int, maximum: int) -> list[Problem]:
    problem = range_check(name, hand[name], minimum, maximum)
    return [problem] if problem else []


def check_seat_counts(hand: dict, name: str, table: Table, maximum: int) -> list[Problem]:
    """``name`` must be a list with one whole number 0..maximum per seat."""
    value = hand[name]
    if not isinstance(value, list) or len(value) != table.seats:
        return [Problem(name, "not_list", {"per_seat": table.seats, "got": show_json(value), "value": value})]
    problems = []
    for seat, count in enumerate(value):
        # range_check only for a count that is not plainly good: every count of every hand is checked
        if (type(count) is not int or not 0 <= count <= maximum) and (
                problem := range_check(name, count, 0, maximum, seat, table.players[seat])):
            problems.append(problem)
    return problems


def check_choice(hand: dict, name: str, choices: tuple[str, ...]) -> list[Problem]:
    value = hand[name]
    if isinstance(value, str) and value in choices:
        return []
    return [choice_problem(name, value, choices)]


def check_bool(hand: dict, name: str) -> list[Problem]:
    return [] if isinstance(hand[name], bool) else [bool_problem(name, hand[name])]


def show_json(value: Any) -> str:
    try:
        return json.dumps(value)
    except RecursionError:  # read from JSON, yet too deep to write back out
        return "(a value nested too deeply to show)"
    except (TypeError, ValueError):
        return repr(value)


def target_ending(totals: Sequence[int], target: Target) -> Ending:
    """The shared end rule, as facts (``TargetEnd``): once someone has reached the target (or
    passed it, with ``target.past``), the single highest total wins (the lowest, with
    ``target.low_wins``); a tie for that total plays on."""
    top = max(totals)
    best = min(totals) if target.low_wins else top
    at_top = _seats_on(totals, top)
    leaders = at_top if best == top else _seats_on(totals, best)
    points = target.points
    if target.past and top == points:
        outcome = "exactly"
    elif top < target.ends_at:
        outcome = "short"
    else:
        outcome = "tied" if len(leaders) > 1 else "won"
    return Ending(list(leaders) if outcome == "won" else None,
                  by_target=TargetEnd(target, top, at_top, best, leaders, outcome))


def _seats_on(totals: Sequence[int], total: int) -> tuple[int, ...]:
    """The seats whose total is ``total`` (one found without a loop: the target rule asks
    after every hand, and most hands leave one player on top)."""
    if totals.count(total) == 1:
        return (totals.index(total),)
    return tuple([seat for seat, t in enumerate(totals) if t == total])


def tied_at_top(players: tuple[str, ...] | list[str], leaders: list[int], best: int) -> str:
    return f"{name_list([players[s] for s in leaders])} are tied on {best} at the top: another hand is dealt"


@functools.cache
def bidding_order(dealer: int, seats: int) -> tuple[int, ...]:
    """Every seat once, from the dealer's left round to the dealer, who is last (made once
    per dealer and table size: asked several times a hand)."""
    return tuple((dealer + step) % seats for step in range(1, seats + 1))


def ordinal(n: int) -> str:
    """1 -> "1st", 12 -> "12th", 22 -> "22nd"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def played(index: int) -> str:
    """A card's place in a trick from its index in play order: "led", "played 2nd"."""
    return "led" if index == 0 else f"played {ordinal(index + 1)}"


def times(count: int) -> str:
    """ "once", "twice", "3 times"."""
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def standing(names: tuple[str, ...] | list[str], totals: list[int], seat: int, low_wins: bool = False) -> str:
    """Where one player stands against the others: "leads Bob by 12", "is 27 behind Ann",
    "shares the lead with Bob on 40", "is level with Bob and Cy on 0" (with ``low_wins``
    the lowest total leads)."""
    sign = -1 if low_wins else 1
    ahead = [sign * t for t in totals]  # the higher, the better placed
    best = max(ahead)
    others = [s for s in range(len(totals)) if s != seat]
    if ahead[seat] < best:
        return f"is {best - ahead[seat]} behind {name_list([names[s] for s in others if ahead[s] == best])}"
    tied = [s for s in others if ahead[s] == best]
    if tied:
        verb = "is level with" if len(tied) == len(others) else "shares the lead with"
        return f"{verb} {name_list([names[s] for s in tied])} on {totals[seat]}"
    second = max(ahead[s] for s in others)
    return f"leads {name_list([names[s] for s in others if ahead[s] == second])} by {best - second}"


def places(totals: Sequence[int], lowest_first: bool = False,
           sides: Sequence[Sequence[int]] | None = None) -> list[int]:
    """Each seat's place by total (1 = leads; ties share a place: 1st, 1st, 3rd), the
    highest first, or the lowest where the lowest total wins (``Rules.lowest_wins``); with
    ``sides`` (``Game.sides``), a team placed once (``team_places``)."""
    found = [1 + sum(1 for t in totals if (t < mine if lowest_first else t > mine)) for mine in totals]
    return team_places(found, sides)


def team_places(found: Sequence[int], sides: Sequence[Sequence[int]] | None) -> list[int]:
    """The places ``found`` (``places``) with each of the ``sides`` (``Game.sides``) placed once:
    partners share their team's total, so the team behind the leading team is 2nd, not 3rd. A
    player without a side is placed alone; without sides, the places as found."""
    side_of = {seat: tuple(side) for side in sides or () for seat in side}
    # each side once (by its first seat), a player without one alone: the places that rank
    ranked = [place for seat, place in enumerate(found) if side_of.get(seat, (seat,))[0] == seat]
    return [1 + sum(1 for other in ranked if other < mine) for mine in found]


def plural(count: int, word: str) -> str:
    """ "1 trick", "0 tricks", "2 tricks"."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def stand_ins(seats: int) -> tuple[str, ...]:
    """Names for the seats of a match whose players are not known yet ("Player 1", "Player 2"...):
    the players of the place a hook is told where only the settings and the seat count are
    (a match file's settings checked before its players, the rules page)."""
    return tuple(f"Player {seat + 1}" for seat in range(seats))


def name_list(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def suit_name(suit: Any) -> str:
    """ "♦\u00a0diamonds": the sign never wraps away from its name."""
    from .cards import SUIT_SIGNS

    sign = SUIT_SIGNS.get(suit, "") if isinstance(suit, str) else ""
    return f"{sign}\u00a0{suit}" if sign else str(suit)


def suit_choices(suits: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Radio choices for suits, each labelled with its sign."""
    return tuple((s, suit_name(s)) for s in suits)


def by_player(what: str, players: list[str], values: list) -> str:
    """ "bids: Ann 7 · Bob 5 · Cy 6", in seat order, each value with its player."""
    if not values:
        return ""
    return f"{what}: " + " · ".join(f"{name} {value}" for name, value in zip(players, values))


def split_tricks(total: int, seats: int, rng: Any) -> list[int]:
    """``total`` tricks shared out at random among ``seats``."""
    counts = [0] * seats
    for _ in range(total):
        counts[rng.randrange(seats)] += 1
    return counts


def over_target(points: int, total: int, past: bool = False) -> str:
    """Where a total stands that has reached the target: exactly on it, or how far over."""
    if past:
        return f"is past {points}"
    return f"is on {points}" if total == points else f"is {total - points} over {points}"
