"""deploy/nginx.conf, docs/hosting.md's sample for hosting on the internet, run for real:
nginx (Debian's, installed by the README's test command) in front of the real
``scorekeeper serve``, over HTTPS with a self-signed certificate."""
from __future__ import annotations

import asyncio
import http.client
import os
import re
import shutil
import ssl
import subprocess
import threading
from pathlib import Path
from urllib.parse import urlencode

import pytest
from test_durability import free_port, serve
from web.helpers import start_form

from tests.servers import until, wait_listening

ROOT = Path(__file__).resolve().parents[1]
HOST = "scores.example.org"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> Path:
    """A self-signed certificate for HOST (cert.pem, key.pem in the folder), made once: every
    test's nginx serves the same one. An elliptic-curve key: each TLS handshake (a thousand in
    one test) costs a fraction of an RSA key's, and a certificate authority issues either."""
    folder = tmp_path_factory.mktemp("certificate")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-days", "2", "-subj", f"/CN={HOST}", "-keyout", str(folder / "key.pem"),
                    "-out", str(folder / "cert.pem")], check=True, capture_output=True)
    return folder


def configure(tmp: Path, app_port: int, http_port: int, https_port: int, certificate: Path) -> Path:
    """The sample with its CHANGE values filled in, inside a minimal nginx.conf."""
    shutil.copy(certificate / "cert.pem", tmp / "cert.pem")
    shutil.copy(certificate / "key.pem", tmp / "key.pem")
    sample = (ROOT / "deploy" / "nginx.conf").read_text()
    site = (sample.replace("127.0.0.1:5000", f"127.0.0.1:{app_port}")
            .replace("listen 80;", f"listen 127.0.0.1:{http_port};")
            .replace("listen 443 ssl", f"listen 127.0.0.1:{https_port} ssl")
            .replace(f"/etc/letsencrypt/live/{HOST}/fullchain.pem", str(tmp / "cert.pem"))
            .replace(f"/etc/letsencrypt/live/{HOST}/privkey.pem", str(tmp / "key.pem")))
    assert site.count(str(tmp)) == 2 and f":{app_port}" in site, "the sample's CHANGE lines moved"
    (tmp / "site.conf").write_text(site)
    temp = {name: tmp / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir()
    user = "user root;" if os.geteuid() == 0 else ""
    (tmp / "nginx.conf").write_text(f"""
{user}
daemon off; worker_processes 1; worker_rlimit_nofile 10000; pid {tmp}/nginx.pid; error_log {tmp}/error.log;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {temp['body']}; proxy_temp_path {temp['proxy']}; fastcgi_temp_path {temp['fastcgi']};
    uwsgi_temp_path {temp['uwsgi']}; scgi_temp_path {temp['scgi']};
    include {tmp}/site.conf;
}}
""")
    return tmp / "nginx.conf"


@pytest.fixture
def hosted(tmp_path, monkeypatch, certificate):
    """The app behind nginx, configured as docs/hosting.md says; yields a function making HTTPS requests."""
    assert Path(NGINX).exists(), "nginx is missing: the README's test command installs it (apt-get install nginx)"
    monkeypatch.setenv("SCOREKEEPER_PROXIES", "1")
    monkeypatch.setenv("SCOREKEEPER_TRUSTED_HOSTS", f'["{HOST}"]')
    monkeypatch.setenv("SCOREKEEPER_MATCHES_PER_MINUTE", "2")
    server, app_port = serve(tmp_path / "db.sqlite")
    http_port, https_port = free_port(), free_port()
    nginx = subprocess.Popen([NGINX, "-c", str(configure(tmp_path, app_port, http_port, https_port, certificate)),
                              "-p", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    context = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
    context.check_hostname = False  # we connect to 127.0.0.1 and name the host in the headers

    def request(method, path, headers=None, body=None, port=https_port):
        connection = (http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=10) if port == https_port
                      else http.client.HTTPConnection("127.0.0.1", port, timeout=10))
        connection.request(method, path, body=body, headers={"Host": HOST, **(headers or {})})
        response = connection.getresponse()
        text = response.read().decode()
        connection.close()
        return response, text

    wait_listening(nginx, https_port, lambda _: request("GET", "/static/app.css")[0].status == 200, "nginx")
    request.http_port = http_port  # type: ignore[attr-defined]
    request.https_port, request.context = https_port, context  # type: ignore[attr-defined]
    try:
        yield request
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)
        server.terminate()
        server.wait(timeout=10)


class Browser:
    """Cookies and same-origin Referer, as a phone's browser sends them (Referrer-Policy: same-origin)."""

    def __init__(self, request):
        self.request, self.cookies = request, {}

    def go(self, method, path, form=None, forwarded_for=None):
        headers = {"Referer": f"https://{HOST}/"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if forwarded_for:
            headers["X-Forwarded-For"] = forwarded_for
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        response, text = self.request(method, path, headers, body)
        for cookie in response.msg.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name] = value
        return response, text

    def start(self, names, forwarded_for=None):
        _, page = self.go("GET", "/matches/new?game=third_wheel")
        csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
        form = dict(start_form("third_wheel", names), csrf_token=csrf)
        return self.go("POST", "/matches/new", form, forwarded_for)


def test_a_phone_starts_and_shares_a_match_through_nginx(hosted):
    phone = Browser(hosted)
    response, _ = phone.start(["Ann", "Bob", "Cy"])
    assert response.status == 303, response.status
    location = response.getheader("Location")
    response, page = phone.go("GET", location if location.startswith("/") else "/" + location.split("/", 3)[3])
    assert response.status == 200 and "Ann" in page
    # share links carry the real host name and https, from the proxy's headers
    links = re.findall(r'class="share-url" id="\w+-url" type="text" readonly value="([^"]+)"', page)
    assert [re.sub(r"/[\w-]+$", "/…", link) for link in links] == [f"https://{HOST}/w/…", f"https://{HOST}/s/…"]
    assert response.getheader("Content-Security-Policy", "").startswith("default-src 'self'")
    device = [c for c in phone.go("GET", "/")[0].msg.get_all("Set-Cookie") or [] if c.startswith("scorekeeper_device=")]
    assert device and "Secure" in device[0] and "HttpOnly" in device[0]


def test_https_answers_carry_hsts_and_every_cookie_is_secure(hosted):
    """A phone that came once over https never goes over plain http to this host again
    (Strict-Transport-Security, on the app's answers and nginx's own), and no cookie, the
    session's (the CSRF token, the scorer grants) as well as the device's, is ever sent
    over plain http: the session cookie lacked Secure."""
    phone = Browser(hosted)
    seen: list[str] = []
    for method, path in (("GET", "/matches/new?game=third_wheel"), ("GET", "/"), ("GET", "/no-such-page")):
        response, _ = phone.go(method, path)
        assert response.getheader("Strict-Transport-Security", "").startswith("max-age=31536000"), (path, response.status)
        seen += response.msg.get_all("Set-Cookie") or []
    response, _ = phone.start(["Ann", "Bob", "Cy"])
    seen += response.msg.get_all("Set-Cookie") or []
    assert {cookie.split("=", 1)[0] for cookie in seen} >= {"session", "scorekeeper_device"}
    assert all("; Secure" in cookie and "; HttpOnly" in cookie for cookie in seen), seen


def test_the_rate_limit_sees_the_real_address_not_a_forged_header(hosted):
    phone = Browser(hosted)
    statuses = [phone.start([f"A{i}", "B", "C"], forwarded_for=f"10.0.0.{i}")[0].status for i in range(3)]
    assert statuses == [303, 303, 429]  # two per minute (as set), whatever address the phone claims


def test_another_host_name_is_refused_and_http_goes_to_https(hosted):
    response, _ = hosted("GET", "/", {"Host": "evil.example"})
    assert response.status == 400
    response, _ = hosted("GET", "/matches/new", port=hosted.http_port)
    assert response.status == 301 and response.getheader("Location") == f"https://{HOST}/matches/new"


async def hold_connections(port: int, context: ssl.SSLContext, count: int, stop: threading.Event,
                           opened: list[int]) -> None:
    """``count`` connections from 127.0.0.1 (``opened``: how many, and 429s answered): half send a request's header a line every 2 s
    and never finish it (slowloris), half send whole requests for a page as fast as
    answers come (a flood). Each one dropped is opened again."""

    async def one(slow: bool) -> None:
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=context,
                                                               local_addr=("127.0.0.1", 0))
            except OSError:
                await asyncio.sleep(0.2)
                continue
            opened[0] += 1
            try:
                if slow:
                    writer.write(f"GET / HTTP/1.1\r\nHost: {HOST}\r\n".encode())
                    while not stop.is_set():
                        writer.write(b"X-Slow: 1\r\n")
                        await writer.drain()
                        await asyncio.sleep(2)
                else:
                    while not stop.is_set():
                        writer.write(f"GET /matches/new HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
                        await writer.drain()
                        answer = await asyncio.wait_for(reader.read(65536), 15)
                        if not answer:
                            break  # closed by the server
                        opened[1] += answer.count(b"HTTP/1.1 429 ")
            except (TimeoutError, OSError, ssl.SSLError):
                pass
            finally:
                writer.close()

    tasks = [asyncio.create_task(one(slow=i % 2 == 0)) for i in range(count)]
    while not stop.is_set():
        await asyncio.sleep(0.1)
    await asyncio.wait(tasks, timeout=5)


def test_one_address_holding_a_thousand_connections_does_not_lock_out_another(hosted):
    """Against waitress alone, 1,000 such connections made 10 of 11 ordinary requests time out.
    Behind nginx, the other phone is answered while they are held, and nginx answers the
    flood itself (429) past its share instead of queueing it at waitress. The timeouts only
    guard against a hang: how fast the answers come is not what is checked."""
    stop, opened = threading.Event(), [0, 0]  # connections opened, flood requests refused
    attack = threading.Thread(target=asyncio.run, args=(hold_connections(hosted.https_port, hosted.context, 1000,
                                                                         stop, opened),))
    attack.start()
    try:
        # as long as connections keep opening (1,000 TLS handshakes take a while on a busy machine)
        until(lambda: opened[0] >= 1000, lambda: opened[0], "the 1,000 connections")
        # nginx refuses the flood past its share (without limit_req/limit_conn it would all reach
        # waitress, and these would never come)
        until(lambda: opened[1] > 100, lambda: opened[1], "the flood's refusals")
        refused_before = opened[1]
        for _ in range(11):  # another phone, from another address
            connection = http.client.HTTPSConnection("127.0.0.1", hosted.https_port, context=hosted.context,
                                                     timeout=120, source_address=("127.0.0.2", 0))
            try:
                connection.request("GET", "/", headers={"Host": HOST})
                response = connection.getresponse()
                assert response.status == 200 and b"Start a match" in response.read()  # its own share: never a 429
            finally:
                connection.close()
        # the attack went on the whole time: its connections held and its flood still refused
        assert attack.is_alive()
        until(lambda: opened[1] > refused_before, lambda: opened[1], "the flood's refusals after the phone's")
    finally:
        stop.set()
        attack.join(timeout=30)
