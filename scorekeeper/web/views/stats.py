"""Players and their statistics, over this device's matches: a page per player (per
game and overall), the hands behind each figure, and head-to-head.

Nothing here scores: every fact was counted by the game (``Game.hand_facts``) from the
engine's replay when the match was last written, and is read back from the store's
``match_players`` rows; this only adds them up."""
from __future__ import annotations

from flask import Blueprint, Flask, request
from flask.typing import ResponseReturnValue
from markupsafe import Markup, escape
from wtforms import Form, SelectField, StringField

from ... import store
from ...games import GAMES
from ...games.base import Game
from ...names import is_empty, same_name
from ..edges import access, security
from ..edges.db import get_db
from ..edges.errors import render_error
from ..model import partials, view

bp = Blueprint("stats", __name__)


class Refused(Exception):
    """A stats address that cannot be answered: its status and what is wrong, in words."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code, self.message = code, message


@bp.errorhandler(Refused)
def refused(error: Refused) -> ResponseReturnValue:
    return render_error(error.code, error.message)

VERSUS_LISTED = 50  # the matches head-to-head lists, newest first (the figures count them all)
MATCH_FIGURES = view.MATCH_FIGURES


class ComparePlayersForm(Form):
    """Head-to-head: two players (a GET form: nothing changes)."""
    player = StringField("Player")
    other = SelectField("Against", choices=[])


def _name(arg: str) -> str:
    value = request.args.get(arg, "")
    if not isinstance(value, str) or is_empty(value):  # invisible characters only: no name either
        raise Refused(400, f"Say which player: add ?{arg}=<a name> to the address.")
    if len(value) > 40:
        raise Refused(400, "A name is at most 40 characters.")
    return value.strip()


def _share(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "–"


def _number(value: float | None) -> str:
    if value is None:
        return "–"
    # two places, not one: 17/4 is 4.25, which one place would show as 4.2 (half to even)
    return f"{value:.2f}".rstrip("0").rstrip(".")


def summary(rows: list[dict]) -> dict:
    """Matches played (finished), won, win rate and average final place, over ``rows``."""
    done = [r for r in rows if r["finished"]]
    won = sum(1 for r in done if r["won"])
    return {"played": len(done), "in_progress": len(rows) - len(done), "won": won,
            "rate": _share(won, len(done)), "rate_value": (won / len(done)) if done else None,
            "place": _number(sum(r["place"] for r in done) / len(done)) if done else "–"}


def game_figures(game: Game, rows: list[dict]) -> list[dict]:
    """A game's own figures for one player, added up over ``rows`` (their matches of it)."""
    hands_played = sum(r["hands"] for r in rows)
    counted: dict[str, int] = {}
    out = []
    for figure in game.stats.figures:
        facts = [r["figures"].get(figure.key) for r in rows]
        count = sum(f[0] for f in facts if f)
        points = sum(f[1] for f in facts if f)
        counted[figure.key] = count
        if figure.kind == "count":
            text = str(count)
            if figure.of is not None:
                text += f" of {counted.get(figure.of, 0)} ({_share(count, counted.get(figure.of, 0))})"
        elif figure.kind == "sum":
            text = str(points)
        elif figure.kind == "mean":
            text = _number(points / count) if count else "–"
        else:  # per_hand
            text = _number(round(points / hands_played, 2)) if hands_played else "–"
        out.append({"key": figure.key, "label": figure.label, "value": text, "hands": count,
                    "part": figure.of is not None})
    return out


def _by_game(rows: list[dict]) -> dict[tuple[Game, str], list[dict]]:
    """The rows by game as the table names it (the game, name): a score pad's Hearts and
    its Rummy are counted apart; in the registry's order, then by name."""
    games: dict[tuple[Game, str], list[dict]] = {}
    for row in rows:
        games.setdefault((row["played"], view.game_title(row["played"], row["settings"], kind=True)), []).append(row)
    order = list(GAMES.values())
    return {key: games[key] for key in sorted(games, key=lambda k: (order.index(k[0]), k[1]))}


def win_rate_svg(rates: list[tuple[str, float | None]]) -> Markup:
    """Bars of the win rate per game (server-rendered SVG, classes only; the figures
    are also in the table beside it)."""
    # each game's name on its own line above its bar: beside it, "Dummy Hand Spades" ran into the bar
    bar, label, gap, width = 22, 18, 10, 320
    track = width - 50
    height = len(rates) * (label + bar + gap) + gap
    parts = [f'<svg class="chart win-rate" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="Win rate per game">']
    for i, (title, rate) in enumerate(rates):
        top = gap + i * (label + bar + gap)
        y = top + label
        length = round(track * (rate or 0))
        parts.append(f'<text class="bar-label" x="0" y="{top + label - 5}">{escape(title)}</text>')
        parts.append(f'<rect class="bar-track" x="0" y="{y}" width="{track}" height="{bar}"/>')
        parts.append(f'<rect class="bar" x="0" y="{y}" width="{length}" height="{bar}"/>')
        text = "–" if rate is None else f"{round(100 * rate)}%"
        parts.append(f'<text class="bar-value" x="{width - 44}" y="{y + bar - 6}">{text}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


TREND_MATCHES = 30  # the matches the accuracy chart draws, the newest


def trend(game: Game, rows: list[dict]) -> dict | None:
    """The game's bid accuracy match by match (its ``trend`` figure as a share of the
    count it is part of), over the last matches where it was counted."""
    figure = next((f for f in game.stats.figures if f.trend), None)
    if figure is None or figure.of is None:
        return None
    of = figure.of
    points = []
    for row in rows:
        whole = (row["figures"].get(of) or [0, 0])[0]
        if whole:
            points.append((row["date"] or "", (row["figures"].get(figure.key) or [0, 0])[0] / whole))
    points = points[-TREND_MATCHES:]
    if len(points) < 2:
        return None
    return {"label": f"{figure.label} (share of {_label(game, of).lower()}), match by match",
            "svg": trend_svg(points, figure.label)}


def _label(game: Game, key: str) -> str:
    return next((f.label for f in game.stats.figures if f.key == key), key)


def trend_svg(points: list[tuple[str, float]], label: str) -> Markup:
    """A line of shares (0 to 100%) match by match, oldest on the left (SVG, classes only)."""
    width, height, left, top, bottom, right = 320, 140, 40, 10, 22, 10
    inner_w, inner_h = width - left - right, height - top - bottom
    step = inner_w / (len(points) - 1)
    xy = [(left + i * step, top + inner_h * (1 - share)) for i, (_, share) in enumerate(points)]
    first, last = round(100 * points[0][1]), round(100 * points[-1][1])
    words = f"{label}: {len(points)} matches, from {first}% in the first to {last}% in the last"
    parts = [f'<svg class="chart trend" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(words)}">']
    for share in (0, 50, 100):
        y = top + inner_h * (1 - share / 100)
        parts.append(f'<line class="grid" x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}"/>')
        parts.append(f'<text class="tick" x="{left - 4}" y="{y + 4:.1f}" text-anchor="end">{share}%</text>')
    parts.append('<polyline class="trend-line" points="' + " ".join(f"{x:.1f},{y:.1f}" for x, y in xy) + '"/>')
    parts += [f'<circle class="trend-point" cx="{x:.1f}" cy="{y:.1f}" r="3"/>' for x, y in xy]
    parts.append(f'<text class="tick" x="{left}" y="{height - 6}">{escape(points[0][0])}</text>')
    parts.append(f'<text class="tick" x="{width - right}" y="{height - 6}" text-anchor="end">'
                 f'{escape(points[-1][0])}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


@bp.get("/players")
def players() -> ResponseReturnValue:
    """Everyone this device has kept score for, with a link to their stats."""
    people = store.player_list(get_db(), access.device())
    return partials.render_page_or_partial("players.html", people=people)


@bp.get("/stats")
def player() -> ResponseReturnValue:
    """One player's figures over this device's matches: overall and per game."""
    name = _name("player")
    rows = store.player_rows(get_db(), access.device(), [same_name(name)])
    if not rows:
        raise Refused(404, f"No match on this phone has a player called {name}.")
    shown = rows[-1]["name"]  # as last typed
    games = _by_game(rows)
    sections: list[dict] = [{"key": game.key, "title": title, "summary": summary(game_rows),
                             "figures": game_figures(game, game_rows), "trend": trend(game, game_rows)}
                            for (game, title), game_rows in games.items()]
    met = store.met_players(get_db(), access.device(), same_name(name))
    others = [p for p in store.player_list(get_db(), access.device()) if p["key"] in met]
    form = ComparePlayersForm(data={"player": shown})
    form.other.choices = [(p["name"], p["name"]) for p in others]
    chart = win_rate_svg([(s["title"], s["summary"]["rate_value"]) for s in sections])
    return partials.render_page_or_partial("stats.html", name=shown, overall=summary(rows), sections=sections,
                                           form=form, chart=chart)


# A page of the hands behind a figure: whole matches, at most this many, or as many as
# fit this many hands (a match with more is a page of its own). The hands of the page's
# matches only are read: every hand of 50 long matches took 5.7 s and 767 MiB.
LISTED_MATCHES, LISTED_HANDS = 20, 300


def _pages(items: list[dict]) -> list[list[dict]]:
    pages: list[list[dict]] = []
    held = 0
    for item in items:
        if not pages or len(pages[-1]) >= LISTED_MATCHES or held + item["count"] > LISTED_HANDS:
            pages.append([])
            held = 0
        pages[-1].append(item)
        held += item["count"]
    return pages or [[]]


def _page_asked(count: int) -> int:
    raw = request.args.get("page", "1")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 6 and 1 <= int(raw) <= count):
        raise Refused(400, f"page must be a number from 1 to {count}, got \"{raw[:20]}\".")
    return int(raw)


@bp.get("/stats/hands")
def hands() -> ResponseReturnValue:
    """The matches and hands behind one figure, each linked, so a doubted figure can be
    checked: a page of matches at a time, oldest first."""
    name = _name("player")
    game_key = request.args.get("game", "")
    if game_key not in GAMES:
        raise Refused(400, "Say which game: game must be one of " + ", ".join(GAMES) + ".")
    game = GAMES[game_key]  # the address names the game: the one place this page looks its key up
    key = request.args.get("figure", "")
    figures = {f.key: f.label for f in game.stats.figures}
    if key not in figures and key not in MATCH_FIGURES:
        raise Refused(400, f"No figure called {key!r} in {view.game_title(game)}.")
    refused = security.refuse_heavy_read()
    if refused:
        return refused
    rows = store.player_rows(get_db(), access.device(), [same_name(name)], players=True, game=game_key)
    if not rows:
        raise Refused(404, f"No match of {view.game_title(game)} on this phone has a player called {name}.")
    # the stats count a named score pad's matches apart ("Hearts (score pad)"): its figure's
    # link names it, and only its matches are listed, under its name
    # (an address without it, as before: every match of the game, under the game's title)
    title = request.args.get("named") or view.game_title(game)
    if request.args.get("named"):
        rows = [row for row in rows if view.game_title(game, row["settings"], kind=True) == title]
        if not rows:
            raise Refused(404, f"No match of {title[:60]} on this phone has a player called {name}.")
    if key in MATCH_FIGURES:
        items = [{"row": row, "count": 0, "hands": []} for row in rows
                 if row["finished"] and (key == "played" or row["won"])]
    else:  # each row's count of the fact is kept with it: the hands are read for the page shown only
        items = [{"row": row, "count": (row["figures"].get(key) or [0])[0], "hands": []} for row in rows
                 if (row["figures"].get(key) or [0])[0]]
    pages = _pages(items)
    number = _page_asked(len(pages))
    shown = pages[number - 1]
    if key not in MATCH_FIGURES:
        found = store.fact_hands(get_db(), [(i["row"]["match_id"], i["row"]["seat"]) for i in shown], key)
        for item in shown:
            item["hands"] = found[(item["row"]["match_id"], item["row"]["seat"])]
    label = MATCH_FIGURES.get(key) or figures[key]
    pager = None
    if len(pages) > 1:
        first = sum(len(p) for p in pages[:number - 1]) + 1
        pager = {"page": number, "pages": len(pages), "first": first, "last": first + len(shown) - 1,
                 "args": {"player": name, "game": game_key, "named": title, "figure": key}}
    return partials.render_page_or_partial("stats_hands.html", name=rows[-1]["name"], title=title, label=label,
                                           items=shown, matches=len(items), pager=pager,
                                           count=sum(i["count"] for i in items))


@bp.get("/stats/versus")
def versus() -> ResponseReturnValue:
    """Head-to-head: the matches two players played together, who finished ahead, their records per game."""
    first, second = _name("player"), _name("other")
    a, b = same_name(first), same_name(second)
    if a == b:
        raise Refused(400, "Pick two different players.")
    rows = store.player_rows(get_db(), access.device(), [a, b], players=True)
    by_match: dict[int, dict] = {}
    for row in rows:
        by_match.setdefault(row["match_id"], {})[row["name_key"]] = row
    together = [m for m in by_match.values() if a in m and b in m]
    if not together:
        raise Refused(404, f"{first} and {second} have not played together in a match on this phone.")
    names = {a: together[-1][a]["name"], b: together[-1][b]["name"]}
    done = [m for m in together if m[a]["finished"]]
    ahead = {a: sum(1 for m in done if m[a]["place"] < m[b]["place"]),
             b: sum(1 for m in done if m[b]["place"] < m[a]["place"])}
    games = [{"title": title, "matches": len(game_rows),
              "records": [(names[k], summary([by_match[r["match_id"]][k] for r in game_rows])) for k in (a, b)]}
             for (_key, title), game_rows in _by_game([m[a] for m in together]).items()]
    matches = [{"id": m[a]["match_id"], "date": m[a]["date"],
                "game": view.game_title(m[a]["played"], m[a]["settings"]),
                "players": m[a]["players"], "finished": m[a]["finished"],
                "ahead": "level" if m[a]["place"] == m[b]["place"]
                else names[a] if m[a]["place"] < m[b]["place"] else names[b]}
               for m in list(reversed(together))[:VERSUS_LISTED]]
    return partials.render_page_or_partial("versus.html", names=names, a=a, b=b, together=len(together),
                                           finished=len(done), ahead=ahead, level=len(done) - ahead[a] - ahead[b],
                                           games=games, matches=matches)


def stats_url(name: str) -> str:
    from flask import url_for

    return url_for("stats.player", player=name)


def init_app(app: Flask) -> None:
    app.jinja_env.globals["stats_url"] = stats_url
