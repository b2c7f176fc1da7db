"""Each game owns everything about itself: outside its own module (or package) in
scorekeeper/games/, the registry and its rules page, no code, template or static file names a game
key. The web layer renders what the game describes and never branches on a key."""
from __future__ import annotations

import ast
import io
import os
import re
import sys
from pathlib import Path

import pytest

from scorekeeper import store
from scorekeeper.engine import Match, replay
from scorekeeper.games import GAMES
from scorekeeper.samples import NAMES

ROOT = Path(__file__).resolve().parent.parent
SEARCHED = ("scorekeeper",)  # templates and static files live inside the package


@pytest.fixture
def registry():
    """The registry, put back whole and in its own order after the test: the pages list the
    games in that order, and monkeypatch.delitem's undo would add a game back at the end."""
    kept = dict(GAMES)
    yield GAMES
    GAMES.clear()
    GAMES.update(kept)


def owned(path: Path) -> bool:
    """The game's own files: games/<key>.py, games/<key>/..., the registry, and its rules page
    templates/rules/<key>.html (its page may use words its key is part of)."""
    if path.parent == ROOT / "scorekeeper" / "templates" / "rules" and path.stem in GAMES:
        return True
    relative = path.relative_to(ROOT / "scorekeeper" / "games") if (ROOT / "scorekeeper" / "games") in path.parents \
        else None
    if relative is None:
        return False
    return relative.as_posix() == "__init__.py" or relative.parts[0].removesuffix(".py") in GAMES


def test_no_file_outside_a_game_names_a_game_key():
    found = []
    for top in SEARCHED:
        for path in sorted((ROOT / top).rglob("*")):
            if not path.is_file() or path.suffix not in (".py", ".html", ".js", ".css", ".txt") or owned(path):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                found += [f"{path.relative_to(ROOT)}:{number}: {key}" for key in GAMES if key in line]
    assert found == []



def test_only_a_games_own_rules_page_is_its_own():
    rules = ROOT / "scorekeeper" / "templates" / "rules"
    assert all(owned(rules / f"{key}.html") for key in GAMES)
    assert not owned(rules / "_ruling.html") and not owned(rules.parent / "rules.html")
    assert not owned(rules.parent / f"{next(iter(GAMES))}.html")  # a key's name elsewhere is not its own


# Past the store a match's game travels as the Game itself (``MatchRecord.played``, the
# ``played`` of the store's rows, ``MatchResult.played``); the registry is asked only where a
# key arrives from outside the app: these functions, each reading one from an address or a
# form field, and answering an unknown one with a clear page, never a 500. A helper that takes
# a key and looks it up again ("view.game_title(info.game)") is what they leave no room for.
ENTRY_POINTS = {
    ("web/views/matches.py", "_game_from_request"),  # the new-match form's game field (or its address)
    ("web/views/referee.py", "game_of"),  # /referee/<game>
    ("web/views/exports.py", "blank"),  # /print/blank/<game>
    ("web/views/rules.py", "rules"),  # /rules/<game>
    ("web/views/stats.py", "hands"),  # /stats/hands?game=
}
WEB = ROOT / "scorekeeper" / "web"
TEMPLATES = ROOT / "scorekeeper" / "templates"


def registry_lookups(tree: ast.AST) -> list[tuple[str, int]]:
    """(enclosing function, line) of every ``GAMES[...]`` and ``GAMES.get(...)`` in ``tree``
    (a module's own name for the registry or ``games.GAMES``); iterating over every game, or
    asking ``key in GAMES``, is not a lookup."""
    def is_registry(node: ast.AST) -> bool:
        return (isinstance(node, ast.Name) and node.id == "GAMES") or \
            (isinstance(node, ast.Attribute) and node.attr == "GAMES")

    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, function: str) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name
        if (isinstance(node, ast.Subscript) and is_registry(node.value)) or (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
                and is_registry(node.func.value)):
            found.append((function, node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, "<module>")
    return found


def test_in_the_web_and_the_cli_only_the_entry_points_look_a_game_up():
    found = [f"{path.relative_to(ROOT)}:{line}: in {function}()"
             for path in [*sorted(WEB.rglob("*.py")), ROOT / "scorekeeper" / "cli.py"]
             for function, line in registry_lookups(ast.parse(path.read_text(encoding="utf-8")))
             if (path.relative_to(ROOT / "scorekeeper").as_posix(), function) not in ENTRY_POINTS]
    assert found == []
    # each entry point named is one still (a renamed one would leave its lookups unlisted above)
    assert all(function in {f for f, _ in registry_lookups(ast.parse((ROOT / "scorekeeper" / path).read_text()))}
               for path, function in ENTRY_POINTS)


# A template handing a function a record's key ("game_title(info.game)", "setting_args(t.game, ...)"):
# the function can only look the game up again. Addresses carry the key as a keyword
# (``url_for(..., game=info.game)``), which this leaves alone.
KEY_HANDED_ON = re.compile(r"\b\w+\(\s*(?:[^()]*?,\s*)?[\w.]*\bgame\s*[,)]")


def test_no_template_hands_a_function_a_games_key():
    found = [f"{path.relative_to(ROOT)}:{number}: {match.group(0)}"
             for path in sorted(TEMPLATES.rglob("*.html"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             for match in KEY_HANDED_ON.finditer(line)]
    assert found == []


class Watched(dict):
    """The registry, noting who looks a game up in it (the caller's file and function)."""

    def __init__(self, games: dict, seen: list[tuple[str, str]]):
        super().__init__(games)
        self.seen = seen

    def __getitem__(self, key):
        self._note()
        return super().__getitem__(key)

    def get(self, key, default=None):
        self._note()
        return super().get(key, default)

    def _note(self) -> None:
        # past Jinja's own frames: a template's ``games[key]`` goes through ``Environment.getitem``
        frame = sys._getframe(2)
        while frame.f_back is not None and f"{os.sep}jinja2{os.sep}" in frame.f_code.co_filename:
            frame = frame.f_back
        self.seen.append((frame.f_code.co_filename, frame.f_code.co_name))


def web_lookups(seen: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The lookups made by the web layer or a template (the engine and the store may: they are
    where a key becomes a Game), as (file under scorekeeper/, function)."""
    package = ROOT / "scorekeeper"
    out = []
    for filename, function in seen:
        path = Path(filename).resolve()
        if WEB in path.parents or TEMPLATES in path.parents:
            out.append((path.relative_to(package).as_posix(), function))
    return out


def unasked(url: str, named: bool, lookups: list[tuple[str, str]]) -> list[str]:
    """The lookups a request made that it should not have: any at all where its address names
    no game; where it does, any but its entry point's."""
    return [f"{url}: {path} {function}()" for path, function in lookups if not named or (path, function) not in ENTRY_POINTS]


def next_hand_typed(match: Match) -> dict[str, str]:
    """A random next hand of ``match`` as its scorer types it into the hand form."""
    import random

    from scorekeeper.web.forms import hand_forms

    result = replay(match)
    hand = result.played.rules.random_hand(result.next_place(), random.Random(3))
    form = hand_forms.make_form(result.played, result.next_place())
    data = hand_forms.hand_to_data(form.groups, hand)
    # a ticked box is sent as "y", an unticked one not at all
    return {k: "y" if v is True else str(v) for k, v in data.items() if v is not False and not isinstance(v, list)}


def test_every_page_of_a_stored_match_is_drawn_without_looking_its_game_up(app, client, monkeypatch):
    """A hand previewed and saved, then every GET route of the app, for a match of every game
    with a few hands (its match pages, printouts, exports, tally, referee...), and the history,
    the stats, an import's answer: no function of the web layer or template asks the registry, except the entry
    points where an address names a game; a match's own pages never do."""
    from scorekeeper.samples import lasting_settings, random_match
    from scorekeeper.web.edges.db import get_db
    from tests.web.helpers import as_scorer

    samples = {key: random_match(key, 3, seed=5, settings=lasting_settings(key, 50)) for key in GAMES}
    with app.app_context():
        matches = {key: store.create_match(get_db(), sample) for key, sample in samples.items()}
        gone = store.create_match(get_db(), Match(next(iter(GAMES)), list(NAMES[:GAMES[next(iter(GAMES))].min_players])))
    for match_id in [*matches.values(), gone]:
        as_scorer(app, match_id, client)
    with app.app_context():
        store.delete_match(get_db(), gone)  # the history lists it among the deleted, to restore
    history = client.get("/history/export.json").get_data()
    seen: list[tuple[str, str]] = []
    watched = Watched(GAMES, seen)
    for module in list(sys.modules.values()):
        if (getattr(module, "__name__", "") or "").startswith("scorekeeper") and getattr(module, "GAMES", None) is GAMES:
            monkeypatch.setattr(module, "GAMES", watched)
    rules = [rule for rule in app.url_map.iter_rules() if "GET" in rule.methods and rule.endpoint != "static"]
    drawn, found = 0, []
    for key, match_id in matches.items():
        # the next hand typed (its preview: the referee's address set from it, the seat picture) and saved
        typed = next_hand_typed(samples[key])
        for step in ("/preview", ""):
            with app.app_context():
                version = store.get_version(get_db(), match_id)
            seen.clear()
            answer = client.post(f"/matches/{match_id}/hands{step}", data={**typed, "version": str(version)},
                                 headers={"HX-Request": "true", "HX-Target": "preview" if step else "match-live"})
            assert answer.status_code == 200, (key, step, answer.get_data(as_text=True)[:300])
            found += unasked(f"POST /matches/{match_id}/hands{step}", False, web_lookups(seen))
        query = {"player": NAMES[0], "other": NAMES[1], "hand": "1"}
        for rule in rules:
            if rule.arguments - {"match_id", "number", "game"}:
                continue
            url = rule.rule.replace("<match_id:match_id>", str(match_id)).replace("<int:number>", "1") \
                .replace("<game>", key)
            seen.clear()
            status = client.get(url, query_string=query).status_code
            assert status < 500, url
            drawn += status == 200
            found += unasked(url, "game" in rule.arguments, web_lookups(seen))
        # the pages that read a game's key from their query, and those that need more in it
        for url, named in ((f"/print?match={match_id}", False), (f"/referee/{key}?match={match_id}", True),
                           (f"/matches/new?game={key}&player_0={NAMES[0]}", True),
                           (f"/stats/hands?game={key}&figure=played&player={NAMES[0]}", True)):
            seen.clear()
            status = client.get(url).status_code
            assert status < 500, url
            drawn += status == 200
            found += unasked(url, named, web_lookups(seen))
    seen.clear()
    imported = client.post("/import", data={"file": (io.BytesIO(history), "history.json")},
                           content_type="multipart/form-data")
    # each match of the file (saved to since: a new one) listed with its game's name
    assert imported.status_code == 200
    assert len(re.findall(r'<li><a href="/matches/\d+">', imported.get_data(as_text=True))) == len(GAMES)
    found += [f"/import: {path} {function}()" for path, function in web_lookups(seen)]
    assert drawn > 20 * len(GAMES)  # the walk drew the pages, not only refusals
    assert found == [], "\n".join(found)


def test_a_stored_match_is_read_back_with_its_game(tmp_path):
    """Oddball (the tests' own game) too: the record's game is the registered one of its key."""
    db = store.connect(str(tmp_path / "matches.sqlite"))
    try:
        for key in sorted(GAMES):
            game = GAMES[key]
            match_id = store.create_match(db, Match(key, list(NAMES[:game.min_players]), game.defaults()))
            record = store.get_record(db, match_id)
            assert record.played is game and record.game == key
            assert replay(record.match).played is game
    finally:
        db.close()


def test_a_match_of_a_game_this_version_no_longer_has_stays_listed(app, client, command, registry):
    """The store hands the pages the game of every row it lists; a stored match whose game is no
    longer registered has none, and stays listed under its key (``derived.rebuild``: never
    fatal), in the history, among the deleted and by ``scorekeeper list``, while its table is
    offered no more on the start form (it could not be started)."""
    from scorekeeper.web.edges.db import get_db
    from tests.web.helpers import Page, as_scorer

    players = list(NAMES[:GAMES["oddball"].min_players])
    with app.app_context():
        kept, gone = (store.create_match(get_db(), Match("oddball", players, date="2026-11-20")) for _ in range(2))
    for match_id in (kept, gone):
        as_scorer(app, match_id, client)
    with app.app_context():
        store.delete_match(get_db(), gone)
    assert "Oddball (test only)" in Page(client.get("/").get_data(as_text=True)).text
    assert "game=oddball" in client.get("/matches/new").get_data(as_text=True)  # its table's chip
    assert f"#{kept}  2026-11-20  Oddball (test only)  " in command("list", "--database", str(app.config["DATABASE"])).stdout
    del registry["oddball"]
    history = client.get("/")
    assert history.status_code == 200
    listed = Page(history.get_data(as_text=True))
    assert [e.text for e in listed.elements if "match-game" in e.classes] == ["Oddball"]
    assert f"Oddball, 2026-11-20: {', '.join(players)}" in listed.text  # among the deleted
    start = client.get("/matches/new")
    assert start.status_code == 200 and "game=oddball" not in start.get_data(as_text=True)
    assert f"#{kept}  2026-11-20  oddball  {', '.join(players)}" in command(
        "list", "--database", str(app.config["DATABASE"])).stdout


def test_a_replay_carries_the_game_it_was_scored_by(registry):
    """The engine's record too: its game is the one the replay found, not looked up again by
    its key whenever a page asks (here the registry has lost it since)."""
    for key, game in list(registry.items()):
        result = replay(Match(key, list(NAMES[:game.min_players]), game.defaults()))
        del registry[key]
        assert result.played is game
        assert result.lowest_wins == game.rules.lowest_wins(result.next_place())
