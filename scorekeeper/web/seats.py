"""The seat picture: a server-rendered SVG of the table for one hand, drawn from the
game's ``Seating`` (who sits where, who deals, who leads, each place's roles).

It knows no game: every word on it comes from the game. Colours come from CSS
classes (the CSP forbids style attributes); the words are in the picture's
accessible name as well, so a screen reader hears what the eye sees.
Places go clockwise round the table from the bottom of the picture, in seat order.
"""
from __future__ import annotations

import math
import textwrap
from functools import lru_cache

from markupsafe import Markup, escape

from ..games.base import Place, Seating

WIDTH = 360
CX = WIDTH / 2
CHIP_H = 28  # a place's name box
LINE_H = 16  # one line of its roles
CHAR_W = 7.2  # about how wide one character of the 13-unit role text is
# place count -> (width of a place, horizontal radius of the ring of places)
SIZES = {1: (220, 0), 2: (220, 0), 3: (150, 120), 4: (118, 120), 5: (112, 124), 6: (112, 124)}
TABLE_RX, TABLE_RY = 56, 32
SCALE = 1.1  # screen pixels per unit where the page has room


def _short(name: str, width: float) -> str:
    most = max(4, int(width / 9.4))  # bold 15-unit names, about 9.4 units a letter at most
    return name if len(name) <= most else name[:most - 1] + "…"


def described(seating: Seating) -> str:
    """The picture in words (its accessible name): the order round the table, then what
    each place does."""
    order = ", ".join(p.name for p in seating.places)
    roles = "; ".join(f"{p.name}: {', '.join(p.roles)}" for p in seating.places if p.roles)
    return f"Round the table clockwise from the bottom: {order}. {roles}."


def _boxes(count: int, rx: float, ry: tuple[float, float], width: float,
           lines: list[list[str]]) -> list[tuple[float, ...]]:
    """Each place's (x, y, left, top, right, bottom) round a table centred at (CX, 0):
    ``ry`` is the ring's height above the table and below it."""
    out: list[tuple[float, ...]] = []
    for index, wrapped in enumerate(lines):
        angle = math.radians(90 + 360 * index / count)
        sin = math.sin(angle)
        x, y = CX + rx * math.cos(angle), (ry[1] if sin > 0 else ry[0]) * sin
        out.append((x, y, x - width / 2, y - CHIP_H / 2, x + width / 2, y + CHIP_H / 2 + LINE_H * len(wrapped) + 4))
    return out


def _crowded(boxes: list[tuple[float, ...]]) -> set[int]:
    """Which halves of the ring hold a place that overlaps another, or covers the table
    (its box, a little inside the ellipse): 0 above the table, 1 below it."""
    table = (CX - TABLE_RX * 0.8, -TABLE_RY - 6, CX + TABLE_RX * 0.8, TABLE_RY + 6, 0.0)
    rects = [(*b[2:], b[1]) for b in boxes] + [table]
    halves = set()
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                halves |= {0 if y < -1 else 1 for y in (a[4], b[4]) if abs(y) > 1} or {0, 1}
    return halves


def seat_picture(seating: Seating) -> Markup:
    places = seating.places
    count = len(places)
    width, rx = SIZES.get(count, SIZES[6])
    wrap = max(8, int((width - 8) / CHAR_W))
    lines = [textwrap.wrap(" · ".join(p.roles), wrap) for p in places]
    ry = [float(TABLE_RY + CHIP_H)] * 2
    # the ring of places as flat as it can be, above and below the table each on its own:
    # the picture stays short on a phone
    while (crowded := _crowded(boxes := _boxes(count, rx, (ry[0], ry[1]), width, lines))) and max(ry) < 400:
        for half in crowded:
            ry[half] += 4
    top = min(b[3] for b in boxes) - 12  # room for the dealer's button
    height = max(b[5] for b in boxes) + 4 - top
    # only as wide as the places: two or three are drawn larger on a narrow phone
    left = min(CX - TABLE_RX, *(b[2] for b in boxes)) - 4
    width_drawn = max(CX + TABLE_RX, *(b[4] for b in boxes)) + 4 - left
    # drawn a little larger than its units where there is room (a narrow phone shrinks it)
    out = [f'<svg class="seats seats-{count}" viewBox="{left:.0f} {top:.0f} {width_drawn:.0f} {height:.0f}" '
           f'width="{width_drawn * SCALE:.0f}" height="{height * SCALE:.0f}" role="img" '
           f'aria-label="{escape(described(seating))}" xmlns="http://www.w3.org/2000/svg">',
           f'<ellipse class="table-top" cx="{CX}" cy="0" rx="{TABLE_RX}" ry="{TABLE_RY}"/>',
           _clockwise()]
    for index, (place, wrapped, box) in enumerate(zip(places, lines, boxes)):
        angle = math.radians(90 + 360 * index / count)
        front = (CX + TABLE_RX * 0.78 * math.cos(angle), TABLE_RY * 0.7 * math.sin(angle))
        out.append(_place(place, wrapped, box[0], box[1], width, front))
    out.append("</svg>")
    return Markup("".join(out))


def _clockwise() -> str:
    """An arrow round the middle of the table: the deal and the play go clockwise."""
    cy, r_x, r_y = 0, TABLE_RX * 0.34, TABLE_RY * 0.26
    start, end = math.radians(200), math.radians(340)
    x0, y0 = CX + r_x * math.cos(start), cy + r_y * math.sin(start)
    x1, y1 = CX + r_x * math.cos(end), cy + r_y * math.sin(end)
    head = f"M{x1 + 1:.1f} {y1 - 5:.1f}L{x1 + 7:.1f} {y1 + 3:.1f}L{x1 - 3:.1f} {y1 + 4:.1f}Z"
    return (f'<path class="turn" d="M{x0:.1f} {y0:.1f}A{r_x} {r_y} 0 0 1 {x1:.1f} {y1:.1f}"/>'
            f'<path class="turn-head" d="{head}"/>')


def _place(place: Place, wrapped: list[str], x: float, y: float, width: float, front: tuple[float, float]) -> str:
    """One place: its name box (the dealer's with the dealer button), its roles under it,
    and for the leader the first card on the table in ``front`` of them."""
    kind = "seat" + (" dealer" if place.deals else "") + (" leads" if place.leads else "") + \
        (" empty" if place.seat is None else "")
    left, chip_top = x - width / 2, y - CHIP_H / 2
    parts = [f'<g class="{kind}">',
             f'<rect class="chip" x="{left:.1f}" y="{chip_top:.1f}" width="{width}" height="{CHIP_H}" rx="14"/>',
             # the dealer's name centred beside the dealer button, not under it
             f'<text class="name" x="{x + (12 if place.deals else 0):.1f}" y="{y + 5.5:.1f}" text-anchor="middle">'
             f'{escape(_short(place.name, width - (42 if place.deals else 12)))}</text>']
    if place.deals:  # the dealer button, as on a real table
        bx = left + 14
        parts.append(f'<circle class="button-d" cx="{bx:.1f}" cy="{y:.1f}" r="10"/>'
                     f'<text class="button-d-text" x="{bx:.1f}" y="{y + 4.5:.1f}" text-anchor="middle">D</text>')
    if place.leads:  # the first card, on the table in front of the leader
        fx, fy = front
        parts.append(f'<rect class="lead-card" x="{fx - 6.5:.1f}" y="{fy - 9:.1f}" width="13" height="18" rx="2"/>')
    for number, line in enumerate(wrapped):
        parts.append(f'<text class="role" x="{x:.1f}" y="{y + CHIP_H / 2 + 13 + LINE_H * number:.1f}" '
                     f'text-anchor="middle">{escape(line)}</text>')
    parts.append("</g>")
    return "".join(parts)


# A hand's picture is drawn again on every save and poll of its match (the table guide
# shows it), and the same few seatings come round: the drawing is a pure function of
# the (frozen) Seating, so it is kept.
_drawn = lru_cache(maxsize=512)(seat_picture)


def seating_shown(seating: Seating) -> dict:
    """What a page shows of the seat picture: the drawing and the sentences under it
    (``leads``: whether some place leads, so the caption may speak of the lead card)."""
    try:
        svg = _drawn(seating)
    except TypeError:  # a game gave a list where a tuple belongs: unhashable, drawn afresh
        svg = seat_picture(seating)
    return {"svg": svg, "notes": seating.notes, "leads": any(p.leads for p in seating.places)}
