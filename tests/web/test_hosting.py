"""Behind a reverse proxy on the internet: a trusted-hosts setting (from the
environment, as docs/hosting.md says) refuses any other Host header, so share links
always carry the real host name."""
from __future__ import annotations

from scorekeeper.web import create_app


def test_trusted_hosts_from_the_environment_refuse_other_hosts(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_TRUSTED_HOSTS", '["scores.example.org"]')
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "db.sqlite", "SECRET_KEY": "t"})
    client = app.test_client()
    refused = client.get("/", headers={"Host": "attacker.example"})
    assert refused.status_code == 400
    assert "That request didn't make sense" in refused.get_data(as_text=True)
    assert refused.headers["X-Content-Type-Options"] == "nosniff"  # headers on every answer
    assert client.get("/", headers={"Host": "scores.example.org"}).status_code == 200


def test_without_the_setting_any_host_is_served(client):
    assert client.get("/", headers={"Host": "192.168.1.20:5000"}).status_code == 200


def test_behind_a_proxy_the_rate_limit_sees_each_real_address(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_PROXIES", "1")
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "db.sqlite", "SECRET_KEY": "t",
                      "WTF_CSRF_ENABLED": False, "MATCHES_PER_MINUTE": 1})
    client = app.test_client()
    form = {"game": "third_rail", "shown_game": "third_rail", "first_dealer": "0", "player_0": "Ann",
            "player_1": "Bob", "player_2": "Cy", "setting_target": "12", "setting_scoring_from": "3",
            "setting_bonus_tie": "each"}
    first = client.post("/matches/new", data=form, headers={"X-Forwarded-For": "203.0.113.5"})
    assert first.status_code == 303
    # another phone behind the same proxy is not counted as the first one
    other = client.post("/matches/new", data=form, headers={"X-Forwarded-For": "203.0.113.6"})
    assert other.status_code == 303
    again = client.post("/matches/new", data=form, headers={"X-Forwarded-For": "203.0.113.5"})
    assert again.status_code == 429
