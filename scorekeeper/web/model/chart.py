"""A server-rendered SVG line chart of each player's running total.

No JavaScript. Colours come from CSS classes (``series-0`` ...) using the
Okabe-Ito colour-blind-safe palette, each line also has its own dash pattern
and marker, and every line ends in a direct label (name and total).
"""
from __future__ import annotations

import math

from markupsafe import Markup, escape

from ...names import isolated

# About the width it is drawn at on a 360 px phone (~305 px), so the 13-unit text
# (app.css) is ~12 px on screen, not the ~9 px a wider viewBox shrank it to
WIDTH, HEIGHT = 320, 210
LEFT, RIGHT, TOP, BOTTOM = 38, 112, 12, 26  # margins; RIGHT holds the direct labels ("Annabel… -120")
LABEL_GAP = 15  # label text is 13 units high
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 4", "10 4")
MARKERS = ("circle", "square", "diamond", "triangle", "circle", "square")


def _nice_ticks(low: float, high: float, count: int = 4) -> list[int]:
    if high == low:
        high = low + 1
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    step = max(1, round(step))
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value <= high + step * 0.001:
        ticks.append(int(value))
        value += step
    if ticks[-1] < high:
        ticks.append(int(value))
    return ticks


def _marker(kind: str, x: float, y: float, cls: str) -> str:
    if kind == "square":
        return f'<rect class="{cls}" x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6"/>'
    if kind == "diamond":
        return f'<path class="{cls}" d="M{x:.1f} {y - 4:.1f}L{x + 4:.1f} {y:.1f}L{x:.1f} {y + 4:.1f}L{x - 4:.1f} {y:.1f}Z"/>'
    if kind == "triangle":
        return f'<path class="{cls}" d="M{x:.1f} {y - 4:.1f}L{x + 4:.1f} {y + 3:.1f}L{x - 4:.1f} {y + 3:.1f}Z"/>'
    return f'<circle class="{cls}" cx="{x:.1f}" cy="{y:.1f}" r="3.2"/>'


def _spread(positions: list[tuple[float, int]], gap: float, low: float, high: float) -> dict[int, float]:
    """Label y positions, pushed apart so no two overlap."""
    ordered = sorted(positions)
    placed: list[list] = [[y, seat] for y, seat in ordered]
    for i in range(1, len(placed)):
        if placed[i][0] - placed[i - 1][0] < gap:
            placed[i][0] = placed[i - 1][0] + gap
    overflow = placed[-1][0] - high if placed else 0
    if overflow > 0:
        for item in placed:
            item[0] -= overflow
    for i in range(len(placed) - 2, -1, -1):
        if placed[i + 1][0] - placed[i][0] < gap:
            placed[i][0] = placed[i + 1][0] - gap
    return {seat: max(low - 4, y) for y, seat in placed}


def running_totals_svg(players: list[str], totals_by_hand: list[list[int]]) -> Markup:
    """``totals_by_hand[i]`` is the engine's running totals after hand i+1."""
    series = [[0] + [totals[seat] for totals in totals_by_hand] for seat in range(len(players))]
    values = [v for s in series for v in s]
    ticks = _nice_ticks(min(values), max(values))
    low, high = ticks[0], ticks[-1]
    hands = len(totals_by_hand)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (plot_w * i / hands if hands else 0)

    def y(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    out = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
           f'aria-labelledby="chart-title" xmlns="http://www.w3.org/2000/svg">',
           '<title id="chart-title">Running totals after each hand</title>']
    for tick in ticks:
        cls = "axis zero" if tick == 0 else "grid"
        out.append(f'<line class="{cls}" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}"/>')
        out.append(f'<text class="tick" x="{LEFT - 4}" y="{y(tick) + 4.5:.1f}" text-anchor="end">{tick}</text>')
    step = max(1, math.ceil(hands / 8))
    for i in range(0, hands + 1, step):
        out.append(f'<text class="tick" x="{x(i):.1f}" y="{HEIGHT - 8}" text-anchor="middle">{i}</text>')
    for seat, points in enumerate(series):
        cls = f"series-{seat % 6}"
        path = " ".join(f"{'M' if i == 0 else 'L'}{x(i):.1f} {y(v):.1f}" for i, v in enumerate(points))
        dash = DASHES[seat % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<path class="line {cls}" d="{path}"{dash_attr}/>')
        if hands <= 24:
            for i, v in enumerate(points[1:], start=1):
                out.append(_marker(MARKERS[seat % len(MARKERS)], x(i), y(v), f"marker {cls}"))
    label_y = _spread([(y(s[-1]), seat) for seat, s in enumerate(series)], LABEL_GAP, TOP, HEIGHT - BOTTOM)
    for seat, points in enumerate(series):
        name = players[seat]
        short = name if len(name) <= 8 else name[:7] + "…"
        ly = label_y[seat]
        out.append(f'<text class="label series-{seat % 6}" x="{WIDTH - RIGHT + 6}" y="{ly + 4:.1f}">'
                   f'{escape(isolated(short))} {points[-1]}</text>')  # the total stays after the name
    out.append("</svg>")
    return Markup("\n".join(out))
