"""What the benches share to write their own sections of docs/performance.md (``--markdown FILE``):
each section says when, on which commit and machine, and at what load its figures were measured,
and replaces the one the same bench wrote before (between its markers), so no figure there is
copied by hand."""
from __future__ import annotations

import datetime
import os
import subprocess
from pathlib import Path


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), "unknown CPU")
    return f"{cpu}, {os.cpu_count()} cores"


def commit() -> str:
    try:
        return subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=7"], capture_output=True, text=True,
                              cwd=Path(__file__).parent, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def measured(load: float) -> str:
    """The sentence every section starts with: when, which code, which machine, its load."""
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"Measured {when}, commit {commit()}, {machine()}, load average {load:.1f} before the run"


def table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def write_section(path: Path, name: str, text: str) -> None:
    """Put ``text`` in ``path`` between this bench's markers, replacing what it wrote there before."""
    begin, end = f"<!-- bench: {name} -->", f"<!-- /bench: {name} -->"
    block = f"{begin}\n{text}{end}\n"
    old = path.read_text() if path.exists() else ""
    if begin in old and end in old:
        new = old[:old.index(begin)] + block + old[old.index(end) + len(end) + 1:]
    else:
        new = old + ("\n" if old and not old.endswith("\n\n") else "") + block
    path.write_text(new)
