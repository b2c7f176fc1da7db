"""Posting the app's real forms, as a browser with JavaScript off would."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from html.parser import HTMLParser

from scorekeeper.games import GAMES


class Element:
    """One element of a parsed page: its tag, attributes and all the text inside it."""

    def __init__(self, tag: str, attrs: dict[str, str]):
        self.tag, self.attrs, self.parts = tag, attrs, []

    @property
    def text(self) -> str:
        return " ".join("".join(self.parts).split())

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())


class Page(HTMLParser):
    """A page parsed as a browser reads it (entities decoded), elements in document order."""

    VOID = frozenset({"input", "meta", "link", "br", "img", "hr", "source", "area", "col", "wbr", "base"})

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self._open: list[Element] = []
        self._words: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.elements.append(element)
        if tag not in self.VOID:
            self._open.append(element)

    def handle_endtag(self, tag):
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i].tag == tag:
                del self._open[i:]
                break

    def handle_data(self, data):
        if any(e.tag in ("script", "style") for e in self._open):
            return
        self._words.append(data)
        for element in self._open:
            element.parts.append(data)

    @property
    def text(self) -> str:
        return " ".join(" ".join(self._words).split())

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Element]:
        return [e for e in self.elements
                if (tag is None or e.tag == tag) and (cls is None or cls in e.classes)
                and all(e.attrs.get(k.rstrip("_")) == v for k, v in attrs.items())]

    def find(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Element | None:
        found = self.find_all(tag, cls, **attrs)
        return found[0] if found else None

    def value(self, name: str) -> str | None:
        """The value a form field would send (the first field of that name)."""
        for e in self.find_all(name=name):
            if e.tag == "textarea":
                return e.text
            if e.tag == "select":
                continue
            if e.attrs.get("type") in ("radio", "checkbox") and "checked" not in e.attrs:
                continue
            return e.attrs.get("value", "")
        return None


def page_of(response_or_html) -> Page:
    html = response_or_html if isinstance(response_or_html, str) else response_or_html.get_data(as_text=True)
    return Page(html)


def start_form(game: str, players, first_dealer="0", date="2026-11-20", note="", **settings) -> dict:
    data = {"game": game, "shown_game": game, "first_dealer": first_dealer, "date": date, "note": note}
    for i, name in enumerate(players):
        data[f"player_{i}"] = name
    for s in GAMES[game].settings:
        value = settings.get(s.name, s.default)
        if s.kind == "table":
            for key in s.choices:
                data[f"setting_{s.name}_{key}"] = str(value[key])
        elif s.kind == "bool":
            if value:
                data[f"setting_{s.name}"] = "y"
        elif value is not None:
            data[f"setting_{s.name}"] = str(value)
    return data


def as_scorer(app, match_id: int, client) -> None:
    """Give ``client`` scorer rights on a match made straight in the store,
    through the match's scorer link (as a second phone would)."""
    from scorekeeper import store

    db = store.connect(app.config["DATABASE"])
    try:
        token = store.get_tokens(db, match_id)["scorer_token"]
    finally:
        db.close()
    assert client.get(f"/s/{token}").status_code == 303


def stored(app, client, match) -> int:
    """A match (an engine ``Match``) made straight in the app's database, ``client`` its scorer."""
    from scorekeeper import store

    db = store.connect(app.config["DATABASE"])
    try:
        match_id = store.create_match(db, match)
    finally:
        db.close()
    as_scorer(app, match_id, client)
    return match_id


def start(client, game: str, players, **kwargs) -> int:
    response = client.post("/matches/new", data=start_form(game, players, **kwargs))
    assert response.status_code == 303, problems(response)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def version(client, match_id: int) -> str:
    return page_of(client.get(f"/matches/{match_id}")).value("version") or ""


def record(client, match_id: int, htmx=False, **fields):
    data = {k: str(v) for k, v in fields.items()}
    if "version" not in data:  # (not setdefault: that would fetch and parse the page every time)
        data["version"] = version(client, match_id)
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/matches/{match_id}/hands", data=data, headers=headers)


def totals(html: str) -> dict[str, int]:
    """The big running totals as a user sees them: name -> total."""
    page = page_of(html)
    standings = page.find_all("li", cls="standing")
    rows = {}
    for row in standings:
        start = page.elements.index(row)
        inside = page.elements[start + 1:start + 8]
        name = next(e.text for e in inside if "name" in e.classes)
        total = next(e.text for e in inside if "total" in e.classes)
        rows[name] = int(total)
    return rows


def problems(response) -> list[str]:
    return [li.text for li in page_of(response).find_all("li") if not li.attrs]


def text(response) -> str:
    """Every word of the page as a user reads it, one space apart (and around)."""
    return f" {page_of(response).text} "


@contextmanager
def sql_statements(app) -> Iterator[list[str]]:
    """Every SQL statement the app runs inside the block, as SQLite traces it. A test
    client serves a request on the test's own thread, so the request uses the thread's
    connection that ``get_db`` hands out here."""
    from scorekeeper.web.edges.db import get_db

    seen: list[str] = []
    with app.app_context():
        conn = get_db().conn
    conn.set_trace_callback(seen.append)
    try:
        yield seen
    finally:
        conn.set_trace_callback(None)
