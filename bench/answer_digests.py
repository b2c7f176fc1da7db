"""What every answer around a save looks like, as one digest per game: for checking that a change
of how the answer is built (issue 27's save walk) changes nothing a user sees.

    .venv/bin/python bench/answer_digests.py [--matches 3] [--hands 12] [--show]

On a temporary database, for each game, random matches (fixed seeds; the game's defaults, its
widest settings, a long match; names with right-to-left letters and a long word among plain
ones) are played hand by hand through the Flask test client as a phone sends them: each hand
previewed (every third also as if someone dealt it out of turn), then saved with htmx (the
changed parts) or without (the redirect and the match page it leads to), the same form sent
twice now and then; every few hands the match page, the
watchers' board (whole and as an update), the scorer's poll, the big screen, a hand's "why",
the undo page, the print sheet; at the end a correction and an undo. Every answer's HTML is
hashed with what changes from run to run left out (request keys, nonces, tokens, times).
Prints one digest per game and one for all: the same before and after a change means every
answer the harness saw is byte for byte the same. ``--show`` prints each answer's own digest
(to find which one differs between two runs: diff their outputs).
"""
from __future__ import annotations

import argparse
import hashlib
import random
import re
import sys
import tempfile
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from saving import form_data, scoring  # noqa: E402

from scorekeeper.engine import Match, replay  # noqa: E402
from scorekeeper.games import GAMES  # noqa: E402
from scorekeeper.samples import PLAYERS, lasting_settings, wide_long_settings  # noqa: E402
from scorekeeper.web import create_app  # noqa: E402
from scorekeeper.web.model import view  # noqa: E402

# plain names, right-to-left ones (isolated on the page), a word too long for a name's box
NAMES = ["Ann", "علي", "Bob", "Supercalifragilistic", "Dee", "דנה", "Eve", "Fay"]

# what differs from run to run, not from the code: request and undo keys, nonces, the
# match's links' tokens, times and dates
VOLATILE = [
    (re.compile(rb"[0-9a-f]{32}"), b"KEY"),
    (re.compile(rb'name="csrf_token"( type="hidden")? value="[^"]*"'), b'name="csrf_token" CSRF'),
    (re.compile(rb'nonce="[^"]*"'), b'nonce=""'),
    (re.compile(rb"/(s|w)/[A-Za-z0-9_\-]{8,}"), rb"/\1/TOKEN"),
    (re.compile(rb"(scorer|watcher|token)=[A-Za-z0-9_\-]{8,}"), rb"\1=TOKEN"),
    (re.compile(rb'class="qr">.*?</svg>', re.S), b'class="qr">QR</svg>'),  # the links' tokens drawn
    (re.compile(rb"\d\d:\d\d:\d\d"), b"TIME"),
    (re.compile(rb"\d{4}-\d\d-\d\d"), b"DATE"),
    (re.compile(rb"\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b"), b"DAY"),
]


def stable(body: bytes) -> bytes:
    for pattern, replacement in VOLATILE:
        body = pattern.sub(replacement, body)
    return body


class Digests:
    """Each answer hashed into its game's digest (and shown with ``--show``)."""

    def __init__(self, show: bool, keep: Path | None = None) -> None:
        self.show, self.keep = show, keep
        self.games: dict[str, hashlib._Hash] = {}

    def add(self, game: str, what: str, response) -> None:  # type: ignore[no-untyped-def]
        body = stable(response.get_data())
        head = f"{what} {response.status_code} {response.headers.get('HX-Reswap', '')} " \
               f"{stable((response.headers.get('Location') or '').encode()).decode()}\n".encode()
        self.games.setdefault(game, hashlib.sha256()).update(head + body)
        if self.keep is not None:  # each answer as hashed, to diff two runs' files
            (self.keep / f"{game} {what}.html".replace("/", "_")).write_bytes(head + body)
        if self.show:
            print(f"{game} {what} {response.status_code} {hashlib.sha256(head + body).hexdigest()[:16]}")


def matches_of(game: str, count: int, hands: int) -> list[Match]:
    """``count`` random matches of ``game``: under its defaults, its widest settings, a long one."""
    described = GAMES[game]
    made = []
    for seed in range(count):
        rng = random.Random(f"{game}-{seed}")
        seats = rng.randint(described.min_players, described.max_players) if seed else PLAYERS[game]
        names = rng.sample(NAMES, seats)
        # the third a long match: past the page's last HANDS_SHOWN hands where the game lasts that long
        length = hands if seed % 3 < 2 else max(hands, view.HANDS_SHOWN + 5)
        settings = [{}, wide_long_settings(game, hands, seats), lasting_settings(game, length, seats)][seed % 3]
        match = Match(game=game, players=names, settings=settings, first_dealer=rng.randrange(seats))
        result = replay(match)
        for _ in range(length):
            if result.next_dealer is None:
                break
            match.hands.append(described.rules.random_hand(result.next_place(), rng))
            result = replay(match, resume=result)
        made.append(match)
    return made


def play(app, game: str, match: Match, seed: int, digests: Digests) -> None:  # type: ignore[no-untyped-def]
    """``match``'s hands saved one by one (previewed first), its pages read around them."""
    client = app.test_client()
    empty = Match(game=match.game, players=match.players, settings=match.settings,
                  first_dealer=match.first_dealer, hands=[])
    match_id, version = scoring(app, client, empty)
    base = f"/matches/{match_id}"
    htmx = {"HX-Request": "true", "HX-Current-URL": f"http://localhost{base}"}

    def add(what: str, response) -> None:  # type: ignore[no-untyped-def]
        digests.add(game, f"m{seed} {what}", response)

    for index, hand in enumerate(match.hands):
        number = index + 1
        played = Match(game=match.game, players=match.players, settings=match.settings,
                       first_dealer=match.first_dealer, hands=match.hands[:index])
        with app.test_request_context():
            data = form_data(played, hand)
        data.update(version=str(version + index), request_key=uuid.uuid4().hex)
        add(f"preview {number}", client.post(f"{base}/hands/preview", data=data,
                                              headers={**htmx, "HX-Target": "preview"}))
        if number % 3 == 1:  # as if someone else dealt it (out of turn): the seat picture and referee follow
            add(f"preview dealt by {number}", client.post(
                f"{base}/hands/preview", data={**data, "dealer": str(number % len(match.players))},
                headers={**htmx, "HX-Target": "preview"}))
        if number % 3 == 2:  # without JavaScript: the redirect, then the page it leads to
            saved = client.post(f"{base}/hands", data=data)
            add(f"save {number}", saved)
            add(f"after save {number}", client.get(saved.headers["Location"]))
        else:
            add(f"save {number}", client.post(f"{base}/hands", data=data, headers={**htmx, "HX-Target": "match-live"}))
        if number % 5 == 3:  # the same form sent again (a double tap)
            add(f"again {number}", client.post(f"{base}/hands", data=data,
                                               headers={**htmx, "HX-Target": "match-live"}))
        now = version + number
        if (number % 4 == 1 and (number < 10 or number % 12 == 1)) or number == len(match.hands):
            add(f"page {number}", client.get(base))
            add(f"board {number}", client.get(f"{base}/board"))
            add(f"board update {number}", client.get(f"{base}/board", headers={"If-None-Match": f'W/"v{now - 1}"'}))
            add(f"live {number}", client.get(f"{base}/live", headers={**htmx, "If-None-Match": f'W/"v{now - 1}"'}))
            add(f"screen {number}", client.get(f"{base}/screen"))
            add(f"why {number}", client.get(f"{base}/hands/{number}/why"))
            add(f"undo page {number}", client.get(f"{base}/undo"))
            add(f"print {number}", client.get(f"{base}/print"))
    if len(match.hands) >= 2:  # hand 1 corrected to what hand 2 was, where that can be saved
        add("edit page", client.get(f"{base}/hands/1/edit"))
        first = Match(game=match.game, players=match.players, settings=match.settings,
                      first_dealer=match.first_dealer, hands=[])
        with app.test_request_context():
            data = form_data(first, match.hands[1])
        data.update(version=str(version + len(match.hands)), request_key=uuid.uuid4().hex)
        corrected = client.post(f"{base}/hands/1/edit", data=data)
        add("edit", corrected)
        if corrected.status_code == 303:
            add("after edit", client.get(corrected.headers["Location"]))
            add("page after edit", client.get(base))
    add("undo", client.post(f"{base}/undo", data={"version": "", "request_key": uuid.uuid4().hex}))
    add("after undo", client.get(base))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3, help="matches per game")
    parser.add_argument("--hands", type=int, default=12, help="hands per match (fewer where the game ends)")
    parser.add_argument("--show", action="store_true", help="print each answer's own digest")
    parser.add_argument("--keep", type=Path, help="a folder to write each answer into, as hashed")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, to check the bench still runs")
    args = parser.parse_args()
    if args.smoke:
        args.matches, args.hands = 1, 3
    digests = Digests(args.show, args.keep)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "digests.sqlite"), "WTF_CSRF_ENABLED": False,
                          "SECRET_KEY": "digests",
                          # many saves and pages a minute from one client: no limit in the way
                          "WRITES_PER_MINUTE": 10**9, "HEAVY_READS_PER_MINUTE": 10**9,
                          "MATCHES_PER_MINUTE": 10**9, "NEW_DEVICES_PER_MINUTE": 10**9})
        for game in sorted(GAMES):
            for seed, match in enumerate(matches_of(game, args.matches, args.hands)):
                play(app, game, match, seed, digests)
    everything = hashlib.sha256()
    for game, digest in sorted(digests.games.items()):
        everything.update(digest.digest())
        print(f"{game}: {digest.hexdigest()}")
    print(f"all: {everything.hexdigest()}")


if __name__ == "__main__":
    main()
