"""The walk of a saved hand through the code: how often it moves from one module to another.

    .venv/bin/python bench/save_walk.py [--game third_wheel] [--at 10]

Builds a match of ``--at`` hands in a temporary database and saves the next hand through the
Flask test client exactly as htmx sends the form (as ``bench/save_cost.py`` does), with
``sys.setprofile`` on while the view (``hands.record`` and its decorators) runs. Every time the
innermost frame of the project's own code (``scorekeeper/``) is in another module than before,
the walk makes a stop there; a stop in a module the walk was in before and left is a return to
it. Library code (Flask, Jinja, WTForms, sqlite) is walked through, not counted: a template that
calls back into a module is a stop in that module. Prints the stops, the modules, the returns
and the modules entered most often. Counts, not times: the same on any machine.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import uuid
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from saving import first_hands, form_data, save, scoring  # noqa: E402

from scorekeeper.samples import long_match  # noqa: E402
from scorekeeper.web import create_app  # noqa: E402

PACKAGE = str(ROOT / "scorekeeper")


def own_module(frame: FrameType | None) -> str | None:
    """The project module of the innermost project frame from ``frame`` outwards, or None."""
    while frame is not None:
        path = frame.f_code.co_filename
        if path.startswith(PACKAGE) and path.endswith(".py"):
            return path[len(PACKAGE) + 1:-3].replace("/", ".")
        frame = frame.f_back
    return None


class Walk:
    """The modules the walk stops in, in order; and the view's own hand-offs: each call from
    the view's module (``web.views.hands``) straight into another project module, in order."""

    def __init__(self, view_module: str = "web.views.hands") -> None:
        self.stops: list[str] = []
        self.view_module = view_module
        self.handoffs: list[str] = []

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            here = own_module(frame)
            caller = frame.f_back
            if (here not in (None, self.view_module) and caller is not None
                    and caller.f_code.co_filename.startswith(PACKAGE) and caller.f_code.co_filename.endswith(".py")
                    and own_module(caller) == self.view_module):
                self.handoffs.append(here)
        elif event == "return":
            here = own_module(frame.f_back)
        else:
            return
        if here is not None and (not self.stops or self.stops[-1] != here):
            self.stops.append(here)

    @property
    def returns(self) -> int:
        """Stops in a module the walk had already been in and left."""
        seen: set[str] = set()
        count = 0
        for module in self.stops:
            count += module in seen
            seen.add(module)
        return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="third_wheel")
    parser.add_argument("--at", type=int, default=10, help="the hand saved (the match holds the hands before it)")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs")
    args = parser.parse_args()
    if args.smoke:
        args.at = 3
    sample = long_match(args.game, args.at, seed=8)
    walk = Walk()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "bench.sqlite"), "WTF_CSRF_ENABLED": False,
                          "SECRET_KEY": "bench"})
        view = app.view_functions["hands.record"]

        def walked(*a: Any, **k: Any) -> Any:
            sys.setprofile(walk.profile)
            try:
                return view(*a, **k)
            finally:
                sys.setprofile(None)

        app.view_functions["hands.record"] = walked
        client = app.test_client()
        before = first_hands(sample, args.at - 1)
        match_id, version = scoring(app, client, before)
        with app.test_request_context():
            data = form_data(before, sample.hands[args.at - 1])
        data.update(version=str(version), request_key=uuid.uuid4().hex)
        response = save(client, match_id, data)
        if response.status_code != 200 or f"Hand {args.at} saved".encode() not in response.get_data():
            sys.exit(f"hand {args.at} was not saved: {response.status_code}")
    entered = Counter(walk.stops)
    print(f"{args.game}, hand {args.at} saved: {len(walk.stops)} stops in {len(entered)} modules, "
          f"{walk.returns} returns to a module already left")
    handed = Counter(walk.handoffs)
    print(f"the view (web.views.hands) hands off {len(walk.handoffs)} times to {len(handed)} modules: "
          + ", ".join(f"{module} {count}" for module, count in handed.most_common()))
    print("entered most: " + ", ".join(f"{module} {count}" for module, count in entered.most_common(6)))
    print("walk: " + " > ".join(walk.stops))


if __name__ == "__main__":
    main()
