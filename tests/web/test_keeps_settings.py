"""Every way of starting a match from an earlier one keeps every setting: the chip of a
known table ("Your tables") and Play again, for every game in the registry and each of
its settings set away from its default (issue 26: the Hearts score pad's chip started a
pad with no target and highest-wins)."""
from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import store
from scorekeeper.games import GAMES
from scorekeeper.games.base import Game, Setting

from .helpers import Page, page_of, problems, start


def other_value(setting: Setting) -> Any:
    """A value of ``setting`` other than its default that a table may choose."""
    default, low, high = setting.default, setting.minimum, setting.maximum
    if setting.kind == "bool":
        return not default
    if setting.kind == "choice":
        return next(c for c in setting.choices if c != default)
    if setting.kind == "text":
        return "Hearts at Dee's"
    if setting.kind == "table":
        return {key: value + 1 for key, value in default.items()}
    if default is None:
        return high if high is not None else low if low is not None else 7
    if high is not None and default + 1 > high:
        return default - 1
    return default + 1


def variants(game: Game) -> list[tuple[str, dict]]:
    """One set of settings per setting of the game: that one away from its default (and
    the one it depends on set so that it applies)."""
    out = []
    for setting in game.settings:
        chosen = {setting.name: other_value(setting)}
        if setting.applies_when:
            chosen[setting.applies_when[0]] = setting.applies_when[1]
        out.append((setting.name, chosen))
    return out


CASES = [(key, name, chosen) for key, game in GAMES.items() for name, chosen in variants(game)]


def players_of(game: Game) -> list[str]:
    return ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"][:max(game.min_players, min(4, game.max_players))]


def form_data(page: Page) -> dict[str, str]:
    """What the start form sends as it stands (inputs, ticked boxes, chosen options), as a browser would."""
    data: dict[str, str] = {}
    select = None
    for e in page.elements:
        name = e.attrs.get("name")
        if e.tag == "select":
            select = name
            continue
        if e.tag == "option" and select:
            if "selected" in e.attrs or select not in data:
                data[select] = e.attrs.get("value", e.text)
            continue
        select = None
        if not name or e.tag not in ("input", "textarea"):
            continue
        if e.attrs.get("type") in ("radio", "checkbox") and "checked" not in e.attrs:
            continue
        data[name] = e.text if e.tag == "textarea" else e.attrs.get("value", "")
    return data


def stored(app, match_id: int) -> store.MatchRecord:
    db = store.connect(app.config["DATABASE"])
    try:
        return store.get_record(db, match_id)
    finally:
        db.close()


@pytest.mark.parametrize(("key", "setting", "chosen"), CASES, ids=[f"{k}-{n}" for k, n, _ in CASES])
def test_the_chip_of_a_known_table_starts_a_match_with_its_settings(app, client, key, setting, chosen):
    game = GAMES[key]
    first = start(client, key, players_of(game), **chosen)
    before = stored(app, first)
    assert before.settings[setting] != game.defaults()[setting]
    history = page_of(client.get("/matches/new"))
    chips = [a.attrs["href"] for a in history.find_all("a", cls="table-chip")]
    assert len(chips) == 1
    form = page_of(client.get(chips[0]))
    data = form_data(form)
    assert [data.get(f"player_{i}") for i in range(len(before.players))] == before.players
    response = client.post("/matches/new", data=data)
    assert response.status_code == 303, problems(response)
    again = stored(app, int(response.headers["Location"].rsplit("/", 1)[1]))
    assert (again.game, again.players, again.settings) == (before.game, before.players, before.settings)


@pytest.mark.parametrize(("key", "setting", "chosen"), CASES, ids=[f"{k}-{n}" for k, n, _ in CASES])
def test_play_again_starts_a_match_with_its_settings(app, client, key, setting, chosen):
    game = GAMES[key]
    first = start(client, key, players_of(game), **chosen)
    before = stored(app, first)
    response = client.post(f"/matches/{first}/again", data={"again-first_dealer": "1"})
    assert response.status_code == 303
    again = stored(app, int(response.headers["Location"].rsplit("/", 1)[1]))
    assert (again.game, again.players, again.settings) == (before.game, before.players, before.settings)


def test_two_tables_of_the_same_players_with_other_settings_are_two_chips(client):
    start(client, "score_pad", ["Ann", "Bob", "Cy", "Dee"], name="Hearts", target=100, low_wins=True)
    start(client, "score_pad", ["Ann", "Bob", "Cy", "Dee"], name="Rummy", target=500)
    chips = [a.text for a in page_of(client.get("/matches/new")).find_all("a", cls="table-chip")]
    assert chips == ["Ann, Bob, Cy, Dee Rummy (score pad)", "Ann, Bob, Cy, Dee Hearts (score pad)"]


def every_setting_changed(game: Game) -> dict:
    """Every setting of the game away from its default at once (where one applies only
    when another has a value, that value)."""
    chosen = {setting.name: other_value(setting) for setting in game.settings}
    for setting in game.settings:
        if setting.applies_when:
            chosen[setting.applies_when[0]] = setting.applies_when[1]
    return chosen


@pytest.mark.parametrize("key", list(GAMES))
def test_every_setting_at_once_is_kept_by_the_chip_play_again_and_its_page(app, client, key):
    game = GAMES[key]
    first = start(client, key, players_of(game), **every_setting_changed(game))
    before = stored(app, first)
    changed = {name for name, value in before.settings.items() if value != game.defaults()[name]}
    assert len(changed) >= len(game.settings) - 1, changed  # a setting another one decides may keep its default
    starts = []
    chip = [a.attrs["href"] for a in page_of(client.get("/matches/new")).find_all("a", cls="table-chip")]
    starts.append(client.post("/matches/new", data=form_data(page_of(client.get(chip[0])))))
    starts.append(client.post(f"/matches/{first}/again", data={"again-first_dealer": "0"}))
    # the play-again page a phone without JavaScript gets, sent as it stands
    again_page = page_of(client.get(f"/matches/{first}/again"))
    starts.append(client.post(f"/matches/{first}/again", data=form_data(again_page)))
    for response in starts:
        assert response.status_code == 303, problems(response)
        again = stored(app, int(response.headers["Location"].rsplit("/", 1)[1]))
        assert (again.game, again.players, again.settings) == (before.game, before.players, before.settings)
