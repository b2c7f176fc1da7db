"""Issue 28: static files by fingerprinted names, compressed once, cached for good; the first
load of a match page within 35 KB with brotli."""
from __future__ import annotations

import gzip
import re

import brotli

from scorekeeper.web.edges import assets

from .helpers import record, start
from .test_sharing import WHEEL

STATIC = re.compile(r'(?:href|src)="(/static/[^"]+)"')


def test_pages_name_static_files_by_their_content_and_phones_keep_them_for_good(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    urls = STATIC.findall(html)
    assert {re.sub(r"\.[0-9a-f]{12}\.", ".", url) for url in urls} >= {
        "/static/app.css", "/static/app.js", "/static/htmx.min.js", "/static/manifest.json", "/static/favicon.svg"}
    for url in urls:
        answer = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
        assert answer.status_code == 200, url
        assert answer.headers["Cache-Control"] == "max-age=315360000, public, immutable", url
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        body = answer.get_data()
        answer.close()
        plain = body if url.endswith(".png") else brotli.decompress(body)
        assert answer.headers.get("Content-Encoding") == (None if url.endswith(".png") else "br"), url
        # the name carries the digest of what is served
        assert assets.fingerprinted(re.sub(r"\.[0-9a-f]{12}\.", ".", url.rsplit("/", 1)[1]), plain) == \
            url.rsplit("/", 1)[1]
    css = next(url for url in urls if url.endswith(".css"))
    zipped = client.get(css, headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip" and b".total" in gzip.decompress(zipped.get_data())
    zipped.close()
    # the plain names are still served (an old page still open, the manifest's icons), revalidated
    plain = client.get("/static/app.css")
    assert plain.status_code == 200 and "immutable" not in plain.headers.get("Cache-Control", "")
    plain.close()


def test_the_first_load_of_a_match_page_is_within_35_kb_with_brotli(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    for _ in range(5):
        assert record(client, match_id, **WHEEL).status_code == 303
    page = client.get(f"/matches/{match_id}", headers={"Accept-Encoding": "br"})
    assert page.headers["Content-Encoding"] == "br"
    sizes = {"page": len(page.data)}
    for url in STATIC.findall(brotli.decompress(page.data).decode()):
        if url.endswith(".png"):
            continue  # the home-screen icon: fetched when the app is added to the home screen, not on load
        answer = client.get(url, headers={"Accept-Encoding": "br"})
        sizes[url] = len(answer.get_data())
        answer.close()
    assert sum(sizes.values()) <= 35 * 1024, sizes


def test_our_css_and_javascript_go_out_without_comments(app, client):
    html = client.get("/").get_data(as_text=True)
    for url in STATIC.findall(html):
        if url.endswith((".css", ".js")) and ".min." not in url:
            answer = client.get(url)
            text = answer.get_data(as_text=True)
            answer.close()
            assert "/*" not in text and "\n  " not in text, url


def test_the_static_copies_of_a_killed_server_are_removed_by_the_next(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    # a process that builds the copies and is killed before it can remove them
    child = subprocess.Popen([sys.executable, "-c", "import os, time\n"
                              "from pathlib import Path\nfrom scorekeeper.web.edges import assets\n"
                              "print(assets.build(Path(assets.__file__).parent.parent.parent / 'static')[0], flush=True)\n"
                              "time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    folder = Path(child.stdout.readline().strip())
    assert folder.is_dir() and any(folder.glob("app.*.css.br"))
    assets._remove_left_behind()
    assert folder.is_dir()  # still running: kept
    child.kill()
    child.wait()
    assets._remove_left_behind()
    assert not folder.exists()
