"""The app a phone keeps to score with no network (scorekeeper/offline.py, phone.py).
What the phone's browser does with it is in tests/browser/test_offline.py; here: the
vendored runtime is the pinned release, the build holds what the phone needs and nothing
compiled for this machine, and the phone's app (run by CPython here, by Pyodide on the
phone) works without the server-only packages and keeps a match across restarts."""
from __future__ import annotations

import hashlib
import re
import subprocess
import sys
import textwrap
import zipfile

from scorekeeper import offline

# sha256 of the files of the npm package pyodide@314.0.7 (`npm pack pyodide@314.0.7`), as vendored
PYODIDE_314_0_7 = {
    "pyodide.mjs": "6f1d60f7bf529beb300f0f47983c921d3982363640ba20af0e38efdddbc66109",
    "pyodide.asm.mjs": "f7cdc8ece80678ceb712f8e65ebe6d3a83203a180c399865f49612a051693635",
    "pyodide.asm.wasm": "cc36e3cab04fdfc9a63ff13eb52eae2b911bf46c025cc7b281f394bd3de1d5e6",
    "python_stdlib.zip": "fa1957e5777068fc4f7437f96d860ae2fbe9c19732ba06c84e004ec16dd7dd7a",
    "pyodide-lock.json": "5dc2fc119108bc148c7457dc86e7675b5c87e1cafd420b9c34c1eaef7b36c010",
}


def test_the_vendored_runtime_is_pyodide_314_0_7_with_its_licence():
    for name, digest in PYODIDE_314_0_7.items():
        assert hashlib.sha256((offline.RUNTIME / name).read_bytes()).hexdigest() == digest, name
    assert "Mozilla Public License Version 2.0" in (offline.RUNTIME / "LICENSE").read_text()
    assert "pyodide@314.0.7" in (offline.RUNTIME / "SOURCE").read_text()


def test_the_build_holds_the_runtime_the_app_and_a_worker_naming_its_files(tmp_path):
    sizes = offline.build(tmp_path / "site")
    site = tmp_path / "site"
    for name in PYODIDE_314_0_7:
        assert sizes[f"_phone/{name}"] == (offline.RUNTIME / name).stat().st_size
    assert {"index.html", "sw.js", "_phone/boot.js", "_phone/app.zip", "_phone/LICENSE"} <= set(sizes)
    # the first page's look is the app's own (tests/browser/test_offline.py looks at it)
    assert (site / "_phone" / "app.css").read_bytes() == (offline.PACKAGE / "static" / "app.css").read_bytes()
    with zipfile.ZipFile(site / "_phone" / "app.zip") as archive:
        names = archive.namelist()
    tops = {name.split("/")[0] for name in names}
    assert {"scorekeeper", "flask", "werkzeug", "jinja2", "markupsafe", "wtforms", "flask_wtf", "htmx_flask",
            "sqlite_utils", "segno"} <= tops
    assert not tops & {"waitress", "flask_compress", "limits"}  # the server's own, not the phone's
    assert "scorekeeper/templates/match.html" in names and "scorekeeper/static/app.css" in names
    assert not [name for name in names if name.endswith((".so", ".pyc")) or "/pyodide/" in name]
    # nor what the phone never imports: WTForms' translations, sqlite-utils' command line
    assert not [name for name in names if name.startswith(("wtforms/locale/", "sqlite_utils/cli.py"))]
    worker = (site / "sw.js").read_text()
    assert "__VERSION__" not in worker and "__FILES__" not in worker
    assert '"_phone/app.zip"' in worker and '"_phone/pyodide.asm.wasm"' in worker
    version = re.search(r'const VERSION = "([0-9a-f]{16})"', worker)
    assert version
    # the same files give the same build (the phone keeps its copy); a changed app, a new version
    again = offline.build(tmp_path / "again")
    assert again == sizes
    assert (tmp_path / "again" / "sw.js").read_text() == worker


def test_build_offline_says_where_it_cannot_write(tmp_path, command):
    (tmp_path / "file").write_text("not a folder")
    done = command("build-offline", str(tmp_path / "file" / "site"))
    assert done.returncode == 2
    assert str(tmp_path / "file" / "site") in done.stderr and "cannot write" in done.stderr


PHONE_SESSION = textwrap.dedent("""
    import re, sys
    sys.modules.update({"limits": None, "flask_compress": None, "waitress": None})  # not shipped to the phone
    from scorekeeper.phone import Phone

    folder, step = sys.argv[1], sys.argv[2]
    phone = Phone(folder)
    def get(path):
        status, headers, body = phone.handle("GET", path, "http://localhost/app/", [], b"")
        assert status == 200, (path, status)
        return body.decode()
    if step == "start":
        page = get("/matches/new?game=score_pad")
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
        form = "game=score_pad&shown_game=score_pad&setting_hand_count=0&player_0=Ann&player_1=Bob&first_dealer=0&setting_target=50&csrf_token=" + token
        status, headers, body = phone.handle("POST", "/matches/new", "http://localhost/app/",
                                             [("Content-Type", "application/x-www-form-urlencoded")], form.encode())
        location = dict(headers)["Location"]
        assert status in (302, 303) and re.fullmatch(r"/app/matches/\\d+", location), (status, location)
        print(location)
    else:
        print(" ".join(get(step).split()))
""")


def test_the_phone_app_keeps_its_match_across_restarts_without_the_server_only_packages(tmp_path):
    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, "-c", PHONE_SESSION, str(tmp_path / "phone"), *args],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout.strip()

    location = run("start")
    # a new process, as the phone's next start: the same database, session key and device cookie
    page = run(location.removeprefix("/app"))
    assert "Score pad" in page and "Ann" in page and "Bob" in page
    assert 'href="/app/matches/new"' in page  # the app's links stay under where the phone mounts it


COMPILED_CHECK = r"""
import sys, zipfile
from pathlib import Path
from scorekeeper.phone import compiled_copy
work = Path(sys.argv[1])
with zipfile.ZipFile(work / "code.zip", "w") as archive:
    archive.writestr("tally/__init__.py", "")
    archive.writestr("tally/add.py", "def add(a, b):\n    return a + b\n")
    archive.writestr("tally/unused.py", "X = 1\n")
sys.path.insert(0, str(work / "code.zip"))
import tally.add
kept = compiled_copy(str(work / "code.zip"), str(work / "stdlib.zip"), str(work / "code.zip") + "/", beside=True)
print(kept, sorted(zipfile.ZipFile(work / "stdlib.zip").namelist()))
"""

LOADED_CHECK = r"""
import sys, zipfile
from pathlib import Path
work = Path(sys.argv[1])
# what the next start does: the source of add.py is broken on purpose; the compiled copy
# is read without looking at it, so the import still gives the first start's code
with zipfile.ZipFile(work / "stdlib.zip") as compiled, zipfile.ZipFile(work / "next.zip", "w") as copy:
    for info in compiled.infolist():
        data = compiled.read(info)
        copy.writestr(info, b"raise SystemExit('the source was compiled again')\n" if info.filename == "tally/add.py" else data)
sys.path.insert(0, str(work / "next.zip"))
import tally.add
print(tally.add.add(2, 3))
"""


def test_the_first_start_keeps_what_it_imported_compiled_and_the_next_start_reads_it(tmp_path):
    """phone.compiled_copy (sw.js keeps its zips for the next starts): the standard
    library's zip gets a ``.pyc`` beside each module this start imported, and nothing for
    what it did not import; a later start reads the ``.pyc`` without compiling the source."""
    made = subprocess.run([sys.executable, "-c", COMPILED_CHECK, str(tmp_path)], capture_output=True, text=True,
                          timeout=60)
    assert made.returncode == 0, made.stderr
    assert made.stdout.split(" ", 1) == [
        "2", "['tally/__init__.py', 'tally/__init__.pyc', 'tally/add.py', 'tally/add.pyc', 'tally/unused.py']\n"]
    loaded = subprocess.run([sys.executable, "-c", LOADED_CHECK, str(tmp_path)], capture_output=True, text=True,
                            timeout=60)
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout == "5\n"


TEMPLATES_CHECK = r"""
import sys
sys.modules.update({"limits": None, "flask_compress": None, "waitress": None})  # not shipped to the phone
from scorekeeper import phone
maker, later = sys.argv[1], sys.argv[2]
phone.import_again(["scorekeeper.web.views.matches"], maker)  # as before the snapshot is made
environment = phone.Phone(maker).app.jinja_env
print(len(phone.TEMPLATES.compiled) == len(environment.list_templates()))
# the kept code of index.html swapped for other code: the later phone's page shows which it ran
source, filename, _ = environment.loader.get_source(environment, "index.html")
bucket = phone.TEMPLATES.get_bucket(environment, "index.html", filename, source)
bucket.code = environment.compile("kept code of index.html", "index.html", filename)
phone.TEMPLATES.set_bucket(bucket)
status, headers, body = phone.Phone(later).handle("GET", "/", "http://localhost/", [], b"")
print(status, body.decode())
"""


def test_a_start_after_the_snapshot_renders_pages_from_the_templates_compiled_before_it(tmp_path):
    """phone.import_again compiles every template into phone.TEMPLATES (kept in the snapshot
    sw.js makes); a phone started later renders from that code, compiling none."""
    done = subprocess.run([sys.executable, "-c", TEMPLATES_CHECK, str(tmp_path / "maker"), str(tmp_path / "later")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines() == ["True", "200 kept code of index.html"]
