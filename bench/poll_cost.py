"""The server CPU of an unchanged poll: the app's WSGI callable called directly (no
network, no waitress), in front of the app (``web.polls``) and through Flask as before.

    .venv/bin/python bench/poll_cost.py [--polls 5000]

Prints the CPU time per poll (``time.process_time``, the best of 5 runs of ``--polls``).
waitress adds its own (reading the request, a thread hand-off, writing the answer): see
``bench/tables.py``'s server CPU per request for the whole.
"""
from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time

from werkzeug.test import EnvironBuilder

from scorekeeper import store
from scorekeeper.engine import Match
from scorekeeper.samples import long_settings
from scorekeeper.store.devices import grant_in
from scorekeeper.web import create_app
from scorekeeper.web.polls import UnchangedPolls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polls", type=int, default=5000)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs")
    args = parser.parse_args()
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

    print(f"{'unchanged poll':<28}{'ms CPU / poll':>14}")
    for label, wsgi in (("answered in front (now)", front), ("through Flask (before)", front.app)):
        for _ in range(min(200, polls)):
            list(wsgi(dict(environ), start_response))
        best = float("inf")
        for _ in range(5):
            began = time.process_time()
            for _ in range(polls):
                list(wsgi(dict(environ), start_response))
            best = min(best, (time.process_time() - began) / polls)
        assert statuses[-1].startswith("304"), statuses[-1]
        print(f"{label:<28}{best * 1000:>14.4f}")
    print(f"load average (1 min): {os.getloadavg()[0]:.1f}")
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
