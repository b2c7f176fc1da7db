"""Pages and static files go out compressed, and no spelling of a file's address
makes the server keep anything: 10,000 variants of /static/app.js leave its
memory where it was (a cache keyed by the path grew by 52 MiB)."""
from __future__ import annotations

import gzip
import re
from pathlib import Path

from scorekeeper.web import create_app


def rss_mib() -> float:
    status = Path("/proc/self/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024


def test_a_thousand_spellings_of_a_static_address_do_not_grow_memory(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "db.sqlite", "SECRET_KEY": "x"})
    client = app.test_client()
    plain = client.get("/static/app.js").data
    assert len(plain) > 10_000

    def fetch(i: int) -> None:
        response = client.get(f"/static/v{i}/../app.js", headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200 and response.headers["Content-Encoding"] == "gzip"
        if i % 250 == 0:  # the same file, really served
            assert gzip.decompress(response.data) == plain

    for i in range(200):  # warm up: whatever the first requests allocate once
        fetch(i)
    before = rss_mib()
    for i in range(200, 1_200):
        fetch(i)
    grown = rss_mib() - before
    # a copy kept per address (the compressed file is ~9.7 KB) would be ~9.5 MiB
    assert grown < 3, f"memory grew by {grown:.1f} MiB over 1,000 addresses"


def test_a_brotli_phone_gets_brotli_and_a_gzip_one_gzip(tmp_path):
    import brotli

    app = create_app({"TESTING": True, "DATABASE": tmp_path / "db.sqlite", "SECRET_KEY": "x",
                      "WTF_CSRF_ENABLED": False})  # a CSRF token is signed with the time: the page must not change between two requests
    client = app.test_client()
    for url in ("/matches/new", "/static/app.css"):
        plain = client.get(url).data
        response = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
        assert response.headers["Content-Encoding"] == "br" and brotli.decompress(response.data) == plain, url
        response = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert response.headers["Content-Encoding"] == "gzip" and gzip.decompress(response.data) == plain, url
        assert "Accept-Encoding" in response.headers["Vary"]


def _sizes_of_guesses(client, address: str, guesses: list[str]) -> dict[str, int]:
    """The size on the wire of ``address`` (a {} for the guess) for each guess, as a phone
    that takes gzip gets it (what someone watching the network sees)."""
    return {guess: len(client.get(address.format(guess), headers={"Accept-Encoding": "gzip, br"}).data)
            for guess in guesses}


def test_a_guessed_name_in_the_address_is_no_compression_oracle(client):
    """/matches/new?player_1=<guess> wrote the guess beside the phone's known players in
    one compressed page: a right guess came back smaller (the three real names gave the
    three smallest answers of 50). The page is now sent uncompressed when its address
    carries free text, so every guess of one length gives one size; so do the history's
    search (which writes the name searched for beside the history) and the stats pages."""
    from .helpers import start

    match_id = start(client, "third_wheel", ["Zelda", "Quentin", "Mortimer"])
    guesses = ["Zelda", "Quentin", "Mortimer", "Xavier", "Yolanda", "Wilbur", "Ulrich", "Vernon"]
    sizes = _sizes_of_guesses(client, "/matches/new?game=third_wheel&player_1={}", guesses)
    by_length: dict[int, set[int]] = {}
    for guess, size in sizes.items():
        by_length.setdefault(len(guess), set()).add(size)
    # same length, same size: nothing tells a name the phone knows from one it does not
    assert all(len(found) == 1 for found in by_length.values()), sizes
    # the siblings: pages that write their address's text beside this phone's names go out as they are
    for address in ("/?q=Zel", "/stats?player=Zelda", "/stats/versus?player=Zelda&other=Quentin",
                    "/stats/hands?player=Zelda&game=third_wheel&figure=played",
                    f"/print?match={match_id}&note=Zel", f"/matches/{match_id}/print?x=Zel",
                    f"/matches/{match_id}/live?key=Zelda-Zelda"):
        response = client.get(address, headers={"Accept-Encoding": "gzip, br"})
        assert response.status_code == 200 and "Content-Encoding" not in response.headers, address


def test_pages_without_free_text_in_the_address_stay_compressed(client):
    from .helpers import start

    match_id = start(client, "third_wheel", ["Zelda", "Quentin", "Mortimer"])
    for address in ("/", "/?page=1", f"/matches/{match_id}", "/matches/new?game=third_hand",
                    f"/matches/{match_id}/print?appendix=off&dialog=1", "/print?date=2026-11-20",
                    f"/matches/{match_id}/live?key=" + "0123456789abcdef" * 2):
        response = client.get(address, headers={"Accept-Encoding": "gzip"})
        assert response.headers.get("Content-Encoding") == "gzip", address
        assert b"Zelda" in gzip.decompress(response.data), address
