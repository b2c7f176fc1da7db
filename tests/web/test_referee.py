"""The referee tools through Flask's test client: trick referee, table guide on
the match page, Third Hand point counter, Third Rail tally, rules pages."""
from __future__ import annotations

import html as htmllib
import re

import pytest

from scorekeeper import store
from scorekeeper.engine import Match
from scorekeeper.games import GAMES

from .helpers import as_scorer

HX = {"HX-Request": "true"}


def make_match(app, client, game, players, settings=None, hands=None, first_dealer=0) -> int:
    with app.app_context():
        db = store.connect(app.config["DATABASE"])
        try:
            match_id = store.create_match(db, Match(game=game, players=players, settings=settings or {},
                                                    first_dealer=first_dealer, hands=hands or []))
        finally:
            db.close()
    as_scorer(app, match_id, client)  # as if this client had started it
    return match_id


def text(response) -> str:
    """The page as words: tags dropped, whitespace squeezed."""
    html = response.get_data(as_text=True)
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace(" .", ".").strip())


# --- trick referee: pages ---------------------------------------------------------

# every game with a trick referee, read from the registry: a game added later is listed here too
REFEREES = tuple(key for key, game in GAMES.items() if game.referee is not None)
# the games whose sections of rules.md rule on something their rules page marks (a fact of those
# pages, not of every game)
RULED = ("third_hand", "third_wheel", "dummy_spades", "third_rail")


def test_referee_index_lists_every_game_and_is_in_the_top_bar(client):
    page = client.get("/referee")
    assert page.status_code == 200
    assert REFEREES  # the list below is not empty by accident
    for key in REFEREES:
        assert f'href="/referee/{key}"' in page.get_data(as_text=True)
    assert 'href="/referee"' in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("game", REFEREES)
def test_each_referee_page_full_and_partial(client, game):
    full = client.get(f"/referee/{game}")
    assert full.status_code == 200
    html = full.get_data(as_text=True)
    assert "<html" in html and 'id="referee"' in html and 'name="add"' in html
    partial = client.get(f"/referee/{game}", headers=HX)
    assert partial.status_code == 200
    body = partial.get_data(as_text=True)
    # the partial is the referee form alone, ready to swap into #referee
    assert body.lstrip().startswith('<form id="referee"')
    assert "<html" not in body and "nav-referee" not in body


def test_unknown_game_is_404(client):
    assert client.get("/referee/bridge").status_code == 404


@pytest.mark.parametrize("url, winner, reason", [
    ("/referee/third_hand?trump=hearts&high=K&c1=KS&c2=AS", "2nd card wins",
     "An Ace played second is highest in Third Hand, so A♠ beats K♠."),
    ("/referee/third_hand?trump=spades&high=J&c1=KH&c2=JH", "2nd card wins", "with J high the order is"),
    ("/referee/third_wheel?trump=wyrms&mode=low&c1=The+Sailor&c2=The+Darkness&c3=Ace+of+Wyrms",
     "3rd card wins", "Ace of Wyrms (played third) is the lowest trump (Wyrms) in a low hand"),
    ("/referee/dummy_spades?c1=AH&c2=KH&c3=2S&c4=QH", "3rd card wins", "Spades are trump: 2♠ (played 3rd)"),
    ("/referee/third_rail?players=3&c1=5C&c2=KC&c3=AC", "2nd card wins", "K♣ (played 2nd) is the highest club"),
    ("/referee/third_rail?players=5&c1=QD&c2=QD&c3=5D&c4=KS&c5=9D", "Led card wins",
     "of two identical cards the one played first wins"),
])
def test_a_full_trick_shows_the_winner_and_why(client, url, winner, reason):
    page = text(client.get(url))
    assert winner in page
    assert reason in page


def test_tapping_cards_fills_the_trick_in_order_with_htmx(client):
    page = client.get("/referee/third_hand?trump=clubs&high=K&add=9C", headers=HX)
    html = page.get_data(as_text=True)
    assert 'value="9C" selected' in html and "Tap the card played 2nd" in text(page)
    page = client.get("/referee/third_hand?trump=clubs&high=K&c1=9C&add=10C", headers=HX)
    assert "2nd card wins" in text(page)
    assert page.headers.get("HX-Reswap", "").startswith("outerHTML show:")
    undone = client.get("/referee/third_hand?trump=clubs&high=K&c1=9C&c2=10C&undo=1", headers=HX)
    assert 'value="10C" selected' not in undone.get_data(as_text=True)
    assert 'value="9C" selected' in undone.get_data(as_text=True)


def test_tapping_without_javascript_redirects_to_a_plain_address(client):
    response = client.get("/referee/dummy_spades?c1=AS&add=KS")
    assert response.status_code == 303
    assert "c1=AS" in response.location and "c2=KS" in response.location and "add" not in response.location


def test_a_full_trick_and_another_tap_starts_a_new_trick(client):
    page = client.get("/referee/third_hand?trump=clubs&high=K&c1=9C&c2=10C&add=AH", headers=HX)
    html = page.get_data(as_text=True)
    assert 'id="ref-c1"' in html and re.search(r'id="ref-c1".*?value="AH" selected', html, re.S)
    assert 'value="9C" selected' not in html


@pytest.mark.parametrize("url, message", [
    ("/referee/dummy_spades?c1=AS&c2=AS&c3=2H&c4=3H", "A♠ is in the trick twice, but the deck has only one"),
    ("/referee/third_hand?trump=hearts&high=K&c1=KS&c2=KS", "K♠ is played twice"),
    ("/referee/third_wheel?trump=moons&mode=high&c1=The+Author&c2=The+Author&c3=The+Sea", "played twice"),
    ("/referee/third_rail?players=4&c1=KS&c2=KS&c3=2S&c4=3S", "K♠ was played 2 times, but one deck has only one"),
    ("/referee/third_rail?players=5&c1=KS&c2=2S&c3=5S&c4=6S&c5=7S", "two decks have no 2s, 3s or 4s"),
    ("/referee/dummy_spades?c1=ZZ&c2=KS&c3=2H&c4=3H", "Unknown card \"ZZ\""),
    ("/referee/third_wheel?trump=moons&mode=high&c1=The+Joker&c2=The+Author&c3=The+Sea", "Unknown card"),
    ("/referee/third_hand?trump=purple&high=K&c1=KS&c2=AS", "Trump must be one of"),
    ("/referee/third_rail?players=9", "Third Rail is for 3 to 6 players"),
    ("/referee/dummy_spades?c1=AS&judge=1", "Pick all 4 cards of the trick first: 1 of 4 so far."),
])
def test_impossible_tricks_are_form_messages_not_errors(client, url, message):
    for headers in ({}, HX):
        response = client.get(url, headers=headers)
        assert response.status_code == 200
        assert message in text(response)
        assert 'class="alert error"' in response.get_data(as_text=True)


def test_a_used_card_cannot_be_tapped_again_with_one_deck_but_can_with_two(client):
    one = client.get("/referee/third_rail?players=4&c1=KS").get_data(as_text=True)
    assert re.search(r'value="KS" class="ref-card used"\s+disabled', one)
    two = client.get("/referee/third_rail?players=6&c1=KS").get_data(as_text=True)
    assert not re.search(r'value="KS" class="ref-card used"', two)
    assert 'value="2S"' in one and 'value="2S"' not in two


def test_decktet_picker_shows_all_36_cards_with_names_ranks_and_suits(client):
    html = client.get("/referee/third_wheel").get_data(as_text=True)
    assert len(re.findall(r'name="add"', html)) == 36
    assert "The Chance Meeting" in html and "Moons/Leaves" in html and "Crowns (10)" in html
    # a card known by its own name is drawn tall with it, in a wide grid (the face's kind, not the deck's name)
    assert re.search(r'class="cardface named"><span class="cf-rank">2</span><span class="cf-name">The Author</span>', html)
    assert 'class="ref-grid wide"' in html


@pytest.mark.parametrize("game, count", [("third_hand", 24), ("dummy_spades", 52), ("third_rail", 52)])
def test_standard_pickers_have_the_right_deck(client, game, count):
    html = client.get(f"/referee/{game}").get_data(as_text=True)
    assert len(re.findall(r'name="add"', html)) == count
    assert 'class="cardface red"' in html and 'class="cardface black"' in html


# --- defaults from a match ------------------------------------------------------

def test_the_referee_starts_from_the_hand_in_progress_not_the_last_one(app, client):
    """Issue "At the table" item 10: the last recorded hand's trump is over; the hand being
    played has its own, which the referee asks for until the table says it."""
    hand = {"bids": ["Q", None], "trump": "diamonds", "points": [70, 50]}
    match_id = make_match(app, client, "third_hand", ["Ann", "Bob"], hands=[hand])
    html = client.get(f"/referee/third_hand?match={match_id}").get_data(as_text=True)
    assert '<option value="diamonds" selected>' not in html and '<option value="Q" selected>' not in html
    assert html.count('<option value="" selected>— pick —</option>') == 2
    words = text(client.get(f"/referee/third_hand?match={match_id}"))
    assert "For Ann, Bob: hand 2, Bob deals. This hand's trump and high rank are not recorded yet: pick them below." \
        in words
    assert f'name="match" value="{match_id}"' in html
    # a whole trick with nothing picked: asked for, never guessed
    trick = text(client.get(f"/referee/third_hand?match={match_id}&c1=KS&c2=AS"))
    assert "Pick this hand's trump and high rank above first: who wins depends on it." in trick
    # what the hand form holds so far, sent along by the match page
    typed = client.get(f"/referee/third_hand?match={match_id}&trump=hearts&high=J&from=form")
    html = typed.get_data(as_text=True)
    assert '<option value="hearts" selected>' in html and '<option value="J" selected>' in html
    assert "Set from hand 2's form as typed so far" in text(typed)
    # outside a match the game's defaults still stand
    assert '<option value="K" selected>' in client.get("/referee/third_hand").get_data(as_text=True)


def test_the_match_page_sends_the_hand_in_progress_to_the_referee(client):
    from .helpers import start, version
    match_id = start(client, "third_hand", ["Ann", "Bob"])
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f'id="referee-link" href="/referee/third_hand?match={match_id}"' in html
    preview = client.post(f"/matches/{match_id}/hands/preview", data={
        "bids_0": "9", "bids_1": "Q", "trump": "clubs", "version": version(client, match_id)})
    answer = preview.get_data(as_text=True)
    # the link's address is set in place by app.js: the link itself is never replaced
    # ... the places round the table too, from Bob, who holds the contract and so leads
    assert (f'data-referee-url="/referee/third_hand?match={match_id}&amp;table=1,0&amp;trump=clubs&amp;high=Q'
            '&amp;from=form"') in answer
    assert 'id="referee-link"' not in answer
    # and the seat picture beside the preview draws the contract the bids decided
    assert 'aria-label="Round the table clockwise from the bottom: Ann, Bob. Ann: deals, bid 9; Bob: holds the Q ' \
           'contract, leads."' in answer


def test_in_a_match_the_referee_names_who_played_each_card_and_the_winner_leads_next(app, client):
    match_id = make_match(app, client, "third_rail", ["Ann", "Bob", "Cy", "Dee"], first_dealer=1)  # Bob deals: Cy leads
    page = client.get(f"/referee/third_rail?match={match_id}")
    assert slot_labels(page) == ["Cy leads", "Dee", "Ann", "Bob"] and "Tap the card Cy led." in text(page)
    judged = text(client.get(f"/referee/third_rail?match={match_id}&c1=5C&c2=KC&c3=AC&c4=9C"))
    assert "Dee wins the trick" in judged and "(Dee leads it)" in judged
    nxt = client.get(f"/referee/third_rail?match={match_id}&c1=5C&c2=KC&c3=AC&c4=9C&add=2H", headers=HX)
    assert slot_labels(nxt) == ["Dee leads", "Ann", "Bob", "Cy"] and "Tap the card Ann played." in text(nxt)
    # picked by hand: Ann led this trick
    assert slot_labels(client.get(f"/referee/third_rail?match={match_id}&table=2,3,0,1&lead=2"))[0] == "Ann leads"
    # outside a match: places in the trick, as before
    assert slot_labels(client.get("/referee/third_rail?players=3")) == ["Led", "2nd", "3rd"]


def slot_labels(response) -> list[str]:
    return re.findall(r'<span class="ref-slot-label">([^<]*)</span>', response.get_data(as_text=True))


def test_third_wheel_asks_for_this_hands_trump_and_mode(app, client):
    hand = {"trump": "knots", "mode": "low", "wheel": False, "bid": 4, "tricks": [4, 4, 3]}
    match_id = make_match(app, client, "third_wheel", ["Ann", "Bob", "Cy"], hands=[hand])
    html = client.get(f"/referee/third_wheel?match={match_id}").get_data(as_text=True)
    assert '<option value="knots" selected>' not in html and '<option value="low" selected>' not in html
    assert "trump and high or low are not recorded yet" in text(client.get(f"/referee/third_wheel?match={match_id}"))


def test_third_rail_match_sets_players_decks_and_trump(app, client):
    five = make_match(app, client, "third_rail", ["A", "B", "C", "D", "E"])
    html = client.get(f"/referee/third_rail?match={five}").get_data(as_text=True)
    assert len(re.findall(r'<li class="ref-slot[ "]', html)) == 5
    assert "two decks" in html and 'value="2S"' not in html
    assert "This match plays without trump" in html and 'name="trump"' not in html
    with_trump = make_match(app, client, "third_rail", ["A", "B", "C"], settings={"trump": True},
                            hands=[{"scoring_tricks": [5, 0, 0], "other_tricks": [12, 0, 0], "trump": "clubs"}])
    html = client.get(f"/referee/third_rail?match={with_trump}").get_data(as_text=True)
    assert len(re.findall(r'<li class="ref-slot[ "]', html)) == 3
    # the flipped suit of the hand being played, asked for: not the last hand's, and not "no trump"
    assert '<option value="clubs" selected>' not in html and "no trump" not in html
    assert '<option value="" selected>— pick —</option>' in html


def test_referee_for_a_match_of_another_game_or_no_match_is_404(app, client):
    match_id = make_match(app, client, "third_hand", ["Ann", "Bob"])
    assert client.get(f"/referee/dummy_spades?match={match_id}").status_code == 404
    assert client.get("/referee/third_hand?match=999").status_code == 404


# --- the match page ----------------------------------------------------------------

def test_match_page_shows_the_table_guide_and_referee_links(app, client):
    match_id = make_match(app, client, "third_wheel", ["Ann", "Bob", "Cy"], first_dealer=1)
    page = client.get(f"/matches/{match_id}")
    words = text(page)
    assert "hand 1, Bob deals" in words
    assert "Cy (setter 1, left of the dealer) calls trump" in words
    assert "Ann (setter 2) calls the hand high or low" in words
    html = page.get_data(as_text=True)
    assert f'href="/referee/third_wheel?match={match_id}"' in html
    assert f'href="/matches/{match_id}/rules"' in html
    assert re.search(r'id="table-guide">\s*<details>', html)  # closed, even for hand 1


def test_table_guide_follows_the_next_dealer(app, client):
    hand = {"bids": [3, 4, 5], "tricks": [3, 4, 3], "dummy_tricks": 3}
    match_id = make_match(app, client, "dummy_spades", ["Ann", "Bob", "Cy"], hands=[hand])
    words = text(client.get(f"/matches/{match_id}"))
    assert "hand 2, Bob deals" in words
    assert "One round of bidding: Cy first, then Ann, then Bob (the dealer) last." in words


# --- Third Hand point counter -----------------------------------------------------

def th_form(**extra) -> dict:
    data = {"bids_0": "pass", "bids_1": "pass", "trump": "hearts", "points_0": "", "points_1": ""}
    data.update({k: str(v) for k, v in extra.items()})
    return data


def test_counted_cards_become_points_and_are_saved(app, client):
    match_id = make_match(app, client, "third_hand", ["Ann", "Bob"])
    data = th_form(count_0_aces=2, count_0_nines=1, count_0_tens=2, count_0_pictures=3,
                   count_1_aces=2, count_1_nines=3, count_1_tens=1, count_1_pictures=0)
    preview = client.post(f"/matches/{match_id}/hands/preview", data=data)
    # Ann: 2 + 9 + 50 = 61 from 8 cards; Bob: 2 + 27 + 10 = 39 from 6 cards
    assert "Ann +61" in text(preview) and "Bob +39" in text(preview)
    saved = client.post(f"/matches/{match_id}/hands", data=data)
    assert saved.status_code == 303
    with app.app_context():
        db = store.connect(app.config["DATABASE"])
        assert store.get_record(db, match_id).match.hands[-1]["points"] == [61, 39]
        db.close()


def test_one_player_counts_and_the_other_types_points(app, client):
    match_id = make_match(app, client, "third_hand", ["Ann", "Bob"])
    data = th_form(points_1="79", count_0_aces=1, count_0_nines=0, count_0_tens=1, count_0_pictures=4)
    assert "Ann +51" in text(client.post(f"/matches/{match_id}/hands/preview", data=data))


@pytest.mark.parametrize("counts, message", [
    (dict(count_0_aces=3, count_0_nines=1, count_0_tens=2, count_0_pictures=2,
          count_1_aces=2, count_1_nines=1, count_1_tens=1, count_1_pictures=2),
     "aces add up to 5, but the deck has only 4"),
    (dict(count_0_aces=1, count_0_nines=0, count_0_tens=2, count_0_pictures=2,
          count_1_aces=1, count_1_nines=1, count_1_tens=1, count_1_pictures=6),
     "Ann captured 5 cards, but every trick gives 2, so it must be even"),
    (dict(count_0_aces=1, count_0_nines=1, count_0_tens=1, count_0_pictures=1,
          count_1_aces=1, count_1_nines=1, count_1_tens=1, count_1_pictures=1),
     "cards captured add up to 8, not 14"),
    (dict(count_0_aces=1, count_0_nines=0, count_0_tens=0, count_0_pictures=13), "must be 0 to 12, got 13"),
])
def test_impossible_counts_say_what_is_impossible(app, client, counts, message):
    match_id = make_match(app, client, "third_hand", ["Ann", "Bob"])
    data = th_form(**counts)
    preview = text(client.post(f"/matches/{match_id}/hands/preview", data=data))
    assert "Impossible:" in preview and message in preview
    saved = client.post(f"/matches/{match_id}/hands", data=data)
    assert saved.status_code == 422 and message in text(saved)


def test_count_inputs_are_on_the_third_hand_form_only(app, client):
    th = make_match(app, client, "third_hand", ["Ann", "Bob"])
    html = client.get(f"/matches/{th}").get_data(as_text=True)
    assert "Count cards instead of points" in html and 'name="count_1_pictures"' in html
    tw = make_match(app, client, "third_wheel", ["Ann", "Bob", "Cy"])
    assert "count_0_aces" not in client.get(f"/matches/{tw}").get_data(as_text=True)


# --- Third Rail tally --------------------------------------------------------------

def tap(client, match_id, w, **extra):
    data = {"w": " ".join(map(str, w)), **extra}
    return client.post(f"/matches/{match_id}/tally", data=data, headers=HX)


def test_tally_counts_tricks_undoes_and_saves(app, client):
    match_id = make_match(app, client, "third_rail", ["Ann", "Bob", "Cy"], settings={"most_other_tricks_bonus": True})
    page = client.get(f"/matches/{match_id}/tally")
    assert page.status_code == 200 and "Trick 1 of 17" in text(page) and "Bob leads" in text(page)
    page = tap(client, match_id, [], tap="1")
    assert "Trick 2 of 17" in text(page) and 'name="w" value="1"' in page.get_data(as_text=True)
    page = tap(client, match_id, [1], tap="2")
    assert "Trick 3 of 17, a scoring trick" in text(page)
    page = tap(client, match_id, [1, 2], tap="0")
    assert 'name="w" value="1 2 0"' in page.get_data(as_text=True)
    assert "Trick 4 of 17" in text(page)
    page = tap(client, match_id, [1, 2, 0], undo="1")
    assert 'name="w" value="1 2"' in page.get_data(as_text=True)
    assert "Trick 3 of 17, a scoring trick" in text(page)
    # Ann wins every scoring trick (3, 6, 9, 12, 15), Bob the rest
    winners = [0 if n % 3 == 0 else 1 for n in range(1, 18)]
    page = tap(client, match_id, winners[:-1], tap="1")
    words = text(page)
    assert "All 17 tricks are in." in words and "If saved: Ann +5, Bob +2, Cy 0" in words
    saved = tap(client, match_id, winners, save="1")
    assert saved.status_code == 204 and saved.headers["HX-Redirect"].startswith(f"/matches/{match_id}")
    board = client.get(f"/matches/{match_id}")
    words = text(board)
    assert "17 tricks by winner" in words
    with app.app_context():
        db = store.connect(app.config["DATABASE"])
        assert store.get_record(db, match_id).match.hands == [{"winners": winners}]
        assert store.audit_log(db, match_id)[-1]["action"] == "save"
        db.close()


def test_tally_without_javascript_posts_back_the_page_and_redirects_on_save(app, client):
    match_id = make_match(app, client, "third_rail", ["Ann", "Bob", "Cy", "Dee"])
    tapped = client.post(f"/matches/{match_id}/tally", data={"w": "", "tap": "3"})
    assert tapped.status_code == 303 and "w=3" in tapped.location  # the taps live in the address
    page = client.get(tapped.location)
    assert page.status_code == 200 and "<html" in page.get_data(as_text=True)
    assert "Trick 2 of 13" in text(page)
    saved = client.post(f"/matches/{match_id}/tally", data={"w": " ".join(["3"] * 13), "save": "1"})
    assert saved.status_code == 303
    assert "Hand 1 saved, trick by trick: " in text(client.get(saved.location))


def test_reopening_the_tally_goes_on_from_the_last_tap_until_saved(app, client):
    match_id = make_match(app, client, "third_rail", ["Ann", "Bob", "Cy", "Dee"])
    tap(client, match_id, [], tap="3")
    tap(client, match_id, [3], tap="1")
    client.get(f"/matches/{match_id}")  # back to the scoreboard, then "Record trick by trick" again
    page = client.get(f"/matches/{match_id}/tally")
    assert "Trick 3 of 13, a scoring trick" in text(page) and 'name="w" value="3 1"' in page.get_data(as_text=True)
    partner = app.test_client()  # a second scorer's phone starts its own tally
    as_scorer(app, match_id, partner)
    assert "Trick 1 of 13" in text(partner.get(f"/matches/{match_id}/tally"))
    tap(client, match_id, [3, 1], clear="1")
    assert "Trick 1 of 13" in text(client.get(f"/matches/{match_id}/tally"))
    tap(client, match_id, [], tap="2")
    client.post(f"/matches/{match_id}/tally", data={"w": " ".join(["2"] * 13), "save": "1"})
    assert "Trick 1 of 13" in text(client.get(f"/matches/{match_id}/tally"))  # hand 2 starts afresh


def test_tally_refuses_to_save_an_unfinished_hand_and_records_trump(app, client):
    match_id = make_match(app, client, "third_rail", ["Ann", "Bob", "Cy"], settings={"trump": True})
    refused = client.post(f"/matches/{match_id}/tally", data={"w": "0 1 2", "save": "1"})
    assert refused.status_code == 422 and "must be a list of 17 seats" in text(refused)
    saved = client.post(f"/matches/{match_id}/tally", data={"w": " ".join(["0"] * 17), "save": "1",
                                                             "trump": "spades"})
    assert saved.status_code == 303
    with app.app_context():
        db = store.connect(app.config["DATABASE"])
        assert store.get_record(db, match_id).match.hands[-1]["trump"] == "spades"
        db.close()


def test_tally_is_only_for_third_rail(app, client):
    match_id = make_match(app, client, "third_hand", ["Ann", "Bob"])
    assert client.get(f"/matches/{match_id}/tally").status_code == 404


def test_tally_stale_version_keeps_the_taps(app, client):
    match_id = make_match(app, client, "third_rail", ["Ann", "Bob", "Cy"])
    winners = " ".join(["0"] * 17)
    client.post(f"/matches/{match_id}/tally", data={"w": winners, "save": "1"})
    page = client.post(f"/matches/{match_id}/tally", data={"w": winners, "save": "1", "version": "1"})
    assert "This match changed" in text(page)
    assert f'name="w" value="{winners}"' in page.get_data(as_text=True)


def test_tally_drops_mangled_taps(app, client):
    match_id = make_match(app, client, "third_rail", ["Ann", "Bob", "Cy"])
    page = tap(client, match_id, ["1", "²", "x", "7", "2"])
    assert page.status_code == 200 and 'name="w" value="1 2"' in page.get_data(as_text=True)


@pytest.mark.parametrize("mangled", ["²", "1.5", "v3"])
def test_tally_with_a_mangled_version_keeps_the_taps_and_saves_nothing(app, client, mangled):
    match_id = make_match(app, client, "third_rail", ["Ann", "Bob", "Cy"])
    winners = " ".join(["0"] * 17)
    page = client.post(f"/matches/{match_id}/tally", data={"w": winners, "save": "1", "version": mangled})
    assert page.status_code == 422 and "This match changed" in text(page)
    assert f'name="w" value="{winners}"' in page.get_data(as_text=True)
    with app.app_context():
        db = store.connect(app.config["DATABASE"])
        assert store.get_record(db, match_id).match.hands == []
        db.close()


# --- rules pages ---------------------------------------------------------------------

@pytest.mark.parametrize("game", RULED)
def test_rules_page_per_game_marks_rulings(client, game):
    page = client.get(f"/rules/{game}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert '<span class="ruling">Ruling</span>' in html  # every game's page marks at least one ruling
    assert "Who wins a trick" in html


def test_rules_page_of_a_match_shows_its_settings(app, client):
    values = {"9": 50, "10": 55, "J": 60, "Q": 65, "K": 70, "A": 99}
    match_id = make_match(app, client, "third_hand", ["Ann", "Bob"], settings={"target": 300, "contract_values": values})
    words = text(client.get(f"/matches/{match_id}/rules"))
    assert "past 300" in words and "9 50, 10 55, J 60, Q 65, K 70, A 99" in words
    rail = make_match(app, client, "third_rail", ["A", "B", "C", "D"], settings={"scoring_from": 2, "trump": True,
                                                                       "most_other_tricks_bonus": True})
    words = text(client.get(f"/matches/{rail}/rules"))
    assert "Tricks 2, 5, 8, … score one point" in words
    assert "Ruling Tied players each score 2" in words and "if everyone is tied, everyone gets 2" in words
    assert "the dealer turns up the last card dealt to themself" in words
    spades = make_match(app, client, "dummy_spades", ["A", "B", "C"], settings={"peek": "flip", "flip_count": 3,
                                                                       "bag_limit": 0})
    words = text(client.get(f"/matches/{spades}/rules"))
    assert "Flip 3" in words and "never penalised" in words and "App ruling" in words
    wheel = make_match(app, client, "third_wheel", ["A", "B", "C"], settings={"deals_each": 3})
    words = text(client.get(f"/matches/{wheel}/rules"))
    assert "every player has dealt at least 3 times" in words
    assert "with no deal out of turn that is 9 hands (3 × 3)" in words and "Shared wins apply when the target" in words
    assert "A player who dealt out of turn may deal more often" in words


def test_a_typed_table_with_a_seat_of_three_digits_falls_back_to_places_not_a_500(app, client):
    match_id = make_match(app, client, "third_rail", ["Ann", "Bob", "Cy", "Dee"], first_dealer=1)
    for table in ("2,3,0,123", "2,3,0,007", "2,3,0,x", "2,3,0,4"):
        answer = client.get(f"/referee/third_rail?match={match_id}&table={table}")
        assert answer.status_code == 200, table
        # not a table of this match: the trick's places, not names
        assert slot_labels(answer) == ["Led", "2nd", "3rd", "4th"], table
