"""One access rule for every byte of a match: whichever route a request takes, and
wherever it puts the match id (the path, the query, a form), a phone without a grant
for the match (a stranger, another phone, a phone whose link was renewed) learns
nothing of it, and is answered exactly as for a match that does not exist.

The walk takes its routes from ``app.url_map``: a route added later is walked too."""
from __future__ import annotations

import json
import re

import pytest
from werkzeug.routing import IntegerConverter

from scorekeeper import store
from scorekeeper.samples import random_match
from scorekeeper.web import create_app
from scorekeeper.web.edges.db import get_db

from .helpers import start, text

NAMES = ["Zyxwabc", "Qorvenik", "Plumtraxo"]  # planted in the secret match: no page says them otherwise
NOTE = "Vexnotequil"
SECRETS = NAMES + [NOTE]
DATE = "2019-03-07"  # the secret match's date; no other match has it
MISSING_ID, MISSING_DATE, MISSING_NAMES = 987654, "2019-03-08", ("Nobodyhere", "Noonethere")
FAKE_TOKEN = "x" * 22
PLACEHOLDER = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")  # <converter(args):name> in a rule
ID_PARAMS = ("match", "match_id", "id", "number", "previous")  # where a match id could travel besides the path


@pytest.fixture
def walk_app(tmp_path):
    return create_app({"TESTING": True, "DATABASE": tmp_path / "walk.sqlite", "WTF_CSRF_ENABLED": False,
                       "SECRET_KEY": "test", "WRITES_PER_MINUTE": 10**6, "NEW_DEVICES_PER_MINUTE": 10**6, "HEAVY_READS_PER_MINUTE": 10**6,
                       "MATCHES_PER_MINUTE": 10**6})


def tokens(app, match_id: int) -> dict:
    with app.app_context():
        return store.get_tokens(get_db(), match_id)


def secret_match(app, owner) -> int:
    """A Third Rail match (it has every kind of page: tally, referee, hands) whose
    names and note appear nowhere else; ``owner`` scores it."""
    match = random_match("third_rail", 2, seed=3, players=3)
    match.players, match.note, match.date = list(NAMES), NOTE, DATE
    with app.app_context():
        match_id = store.create_match(get_db(), match)
    assert owner.get(f"/s/{tokens(app, match_id)['scorer_token']}").status_code == 303
    return match_id


def renew(client, match_id: int, kind: str) -> None:
    assert client.post(f"/matches/{match_id}/links/renew", data={"kind": kind}).status_code == 303


def variants(app, match_id: int, game: str, old_links: list[str], links_only: bool = False):
    """Every request the walk makes: (label, method, place, the request for the secret
    match, the same request for a match that does not exist), built from every rule of
    the app's URL map, with the id in the path, in the query and in a form;
    ``old_links``: the tokens the phones walked had, now renewed (with ``links_only``,
    only the rules that take one)."""
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or (links_only and "token" not in rule.arguments):
            continue
        paths: list[tuple[dict, dict]] = [({}, {})]  # (values for the secret match, values for a missing one)
        converters = {name: kind or "default" for kind, name in PLACEHOLDER.findall(rule.rule)}
        for arg in sorted(rule.arguments):
            options: list[tuple] = [("x", "x")]
            if arg == "match_id":
                options = [(match_id, MISSING_ID)]
            elif issubclass(app.url_map.converters[converters[arg]], IntegerConverter):
                # a hand number, or a match id under another name
                options = [(1, 1), (match_id, MISSING_ID)]
            elif arg == "game":
                options = [(game, game)]
            elif arg == "token":  # the links a renewed phone still has in its browser history
                options = [(token, FAKE_TOKEN) for token in old_links]
            paths = [({**s, arg: a}, {**m, arg: b}) for s, m in paths for a, b in options]
        extras = [({}, {})] + [({p: match_id}, {p: MISSING_ID}) for p in ID_PARAMS] + [
            ({"date": DATE}, {"date": MISSING_DATE}),
            ({"player": NAMES[0], "other": NAMES[1], "q": NAMES[0]},
             {"player": MISSING_NAMES[0], "other": MISSING_NAMES[1], "q": MISSING_NAMES[0]})]
        for secret_values, missing_values in paths:
            urls = (rule.build(secret_values, append_unknown=False)[1],
                    rule.build(missing_values, append_unknown=False)[1])
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                for secret_extra, missing_extra in extras:
                    for place in ["query"] + (["form"] if method == "POST" else []):
                        yield (f"{method} {urls[0]} {place} {secret_extra}", method, place,
                               (urls[0], secret_extra), (urls[1], missing_extra))


def walk(app, owner, phones: dict, match_id: int, old_links: list[str], links_only: bool = False) -> set:
    """Every request of ``variants`` from each phone: a list of what went wrong, and
    the requests whose answer to the owner shows the match (they can leak); with no
    ``owner``, the owner's answers are not asked for."""
    problems: list[str] = []
    shown_to_owner = set()
    for label, method, place, (url, extra), (missing_url, missing_extra) in variants(
            app, match_id, "third_rail", old_links, links_only):
        for who, phone in phones.items():
            answer = send(phone, method, place, url, extra)
            missing = send(phone, method, place, missing_url, missing_extra)
            words = leaked(answer, extra)
            if answer.status_code >= 500:
                problems.append(f"{who}: {label} -> {answer.status_code}")
            if words:
                problems.append(f"{who}: {label} -> {answer.status_code} shows {words}")
            if answer.status_code != missing.status_code:
                problems.append(f"{who}: {label} -> {answer.status_code}, but {missing.status_code} "
                                "for a match that does not exist")
        if method == "GET" and owner is not None:
            seen = send(owner, method, place, url, extra)
            if seen.status_code >= 500:
                problems.append(f"owner: {label} -> {seen.status_code}")
            if leaked(seen, extra):
                shown_to_owner.add((url.split("?")[0], tuple(extra)))
    assert not problems, f"{len(problems)} requests:\n" + "\n".join(problems[:40])
    return shown_to_owner


def send(client, method: str, place: str, url: str, extra: dict):
    if place == "form":
        return client.open(url, method=method, data=extra)
    return client.open(url, method=method, query_string=extra)


def leaked(response, asked: dict) -> list[str]:
    """The secret match's words in the answer (body or headers), other than those the
    request itself carried (a name searched for is said back)."""
    said = set(map(str, asked.values()))
    where = response.get_data(as_text=True) + "\n" + "\n".join(f"{k}: {v}" for k, v in response.headers.items())
    return [word for word in SECRETS if word not in said and word in where]


def table_with_lost_phones(app):
    """The secret match, its owner, and the phones that once held its links (a phone that
    scored through the scorer link and also opened the watcher link, a watcher), a stranger
    and a phone with matches of its own."""
    owner = app.test_client()
    match_id = secret_match(app, owner)
    old = tokens(app, match_id)
    lost_scorer, lost_watcher, stranger, other = (app.test_client() for _ in range(4))
    assert lost_scorer.get(f"/s/{old['scorer_token']}").status_code == 303
    assert lost_scorer.get(f"/w/{old['watcher_token']}").status_code == 200
    assert lost_watcher.get(f"/w/{old['watcher_token']}").status_code == 200
    assert NAMES[0] in text(lost_scorer.get(f"/matches/{match_id}/export.csv"))  # they could read it
    start(other, "third_wheel", ["Ann", "Bob", "Cy"], date="2019-05-05")
    phones = {"stranger": stranger, "other phone": other, "renewed scorer": lost_scorer, "renewed watcher": lost_watcher}
    return owner, match_id, old, phones


# One phone per test: the walks are the longest tests of the suite, and the suite runs on both cores.
@pytest.mark.parametrize("who", ["stranger", "other phone", "renewed scorer"])
def test_no_route_shows_a_match_to_a_phone_without_its_grant(walk_app, who):
    app = walk_app
    owner, match_id, old, phones = table_with_lost_phones(app)
    renew(owner, match_id, "scorer")
    shown = walk(app, owner if who == "stranger" else None, {who: phones[who]}, match_id, [old["scorer_token"]])
    if who == "stranger":
        # the walk reaches the pages that do show the match, to the phone that may see it
        for expected in [(f"/matches/{match_id}", ()), (f"/matches/{match_id}/export.json", ()),
                         ("/referee/third_rail", ("match",)), ("/print", ("match",)), ("/print", ("date",)),
                         (f"/matches/{match_id}/board", ()), (f"/matches/{match_id}/tally", ())]:
            assert expected in shown, expected


def test_no_route_shows_a_match_to_a_phone_whose_both_links_were_renewed(walk_app):
    app = walk_app
    owner, match_id, old, phones = table_with_lost_phones(app)
    renew(owner, match_id, "scorer")
    renew(owner, match_id, "watcher")
    both = [old["scorer_token"], old["watcher_token"]]
    walk(app, None, {"renewed watcher": phones["renewed watcher"]}, match_id, both)
    # the renewed scorer's walk without its grant is the test above: here, its old links
    walk(app, None, {"renewed scorer": phones["renewed scorer"]}, match_id, both, links_only=True)


# --- a new scorer link shuts the lost phone out -----------------------------------------

def reads(phone, match_id: int, game: str = "third_wheel") -> dict:
    return {url: phone.get(url).status_code for url in (
        f"/matches/{match_id}", f"/matches/{match_id}/export.json", f"/matches/{match_id}/export.csv",
        f"/matches/{match_id}/board", f"/matches/{match_id}/print", f"/print?match={match_id}",
        f"/referee/{game}?match={match_id}", f"/matches/{match_id}/log")}


def test_a_new_scorer_link_takes_the_whole_match_from_a_phone_that_scored_through_the_old_one(app, client):
    match_id = start(client, "third_wheel", ["Zyxwabc", "Bob", "Cy"])
    old = tokens(app, match_id)
    lost = app.test_client()
    lost.get(f"/s/{old['scorer_token']}")
    # the owner tapping its own Share link, or the lost phone opening the watcher link
    assert lost.get(f"/w/{old['watcher_token']}").status_code == 200
    assert set(reads(lost, match_id).values()) == {200}
    renew(client, match_id, "scorer")
    assert set(reads(lost, match_id).values()) == {404}, reads(lost, match_id)
    assert "Zyxwabc" not in text(lost.get("/"))
    assert "Zyxwabc" not in lost.get("/history/export.json").get_data(as_text=True)
    assert set(reads(client, match_id).values()) == {200}  # the phone that asked keeps it
    # the watcher link is still the same one: the lost phone's browser history still opens
    # it, which is why docs/hosting.md says to renew both links for a lost phone
    assert lost.get(f"/w/{old['watcher_token']}").status_code == 200
    renew(client, match_id, "watcher")
    assert lost.get(f"/w/{old['watcher_token']}").status_code == 404
    assert set(reads(lost, match_id).values()) == {404}


def test_a_new_scorer_link_leaves_the_watchers_watching(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    watcher = app.test_client()
    watcher.get(f"/w/{tokens(app, match_id)['watcher_token']}")
    renew(client, match_id, "scorer")
    assert set(reads(watcher, match_id).values()) == {200}


# --- only cookies the server issued ----------------------------------------------------

PLANTED = "Planted_cookie_value_0123456789"  # well formed: 31 URL-safe characters


def test_a_planted_device_cookie_is_not_adopted(app, client):
    victim, planter = app.test_client(), app.test_client()
    victim.set_cookie("scorekeeper_device", PLANTED)
    planter.set_cookie("scorekeeper_device", PLANTED)
    match_id = start(victim, "third_wheel", ["Zyxwabc", "Bob", "Cy"])
    issued = victim.get_cookie("scorekeeper_device").value
    assert issued != PLANTED  # a fresh cookie, from the server
    assert "Zyxwabc" in text(victim.get("/"))  # the victim's phone keeps its match
    assert planter.get(f"/matches/{match_id}").status_code == 404
    assert "Zyxwabc" not in text(planter.get("/"))
    assert json.loads(planter.get("/history/export.json").get_data(as_text=True)) == []
    assert planter.get(f"/referee/third_wheel?match={match_id}").status_code == 404


def _cookie(client) -> str:
    return client.get_cookie("scorekeeper_device").value


def test_a_real_device_cookie_planted_in_another_browser_reads_nothing_new(app):
    """The planter's own cookie, one the server issued, put into a victim's browser: it was
    adopted, and the planter then read every match the victim started. A device's cookie is
    replaced whenever it is given a match; the old value keeps only what it had (never the
    new match), and reads nothing at all once the new value has been used."""
    planter = app.test_client()
    own = start(planter, "third_wheel", ["Ann", "Bob", "Cy"])
    victim = app.test_client()
    victim.set_cookie("scorekeeper_device", _cookie(planter))
    match_id = start(victim, "third_wheel", ["Zyxwabc", "Bob", "Cy"])
    assert _cookie(victim) != _cookie(planter)
    # right after the start, before the victim's browser uses its new cookie
    assert planter.get(f"/matches/{match_id}").status_code == 404
    assert "Zyxwabc" not in text(planter.get("/"))
    assert victim.get(f"/matches/{match_id}").status_code == 200  # the victim's browser uses its new cookie
    for reader in (planter, app.test_client()):
        reader.set_cookie("scorekeeper_device", _cookie(planter))
        assert reader.get(f"/matches/{match_id}").status_code == 404
        assert reader.get(f"/matches/{own}").status_code == 404  # the planted value is spent
        assert "Zyxwabc" not in text(reader.get("/"))
        assert json.loads(reader.get("/history/export.json").get_data(as_text=True)) == []
    assert "Zyxwabc" in text(victim.get("/"))
    # the victim opens a watcher link of another table: the same again
    other = start(app.test_client(), "third_wheel", ["Qorvenik", "Dee", "Eve"])
    spent = _cookie(victim)
    victim.get(f"/w/{tokens(app, other)['watcher_token']}")
    assert _cookie(victim) != spent and victim.get(f"/matches/{other}").status_code == 200
    copy = app.test_client()
    copy.set_cookie("scorekeeper_device", spent)
    assert copy.get(f"/matches/{other}").status_code == 404 and copy.get(f"/matches/{match_id}").status_code == 404


def test_a_phone_keeps_its_history_as_its_cookie_changes(app):
    """Each match started, imported or opened through a link gives the phone a new cookie;
    the phone keeps every match, whatever it held before (a cookie from before this change
    included), and an answer lost on the way (its new cookie never arrived) loses nothing
    the phone had."""
    phone = app.test_client()
    first = start(phone, "third_wheel", ["Ann", "Bob", "Cy"])
    seen = {_cookie(phone)}
    second = start(phone, "third_wheel", ["Dee", "Eve", "Flo"])
    seen.add(_cookie(phone))
    watched = start(app.test_client(), "third_wheel", ["Gus", "Hal", "Ivy"])
    assert phone.get(f"/w/{tokens(app, watched)['watcher_token']}").status_code == 200
    seen.add(_cookie(phone))
    assert len(seen) == 3
    for match_id in (first, second, watched):
        assert phone.get(f"/matches/{match_id}").status_code == 200
    history = text(phone.get("/"))
    assert all(name in history for name in ("Ann", "Dee", "Gus"))
    # the answer to a start is lost: the phone still sends the cookie it had
    before = _cookie(phone)
    lost = start(phone, "third_wheel", ["Jo", "Kim", "Lou"])
    phone.set_cookie("scorekeeper_device", before)
    for match_id in (first, second, watched):
        assert phone.get(f"/matches/{match_id}").status_code == 200
    assert phone.get(f"/matches/{lost}").status_code == 404  # the one whose answer never came
    third = start(phone, "third_wheel", ["Max", "Ned", "Oz"])
    for match_id in (first, second, watched, third):
        assert phone.get(f"/matches/{match_id}").status_code == 200


def test_a_watcher_given_the_scorer_link_scores_and_keeps_its_history(app):
    """The new value gets the scorer grant of a match the old value watched: once it is used,
    the phone scores that match and keeps every other one (the two grants are one)."""
    owner, phone = app.test_client(), app.test_client()
    own = start(phone, "third_wheel", ["Ann", "Bob", "Cy"])
    match_id = start(owner, "third_wheel", ["Dee", "Eve", "Flo"])
    phone.get(f"/w/{tokens(app, match_id)['watcher_token']}")
    assert phone.get(f"/matches/{match_id}/setup").status_code == 403  # watching only
    phone.get(f"/s/{tokens(app, match_id)['scorer_token']}")
    assert phone.get(f"/matches/{match_id}/setup").status_code == 200
    assert phone.get(f"/matches/{own}/setup").status_code == 200
    with app.app_context():
        rows = get_db().execute("select score, watch from device_matches where match_id = ?", [match_id]).fetchall()
    assert sorted(tuple(row) for row in rows) == [(1, 0), (1, 1)]  # the owner's, and the phone's one grant


def test_a_looking_phone_with_a_made_up_cookie_leaves_nothing(app, client):
    phone = app.test_client()
    phone.set_cookie("scorekeeper_device", PLANTED)
    for url in ("/", "/matches/1", "/players", "/history/export.json", "/matches/new"):
        response = phone.get(url)
        assert "scorekeeper_device" not in response.headers.get("Set-Cookie", ""), url
    refused = phone.post("/matches/new", data={"game": "third_wheel", "shown_game": "third_wheel"})
    assert refused.status_code in (400, 422) and "scorekeeper_device" not in refused.headers.get("Set-Cookie", "")
    with app.app_context():
        assert get_db().execute("select count(*) from devices").fetchone()[0] == 0


def test_made_up_cookies_count_as_new_phones(tmp_path):
    """A script cannot slip past NEW_DEVICES_PER_MINUTE by inventing a cookie each time."""
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "db.sqlite", "SECRET_KEY": "t",
                      "WTF_CSRF_ENABLED": False, "NEW_DEVICES_PER_MINUTE": 2})
    owner = app.test_client()
    match_id = start(owner, "third_wheel", ["Ann", "Bob", "Cy"])
    link = f"/w/{tokens(app, match_id)['watcher_token']}"
    answers = []
    for n in range(3):
        phone = app.test_client()
        phone.set_cookie("scorekeeper_device", f"made_up_cookie_number_{n:04d}")
        answers.append(phone.get(link).status_code)
    assert answers == [200, 200, 429]
    with app.app_context():
        assert get_db().execute("select count(*) from devices").fetchone()[0] == 3  # the owner and two


# --- printing a date reads this phone's grants, once -----------------------------------

def test_print_by_date_shows_only_this_phones_matches_in_a_few_queries(app, client):
    from scorekeeper.web.edges import db as web_db

    mine = start(client, "third_wheel", ["Ann", "Bob", "Cy"], date="2026-11-20")
    stranger_phone = app.test_client()
    theirs = [start(stranger_phone, "third_wheel", ["Zyxwabc", "Qorvenik", "Cy"], date="2026-11-20")]
    match = random_match("third_wheel", 3, seed=1)
    match.players, match.date = ["Zyxwabc", "Qorvenik", "Vexnotequil"], "2026-11-20"
    with app.app_context():
        theirs += [store.create_match(get_db(), match) for _ in range(200)]  # 200 more of that day, not mine
    response = client.get("/print?date=2026-11-20")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert f"sheet-{mine}" in body and not any(f"sheet-{i}\"" in body for i in theirs)
    assert not any(word in body for word in SECRETS)
    statements: list[str] = []
    client.get("/")  # this thread's connection is open
    web_db._threads.held[1].conn.set_trace_callback(statements.append)
    try:
        assert app.test_client().get("/print?date=2026-11-20").status_code == 404  # a phone with no match
        nothing = len(statements)
        assert client.get("/print?date=2026-11-20").status_code == 200
    finally:
        web_db._threads.held[1].conn.set_trace_callback(None)
    assert nothing <= 3, statements[:nothing]  # not one per match of that day
    grants = [s for s in statements[nothing:] if re.search(r"from device_matches|join device_matches", s)]
    assert len(grants) <= 3, grants
