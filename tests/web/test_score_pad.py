"""The score pad through real HTTP: everything the four card games get (preview, Why?,
edit, undo, print sheet, exports, rescore, stats, needs panel, play again, rules page)."""
from __future__ import annotations

import csv
import io
import json

from .helpers import page_of, record, start, text, totals, version

LONG = ["Alexandra Featherstonehaugh", "Bartholomew Cholmondeley", "Cy", "Dee", "Evangeline Marjoribanks",
        "Fay", "Gus", "Henrietta Wolstenholme"]
FOUR = ["Ann", "Bob", "Cy", "Dee"]


def points(*values: int) -> dict[str, int]:
    return {f"points_{seat}": value for seat, value in enumerate(values)}


def test_eight_long_names_record_negative_points_and_see_totals(client):
    match_id = start(client, "score_pad", LONG)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'name="points_7"' in page and "Who won the trick?" not in page
    assert record(client, match_id, **points(10, -5, 0, 3, -100000, 100000, 7, 1)).status_code in (200, 303)
    assert totals(client.get(f"/matches/{match_id}").get_data(as_text=True)) == dict(
        zip(LONG, [10, -5, 0, 3, -100000, 100000, 7, 1]))


def test_preview_why_edit_and_undo(client):
    match_id = start(client, "score_pad", FOUR, target=50)
    preview = text(client.post(f"/matches/{match_id}/hands/preview", data=points(60, 1, 2, 3)))
    assert "This ends the game: Ann wins." in preview
    bad = text(client.post(f"/matches/{match_id}/hands/preview", data=points(100001, 1, 2, 3)))
    assert "Ann" in bad and "-100000 to 100000" in bad
    record(client, match_id, **points(20, -4, 2, 3))
    why = text(client.get(f"/matches/{match_id}/hands/1/why"))
    assert "Ann scored 20 points." in why and "Bob scored -4 points." in why and "Bob deals next" in why
    edited = client.post(f"/matches/{match_id}/hands/1/edit",
                         data=dict(points(20, 40, 2, 3), version=version(client, match_id)))
    assert edited.status_code in (200, 303)
    assert totals(client.get(f"/matches/{match_id}").get_data(as_text=True))["Bob"] == 40
    record(client, match_id, **points(1, 1, 1, 1))
    client.post(f"/matches/{match_id}/undo", data={"version": version(client, match_id)})
    assert totals(client.get(f"/matches/{match_id}").get_data(as_text=True)) == {"Ann": 20, "Bob": 40, "Cy": 2,
                                                                                  "Dee": 3}


def test_low_wins_ends_at_the_target_and_play_again_offers_the_next_match(client):
    match_id = start(client, "score_pad", FOUR, target=100, low_wins=True)
    record(client, match_id, **points(90, 10, 26, 0))
    page = text(client.get(f"/matches/{match_id}"))
    assert "Playing to 100: a total of 100 or more ends the game; the lowest total then wins" in page
    # Bob leads on 10; Ann's 90 is the highest total, not the leader's
    assert "Playing to 100: the lowest total wins" in page and "10 more ends it" in page
    assert "leader needs" not in page
    record(client, match_id, **points(10, 0, 0, 20))
    page = text(client.get(f"/matches/{match_id}"))
    assert "Ann reached 100 with 100; Bob has the lowest total, 10, and wins" in page
    # the lowest total wins, so it stands first, on the scoreboard and on the printed sheet
    board = [li.text for li in page_of(client.get(f"/matches/{match_id}")).find_all("li", cls="standing")]
    assert board == ["1st★ winner Bob 10 0 in hand 2", "2nd Dee 20 +20 in hand 2", "3rd Cy 26 0 in hand 2",
                     "4th Ann 100 +10 in hand 2"]
    sheet = text(client.get(f"/matches/{match_id}/print"))
    assert "Final standings Place Player Total 1st Bob" in sheet, sheet
    again = client.post(f"/matches/{match_id}/again", data={"again-first_dealer": "1"})
    assert again.status_code == 303
    new_page = text(client.get(again.headers["Location"]))
    assert all(name in new_page for name in FOUR)


def test_hand_count_ends_it_and_the_needs_panel_counts_hands(client):
    match_id = start(client, "score_pad", FOUR, hand_count=2)
    record(client, match_id, **points(5, 5, 0, 0))
    page = text(client.get(f"/matches/{match_id}"))
    assert "2 hands in all: 1 hand left; the highest total then wins, and players tied for it share the win." in page
    record(client, match_id, **points(0, 0, 1, 1))
    page = text(client.get(f"/matches/{match_id}"))
    assert "all 2 hands were played; Ann and Bob are tied on 5 for the highest total and share the win" in page


def test_exports_rescore_and_print_sheet(client, tmp_path, command):
    match_id = start(client, "score_pad", FOUR, hand_count=3)
    record(client, match_id, **points(7, -2, 0, 1))
    record(client, match_id, **points(-1, 3, 4, 0))
    exported = client.get(f"/matches/{match_id}/export.json")
    doc = json.loads(exported.data)
    assert doc["game"] == "score_pad" and doc["hands"] == [{"points": [7, -2, 0, 1]}, {"points": [-1, 3, 4, 0]}]
    path = tmp_path / "pad.json"
    path.write_bytes(exported.data)
    done = command("rescore", str(path))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["totals"] == [6, 1, 4, 1] and out["next_dealer"] == 2 and not out["finished"]
    assert out["settings"] == {"name": "", "target": 0, "low_wins": False, "hand_count": 3}
    rows = list(csv.reader(io.StringIO(client.get(f"/matches/{match_id}/export.csv").data.decode("utf-8-sig"))))
    first = dict(zip(rows[0], rows[1]))
    assert (first["Ann points"], first["Bob points"], first["Bob total"]) == ("7", "-2", "-2")
    sheet = text(client.get(f"/matches/{match_id}/print"))
    assert "Score pad" in sheet and "In progress after 2 hands; Cy deals next." in sheet
    blank = text(client.get(f"/matches/{match_id}/print/blank"))
    assert "The game ends after 3 hands; the highest total wins." in blank


def test_rules_page_and_stats(client):
    rules = text(client.get("/rules/score_pad"))
    assert "No target and no fixed number of hands: the game never ends by itself." in rules
    assert "-100000 to 100000" in rules and "Who won the trick?" not in rules
    match_id = start(client, "score_pad", FOUR, target=10)
    match_rules = text(client.get(f"/matches/{match_id}/rules"))
    assert "a total reaches 10 (at or over it); the highest total wins" in match_rules
    record(client, match_id, **points(4, 2, 0, 1))
    record(client, match_id, **points(0, 2, 9, 1))
    stats = page_of(client.get("/stats", query_string={"player": "Cy"}))
    words = stats.text
    assert "Score pad" in words and "Points per hand" in words and "4.5" in words


def test_history_names_the_lowest_total_as_leader_where_the_lowest_wins(client):
    low = start(client, "score_pad", FOUR, target=100, low_wins=True)
    record(client, low, **points(90, 10, 26, 30))
    high = start(client, "score_pad", ["Eve", "Fay"], target=100)
    record(client, high, **points(5, 40))
    page = text(client.get("/"))
    # Hearts style: Bob's 10 leads, not Ann's 90
    assert "Leader: Bob (10)" in page and "Leader: Ann" not in page
    assert "Leader: Fay (40)" in page
    record(client, low, **points(0, 16, 0, 30))
    assert "Tied: Bob, Cy (26)" in text(client.get("/"))


def test_seat_picture_speaks_of_the_lead_card_only_where_some_place_leads(client):
    pad = start(client, "score_pad", FOUR)
    caption = page_of(client.get(f"/matches/{pad}")).find("figcaption")
    assert caption is not None and "D deals." in caption.text
    assert "small card" not in caption.text  # the score pad marks no leader: no card is drawn
    spades = start(client, "third_wheel", ["Gil", "Hal", "Ivy"])
    caption = page_of(client.get(f"/matches/{spades}")).find("figcaption")
    assert caption is not None and "the small card shows who leads" in caption.text


def test_settings_say_none_where_0_means_no_target_and_no_fixed_number_of_hands(client):
    from .test_setup import log_words, setup_form
    match_id = start(client, "score_pad", FOUR)
    record(client, match_id, **points(5, 6, 7, 8))
    sheet = text(client.get(f"/matches/{match_id}/print"))
    assert "Target none" in sheet and "Number of hands none" in sheet
    assert "Target 0" not in sheet and "Number of hands 0" not in sheet
    changed = client.post(f"/matches/{match_id}/setup", data=dict(setup_form(client, match_id), setting_target="50"))
    assert changed.status_code in (200, 303)
    assert "Target: none → 50" in log_words(client, match_id)


def test_progress_line_counts_the_fixed_hands_without_the_deal_going_round_in_turn(client):
    match_id = start(client, "score_pad", FOUR, hand_count=3)
    record(client, match_id, **points(7, -2, 0, 1))
    page = text(client.get(f"/matches/{match_id}"))
    # the number of hands is fixed whoever deals: no assumption about the deal to state
    assert "hand 2 of 3: 2 hands left" in page
    assert "if the deal goes round in turn" not in page
    assert "deal out of turn" not in page


def test_each_hands_row_names_its_best_score_the_way_the_game_is_won(client):
    """A hand's row says who did best in it as the table counts it: the lowest score where
    the lowest total wins (Hearts), and a score most of the table shared said once, not as
    a list of nearly every name."""
    def row(match_id: int, number: int) -> str:
        """The head of a hand's row: its number, dealer and summary (before its Edit link)."""
        found = page_of(client.get(f"/matches/{match_id}")).find(id=f"hand-{number}")
        assert found is not None
        return " ".join(found.text.split()).split(" Edit")[0]

    hearts = start(client, "score_pad", FOUR, target=100, low_wins=True)
    record(client, hearts, **points(26, -5, 0, 9))
    assert "lowest this hand: Bob -5" in row(hearts, 1) and "Ann 26" not in row(hearts, 1)
    eight = start(client, "score_pad", LONG)
    record(client, eight, **points(3, 3, 3, -3, 3, 3, 3, 3))
    record(client, eight, **points(0, 0, 0, 0, 0, 0, 0, 0))
    record(client, eight, **points(9, 9, 1, 0, 0, 0, 0, 0))
    assert "most this hand: 3, all but Dee" in row(eight, 1) and "Bartholomew" not in row(eight, 1)
    assert "everyone scored 0" in row(eight, 2)
    assert "most this hand: Alexandra Featherstonehaugh and Bartholomew Cholmondeley 9" in row(eight, 3)
