"""The seat picture: a server-rendered SVG of the table for one hand, drawn from the
game's ``Seating`` (who sits where, who deals, who leads, each place's roles).

It knows no game: every word on it comes from the game. Colours come from CSS
classes (the CSP forbids style attributes); the words are in the picture's
accessible name as well, so a screen reader hears what the eye sees.
Places go clockwise round the table from the bottom of the picture, where people sit
(``Seating.drawn``: the order play goes round, the referee's, may differ).
"""
from __future__ import annotations

import math
import string
import textwrap
from functools import lru_cache

from markupsafe import Markup, escape

from ...games.base import Place, Seating
from ...names import isolated

WIDTH = 360
CX = WIDTH / 2
CHIP_H = 28  # a place's name box, for a name on one line
NAME_H = 17  # each further line of a name
# How wide each letter of a bold 15-unit name is drawn, in units, as Chromium measures
# DejaVu Sans Bold (the widest of the usual system fonts: a phone's own are narrower);
# any other letter is taken as wide as the widest capitals.
_LOWER = "10.2 10.8 8.9 10.8 10.2 6.1 10.8 10.7 5.2 5.2 10.0 5.2 15.7 10.7 10.4 10.8 10.8 7.4 9.0 7.2 10.7 9.8 13.9 9.7 9.8 8.8"
_UPPER = "11.7 11.5 11.1 12.5 10.3 10.3 12.4 12.6 5.6 5.6 11.7 9.6 15.0 12.6 12.8 11.0 12.8 11.6 10.2 10.6 12.2 11.7 16.6 11.6 10.9 10.9"
LETTER_W = dict(zip(string.ascii_lowercase + string.ascii_uppercase, map(float, (_LOWER + " " + _UPPER).split())),
                **dict.fromkeys(string.digits, 10.4), **{" ": 5.3, "-": 6.3, ".": 5.8, "'": 4.6, "’": 5.8, "…": 15.0})
OTHER_W = 13.0
LINE_H = 16  # one line of its roles
CHAR_W = 7.2  # about how wide one character of the 13-unit role text is
BUTTON_R = 10  # the dealer button, astride the left end of the dealer's name box
# place count -> (width of a place, horizontal radius of the ring of places)
SIZES = {1: (220, 0), 2: (220, 0), 3: (150, 120), 4: (118, 120), 5: (112, 124), 6: (112, 124)}
# Seven or eight places round an ellipse either overlap or shrink their names to a few
# letters: they sit in three rows instead, as round a long table, each place at (column,
# row): column -1 left, 0 middle, 1 right; row -1 above the table, 0 beside it, 1 below.
ROWS = {7: ((0, 1), (-1, 1), (-1, 0), (-0.5, -1), (0.5, -1), (1, 0), (1, 1)),
        8: ((0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0), (1, 1))}
ROW_PLACE_W = 120  # three places side by side a little wider than the ring of six
ROW_GAP = 14  # between two places of a row: room for the dealer button astride one's end
TABLE_RX, TABLE_RY = 56, 32
SCALE = 1.1  # screen pixels per unit where the page has room


def _name_width(text: str) -> float:
    """About how wide ``text`` is drawn as a place's name, in units, at most."""
    return sum(LETTER_W.get(c, OTHER_W) for c in text)


def _short(line: str, room: float) -> str:
    if _name_width(line) <= room:
        return line
    while line and _name_width(line + "…") > room:
        line = line[:-1]
    return line.rstrip() + "…"


def _name_lines(name: str, room: float) -> list[str]:
    """A name as drawn in ``room`` units: whole on one line, else on two lines broken
    between words where the longer line is shortest; shortened with "…" only where a
    word or a line is still too long (the place's title and the picture's accessible
    name then say it whole)."""
    words = name.split()
    if _name_width(name) <= room or len(words) < 2:
        return [_short(name, room)]
    splits = ((" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words)))
    first, second = min(splits, key=lambda lines: max(map(_name_width, lines)))
    return [_short(first, room), _short(second, room)]


def described(seating: Seating) -> str:
    """The picture in words (its accessible name): the order round the table, then what
    each place does."""
    # each name isolated: a right-to-left name never reorders the sentence a screen reader says
    order = ", ".join(isolated(p.name) for p in seating.drawn)
    roles = "; ".join(f"{isolated(p.name)}: {', '.join(p.roles)}" for p in seating.drawn if p.roles)
    return f"Round the table clockwise from the bottom: {order}. {roles}."


def _spots(count: int) -> list[tuple[float, float, float]]:
    """Where each place sits, clockwise from the bottom: (x, how far up or down, from -1
    above the table to 1 below it, of the ring's height on that side; its angle round
    the table, for what lies on the table in front of it)."""
    if count in ROWS:
        step = ROW_PLACE_W + ROW_GAP
        return [(CX + column * step, float(row), math.atan2(row, column)) for column, row in ROWS[count]]
    rx = SIZES.get(count, SIZES[6])[1]
    angles = [math.radians(90 + 360 * index / count) for index in range(count)]
    return [(CX + rx * math.cos(angle), math.sin(angle), angle) for angle in angles]


def _boxes(spots: list[tuple[float, float, float]], ry: tuple[float, float], width: float, chip_h: float,
           lines: list[list[str]], places: tuple[Place, ...]) -> list[tuple[float, ...]]:
    """Each place's (x, y, left, top, right, bottom) round a table centred at (CX, 0):
    ``ry`` is the ring's height above the table and below it."""
    out: list[tuple[float, ...]] = []
    for (x, up_down, _), wrapped, place in zip(spots, lines, places):
        y = (ry[1] if up_down > 0 else ry[0]) * up_down
        button = BUTTON_R if place.deals else 0  # the dealer button stands out past the box's left end
        out.append((x, y, x - width / 2 - button, y - chip_h / 2, x + width / 2,
                    y + chip_h / 2 + LINE_H * len(wrapped) + 4))
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
    # where people sit, not the order the play goes round (a hand laid elsewhere says so in its roles)
    places = seating.drawn
    count = len(places)
    width = ROW_PLACE_W if count in ROWS else SIZES.get(count, SIZES[6])[0]
    wrap = max(8, int((width - 8) / CHAR_W))
    lines = [textwrap.wrap(" · ".join(p.roles), wrap) for p in places]
    # a name keeps 4 units clear of its box's ends, and of the half of the dealer button inside it
    names = [_name_lines(p.name, width - (18 if p.deals else 8)) for p in places]
    # every name box as tall as the tallest name, so the boxes of a row line up
    chip_h = CHIP_H + NAME_H * (max(len(n) for n in names) - 1) if places else CHIP_H
    spots = _spots(count)
    ry = [float(TABLE_RY + CHIP_H)] * 2
    # the ring of places as flat as it can be, above and below the table each on its own:
    # the picture stays short on a phone
    while (crowded := _crowded(boxes := _boxes(spots, (ry[0], ry[1]), width, chip_h, lines, places))) \
            and max(ry) < 400:
        for half in crowded:
            ry[half] += 4
    top = min(b[3] for b in boxes) - 4
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
    for place, name, wrapped, box, (_, _, angle) in zip(places, names, lines, boxes, spots):
        front = (CX + TABLE_RX * 0.78 * math.cos(angle), TABLE_RY * 0.7 * math.sin(angle))
        out.append(_place(place, name, wrapped, (box[0], box[1]), (width, chip_h), front))
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


def _place(place: Place, name: list[str], wrapped: list[str], centre: tuple[float, float],
           size: tuple[float, float], front: tuple[float, float]) -> str:
    """One place: its name box (``name`` its lines; the dealer's with the dealer button
    astride its left end), its roles under it, and for the leader the first card on the
    table in ``front`` of them."""
    (x, y), (width, chip_h) = centre, size
    kind = "seat" + (" dealer" if place.deals else "") + (" leads" if place.leads else "") + \
        (" empty" if place.seat is None else "")
    left, chip_top = x - width / 2, y - chip_h / 2
    # the dealer's name centred in the room the button leaves
    name_x = x + (5 if place.deals else 0)
    first = y + 5.5 - NAME_H * (len(name) - 1) / 2
    # no space between the lines: it would belong to the first and pull it off centre
    # (each line isolated: a right-to-left name keeps its own order whatever the picture's)
    shown = "".join(f'<tspan x="{name_x:.1f}" y="{first + NAME_H * n:.1f}">{escape(isolated(line))}</tspan>'
                     for n, line in enumerate(name))
    # a shortened name is said whole where a pointer rests on it (and in the picture's name)
    title = f"<title>{escape(place.name)}</title>" if " ".join(name) != place.name else ""
    parts = [f'<g class="{kind}">{title}',
             f'<rect class="chip" x="{left:.1f}" y="{chip_top:.1f}" width="{width}" height="{chip_h}" rx="14"/>',
             f'<text class="name" text-anchor="middle">{shown}</text>']
    if place.deals:  # the dealer button, as on a real table
        parts.append(f'<circle class="button-d" cx="{left:.1f}" cy="{y:.1f}" r="{BUTTON_R}"/>'
                     f'<text class="button-d-text" x="{left:.1f}" y="{y + 4.5:.1f}" text-anchor="middle">D</text>')
    if place.leads:  # the first card, on the table in front of the leader
        fx, fy = front
        parts.append(f'<rect class="lead-card" x="{fx - 6.5:.1f}" y="{fy - 9:.1f}" width="13" height="18" rx="2"/>')
    for number, line in enumerate(wrapped):
        parts.append(f'<text class="role" x="{x:.1f}" y="{y + chip_h / 2 + 13 + LINE_H * number:.1f}" '
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
    # the game's sentences under it (their names isolated: ``Seating.notes``)
    return {"svg": svg, "notes": list(seating.notes), "leads": any(p.leads for p in seating.places)}
