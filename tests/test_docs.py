"""The README and docs/ say only what is there: every relative link and anchor resolves, every
file they name exists, every ``scorekeeper`` subcommand and option they show is one the command
has, every class, module and attribute of the package they name (`Stats.figures`,
`page.with_match`) is there, every address of the app they show is one of its routes, the
limits' defaults they give are the code's, the modules they list for each room of ``web/`` are
the room's, the README stays a five-minute read, and its two set-up commands are exactly the
lines ``.ci/run`` takes from it."""
from __future__ import annotations

import argparse
import dataclasses
import importlib
import inspect
import pkgutil
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

import scorekeeper
from scorekeeper.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_LIMIT = 10 * 1024  # bytes: a newcomer reads it in five minutes
COMMAND_LINE = re.compile(r"^    \$ (.*)$", re.M)  # what .ci/run's sed matches: 4 spaces, "$ "
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
SUBCOMMAND = re.compile(r"(?:^|[\s/=])scorekeeper ([a-z][\w-]*)((?: [^\s;|&()]+)*)")
FLAG = re.compile(r"(?<![\w-])(--[a-z][\w-]*)")
# A path in a code span such as `tests/test_nginx.py` or `games/base.py` (the package's own
# folders are named without their `scorekeeper/`); placeholders like `<game>` are not paths.
REPO_PATH = re.compile(r"^(?:tests|bench|deploy|docs|scorekeeper|\.ci|games|web|store|templates|static)/[\w./-]*$")
# A dotted name in a code span, such as `Stats.hand_facts`, `page.with_match` or `Shown.trick_tally(place)`.
DOTTED = re.compile(r"^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\(.*\))?$")
FILE_NAME = re.compile(r"\.(?:py|html|js|css|lua|toml|zip|wasm|json|md|sqlite|txt)$")
NOT_OURS = {"page.pdf()", "Target.setAutoAttach"}  # Playwright's page; the DevTools protocol's Target
# An address of the app in a code span: `/matches/<id>/print`, `GET /print?date=2026-11-20`.
ADDRESS = re.compile(r"^(?:(GET|POST) )?(/[^\s?`]*)")
NOT_ROUTES = ("/proc", "/dev/", "/usr/", "/static/")  # the system's files; the served files


def page_id(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def prose(page: Path) -> str:
    """The page without fenced code blocks (no link or heading lives in them)."""
    return FENCE.sub("", page.read_text(encoding="utf-8"))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text lower-cased, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*]", "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", prose(page), re.M):
        base = slug(heading)
        found.add(base if base not in seen else f"{base}-{seen[base]}")
        seen[base] = seen.get(base, 0) + 1
    return found


def links(page: Path) -> list[str]:
    """Every link target in the page's text (code spans left out: `[--url BASE]` is no link)."""
    return LINK.findall(CODE_SPAN.sub("", prose(page)))


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, mailto:: not this repository's
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if ROOT not in linked.parents and linked != ROOT:
            broken.append(f"{target}: outside the repository")
        elif not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and (linked.suffix != ".md" or anchor not in anchors(linked)):
            broken.append(f"{target}: no heading #{anchor} in {page_id(linked)}")
    return broken


def shown_code(page: Path) -> list[tuple[int, str]]:
    """Every command line and code span of a page, with its line number."""
    shown = []
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        command = re.match(r"^ {4,}\$ (.*)$", line)
        if command:
            shown.append((number, command.group(1)))
        shown += [(number, span) for span in CODE_SPAN.findall(line)]
    return shown


def subcommands() -> dict[str, argparse.ArgumentParser]:
    (choices,) = [action.choices for action in build_parser()._actions
                  if isinstance(action, argparse._SubParsersAction)]
    return dict(choices)


def cli_problems(page: Path) -> list[str]:
    """A `scorekeeper X --flag` shown where X is no subcommand or --flag none of its options; an
    option shown on its own (`--database PATH`) belongs to the command shown just before it."""
    commands = subcommands()
    problems = []
    last: tuple[int, str] | None = None
    for number, code in shown_code(page):
        where = f"{page_id(page)}:{number}: `{code}`"
        uses = SUBCOMMAND.findall(code)
        for name, rest in uses:
            if name not in commands:
                problems.append(f"{where}: scorekeeper has no subcommand {name!r}")
                continue
            last = (number, name)
            problems += [f"{where}: scorekeeper {name} has no option {flag}" for flag in FLAG.findall(rest)
                         if flag not in commands[name]._option_string_actions]
        if not uses and code.startswith("--") and last and number - last[0] <= 4:
            flag = FLAG.match(code)
            if flag and flag.group(1) not in commands[last[1]]._option_string_actions:
                problems.append(f"{where}: scorekeeper {last[1]} has no option {flag.group(1)}")
    return problems


def missing_paths(page: Path) -> list[str]:
    missing = []
    for number, code in shown_code(page):
        if REPO_PATH.match(code) and not (ROOT / code).exists() and not (ROOT / "scorekeeper" / code).exists():
            missing.append(f"{page_id(page)}:{number}: {code} does not exist")
    return missing


@cache
def our_names() -> tuple[dict[str, list[object]], dict[str, list[type]]]:
    """Every module of the package, by its last name and by its path below the package
    (`page`, `web.model.page`), and every class defined in the package, by its name."""
    modules: dict[str, list[object]] = {}
    classes: dict[str, list[type]] = {}
    for found in pkgutil.walk_packages(scorekeeper.__path__, "scorekeeper."):
        module = importlib.import_module(found.name)
        for key in {found.name.rsplit(".", 1)[1], found.name.removeprefix("scorekeeper.")}:
            modules.setdefault(key, []).append(module)
        for name, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == found.name:
                classes.setdefault(name, []).append(value)
    modules["scorekeeper"] = [scorekeeper]
    return modules, classes


def has(owner: object, name: str) -> tuple[bool, object]:
    """Whether ``owner`` has ``name``: an attribute, or a field its class declares (a dataclass's
    field, an annotated instance attribute), which has no value on the class itself."""
    if hasattr(owner, name):
        return True, getattr(owner, name)
    if inspect.isclass(owner):
        declared = any(name in vars(k).get("__annotations__", {}) for k in owner.__mro__)
        if declared or (dataclasses.is_dataclass(owner) and name in {f.name for f in dataclasses.fields(owner)}):
            return True, None
    return False, None


def resolves(owner: object, names: list[str]) -> bool:
    for name in names:
        found, owner = has(owner, name)
        if not found:
            return False
        if owner is None:  # a declared field: nothing further to walk into
            return name == names[-1]
    return True


def unknown_names(page: Path) -> list[str]:
    """Every dotted name shown that starts with one of the package's modules or classes but
    names nothing there (a renamed function, a hook that moved to another part)."""
    modules, classes = our_names()
    unknown = []
    for number, code in shown_code(page):
        dotted = DOTTED.match(code)
        if not dotted or FILE_NAME.search(code) or code in NOT_OURS:
            continue
        parts = dotted.group(1).split(".")
        # the longest run of leading names that is a module, else a class named first
        heads = [(parts[i:], modules[".".join(parts[:i])]) for i in range(len(parts), 0, -1)
                 if ".".join(parts[:i]) in modules][:1] or [(parts[1:], classes.get(parts[0], []))]
        rest, owners = heads[0]
        if owners and not any(resolves(owner, rest) for owner in owners):
            unknown.append(f"{page_id(page)}:{number}: `{code}`: no such name in scorekeeper")
    return unknown


def unknown_addresses(page: Path) -> list[str]:
    """Every address of the app shown that none of its routes answers (with its method)."""
    from werkzeug.exceptions import MethodNotAllowed, NotFound

    from scorekeeper.web import create_app

    routes = create_app({"TESTING": True, "DATABASE": ":memory:", "SECRET_KEY": "docs"}).url_map.bind("scores.example.org")
    unknown = []
    for number, code in shown_code(page):
        address = ADDRESS.match(code)
        if not address or address.group(2).startswith(NOT_ROUTES) or address.group(2) == "/sync/":
            continue
        path = re.sub(r"<(?:id|pid)>", "1", address.group(2)).replace("…", "token").replace("<game>", "third_wheel")
        try:
            routes.match(path, method=address.group(1) or "GET")
        except MethodNotAllowed:
            if address.group(1):  # shown without a method, any method the route takes will do
                unknown.append(f"{page_id(page)}:{number}: `{code}`: its route does not take {address.group(1)}")
        except NotFound:
            unknown.append(f"{page_id(page)}:{number}: `{code}`: no route answers it")
    return unknown


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_name_of_the_package_shown_exists(page):
    assert unknown_names(page) == []


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_address_of_the_app_shown_is_a_route(page):
    assert unknown_addresses(page) == []


def test_the_limits_defaults_shown_are_the_codes():
    """hosting.md lists each limit as `- `NAME` (N): ...`; N is the code's default for it."""
    from scorekeeper.web.edges import security

    shown = re.findall(r"^- `([A-Z_]+_PER_[A-Z]+)` \(([\d,]+)\)", (ROOT / "docs" / "hosting.md").read_text(), re.M)
    assert {name for name, _ in shown} == set(security.SETTINGS.values())
    assert {name: int(value.replace(",", "")) for name, value in shown} == \
        {name: getattr(security, name) for name in security.SETTINGS.values()}


def test_every_bench_option_shown_is_one_the_bench_takes():
    """`.venv/bin/python bench/taps.py --code DIR`: the bench exists and takes each option shown."""
    wrong = []
    for page in PAGES:
        for number, code in shown_code(page):
            for bench, rest in re.findall(r"\bbench/(\w+\.py)((?: [^\s`]+)*)", code):
                source = (ROOT / "bench" / bench).read_text(encoding="utf-8")
                wrong += [f"{page_id(page)}:{number}: bench/{bench} takes no {flag}"
                          for flag in FLAG.findall(rest) if f'"{flag}"' not in source]
    assert wrong == []


def test_every_setting_shown_is_one_the_app_reads():
    """`SCOREKEEPER_<NAME>` shown in the docs: the app reads NAME from its config (or, for the
    registry, the environment variable itself), so a renamed or dropped setting fails here."""
    code = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "scorekeeper").rglob("*.py"))
    shown = {name for page in PAGES for name in re.findall(r"`SCOREKEEPER_([A-Z][A-Z_]*)", page.read_text())}
    assert shown, "the docs show no setting"
    read = {name for name in shown if f'"{name}"' in code or f'"SCOREKEEPER_{name}"' in code
            or f"'{name}'" in code}
    assert sorted(shown - read) == []


def test_every_room_of_web_lists_its_modules():
    """maintainers.md names each room of scorekeeper/web/ with its modules after a colon:
    "`scorekeeper/web/views/` (the blueprints, ...: `exports`, `hands`, ...)"."""
    text = " ".join((ROOT / "docs" / "maintainers.md").read_text().split())
    for room in ("views", "model", "forms", "edges"):
        said = re.search(rf"`scorekeeper/web/{room}/` \(([^()]*(?:\([^()]*\)[^()]*)*)\)", text)
        assert said, f"maintainers.md does not describe scorekeeper/web/{room}/"
        listed = CODE_SPAN.findall(said.group(1).rsplit(":", 1)[1])
        there = sorted(p.stem for p in (ROOT / "scorekeeper" / "web" / room).glob("*.py") if p.stem != "__init__")
        assert sorted(listed) == there, f"scorekeeper/web/{room}/"


def top_level_spans(text: str) -> list[str]:
    """The code spans of ``text`` outside any parentheses: a list's items, not what is said of them."""
    spans, depth = [], 0
    for part in re.split(r"(`[^`]*`)", text):
        if part.startswith("`") and depth == 0:
            spans.append(part.strip("`"))
        elif not part.startswith("`"):
            for char in part:
                depth += {"(": 1, ")": -1}.get(char, 0)
    return spans


def test_the_layout_names_every_module_of_the_package_and_the_store():
    """maintainers.md's Layout has a line for each module at the top of scorekeeper/, names each
    module of games/ that is no game's own, and its store line lists the store's modules ("one
    module per concern: `schema` (...), ...")."""
    text = (ROOT / "docs" / "maintainers.md").read_text()
    modules = sorted(p.name for p in (ROOT / "scorekeeper").glob("*.py") if p.name != "__init__.py")
    assert [name for name in modules if f"`scorekeeper/{name}`" not in text] == []
    from scorekeeper.games import GAMES  # a game's own module is "one module per game"; the rest each have words
    games = {type(game).__module__.rsplit(".", 1)[1] for game in GAMES.values()}
    shared = sorted(p.name for p in (ROOT / "scorekeeper" / "games").glob("*.py") if p.stem not in games)
    assert [name for name in shared if f"`games/{name}`" not in text] == []
    line = re.search(r"^- `scorekeeper/store/`:.*?one module per concern:(.*?)(?=^- )", text, re.M | re.S)
    assert line, "maintainers.md does not describe scorekeeper/store/"
    there = sorted(p.stem for p in (ROOT / "scorekeeper" / "store").glob("*.py") if p.stem != "__init__")
    assert sorted(top_level_spans(line.group(1))) == there


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_link_and_anchor_resolves(page):
    assert links(page) or page.name != "README.md", "the README links to the docs pages"
    assert broken_links(page) == []


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_subcommand_and_option_shown_exists(page):
    assert cli_problems(page) == []


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_file_named_exists(page):
    assert missing_paths(page) == []


def test_every_docs_page_is_linked_from_the_readme():
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in links(ROOT / "README.md")}
    assert [page_id(page) for page in PAGES[1:] if page not in linked] == []


def test_the_readme_is_a_five_minute_read():
    size = len((ROOT / "README.md").read_bytes())
    assert size <= README_LIMIT, f"README.md is {size:,} bytes; move detail into docs/"


def test_the_set_up_commands_are_what_ci_reads():
    """`.ci/run` takes the README's second `    $ ` line as the test command: run its own
    extraction and compare with the two lines under "Set up", the only such lines."""
    extraction = next(line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line.startswith("command="))
    done = subprocess.run(["bash", "-c", f'set -euo pipefail; {extraction}; printf %s "$command"'],
                          cwd=ROOT, capture_output=True, text=True, check=True, timeout=30)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    set_up = readme.split("\n## Set up\n", 1)[1].split("\n## ", 1)[0]
    shown = COMMAND_LINE.findall(readme)
    assert shown == COMMAND_LINE.findall(set_up) and len(shown) == 2, \
        f"README.md must show exactly two `    $ ` lines, both under Set up: {shown}"
    run_app, run_tests = shown
    assert done.stdout == run_tests
    assert run_app.endswith("scorekeeper serve") and "pip install -e ." in run_app
    for step in (".venv/bin/ruff check .", ".venv/bin/mypy", ".venv/bin/python -m pytest"):
        assert step in run_tests
