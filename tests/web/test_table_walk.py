"""The table walk's finding about the phones at a real table (tests/browser/test_table_walk.py
has the ones about layout): a phone on the table's Wi-Fi opens the app at a plain-http network
address, where Chromium ignores Cross-Origin-Opener-Policy and logs an error on every page."""
from __future__ import annotations

import pytest

OPENER = "Cross-Origin-Opener-Policy"


@pytest.mark.parametrize("base", ["http://192.168.1.20:5000", "http://table.lan", "http://[fe80::1]:5000"])
def test_a_page_on_the_tables_wifi_does_not_carry_an_ignored_opener_policy(client, base):
    answer = client.get("/", base_url=base)
    assert answer.status_code == 200
    assert OPENER not in answer.headers
    assert answer.headers["Content-Security-Policy"].startswith("default-src 'self'")  # the others stay


@pytest.mark.parametrize(("base", "forwarded"), [
    ("https://scores.example", None), ("http://127.0.0.1:5000", None), ("http://localhost:5000", None),
    ("http://[::1]:5000", None), ("http://scores.example", "https")])
def test_a_trustworthy_origin_keeps_the_opener_policy(client, base, forwarded):
    headers = {"X-Forwarded-Proto": forwarded} if forwarded else {}
    answer = client.get("/", base_url=base, headers=headers)
    assert answer.status_code == 200
    assert answer.headers[OPENER] == "same-origin"


def test_an_unchanged_poll_on_the_tables_wifi_does_not_carry_it_either(app, client):
    """The 304 of an unchanged poll is answered before the app (``web.edges.polls``), with the
    headers every answer carries: the opener policy is not one of them."""
    from scorekeeper.web.edges.access import DEVICE_COOKIE

    from .helpers import start, version

    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    tag = {"If-None-Match": f'W/"v{version(client, match_id)}"', "HX-Request": "true"}
    device = client.get_cookie(DEVICE_COOKIE)  # the same phone, at the Wi-Fi address
    client.set_cookie(DEVICE_COOKIE, device.value, domain="192.168.1.20")
    answer = client.get(f"/matches/{match_id}/live", headers=tag, base_url="http://192.168.1.20:5000")
    assert answer.status_code == 304
    assert OPENER not in answer.headers
    assert answer.headers["Content-Security-Policy"].startswith("default-src 'self'")
