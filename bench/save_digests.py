"""Every answer a hand's save and preview give, hashed: to show a change of the code behind
them (the way in of a save: the form read, the check, the write) left them byte for byte.

    .venv/bin/python bench/save_digests.py [--seeds 2] [--show]

For each game and seed, a random match (``samples.random_match``) is stored with its first
two hands, and the others are entered through the Flask test client as a scorer's phone sends
them: before each save, a preview of the hand half typed and of the whole hand, a preview and
a save with a malformed number, a save with every box blank, a save based on the version
before (stale), a preview of the hand dealt out of turn (whole and half typed), then the save itself (with htmx, or without: then the page the redirect
opens), and the same form sent again (a double tap); one correction previewed and saved too.
Each answer's status and HTML are hashed after what changes from run to run is blanked (keys,
tokens, nonces, times). Prints one digest per game and one for all: run it before a change
and after, and compare. Not a timing.
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

from saving import first_hands, form_data, scoring  # noqa: E402

from scorekeeper import store  # noqa: E402
from scorekeeper.games import GAMES  # noqa: E402
from scorekeeper.samples import random_match  # noqa: E402
from scorekeeper.web import create_app  # noqa: E402

HTMX = {"HX-Request": "true", "HX-Target": "match-live"}
# what differs between two runs of the same requests: random keys, tokens and nonces, the clock
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,}")
_QR = re.compile(r'<svg[^>]*class="qr".*?</svg>', re.S)  # a drawing of a link's token
_CSRF = re.compile(r'(name="csrf_token"[^>]*value="|value="[^"]*"(?=[^>]*name="csrf_token"))[^"]*"')
_TIME = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?|\d\d:\d\d:\d\d")


def steady(body: str) -> str:
    """The answer with what changes from run to run blanked."""
    body = _CSRF.sub(r'\1<csrf>"', _TIME.sub("<time>", _QR.sub("<qr>", body)))
    return _TOKEN.sub(lambda m: "<key>" if _random(m.group()) else m.group(), body)


def _random(run: str) -> bool:
    """A key or token (digits, or both cases), not a word or a class name of the page."""
    return any(c.isdigit() for c in run) or (any(c.isupper() for c in run) and any(c.islower() for c in run))


class Digest:
    def __init__(self, show: bool) -> None:
        self.hash = hashlib.sha256()
        self.count = 0
        self.saves = 0  # hands the app saved (the answers cover real saves, not only refusals)
        self.show = show

    def add(self, label: str, response) -> None:  # type: ignore[no-untyped-def]
        body = steady(response.get_data(as_text=True))
        self.hash.update(f"{label} {response.status_code}\n{body}\n".encode())
        self.count += 1
        if self.show:
            print(f"  {label} {response.status_code} {hashlib.sha256(body.encode()).hexdigest()[:12]}")


def spoiled(data: dict, rng: random.Random) -> dict:
    """The form with one box holding what is not a number (or a number where a choice goes)."""
    out = dict(data)
    if out:
        name = rng.choice(sorted(out))
        out[name] = rng.choice(["abc", "-1", "99999", "1.5", ""])
    return out


def half(data: dict, rng: random.Random) -> dict:
    """The form as typed so far: some boxes still blank."""
    names = sorted(data)
    return {k: data[k] for k in names[:rng.randint(0, len(names))]}


def stored(app, match_id: int) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """The match's version and hand count as stored now (a post meant to be refused may have
    saved: what follows goes on from the store, not from a guess)."""
    db = store.connect(app.config["DATABASE"])
    try:
        record = store.get_record(db, match_id)
        return record.version, len(record.match.hands)
    finally:
        db.close()


def one_game(game: str, seed: int, digest: Digest) -> None:
    rng = random.Random(seed * 1009 + sum(map(ord, game)))
    sample = random_match(game, 10, seed=seed)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "digest.sqlite"), "WTF_CSRF_ENABLED": False,
                          "SECRET_KEY": "digest"})
        client = app.test_client()
        match_id, _ = scoring(app, client, first_hands(sample, 2))
        url = f"/matches/{match_id}"
        corrected = False
        for _step in range(len(sample.hands)):
            version, index = stored(app, match_id)
            if index >= len(sample.hands):
                break
            with app.test_request_context():
                data = form_data(first_hands(sample, index), sample.hands[index])
            label = f"{game}/{seed}/hand {index + 1}"
            base = {"version": str(version)}
            # the hand dealt out of turn: every label, order and role follows the dealer typed
            dealt = {**data, "dealer": str(rng.randrange(len(sample.players)))}
            for name, posted in (("half", half(data, rng)), ("whole", data), ("spoiled", spoiled(data, rng)),
                                 ("dealt", dealt), ("dealt half", half(dealt, rng))):
                digest.add(f"{label} preview {name}", client.post(f"{url}/hands/preview", data={**posted, **base},
                                                                  headers={**HTMX, "HX-Target": "preview"}))
            htmx = rng.random() < 0.6
            headers = HTMX if htmx else {}
            for name, posted in (("spoiled", spoiled(data, rng)), ("blank", {}), ("half", half(data, rng))):
                version, _ = stored(app, match_id)
                digest.add(f"{label} refused {name}", client.post(f"{url}/hands", headers=headers, data={
                    **posted, "version": str(version), "request_key": uuid.uuid4().hex}))
            version, now = stored(app, match_id)
            if now != index:
                continue  # a form meant to be refused was whole enough to save
            if version > 1:
                digest.add(f"{label} stale", client.post(f"{url}/hands", headers=headers, data={
                    **data, "version": str(version - 1), "request_key": uuid.uuid4().hex}))
            key = uuid.uuid4().hex
            saved = client.post(f"{url}/hands", data={**data, "version": str(version), "request_key": key},
                                headers=headers)
            digest.add(f"{label} saved htmx={htmx}", saved)
            if saved.status_code in (200, 303) and stored(app, match_id)[1] == index + 1:
                digest.saves += 1
            if not htmx:
                digest.add(f"{label} page after", client.get(url))
            again = client.post(f"{url}/hands", data={**data, "version": str(version), "request_key": key},
                                headers=headers)
            digest.add(f"{label} again", again)
            if index == 3:  # the dealer's choice sent alone (the form drawn again for them, saving nothing)
                digest.add(f"{label} form", client.post(f"{url}/hands/form", headers={**HTMX, "HX-Target": "record"},
                                                        data={"dealer": dealt["dealer"], "version": str(version)}))
            if index >= 4 and not corrected:  # one correction: hand 2 as it was, previewed and saved
                corrected = True
                version, _ = stored(app, match_id)
                with app.test_request_context():
                    old = form_data(first_hands(sample, 1), sample.hands[1])
                digest.add(f"{label} edit preview", client.post(f"{url}/hands/2/preview", data={
                    **old, "version": str(version)}, headers={**HTMX, "HX-Target": "preview"}))
                digest.add(f"{label} edit", client.post(f"{url}/hands/2/edit", data={
                    **old, "version": str(version), "request_key": uuid.uuid4().hex}, headers=headers))
        digest.add(f"{game}/{seed} page", client.get(url))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--show", action="store_true", help="print each answer's own digest")
    parser.add_argument("--smoke", action="store_true", help="one seed, to check the bench still runs")
    args = parser.parse_args()
    seeds = 1 if args.smoke else args.seeds
    total = hashlib.sha256()
    for game in GAMES:
        digest = Digest(args.show)
        for seed in range(1, seeds + 1):
            one_game(game, seed, digest)
        print(f"{game}: {digest.count} answers, {digest.saves} hands saved, {digest.hash.hexdigest()[:16]}")
        total.update(digest.hash.digest())
    print(f"all: {total.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
