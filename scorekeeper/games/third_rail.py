"""Third Rail (seed 003): 3 to 6 players, every third trick scores a point.

Scoring follows rules.md section 4. The module also holds the trick referee
(``trick_winner``) and the trick-count helpers the trick-by-trick tally uses.

Its parts, each read alone (see ``games.base``): ``ThirdRailRules``, ``ThirdRailShown`` (how it is
shown and printed), ``ThirdRailReferee`` and ``ThirdRailStats``, held by ``ThirdRail``; the module's
functions are the vocabulary they share (cards, rank orders, the scoring's arithmetic).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from .base import (
    POINTS,
    TOTAL,
    FieldGroup,
    Figure,
    Game,
    GameSettings,
    HandContext,
    HandOutput,
    Place,
    Problem,
    Referee,
    Rules,
    Scored,
    Seating,
    Setting,
    SheetCell,
    SheetColumn,
    SheetLayout,
    SheetRow,
    Shown,
    Stats,
    Table,
    TallyChoice,
    TallyColumn,
    Target,
    Trick,
    TrickMark,
    TrickTally,
    broken,
    by_player,
    check_choice,
    check_seat_counts,
    is_whole,
    name_list,
    said,
    show_json,
    suit_choices,
    suit_name,
)
from .base import (
    played as _played,
)
from .cards import SUITS as _SUIT_LETTERS
from .cards import faces as suit_faces
from .cards import label as card_label
from .cards import singular
from .trick_referee import Choice, Face, Setup, french_face, french_groups, is_french, suit_options
from .tricks import TrickRule

SUITS = ("hearts", "diamonds", "clubs", "spades")
# King high, Ace low: the index is the rank's strength.
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
# Five or six players use two decks with these ranks taken out.
_TWO_DECK_MISSING = ("2", "3", "4")

TRICK_CARDS = [rank + letter for letter in "SHDC" for rank in RANKS]


@dataclass(frozen=True)
class RailSettings(GameSettings):
    """Third Rail's settings (``ThirdRail.settings`` says each)."""

    target: int
    scoring_from: int  # the first scoring trick: 2 or 3
    most_other_tricks_bonus: bool
    bonus_tie: str  # "each" or "none"
    trump: bool


@dataclass(frozen=True)
class TrickForms:
    """A hand's problem: its tricks given both ways (``both``: winners and counts) or neither."""

    both: bool


@dataclass(frozen=True)
class TrickWon:
    """Whose problem it is: the winner of trick ``index`` (from 0), where a player's name would be."""

    index: int


@dataclass(frozen=True)
class TrumpOff:
    """A hand's problem: a trump recorded in a match played without trump."""


@dataclass(frozen=True)
class BonusCounts:
    """Why the other tricks are needed: the bonus for most other tricks counts them."""


@dataclass(frozen=True)
class TrickShape:
    """What a hand's tricks must come to with ``seats`` players (``tricks`` a hand, the
    ``scoring`` ones numbered): as winners (``field`` "winners", one per trick) or as each
    player's counts of the ``field``'s tricks (their sum)."""

    field: str
    seats: int
    tricks: int
    scoring: tuple[int, ...]


def tricks_per_hand(players: int) -> int:
    """Cards are dealt one at a time until another round is impossible."""
    if not 3 <= players <= 6:
        raise ValueError(f"Third Rail is for 3 to 6 players, got {players}")
    deck = 52 if players <= 4 else 80
    return deck // players


def is_scoring_trick(number: int, scoring_from: int) -> bool:
    """Whether trick ``number`` (1 = the first trick) scores a point."""
    if scoring_from not in (2, 3):
        raise ValueError(f"scoring_from must be 2 or 3, got {scoring_from}")
    return number >= 1 and number % 3 == scoring_from % 3


def scoring_trick_numbers(players: int, scoring_from: int) -> list[int]:
    return list(_scoring_among(tricks_per_hand(players), scoring_from))


@functools.lru_cache(maxsize=64)
def _scoring_among(tricks: int, scoring_from: int) -> tuple[int, ...]:
    """The scoring tricks among the first ``tricks``, found once per count and setting (a
    replay checks, tallies and explains every hand with them)."""
    return tuple(n for n in range(1, tricks + 1) if is_scoring_trick(n, scoring_from))


def decks_for(players: int) -> int:
    """One deck for 3 or 4 players, two (without 2s, 3s and 4s) for 5 or 6."""
    return 1 if players <= 4 else 2


def cards_in_deck(decks: int) -> list[str]:
    """The cards one trick may hold: two decks leave out the 2s, 3s and 4s."""
    if decks == 1:
        return list(TRICK_CARDS)
    if decks == 2:
        return [c for c in TRICK_CARDS if _rank(c) not in _TWO_DECK_MISSING]
    raise ValueError(f"decks must be 1 or 2, got {decks}")


def _rank(card: str) -> str:
    return card[:-1]


def _suit(card: str) -> str:
    return _SUIT_LETTERS[card[-1]]


def _strength(card: str) -> int:
    return RANKS.index(_rank(card))


def _check_trick(cards: list, trump: Any, decks: int) -> str | None:
    """Raise ValueError for a trick that cannot happen; return trump as a suit name."""
    deck = cards_in_deck(decks)
    sizes = (3, 4) if decks == 1 else (5, 6)
    if not isinstance(cards, (list, tuple)) or len(cards) not in sizes:
        count = len(cards) if isinstance(cards, (list, tuple)) else show_json(cards)
        raise ValueError(f"a trick has one card per player: {sizes[0]} or {sizes[1]} cards "
                         f"with {decks} deck{'s' if decks == 2 else ''}, got {count}")
    for card in cards:
        if card not in deck:
            missing = " (two decks have no 2s, 3s or 4s)" if decks == 2 else ""
            raise ValueError(f"unknown card {show_json(card)}: cards look like \"KS\", \"10H\", \"AC\"{missing}")
        copies = cards.count(card)
        if copies > decks:
            raise ValueError(f"{card_label(card)} was played {copies} times, but "
                             f"{'one deck has only one' if decks == 1 else 'two decks have only two'}")
    if trump is None:
        return None
    if trump in SUITS:
        return trump
    if trump in _SUIT_LETTERS:
        return _SUIT_LETTERS[trump]
    raise ValueError(f"trump must be one of {', '.join(SUITS)} (or S, H, D, C), got {show_json(trump)}")


RAIL_TRICK: TrickRule[str] = TrickRule(suits=lambda card: (_suit(card),), strength=lambda index, card: _strength(card))


def trick_winner(cards: list, trump: str | None = None, decks: int = 1) -> tuple[int, str]:
    """The index (in play order) of the card that wins the trick, and why.

    ``trump`` is a suit (``"spades"`` or ``"S"``) when the trump variation is on,
    else None. The referee does not police revokes; it judges the cards as played.
    """
    trump = _check_trick(cards, trump, decks)
    led = _suit(cards[0])
    # of two identical cards (two decks) the earlier wins: the shared rule's tie
    verdict = RAIL_TRICK.judge(cards, trump)
    best, contenders = verdict.winner, list(verdict.pool)
    trumps = contenders if verdict.by_trump else []
    label = card_label(cards[best])
    if trumps and led != trump:
        kind = "the only trump" if len(trumps) == 1 else f"the highest trump ({trump})"
        reason = f"{label} ({_played(best)}) is {kind}, and a trump beats any card of another suit."
    elif len(contenders) == 1:
        reason = f"Nobody else played a {singular(led)}, so {label}, the card led, wins."
    else:
        led_is = "the suit led and trump" if led == trump else "the suit led"
        reason = f"{label} ({_played(best)}) is the highest {singular(led)}, {led_is} (King high, Ace low)."
    if trump and not trumps:
        reason = "No trump was played. " + reason
    twins = [i for i in contenders if i > best and cards[i] == cards[best]]
    if twins:
        reason += (f" Another {label} was {_played(twins[0])}, but of two identical cards "
                   "the one played first wins.")
    return best, reason


def tally_winners(winners: list[int], seats: int, scoring_from: int) -> tuple[list[int], list[int], list[list[int]]]:
    """Per seat, from each trick's winner so far: scoring tricks won, other
    tricks won, and the numbers of the scoring tricks each won."""
    won: list[list[int]] = [[] for _ in range(seats)]
    other = [0] * seats
    scoring = _scoring_among(len(winners), scoring_from)
    for number, seat in enumerate(winners, start=1):
        if number in scoring:
            won[seat].append(number)
        else:
            other[seat] += 1
    return [len(w) for w in won], other, won


def _listing(numbers: list[int]) -> str:
    return name_list([str(n) for n in numbers])


def _tricks(count: int, word: str) -> str:
    return f"{count} {word} trick{'' if count == 1 else 's'}" if count else f"no {word} tricks"


def tally_of(hand: dict, table: Table) -> tuple[list[int], list[int], list[list[int]] | None]:
    """Per seat: scoring tricks won, other tricks won, and (winners form only)
    the numbers of the scoring tricks each won, for the explanation."""
    if "winners" not in hand:
        # other tricks may be left out without the bonus (then nothing reads them)
        return list(hand["scoring_tricks"]), list(hand.get("other_tricks") or [0] * table.seats), None
    return tally_winners(hand["winners"], table.seats, RailSettings.at(table).scoring_from)


class RailHand(NamedTuple):
    """How a hand of Third Rail scored (``Scored.why``), for ``ThirdRailShown`` to say: each
    player's ``scoring`` and ``other`` tricks, the scoring tricks each ``won`` by number (winners
    recorded only), the ``trump`` recorded (None: none) and who scored the bonus for most other
    tricks (None: the bonus is not played)."""

    scoring: list[int]
    other: list[int]
    won: list[list[int]] | None
    trump: str | None
    bonus: list[int] | None


# A fact made as a tuple is (``RailHand``): the named tuple's own constructor (keywords allowed)
# costs three times as much, and a replay makes one a hand.
_made = tuple.__new__


def bonus_for(other: list[int], tie: str) -> list[int]:
    most = max(other)
    leaders = [seat for seat, count in enumerate(other) if count == most]
    # Ruling (setting bonus_tie): tied players each score 2, or nobody does.
    return leaders if len(leaders) == 1 or tie == "each" else []


class ThirdRailRules(Rules[RailSettings]):
    """Third Rail's rules (rules.md section 4): every third trick scores, the bonus for
    most other tricks, an optional trump, playing to the target."""

    def target(self, place: HandContext) -> Target:
        return Target(RailSettings.at(place.table).target)

    # --- a hand ---------------------------------------------------------
    def check_hand(self, hand: dict, ctx: HandContext) -> list[Problem]:
        table = ctx.table
        return self._check_form(hand, table) + self._check_trump(hand, table)

    def _check_form(self, hand: dict, table: Table) -> list[Problem]:
        counts = [k for k in ("scoring_tricks", "other_tricks") if k in hand]
        if "winners" in hand and counts:
            return [broken("winners", TrickForms(both=True))]
        if "winners" in hand:
            return self._check_winners(hand, table)
        if len(counts) == 2:
            return self._check_counts(hand, table)
        if counts == ["scoring_tricks"] and not RailSettings.at(table).most_other_tricks_bonus:
            # Only what the settings score is asked for: without the bonus, other
            # tricks change nothing, so the scoring tricks alone will do.
            return self._check_counts(hand, table)
        if counts:
            other = "other_tricks" if counts == ["scoring_tricks"] else "scoring_tricks"
            if other == "other_tricks":
                return [Problem(other, "missing", {"with": counts[0]}, fact=BonusCounts())]
            return [Problem(other, "missing", {"with": counts[0]})]
        return [broken("winners", TrickForms(both=False))]

    def _check_winners(self, hand: dict, table: Table) -> list[Problem]:
        winners, tricks = hand["winners"], tricks_per_hand(table.seats)
        if not isinstance(winners, list) or len(winners) != tricks:
            return [Problem("winners", "not_list", {
                "got": show_json(winners), "value": winners, "one_based": True, "count": tricks, "seats": table.seats},
                fact=TrickShape("winners", table.seats, tricks, ()))]
        seats = table.seats
        # a plain int is whole: is_whole is asked only of anything else (every trick of every hand is checked)
        return [Problem("winners", "not_seat", {"last": seats - 1, "got": show_json(seat), "value": seat,
                                                "one_based": True}, i, fact=TrickWon(i))
                for i, seat in enumerate(winners)
                if not (0 <= seat < seats if type(seat) is int else is_whole(seat) and 0 <= seat < seats)]

    def _check_counts(self, hand: dict, table: Table) -> list[Problem]:
        tricks = tricks_per_hand(table.seats)
        scoring = scoring_trick_numbers(table.seats, RailSettings.at(table).scoring_from)
        problems = []
        for name, expected in (("scoring_tricks", len(scoring)), ("other_tricks", tricks - len(scoring))):
            if name not in hand:
                continue  # other tricks left out: the bonus is off
            found = check_seat_counts(hand, name, table, expected)
            if not found and sum(hand[name]) != expected:
                found = [Problem(name, "sum", {"total": sum(hand[name]), "expected": expected},
                                 fact=TrickShape(name, table.seats, tricks, tuple(scoring)))]
            problems += found
        return problems

    def _check_trump(self, hand: dict, table: Table) -> list[Problem]:
        if "trump" not in hand:
            return []
        if not RailSettings.at(table).trump:
            return [broken("trump", TrumpOff())]
        return check_choice(hand, "trump", SUITS)

    # --- scoring --------------------------------------------------------
    def score_hand(self, hand: dict, ctx: HandContext) -> Scored:
        table = ctx.table
        scoring, other, won = tally_of(hand, table)
        settings = RailSettings.at(table)
        if not settings.most_other_tricks_bonus:
            return Scored(scoring, _made(RailHand, (scoring, other, won, hand.get("trump"), None)))
        bonus = bonus_for(other, settings.bonus_tie)
        scores = [p + 2 if s in bonus else p for s, p in enumerate(scoring)]
        return Scored(scores, _made(RailHand, (scoring, other, won, hand.get("trump"), bonus)))

    def most_in_a_hand(self, place: HandContext) -> int | None:
        settings, seats = RailSettings.at(place.table), place.seats
        # every scoring trick, and the bonus for the most other tricks when it is played
        return len(scoring_trick_numbers(seats, settings.scoring_from)) \
            + (2 if settings.most_other_tricks_bonus else 0)

    def least_in_a_hand(self, place: HandContext) -> int | None:
        return 0  # nothing is ever taken off

    def random_hand(self, ctx: HandContext, rng: Any) -> dict:
        players = ctx.seats
        return {"winners": [rng.randrange(players) for _ in range(tricks_per_hand(players))]}


class ThirdRailShown(Shown):
    """How Third Rail is shown: the winners line or the counts, trick by trick recording,
    the guide to the scoring tricks, and the sheet's scoring and other tricks."""

    field_words: ClassVar[dict[str, str]] = {"winners": "trick winners"}

    def dealt_out_of_turn(self, ctx: HandContext) -> str:
        table, dealer = ctx.table, ctx.dealt_by
        names = table.players
        return f"{names[dealer]} counts as this hand's dealer, so {names[table.left_of(dealer)]} led the first trick"

    def explanation_words(self, hand: dict, scored: Scored, ctx: HandContext) -> list[str]:
        why, names = scored.why, ctx.players
        assert isinstance(why, RailHand)  # how every hand of the game scores
        scoring, won, bonus = why.scoring, why.won, why.bonus
        numbers = scoring_trick_numbers(ctx.seats, RailSettings.at(ctx.table).scoring_from)
        lines = [f"Tricks {_listing(numbers)} score one point each."]
        if why.trump is not None:
            lines.append(f"Trump was {why.trump} (recorded only; it does not change the score).")
        for seat, count in enumerate(scoring):
            which = f" ({'trick' if count == 1 else 'tricks'} {_listing(won[seat])})" if won and count else ""
            lines.append(f"{names[seat]} won {_tricks(count, 'scoring')}{which}: "
                         f"{count} point{'' if count == 1 else 's'}")
        if bonus is None:
            return lines
        scores = scored.scores
        lines.append(self._bonus_line(why.other, bonus, names))
        lines.append("This hand: " + ", ".join(
            f"{names[s]} {scoring[s]} + 2 = {scores[s]}" if s in bonus else f"{names[s]} {scores[s]}"
            for s in range(ctx.seats)))
        return lines

    @staticmethod
    def _bonus_line(other: list[int], bonus: list[int], names: tuple[str, ...]) -> str:
        most = max(other)
        leaders = [seat for seat, count in enumerate(other) if count == most]
        rest = ", ".join(f"{names[s]} {c}" for s, c in enumerate(other) if s not in leaders)
        rest = f" (others: {rest})" if rest else ""
        if len(leaders) == 1:
            return (f"Most non-scoring tricks: {names[leaders[0]]} with {most}{rest}, "
                    f"so {names[leaders[0]]} scores 2 more.")
        tied = f"Most non-scoring tricks: {name_list([names[s] for s in leaders])} tie with {most} each{rest}"
        if bonus:
            return f"{tied}, so each of them scores 2 more."
        return f"{tied}; with a tie nobody scores the bonus."

    def problem_words(self, fact: Any, place: HandContext) -> dict[str, Any]:
        if isinstance(fact, TrickForms):
            head, tail = ("", ", not both") if fact.both else ("no tricks recorded: ", "")
            # the form names the counts as its fields do ("scoring tricks"), the file by their keys
            return said(f"{head}give either winners (who won each trick) or scoring_tricks and other_tricks "
                        f"(each player's counts){tail}", prefix=False,
                        plain=f"{head}give either winners (who won each trick) or scoring tricks and other tricks "
                              f"(each player's counts){tail}")
        if isinstance(fact, TrumpOff):
            return said("this match plays without trump (setting trump is off), so leave trump out or turn the "
                        "setting on")
        if isinstance(fact, TrickWon):
            return {"who": f"trick {fact.index + 1}"}
        if isinstance(fact, BonusCounts):
            return {"why": "the bonus for most other tricks counts them"}
        assert isinstance(fact, TrickShape)  # the game's last problem fact
        if fact.field == "winners":
            return {"what": f"{fact.tricks} seats, one per trick ({fact.seats} players play {fact.tricks} tricks)"}
        if fact.field == "scoring_tricks":
            return {"why": f" (the scoring tricks are {_listing(list(fact.scoring))})"}
        return {"why": f" ({fact.tricks} tricks a hand, {len(fact.scoring)} of them scoring)"}

    # --- at the table ---------------------------------------------------
    def table_guide(self, ctx: HandContext) -> list[str]:
        table, dealer = ctx.table, ctx.dealt_by
        names, n = table.players, table.seats
        d, left = names[dealer], names[table.left_of(dealer)]
        tricks = tricks_per_hand(n)
        decks = decks_for(n)
        deck = len(cards_in_deck(decks)) * decks
        spare = deck - tricks * n
        settings = RailSettings.at(table)
        if decks == 1:
            cards = "one 52-card deck"
        else:
            cards = ("two decks without the 2s, 3s and 4s (two 40-card decks, 80 cards; "
                     "the 24 low cards are set aside)")
        # with trump on, the card left over is turned up, not set aside
        aside = "" if settings.trump else " and set aside"
        spare_text = (f"; {spare} card{' is' if spare == 1 else 's are'} left over{aside}"
                      if spare else "; no cards are left over")
        scoring = scoring_trick_numbers(n, settings.scoring_from)
        lines = [
            f"{d} deals {cards}, one card at a time clockwise starting with {left}: "
            f"{tricks} cards each{spare_text}.",
        ]
        if settings.trump and spare:
            card = "the card left over" if spare == 1 else f"one of the {spare} cards left over"
            lines.append(f"{d} turns up {card} (not dealt): its suit is trump this hand.")
        elif settings.trump:
            lines.append(f"No card is left over, so {d} turns up the last card dealt to themself: its suit "
                         f"is trump this hand, and the card stays in {d}'s hand.")
        lines += [
            f"{left} (left of the dealer) leads the first trick; the winner of each trick leads the next.",
            "Follow suit if you can. King is high, Ace low" + ("; a trump beats any other suit." if settings.trump
                                                             else "; the highest card of the suit led wins."),
            f"{tricks} tricks: tricks {_listing(scoring)} ({len(scoring)} of them) each score a point "
            "for their winner.",
        ]
        if decks == 2:
            lines.append("With two decks, of two identical cards the one played first wins.")
        if settings.most_other_tricks_bonus:
            tie = "tied players each score 2" if settings.bonus_tie == "each" else "on a tie nobody scores it"
            lines.append(f"The player with the most non-scoring tricks scores 2 more ({tie}).")
        return lines

    # The end of the game is the shared rule (base.Game.ending): once someone
    # reaches the target the single highest total wins; a tie plays another hand.
    rules_template = "rules/third_rail.html"  # the rules page, filled in from the settings

    def hand_form(self, ctx: HandContext) -> list[FieldGroup]:
        players, settings = list(ctx.players), RailSettings.at(ctx.table)
        everyone = tuple(range(len(players)))
        groups = []
        if settings.trump:
            groups.append(FieldGroup("trump", "Trump (the flipped suit, optional)", "radio",
                                     choices=suit_choices(SUITS), optional=True))
        first = settings.scoring_from
        hint = f"Tricks {first}, {first + 3}, {first + 6}, … each score a point." if is_whole(first) else ""
        counts = ["scoring_tricks"]
        seats = len(players)
        scoring = len(scoring_trick_numbers(seats, first)) if is_whole(first) and first in (2, 3) and \
            3 <= seats <= 6 else None
        groups.append(FieldGroup("scoring_tricks", "Scoring tricks won", "seat_int", everyone, hint=hint,
                                 adds_up_to=scoring))
        if settings.most_other_tricks_bonus:  # without the bonus other tricks score nothing: not asked
            groups.append(FieldGroup("other_tricks", "Other tricks won", "seat_int", everyone,
                                     hint="For the bonus: most other tricks scores 2 more.",
                                     adds_up_to=None if scoring is None else tricks_per_hand(seats) - scoring))
            counts.append("other_tricks")
        return groups + [
            FieldGroup("winners", "Or every trick's winner, in order", "winners", optional=True,
                       hint="Seat numbers " + ", ".join(f"{s + 1} = {p}" for s, p in enumerate(players))
                            + ". Leave empty to use the counts above; fill in one or the other, not both.",
                       in_details=True, label="Or: every trick's winner, in order", placeholder="e.g. 1 2 2 3 1 …",
                       alternative_to=tuple(counts)),
        ]

    def hand_summary(self, hand: dict, ctx: HandContext, extra: HandOutput) -> list[str]:
        players = list(ctx.players)
        parts = []
        if "scoring_tricks" in hand:
            parts.append(by_player("scoring tricks", players, hand["scoring_tricks"]))
        elif "winners" in hand:
            parts.append(f"{len(hand['winners'])} tricks by winner")
        if hand.get("trump"):
            parts.append(f"trump {suit_name(hand['trump'])}")
        return parts

    def hand_numbers(self, hand: dict, place: HandContext) -> list[str]:
        # recorded trick by trick: each player's count of tricks, not the list of winners
        if isinstance(hand.get("winners"), list):
            return [by_player("tricks won", list(place.players),
                              [hand["winners"].count(seat) for seat in range(place.seats)])]
        return super().hand_numbers(hand, place)

    # --- the score sheet ----------------------------------------------------
    def sheet_layout(self, place: HandContext) -> SheetLayout:
        settings = RailSettings.at(place.table)
        hand = (SheetColumn("trump", "Trump", "the flipped card's suit", "text"),) if settings.trump else ()
        bonus = settings.most_other_tricks_bonus
        marks = (("+2", "most non-scoring tricks: 2 more"),) if bonus else ()
        return SheetLayout(hand, (SheetColumn("scoring", "Tricks", "scoring tricks won"), POINTS, TOTAL), marks)

    def sheet_cells(self, hand: dict, ctx: HandContext, extra: HandOutput) -> SheetRow:
        table = ctx.table
        scoring, other, _ = tally_of(hand, table)
        settings = RailSettings.at(table)
        bonus = bonus_for(other, settings.bonus_tie) if settings.most_other_tricks_bonus else []
        trump = {"trump": SheetCell(suit_name(hand["trump"]) if hand.get("trump") else "")} if settings.trump \
            else {}
        return SheetRow(hand=trump, seats=[{"scoring": SheetCell(str(count), "+2" if seat in bonus else "")}
                                           for seat, count in enumerate(scoring)])

    def sheet_rules(self, place: HandContext) -> list[str]:
        settings, seats = RailSettings.at(place.table), place.seats
        tricks, decks = tricks_per_hand(seats), decks_for(seats)
        scoring = scoring_trick_numbers(seats, settings.scoring_from)
        deck = "one 52-card deck" if decks == 1 else "two decks without the 2s, 3s and 4s"
        lines = [
            f"{seats} players: {deck}, dealt one card at a time; {tricks} tricks a hand. Left of the dealer "
            "leads; follow suit if you can; King high, Ace low. The deal passes left.",
            f"Tricks {_listing(scoring)} score 1 point each for their winner; write each player's scoring "
            "tricks in Tricks.",
        ]
        if settings.trump:
            spare = len(cards_in_deck(decks)) * decks - tricks * seats
            flipped = "a card left over (not dealt)" if spare else "the last card dealt to themself (it stays in hand)"
            lines.append(f"Trump: the dealer turns up {flipped}; its suit is trump this hand and beats any other suit.")
        if settings.most_other_tricks_bonus:
            tie = "tied players each score 2" if settings.bonus_tie == "each" else "a tie scores no bonus"
            lines.append(f"The player with the most non-scoring tricks scores 2 more ({tie}).")
        lines.append(f"The game ends after a hand in which someone reaches {settings.target}; the highest "
                     "total wins; a tie for highest plays another hand.")
        return lines

    # --- trick by trick and the rules page ---------------------------------
    def trick_tally(self, place: HandContext) -> TrickTally:
        settings, seats = RailSettings.at(place.table), place.seats
        scoring_from, tricks = settings.scoring_from, tricks_per_hand(seats)

        def count(winners: list[int]) -> list[list[int]]:
            points, other, _ = tally_winners(winners, seats, scoring_from)
            return [points, other]

        def to_hand(winners: list[int], trump: str | None) -> dict:
            return {"winners": list(winners), **({"trump": trump} if trump else {})}

        def from_hand(hand: dict) -> tuple[list[int], str | None] | None:
            if not isinstance(hand.get("winners"), list):
                return None
            return list(hand["winners"]), hand.get("trump") if hand.get("trump") in SUITS else None

        def as_counts(hand: dict) -> dict:
            points, other = count(hand["winners"])
            counted = {"scoring_tricks": points, "other_tricks": other}
            return {**counted, **{k: v for k, v in hand.items() if k not in ("winners", "scoring_tricks", "other_tricks")}}

        bonus = bool(settings.most_other_tricks_bonus)
        notes = (f"Most other tricks scores 2 more at the end of the hand; it is added in once all {tricks} "
                 "tricks are in.",) if bonus else ()
        trump = TallyChoice("trump", "Trump this hand (the flipped suit, optional)", "not recorded",
                            suit_faces(SUITS)) if settings.trump else None
        return TrickTally(tricks, (TallyColumn("Points", settles="bonus"), TallyColumn("Other tricks")), count,
                          to_hand, from_hand, as_counts,
                          mark=TrickMark(lambda number: is_scoring_trick(number, scoring_from), "a scoring trick",
                                         "★", "scoring trick"),
                          choice=trump, notes=notes)

    def rules_context(self, place: HandContext) -> dict:
        return {"rail": [{"players": n, "tricks": tricks_per_hand(n),
                          "scoring": scoring_trick_numbers(n, RailSettings.at(place.table).scoring_from)}
                         for n in range(3, 7)]}

    # --- the seat picture ---------------------------------------------------------
    def seating(self, ctx: HandContext, hand: dict | None = None) -> Seating:
        """The shared flow (the dealer deals, left of the dealer leads), and the trump the
        dealer turns up when the table plays with one."""
        table = ctx.table
        shared = super().seating(ctx, hand)
        if not RailSettings.at(table).trump:
            return shared
        return Seating(tuple(Place(p.name, p.seat, (*p.roles, "turns up trump"), p.deals, p.leads) if p.deals else p
                             for p in shared.places), shared.notes)


class ThirdRailReferee(Referee):
    """Third Rail's referee: one deck for 3 or 4 players, two (no 2s, 3s, 4s) for 5 or 6;
    a trump only when the table plays with one."""

    args = ("trump", "players")  # the query keys the referee page reads

    def context(self, hand: dict, place: HandContext, in_match: bool) -> dict:
        # outside a match the table says how many play (four unless it says otherwise)
        context: dict = {"players": place.seats if in_match else 4, "trump": None, "trump_fixed": False,
                         "trump_each_hand": in_match and RailSettings.at(place.table).trump}
        if in_match and not RailSettings.at(place.table).trump:
            context["trump_fixed"] = True  # a match without the trump variation
        else:
            context["trump"] = hand.get("trump") if hand.get("trump") in SUITS else None
        return context

    def read(self, trick: Trick, args: Any) -> list[str]:
        problems, context = [], trick.facts
        if "players" in args and not trick.in_match:
            raw = args.get("players", "")
            if raw.isdecimal() and len(raw) <= 2 and 3 <= int(raw) <= 6:  # int() refuses 4,301+ digits
                context["players"] = int(raw)
            else:
                problems.append(f"players: Third Rail is for 3 to 6 players, got \"{raw[:10]}\"")
        if "trump" in args and not context["trump_fixed"]:
            context["trump"] = args.get("trump") or None
        return problems

    def setup(self, trick: Trick) -> Setup:
        setup, context = Setup(), trick.facts
        if not trick.in_match:
            setup.choices.append(Choice("players", "Players", tuple(
                (str(n), f"{n} (two decks)" if n > 4 else str(n)) for n in range(3, 7))))
        if context["trump_fixed"]:
            setup.notes.append("This match plays without trump. King high, Ace low.")
        else:
            if context.get("trump_each_hand"):  # a match that flips a trump every hand: this hand's suit
                setup.choices.append(Choice("trump", "Trump", suit_options(_SUIT_LETTERS.values()), required=True))
            else:
                setup.choices.append(Choice("trump", "Trump", (("", "no trump"),)
                                            + suit_options(_SUIT_LETTERS.values())))
        decks = self.decks(trick)
        setup.hints.append(f"{context['players']} players: " + (
            "two decks without 2s, 3s and 4s, so two identical cards can meet" if decks == 2 else "one 52-card deck")
            + ".")
        return setup

    def slots(self, trick: Trick) -> int:
        return trick.facts.get("players") or 4

    def decks(self, trick: Trick) -> int:
        return decks_for(trick.facts.get("players") or 4)

    def options(self, decks: int) -> list[Face]:
        return [french_face(c) for c in cards_in_deck(decks)]

    def groups(self, decks: int) -> list[tuple[str, str, list[Face]]]:
        return french_groups(cards_in_deck(decks), reverse=True)  # King high, Ace low: high to low like the others

    def face(self, code: str) -> Face | None:
        # one deck holds every card (two decks only leave some out), so any card of
        # the game has a face: a 2 picked for 3-4 players must not show "?"
        return french_face(code) if is_french(code, cards_in_deck(1)) else None

    def judge(self, cards: list[str], trick: Trick) -> tuple[int, str]:
        return trick_winner(cards, trick.facts.get("trump"), self.decks(trick))


class ThirdRailStats(Stats):
    """Third Rail's statistics: scoring and other tricks won."""

    figures = (
        Figure("scoring", "Scoring tricks per hand", "per_hand"),
        Figure("bonus", "Most-other-tricks bonuses"),
    )

    def hand_facts(self, hand: dict, ctx: HandContext, scores: list[int], extra: HandOutput,
                   before: HandOutput) -> list[dict[str, int]]:
        table = ctx.table
        scoring, _, _ = tally_of(hand, table)
        facts: list[dict[str, int]] = []
        for seat, count in enumerate(scoring):
            found = {"scoring": count}
            if scores[seat] > count:  # the bonus is the only other point a hand gives
                found["bonus"] = 1
            facts.append(found)
        return facts


class ThirdRail(Game):
    key = "third_rail"
    title = "Third Rail"
    summary = "3 to 6 players, standard deck: every third trick scores a point for its winner"
    min_players = 3
    max_players = 6
    settings = (
        Setting("target", 12, "Target",
                "The game ends after a hand in which someone reaches this many points; the highest total wins.",
                minimum=1),
        Setting("scoring_from", 3, "First scoring trick",
                "3 means tricks 3, 6, 9, … score a point; 2 means tricks 2, 5, 8, … score instead.",
                minimum=2, maximum=3),
        Setting("most_other_tricks_bonus", False, "Bonus for most other tricks",
                "The player who wins the most non-scoring tricks in a hand scores 2 more.",
                kind="bool"),
        Setting("bonus_tie", "each", "Tied for most other tricks",
                "With the bonus on: \"each\" gives 2 to every player tied for the most non-scoring tricks; "
                "\"none\" gives the bonus to nobody when two or more tie.",
                kind="choice", choices=("each", "none"), applies_when=("most_other_tricks_bonus", True)),
        Setting("trump", False, "Flip a trump card",
                "After the deal the dealer turns up a card, and its suit is trump for that hand.",
                kind="bool"),
    )
    settings_type = RailSettings
    hand_fields = ("winners", "scoring_tricks", "other_tricks", "trump")

    # Either form will do, so neither is required; check_hand insists on exactly one.
    required_fields = ()
    sample_settings: ClassVar[tuple[dict, ...]] = ({}, {"target": 5, "most_other_tricks_bonus": True})

    def long_match(self, hands: int, seats: int) -> dict | None:
        # a hand is worth a few points: a target no total reaches
        return {"target": 10**9}

    rules = ThirdRailRules()
    shown = ThirdRailShown()
    referee = ThirdRailReferee()
    stats = ThirdRailStats()

    def optional_fields(self, place: HandContext) -> tuple[str, ...]:
        # Either form will do, so neither is optional on its own; other tricks only
        # while the bonus that counts them is off (the ruling on other_tricks).
        return ("trump",) if RailSettings.at(place.table).most_other_tricks_bonus else ("trump", "other_tricks")
