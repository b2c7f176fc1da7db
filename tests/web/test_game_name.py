"""A score pad named for what the table plays (rules.md section 5, setting ``name``):
"Hearts" wherever the game's name is shown, "Hearts (score pad)" where the kind matters,
"Score pad" when unnamed; trimmed, at most 40 characters, never scored."""
from __future__ import annotations

import json

from scorekeeper.engine import Match, replay
from scorekeeper.games import GAMES

from .helpers import page_of, problems, record, start, start_form, text

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def points(*values: int) -> dict[str, int]:
    return {f"points_{seat}": value for seat, value in enumerate(values)}


def test_a_named_pad_says_its_name_everywhere_the_game_is_named(client):
    match_id = start(client, "score_pad", FOUR, name="  Hearts  ", target=100, low_wins=True)
    record(client, match_id, **points(26, 0, 0, 0))
    board = page_of(client.get(f"/matches/{match_id}"))
    assert board.find("h1").text == "Hearts"
    assert board.find("p", id="result-text").text.startswith("Hearts, 20 Nov: Bob 0")
    assert page_of(client.get(f"/matches/{match_id}/screen")).find("h1").text.startswith("Hearts")
    assert "Hearts (score pad)" in page_of(client.get(f"/matches/{match_id}/setup")).find("h1").text
    assert page_of(client.get(f"/matches/{match_id}/setup")).value("setting_name") == "Hearts"
    assert "A new match of Hearts (score pad)" in text(client.get(f"/matches/{match_id}/again"))
    history = page_of(client.get("/"))
    assert [e.text for e in history.find_all("span", cls="match-game")] == ["Hearts (score pad)"]
    chip = page_of(client.get("/matches/new")).find("a", cls="table-chip")
    assert chip.text == "Ann, Bob, Cy, Dee Hearts (score pad)"
    assert page_of(client.get(f"/matches/{match_id}/print")).find("h1").text.startswith("Hearts")
    assert page_of(client.get(f"/matches/{match_id}/print/blank")).find("h1").text.startswith("Hearts")
    exported = client.get(f"/matches/{match_id}/export.json")
    assert json.loads(exported.get_data(as_text=True))["settings"]["name"] == "Hearts"
    assert "score_pad-Hearts-2026-11-20" in exported.headers["Content-Disposition"]
    stats = page_of(client.get("/stats", query_string={"player": "Bob"}))
    assert [h.text for h in stats.find_all("h2") if "score pad" in h.text.lower()] == ["Hearts (score pad)"]
    # the win-rate chart beside the stats, and head to head
    assert "Hearts (score pad)" in [t.text for t in stats.find_all("text", cls="bar-label")]
    versus = page_of(client.get("/stats/versus", query_string={"player": "Ann", "other": "Bob"}))
    assert [h.text.split(" 1 together")[0] for h in versus.find_all("h2") if "score pad" in h.text.lower()] \
        == ["Hearts (score pad)"]
    csv = client.get(f"/matches/{match_id}/export.csv")
    assert csv.status_code == 200 and "Hearts" in csv.headers["Content-Disposition"]


def test_an_unnamed_pad_says_score_pad_and_two_named_pads_count_apart_in_the_stats(client):
    plain = start(client, "score_pad", FOUR)
    record(client, plain, **points(1, 2, 3, 4))
    assert page_of(client.get(f"/matches/{plain}")).find("h1").text == "Score pad"
    rummy = start(client, "score_pad", FOUR, name="Rummy")
    record(client, rummy, **points(5, 2, 3, 4))
    stats = page_of(client.get("/stats", query_string={"player": "Ann"}))
    assert [h.text for h in stats.find_all("h2") if "core pad" in h.text] == ["Rummy (score pad)", "Score pad"]


def test_the_name_is_not_scored_and_a_card_game_keeps_its_title():
    hand = {"points": [3, 1]}
    named = replay(Match("score_pad", ["Ann", "Bob"], {"name": "Oh Hell"}, hands=[hand]))
    plain = replay(Match("score_pad", ["Ann", "Bob"], {}, hands=[hand]))
    assert named.totals == plain.totals and named.hands[0].explanation == plain.hands[0].explanation
    for game in GAMES.values():
        if not any(s.name == "name" for s in game.settings):
            assert game.display_name(game.unplayed_place()) == game.title
            assert game.display_name(game.unplayed_place(), kind=True) == game.title


def test_a_name_over_40_characters_is_refused_on_the_form_and_in_a_file(client):
    response = client.post("/matches/new", data=start_form("score_pad", FOUR, name="H" * 41))
    assert response.status_code == 422
    assert any("at most 40 characters, got 41" in p for p in problems(response))
    assert "No matches yet" in text(client.get("/")) or not page_of(client.get("/")).find_all("span", cls="match-game")
    refused = client.post("/import", data={"file": (
        __import__("io").BytesIO(json.dumps({"format": "scorekeeper-match-1", "game": "score_pad", "players": ["Ann", "Bob"],
                                             "settings": {"name": 7}, "hands": []}).encode()), "m.json")},
        content_type="multipart/form-data")
    assert refused.status_code in (400, 422)
    assert "settings.name" in text(refused) and "must be text" in text(refused)
    assert start(client, "score_pad", FOUR, name="H" * 40)


def test_a_figures_hands_page_names_the_pad_and_lists_only_its_matches(client):
    hearts = start(client, "score_pad", FOUR, name="Hearts", target=10)
    record(client, hearts, **points(12, 0, 0, 0))  # Ann reaches 10: the match ends
    rummy = start(client, "score_pad", FOUR, name="Rummy", target=10)
    record(client, rummy, **points(11, 0, 0, 0))
    stats = page_of(client.get("/stats", query_string={"player": "Ann"}))
    played = [a.attrs["href"] for a in stats.find_all("a") if "figure=played" in a.attrs.get("href", "")]
    assert len(played) == 2  # one link per pad's section
    listed = page_of(client.get(played[0]))
    assert listed.find("p", cls="hint").text.startswith("Hearts (score pad). 1 match.")
    links = [a.attrs["href"] for a in listed.find_all("a") if a.attrs.get("href", "").startswith("/matches/")]
    assert links == ["/matches/new", f"/matches/{hearts}"]  # the menu's New match, then Hearts only
    assert page_of(client.get(played[1])).find("p", cls="hint").text.startswith("Rummy (score pad).")
