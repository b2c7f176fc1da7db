"""A saved hand's answer to htmx carries only what changed (out-of-band swaps by
id), and a save replays the match at most once."""
from __future__ import annotations

import re
import sqlite3
import uuid
from html.parser import HTMLParser

import pytest

from scorekeeper import engine, samples, store
from scorekeeper.web import create_app
from scorekeeper.web.edges.db import get_db

from .helpers import as_scorer, page_of, stored, version

WHEEL = {"trump": "wyrms", "mode": "high", "bid": "5", "tricks_0": "5", "tricks_1": "4", "tricks_2": "2"}


class Page(HTMLParser):
    """The elements a user would look at: each element with an id (its text and
    attributes), and the text of every ``span`` by class inside #totals."""

    def __init__(self, html: str):
        super().__init__()
        self.ids: dict[str, dict] = {}
        self.open: list[tuple[str, str | None]] = []
        self.totals: list[tuple[str, str]] = []
        self._span: str | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids[attrs["id"]] = {"attrs": attrs, "text": ""}
        if tag == "span" and any(i == "totals" for _, i in self.open):
            self._span = attrs.get("class")
        if tag not in ("input", "br", "img", "meta", "link"):
            self.open.append((tag, attrs.get("id")))

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()[0] == tag:
                break
        self._span = None

    def handle_data(self, data):
        for _, i in self.open:
            if i:
                self.ids[i]["text"] += data
        if self._span in ("name", "total"):
            self.totals.append((self._span, data.strip()))

    def standings(self) -> dict[str, int]:
        names = [t for kind, t in self.totals if kind == "name"]
        points = [int(t) for kind, t in self.totals if kind == "total"]
        return dict(zip(names, points))


@pytest.fixture
def long_match(app, client):
    """A Third Wheel match that never ends, with ``hands`` recorded hands."""
    def make(hands: int) -> int:
        return stored(app, client, samples.long_match("third_wheel", hands, seed=3))
    return make


def save(client, match_id: int, htmx: bool = True):
    data = dict(WHEEL, version=version(client, match_id), request_key=uuid.uuid4().hex)
    headers = {"HX-Request": "true", "HX-Target": "match-live"} if htmx else {}
    return client.post(f"/matches/{match_id}/hands", data=data, headers=headers)


def test_htmx_save_answers_with_the_new_row_and_totals_only(app, client, long_match):
    match_id = long_match(7)
    response = save(client, match_id)
    assert response.status_code == 200
    assert response.headers["HX-Reswap"] == "none"  # every part goes in by id
    answer = Page(response.get_data(as_text=True))
    # the new row, appended to the hand table
    assert "hand-8" in answer.ids
    assert "Hand 8" in answer.ids["hand-8"]["text"]
    assert not [n for n in range(1, 8) if f"hand-{n}" in answer.ids]  # no earlier hands
    # the totals as the whole page now shows them
    full = Page(client.get(f"/matches/{match_id}").get_data(as_text=True))
    assert answer.standings() == full.standings() and answer.standings()
    assert answer.ids["totals"]["attrs"].get("hx-swap-oob") == "true"
    notice = answer.ids["match-notice"]
    assert notice["attrs"].get("hx-swap-oob") == "innerHTML"  # the live region stays, its words change
    words = " ".join(notice["text"].split())  # a name and its number are joined by a no-break space
    assert re.search(r"Hand 8 saved: Ann [+-]?\d+, Bob [+-]?\d+, Cy [+-]?\d+\. Totals: Ann -?\d+, Bob -?\d+, Cy -?\d+\.",
                     words), words
    for name, total in full.standings().items():
        assert f"{name} {total}" in words.split("Totals: ")[1]
    assert "Hand 9" in answer.ids["record"]["text"]  # the next hand's form
    assert "Undo hand 8" in answer.ids["undo-link"]["text"]
    # every part the answer replaces is on the match page
    for part in ("match-notice", "match-banner", "totals", "match-guide", "match-record", "undo-link",
                 "hand-table", "chart"):
        assert part in full.ids, part
    assert "hand-8" in full.ids and "Hand 9" in full.ids["record"]["text"]


def test_answer_size_does_not_grow_with_the_match(client, long_match):
    early, late = long_match(4), long_match(59)
    small = len(save(client, early).get_data())
    big = len(save(client, late).get_data())
    assert big < 2 * small, (small, big)


def _fresh_server(app, tmp_path):
    """A second server on a copy of the file: it has seen none of this one's requests."""
    copy = tmp_path / "fresh.sqlite"
    with sqlite3.connect(app.config["DATABASE"]) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    return create_app({**app.config, "DATABASE": copy})


def test_a_save_replays_the_match_at_most_once(client, long_match):
    match_id = long_match(30)
    client.get(f"/matches/{match_id}")  # the page the scorer saves from
    before = engine.replay_count()
    assert save(client, match_id).status_code == 200
    folded = engine.replay_count() - before
    assert 1 <= folded.hands <= 2, folded  # the new hand checked, then checked again as it is stored
    before = engine.replay_count()
    assert save(client, match_id).status_code == 200  # the next save goes on from this one
    folded = engine.replay_count() - before
    assert 1 <= folded.hands <= 2, folded


def test_a_save_in_a_fresh_process_replays_once(app, client, long_match, tmp_path):
    match_id = long_match(30)
    page_version = version(client, match_id)
    fresh = _fresh_server(app, tmp_path)
    fresh_client = fresh.test_client()
    as_scorer(fresh, match_id, fresh_client)
    before = engine.replay_count()
    response = fresh_client.post(f"/matches/{match_id}/hands", headers={"HX-Request": "true"},
                                 data=dict(WHEEL, version=page_version, request_key=uuid.uuid4().hex))
    assert response.status_code == 200
    assert "Hand 31 saved" in response.get_data(as_text=True)
    folded = engine.replay_count() - before
    assert 30 <= folded.hands <= 30 + 2, folded  # the stored 30 hands once, the new one at most twice


@pytest.mark.parametrize("number", [1, 15, 30])
def test_an_edit_preview_replays_the_match_at_most_once(app, client, long_match, tmp_path, number):
    match_id = long_match(30)
    fresh = _fresh_server(app, tmp_path)
    phone = fresh.test_client()
    as_scorer(fresh, match_id, phone)
    phone.get(f"/matches/{match_id}")  # the scoreboard, where the scorer taps Edit
    assert phone.get(f"/matches/{match_id}/hands/{number}/edit").status_code == 200
    preview = f"/matches/{match_id}/hands/{number}/preview"
    headers = {"HX-Request": "true"}
    before = engine.replay_count()
    response = phone.post(preview, data=dict(WHEEL, version="1"), headers=headers)
    assert response.status_code == 200 and "If saved:" in response.get_data(as_text=True)
    folded = engine.replay_count() - before
    assert folded.hands <= 30, folded  # hands 1 to 30 once at most
    # the next keystroke goes on from the hands before the one being corrected
    before = engine.replay_count()
    response = phone.post(preview, data=dict(WHEEL, version="1", bid="6", tricks_0="6", tricks_1="3"),
                          headers=headers)
    assert response.status_code == 200 and "If saved:" in response.get_data(as_text=True)
    folded = engine.replay_count() - before
    assert folded.hands <= 30 - number + 1, folded


def test_save_without_javascript_redirects_to_the_page_with_the_hand(client, long_match):
    match_id = long_match(5)
    response = save(client, match_id, htmx=False)
    assert response.status_code == 303
    page = Page(client.get(response.headers["Location"]).get_data(as_text=True))
    assert "Hand 6" in page.ids["hand-6"]["text"]
    assert "Hand 6 saved: " in page.ids["match-notice"]["text"]
    assert response.headers["Location"].endswith("#match-notice")  # the browser brings the notice into view


def test_chart_loads_on_its_own(client, long_match):
    match_id = long_match(5)
    response = client.get(f"/matches/{match_id}/chart")
    assert response.status_code == 200
    assert "<svg" in response.get_data(as_text=True)



def _form_labels(html: str) -> list[str]:
    """What the next hand's form asks, label by label, as a reader of the page sees it."""
    record = html.split('id="hand-form"', 1)[1].split("</form>", 1)[0]
    return [" ".join(re.sub(r"<[^>]+>", " ", label).split())
            for label in re.findall(r"<label[^>]*>(.*?)</label>", record, re.S)]


def test_the_next_hand_form_follows_a_renamed_player_and_the_hands_seating(app, client):
    """A blank form's drawing is kept per match seating (hand_forms.draw_groups): a
    renamed player, another match's names and the bidding order moving round with the
    deal each show at once in the next hand's form."""
    from .helpers import start
    from .test_setup import setup_form

    match_id = start(client, "third_wheel", ["Ann", "Tom", "Cy"])
    first = _form_labels(client.get(f"/matches/{match_id}").get_data(as_text=True))
    assert "Tom" in first
    answer = client.post(f"/matches/{match_id}/hands", headers={"HX-Request": "true"},
                         data=dict(WHEEL, version=version(client, match_id), request_key=uuid.uuid4().hex))
    second = _form_labels(answer.get_data(as_text=True))
    assert "Ann took the Wheel" in first
    assert "Tom took the Wheel" in second and "Ann took the Wheel" not in second  # the hand moved on
    client.post(f"/matches/{match_id}/setup", data=dict(setup_form(client, match_id), player_1="Thomas"))
    renamed = _form_labels(client.get(f"/matches/{match_id}").get_data(as_text=True))
    assert "Thomas" in renamed and "Tom" not in renamed
    other = start(client, "third_wheel", ["Ann", "Tom", "Dee"])
    assert "Dee" in _form_labels(client.get(f"/matches/{other}").get_data(as_text=True))


def test_the_exports_and_the_printed_sheet_reuse_the_scoreboards_replay(client, long_match):
    match_id = long_match(30)
    client.get(f"/matches/{match_id}")  # the scoreboard, where Export and Print are
    before = engine.replay_count()
    csv = client.get(f"/matches/{match_id}/export.csv")
    printed = client.get(f"/matches/{match_id}/print")
    assert csv.status_code == printed.status_code == 200
    import csv as csv_module
    rows = list(csv_module.reader(csv.get_data(as_text=True).splitlines(keepends=True)))
    assert [row[0] for row in rows[1:]] == [str(n) for n in range(1, 31)]
    assert ">30<" in printed.get_data(as_text=True).replace(" ", "")
    assert engine.replay_count().hands - before.hands == 0  # the same version: nothing folded again


def test_the_next_hands_are_saved_from_the_answers_own_form(app, client, long_match):
    """The next hand's form in a save's answer is drawn by the page model before the answer is
    rendered (``hand_forms.draw``): it holds the version the save made and a key of its own, so
    hand after hand saved from the answer's form is saved (not refused as stale, nor taken for
    the same form sent twice); the undo form beside the notice has another key."""
    match_id = long_match(7)

    def stored_match() -> tuple[int, int]:
        with app.app_context():
            return len(store.get_record(get_db(), match_id).match.hands), store.get_version(get_db(), match_id)

    answer = save(client, match_id).get_data(as_text=True)
    for number in (9, 10):
        before_form, hand_form = answer.split('id="hand-form"', 1)
        key, drawn_version = page_of(hand_form).value("request_key"), page_of(hand_form).value("version")
        assert key and re.fullmatch(r"[0-9a-f]{32}", key)
        assert drawn_version == str(stored_match()[1])  # the version the last save made
        assert page_of(before_form).value("request_key") not in (None, key)  # the undo form's own
        sent = client.post(f"/matches/{match_id}/hands", data=dict(WHEEL, version=drawn_version, request_key=key),
                           headers={"HX-Request": "true", "HX-Target": "match-live"})
        answer = sent.get_data(as_text=True)
        assert sent.status_code == 200 and f"Hand {number} saved: " in answer
        assert stored_match()[0] == number


def test_a_saves_answer_is_one_record_of_the_engine_explaining_only_the_new_hand(client, long_match, monkeypatch):
    match_id = long_match(80)
    # the page the scorer saves from (hands 31 to 80 listed), its form
    data = dict(WHEEL, version=version(client, match_id), request_key=uuid.uuid4().hex)
    asked: list[tuple[engine.MatchResult, engine.Showing]] = []
    made = engine.showing

    def showing(result, *args, **kwargs):
        record = made(result, *args, **kwargs)
        asked.append((result, record))
        return record
    monkeypatch.setattr(engine, "showing", showing)
    response = client.post(f"/matches/{match_id}/hands", data=data, headers={"HX-Request": "true", "HX-Target": "match-live"})
    assert response.status_code == 200 and "Hand 81 saved" in response.get_data(as_text=True)
    assert len(asked) == 1  # the whole answer (rows, totals, needs, guide, notice) from one record
    result, record = asked[0]
    assert [hand.number for hand in record.hands] == [81]
    # the lazy explanation's saving kept: only the hand the answer shows was explained
    assert result.hands[80]._explanation is not None
    assert all(hand._explanation is None for hand in result.hands[:30])
    with pytest.raises(AttributeError):  # frozen: the page reads it, never changes it
        record.hands = ()  # type: ignore[misc]
