"""Issue 18, finding 5: what comes in as a match file (or through the engine) is read as
match-format.md and rules.md ("Player names") say: a date is exactly YYYY-MM-DD, names are
compared ignoring case and invisible characters, and null for an optional key is absent."""
from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys

import pytest

from scorekeeper import store
from scorekeeper.cli import main
from scorekeeper.engine import Match, MatchError, replay
from scorekeeper.matchfile import loads
from scorekeeper.names import DEFAULT_IGNORABLE, is_invisible, same_name

WHEEL_HAND = {"trump": "wyrms", "mode": "high", "wheel": False, "bid": 5, "tricks": [5, 4, 2]}


def rescore(document: dict) -> subprocess.CompletedProcess:
    """``scorekeeper rescore -``, the document on standard input: the command's own code
    (``cli.main``) run in this process, its exit code and what it wrote to standard output
    and error. A new process for each of these cost 0.3 s of start-up and imports;
    tests/test_cli.py runs the installed command itself."""
    streams = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(json.dumps(document).encode()), encoding="utf-8")
    sys.stdout, sys.stderr = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8") for _ in range(2))
    try:
        code = main(["rescore", "-"])
        out, err = sys.stdout, sys.stderr
        out.flush(), err.flush()
        stdout, stderr = (stream.buffer.getvalue().decode() for stream in (out, err))  # type: ignore[attr-defined]
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
    return subprocess.CompletedProcess(["scorekeeper", "rescore", "-"], code, stdout, stderr)


def wheel(**changes) -> dict:
    return {"game": "third_wheel", "players": ["Ann", "Bob", "Cy"], "hands": [dict(WHEEL_HAND)], **changes}


def problems(document: dict) -> list[str]:
    with pytest.raises(MatchError) as caught:
        replay(loads(json.dumps(document)))
    return caught.value.problems


# --- dates --------------------------------------------------------------------------------

def test_a_week_date_is_refused_by_rescore_naming_date():
    done = rescore(wheel(date="2024-W01-1"))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == ['date: must be a day as YYYY-MM-DD, got "2024-W01-1"']


@pytest.mark.parametrize("date", [
    "2024-001",  # ordinal date
    "20240101",  # compact
    "2024-01-01T10:00",  # a time
    "2024-01-01 ",
    "\uff12\uff10\uff12\uff14-01-01",  # full-width digits
    "\u0662\u0660\u0662\u0664-01-01",  # Arabic-Indic digits
    "2024-1-01",
    "2023-02-29",  # not a real day
    "2024-W01",
])
def test_only_a_real_yyyy_mm_dd_day_is_a_date(date):
    assert problems(wheel(date=date)) == [f"date: must be a day as YYYY-MM-DD, got {json.dumps(date, ensure_ascii=False)}"]


def test_a_real_leap_day_is_a_date():
    assert loads(json.dumps(wheel(date="2024-02-29"))).date == "2024-02-29"


# --- names --------------------------------------------------------------------------------

@pytest.mark.parametrize("name, shown", [
    ("\u3164", "\\u3164"),  # Hangul filler
    ("\u115f", "\\u115f"),  # Hangul choseong filler
    ("\u115f \u1160", "\\u115f \\u1160"),
    ("\u200b\ufeff", "\\u200b\\ufeff"),
    ("\u00ad", "\\u00ad"),  # soft hyphen
    ("\ufe0f\U000e0041", "\\ufe0f\\udb40\\udc41"),  # variation selector, tag letter
])
def test_a_name_of_invisible_characters_is_empty_and_rescore_says_so(name, shown):
    done = rescore(wheel(players=["Ann", name, "Cy"]))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f'players[1]: a name cannot be empty: "{shown}" holds only invisible characters']


@pytest.mark.parametrize("second, shown", [
    ("Ann\u200b", "Ann\\u200b"),  # zero-width space after
    ("An\u00adn", "An\\u00adn"),  # soft hyphen inside
    ("\u2060ANN", "\\u2060ANN"),  # word joiner, another case
    ("A\u034fnn\ufe0f", "A\\u034fnn\\ufe0f"),
])
def test_names_that_differ_only_by_invisible_characters_are_one_name(second, shown):
    done = rescore(wheel(players=["Ann", "Bob", second]))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f'players[2]: "{shown}" is already at the table as "Ann" '
        "(names must differ, ignoring case and invisible characters)"]


def test_a_name_keeps_its_characters_when_stored():
    # a zero-width joiner inside an emoji stays; only trimmed and NFC-normalised
    coder = "\U0001f469\u200d\U0001f4bb"
    done = rescore(wheel(players=[f"  {coder} ", "Zoe\u0308", "Cy"]))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["players"] == [coder, "Zo\u00eb", "Cy"]


def test_a_name_with_a_visible_letter_among_invisible_ones_is_a_name():
    assert replay(Match("third_wheel", ["\u3164A", "Bob", "Cy"])).players[0] == "\u3164A"


def test_the_table_is_default_ignorable_code_point_and_nothing_else():
    # The ranges' neighbours are ordinary characters; spot checks of both sides.
    for first, last in DEFAULT_IGNORABLE:
        assert is_invisible(chr(first)) and is_invisible(chr(last))
    for visible in ("A", "\u00ac", "\u00ae", "\u200a", "\u2010", "\u3163", "\u3165", "\ufe10", "\U000e1000", " "):
        assert not is_invisible(visible), hex(ord(visible))
    assert same_name("Ann\u200b") == same_name("ANN") == same_name("A\u00adnn") == "ann"


@pytest.mark.skipif(shutil.which("perl") is None, reason="perl is the independent copy of the Unicode data")
def test_the_table_matches_perls_unicode_data():
    # Perl ships Unicode's own property tables: every code point, one way or the other.
    script = ('for my $c (0..0x10FFFF) { print chr($c) =~ /\\p{Default_Ignorable_Code_Point}/ ? "1" : "0" }')
    done = subprocess.run(["perl", "-e", script], capture_output=True, text=True, timeout=120)
    expected = done.stdout
    assert len(expected) == 0x110000
    ours = "".join("1" if is_invisible(chr(c)) else "0" for c in range(0x110000))
    assert ours == expected


# --- null means absent --------------------------------------------------------------------

SPADES = {"game": "dummy_spades", "players": ["Ann", "Bob", "Cy"],
          "hands": [{"bids": [5, 4, 3], "tricks": [4, 3, 3], "dummy_tricks": 3}]}
THIRD_HAND = {"game": "third_hand", "players": ["Ann", "Bob"],
              "hands": [{"bids": ["Q", None], "trump": "hearts", "points": [80, 60]}]}
RAIL = {"game": "third_rail", "players": ["Ann", "Bob", "Cy"],
        "hands": [{"scoring_tricks": [3, 1, 1]}]}


def with_hand(document: dict, **fields) -> dict:
    return {**document, "hands": [{**document["hands"][0], **fields}]}


@pytest.mark.parametrize("document, field", [
    (SPADES, "dealer"),
    (SPADES, "nils"),
    (THIRD_HAND, "exchanged"),
    (THIRD_HAND, "dealer"),
    (wheel(), "dealer"),
    (RAIL, "other_tricks"),  # the bonus is off: other tricks may be left out
    (RAIL, "trump"),  # setting trump off
    ({**RAIL, "settings": {"trump": True}}, "trump"),
])
def test_null_for_an_optional_hand_field_is_the_same_as_leaving_it_out(document, field):
    done = rescore(with_hand(document, **{field: None}))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(rescore(document).stdout)


def test_a_file_of_nulls_everywhere_optional_is_rescored():
    document = {"format": None, "settings": None, "first_dealer": None, "date": None, "note": None,
                **with_hand(SPADES, dealer=None, nils=None)}
    done = rescore(document)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["totals"] == json.loads(rescore(SPADES).stdout)["totals"]
    # read as a match, the hands hold no nulls: stored and exported without them
    assert loads(json.dumps(document)).hands == SPADES["hands"]


@pytest.mark.parametrize("document, fields, expected", [
    (THIRD_HAND, {"trump": None}, 'hand 1: trump: must be one of "hearts", "diamonds", "clubs", "spades", got null'),
    (wheel(), {"trump": None}, "hand 1: trump: must be one of"),
    (SPADES, {"dummy_tricks": None}, "hand 1: dummy_tricks: must be a whole number, got null"),
    ({**RAIL, "settings": {"most_other_tricks_bonus": True}}, {"other_tricks": None, "scoring_tricks": [3, 1, 1]},
     "hand 1: other_tricks: must be a list of 3 numbers, one per seat, got null"),
])
def test_null_for_a_required_field_is_still_an_error_naming_where(document, fields, expected):
    done = rescore(with_hand(document, **fields))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines()[0].startswith(expected), done.stderr


def test_the_engine_reads_null_as_absent_too():
    # a Match made in code, not read from a file
    hands = [{**SPADES["hands"][0], "dealer": None, "nils": None}]
    assert replay(Match("dummy_spades", ["Ann", "Bob", "Cy"], hands=hands)).totals == \
        replay(Match("dummy_spades", ["Ann", "Bob", "Cy"], hands=SPADES["hands"])).totals


# --- a database made before the rule ------------------------------------------------------

def test_an_older_database_has_its_folded_names_folded_again(tmp_path):
    path = str(tmp_path / "old.sqlite")
    db = store.connect(path)
    match_id = store.create_match(db, Match("third_wheel", ["Ann\u200b", "Bob", "Cy"], hands=[WHEEL_HAND]))
    # as the old rule (NFKC and case folding only) had folded them
    db.execute("update match_players set name_key = ? where name = ?", ["ann\u200b", "Ann\u200b"])
    db.execute("update summaries set names = ?", ["ann\u200b\x1fbob\x1fcy"])
    db.execute("update summaries set derived_version = 0")  # rows older code wrote are rebuilt at start-up
    db.conn.commit()
    db.close()
    db = store.connect(path)
    try:
        assert [m["id"] for m in store.all_matches(db, "A\u00adnn")] == [match_id]
        keys = [row[0] for row in db.execute("select name_key from match_players order by seat")]
        assert keys == ["ann", "bob", "cy"]
    finally:
        db.close()
