"""Issue 25, finding 9 (rules.md, "Player names"): wherever a name is shown it is isolated
from the text around it, so a right-to-left name never reorders a sentence or a score:
on pages in a ``<bdi>``, in plain text (the save notice, the share line, the CSV's
headings, ``scorekeeper list``) between Unicode's FSI (U+2068) and PDI (U+2069). The match
file, read by programs, keeps the name as it is."""
from __future__ import annotations

import csv
import io
import json
from html.parser import HTMLParser

from scorekeeper import store
from scorekeeper.engine import Match

from .helpers import page_of, record, start

FSI, PDI = "\u2068", "\u2069"
DANA = "\u05d3\u05e0\u05d4"  # Hebrew: Dana
ALI = "\u0639\u0644\u064a"  # Arabic: Ali
# Third Wheel: Ann bids 5 and takes 5, Dana (a setter) 4, Ali 2: Ann 9, Dana 0, Ali 2... the
# notice ends with each total after its name
WHEEL = {"trump": "wyrms", "mode": "high", "bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2}


def _saved(client) -> tuple[int, str]:
    match_id = start(client, "third_wheel", ["Ann", DANA, ALI])
    saved = record(client, match_id, htmx=True, **WHEEL)
    assert saved.status_code == 200, saved.status_code
    return match_id, saved.get_data(as_text=True)


def _notice(html: str) -> str:
    notice = page_of(html).find("p", cls="notice")
    assert notice is not None
    return notice.text


def test_the_save_notice_isolates_each_right_to_left_name_before_its_score(client):
    _, html = _saved(client)
    notice = _notice(html)
    # each score follows its own name's isolate: the 2 can never be read as part of a name
    # or moved before it (the page's text, spaces as the helper reads them)
    assert f"Hand 1 saved: Ann +9, {FSI}{DANA}{PDI} 0, {FSI}{ALI}{PDI} +2. " \
           f"Totals: Ann 9, {FSI}{DANA}{PDI} 0, {FSI}{ALI}{PDI} 2." in notice, notice


def test_the_share_line_isolates_the_names(client):
    match_id, _ = _saved(client)
    line = page_of(client.get(f"/matches/{match_id}")).find("p", id="result-text")
    assert line is not None
    assert line.text == f"Third Wheel, 20 Nov: Ann 9, {FSI}{ALI}{PDI} 2, {FSI}{DANA}{PDI} 0, after 1 hand, still playing"


def test_every_name_on_the_scoreboard_is_in_a_bdi(client):
    match_id, _ = _saved(client)
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    page = page_of(html)
    # the standings, the hand table's heading and the next dealer: each a <bdi> of its own
    assert f'<span class="name"><a href="/stats?player={DANA}" title="{DANA}: stats"><bdi>{DANA}</bdi></a></span>' \
        in html.replace("%D7%93%D7%A0%D7%94", DANA)
    assert f'<th scope="col" title="{ALI}"><bdi>{ALI}</bdi></th>' in html
    assert f"Next to deal: <strong><bdi>{DANA}</bdi></strong>" in html
    # the sentences the game wrote (Why?, the table guide) have the names isolated inside them
    start = html.index('<details class="why">')
    why = [e.text for e in page_of(html[start:html.index("</details>", start)]).find_all("li") if ALI in e.text]
    assert len(why) == 2 and all(f"{FSI}{ALI}{PDI}" in line for line in why), why
    guide = page.find("ul", cls="guide-lines")
    assert guide is not None and f"{FSI}{ALI}{PDI} and Ann play together to set {FSI}{DANA}{PDI}." in \
        page_of(html[html.index('<ul class="guide-lines">'):]).text
    assert "<bdi>Ann</bdi>" not in html  # no right-to-left letter: it cannot reorder the page, left as typed


def test_print_and_the_csv_headings_isolate_the_names_and_the_match_file_keeps_them(client):
    match_id, _ = _saved(client)
    printed = client.get(f"/matches/{match_id}/print").get_data(as_text=True)
    assert f"<bdi>{DANA}</bdi>" in printed and f"<bdi>{ALI}</bdi>" in printed
    rows = list(csv.reader(io.StringIO(client.get(f"/matches/{match_id}/export.csv").get_data(as_text=True))))
    assert f"{FSI}{DANA}{PDI} points" in rows[0] and "Ann points" in rows[0]
    exported = json.loads(client.get(f"/matches/{match_id}/export.json").get_data(as_text=True))
    assert exported["players"] == ["Ann", DANA, ALI]  # read by programs: the name as stored


class Unisolated(HTMLParser):
    """Every place a page's text shows one of ``names`` neither inside a ``<bdi>`` nor
    between FSI and PDI (a title, an option's or an input's value is an attribute: left out)."""

    def __init__(self, names: list[str]):
        super().__init__()
        self.names, self.open, self.found = names, [], []

    def handle_starttag(self, tag, attrs):
        if tag not in ("br", "input", "img", "meta", "link", "path", "rect", "circle", "line", "use"):
            self.open.append(tag)

    def handle_endtag(self, tag):
        if tag in self.open:
            del self.open[len(self.open) - 1 - self.open[::-1].index(tag):]

    def handle_data(self, data):
        if "bdi" in self.open or "script" in self.open or "style" in self.open:
            return
        if self.open and self.open[-1] == "option" and data.strip() in self.names:
            return  # an option holds text only, and here nothing but the name
        for name in self.names:
            for at in (i for i in range(len(data)) if data.startswith(name, i)):
                if not (data[:at].endswith(FSI) and data[at + len(name):].startswith(PDI)):
                    self.found.append(f"<{'/'.join(self.open[-3:])}> {data.strip()[:80]}")


def test_no_page_shows_a_right_to_left_name_unisolated(app, client):
    match_id, _ = _saved(client)
    assert record(client, match_id, **dict(WHEEL, bid=6, tricks_0=6, tricks_1=3, tricks_2=2)).status_code == 303
    pages = [rule.rule for rule in app.url_map.iter_rules()
             if "GET" in rule.methods and "<" not in rule.rule.replace("<match_id:match_id>", "")
             and not rule.rule.endswith(("export.json", "export.csv"))]  # files: tested above
    pages += ["/matches/<match_id:match_id>/hands/1/edit", "/matches/<match_id:match_id>/hands/2/why",
              "/referee/third_wheel?match=<match_id:match_id>", f"/stats?player={DANA}",
              f"/stats/versus?player={DANA}&other={ALI}", f"/stats/hands?player={DANA}&figure=played",
              "/print?date=2026-11-20", f"/?q={ALI}"]
    checked, unisolated = 0, []
    for address in pages:
        response = client.get(address.replace("<match_id:match_id>", str(match_id)))
        if response.status_code != 200 or not response.mimetype.startswith("text/"):
            continue
        body = response.get_data(as_text=True)
        parser = Unisolated([DANA, ALI])
        parser.feed(body)
        unisolated += [f"{address}: {where}" for where in dict.fromkeys(parser.found)]
        checked += DANA in body or ALI in body
    assert unisolated == [], "\n".join(unisolated)
    assert checked >= 20, checked


def test_scorekeeper_list_isolates_the_names(tmp_path, command):
    database = tmp_path / "db.sqlite"
    db = store.connect(str(database))
    store.create_match(db, Match(game="third_wheel", players=["Ann", DANA, ALI], date="2026-11-20"))
    db.close()
    done = command("list", "--database", str(database), "--url", "http://192.168.1.5:5000/")
    assert done.returncode == 0, done.stderr
    assert f"Third Wheel  Ann, {FSI}{DANA}{PDI}, {FSI}{ALI}{PDI}  (0 hands, in progress)" in done.stdout


def test_the_preview_isolates_a_lone_winners_name(client):
    # Dana bids 5 and takes 5 (the setters Ann 4, Ali 2): Dana reaches the target of 5 alone
    match_id = start(client, "third_wheel", [DANA, "Ann", ALI], target=5, deals_each=0)
    html = client.post(f"/matches/{match_id}/hands/preview", data=WHEEL).get_data(as_text=True)
    end = page_of(html).find("p", cls="preview-end")
    assert end is not None and f"<bdi>{DANA}</bdi> wins" in html, html
