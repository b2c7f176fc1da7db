"""Each game owns everything about itself: outside its own module (or package) in
scorekeeper/games/, the registry and its rules page, no code, template or static file names a game
key. The web layer renders what the game describes and never branches on a key."""
from __future__ import annotations

import re
from pathlib import Path

from scorekeeper import store
from scorekeeper.engine import Match, replay
from scorekeeper.games import GAMES
from scorekeeper.samples import NAMES

ROOT = Path(__file__).resolve().parent.parent
SEARCHED = ("scorekeeper",)  # templates and static files live inside the package


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


# A game looked up again by the key a record carries ("GAMES[info.game]"): past the store
# the record hands the pages its Game (``MatchRecord.played``, ``MatchResult.played``).
LOOKUP_BY_RECORD_KEY = re.compile(r"GAMES\[\w+\.game\]|GAMES\.get\(\w+\.game\)")


def test_past_the_store_the_pages_are_handed_the_game_not_its_key():
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for top in ("web", "store") for path in sorted((ROOT / "scorekeeper" / top).rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if LOOKUP_BY_RECORD_KEY.search(line)]
    assert found == []


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
