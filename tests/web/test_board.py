"""Issue "At the table" item 7: the board says why the game goes on and how it ended,
and why the next dealer deals."""
from __future__ import annotations

from .helpers import page_of, record, start
from .test_referee import make_match


def board(client, match_id):
    page = page_of(client.get(f"/matches/{match_id}"))
    banner = page.find(id="match-banner")
    return (banner.text if banner else ""), page.find(cls="next-dealer")


def test_a_tie_at_the_target_says_why_another_hand_is_dealt(client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"])  # target 12
    for scoring in ([5, 0, 0], [0, 5, 0], [5, 0, 0], [0, 5, 0], [2, 2, 1]):
        assert record(client, match_id, **{f"scoring_tricks_{s}": n for s, n in enumerate(scoring)}).status_code == 303
    banner, next_dealer = board(client, match_id)
    assert banner == "Playing on Ann and Bob are tied on 12 at the top: another hand is dealt."
    assert next_dealer.text == "Next to deal: Cy"
    assert record(client, match_id, scoring_tricks_0=1, scoring_tricks_1=0, scoring_tricks_2=4).status_code == 303
    banner, next_dealer = board(client, match_id)
    assert banner == "Game over Ann wins Ann reached 12 with 13 and wins."
    assert next_dealer is None


def test_the_board_says_why_the_next_dealer_deals(client):
    match_id = start(client, "third_hand", ["Ann", "Bob"])
    assert record(client, match_id, bids_0="pass", bids_1="K", trump="hearts", points_0=60, points_1=80).status_code == 303
    _, next_dealer = board(client, match_id)
    assert next_dealer.text == "Next to deal: Bob — Bob had the higher hand score (100 to 60)"


def test_after_a_deal_out_of_turn_the_board_says_where_the_deal_goes_on(app, client):
    match_id = make_match(app, client, "third_wheel", ["Ann", "Bob", "Cy"], hands=[
        {"trump": "wyrms", "mode": "high", "wheel": False, "bid": 5, "tricks": [2, 5, 4], "dealer": 1}])
    _, next_dealer = board(client, match_id)
    assert next_dealer.text.startswith("Next to deal: Cy — the deal goes on from Bob, who dealt hand 1 out of turn")
