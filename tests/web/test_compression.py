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
