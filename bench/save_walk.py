"""The walk of a saved hand through the code: how often it moves from one module to another.

    .venv/bin/python bench/save_walk.py [--game third_wheel] [--at 10] [--preview] [--tree]

Builds a match of ``--at`` hands in a temporary database and saves the next hand through the
Flask test client exactly as htmx sends the form (as ``bench/save_cost.py`` does), with
``sys.setprofile`` on while the view (``hands.record`` and its decorators) runs. Every time the
innermost frame of the project's own code (``scorekeeper/``) is in another module than before,
the walk makes a stop there; a stop in a module the walk was in before and left is a return to
it. Library code (Flask, Jinja, WTForms, sqlite) is walked through, not counted: a template that
calls back into a module is a stop in that module. Prints the stops, the modules, the returns
and the modules entered most often. Counts, not times: the same on any machine.

Beside it, issue 27's measure, the walk of the code's call structure (``CallTree``): the tree of
the distinct functions the save calls, from the view down (each function once, at its first call;
Flask, Jinja and WTForms walked through, so a template's call into a module is a call of the view
that rendered it), walked depth first. Each call from one project module into another is a stop;
a stop in a module the walk was in before is a return. Inside ``web/`` a module is a file; the
engine, the games, the store and ``names`` are each one stop, not walked into (how the engine
folds a hand or the store writes it is their own walk). The same walk into every file is printed
after it. ``--preview`` walks the preview of that hand instead (``hands.preview``, the form sent
as it is typed), ``--tree`` prints the call structure as a tree of functions.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import uuid
from collections import Counter
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper import store  # noqa: E402
from scorekeeper.engine import Match, replay  # noqa: E402
from scorekeeper.samples import long_match  # noqa: E402
from scorekeeper.web import create_app  # noqa: E402
from scorekeeper.web.forms import hand_forms  # noqa: E402

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
        return returns(self.stops)


class CallTree:
    """The distinct functions of the project a run calls, each with the functions it calls
    (in the order first called), whatever library or template code lies between them."""

    def __init__(self) -> None:
        self.calls: dict[CodeType, list[CodeType]] = {}
        self.root: CodeType | None = None

    @staticmethod
    def own(code: CodeType) -> bool:
        return code.co_filename.startswith(PACKAGE) and code.co_filename.endswith(".py")

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or not self.own(frame.f_code):
            return
        caller = frame.f_back  # the nearest project frame out: library code is walked through
        while caller is not None and not self.own(caller.f_code):
            caller = caller.f_back
        code = frame.f_code
        self.calls.setdefault(code, [])
        if self.root is None:
            self.root = code
        elif caller is not None and caller.f_code in self.calls:
            called = self.calls[caller.f_code]
            if code not in called and code is not caller.f_code:
                called.append(code)

    def tree(self) -> list[str]:
        """The walk as an indented tree of functions, ``*`` marking a call into another module."""
        assert self.root is not None
        lines, seen = [self.root.co_qualname], set()

        def visit(code: CodeType, depth: int) -> None:
            seen.add(code)
            for called in self.calls[code]:
                if called not in seen:
                    mark = "*" if called.co_filename != code.co_filename else " "
                    where = called.co_filename[len(PACKAGE) + 1:-3].replace("/", ".")
                    lines.append(f"{'  ' * depth}{mark}{where}.{called.co_qualname}")
                    visit(called, depth + 1)

        visit(self.root, 1)
        return lines

    def walk(self, into_every_file: bool = False) -> list[str]:
        """The modules the walk stops in, in order (the first: the root's own)."""
        def module(code: CodeType) -> str:
            name = code.co_filename[len(PACKAGE) + 1:-3].replace("/", ".")
            return name if into_every_file or name.split(".")[0] == "web" else name.split(".")[0]

        assert self.root is not None
        stops, seen = [module(self.root)], set()

        def visit(code: CodeType) -> None:
            seen.add(code)
            for called in self.calls[code]:
                if called in seen:
                    continue  # each function walked once
                here, there = module(code), module(called)
                if there != here:
                    stops.append(there)
                    if not into_every_file and there.split(".")[0] != "web":
                        seen.add(called)  # the engine's, a game's, the store's own walk
                        continue
                visit(called)

        visit(self.root)
        return stops


def returns(stops: list[str]) -> int:
    """Stops in a module the walk had been in before (each module's first stop is not one)."""
    return len(stops) - len(set(stops))


def form_data(match: Match, hand: dict) -> dict:
    """The hand as the record form's fields (what a scorer types)."""
    result = replay(match)
    form = hand_forms.make_form(result.played, result.next_place())
    data = hand_forms.hand_to_data(form.groups, hand)
    return {k: "y" if v is True else str(v) for k, v in data.items() if v is not False and not isinstance(v, list)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="third_wheel")
    parser.add_argument("--at", type=int, default=10, help="the hand saved (the match holds the hands before it)")
    parser.add_argument("--preview", action="store_true", help="walk the hand's preview instead of its save")
    parser.add_argument("--tree", action="store_true", help="also print the call structure as a tree of functions")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs")
    args = parser.parse_args()
    if args.smoke:
        args.at = 3
    sample = long_match(args.game, args.at, seed=8)
    walk = Walk()
    tree = CallTree()

    def both(frame: FrameType, event: str, arg: Any) -> None:
        walk.profile(frame, event, arg)
        tree.profile(frame, event, arg)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "bench.sqlite"), "WTF_CSRF_ENABLED": False,
                          "SECRET_KEY": "bench"})
        endpoint = "hands.preview" if args.preview else "hands.record"
        view = app.view_functions[endpoint]

        def walked(*a: Any, **k: Any) -> Any:
            sys.setprofile(both)
            try:
                return view(*a, **k)
            finally:
                sys.setprofile(None)

        app.view_functions[endpoint] = walked
        client = app.test_client()
        db = store.connect(app.config["DATABASE"])
        before = Match(game=args.game, players=sample.players, settings=sample.settings,
                       first_dealer=sample.first_dealer, hands=sample.hands[:args.at - 1])
        match_id = store.create_match(db, before)
        token = store.get_tokens(db, match_id)["scorer_token"]
        version = store.get_version(db, match_id)
        db.close()
        client.get(f"/s/{token}")
        client.get(f"/matches/{match_id}")  # the page the scorer saves from
        with app.test_request_context():
            data = form_data(before, sample.hands[args.at - 1])
        data.update(version=str(version), request_key=uuid.uuid4().hex)
        response = client.post(f"/matches/{match_id}/hands" + ("/preview" if args.preview else ""), data=data,
                               headers={"HX-Request": "true", "HX-Target": "preview" if args.preview else "match-live",
                                        "HX-Current-URL": f"http://localhost/matches/{match_id}"})
        done = b"If saved:" if args.preview else f"Hand {args.at} saved".encode()
        if response.status_code != 200 or done not in response.get_data():
            sys.exit(f"hand {args.at} was not {'previewed' if args.preview else 'saved'}: {response.status_code}")
    entered = Counter(walk.stops)
    print(f"{args.game}, hand {args.at} {'previewed' if args.preview else 'saved'}: {len(walk.stops)} stops in {len(entered)} modules, "
          f"{walk.returns} returns to a module already left")
    handed = Counter(walk.handoffs)
    print(f"the view (web.views.hands) hands off {len(walk.handoffs)} times to {len(handed)} modules: "
          + ", ".join(f"{module} {count}" for module, count in handed.most_common()))
    print("entered most: " + ", ".join(f"{module} {count}" for module, count in entered.most_common(6)))
    structure, every_file = tree.walk(), tree.walk(into_every_file=True)
    print(f"the call structure (issue 27's measure): {len(structure)} stops in {len(set(structure))} modules, "
          f"{returns(structure)} returns; walked into every file: {len(every_file)} stops in "
          f"{len(set(every_file))} modules, {returns(every_file)} returns")
    print("the call structure's walk: " + " > ".join(structure))
    print("walk: " + " > ".join(walk.stops))
    if args.tree:
        print("\n".join(tree.tree()))


if __name__ == "__main__":
    main()
