"""The ``scorekeeper`` command. The installed command runs as a user would run it for the
documented example and standard input; the other cases call the same ``main`` in this
process (tests/conftest.py's ``command``: a subprocess costs a third of a second of CPU to
start, and they test what main answers, not how the command is installed)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCOREKEEPER = str(Path(sys.executable).with_name("scorekeeper"))

THIRD_WHEEL = {
    "format": "scorekeeper-match-1",
    "game": "third_wheel",
    "players": ["Ann", "Bob", "Cy"],
    "settings": {"target": 33},
    "first_dealer": 0,
    "hands": [{"trump": "wyrms", "mode": "high", "wheel": False, "bid": 5, "tricks": [5, 4, 2]}],
}


def run(*args, stdin=None):
    return subprocess.run([SCOREKEEPER, *args], input=stdin, capture_output=True, text=True, timeout=60)


def test_rescore_prints_the_documented_example(tmp_path):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(THIRD_WHEEL))
    done = run("rescore", str(path))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["settings"] == {"overtrick_dealer": "bid", "overtrick_setter": "other_setter", "deals_each": 2, "target": 33}
    assert out["hands"][0]["scores"] == [9, 0, 2]
    assert out["hands"][0]["dealer"] == 0 and out["hands"][0]["number"] == 1
    assert out["totals"] == [9, 0, 2]
    assert out["finished"] is False and out["winners"] == [] and out["next_dealer"] == 1
    assert any("Ann" in line for line in out["hands"][0]["explanation"])


def test_rescore_reads_standard_input():
    done = run("rescore", "-", stdin=json.dumps(THIRD_WHEEL))
    assert done.returncode == 0
    assert json.loads(done.stdout)["totals"] == [9, 0, 2]


def test_bad_hand_exits_2_naming_hand_and_field(command):
    bad = dict(THIRD_WHEEL, hands=[dict(THIRD_WHEEL["hands"][0], tricks=[5, 4, 1])])
    done = command("rescore", "-", stdin=json.dumps(bad))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == ["hand 1: tricks add up to 10, not 11"]


def test_every_problem_gets_its_own_line(command):
    bad = dict(THIRD_WHEEL, players=["Ann", "Bob"], settings={"target": -1, "colour": 1})
    done = command("rescore", "-", stdin=json.dumps(bad))
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert "players: Third Wheel needs exactly 3 players, got 2" in lines
    assert any(line.startswith("settings.target:") for line in lines)
    assert any(line.startswith("settings: unknown setting \"colour\"") for line in lines)


@pytest.mark.parametrize("text, expected", [
    ("{not json", "match file: not valid JSON (line 1, column 2)"),
    ("[]", "match: must be a JSON object"),
    ('{"game": "bridge", "players": ["A", "B"]}', "game: must be one of"),
    ('{"game": "third_wheel", "players": ["A", "B", "C"], "first_dealer": ' + "9" * 5000 + "}",
     "match file: a number has too many digits"),
])
def test_malformed_files_are_refused_without_a_traceback(text, expected, command):
    done = command("rescore", "-", stdin=text)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(expected)
    assert "Traceback" not in done.stderr


def test_a_name_that_is_not_text_is_refused(command):
    # JSON may carry a lone surrogate ("\ud800"), which no score sheet can print
    match = dict(THIRD_WHEEL, players=["Ann\ud800", "Bob", "Cy"])
    done = command("rescore", "-", stdin=json.dumps(match))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("players[0]: a name cannot hold line breaks, control characters or broken text")


def test_missing_file_is_a_clear_error(tmp_path, command):
    done = command("rescore", str(tmp_path / "nope.json"))
    assert done.returncode == 2 and done.stdout == ""
    assert "cannot read" in done.stderr and "Traceback" not in done.stderr


def test_list_shows_every_match_with_its_links(tmp_path, command):
    from scorekeeper import store
    from scorekeeper.engine import Match

    database = tmp_path / "db.sqlite"
    db = store.connect(str(database))
    first = store.create_match(db, Match(game="third_wheel", players=["Ann", "Bob", "Cy"], date="2026-11-20",
                                         note="Friday"))
    store.create_match(db, Match(game="third_rail", players=["Dee", "Eve", "Flo"], date="2026-11-21"))
    tokens = store.get_tokens(db, first)
    db.close()
    done = command("list", "--database", str(database), "--url", "http://192.168.1.5:5000/")
    assert done.returncode == 0, done.stderr
    assert done.stdout.index("Dee, Eve, Flo") < done.stdout.index("Ann, Bob, Cy")  # newest first
    assert f"#{first}  2026-11-20  Third Wheel  Ann, Bob, Cy  (0 hands, in progress)" in done.stdout
    assert "note:    Friday" in done.stdout
    assert f"scorer:  http://192.168.1.5:5000/s/{tokens['scorer_token']}" in done.stdout
    assert f"watcher: http://192.168.1.5:5000/w/{tokens['watcher_token']}" in done.stdout
    assert "2 matches." in done.stderr
    found = command("list", "--database", str(database), "--search", "EVE")
    assert "Dee, Eve, Flo" in found.stdout and "Ann" not in found.stdout and "1 match with a player called 'EVE'" in found.stderr


def test_list_of_a_missing_database_says_so(tmp_path, command):
    done = command("list", "--database", str(tmp_path / "nope.sqlite"))
    assert done.returncode == 2 and "nope.sqlite: no such database" in done.stderr
    assert not (tmp_path / "nope.sqlite").exists()
