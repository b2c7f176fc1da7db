"""The new rulings as a user sees them: what happens next under Why? and on the
scoreboard, the new settings on the start form and in exports, the Spades warning."""
import json

from .helpers import record, start, text


def third_rail_hand(scoring, other=(4, 4, 4)):
    fields = {f"scoring_tricks_{s}": n for s, n in enumerate(scoring)}
    fields.update({f"other_tricks_{s}": n for s, n in enumerate(other)})
    return fields


def test_why_ends_with_who_deals_next(client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"])
    assert record(client, match_id, **third_rail_hand([2, 2, 1])).status_code == 303
    assert "Bob deals next: the deal passes left." in text(client.get(f"/matches/{match_id}/hands/1/why"))


def test_scoreboard_says_why_a_tie_at_the_target_plays_on(client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"], target=4)
    assert record(client, match_id, **third_rail_hand([2, 2, 1])).status_code == 303
    assert "Playing on" not in text(client.get(f"/matches/{match_id}"))
    assert record(client, match_id, **third_rail_hand([2, 2, 1])).status_code == 303
    page = text(client.get(f"/matches/{match_id}"))
    assert "Playing on Ann and Bob are tied on 4 at the top: another hand is dealt." in page


def test_game_over_banner_says_how_it_ended(client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"], target=3)
    assert record(client, match_id, **third_rail_hand([3, 2, 0])).status_code == 303
    page = text(client.get(f"/matches/{match_id}"))
    assert "Game over Ann wins Ann reached 3 with 3 and wins." in page


def test_start_form_offers_the_new_settings(client):
    spades = text(client.get("/matches/new?game=dummy_spades"))
    assert "Nil hands' tricks count" in spades
    rail = text(client.get("/matches/new?game=third_rail"))
    assert "Tied for most other tricks" in rail


def test_new_settings_are_kept_and_exported(client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"], most_other_tricks_bonus=True, bonus_tie="none")
    exported = json.loads(client.get(f"/matches/{match_id}/export.json").get_data(as_text=True))
    assert exported["settings"]["bonus_tie"] == "none"
    # Ann and Bob tie for the most other tricks: with "none" nobody gets the bonus.
    assert record(client, match_id, **third_rail_hand([2, 2, 1], [5, 5, 2])).status_code == 303
    assert "with a tie nobody scores the bonus" in text(client.get(f"/matches/{match_id}/hands/1/why"))
    spades = start(client, "dummy_spades", ["Ann", "Bob", "Cy"], nil_tricks_count=False)
    exported = json.loads(client.get(f"/matches/{spades}/export.json").get_data(as_text=True))
    assert exported["settings"]["nil_tricks_count"] is False


def test_preview_warns_about_a_team_bid_of_zero(client):
    match_id = start(client, "dummy_spades", ["Ann", "Bob", "Cy"])
    fields = {"bids_0": 0, "bids_1": 7, "bids_2": 5, "tricks_0": 3, "tricks_1": 4, "tricks_2": 2, "dummy_tricks": 4}
    data = {k: str(v) for k, v in fields.items()}
    preview = client.post(f"/matches/{match_id}/hands/preview", data=data, headers={"HX-Request": "true"})
    assert ("A team bid of 0 is a contract, not a nil: tick Nil for Ann's own hand if that is what Ann bid."
            in text(preview))
    assert "If saved:" in text(preview)  # a warning, not a refusal
