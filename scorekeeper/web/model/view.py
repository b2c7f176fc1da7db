"""Presentation helpers shared by the blueprints. Nothing here computes a score:
every number shown comes from ``engine.replay``; this only arranges it."""
from __future__ import annotations

import dataclasses
import datetime
import re
from collections.abc import Sequence
from typing import Any

from flask import url_for
from markupsafe import Markup, escape

from ... import engine
from ...engine import HandResult, Match, MatchResult, Showing, ShownHand
from ...games import base
from ...games.base import (
    Game,
    HandContext,
    SheetCell,
    SheetColumn,
    Table,
    ordinal,  # noqa: F401 (a template filter, web.__init__)
)
from ...names import FSI, isolate_names, isolated
from ...store import MatchRecord

LONG_WORD = re.compile(r"[^\s\u2068\u2069]{13,}")  # 13 letters on: wider than a name's box may be at 320 px, 200% text


def shown_name(name: Any) -> Markup:
    """A player's name on a page (the ``name`` filter every template uses): in a ``<bdi>``,
    so a right-to-left name never reorders the words or the score beside it. A name with
    no right-to-left character cannot reorder the page's left-to-right text: it is
    written as it is (as ``names.isolated`` leaves it in plain text)."""
    # (escape, not Markup.format: a page shows hundreds of names, and format is 10x slower)
    if isinstance(name, str) and (isolated(name) == name or FSI in name):
        # (a label the form wrote round a name, "⁨علي⁩'s bid", holds its isolate already:
        # a <bdi> round the whole would take its direction from the name)
        if LONG_WORD.search(name) is None:
            return escape(name)
        # a word too long for a narrow box (up to 40 letters, no space): it may break
        # anywhere (app.css), so the box shrinks to the screen instead of widening the page;
        # the page's own words around it never break inside
        return Markup(f'<span class="long-word">{escape(name)}</span>')
    return Markup(f"<bdi>{escape(name)}</bdi>")


def with_names_isolated(text: Any, players: Any) -> str:
    """A sentence the engine or a game wrote (an explanation, an event) with the players'
    names in it isolated (the ``isolating`` filter; ``names.isolate_names``)."""
    return isolate_names(str(text), players or ())


# The stats figures of whole matches (the games' own figures count hands)
MATCH_FIGURES = {"played": "Matches played (finished)", "won": "Won (a shared win counts)"}


def signed(points: int | None) -> str:
    if points is None:
        return ""
    return f"+{points}" if points > 0 else str(points)


def game_title(game: Game, settings: dict | None = None, kind: bool = False) -> str:
    """The game's name as the table knows it (``engine.game_title``)."""
    return engine.game_title(game, settings, kind)


def shown_standings(shown: Showing) -> list[dict]:
    """The scoreboard's standings as the page shows them (``Showing.standings``): each place
    in words ("1st"), each name as a page shows it (``shown_name``; its partners' too), the
    address of its stats and the points of the last hand ("+12", "0")."""
    return [{"seat": row.seat, "name": row.name, "total": row.total, "place": row.place, "tied": row.tied,
             "partners": list(row.partners), "winner": row.winner, "last": row.last,
             "place_text": row.place_text, "shown": shown_name(row.name),
             "stats_url": url_for("stats.player", player=row.name),
             "partners_shown": Markup(" and ").join(shown_name(name) for name in row.partners),
             "last_text": None if row.last is None else signed(row.last) or "0"} for row in shown.standings]


def preview_shown(game: Game, hand: dict, result: MatchResult, number: int) -> dict:
    """What the preview of hand ``number`` (``hand`` as typed, ``result`` the match with it)
    shows (``engine.previewed``), as the page writes it: each seat's points and total by its
    name as shown, the game's one-line summary (who declares, holds, took the Wheel...) with
    the names in it isolated, its warnings, and whether it ends the game and who wins."""
    shown = engine.previewed(result, hand, number)
    players = shown.players
    return {
        "scores": [(shown_name(name), signed(points)) for name, points in zip(players, shown.scores)],
        "totals": [(shown_name(name), total) for name, total in zip(players, shown.totals)],
        "summary": shown.summary,
        "warnings": shown.warnings,
        "finished": shown.finished,
        **who_won(players, shown.winners, shown.team_won),
    }


def who_won(players: Sequence[str], winners: Sequence[int], team_won: bool) -> dict:
    """The winners as the preview and the board name them: plain, as a page shows them, and
    whether they won together as a side."""
    return {"winners": [players[s] for s in winners], "winners_shown": [shown_name(players[s]) for s in winners],
            "team_won": team_won}


def hand_numbers(game: Game, hand: dict, place: HandContext, summary: str) -> str:
    """A hand's numbers per player, in the game's words, as one line for the match log
    (those its summary does not already say); ``place``: the log's place of the hand."""
    return "; ".join(line for line in game.shown.hand_numbers(hand, place) if line not in summary)


# Hands the scoreboard lists, the latest: the earlier ones are a page away ("Earlier
# hands"), so a long match's page, its live board and every poll stay the size of a
# page (a 1,000-hand board was 2.6 MB, re-sent on every change).
HANDS_SHOWN = 50


def hand_rows(info: MatchRecord, result: MatchResult, first: int, last: int,
              changed_hands: set[int] | frozenset[int] = frozenset()) -> list[dict]:
    """The scoreboard's rows of hands ``first`` to ``last`` (numbered from 1)."""
    return rows_of(result.players, engine.shown_hands(result, info.match.hands, first, last), changed_hands)


def rows_of(players: list[str] | tuple[str, ...], hands: tuple[ShownHand, ...],
            changed_hands: set[int] | frozenset[int] = frozenset()) -> list[dict]:
    """The scoreboard's rows of ``hands`` (``engine.shown_hands``) as the page writes them."""
    return [{
        "number": hand.number,
        "dealer": players[hand.dealer],
        "dealer_shown": shown_name(players[hand.dealer]),
        "summary": hand.summary,
        "scores": hand.scores,
        "scores_text": [signed(points) for points in hand.scores],
        "totals": hand.totals,
        "explanation": hand.explanation,
        "counter": hand.counter,
        "events": hand.events,
        "changed": hand.number in changed_hands,
    } for hand in hands]


def scoreboard(info: MatchRecord, shown: Showing, changed: dict | None = None, rows_from: int = 1) -> dict:
    """Everything the scoreboard template shows, from what the engine says the match shows
    (``engine.showing``: its hands from the first the page lists, at most the last
    ``HANDS_SHOWN``, from hand ``rows_from`` on)."""
    players = list(shown.players)
    rows = rows_of(players, shown.hands, set((changed or {}).get("hands", [])))
    last = shown.hands[-1] if shown.hands else None
    from .chart import running_totals_svg

    return {
        "players": players,
        "players_shown": [shown_name(name) for name in players],  # as a page writes each name
        "standings": shown_standings(shown),
        "last_number": shown.played,
        "rows": rows,
        "first_shown": shown.first if rows else None,  # hands before it are on the pages of earlier hands
        "counter": None if shown.counter is None else list(shown.counter),  # the game's running count per seat (bags), in words
        "last_events": list(last.events) if last is not None and last.number == shown.played else [],
        "progress": {"lines": list(shown.progress), "percent": shown.percent, "hands_left": shown.hands_left},
        "progress_text": shown.progress_text,
        "next_dealer": None if shown.next_dealer is None else players[shown.next_dealer],
        "next_dealer_shown": None if shown.next_dealer is None else shown_name(players[shown.next_dealer]),
        "next_why": shown.next_why,
        "finished": shown.finished,
        "ending": shown.ending,
        **who_won(players, shown.winners, shown.team_won),
        # a saved hand's answer leaves the chart to load when it is seen (see hands.chart)
        "chart": running_totals_svg(players, list(shown.running)) if shown.played and rows_from == 1 else None,
        "changed": changed,
        "needs": None if shown.needs_table is None else needs(shown),
        "result_text": result_text(shown, info.date),
    }


def result_text(shown: Showing, date: str | None) -> str | None:
    """The standings as one line to send to the group chat: "Third Wheel, 23 Nov: Ann 29
    (won), Cy 22, Bob 20, 6 hands" (None before the first hand)."""
    played = shown.played
    if not played:
        return None
    day = ""
    if date:
        try:
            when = datetime.date.fromisoformat(date)
        except ValueError:
            day = f", {date}"
        else:
            day = f", {when.day} {when.strftime('%b')}"
    winners = set(shown.winners) if shown.finished else set()
    plain = dict(zip(shown.players, shown.isolated))
    parts: list[str] = []
    said: set[str] = set()  # a team is named once, its players together: "Ann and Cy 6"
    for row in shown.standings:
        if row.name in said:
            continue
        said.update([row.name, *row.partners])
        names = " and ".join(plain[name] for name in [row.name, *row.partners])
        parts.append(f"{names} {row.total}" + (" (won)" if row.seat in winners else ""))
    places = ", ".join(parts)
    hands = f"{played} hand{'' if played == 1 else 's'}"
    return f"{shown.title}{day}: {places}, " + (hands if shown.finished else f"after {hands}, still playing")


def needs(shown: Showing) -> dict:
    """The "What each player needs" panel, as the game computes it from the rules."""
    players = shown.players
    # as the page writes them: each name shown (``shown_name``), the names in each sentence isolated
    return {"table": list(shown.needs_table or ()),
            "seats": [{"name": players[n.seat], "shown": shown_name(players[n.seat]), "text": n.text,
                       "lines": n.lines, "out": n.out} for n in shown.needs]}


# --- settings in words ---------------------------------------------------------------

def settings_shown(game: Game, settings: dict) -> list[dict]:
    """Each setting of a game in words: label, value, help, and whether it is the default."""
    shown, record = [], game.settings_of(settings)
    for s in game.settings:
        if not s.applies(record):
            continue  # means nothing at this table (the flip count when nobody flips)
        value = settings.get(s.name, s.default)
        shown.append({"label": s.label, "value": s.text(value), "help": s.help,
                      "default": value == s.default})
    return shown


# --- the score sheet -------------------------------------------------------------------

def _cell(column: SheetColumn, hand: HandResult, seat: int, own: dict[str, SheetCell]) -> SheetCell:
    """A player's cell: points and totals from the engine's replay, the rest from the game."""
    if column.key == "points":
        return SheetCell(signed(hand.scores[seat]))
    if column.key == "total":
        return SheetCell(str(hand.totals[seat]))
    return own.get(column.key, SheetCell())


def sheet_status(result: MatchResult, first_dealer: int) -> str:
    """One line: who won and why, or how far the match is."""
    players, played = result.players, len(result.hands)
    hands = f"{played} hand{'' if played == 1 else 's'}"
    if result.finished:
        winners = base.name_list([players[s] for s in result.winners])
        verb = "win" if len(result.winners) > 1 else "wins"
        why = result.hands[-1].ending
        return f"{winners} {verb} after {hands}" + (f": {why}." if why else ".")
    if not played:
        return f"No hands recorded yet; {players[first_dealer]} deals first."
    return f"In progress after {hands}; {players[result.next_dealer or 0]} deals next."


def score_sheet(info: MatchRecord, result: MatchResult) -> dict:
    """Everything a printed score sheet shows, in the game's own columns: one row per
    hand (dealer marked), the running totals, the standings, the header and the
    explanations. Every number comes from ``result``, the engine's replay."""
    match: Match = info.match
    game = info.played
    players = result.players
    layout = game.shown.sheet_layout(result.next_place())
    rows = []
    for scored, hand in zip(result.hands, match.hands):
        cells = game.shown.sheet_cells(hand, result.place(scored.number), scored.extra)
        rows.append({
            "number": scored.number,
            "dealer": scored.dealer,
            "hand": [cells.hand.get(column.key, SheetCell()) for column in layout.hand],
            "seats": [[_cell(column, scored, seat, cells.seats[seat]) for column in layout.seat]
                      for seat in range(len(players))],
            "summary": engine.hand_summary(info.played, hand, result.place(scored.number), scored.extra),
            "dealer_name": players[scored.dealer],
            "out_of_turn": engine.dealt_out_of_turn(hand),
            "explanation": scored.explanation,
            "events": [engine.event_text(e) for e in scored.events if e.on_sheet],  # what its columns do not show
        })
    counter = game.shown.seat_counter
    # the same places as the match page's (``engine.standings``), as rows a sheet adds its counter to
    standing = [dataclasses.asdict(row) for row in engine.standings(result, result.winners if result.finished else None)]
    counts = engine.seat_counts(game, result.hands[-1]) if result.hands else None
    if counts is not None:
        for row in standing:
            row["counter"] = counts[row["seat"]]
    return {
        "id": info.id,
        "game": game,
        "title": game_title(game, result.settings),
        "running_title": " · ".join(p for p in (game_title(game, result.settings), info.date or "",
                                                ", ".join(players)) if p),
        "date": info.date,
        "note": info.note,
        "players": players,
        "first_dealer": players[match.first_dealer],
        "settings": settings_shown(game, result.settings),
        "layout": layout,
        "rows": rows,
        "out_of_turn": any(row["out_of_turn"] for row in rows),
        "status": sheet_status(result, match.first_dealer),
        "finished": result.finished,
        "standings": standing,
        "counter": counter.title() if counter and result.hands else None,
    }


BLANK_ROWS = 16  # a blank sheet's empty hand rows: the grid and the rules summary fill one page


def blank_sheet(game: Game, settings: dict, players: list[str] | None, seats: int,
                info: MatchRecord | None = None, result: MatchResult | None = None) -> dict:
    """A score sheet to fill in by hand: the game's columns, empty rows, and the rules
    summary. From a match (``info`` and its replay ``result``), the names and settings
    are printed and an unfinished match's totals are carried forward ("continue on paper")."""
    names = players or [f"Player {seat + 1}" for seat in range(seats)]
    # the match's place when there is one; a blank sheet's is a match with no hands
    place = result.next_place() if result is not None else game.empty_place(Table(tuple(names), settings))
    layout = game.shown.sheet_layout(place)
    carried = None
    first = 1
    if result is not None and result.hands and not result.finished:
        last = result.hands[-1]
        counter, counts = game.shown.seat_counter, engine.seat_counts(game, last)
        carried = {"after": last.number,
                   "seats": [[SheetCell(str(last.totals[seat])) if column.key == "total"
                              else SheetCell(str(counts[seat])) if counts is not None and column.key == counter
                              else SheetCell() for column in layout.seat] for seat in range(seats)]}
        first = last.number + 1
    next_dealer = None  # who deals the next hand, while the match goes on
    if result is not None and players and result.next_dealer is not None:
        next_dealer = players[result.next_dealer]
    return {
        "game": game,
        "title": game_title(game, settings),
        "running_title": " · ".join([game_title(game, settings), "score sheet"] + ([", ".join(players)] if players else [])),
        "info": info,
        "players": names,
        "named": players is not None,
        "settings": settings_shown(game, settings),
        "layout": layout,
        "carried": carried,
        "numbers": list(range(first, first + BLANK_ROWS)),
        "next_dealer": next_dealer,
        "finished": bool(result and result.finished),
        "rules": game.shown.sheet_rules(place),
    }
