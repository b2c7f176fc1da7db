"""Posting the app's real forms, as a browser with JavaScript off would."""
from __future__ import annotations

import re

from scorekeeper.games import GAMES


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


def as_scorer(app, match_id: int, client=None) -> None:
    """Give the test client scorer rights on a match made straight in the store,
    through the match's scorer link (as a second phone would)."""
    from scorekeeper import store

    client = client or app.config.get("TEST_CLIENT")
    if client is None:
        return
    db = store.connect(app.config["DATABASE"])
    try:
        token = store.get_tokens(db, match_id)["scorer_token"]
    finally:
        db.close()
    assert client.get(f"/s/{token}").status_code == 303


def start(client, game: str, players, **kwargs) -> int:
    response = client.post("/matches/new", data=start_form(game, players, **kwargs))
    assert response.status_code == 303, problems(response)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def version(client, match_id: int) -> str:
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    found = re.search(r'name="version"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="version"', page)
    return next(g for g in found.groups() if g) if found else ""


def record(client, match_id: int, htmx=False, **fields):
    data = {k: str(v) for k, v in fields.items()}
    data.setdefault("version", version(client, match_id))
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/matches/{match_id}/hands", data=data, headers=headers)


def totals(html: str) -> dict[str, int]:
    """The big running totals as a user sees them: name -> total."""
    rows = re.findall(r'<span class="name">(.*?)</span>\s*<span class="total" data-seat="\d+">(-?\d+)</span>', html)
    return {name: int(total) for name, total in rows}


def problems(response) -> list[str]:
    html = response.get_data(as_text=True)
    return [re.sub(r"<[^>]+>", "", m).strip() for m in re.findall(r"<li>(.*?)</li>", html, re.S)]


def text(response) -> str:
    html = response.get_data(as_text=True)
    html = re.sub(r"<[^>]+>", " ", html)
    return re.sub(r"\s+", " ", html).replace("&#39;", "'").replace("&amp;", "&").replace("&#34;", '"')
