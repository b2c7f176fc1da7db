"""A match on paper and in files: the print view, JSON and CSV export, and
importing a match file. Every number comes from ``engine.replay``."""
from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from typing import Any, NoReturn
from urllib.parse import urlencode

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired

from ... import store
from ...engine import MatchError, MatchResult, replay
from ...games import GAMES
from ...games.base import Game, SheetCell
from ...matchfile import date_problems, dumps, duplicate_key, history_line, loads_history
from ...names import FSI, isolate_names, isolated
from ...store import MatchRecord
from ..edges import access, security
from ..edges.db import get_db
from ..edges.errors import render_error
from ..model import page, view

bp = Blueprint("exports", __name__)


class ImportMatchForm(FlaskForm):
    file = FileField("Match or history file (.json)", validators=[FileRequired("Choose a match file to import.")])


def file_stem(info: MatchRecord) -> str:
    """A download name a person recognises: game, date, the match's number (two matches of one
    evening with the same players must not overwrite each other) and players."""
    players = "-".join(info.players)
    named = view.game_title(info.played, info.settings)  # what the table named it (a score pad's "Hearts")
    game = info.game if named == view.game_title(info.played) else f"{info.game}-{named}"
    stem = f"{game}-{info.date or 'undated'}-match{info.id}-{players}"
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", stem)[:100]


def download(body: str, mimetype: str, filename: str) -> Response:
    return Response(body, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


# --- on paper --------------------------------------------------------------------------

MAX_PRINTED = 50  # matches printed at once (an evening is a handful)
SWITCH = {"on": True, "1": True, "off": False, "0": False}


def refuse(code: int, message: str) -> NoReturn:
    """Stop the request with the error page saying ``message``."""
    abort(make_response(render_error(code, message)))


def appendix_wanted() -> bool:
    """``appendix=on|off`` (default on): the hand-by-hand explanations after the sheets.
    Any other value is a 400 that says what is allowed."""
    raw = request.args.get("appendix", "on")
    if raw not in SWITCH:
        refuse(400, f"appendix must be on or off, got \"{raw[:20]}\".")
    return SWITCH[raw]


def sheet_of(match_id: int) -> dict:
    info = page.load(match_id)
    return view.score_sheet(info, page.replayed(info))


def address_with(args: dict[str, list[str]]) -> str:
    query = urlencode(args, doseq=True)
    return url_for(request.endpoint or "", **(request.view_args or {})) + ("?" + query if query else "")


def render_sheets(sheets: list[dict], appendix: bool, heading: str, single: int | None = None,
                  part: dict | None = None) -> str:
    """The print view of ``sheets``; ``dialog=1`` (the match page's Print button) asks
    app.js to open the print dialog once the page is there."""
    args: dict[str, Any] = request.args.to_dict(flat=False)
    args.pop("dialog", None)
    switched: dict[str, Any] = dict(args, appendix=["off"]) if appendix else {k: v for k, v in args.items() if k != "appendix"}
    # the query as sent, not through url_for: it takes _anchor, _method, match_id... as its own arguments
    links = {"here": address_with(args), "switch": address_with(switched)}
    return render_template("print.html", sheets=sheets, appendix=appendix, heading=heading, single=single,
                           dialog=request.args.get("dialog") == "1", links=links, part=part)


@bp.get("/matches/<match_id:match_id>/print")
def print_view(match_id: int) -> ResponseReturnValue:
    """One match's score sheet, then (unless ``appendix=off``) why each hand scored what it did."""
    appendix = appendix_wanted()
    sheet = sheet_of(match_id)  # a match this device may not read is a 404 first, never counted
    refused = security.refuse_heavy_read()
    if refused:
        return refused
    return render_sheets([sheet], appendix, sheet["title"], single=match_id)


def match_ids_asked() -> list[int]:
    """The ids of ``?match=3&match=5`` (each once, in the order given), or those of
    ``?date=YYYY-MM-DD`` that this device may read (every one: they print in parts).
    Bad input is a 400 that says why."""
    raw_ids, date = request.args.getlist("match"), request.args.get("date")
    if raw_ids and date is not None:
        refuse(400, "Print either matches (match=…) or a date (date=…), not both.")
    if date is not None:
        if date_problems(date):
            refuse(400, f"date must be a day as YYYY-MM-DD, got \"{date[:20]}\".")
        dated = store.match_ids_on(get_db(), access.device(), date)
        if not dated:
            refuse(404, f"No match of yours is dated {date}.")
        return dated
    if not raw_ids:
        refuse(400, "Say which matches to print: match=3&match=5, or date=YYYY-MM-DD.")
    if len(raw_ids) > MAX_PRINTED:  # counted as sent, before any is read
        refuse(400, f"match: at most {MAX_PRINTED} matches print at once, got {len(raw_ids):,}.")
    numbers: dict[int, None] = {}  # each once, in the order given (a dict: a list's "in" made this quadratic)
    for raw in raw_ids:
        text = raw.strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 19):
            refuse(400, f"match must be a match number, got \"{raw[:20]}\".")
        numbers[int(text)] = None
    ids = list(numbers)
    for match_id in ids:  # all checked before any is read (page.load checks each again)
        if not access.can_read(match_id):
            abort(404)
    return ids


# Hands one printed part holds: about ten sheets of paper (20 hands fit a sheet). A day of
# long matches prints in parts, each a page of its own to print, so that no answer replays
# and lays out a whole day at once (50 matches of 1,000 hands took 20 s of CPU and 1 GiB).
PART_HANDS = 200


def parts_of(ids: list[int]) -> list[list[int]]:
    """``ids`` in parts, in order: whole matches, as many as fit ``PART_HANDS`` hands (a
    longer match is a part of its own; a match is never split: its sheet is numbered
    and titled as one)."""
    counts = store.hand_counts(get_db(), ids)
    parts: list[list[int]] = []
    held = 0
    for match_id in ids:
        hands = max(1, counts.get(match_id, 0))
        if not parts or held + hands > PART_HANDS:
            parts.append([])
            held = 0
        parts[-1].append(match_id)
        held += hands
    return parts


def part_asked(count: int) -> int:
    """``part=N`` (default 1), a 400 that says the range when it is not one."""
    raw = request.args.get("part", "1")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 6 and 1 <= int(raw) <= count):
        refuse(400, f"part must be a number from 1 to {count}, got \"{raw[:20]}\".")
    return int(raw)


@bp.get("/print")
def print_many() -> ResponseReturnValue:
    """Several matches at once (an evening), each sheet on a new page: ``?match=3&match=5``
    or ``?date=2026-11-20``, with ``appendix=off`` to leave the explanations out. Long
    matches print in parts of about ten sheets of paper (``part=2``...), each linking
    to the next."""
    appendix = appendix_wanted()
    ids = match_ids_asked()
    refused = security.refuse_heavy_read()
    if refused:
        return refused
    parts = parts_of(ids)
    number = part_asked(len(parts))
    sheets = [sheet_of(match_id) for match_id in parts[number - 1]]  # a missing match is a 404 (page.load)
    date = request.args.get("date")
    heading = f"Matches of {date}" if date else f"{len(ids)} match{'' if len(ids) == 1 else 'es'}"
    part = None
    if len(parts) > 1:
        first = sum(len(p) for p in parts[:number - 1]) + 1
        heading += f", part {number} of {len(parts)}"
        part = {"number": number, "count": len(parts), "first": first, "last": first + len(sheets) - 1,
                "matches": len(ids), "previous": _part_link(number - 1) if number > 1 else None,
                "next": _part_link(number + 1) if number < len(parts) else None}
    return render_sheets(sheets, appendix, heading, part=part)


def _part_link(number: int) -> str:
    args = request.args.to_dict(flat=False)
    args.pop("dialog", None)
    return address_with(dict(args, part=[str(number)]))


@bp.get("/matches/<match_id:match_id>/print/blank")
def blank_for_match(match_id: int) -> ResponseReturnValue:
    """A blank sheet with this match's names and settings; an unfinished match's totals
    are carried forward, so the table can continue on paper."""
    info = page.load(match_id)
    result = page.replayed(info)
    sheet = view.blank_sheet(info.played, result.settings, result.players, len(result.players), info, result)
    return render_template("blank.html", sheet=sheet, match_id=match_id)


@bp.get("/print/blank/<game>")
def blank(game: str) -> ResponseReturnValue:
    """A blank sheet of a game with its default settings (``players=N`` where the game
    allows several counts), names left to write in."""
    found = GAMES.get(game)
    if found is None:
        abort(404)
    raw = request.args.get("players", str(found.min_players))
    # length first: int() refuses 4,301 digits or more
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 2 and found.min_players <= int(raw) <= found.max_players):
        seats = (f"{found.min_players}" if found.min_players == found.max_players
                 else f"{found.min_players} to {found.max_players}")
        refuse(400, f"{found.title} is for {seats} players, got \"{raw[:20]}\".")
    sheet = view.blank_sheet(found, found.defaults(), None, int(raw))
    return render_template("blank.html", sheet=sheet, match_id=None,
                           counts=range(found.min_players, found.max_players + 1))


@bp.get("/matches/<match_id:match_id>/export.json")
def export_json(match_id: int) -> ResponseReturnValue:
    info = page.load(match_id)
    return download(dumps(info.match), "application/json", file_stem(info) + ".json")


def csv_rows(info: MatchRecord, result: MatchResult) -> Iterator[list[str | int]]:
    """A header, then a row per hand: the score sheet's own columns (each hand's bids,
    tricks, contract... as the game prints them), each player's points and total, and the
    explanation. A mark a printed cell carries ("dec", "H") follows its text in the cell."""
    sheet = view.score_sheet(info, result)
    layout = sheet["layout"]
    header = ["hand", "dealer"] + [column.key for column in layout.hand]
    players = sheet["players"]
    for name in players:  # isolated: a right-to-left name never turns its heading round
        header += [f"{isolated(name)} {column.key}" for column in layout.seat]
    yield header + ["explanation"]
    for row in sheet["rows"]:
        cells = [row["number"], row["dealer_name"]] + [csv_cell(cell) for cell in row["hand"]]
        for seat_cells in row["seats"]:
            cells += [csv_cell(cell) for cell in seat_cells]
        yield cells + [isolate_names("\n".join(row["explanation"]), players)]


def csv_cell(cell: SheetCell) -> str | int:
    """A sheet cell's text with its mark; a whole number stays a number for the spreadsheet."""
    text = " ".join(part for part in (cell.text, cell.mark) if part).replace("\u2212", "-")
    number = text.removeprefix("+")
    return int(number) if number.lstrip("-").isdigit() and number.isascii() else text


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: str | int) -> str | int:
    """A text cell a spreadsheet would run as a formula gets a leading ' (OWASP's
    advice for CSV injection); numbers stay numbers. A heading that starts with a name
    starts with the name's isolate (FSI): what follows it counts."""
    if isinstance(value, str) and value.lstrip(FSI).startswith(FORMULA_STARTS):
        return "'" + value
    return value


@bp.get("/matches/<match_id:match_id>/export.csv")
def export_csv(match_id: int) -> ResponseReturnValue:
    info = page.load(match_id)
    refused = security.refuse_heavy_read()
    if refused:
        return refused
    out = io.StringIO()
    out.write("\ufeff")  # a byte-order mark: spreadsheets then read the UTF-8 (accents, suit signs)
    csv.writer(out).writerows([safe_cell(cell) for cell in row] for row in csv_rows(info, page.replayed(info)))
    return download(out.getvalue(), "text/csv", file_stem(info) + ".csv")


IMPORTED_AS_COPY = ("Imported as a new match on this phone: a copy, so what you record here does not reach the "
                    "phone it came from. To keep scoring the same match on this phone instead, open its scorer "
                    "link (Share this match, on the phone that has it).")
CSV_BY_MISTAKE = ("This is a CSV file (the spreadsheet export), which cannot be read back into a match. "
                  "Import takes the JSON match file: on the match's page tap Export JSON, then import that file.")


def looks_like_csv(data: bytes, filename: str) -> bool:
    """A CSV export picked by mistake: its name, or its first line (this app's CSV header
    starts "hand,dealer"), rather than a JSON object."""
    head = data[:200].decode("utf-8", "replace").lstrip("\ufeff").lstrip()
    return filename.lower().endswith(".csv") or head.startswith(("hand,dealer", '"hand","dealer"'))


@bp.get("/history/export.json")
def export_history() -> ResponseReturnValue:
    """Every match this phone may open, as one file: a JSON list of match files. Sent as it
    is read, twenty matches at a time, so a long history is never held in memory at once
    (a JSON list, ``history_line`` for each match)."""
    refused = security.refuse_heavy_read()
    if refused:
        return refused
    path, device = current_app.config["DATABASE"], access.device()

    def chunks() -> Iterator[str]:
        # its own connection: the answer is read after the request has ended (and its
        # thread may serve another request between two of its parts)
        db = store.connect(path, migrate=False)
        try:
            yield "[\n"
            for number, (_id, match) in enumerate(store.device_matches_by_batch(db, device)):
                yield ("" if number == 0 else ",\n") + history_line(match)
            yield "\n]\n"
        finally:
            db.close()

    return Response(chunks(), mimetype="application/json",
                    headers={"Content-Disposition":
                             f'attachment; filename="scorekeeper-history-{store.today()}.json"'})


MAX_PROBLEMS = 20  # problems listed for a refused file; checking a match stops there


def shown(error: MatchError) -> list[str]:
    """The first problems of a refused file, then how many more there were: the answer
    stays small however bad the file."""
    lines = error.problems[:MAX_PROBLEMS]
    more = len(error.problems) - len(lines)
    if more:
        lines.append(f"… and {more:,} more problem{'' if more == 1 else 's'}.")
    if error.unchecked:
        lines.append(f"Checking stopped there: the {error.unchecked:,} hand{'' if error.unchecked == 1 else 's'} "
                     "after it were not checked.")
    return lines


def checked_history(matches: list) -> tuple[list[tuple[int, Any, Game]], list[dict]]:
    """The matches of a history file to store on this phone, as (number in the file, match, its
    game), and those already on it (or twice in the file) as {"number", "match", "played", "id"}.
    Every match is replayed, and its date and note checked, before any is stored: one bad match
    imports nothing (and checking stops at it, after ``MAX_PROBLEMS`` problems). The replay
    names each match's game (the file's key looked up once, by the engine)."""
    played: list[Game] = []
    for number, match in enumerate(matches, start=1):
        try:
            played.append(replay(match, max_problems=MAX_PROBLEMS).played)
            store.check_details(match.date, match.note)
        except MatchError as error:
            later = sum(len(m.hands) for m in matches[number:] if isinstance(m.hands, list))
            raise MatchError([f"match {number}: {line}" for line in error.problems],
                             unchecked=error.unchecked + later) from None
    known: dict[str, int | None] = {duplicate_key(m): match_id
                                    for match_id, m in store.device_matches(get_db(), access.device())}
    fresh: list[tuple[int, Any, Game]] = []
    duplicates: list[dict] = []
    for number, (match, game) in enumerate(zip(matches, played), start=1):
        key = duplicate_key(match)
        if key in known:
            duplicates.append({"number": number, "match": match, "played": game, "id": known[key]})
            continue
        known[key] = None  # a second copy in the file is the same match as this one
        fresh.append((number, match, game))
    return fresh, duplicates


def import_history(fresh: list[tuple[int, Any, Game]]) -> list[dict]:
    """Store the matches ``checked_history`` found new, on this phone: [{"id", "match", "played"}]."""
    device = access.device(create=True)
    imported: list[dict] = []
    for number, match, game in fresh:
        try:
            match_id = store.import_match(get_db(), match, device=device)
        except (MatchError, store.LimitReached) as error:  # checked above: cannot happen; never a 500
            raise MatchError([f"match {number}: {line}" for line in error.problems]
                             + ([f"(the {len(imported)} matches before it were imported)"] if imported else [])) \
                from None
        imported.append({"id": match_id, "match": match, "played": game})
    return imported


@bp.route("/import", methods=["GET", "POST"])
def import_match() -> ResponseReturnValue:
    """Import a match file, or a history file (a list of match files) from another phone.
    Cheapest first: every file sent counts against the per-minute limit, good or bad; its
    matches and hands are counted before anything else is read; a file with more matches
    than the hourly budget has room for is refused before any is replayed; the matches to
    be stored (not those refused, nor those already on the phone) are counted against the
    hourly budget just before they are stored."""
    form = ImportMatchForm()
    problems: list[str] = []
    if form.validate_on_submit():
        refused = security.refuse_import()
        if refused:
            return refused
        data = form.file.data.read()
        if looks_like_csv(data, form.file.data.filename or ""):
            problems = [CSV_BY_MISTAKE]
            return render_template("import.html", form=form, problems=problems), 400
        try:
            matches = loads_history(data, max_matches=security.limits().limit("match_hour"), max_hands=store.MAX_HANDS)
            refused = security.refuse_file_without_room(len(matches))
            if refused:
                return refused
            fresh, duplicates = checked_history(matches)
            refused = security.refuse_matches(len(fresh)) if fresh else None
            if refused:
                return refused
            # whoever imports a match scores it on this device
            imported = import_history(fresh)
        except MatchError as error:
            problems = shown(error)
        else:
            if len(matches) == 1 and imported:
                flash(IMPORTED_AS_COPY)
                return redirect(url_for("matches.show", match_id=imported[0]["id"]), code=303)
            return render_template("imported.html", imported=imported, duplicates=duplicates,
                                   total=len(matches)), 200
    status = 400 if form.is_submitted() else 200
    return render_template("import.html", form=form, problems=problems), status
