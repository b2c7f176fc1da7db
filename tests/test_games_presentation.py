"""One generic test over every registered game: what each game describes for the
web layer (hand form, summary, CSV columns, trick referee, tally, rules page,
random hands) works on random hands, so a new game needs no web code."""
from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from werkzeug.datastructures import MultiDict

from scorekeeper import engine, store
from scorekeeper.engine import replay, showing
from scorekeeper.games import GAMES
from scorekeeper.games.base import HandOutput, Table
from scorekeeper.samples import NAMES, random_match
from scorekeeper.web.forms import hand_forms
from scorekeeper.web.views import exports
from tests.places import blank_place

GAME_KEYS = sorted(GAMES)
REFEREE_KEYS = sorted(key for key, game in GAMES.items() if game.referee is not None)
KINDS = {"seat_int", "int", "radio", "seat", "bool", "seat_rank", "seat_ticks", "winners", "counts"}


def seat_counts(key):
    game = GAMES[key]
    return range(game.min_players, game.max_players + 1)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_random_hands_are_valid(key):
    game, rng = GAMES[key], random.Random(1)
    for seats in seat_counts(key):
        table = Table(tuple(NAMES[:seats]), game.defaults())
        for dealer in range(seats):
            place = game.empty_place(table, dealer)
            hand = game.rules.random_hand(place, rng)
            assert set(hand) <= set(game.hand_fields)
            assert game.rules.check_hand(hand, place) == [], hand


@pytest.mark.parametrize("key", GAME_KEYS)
def test_hand_form_describes_every_field(key):
    game = GAMES[key]
    for seats in seat_counts(key):
        players = NAMES[:seats]
        for dealer in (None, *range(seats)):
            groups = game.shown.hand_form(game.empty_place(Table(tuple(players), game.defaults()), dealer))
            names = [g.name for g in groups]
            assert set(game.required_fields) <= set(names)
            assert set(names) - {g.name for g in groups if g.kind == "counts"} <= set(game.hand_fields)
            for g in groups:
                assert g.kind in KINDS and g.legend
                assert sorted(g.seats) in ([], list(range(seats))), g
                if g.kind in ("radio", "seat_rank"):
                    assert g.choices
                if g.kind == "seat_ticks":
                    assert len(g.seat_choices) == len(g.seats)
                if g.kind == "counts":
                    assert game.shown.card_counter() is not None


def _formdata(data: dict) -> MultiDict:
    out = MultiDict()
    for name, value in data.items():
        if isinstance(value, list):
            for v in value:
                out.add(name, v)
        elif value is True:
            out.add(name, "y")
        elif value is not False and value is not None:
            out.add(name, str(value))
    return out


@pytest.mark.parametrize("key", GAME_KEYS)
def test_hand_form_reads_back_a_random_hand(app, key):
    """A random hand put in the form the game describes comes back out unchanged."""
    game, rng = GAMES[key], random.Random(2)
    bools = set()
    with app.test_request_context():
        for seats in seat_counts(key):
            players = NAMES[:seats]
            for dealer in range(seats):
                place = game.empty_place(Table(tuple(players), game.defaults()), dealer)
                hand = game.rules.random_hand(place, rng)
                _, groups = hand_forms.build(GAMES[key], place)
                bools = {g.name for g in groups if g.kind == "bool"}
                form = hand_forms.make_form(GAMES[key], place,
                                            formdata=_formdata(hand_forms.hand_to_data(groups, hand)))
                reading = hand_forms.read(form)
                assert reading.missing == []
                assert reading.hand == {**{b: False for b in bools}, **hand}


@pytest.mark.parametrize("key", GAME_KEYS)
def test_summary_csv_and_scoreboard_from_a_random_match(key, tmp_path):
    match = random_match(key, 12, seed=3)
    result = replay(match)
    for scored, hand in zip(result.hands, match.hands):
        summary = engine.hand_summary(GAMES[key], hand, result.place(scored.number), scored.extra)
        assert isinstance(summary, str) and summary.strip()
    db = store.connect(str(tmp_path / "matches.db"))
    try:
        record = store.get_record(db, store.create_match(db, match))
    finally:
        db.close()
    rows = list(exports.csv_rows(record, result))
    assert len(rows) == len(match.hands) + 1
    assert all(len(row) == len(rows[0]) for row in rows)
    counter = GAMES[key].shown.seat_counter
    # the count shown beside the totals is one of the hand's own output fields (the rescore output's)
    assert counter is None or all(engine.seat_counts(GAMES[key], h) in h.extra.as_json().values() for h in result.hands)
    shown = showing(result, match.hands)  # what the match page shows, the engine's record of it
    assert shown.progress or shown.percent is None
    assert [h.number for h in shown.hands] == [h.number for h in result.hands]


@pytest.mark.parametrize("key", REFEREE_KEYS)
def test_referee_judges_random_tricks(key):
    game, rng = GAMES[key], random.Random(4)
    referee = game.referee
    assert referee is not None
    for seats in seat_counts(key):
        match = random_match(key, 3, seed=seats, players=seats)
        result = replay(match)
        for typed in ({}, match.hands[-1]):  # the hand in progress: nothing typed yet, or all of it
            context = referee.trick(typed, result.next_place(), in_match=True)
            setup = referee.setup(context)
            assert all(c.options for c in setup.choices)
            for choice in setup.choices:  # not known yet: the referee asks, and the table picks
                if choice.required and not context.facts.get(choice.name):
                    context.facts[choice.name] = choice.options[0][0]
            slots, decks = referee.slots(context), referee.decks(context)
            options = referee.options(decks)
            grid = [f for _, _, faces in referee.groups(decks) for f in faces]
            assert sorted(f.code for f in grid) == sorted(f.code for f in options)
            assert all(referee.face(f.code) == f for f in options)
            assert referee.face("not a card") is None
            for _ in range(20):
                cards = [f.code for f in rng.sample(options, slots)]
                winner, reason = referee.judge(cards, context)
                assert 0 <= winner < slots and reason


@pytest.mark.parametrize("key", GAME_KEYS)
def test_rules_page_and_tally_are_described(key):
    game = GAMES[key]
    assert game.shown.rules_template.startswith("rules/")
    seats = game.min_players
    assert isinstance(game.shown.rules_context(blank_place(game, game.defaults(), seats, None)), dict)
    tally = game.shown.trick_tally(blank_place(game, game.defaults(), seats))
    if tally is not None:  # its shape is the generic tally test's (tests/test_games_generic.py)
        winners = [random.Random(5).randrange(seats) for _ in range(tally.tricks)]
        assert [len(column) for column in tally.count(winners)] == [seats] * len(tally.columns)
        table = Table(tuple(NAMES[:seats]), game.defaults())
        assert game.rules.check_hand(tally.to_hand(winners, None), game.empty_place(table, 0)) == []


@pytest.mark.parametrize("key", GAME_KEYS)
def test_score_sheet_columns_and_cells(key):
    """Every game lays out its score sheet with the engine's points and totals in each
    player's group, gives a cell for each of its own columns on random hands, and a
    rules summary for the blank sheet with its settings filled in."""
    from scorekeeper.games.base import POINTS, TOTAL, SheetCell
    from scorekeeper.samples import lasting_settings, random_match

    game = GAMES[key]
    for seats in seat_counts(key):
        # up to 12 hands: as many as the game plays (a fixed schedule may play fewer)
        settings = dict(game.defaults(), **lasting_settings(key, 12, seats))
        layout = game.shown.sheet_layout(blank_place(game, settings, seats))
        assert POINTS in layout.seat and TOTAL in layout.seat
        keys = [c.key for c in layout.hand + layout.seat]
        assert len(keys) == len(set(keys)) and all(c.label for c in layout.hand + layout.seat)
        own = {c.key for c in layout.seat} - {"points", "total"}
        match = random_match(key, 12, seed=seats, players=seats, settings=settings)
        result = replay(match)
        marks = {m for m, _ in layout.marks}
        for scored, hand in zip(result.hands, match.hands):
            row = game.shown.sheet_cells(hand, result.place(scored.number), scored.extra)
            assert set(row.hand) == {c.key for c in layout.hand}
            assert len(row.seats) == seats and all(set(cells) == own for cells in row.seats)
            for cell in [*row.hand.values(), *(c for cells in row.seats for c in cells.values())]:
                assert isinstance(cell, SheetCell) and isinstance(cell.text, str)
                assert all(m in marks for m in cell.mark.split()), cell  # every mark is explained
        rules = game.shown.sheet_rules(blank_place(game, game.defaults(), seats))
        assert rules and all(isinstance(line, str) and line for line in rules)
        target = game.rules.target(blank_place(game, game.defaults(), seats))
        assert target is None or any(str(target.points) in line for line in rules)


@dataclasses.dataclass(frozen=True)
class Misshapen(HandOutput):
    """A game's output whose count per seat is of another shape."""

    counts: Any

    def seat_counts(self) -> Any:
        return self.counts


@pytest.mark.parametrize("key", sorted(k for k, g in GAMES.items() if g.shown.seat_counter))
def test_a_declared_count_per_seat_of_another_shape_is_refused_by_name(key):
    """What the pages read of a game's output (the count its record declares) is checked where
    they read it: a count that is not a whole number per seat names the game, the hand and the count."""
    game = GAMES[key]
    result = replay(random_match(key, 2, seed=1))
    hand, field = result.hands[-1], game.shown.seat_counter
    for wrong in (None, [1], ["1"] * len(result.players), [True] * len(result.players)):
        bad = dataclasses.replace(hand, extra=Misshapen(wrong))
        with pytest.raises(TypeError, match=rf"{key}: hand 2's {field} are not a whole number per seat"):
            engine.seat_counts(game, bad)


def test_what_the_match_page_shows_is_one_frozen_record_of_plain_fields():
    """The web reads the engine's record of the page (``engine.showing``) by its fields: no part
    of it is a property or method that would run the engine or a game when a page reads it."""
    from scorekeeper import engine
    from scorekeeper.games.base import Place, Seating

    parts = [engine.Showing, engine.ShownHand, engine.ShownStanding, engine.ShownNeed, engine.ShownGuide,
             engine.ShownPreview, Seating, Place]
    for part in parts:
        assert dataclasses.is_dataclass(part) and part.__dataclass_params__.frozen, part  # type: ignore[attr-defined]
        behaviour = [name for name, value in vars(part).items() if not name.startswith("__")
                     and (isinstance(value, property) or callable(value))]
        assert behaviour == [], (part, behaviour)
    for key in GAME_KEYS:
        match = random_match(key, 6, seed=5)
        shown = showing(replay(match), match.hands, first=4)
        assert [h.number for h in shown.hands] == list(range(4, len(match.hands) + 1))
        if shown.guide is not None:
            seating = shown.guide.seating
            assert seating.drawn == (tuple(seating.places[i] for i in seating.seated) if seating.seated
                                     else seating.places)
