"""A match on paper and in files: the print view, JSON and CSV export, and
importing a match file. Every number comes from ``engine.replay``."""
from __future__ import annotations

import csv
import io
import re

from flask import Blueprint, Response, redirect, render_template, url_for
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired

from .. import store
from ..engine import MatchError, replay
from ..games import GAMES
from ..matchfile import dumps, loads
from . import access, page, security, view
from .db import get_db

bp = Blueprint("exports", __name__)


class ImportMatchForm(FlaskForm):
    file = FileField("Match file (.json)", validators=[FileRequired("Choose a match file to import.")])


def file_stem(info: dict) -> str:
    """A download name a person recognises: game, date and players."""
    players = "-".join(info["players"])
    stem = f"{info['game']}-{info['date'] or 'match'}-{players}"
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", stem)[:100]


def download(body: str, mimetype: str, filename: str) -> Response:
    return Response(body, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@bp.get("/matches/<match_id:match_id>/print")
def print_view(match_id: int):
    info = page.load(match_id)
    result = replay(info["match"])
    game = GAMES[info["game"]]
    settings = [{"label": s.label, "value": result.settings[s.name]} for s in game.settings]
    return render_template("print.html", info=info, result=result, game=game, settings=settings,
                           board=view.scoreboard(info, result))


@bp.get("/matches/<match_id:match_id>/export.json")
def export_json(match_id: int):
    info = page.load(match_id)
    return download(dumps(info["match"]), "application/json", file_stem(info) + ".json")


def csv_rows(info: dict):
    """A header, then a row per hand: inputs, each player's points and total."""
    match = info["match"]
    result = replay(match)
    players = result.players
    counter = GAMES[match.game].seat_counter  # bags: a column per player beside the total
    header = ["hand", "dealer", "inputs"]
    for name in players:
        header += [f"{name} points", f"{name} total"] + ([f"{name} {counter}"] if counter else [])
    yield header + ["explanation"]
    for scored, hand in zip(result.hands, match.hands):
        row = [scored.number, players[scored.dealer], view.hand_summary(match.game, hand, players, scored.extra)]
        for seat in range(len(players)):
            row += [scored.scores[seat], scored.totals[seat]] + ([scored.extra[counter][seat]] if counter else [])
        yield row + ["\n".join(scored.explanation)]


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    """A text cell a spreadsheet would run as a formula gets a leading ' (OWASP's
    advice for CSV injection); numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


@bp.get("/matches/<match_id:match_id>/export.csv")
def export_csv(match_id: int):
    info = page.load(match_id)
    out = io.StringIO()
    out.write("\ufeff")  # a byte-order mark: spreadsheets then read the UTF-8 (accents, suit signs)
    csv.writer(out).writerows([safe_cell(cell) for cell in row] for row in csv_rows(info))
    return download(out.getvalue(), "text/csv", file_stem(info) + ".csv")


@bp.route("/import", methods=["GET", "POST"])
def import_match():
    form = ImportMatchForm()
    problems: list[str] = []
    if form.validate_on_submit():
        refused = security.refuse_new_match()
        if refused:
            return refused
        try:
            match = loads(form.file.data.read())
            # whoever imports a match scores it on this device
            match_id = store.import_match(get_db(), match, device=access.device(create=True))
        except MatchError as error:
            problems = error.problems
        else:
            security.note_new_match()
            return redirect(url_for("matches.show", match_id=match_id), code=303)
    status = 400 if form.is_submitted() else 200
    return render_template("import.html", form=form, problems=problems), status
