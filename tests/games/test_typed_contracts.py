"""What crosses from a game to the rest of the app is typed, and declared by the game: its settings
as a record with one typed field per setting (``Game.settings_type``), what it scores beyond the
points as a record of its own (``Game.output_type``), each field in the rescore output under its
name. Nothing outside a game reads either by a string key."""
from __future__ import annotations

import dataclasses
import inspect
import re
import typing
from pathlib import Path

import pytest

from scorekeeper.engine import Match, replay, seat_counter, showing
from scorekeeper.games import GAMES
from scorekeeper.games.base import (
    POINTS,
    TOTAL,
    Game,
    GameSettings,
    HandContext,
    HandOutput,
    Problem,
    Referee,
    Rules,
    Scored,
    Setting,
    SheetColumn,
    SheetLayout,
    Shown,
    Stats,
    Table,
    Target,
)
from scorekeeper.samples import random_match
from scorekeeper.web.model import view

ROOT = Path(__file__).resolve().parents[2]

# The type each kind of setting has once the engine has checked it (``Setting.parse``).
KIND_TYPES: dict[str, object] = {"int": int, "bool": bool, "choice": str, "text": str,
                                 "int_or_null": int | None, "table": dict[str, int]}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_declares_its_settings_as_a_record_typed_as_each_setting_is_checked(key):
    game = GAMES[key]
    record = game.settings_type
    assert record is not GameSettings, f"{key} declares no settings record"
    hints = typing.get_type_hints(record)
    fields = [f.name for f in dataclasses.fields(record)]
    assert fields == [s.name for s in game.settings]
    assert {s.name: hints[s.name] for s in game.settings} == {s.name: KIND_TYPES[s.kind] for s in game.settings}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_record_reads_the_settings_in_force_and_the_defaults_of_those_left_out(key):
    game = GAMES[key]
    for chosen in game.sample_settings:
        settings = {**game.defaults(), **chosen}
        record = game.settings_type.of(settings)
        assert dataclasses.asdict(record) == settings
        assert game.settings_type.of(chosen) == record  # a setting left out reads as its default
        table = Table(tuple(f"P{seat}" for seat in range(game.min_players)), settings)
        assert game.settings_type.at(table) == record and game.settings_type.at(table) is game.settings_type.at(table)


def test_a_record_that_is_not_the_games_settings_is_refused_where_the_game_is_declared():
    @dataclasses.dataclass(frozen=True)
    class Wrong(GameSettings):
        goal: int

    with pytest.raises(TypeError, match="Wrong: fields goal must be the game's settings, in order: target"):
        class Misdeclared(Game):
            settings = (Setting("target", 10, "Target", "the score that ends it"),)
            settings_type = Wrong


@pytest.mark.parametrize("key", sorted(GAMES))
def test_what_a_game_scores_is_its_own_record_and_the_rescore_output_gives_its_fields(key):
    game = GAMES[key]
    result = replay(random_match(key, 12, seed=3))
    fields = [f.name for f in dataclasses.fields(game.output_type)]
    engine_keys = ["number", "dealer", "scores", "totals", "explanation"]
    for hand in result.hands:
        assert type(hand.extra) is game.output_type
        assert list(hand.as_json()) == engine_keys + fields
    counts = [hand.extra.seat_counts() for hand in result.hands]
    # a count per seat beside the totals exactly where the game names one
    assert all(c is None for c in counts) == (game.shown.seat_counter is None)


def test_no_game_declares_an_output_field_the_engine_gives():
    engine_keys = {"number", "dealer", "scores", "totals", "explanation"}
    assert all(not engine_keys & {f.name for f in dataclasses.fields(g.output_type)} for g in GAMES.values())


# A game's output read by a key name (extra["bags"], extra.get("holder")), or a setting read by
# a string key in a game's own code (settings["target"], ctx.settings.get("trump")).
OUTPUT_BY_KEY = re.compile(r"\bextra(\.as_json\(\))?(\[|\.get\()")
SETTING_BY_KEY = re.compile(r"settings(\[|\.get\()\s*['\"]")


def lines_matching(paths: list[Path], pattern: re.Pattern[str]) -> list[str]:
    return [f"{path.relative_to(ROOT)}:{number}: {line.strip()}" for path in paths
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if pattern.search(line)]


def test_nothing_reads_a_games_output_by_a_key_name():
    assert lines_matching(sorted((ROOT / "scorekeeper").rglob("*.py")), OUTPUT_BY_KEY) == []


def test_games_read_their_settings_as_typed_fields_not_string_keys():
    own = [path for path in sorted((ROOT / "scorekeeper" / "games").glob("*.py"))
           if path.stem in GAMES or path.stem == "base"]
    assert lines_matching(own, SETTING_BY_KEY) == []


@dataclasses.dataclass(frozen=True)
class PebblesOutput(HandOutput):
    kept: list[int]  # named unlike the count it gives: the pages must not need the two to match

    def seat_counts(self) -> list[int]:
        return self.kept


@dataclasses.dataclass(frozen=True)
class PebblesSettings(GameSettings):
    per_hand: int


class PebblesRules(Rules[PebblesSettings]):
    """Everyone scores 1 a hand and keeps ``per_hand`` pebbles more."""

    def check_hand(self, hand: dict, ctx: HandContext) -> list[Problem]:
        return []

    def score_hand(self, hand: dict, ctx: HandContext) -> Scored:
        kept = [ctx.number * PebblesSettings.at(ctx.table).per_hand] * ctx.seats
        return Scored([1] * ctx.seats, None, PebblesOutput(kept))


class PebblesShown(Shown):
    seat_counter = "pebbles"

    def explanation_words(self, hand: dict, scored: Scored, ctx: HandContext) -> list[str]:
        return ["one each"]

    def sheet_layout(self, place: HandContext) -> SheetLayout:
        return SheetLayout((), (POINTS, TOTAL, SheetColumn("pebbles", "Peb", "pebbles kept")))

    def sheet_rules(self, place: HandContext) -> list[str]:
        return ["Everyone scores 1 a hand."]


class Pebbles(Game):
    key, title, summary = "pebbles", "Pebbles", "everyone keeps pebbles"
    min_players, max_players = 2, 4
    settings = (Setting("per_hand", 3, "Pebbles a hand", "kept by each player every hand", minimum=1),)
    settings_type = PebblesSettings
    output_type = PebblesOutput
    rules = PebblesRules()
    shown = PebblesShown()


def test_the_pages_read_a_count_per_seat_through_the_record_whatever_its_field_is_named(monkeypatch):
    game = Pebbles()
    monkeypatch.setitem(GAMES, game.key, game)
    result = replay(Match("pebbles", ["Ann", "Bob"], {"per_hand": 2}, 0, [{}, {}]))
    assert result.hands[-1].as_json()["kept"] == [4, 4]  # the rescore output names the field as declared
    assert seat_counter(game, result.hands[-1]) == ("4 pebbles", "4 pebbles")
    assert showing(result, [{}, {}]).counter == ("4 pebbles", "4 pebbles")  # what the page shows
    sheet = view.blank_sheet(game, result.settings, list(result.players), 2, result=result)
    assert [[cell.text for cell in seat] for seat in sheet["carried"]["seats"]] == [["", "2", "4"], ["", "2", "4"]]


def carries_the_place(kind: object) -> bool:
    """Whether a parameter of this type is the place (``HandContext``) or a record the engine built
    around it (a dataclass with a ``place`` field: ``NeedsFacts``, ``ProgressFacts``, ``Trick``)."""
    if kind is HandContext:
        return True
    return isinstance(kind, type) and dataclasses.is_dataclass(kind) \
        and typing.get_type_hints(kind).get("place") is HandContext


# The public methods of a game's parts not told the place, each with why: none of them is
# asked about a match (nothing here reads where a match stands).
NOT_TOLD_THE_PLACE = {
    "Game.long_match": "designs the settings of a sample match before any exists: no table, no players; "
                       "what it gives is what a table is made from",
    "Game.defaults": "the settings before any table: what a place's table is made from",
    "Game.settings_of": "makes the settings record a place's table holds (Rules.settings_at reads it)",
    "Game.empty_place": "the engine's builder of the place itself",
    "Game.unplayed_place": "builds the place where no match exists",
    "Rules.settings_at": "how a hook reads its place's settings: settings_at(place.table)",
    "Rules.start": "the game's state before the first hand: what the empty place is built with",
    "Shown.field_word": "a hand field's word, the same at every table (form labels, problem messages)",
    "Shown.counter_text": "one count beside a total in words, the same at every table",
    "Shown.card_counter": "the deck's counter for the form's counts group (the group comes from "
                          "Shown.hand_form(place)), the same at every table",
    "Referee.options": "the cards of a deck (how many decks: Referee.decks(trick)), the same at every table",
    "Referee.groups": "the tap grid of a deck (how many decks: Referee.decks(trick))",
    "Referee.face": "a card's face, the same at every table",
}


def hooks_not_told_the_place(classes: list[type]) -> list[str]:
    """Every public method ``classes`` define (a part's own hooks, or a game's overrides of them)
    with no parameter that carries the place, other than the reasoned exceptions of the part it
    overrides (``NOT_TOLD_THE_PLACE``)."""
    found = []
    for cls in classes:
        for name, member in vars(cls).items():
            if name.startswith("_") or not inspect.isfunction(member):
                continue
            base = next((f"{part.__name__}.{name}" for part in (Rules, Shown, Referee, Stats, Game)
                         if issubclass(cls, part) and hasattr(part, name)), f"{cls.__qualname__}.{name}")
            if base in NOT_TOLD_THE_PLACE:
                continue
            hints = typing.get_type_hints(member)
            hints.pop("return", None)
            if not any(carries_the_place(kind) for hint in hints.values() for kind in typing.get_args(hint) or (hint,)):
                found.append(f"{cls.__qualname__}.{name}({', '.join(hints)})")
    return found


def game_parts() -> list[type]:
    from tests.oddball import Oddball

    parts: list[type] = [Rules, Shown, Referee, Stats, Game]
    for game in [*GAMES.values(), Oddball(), Pebbles()]:
        parts += [type(game), type(game.rules), type(game.shown), type(game.stats)]
        parts += [type(game.referee)] if game.referee else []
    return parts


def test_every_game_hook_is_told_the_place_the_engine_built():
    assert hooks_not_told_the_place(game_parts()) == []


def test_the_exceptions_are_hooks_that_exist():
    # a hook renamed or gone leaves no exception behind that a new hook could hide under
    for name in NOT_TOLD_THE_PLACE:
        part, method = name.split(".")
        assert callable(getattr({"Rules": Rules, "Shown": Shown, "Referee": Referee, "Game": Game}[part], method))


def test_a_hook_told_where_it_is_some_other_way_is_found():
    class ByTheSettings(Rules[PebblesSettings]):
        def target(self, settings: PebblesSettings) -> Target | None:  # type: ignore[override]
            return None

    class ByThePlayers(Shown):
        def problem_words(self, fact: typing.Any, players: tuple[str, ...]) -> dict:  # type: ignore[override]
            return {}

        def seat_word(self, table: Table, seat: int) -> str:  # a new hook of its own, told the table
            return ""

    assert hooks_not_told_the_place([ByTheSettings, ByThePlayers]) == [
        "test_a_hook_told_where_it_is_some_other_way_is_found.<locals>.ByTheSettings.target(settings)",
        "test_a_hook_told_where_it_is_some_other_way_is_found.<locals>.ByThePlayers.problem_words(fact, players)",
        "test_a_hook_told_where_it_is_some_other_way_is_found.<locals>.ByThePlayers.seat_word(table, seat)"]


def test_a_games_rules_read_its_own_record_or_the_game_is_refused():
    assert Pebbles.rules.settings_type is PebblesSettings  # declared once, as Rules[PebblesSettings]

    class Unbound(Rules):  # type: ignore[type-arg]
        pass

    with pytest.raises(TypeError, match=r"Lumps: its rules read GameSettings, not its settings record "
                                        r"PebblesSettings \(declare them as Rules\[PebblesSettings\]\)"):
        class Lumps(Pebbles):
            rules = Unbound()
