"""The server CPU of an unchanged poll, with no network: read from its head by the
connection (``UnchangedPolls.answer_head``, what ``scorekeeper serve`` does), the app's WSGI
callable called directly in front of the app (``web.edges.polls``), and through Flask as before.
Then a scorer's changed poll, one hand behind (another phone saved one): answered with the
parts that changed (``sharing.live``), and with the whole page as before (the same poll asking
``since`` its version, which still draws the whole page), for a short and a long match.

    .venv/bin/python bench/poll_cost.py [--polls 5000] [--changed 300] [--markdown docs/performance.md]

Prints the CPU time per poll (``time.process_time``, the best of 5 runs of ``--polls``, or of
``--changed`` changed polls).
The server adds its own (the socket's reads and writes; for the WSGI paths waitress's parse,
a thread hand-off and its answer's head): see
``bench/tables.py``'s server CPU per request for the whole.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import tempfile
import time
from pathlib import Path

from flask import Flask
from report import measured, table, write_section
from werkzeug.test import EnvironBuilder

from scorekeeper import store
from scorekeeper.engine import Match
from scorekeeper.samples import long_settings, random_match
from scorekeeper.store.devices import grant_in
from scorekeeper.web import create_app
from scorekeeper.web.edges.polls import UnchangedPolls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polls", type=int, default=5000)
    parser.add_argument("--changed", type=int, default=300, help="changed polls per run")
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
    changed_polls(app, database, 5 if args.smoke else args.changed, args.markdown, load)
    shutil.rmtree(folder, ignore_errors=True)


# (game, hands played before the poll): a short match, and one past the 50 hands a page lists
CHANGED = (("third_wheel", 12), ("third_wheel", 60), ("dummy_spades", 12))


def changed_polls(app: Flask, database: str, polls: int, markdown: str | None, load: float) -> None:
    """A scorer's poll one hand behind, answered in parts and as the whole page: CPU per poll."""
    cookie = "s" * 32
    db = store.connect(database)
    cases = []
    for game, held in CHANGED:
        sample = random_match(game, held + 1, seed=7, settings=long_settings(game, held + 1))
        match_id = store.create_match(db, dataclasses.replace(sample, hands=sample.hands[:-1]))
        with store.writing(db):
            grant_in(db, store.device_key(cookie), match_id, score=True, how="bench")
        store.add_hand(db, match_id, sample.hands[-1])  # another phone saves the next hand
        cases.append((game, held, match_id, store.get_version(db, match_id) - 1))
    db.close()
    client = app.test_client()
    client.set_cookie("scorekeeper_device", cookie)
    print(f"\n{'changed scorer poll, one hand behind':<52}{'ms CPU / poll':>14}{'bytes':>8}")
    rows = []
    for game, held, match_id, since in cases:
        for label, query in (("in parts", ""), ("whole page (before)", f"?since={since}")):
            url, headers = f"/matches/{match_id}/live{query}", {"If-None-Match": f'W/"v{since}"', "HX-Request": "true"}
            answer = client.get(url, headers=headers)
            assert answer.status_code == 200 and (("HX-Reswap" in answer.headers) == (not query)), answer.headers
            size = len(answer.get_data())
            best = float("inf")
            for _ in range(5):
                began = time.process_time()
                for _ in range(polls):
                    client.get(url, headers=headers).close()
                best = min(best, (time.process_time() - began) / polls)
            name = f"{game}, {held} hands played, {label}"
            print(f"{name:<52}{best * 1000:>14.3f}{size:>8,}")
            rows.append([game, f"{held}", label, f"{best * 1000:.2f} ms", f"{size:,}"])
    print(f"load average (1 min): {os.getloadavg()[0]:.1f}")
    if markdown:
        write_section(Path(markdown), "poll_changed", (
            f"### A scorer's changed poll's CPU (`bench/poll_cost.py`)\n\n{measured(load)}; the best of 5 runs of "
            f"{polls:,} polls of a scorer's page one hand behind (another phone saved a hand), through Flask's "
            "test client, no network, not compressed.\n\n"
            + table(["game", "hands played", "answer", "CPU / poll", "bytes"], rows)))


if __name__ == "__main__":
    main()
