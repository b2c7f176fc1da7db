"""The trick tally and the card counter for every game that offers one (Third Rail's and
Third Hand's, the tests' own game's of another shape): the pages say what the game
describes in its words (columns, marked tricks, notes, the pick, the kinds to count) and
save what the game makes of the taps or the counts, through the real forms."""
from __future__ import annotations

import itertools
import random

import pytest

from scorekeeper.games import GAMES
from scorekeeper.games.base import Table, TrickTally
from scorekeeper.matchfile import loads
from scorekeeper.samples import NAMES
from tests.places import blank_place

from .helpers import page_of, record, start, text

HX = {"HX-Request": "true"}


def _richest(key: str) -> tuple[list[str], dict, TrickTally]:
    """The game's tally with its most players, under the sample settings that show the most
    of it (a pick, notes, a column that settles)."""
    game = GAMES[key]
    names = list(NAMES[:game.max_players])
    found = []
    for variant in ({}, *game.sample_settings):
        settings = dict(game.defaults(), **variant)
        tally = game.shown.trick_tally(blank_place(game, settings, len(names)))
        if tally is not None:
            found.append((tally.choice is not None, len(tally.notes), variant, tally))
    _, _, variant, tally = max(found, key=lambda f: f[:2])
    return names, variant, tally


TALLY_KEYS = sorted(key for key, game in GAMES.items()
                    if any(game.shown.trick_tally(blank_place(game, dict(game.defaults(), **v), game.max_players))
                           for v in ({}, *game.sample_settings)))
COUNTER_KEYS = sorted(key for key, game in GAMES.items() if game.shown.card_counter() is not None)


def names_of(counter) -> list[str]:
    return [kind.name for kind in counter.kinds]


def _hands(client, match_id: int) -> list[dict]:
    return loads(client.get(f"/matches/{match_id}/export.json").get_data(as_text=True)).hands


def _announced(page) -> str:
    return page.find("h2", cls="tally-count").text


@pytest.mark.parametrize("key", TALLY_KEYS)
def test_a_hand_tapped_trick_by_trick_shows_the_games_words_and_saves_its_hand(client, key):
    names, settings, tally = _richest(key)
    match_id = start(client, key, names, **settings)
    assert f"/matches/{match_id}/tally" in client.get(f"/matches/{match_id}").get_data(as_text=True)
    page = page_of(client.get(f"/matches/{match_id}/tally"))
    assert page.find("title").text == f"{GAMES[key].title} trick by trick · Scorekeeper"
    assert [th.text for th in page.find_all("th", scope="col")] == ["Player"] + [c.label for c in tally.columns]
    for note in tally.notes:
        assert note in page.text
    # the first trick's leader is the one the game seats (its seat picture's), not assumed
    ctx = GAMES[key].empty_place(Table(tuple(names), dict(GAMES[key].defaults(), **settings)), 0)
    leader = next(p.name for p in GAMES[key].shown.seating(ctx).places if p.leads)
    left = "left of " if leader == names[1] else ""
    assert f"{leader} leads ({left}{names[0]}" in page.text
    pick = None
    if tally.choice is not None:
        legend = page.find("legend")
        assert legend is not None and legend.text == tally.choice.legend
        offered = [e.attrs["value"] for e in page.find_all("input", type="radio", name=tally.choice.name)]
        assert offered == [""] + [value for value, _, _ in tally.choice.options]
        pick = tally.choice.options[-1][0]
    rng = random.Random(key)
    winners: list[int] = []
    for number in range(1, tally.tricks + 1):
        marked = tally.mark is not None and tally.mark.marked(number)
        said = f"Trick {number} of {tally.tricks}" + (f", {tally.mark.announce}" if marked and tally.mark else "")
        assert _announced(page) == said
        seat = rng.randrange(len(names))
        data = {"w": " ".join(map(str, winners)), "tap": str(seat), "version": page.value("version")}
        if pick is not None and tally.choice is not None:
            data[tally.choice.name] = pick
        page = page_of(client.post(f"/matches/{match_id}/tally", data=data, headers=HX))
        winners.append(seat)
        counted = tally.count(winners)
        for column, values in zip(tally.columns, counted):
            cells = [td.text for td in page.find_all("td") if td.attrs.get("data-label") == column.label]
            if column.settles is None or number < tally.tricks:  # the settling column ends as the score
                assert cells == [str(v) for v in values], column.label
    assert _announced(page) == f"All {tally.tricks} tricks are in."
    stars = page.find_all("span", cls="tally-sign")
    marked_count = sum(tally.mark.marked(n) for n in range(1, tally.tricks + 1)) if tally.mark else 0
    assert len(stars) == marked_count
    assert all(s.text == tally.mark.sign and s.attrs["aria-label"] == tally.mark.name for s in stars if tally.mark)
    saved = client.post(f"/matches/{match_id}/tally",
                        data={"w": " ".join(map(str, winners)), "save": "1", "version": page.value("version"),
                              **({tally.choice.name: pick} if tally.choice and pick else {})})
    assert saved.status_code == 303, text(saved)
    assert _hands(client, match_id) == [tally.to_hand(winners, pick)]
    # the correction opens the tally with every trick filled in
    assert "Correct it trick by trick" in text(client.get(f"/matches/{match_id}/hands/1/edit"))
    reopened = page_of(client.get(f"/matches/{match_id}/tally?hand=1"))
    assert _announced(reopened) == f"All {tally.tricks} tricks are in."
    assert reopened.value("w") == " ".join(map(str, winners))


@pytest.mark.parametrize("key", TALLY_KEYS)
def test_the_settling_column_shows_the_hands_score_and_names_the_difference(client, key):
    """Once every trick is in, the column that settles shows the engine's score for the
    hand, with what was added beyond the running count in the column's word."""
    names, settings, tally = _richest(key)
    settling = [c for c in tally.columns if c.settles is not None]
    if not settling:
        pytest.skip(f"{key}'s tally has no column that becomes the score")
    match_id = start(client, key, names, **settings)
    for seed in range(40):  # a hand where the score differs from the running count (a bonus, fog)
        rng = random.Random(seed)
        winners = [rng.randrange(len(names)) for _ in range(tally.tricks)]
        pick = tally.choice.options[-1][0] if tally.choice else None
        query = "w=" + ",".join(map(str, winners)) + (f"&{tally.choice.name}={pick}" if tally.choice else "")
        page = page_of(client.get(f"/matches/{match_id}/tally?{query}"))
        column = settling[0]
        index = tally.columns.index(column)
        running = tally.count(winners)[index]
        cells = [td.text for td in page.find_all("td") if td.attrs.get("data-label") == column.label]
        preview = page.find("p", cls="preview-line").text
        scores = [int(part.rsplit(" ", 1)[1]) for part in preview.removeprefix("If saved: ").split(", ")]
        differs = [seat for seat in range(len(names)) if scores[seat] != running[seat]]
        for seat in range(len(names)):
            extra = scores[seat] - running[seat]
            assert cells[seat] == (f"{scores[seat]} ({running[seat]} + {extra} {column.settles})" if extra > 0
                                   else str(scores[seat])), (seat, cells)
        if differs:
            return
    pytest.fail(f"no hand of {key} in 40 scored more than its running count")


@pytest.mark.parametrize("key", COUNTER_KEYS)
def test_counted_things_become_the_games_points_or_are_refused_in_its_words(client, key):
    game = GAMES[key]
    counter = game.shown.card_counter()
    names = list(NAMES[:game.min_players])
    match_id = start(client, key, names)
    page = page_of(client.get(f"/matches/{match_id}"))
    groups = game.shown.hand_form(game.empty_place(Table(tuple(names), game.defaults()), 0))
    counts_group = next(g for g in groups if g.kind == "counts")
    assert counts_group.legend in page.text
    for seat in counts_group.seats:
        for kind in counter.kinds:
            field = page.find("input", name=f"count_{seat}_{kind.name}")
            assert field is not None and field.attrs["min"] == str(kind.least) and field.attrs["max"] == str(kind.most)
    labels = [e.text for e in page.find_all("label", cls="count-cell")]
    assert labels == [kind.label for kind in counter.kinds] * len(counts_group.seats)
    # a count past its kind's most is refused in the game's word for the kind, nothing saved
    too_many = counter.kinds[-1]
    refused = record(client, match_id, **{f"count_0_{too_many.name}": too_many.most + 1})
    assert f"{names[0]}'s {too_many.said}: must be {too_many.least} to {too_many.most}, got {too_many.most + 1}" \
        in text(refused)
    assert _hands(client, match_id) == []
    # the first player counts a few things the game finds possible: the preview says the points
    counts = next(c for values in itertools.product(*(range(k.least, min(k.most, k.least + 2) + 1)
                                                      for k in counter.kinds))
                  if any(values) and not counter.problems({0: (c := dict(zip(names_of(counter), values)))},
                                                          tuple(names)))
    points = counter.points(counts)
    fields = {f"count_0_{name}": value for name, value in counts.items()}
    preview = page_of(client.post(f"/matches/{match_id}/hands/preview", data=fields))
    line = preview.find("p", cls="preview-counted")
    assert line is not None and line.text.startswith(f"{counter.counted[0].upper()}{counter.counted[1:]} make ")
    assert f"{names[0]} {points}" in line.text
    # typed points that disagree with the counts are refused, saying both, in the game's words
    clash = record(client, match_id, **fields, **{f"{counter.into}_0": points + 1})
    assert (f"{counter.heading} and {counter.counted} disagree ({names[0]}: {points + 1} typed, but the "
            f"{counter.counted} make {points}). Clear the {counter.typed} or the counts") in text(clash)
    assert _hands(client, match_id) == []
