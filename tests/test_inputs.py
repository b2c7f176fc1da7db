"""Issue 18, finding 5 (and issues 25 and 27, finding 9): what comes in as a match file (or
through the engine) is read as match-format.md and rules.md ("Player names") say: a date is
exactly YYYY-MM-DD, names are compared ignoring case and invisible characters (left out before
the spaces at either end are trimmed), a name holds nothing that reorders the text around it,
null for an optional key is absent, and every setting given is checked."""
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


# Issue 25 finding 9 and issue 27 finding 9: names compared as rules.md ("Player names")
# now says, and every setting a match file gives checked (match-format.md, `settings`).

# --- names: invisible characters out, then trimmed ------------------------------------------


@pytest.mark.parametrize("second, shown", [
    ("Ann \u200b", "Ann \\u200b"),  # a space, then a zero-width space
    ("\u200b Ann", "\\u200b Ann"),
    ("\ufeff ANN \u00ad", "\\ufeff ANN \\u00ad"),
    ("Ann\u2800", "Ann\\u2800"),  # the blank braille cell is a space
])
def test_a_name_with_spaces_behind_invisible_characters_is_a_duplicate(second, shown):
    assert same_name(second) == "ann"
    done = rescore(wheel(players=["Ann", "Bob", second]))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f'players[2]: "{shown}" is already at the table as "Ann" '
        "(names must differ, ignoring case and invisible characters)"]


def test_both_spellings_beside_each_other_are_one_name_too():
    done = rescore(wheel(players=["Ann \u200b", "\u200b Ann", "Cy"]))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        'players[1]: "\\u200b Ann" is already at the table as "Ann \\u200b" '
        "(names must differ, ignoring case and invisible characters)"]


def test_the_stored_name_keeps_its_characters():
    # trimmed (plain spaces) and NFC: the zero-width space is only left out when comparing
    done = rescore(wheel(players=[" Ann \u200b", "Bob", "Cy"]))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["players"] == ["Ann \u200b", "Bob", "Cy"]


def test_spaces_inside_a_name_still_count():
    assert replay(Match("third_wheel", ["Ann Lee", "Ann  Lee", "AnnLee"])).players == ["Ann Lee", "Ann  Lee",
                                                                                       "AnnLee"]


@pytest.mark.parametrize("name, shown", [
    ("\u2800", "\\u2800"),
    ("\u2800\u2800", "\\u2800\\u2800"),
    ("\u2800 \u200b", "\\u2800 \\u200b"),
    ("\u200b \u3164", "\\u200b \\u3164"),
])
def test_a_name_of_blank_braille_and_invisible_characters_is_empty(name, shown):
    done = rescore(wheel(players=["Ann", name, "Cy"]))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f'players[1]: a name cannot be empty: "{shown}" holds only invisible characters']


# --- names: what a name may not hold ---------------------------------------------------------

BIDI_CONTROLS = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]


@pytest.mark.parametrize("control", BIDI_CONTROLS, ids=lambda c: f"U+{ord(c):04X}")
def test_a_bidirectional_control_is_refused_naming_it(control):
    done = rescore(wheel(players=["Ann", f"Bob{control}x", "Cy"]))
    assert done.returncode == 2 and done.stdout == ""
    [line] = done.stderr.splitlines()
    code = f"{ord(control):04x}"
    assert line.startswith(f"players[1]: a name cannot hold bidirectional controls: U+{code.upper()} (")
    assert line.endswith(f'would reorder the text around it, got "Bob\\u{code}x"')


def test_the_right_to_left_override_of_the_report_is_refused_in_words():
    done = rescore(wheel(players=["Ann\u202e", "Bob", "Cy"]))
    assert done.stderr.splitlines() == [
        "players[0]: a name cannot hold bidirectional controls: U+202E (right-to-left override) would reorder "
        'the text around it, got "Ann\\u202e"']


@pytest.mark.parametrize("name, line", [
    ("Bo\u2028b", 'U+2028 (line separator), got "Bo\\u2028b"'),
    ("Bo\u2029b", 'U+2029 (paragraph separator), got "Bo\\u2029b"'),
    ("Bo\x07b", 'U+0007 (a control character), got "Bo\\u0007b"'),
    ("Bo\x85b", 'U+0085 (a control character), got "Bo\\u0085b"'),
])
def test_separators_and_control_characters_are_refused_naming_them(name, line):
    done = rescore(wheel(players=["Ann", name, "Cy"]))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"players[1]: a name cannot hold line breaks, control characters or broken text: {line}"]


def test_the_marks_that_only_steer_a_name_are_allowed_and_kept():
    names = ["\u200fדנה", "Bob\u200e", "\u061cعلي"]
    done = rescore(wheel(players=names))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["players"] == names


# --- settings: every key given is checked ------------------------------------------------------

def _rail(settings: dict) -> dict:
    return {"game": "third_rail", "players": ["Ann", "Bob", "Cy"], "settings": settings}


def _spades(settings: dict) -> dict:
    return {"game": "dummy_spades", "players": ["Ann", "Bob", "Cy"], "settings": settings}


@pytest.mark.parametrize("document, lines", [
    (_rail({"bonus_tie": "x"}), ['settings.bonus_tie: must be one of "each", "none", got "x"']),
    (_rail({"most_other_tricks_bonus": False, "bonus_tie": 3}), ['settings.bonus_tie: must be one of "each", '
                                                                 '"none", got 3']),
    (_spades({"flip_count": 9}), ["settings.flip_count: must be 1 to 4, got 9"]),
    (_spades({"peek": "none", "flip_count": "2"}), ['settings.flip_count: must be a whole number, got "2"']),
    (_spades({"flip_count": 0, "target": 0}), ["settings.target: must be at least 1, got 0",
                                               "settings.flip_count: must be 1 to 4, got 0"]),
])
def test_a_setting_that_does_not_apply_is_still_checked_by_rescore(document, lines):
    done = rescore(document)
    assert done.returncode == 2 and done.stdout == ""
    assert sorted(done.stderr.splitlines()) == sorted(lines)


def test_a_valid_setting_that_does_not_apply_is_kept_as_given():
    done = rescore(_spades({"flip_count": 3}))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["settings"]["flip_count"] == 3


def test_the_engine_refuses_it_naming_the_key():
    with pytest.raises(MatchError) as refused:
        replay(Match("third_rail", ["Ann", "Bob", "Cy"], {"bonus_tie": "x"}))
    assert refused.value.problems == ['settings.bonus_tie: must be one of "each", "none", got "x"']
