"""Issue "At the table", item 1 and 4: a correction is never silently lost. A hand
recorded trick by trick is corrected trick by trick (the tally, filled in) or turned
into counts on purpose; two ways of entering the same thing that disagree are refused
with both numbers; a correction that changes a later hand's dealer says so and offers
to keep that hand as recorded (dealt out of turn)."""
from __future__ import annotations

from scorekeeper import store

from .helpers import page_of, record, start, text, totals, version
from .test_referee import make_match

WINNERS = [0, 1, 2] * 5 + [0, 1]  # 17 tricks, 3 players: scoring 3 6 9 12 15 -> Cy, Cy, Cy, Cy, Cy


def stored_hands(app, match_id):
    db = store.connect(app.config["DATABASE"])
    try:
        return store.get_record(db, match_id).match.hands, store.audit_log(db, match_id)
    finally:
        db.close()


# --- a hand recorded trick by trick ------------------------------------------------

def test_editing_a_trick_by_trick_hand_opens_the_tally_or_counts_on_purpose(app, client):
    match_id = make_match(app, client, "third_rail", ["Ann", "Bob", "Cy"], hands=[{"winners": WINNERS}])
    page = page_of(client.get(f"/matches/{match_id}/hands/1/edit"))
    words = page.text
    assert "was recorded trick by trick" in words
    links = {a.text: a.attrs["href"] for a in page.find_all("a")}
    assert links["Correct it trick by trick"] == f"/matches/{match_id}/tally?hand=1"
    assert links["Change it to counts instead"] == f"/matches/{match_id}/hands/1/edit?as=counts"
    # no raw string of seats, no empty count boxes to type into and be ignored
    assert page.find(name="winners") is None and page.find(name="scoring_tricks_0") is None


def test_the_tally_opens_a_recorded_hand_filled_in_and_saves_the_correction(app, client):
    match_id = make_match(app, client, "third_rail", ["Ann", "Bob", "Cy"], hands=[{"winners": WINNERS}])
    page = page_of(client.get(f"/matches/{match_id}/tally?hand=1"))
    assert "Correct hand 1 trick by trick" in page.text
    assert "All 17 tricks are in." in page.text
    assert len(page.find_all("li", cls="marked")) == 5
    assert page.value("w") == " ".join(map(str, WINNERS))
    # trick 3 (a scoring trick) was Bob's, not Cy's
    v = page.value("version")
    moved = client.post(f"/matches/{match_id}/tally", data={"hand": "1", "w": page.value("w"), "version": v,
                                                              "change": "3:1"})
    assert moved.status_code == 303 and "hand=1" in moved.headers["Location"]
    page = page_of(client.get(moved.headers["Location"]))
    assert "If saved: Ann 0, Bob +1, Cy +4" in page.text
    saved = client.post(f"/matches/{match_id}/tally", data={"hand": "1", "w": page.value("w"), "version": v,
                                                              "save": "1", "request_key": "k" * 16})
    assert saved.status_code == 303
    words = text(client.get(saved.headers["Location"]))
    assert "Hand 1 corrected trick by trick. Totals changed from hand 1 on. Totals now: Ann 0, Bob 1, Cy 4." in words
    hands, log = stored_hands(app, match_id)
    assert hands == [{"winners": [0, 1, 1] + WINNERS[3:]}]
    assert [e["action"] for e in log] == ["create", "edit"]


def test_a_trick_by_trick_hand_turned_into_counts_on_purpose(app, client):
    match_id = make_match(app, client, "third_rail", ["Ann", "Bob", "Cy"], hands=[{"winners": WINNERS}],
                          settings={"most_other_tricks_bonus": True})
    url = f"/matches/{match_id}/hands/1/edit?as=counts"
    page = page_of(client.get(url))
    assert "saving replaces the trick-by-trick record with these counts" in page.text
    assert [page.value(f"scoring_tricks_{s}") for s in range(3)] == ["0", "0", "5"]
    assert [page.value(f"other_tricks_{s}") for s in range(3)] == ["6", "6", "0"]
    data = {"scoring_tricks_0": "1", "scoring_tricks_1": "0", "scoring_tricks_2": "4",
            "other_tricks_0": "5", "other_tricks_1": "6", "other_tricks_2": "1", "version": page.value("version")}
    response = client.post(url, data=data)
    assert response.status_code == 303
    assert "Hand 1 corrected as counts." in text(client.get(response.headers["Location"]))
    hands, _ = stored_hands(app, match_id)
    assert hands == [{"scoring_tricks": [1, 0, 4], "other_tricks": [5, 6, 1]}]


def test_counts_typed_beside_trick_winners_are_refused_not_ignored(client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"])
    response = record(client, match_id, scoring_tricks_0=5, scoring_tricks_1=0, scoring_tricks_2=0,
                      winners=" ".join(str(w + 1) for w in WINNERS))
    assert response.status_code == 422
    assert "give either winners (who won each trick) or scoring tricks and other tricks" in text(response)
    assert "Hand 1" not in text(client.get(f"/matches/{match_id}")).split("Save hand")[1]
    # the trick winners alone are fine, and so are the counts alone
    assert record(client, match_id, winners=" ".join(str(w + 1) for w in WINNERS)).status_code == 303


def test_third_rail_asks_for_other_tricks_only_with_the_bonus(client):
    plain = start(client, "third_rail", ["Ann", "Bob", "Cy"])
    page = page_of(client.get(f"/matches/{plain}"))
    assert page.find(name="scoring_tricks_0") is not None and page.find(name="other_tricks_0") is None
    assert record(client, plain, scoring_tricks_0=2, scoring_tricks_1=1, scoring_tricks_2=2).status_code == 303
    assert totals(client.get(f"/matches/{plain}").get_data(as_text=True)) == {"Ann": 2, "Bob": 1, "Cy": 2}
    bonus = start(client, "third_rail", ["Ann", "Bob", "Cy"], most_other_tricks_bonus=True)
    assert page_of(client.get(f"/matches/{bonus}")).find(name="other_tricks_0") is not None


# --- Third Hand: typed points and the card counter -----------------------------------

THIRD_HAND = {"bids_0": "pass", "bids_1": "K", "trump": "hearts"}
# Ann counted 2 aces, 2 nines, 1 ten, 3 pictures: 2 + 18 + 40 = 60 card points, 8 cards
ANN_COUNTS = {"count_0_aces": 2, "count_0_nines": 2, "count_0_tens": 1, "count_0_pictures": 3}


def test_typed_points_that_disagree_with_counted_cards_are_refused(client):
    match_id = start(client, "third_hand", ["Ann", "Bob"])
    response = record(client, match_id, **THIRD_HAND, points_0=70, points_1=80, **ANN_COUNTS)
    assert response.status_code == 422
    words = text(response)
    assert "Card points and counted cards disagree (Ann: 70 typed, but the counted cards make 60)" in words
    assert "Hand 1 saved" not in words
    # the same number twice is fine
    agreed = record(client, match_id, **THIRD_HAND, points_0=60, points_1=80, **ANN_COUNTS)
    assert agreed.status_code == 303


def test_points_the_page_filled_in_from_the_counter_follow_the_counter(client):
    match_id = start(client, "third_hand", ["Ann", "Bob"])
    # app.js filled 64 from an earlier count, then the counts changed: the counter wins
    response = record(client, match_id, **THIRD_HAND, points_0=64, points_1=80, **ANN_COUNTS,
                      counter_filled="points_0")
    assert response.status_code == 303
    assert totals(client.get(f"/matches/{match_id}").get_data(as_text=True)) == {"Ann": 60, "Bob": 100}


def test_the_preview_says_what_the_counted_cards_make(client):
    match_id = start(client, "third_hand", ["Ann", "Bob"])
    response = client.post(f"/matches/{match_id}/hands/preview",
                           data={**{k: str(v) for k, v in ANN_COUNTS.items()}, "version": version(client, match_id)})
    page = page_of(response)
    assert "Counted cards make Ann 60 card points." in page.text
    fill = [e for e in page.elements if e.attrs.get("data-fill")]
    assert [(e.attrs["data-fill"], e.attrs["data-fill-value"]) for e in fill] == [("points_0", "60")]


# --- a correction that changes a later hand's dealer -----------------------------------

HAND_1 = {"bids_0": "pass", "bids_1": "K", "trump": "hearts", "points_0": 60, "points_1": 80}  # Bob 100: deals hand 2
HAND_2 = {"bids_0": "9", "bids_1": "Q", "trump": "spades", "points_0": 60, "points_1": 80}  # Bob dealt, topped Ann's 9


def two_hands(client):
    match_id = start(client, "third_hand", ["Ann", "Bob"], target=300)
    assert record(client, match_id, **HAND_1).status_code == 303
    assert record(client, match_id, **HAND_2).status_code == 303
    return match_id


def test_a_correction_refused_for_a_later_dealer_offers_to_keep_that_hand(app, client):
    match_id = two_hands(client)
    # Ann took 80 and Bob 60: Bob failed, so Ann would deal hand 2, where her 9 cannot top Bob's Q
    data = {k: str(v) for k, v in dict(HAND_1, points_0=80, points_1=60).items()}
    v = version(client, match_id)
    preview = text(client.post(f"/matches/{match_id}/hands/1/preview", data=dict(data, version=v)))
    assert "This correction changes who deals a later hand:" in preview
    assert "hand 2 would come round to Ann, but it was recorded with Bob dealing" in preview
    assert "As it is, the correction cannot be saved" in preview
    refused = client.post(f"/matches/{match_id}/hands/1/edit", data=dict(data, version=v))
    assert refused.status_code == 422
    page = page_of(refused)
    keep = page.find("button", name="keep_dealers")
    assert keep is not None and keep.text == "Save, and mark hand 2 dealt by Bob"
    saved = client.post(f"/matches/{match_id}/hands/1/edit", data=dict(data, version=v, keep_dealers="1"))
    assert saved.status_code == 303
    hands, log = stored_hands(app, match_id)
    assert hands[1] == {**{"bids": ["9", "Q"], "trump": "spades", "points": [60, 80], "exchanged": False},
                        "dealer": 1}
    assert [(e["action"], e["hand"]) for e in log][-2:] == [("edit", 1), ("edit", 2)]
    assert "Hand 1 corrected." in text(client.get(f"/matches/{match_id}"))


def test_a_correction_that_moves_a_later_deal_says_so_before_saving(client):
    # hand 2 recorded with Ann passing: valid whoever deals, so saving as it is is possible too
    match_id = start(client, "third_hand", ["Ann", "Bob"], target=300)
    assert record(client, match_id, **HAND_1).status_code == 303
    assert record(client, match_id, **dict(HAND_2, bids_0="pass")).status_code == 303
    data = {k: str(v) for k, v in dict(HAND_1, points_0=80, points_1=60).items()}
    preview = text(client.post(f"/matches/{match_id}/hands/1/preview", data=dict(data, version=version(client, match_id))))
    assert "hand 2 would come round to Ann, but it was recorded with Bob dealing" in preview
    assert "Saved as it is, that hand is scored with the new dealer" in preview
