"""`scorekeeper serve` draws the phone address as a QR code in the terminal, and a real decoder reads it back."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import zxingcpp

SCOREKEEPER = str(Path(sys.executable).with_name("scorekeeper"))
# segno's compact drawing: a printed block is a light module, a space a dark one; each character is two rows
HALVES = {"█": (255, 255), " ": (0, 0), "▀": (255, 0), "▄": (0, 255)}


def decode_terminal_qr(lines: list[str]) -> list[str]:
    rows: list[list[int]] = []
    for line in lines:
        pairs = [HALVES[char] for char in line]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    # each module 8 x 8 pixels, as a grey image: a buffer of rows (no numpy: with numpy
    # installed, sqlite-utils imports it in every process the tests start, 0.1 s each)
    scale = 8
    image = b"".join(bytes(value for value in row for _ in range(scale)) * scale for row in rows)
    pixels = memoryview(image).cast("B", (len(rows) * scale, len(rows[0]) * scale))
    return [code.text for code in zxingcpp.read_barcodes(pixels)]


def serve_banner(tmp_path: Path) -> list[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "SCOREKEEPER_DATABASE": str(tmp_path / "qr.sqlite")}
    server = subprocess.Popen([SCOREKEEPER, "serve", "--host", "0.0.0.0", "--port", str(port)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    try:
        assert server.stdout is not None
        for line in server.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("Press Ctrl+C"):
                break
    finally:
        server.terminate()
        server.wait(timeout=10)
    return lines


def test_serve_prints_a_qr_code_of_the_phone_address(tmp_path):
    lines = serve_banner(tmp_path)
    phone = next((re.search(r"http://\S+", line) for line in lines if "On a phone" in line), None)
    assert phone, f"no phone address printed (this machine has no LAN address?):\n{lines}"
    drawing = [line for line in lines if line and set(line) <= set(HALVES)]
    assert len(drawing) > 10, lines
    assert decode_terminal_qr(drawing) == [phone.group(0)]
