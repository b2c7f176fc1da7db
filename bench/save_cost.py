"""What one saved hand costs the server, early and late in a long match.

    .venv/bin/python bench/save_cost.py [--at 10 100 300] [--saves 20]

Builds one Third Wheel match (valid hands from scorekeeper.samples, settings
that never end it) in a temporary database, then at each point in the match
loads the match page once (as the phone showing it did) and saves the next
``--saves`` hands through the Flask test client exactly as htmx sends the
form: HX-Request header, the form's fields, the match version and a fresh
request key (CSRF off). Prints, per point, the server CPU per save
(``time.process_time()`` around each POST; the test client runs the app in
this process) and the bytes of the answer. Nothing is asserted.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper import store
from scorekeeper.engine import Match, replay
from scorekeeper.samples import endless_match
from scorekeeper.web import create_app, hand_forms

GAME = "third_wheel"


def form_data(match: Match, hand: dict) -> dict:
    """The hand as the record form's fields (what a scorer types)."""
    result = replay(match)
    form = hand_forms.make_form(match.game, result.next_context())
    data = hand_forms.hand_to_data(form.groups, hand)
    # a ticked box is sent as "y", an unticked one not at all
    return {k: "y" if v is True else str(v) for k, v in data.items() if v is not False and not isinstance(v, list)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--at", type=int, nargs="+", default=[10, 100, 300])
    parser.add_argument("--saves", type=int, default=20)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs (the test suite does this)")
    args = parser.parse_args()
    if args.smoke:
        args.at, args.saves = [3, 6], 2
    most = max(args.at) + args.saves
    sample = endless_match(GAME, most, seed=8)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "bench.sqlite"), "WTF_CSRF_ENABLED": False,
                          "SECRET_KEY": "bench"})
        client = app.test_client()
        for at in args.at:
            db = store.connect(app.config["DATABASE"])
            first = Match(game=GAME, players=sample.players, settings=sample.settings,
                          first_dealer=sample.first_dealer, hands=sample.hands[:at - 1])
            match_id = store.create_match(db, first)
            token = store.get_tokens(db, match_id)["scorer_token"]
            version = store.get_version(db, match_id)
            db.close()
            client.get(f"/s/{token}")
            client.get(f"/matches/{match_id}")  # the page the scorer saves from
            cpu, size = [], []
            for number in range(at, at + args.saves):
                before = Match(game=GAME, players=sample.players, settings=sample.settings,
                               first_dealer=sample.first_dealer, hands=sample.hands[:number - 1])
                with app.test_request_context():
                    data = form_data(before, sample.hands[number - 1])
                data.update(version=str(version), request_key=uuid.uuid4().hex)
                start = time.process_time()
                response = client.post(f"/matches/{match_id}/hands", data=data,
                                       headers={"HX-Request": "true", "HX-Target": "match-live",
                                                "HX-Current-URL": f"http://localhost/matches/{match_id}"})
                cpu.append(time.process_time() - start)
                body = response.get_data()
                if response.status_code != 200 or f"Hand {number} saved".encode() not in body:
                    sys.exit(f"hand {number} was not saved: {response.status_code} {body[:3000]!r}")
                size.append(len(body))
                version += 1
            rows.append((at, statistics.median(cpu) * 1000, statistics.mean(size)))
    print(f"{'hand':>6} {'CPU ms/save (median)':>22} {'bytes/answer':>14}")
    for at, ms, size in rows:
        print(f"{at:>6} {ms:>22.2f} {size:>14.0f}")
    first, last = rows[0], rows[-1]
    print(f"hand {last[0]} / hand {first[0]}: CPU x{last[1] / first[1]:.2f}, bytes x{last[2] / first[2]:.2f}")


if __name__ == "__main__":
    main()
