"""The server CPU of an unchanged poll, with no network: read from its head by the
connection (``UnchangedPolls.answer_head``, what ``scorekeeper serve`` does), the app's WSGI
callable called directly in front of the app (``web.edges.polls``), and through Flask as before.

    .venv/bin/python bench/poll_cost.py [--polls 5000] [--markdown docs/performance.md]

Prints the CPU time per poll (``time.process_time``, the best of 5 runs of ``--polls``).
The server adds its own (the socket's reads and writes; for the WSGI paths waitress's parse,
a thread hand-off and its answer's head): see
``bench/tables.py``'s server CPU per request for the whole.
"""
from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from report import measured, table, write_section
from werkzeug.test import EnvironBuilder

from scorekeeper import store
from scorekeeper.engine import Match
from scorekeeper.samples import long_settings
from scorekeeper.store.devices import grant_in
from scorekeeper.web import create_app
from scorekeeper.web.edges.polls import UnchangedPolls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polls", type=int, default=5000)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs")
    parser.add_argument("--markdown", help="also write the figures to this file, as a section of Markdown")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    polls = 50 if args.smoke else args.polls
    folder = tempfile.mkdtemp(prefix="scorekeeper-poll-")
    database = os.path.join(folder, "poll.sqlite")
    app = create_app({"DATABASE": database, "SECRET_KEY": "poll"})
    db = store.connect(database)
    match_id = store.create_match(db, Match(game="third_wheel", players=["Ann", "Bob", "Cy"],
                                            settings=long_settings("third_wheel", 10_000)))
    cookie = "w" * 32
    with store.writing(db):
        grant_in(db, store.device_key(cookie), match_id, watch=True, how="bench")
    version = store.get_version(db, match_id)
    db.close()
    environ = EnvironBuilder(path=f"/matches/{match_id}/board", headers={
        "If-None-Match": f'W/"v{version}"', "Cookie": f"scorekeeper_device={cookie}", "HX-Request": "true"}).get_environ()
    front = app.wsgi_app
    assert isinstance(front, UnchangedPolls)
    statuses: list[str] = []

    def start_response(status: str, headers: list, exc_info: object = None) -> None:
        statuses.append(status)

    head = (f"GET /matches/{match_id}/board HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: scorekeeper_device={cookie}\r\n"
            f'HX-Request: true\r\nIf-None-Match: W/"v{version}"\r\n\r\n').encode()

    def from_head(environ: dict, start_response: object) -> list:
        headers = front.answer_head(head)
        assert headers is not None
        statuses.append("304 from the head")
        return []

    print(f"{'unchanged poll':<32}{'ms CPU / poll':>14}")
    rows = []
    for label, wsgi in (("read by the connection (serve)", from_head), ("answered in front (WSGI)", front),
                        ("through Flask (before)", front.app)):
        for _ in range(min(200, polls)):
            list(wsgi(dict(environ), start_response))
        best = float("inf")
        for _ in range(5):
            began = time.process_time()
            for _ in range(polls):
                list(wsgi(dict(environ), start_response))
            best = min(best, (time.process_time() - began) / polls)
        assert statuses[-1].startswith("304"), statuses[-1]
        print(f"{label:<32}{best * 1000:>14.4f}")
        rows.append([label, f"{best * 1000:.4f} ms"])
    print(f"load average (1 min): {os.getloadavg()[0]:.1f}")
    if args.markdown:
        write_section(Path(args.markdown), "poll_cost", (
            f"### An unchanged poll's CPU (`bench/poll_cost.py`)\n\n{measured(load)}; the best of 5 runs of "
            f"{polls:,} polls of a watcher's board, no network.\n\n" + table(["unchanged poll", "CPU / poll"], rows)))
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
