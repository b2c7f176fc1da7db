"""What a first-time user ran into on a phone: messages in the form's words, every
blank reported at once, one player order in the Spades form, labelled summaries,
a notice when an edit moves later deals, and the two-scorer conflict."""
from __future__ import annotations

import re

from scorekeeper import store
from scorekeeper.games import GAMES, words
from scorekeeper.games.base import Problem, rule
from scorekeeper.web.edges.db import get_db

from .helpers import page_of, record, start, text, version

HAND_1 = {"bids_0": "pass", "bids_1": "K", "trump": "hearts", "points_0": 60, "points_1": 80}  # Bob makes K
HAND_2 = {"bids_0": "pass", "bids_1": "K", "trump": "spades", "points_0": 60, "points_1": 80}


def preview(client, match_id, **fields):
    data = {k: str(v) for k, v in fields.items()}
    return client.post(f"/matches/{match_id}/hands/preview", data=dict(data, version=version(client, match_id)))


def field_box(html: str, name: str) -> str:
    # a page's field box, or a preview's messages for it (app.js moves them into the box)
    at = html.find(f'id="err-{name}"')
    start_at = html.index(">", at if at >= 0 else html.index(f'data-errors-for="err-{name}"'))
    return re.sub(r"<[^>]+>", "", html[start_at:html.index("</div>", start_at)])


# --- messages in the form's words -------------------------------------------------------

def test_engine_problems_get_the_forms_words():
    spades, rail, hand = GAMES["dummy_spades"].shown.field_word, GAMES["third_rail"].shown.field_word, GAMES["third_hand"].shown.field_word
    blank_seat = Problem("bids", "not_whole", {"got": "null", "value": None}, 2, "Fay")
    assert blank_seat.message == "bids[2] (Fay): must be a whole number, got null"
    assert words.plain(blank_seat, spades, in_place=True) == "Fay: still to fill in"
    missing = Problem("dummy_tricks", "missing")
    assert missing.message == "dummy_tricks: missing"
    assert words.plain(missing, spades) == "The dummy's tricks: still to fill in"
    assert words.plain(missing, spades, in_place=True) == "still to fill in"
    made = rule("points", "61 cannot be made", seat=0, who="Alice")
    assert words.plain(made, hand, in_place=True) == "Alice: 61 cannot be made"
    total = Problem("scoring_tricks", "sum", {"total": 6, "expected": 5, "why": " (x)"})
    assert total.message == "scoring_tricks add up to 6, not 5 (x)"
    assert words.plain(total, rail, in_place=True) == "scoring tricks add up to 6, not 5 (x)"
    together = Problem("other_tricks", "missing", {"with": "scoring_tricks"})
    assert together.message == "other_tricks: missing (scoring_tricks and other_tricks go together)"
    assert words.plain(together, rail) == "Other tricks: still to fill in (scoring tricks and other tricks go together)"
    ticked = rule("exchanged", "true, but both passed", plain="ticked, but both passed")
    assert ticked.message == "exchanged: true, but both passed"
    assert words.plain(ticked, hand, in_place=True) == "ticked, but both passed"


def test_every_problem_code_has_words():
    """A generic check: every code the engine can raise is worded, both ways, with
    nothing left unfilled."""
    samples = [Problem("tricks", "missing"), Problem("tricks", "not_whole", {"got": '"x"', "value": "x"}),
               Problem("tricks", "out_of_range", {"got": "12", "value": 12, "minimum": 0, "maximum": 11}, 1, "Bob"),
               Problem("dealer", "not_seat", {"got": "5", "last": 2}),
               Problem("bids", "not_list", {"what": "3 numbers, one per seat", "got": "7"}),
               Problem("trump", "choice", {"options": '"moons", "suns"', "got": '"x"'}),
               Problem("wheel", "not_bool", {"got": "1"}), Problem("tricks", "sum", {"total": 10, "expected": 11}),
               Problem("x", "unknown_field", {"key": "x", "game": "Third Wheel", "allowed": "bid"}),
               Problem(None, "not_object", {"fields": "bid", "got": "7"}), Problem(None, "after_end", {"last": 4}),
               Problem("hand 1", "repeated_key", {"key": "bid"}), rule("bid", "a rule")]
    for problem in samples:
        for said in (problem.message, words.plain(problem, GAMES["third_wheel"].shown.field_word)):
            assert said and "{" not in said and "None" not in said, (problem, said)


def test_third_rail_sum_message_names_no_internal_field(client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"])
    response = preview(client, match_id, scoring_tricks_0=3, scoring_tricks_1=1, scoring_tricks_2=2,
                       other_tricks_0=4, other_tricks_1=4, other_tricks_2=4)
    box = field_box(response.get_data(as_text=True), "scoring_tricks")
    assert "scoring tricks add up to 6, not 5" in box and "scoring_tricks" not in box


def test_third_rail_winners_echo_what_was_typed(client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"])
    response = record(client, match_id, winners="1 2 3 4 1 2")
    assert response.status_code == 422
    words = text(response)
    assert "needs 17 winners, one per trick (3 players play 17 tricks); you typed 6: 1 2 3 4 1 2" in words
    assert "[0, 1" not in words
    words = text(record(client, match_id, winners=" ".join(["1", "2", "4"] + ["1"] * 14)))
    assert "Trick 3: must be a seat 1 to 3, got 4" in words


def test_impossible_points_are_put_by_player_name(client):
    match_id = start(client, "third_hand", ["Ann", "Bob"])
    response = preview(client, match_id, **dict(HAND_1, points_0=65, points_1=75))
    box = field_box(response.get_data(as_text=True), "points")
    assert "Ann: no set of cards makes 65: points ending in 5 need at least 5 Aces or 5 nines" in box
    assert "points[" not in box and "even number" not in box


# --- every blank at once ------------------------------------------------------------------

def test_a_blank_form_lists_every_blank_field(client):
    hand_match = start(client, "third_hand", ["Ann", "Bob"])
    response = record(client, hand_match)
    assert response.status_code == 422
    assert "Still to fill in: bids, trump, card points." in text(response)
    spades = start(client, "dummy_spades", ["Ann", "Bob", "Cy"])
    words = text(record(client, spades))
    assert "Still to fill in: bids, tricks, the dummy's tricks." in words
    assert "missing" not in words and "dummy_tricks" not in words


def test_one_blank_seat_is_named(client):
    spades = start(client, "dummy_spades", ["Ann", "Bob", "Cy"])
    words = text(record(client, spades, bids_0=7, bids_1=5, tricks_0=4, tricks_1=5, tricks_2=0, dummy_tricks=4))
    assert "Still to fill in: bids (Cy)." in words
    assert "got null" not in words and "bids[" not in words


def test_third_rail_trump_is_optional(client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"], trump=True)
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Trump (the flipped suit, optional)" in html
    answer = preview(client, match_id, scoring_tricks_0=3).get_data(as_text=True)
    missing = text(re.search(r'<p class="preview-missing">.*?</p>', answer, re.S).group(0))  # not the seat picture
    assert missing.strip() == "Still to fill in: scoring tricks (Bob, Cy)"
    assert "other tricks" not in missing and "trump" not in missing
    counts = {"scoring_tricks_0": 3, "scoring_tricks_1": 1, "scoring_tricks_2": 1,
              "other_tricks_0": 4, "other_tricks_1": 4, "other_tricks_2": 4}
    assert record(client, match_id, **counts).status_code == 303  # saved without a trump


# --- one order in the Spades form; labelled summaries --------------------------------------

def test_spades_form_uses_bidding_order_everywhere(client):
    match_id = start(client, "dummy_spades", ["Ann", "Bob", "Cy"])  # Ann deals: Bob bids first
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    for group in ("bids", "nils", "tricks"):
        order = re.findall(rf'name="{group}_(\d)"', html)
        assert list(dict.fromkeys(order)) == ["1", "2", "0"], group
    spades = {"bids_0": 7, "bids_1": 5, "bids_2": 6, "tricks_0": 4, "tricks_1": 5, "tricks_2": 0, "dummy_tricks": 4}
    assert record(client, match_id, **spades).status_code == 303
    with client.application.app_context():
        hand = store.get_record(get_db(), match_id).match.hands[0]
    assert hand["bids"] == [7, 5, 6] and hand["tricks"] == [4, 5, 0]  # stored in seat order
    assert "bids: Ann 7 · Bob 5 · Cy 6" in client.get(f"/matches/{match_id}").get_data(as_text=True)


def test_third_hand_summary_names_each_bid_and_keeps_the_suit_sign_with_its_name(client):
    match_id = start(client, "third_hand", ["Ann", "Bob"], target=300)
    assert record(client, match_id, **HAND_1).status_code == 303
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "bids: Ann pass · Bob K · ♥\u00a0hearts" in html


def test_card_points_have_no_steppers(client):
    match_id = start(client, "third_hand", ["Ann", "Bob"])
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    points = re.findall(r'<input[^>]*name="points_\d"[^>]*>', html)
    assert len(points) == 2 and all("data-stepper" not in p and 'inputmode="numeric"' in p for p in points)
    spades = client.get(f"/matches/{start(client, 'dummy_spades', ['Ann', 'Bob', 'Cy'])}").get_data(as_text=True)
    assert re.search(r'<input[^>]*data-stepper[^>]*name="tricks_0"|<input[^>]*name="tricks_0"[^>]*data-stepper', spades)


# --- an edit that moves a later deal -----------------------------------------------------

def test_an_edit_that_changes_a_later_dealer_says_so(client):
    match_id = start(client, "third_hand", ["Ann", "Bob"], target=300)
    assert record(client, match_id, **HAND_1).status_code == 303  # Bob's hand score is higher: Bob deals hand 2
    assert record(client, match_id, **HAND_2).status_code == 303
    # Corrected: Bob took 60 and Ann 80, so Ann had the higher hand score and deals hand 2.
    current = page_of(client.get(f"/matches/{match_id}/hands/1/edit")).value("version")
    data = dict(HAND_1, points_0=80, points_1=60, version=current)
    response = client.post(f"/matches/{match_id}/hands/1/edit", data={k: str(v) for k, v in data.items()})
    assert response.status_code == 303
    words = text(client.get(f"/matches/{match_id}"))
    assert "Hand 1 corrected." in words
    assert "Hand 2 is now dealt by Ann, who bids second there; check it." in words


def test_an_edit_that_keeps_the_dealers_says_nothing_more(client):
    match_id = start(client, "third_hand", ["Ann", "Bob"], target=300)
    assert record(client, match_id, **HAND_1).status_code == 303
    assert record(client, match_id, **HAND_2).status_code == 303
    current = page_of(client.get(f"/matches/{match_id}/hands/1/edit")).value("version")
    data = dict(HAND_1, trump="clubs", version=current)
    assert client.post(f"/matches/{match_id}/hands/1/edit",
                       data={k: str(v) for k, v in data.items()}).status_code == 303
    assert "is now dealt by" not in text(client.get(f"/matches/{match_id}"))


# --- JavaScript off: a failed save lands on the form ------------------------------------

def test_the_hand_form_sends_the_browser_back_to_itself(client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'id="record"' in html
    assert f'action="/matches/{match_id}/hands#record"' in html
    assert f'hx-post="/matches/{match_id}/hands"' in html  # htmx posts without the fragment


# --- two scorers: the same hand saved on both phones ---------------------------------------

def test_a_stale_save_offers_to_discard_the_entry(client):
    wheel = {"trump": "wyrms", "mode": "high", "bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2}
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    stale = version(client, match_id)
    assert record(client, match_id, version=stale, **wheel).status_code == 303  # the other phone saved it
    refused = record(client, match_id, version=stale, **dict(wheel, bid=3))
    assert refused.status_code == 409
    words = text(refused)
    assert "save it again only if this is a different hand" in words and "check it and save again" not in words
    html = refused.get_data(as_text=True)
    link = re.search(r'<a class="button big discard" href="([^"]+)">It was the same hand: discard mine</a>', html)
    assert link and link[1] == f"/matches/{match_id}#record"
    fresh = client.get(link[1].split("#")[0]).get_data(as_text=True)
    assert "Hand 2" in fresh and "discard mine" not in fresh
    assert page_of(fresh).value("bid") in ("", None)  # an empty form
    with client.application.app_context():
        assert len(store.get_record(get_db(), match_id).match.hands) == 1


# --- JavaScript on: a boosted form's messages are swapped in ------------------------------

def test_a_boosted_form_with_messages_is_answered_200(client):
    from .helpers import start_form

    data = start_form("third_wheel", ["Ann", "", "Cy"])
    plain = client.post("/matches/new", data=data)
    assert plain.status_code == 422  # JavaScript off: the status says it
    boosted = client.post("/matches/new", data=data, headers={"HX-Request": "true", "HX-Boosted": "true"})
    assert boosted.status_code == 200 and "a name cannot be empty" in text(boosted)


def test_htmx_config_swaps_error_answers_but_not_304(client):
    import json

    html = client.get("/").get_data(as_text=True)
    config = json.loads(re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", html)[1])
    rules = config["responseHandling"]

    def rule(code: str) -> dict:
        return next(r for r in rules if re.fullmatch(r["code"].replace(".", r"\d"), code))
    assert rule("204")["swap"] is False and rule("304")["swap"] is False
    for code in ("200", "403", "409", "413", "422", "429", "500"):
        assert rule(code)["swap"] is True and not rule(code).get("error"), code
