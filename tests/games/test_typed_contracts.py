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
    sheet = view.blank_sheet("pebbles", result.settings, list(result.players), 2, result=result)
    assert [[cell.text for cell in seat] for seat in sheet["carried"]["seats"]] == [["", "2", "4"], ["", "2", "4"]]


def settings_hooks_not_typed(classes: list[type]) -> list[str]:
    """Every method of ``classes`` given the settings other than as a game's record (a
    ``GameSettings``, or the ``Rules`` type variable bound to one): ``settings: dict``."""
    found = []
    for cls in classes:
        for name, member in inspect.getmembers(cls, inspect.isfunction):
            hint = typing.get_type_hints(member).get("settings")
            if hint is None:
                continue
            kinds = [k.__bound__ if isinstance(k, typing.TypeVar) else k for k in typing.get_args(hint) or (hint,)]
            if not all(k is type(None) or (isinstance(k, type) and issubclass(k, GameSettings)) for k in kinds):
                found.append(f"{cls.__qualname__}.{name}: settings: {hint}")
    return found


def test_every_hook_given_the_settings_is_given_the_games_typed_record():
    from tests.oddball import Oddball

    parts = [Rules, Shown, Referee, Stats, Game, Setting]
    for game in [*GAMES.values(), Oddball(), Pebbles()]:
        parts += [type(game), type(game.rules), type(game.shown), type(game.stats)]
        parts += [type(game.referee)] if game.referee else []
    assert settings_hooks_not_typed(parts) == []


def test_a_hook_given_the_settings_as_a_dict_is_found():
    class Untyped(Rules[PebblesSettings]):
        def target(self, settings: dict) -> Target | None:  # type: ignore[override]
            return None

    class UntypedShown(Shown):
        def rules_context(self, settings: typing.Mapping[str, int] | None) -> dict:  # type: ignore[override]
            return {}

    assert settings_hooks_not_typed([Untyped, UntypedShown]) == [
        "test_a_hook_given_the_settings_as_a_dict_is_found.<locals>.Untyped.target: settings: <class 'dict'>",
        "test_a_hook_given_the_settings_as_a_dict_is_found.<locals>.UntypedShown.rules_context: "
        "settings: typing.Optional[typing.Mapping[str, int]]"]


def test_a_games_rules_read_its_own_record_or_the_game_is_refused():
    assert Pebbles.rules.settings_type is PebblesSettings  # declared once, as Rules[PebblesSettings]

    class Unbound(Rules):  # type: ignore[type-arg]
        pass

    with pytest.raises(TypeError, match=r"Lumps: its rules read GameSettings, not its settings record "
                                        r"PebblesSettings \(declare them as Rules\[PebblesSettings\]\)"):
        class Lumps(Pebbles):
            rules = Unbound()
