"""Nothing acknowledged is lost: the real ``scorekeeper serve`` is killed with
SIGKILL in the middle of a burst of saves; every save the client saw answered
is there after a restart and ``PRAGMA integrity_check`` passes. And
``scorekeeper backup`` makes a consistent copy while the server writes, which
restores."""
from __future__ import annotations

import http.client
import os
import re
import resource
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from scorekeeper import store
from scorekeeper.engine import Match
from scorekeeper.samples import long_settings, random_match
from tests.servers import wait_listening

SCOREKEEPER = str(Path(sys.executable).with_name("scorekeeper"))
# hands that never end the match (the game's long_match settings); the bid tells them apart
HANDS = [{"trump": "wyrms", "mode": "high", "bid": str(b), "tricks_0": str(b), "tricks_1": str(11 - b),
          "tricks_2": "0"} for b in (1, 2, 3, 4, 5)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(database: Path, as_user: str | None = None, **settings: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(database), SCOREKEEPER_WRITES_PER_MINUTE="100000",
               SCOREKEEPER_SECRET_KEY="durability",  # no instance folder to write a key into
               **{f"SCOREKEEPER_{name}": value for name, value in settings.items()})
    user = ["setpriv", f"--reuid={as_user}", "--regid=65534", "--clear-groups"] if as_user else []
    server = subprocess.Popen([*user, SCOREKEEPER, "serve", "--host", "127.0.0.1", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_listening(server, port)
    return server, port


class Phone:
    """A scorer's phone over plain HTTP: the scorer link, then the forms."""

    def __init__(self, port: int, match_id: int, scorer_token: str):
        self.port, self.match_id, self.cookies = port, match_id, {}
        response, _ = self.request("GET", f"/s/{scorer_token}")
        assert response.status == 303
        _, page = self.request("GET", f"/matches/{match_id}")
        self.csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
        self.version = int(re.search(r'id="version" name="version" type="hidden" value="(\d+)"', page).group(1))

    def request(self, method: str, path: str, body: str | None = None,
                connection: http.client.HTTPConnection | None = None):
        """``method`` of ``path`` on ``connection`` (a new one if None), closed after."""
        connection = connection or http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read().decode()
        for cookie in response.msg.get_all("Set-Cookie") or []:  # the device's and the session's
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name] = value
        connection.close()
        return response, text

    def save(self, fields: dict, key: str, connection: http.client.HTTPConnection | None = None) -> bool:
        from urllib.parse import urlencode

        body = urlencode(dict(fields, csrf_token=self.csrf, version=self.version, request_key=key))
        response, _ = self.request("POST", f"/matches/{self.match_id}/hands", body, connection)
        if response.status == 303:
            self.version += 1
            return True
        raise AssertionError(f"save refused: {response.status}")


def make_matches(database: Path, count: int) -> list[tuple[int, str]]:
    db = store.connect(str(database))
    try:
        out = []
        for _ in range(count):
            match_id = store.create_match(db, Match(game="third_wheel", players=["Ann", "Bob", "Cy"],
                                                    settings=long_settings("third_wheel", 1000)))
            out.append((match_id, store.get_tokens(db, match_id)["scorer_token"]))
        return out
    finally:
        db.close()


def test_sigkill_mid_burst_loses_nothing_acknowledged(tmp_path):
    database = tmp_path / "kill.sqlite"
    matches = make_matches(database, 4)
    server, port = serve(database)
    acked: dict[int, list[int]] = {m: [] for m, _ in matches}  # bids of the saves answered 303, in order
    phones = [Phone(port, m, token) for m, token in matches]

    def burst(phone: Phone) -> None:
        n = 0
        while True:
            bid = n % len(HANDS)
            try:
                phone.save(HANDS[bid], f"kill-{phone.match_id}-{n:06d}")
            except (OSError, http.client.HTTPException):
                return  # the server is gone: this save was never acknowledged
            acked[phone.match_id].append(bid + 1)
            n += 1

    threads = [threading.Thread(target=burst, args=(p,)) for p in phones]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 20
    while sum(len(v) for v in acked.values()) < 60 and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(server.pid, signal.SIGKILL)  # mid-burst: requests are in flight
    server.wait(timeout=10)
    for t in threads:
        t.join(timeout=20)
    assert sum(len(v) for v in acked.values()) >= 60

    connection = sqlite3.connect(database)
    assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    connection.close()
    # restart the server on the same file: every acknowledged save is there, in order
    server, port = serve(database)
    try:
        db = store.connect(str(database))
        for match_id, bids in acked.items():
            hands = store.get_record(db, match_id).match.hands
            assert len(bids) <= len(hands) <= len(bids) + 1  # at most the one in flight got in too
            assert [h["bid"] for h in hands[:len(bids)]] == bids
            assert store.get_version(db, match_id) == len(hands) + 1
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        db.close()
        phone = Phone(port, matches[0][0], matches[0][1])
        assert phone.save(HANDS[0], "after-restart")
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_backup_while_the_server_writes_then_restore(tmp_path):
    database = tmp_path / "live.sqlite"
    (match_id, token), = make_matches(database, 1)
    server, port = serve(database)
    phone = Phone(port, match_id, token)
    stop = threading.Event()
    saved = []

    def keep_saving():
        n = 0
        while not stop.is_set():
            phone.save(HANDS[n % len(HANDS)], f"backup-{n}")
            saved.append(n)
            n += 1

    writer = threading.Thread(target=keep_saving)
    writer.start()
    try:
        while len(saved) < 10 and writer.is_alive():
            time.sleep(0.01)
        copy = tmp_path / "copy.sqlite"
        env = dict(os.environ, SCOREKEEPER_DATABASE=str(database), SCOREKEEPER_WRITES_PER_MINUTE="100000")
        done = subprocess.run([SCOREKEEPER, "backup", str(copy)], env=env, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, done.stderr
        assert f"Backed up {database} to {copy}" in done.stdout
    finally:
        stop.set()
        writer.join(timeout=20)
        server.terminate()
        server.wait(timeout=10)
    assert len(saved) > 10

    # the copy is one self-contained, consistent file
    assert not Path(f"{copy}-wal").exists()
    check = sqlite3.connect(copy)
    assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert check.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    hands = check.execute("select count(*) from hands where match_id = ?", [match_id]).fetchone()[0]
    version = check.execute("select version from matches where id = ?", [match_id]).fetchone()[0]
    check.close()
    assert 10 <= hands <= len(saved) and version == hands + 1  # a moment of the match, whole

    # restore as docs/hosting.md says: server stopped, copy the backup over the database file
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(copy, database)
    server, port = serve(database)
    try:
        phone = Phone(port, match_id, token)
        assert phone.version == hands + 1
        _, page = phone.request("GET", f"/matches/{match_id}")
        assert f"Hand {hands + 1}" in page and f"Undo hand {hands}" in page
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_backup_command_problems(tmp_path, command):
    missing = command("backup", str(tmp_path / "out.sqlite"), "--database", str(tmp_path / "nope.sqlite"))
    assert missing.returncode == 2 and "no such database" in missing.stderr
    assert not (tmp_path / "out.sqlite").exists()


def test_backup_onto_the_live_database_is_refused_and_changes_nothing(tmp_path, command):
    path = tmp_path / "live.sqlite"
    db = store.connect(str(path))
    store.create_match(db, Match(game="third_wheel", players=["Ann", "Bob", "Cy"]))
    for target in (path, tmp_path / "live.sqlite-wal", tmp_path / "." / "live.sqlite"):
        done = command("backup", str(target), "--database", str(path))
        assert done.returncode == 2 and "is the database being backed up" in done.stderr
        assert "Traceback" not in done.stderr
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert len(store.all_matches(db)) == 1
    db.close()
    assert not list(tmp_path.glob("*.partial"))


def test_a_failed_backup_leaves_no_partial_file(tmp_path, command):
    path = tmp_path / "live.sqlite"
    store.connect(str(path)).close()
    target = tmp_path / "no-such-folder" / "copy.sqlite"  # cannot be written
    done = command("backup", str(target), "--database", str(path))
    assert done.returncode == 1 and f"backup failed: {target.parent}: no such folder" in done.stderr
    assert not list(tmp_path.rglob("*.partial"))
    corrupt = tmp_path / "corrupt.sqlite"
    corrupt.write_bytes(b"not a database" * 100)
    done = command("backup", str(tmp_path / "copy.sqlite"), "--database", str(corrupt))
    assert done.returncode == 1 and "backup failed" in done.stderr
    # nothing of the copy is left: not the copy, its .partial, nor SQLite's .partial-journal
    assert not [p.name for p in tmp_path.rglob("*") if "copy" in p.name or "partial" in p.name]


def test_a_backup_that_runs_out_of_disk_leaves_nothing_behind(tmp_path):
    """The disk fills mid-copy (here: the command may write files of 200 KB at most): SQLite's
    own journal of the half-made copy (copy.sqlite.partial-journal) was left behind."""
    path = tmp_path / "live.sqlite"
    db = store.connect(str(path))
    for _ in range(30):
        store.create_match(db, random_match("third_wheel", 300, settings=long_settings("third_wheel", 1000)))
    db.close()
    assert path.stat().st_size > 1_000_000

    def small_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails, as on a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))

    done = subprocess.run([SCOREKEEPER, "backup", str(tmp_path / "copy.sqlite"), "--database", str(path)],
                          preexec_fn=small_disk, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "backup failed" in done.stderr
    assert not [p.name for p in tmp_path.iterdir() if "copy" in p.name], sorted(p.name for p in tmp_path.iterdir())


def test_wal_mode_and_full_sync(tmp_path):
    db = store.connect(str(tmp_path / "wal.sqlite"))
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    db.close()


def tmpfs(path: Path, size: str) -> bool:
    """A small filesystem of its own (needs root, as CI and the developers' machines run)."""
    path.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0777", "tmpfs", str(path)],
                          capture_output=True)
    return done.returncode == 0


def hand_count(database: Path, match_id: int) -> int:
    check = sqlite3.connect(database)
    try:
        return check.execute("select count(*) from hands where match_id = ?", [match_id]).fetchone()[0]
    finally:
        check.close()


def test_a_full_disk_says_so_keeps_nothing_half_saved_and_the_save_goes_through_later(tmp_path):
    disk = tmp_path / "disk"
    if not tmpfs(disk, "1m"):
        import pytest

        pytest.skip("mounting a small tmpfs needs root")
    try:
        database = disk / "full.sqlite"
        (match_id, token), = make_matches(database, 1)
        server, port = serve(database)
        try:
            phone = Phone(port, match_id, token)
            filler = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
            try:
                while True:
                    os.write(filler, b"\0" * 65536)
            except OSError:
                pass  # the disk is full
            finally:
                os.close(filler)
            from urllib.parse import urlencode

            body = urlencode(dict(HANDS[0], csrf_token=phone.csrf, version=phone.version, request_key="full-1"))
            for _ in range(3):  # a hand is small: the first may still fit in the last free pages
                response, page = phone.request("POST", f"/matches/{match_id}/hands", body)
                if response.status != 303:
                    break
                phone.version += 1
                body = urlencode(dict(HANDS[1], csrf_token=phone.csrf, version=phone.version,
                                      request_key=f"full-{phone.version}"))
            saved = hand_count(database, match_id)
            assert response.status == 503, (response.status, page[:300])
            assert response.getheader("Retry-After") == "60"
            assert "The server could not save: its disk is full." in page
            assert "Nothing you typed was lost" in page and "Something went wrong" not in page
            # the page still opens (reading needs no room), and nothing was half-saved
            assert phone.request("GET", f"/matches/{match_id}")[0].status == 200
            assert hand_count(database, match_id) == saved
            os.unlink(disk / "filler")  # room made: the same save, sent again, goes through once
            response, _ = phone.request("POST", f"/matches/{match_id}/hands", body)
            assert response.status == 303 and hand_count(database, match_id) == saved + 1
            assert phone.request("POST", f"/matches/{match_id}/hands", body)[0].status in (303, 409)
            assert hand_count(database, match_id) == saved + 1
        finally:
            server.terminate()
            server.wait(timeout=10)
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def test_a_read_only_database_says_so(tmp_path):
    """The database file became read-only for the server's user (restored from a backup
    as another user, say): pages still open, a save is refused with a plain message."""
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        import pytest

        pytest.skip("running the server as another user needs root and setpriv")
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-ro-"))  # outside tmp_path: root's 0700 folder
    try:
        folder.chmod(0o777)
        database = folder / "ro.sqlite"
        (match_id, token), = make_matches(database, 1)
        for path in folder.iterdir():
            os.chown(path, 65534, 65534)  # nobody's
        server, port = serve(database, as_user="nobody")
        phone = Phone(port, match_id, token)  # the scorer's phone, remembered while it could be
        server.terminate()
        server.wait(timeout=10)
        os.chmod(database, 0o444)
        server, phone.port = serve(database, as_user="nobody")
        try:
            assert phone.request("GET", f"/matches/{match_id}")[0].status == 200  # reading still works
            from urllib.parse import urlencode

            body = urlencode(dict(HANDS[0], csrf_token=phone.csrf, version=phone.version, request_key="ro-1"))
            response, page = phone.request("POST", f"/matches/{match_id}/hands", body)
            assert response.status == 503, (response.status, page[:300])
            assert "The server could not save: its database is read-only" in page
            assert "Nothing you typed was lost" in page
            assert hand_count(database, match_id) == 0
        finally:
            server.terminate()
            server.wait(timeout=10)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
