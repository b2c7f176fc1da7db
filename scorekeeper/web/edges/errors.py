"""Friendly error pages: nothing ever shows a traceback."""
from __future__ import annotations

import errno
import sqlite3

from flask import Flask, Response, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ..model.partials import render_page_or_partial

MESSAGES = {
    400: ("That request didn't make sense", "Something in what the browser sent was not understood. Go back, check the form and try again."),
    403: ("Not allowed", "You can't change this match from here."),
    404: ("Not found", "There is no such page or match. It may have been typed wrong, or the link is old."),
    405: ("Not allowed", "That page can't be used like that. Go back and use the buttons on the page."),
    413: ("Too large", "What you sent is too large (the limit is 1 MB). A match file is normally only a few kilobytes."),
    429: ("Too many at once", "Too many requests from this device. Wait a minute and try again."),
    503: ("Not saved", "The server could not save."),
    500: ("Something went wrong", "The app hit an unexpected problem. Nothing half-saved was kept: go back and try again."),
}


CANNOT_SAVE = {  # what happened, and when to try again
    "full": ("its disk is full", "when the person running the server has made room on its disk"),
    "read-only": ("its database is read-only (the server may not write to it)",
                  "when the person running the server has made the database writable again"),
    "io": ("writing to its disk failed", "in a moment; if it fails again, tell the person running the server"),
}


def cannot_save(problem: str, sent_a_form: bool) -> str:
    cause, when = CANNOT_SAVE[problem]
    kept = ("Nothing you typed was lost: it is still in the form on your phone (without JavaScript, go back to "
            "it). Nothing is saved twice: try again " if sent_a_form else "Nothing was lost. Try again ")
    return f"The server could not save: {cause}. {kept}{when}."


SQLITE_CODES = {13: "full", 8: "read-only", 10: "io"}  # SQLITE_FULL, SQLITE_READONLY, SQLITE_IOERR
OS_CODES = {errno.ENOSPC: "full", errno.EDQUOT: "full", errno.EROFS: "read-only", errno.EIO: "io"}


def storage_problem(error: BaseException) -> str | None:
    """Why a write failed when the fault is the server's storage, not the request."""
    if isinstance(error, sqlite3.Error):
        return SQLITE_CODES.get((getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF)
    if isinstance(error, OSError):
        return OS_CODES.get(error.errno or 0)
    return None


def render_error(code: int, message: str | None = None) -> tuple[str, int]:
    """The error page, or for an htmx request only its card (never a page inside a page)."""
    title, text = MESSAGES.get(code, (f"Error {code}", "Something went wrong."))
    try:
        return render_page_or_partial("error.html", code=code, title=title, text=message or text), code
    except Exception:  # a broken template must still give a page
        return f"<!doctype html><title>{title}</title><h1>{title}</h1><p>{text}</p>", code


def init_app(app: Flask) -> None:
    @app.after_request
    def boosted_form_answer(response: Response) -> Response:
        """A boosted form (JavaScript on) sent back with its messages (422) or a
        conflict to check (409) is answered 200: htmx swaps it in like any page and
        the browser logs no failed request. Without JavaScript the status stays."""
        if response.status_code in (409, 422) and request.headers.get("HX-Boosted") == "true":
            response.status_code = 200
        return response

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> tuple[str, int]:
        return render_error(400, "This form has expired or was not sent from this app (its security token is "
                                 f"missing or wrong: {error.description}). Reload the page and try again.")

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str, int]:
        return render_error(error.code or 500)

    @app.errorhandler(Exception)
    def any_error(error: Exception) -> tuple[str, int] | tuple[str, int, dict[str, str]]:
        problem = storage_problem(error)
        if problem:  # the server's disk, not the request: 503, and the phone keeps the form (app.js)
            app.logger.error("could not save (%s): %s", problem, error)
            body, code = render_error(503, cannot_save(problem, request.method == "POST"))
            return body, code, {"Retry-After": "60"}
        app.logger.exception("unexpected error")
        return render_error(500)
