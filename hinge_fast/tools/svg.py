"""Pictures of positions as SVG: a pure function of a board, like ``chess.svg``.

    >>> from hinge_fast import Board
    >>> from hinge_fast.tools.svg import board as board_svg
    >>> b = Board(); b.push_str("F6")
    >>> svg = board_svg(b, arrows=[("F6", "G7")], outlines=[["F6"]])
    >>> svg.startswith("<svg")
    True

The drawing matches ``draw()``: rows are horizontal and numbered upwards, so the hexes
are pointy-topped and cell ``(c, r)`` sits at ``x = c - r/2`` cell widths, ``r`` rows up;
a column runs up-left, its letter under its lowest cell. Edge cells are shaded
darker than empty interior cells; tokens are green and blue discs; the last move's cells
are tinted; arrows mark swipes or suggested moves; outlined groups are drawn with a red
border around the group.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from ..errors import HingeError

#: Colours, exposed so that tests and users can check or change them.
COLORS = {
    "background": "#ffffff",
    "interior": "#f2e6cc",
    "edge": "#b9ab92",
    "cell_border": "#7a6a52",
    "green": "#1f9a3a",
    "blue": "#2358d6",
    "token_border": "#1b1b1b",
    "lastmove": "#f4d35e",
    "highlight": "#9fd8ef",
    "arrow": "#d9480f",
    "outline": "#e0102f",
    "outline_attack": "#ff9f1c",
    "coordinates": "#4a4a4a",
}

#: Hex circumradius in SVG units; a cell is sqrt(3) * RADIUS wide.
RADIUS = 24.0
_SQRT3 = math.sqrt(3.0)
#: Screen angle (degrees, counterclockwise, y up) of each rules.md direction D[k].
_DIRECTION_ANGLES = (0, 60, 120, 180, 240, 300)

AUTO = "auto"


def cell_center(size: int, c: int, r: int, radius: float = RADIUS) -> tuple[float, float]:
    """SVG (x, y) of the centre of cell (c, r), in the picture's own units (before
    scaling to ``size`` pixels): the picture's natural width is :func:`natural_size`."""
    margin = 1.6 * radius
    top = 2 * size - 2
    x = _SQRT3 * radius * (c - r / 2.0) + _SQRT3 * radius * (size - 1) / 2.0 + margin + _SQRT3 * radius / 2
    y = 1.5 * radius * (top - r) + margin + radius
    return x, y


def natural_size(size: int, radius: float = RADIUS) -> tuple[float, float]:
    """(width, height) of the picture of a side-``size`` board at scale 1."""
    margin = 1.6 * radius
    n = 2 * size - 1
    width = _SQRT3 * radius * n + 2 * margin
    height = 1.5 * radius * (n - 1) + 2 * radius + 2 * margin
    return width, height


def _corner(x, y, radius, angle_degrees):
    a = math.radians(angle_degrees)
    return x + radius * math.cos(a), y - radius * math.sin(a)


def _hexagon_points(x, y, radius):
    return " ".join(f"{px:.2f},{py:.2f}" for px, py in (_corner(x, y, radius, 30 + 60 * k) for k in range(6)))


def _cells_of(board, items, what):
    geo = board.geometry
    out = []
    for item in items:
        name = str(item)
        try:
            out.append(geo.parse_cell(name))
        except HingeError as e:
            raise HingeError(f"{what}: {e}") from None
    return out


def _arrow_spec(board, arrow):
    """(from cell, to cell, colour) of an arrow given as a Move, move text, or a
    (from, to) / (from, to, colour) tuple."""
    from ..board import Move

    color = COLORS["arrow"]
    if isinstance(arrow, str):
        arrow = Move.from_str(arrow)
    if isinstance(arrow, Move):
        frm, to = arrow.frm or arrow.to, arrow.to
    else:
        try:
            frm, to, *rest = arrow
        except (TypeError, ValueError):
            raise HingeError(f"an arrow is a move or a (from, to) pair, not {arrow!r}") from None
        if rest:
            color = rest[0]
    a, b = _cells_of(board, (frm, to), "arrow")
    return a, b, color


def board(
    board,
    arrows=(),
    highlight=(),
    size: float | None = None,
    coordinates: bool = True,
    lastmove=AUTO,
    outlines=(),
    caption: bool = True,
) -> str:
    """The SVG picture of ``board`` as a string.

    ``arrows``: moves to draw as arrows: Move objects, move text (``'E5-F6xG7'``) or
    ``(from, to)`` / ``(from, to, colour)`` cell pairs; a placement or a reversing swipe
    (from == to) is drawn as a ring on the cell. ``highlight``: cells to tint.
    ``size``: width in pixels (default: natural size, about 30 px per cell).
    ``coordinates``: letters and numbers around the rim. ``lastmove``: a Move to mark,
    None for none, default the last move on ``board.move_stack``. ``outlines``: groups
    (lists of cells) to draw a red border around, e.g. threatened groups.
    ``caption``: the side to move (or the outcome) under the board.

    >>> from hinge_fast import Board
    >>> board(Board(4), size=200)[:4]
    '<svg'
    """
    from ..board import Color

    geo = board.geometry
    side = board.size
    width, height = natural_size(side)
    caption_height = RADIUS * 1.4 if caption else 0.0
    height += caption_height
    pixel_width = width if size is None else float(size)
    if not pixel_width > 0:
        raise HingeError(f"picture size must be a positive number of pixels, not {size!r}")
    pixel_height = pixel_width * height / width

    if lastmove is AUTO or (isinstance(lastmove, str) and lastmove == AUTO):
        lastmove = board.move_stack[-1] if board.move_stack else None
    last_cells = set()
    if lastmove is not None:
        from ..board import Move

        if isinstance(lastmove, str):
            lastmove = Move.from_str(lastmove)
        last_cells = set(_cells_of(board, [c for c in (lastmove.frm, lastmove.to) if c], "last move"))
    highlight_cells = set(_cells_of(board, highlight, "highlight"))
    green = set(_cells_of(board, board.tokens(Color.GREEN), "token"))
    blue = set(_cells_of(board, board.tokens(Color.BLUE), "token"))

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{pixel_width:.0f}" height="{pixel_height:.0f}" '
        f'viewBox="0 0 {width:.2f} {height:.2f}">',
        f"<title>{escape(board.fen())}</title>",
        f'<rect x="0" y="0" width="{width:.2f}" height="{height:.2f}" fill="{COLORS["background"]}"/>',
    ]

    # cells
    for cell, (c, r) in enumerate(geo.coords):
        x, y = cell_center(side, c, r)
        fill = COLORS["interior"] if geo.is_interior(cell) else COLORS["edge"]
        if cell in last_cells:
            fill = COLORS["lastmove"]
        if cell in highlight_cells:
            fill = COLORS["highlight"]
        out.append(
            f'<polygon class="cell {geo.names[cell]}" points="{_hexagon_points(x, y, RADIUS)}" fill="{fill}" '
            f'stroke="{COLORS["cell_border"]}" stroke-width="1"/>'
        )

    # tokens
    for cell in sorted(green | blue):
        x, y = cell_center(side, *geo.coords[cell])
        color = COLORS["green"] if cell in green else COLORS["blue"]
        out.append(
            f'<circle class="token {"green" if cell in green else "blue"}" cx="{x:.2f}" cy="{y:.2f}" r="{RADIUS * 0.68:.2f}" '
            f'fill="{color}" stroke="{COLORS["token_border"]}" stroke-width="1.5"/>'
        )

    # outlined groups: the hexagon sides of each cell that face a cell outside the group
    for group in outlines:
        color = COLORS["outline"]
        if isinstance(group, tuple) and len(group) == 2 and isinstance(group[0], (list, tuple, set, frozenset)):
            group, color = group
        cells = set(_cells_of(board, group, "outline"))
        path = []
        for cell in sorted(cells):
            x, y = cell_center(side, *geo.coords[cell])
            for k in range(6):
                if int(geo.neighbours[cell, k]) in cells:
                    continue
                angle = _DIRECTION_ANGLES[k]
                (x1, y1), (x2, y2) = _corner(x, y, RADIUS, angle - 30), _corner(x, y, RADIUS, angle + 30)
                path.append(f"M{x1:.2f},{y1:.2f}L{x2:.2f},{y2:.2f}")
        if path:
            out.append(
                f'<path class="outline" d="{"".join(path)}" fill="none" stroke="{escape(color)}" '
                f'stroke-width="{RADIUS * 0.16:.2f}" stroke-linecap="round"/>'
            )

    # arrows
    for arrow in arrows:
        frm, to, color = _arrow_spec(board, arrow)
        x1, y1 = cell_center(side, *geo.coords[frm])
        x2, y2 = cell_center(side, *geo.coords[to])
        stroke = RADIUS * 0.2
        if frm == to:
            out.append(
                f'<circle class="arrow" cx="{x2:.2f}" cy="{y2:.2f}" r="{RADIUS * 0.8:.2f}" fill="none" '
                f'stroke="{escape(color)}" stroke-width="{stroke:.2f}" opacity="0.85"/>'
            )
            continue
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy)
        ux, uy = dx / length, dy / length
        head = RADIUS * 0.75
        tip_x, tip_y = x2 - ux * RADIUS * 0.25, y2 - uy * RADIUS * 0.25
        base_x, base_y = tip_x - ux * head, tip_y - uy * head
        px, py = -uy * head * 0.55, ux * head * 0.55
        out.append(
            f'<g class="arrow" opacity="0.85"><line x1="{x1:.2f}" y1="{y1:.2f}" x2="{base_x:.2f}" y2="{base_y:.2f}" '
            f'stroke="{escape(color)}" stroke-width="{stroke:.2f}" stroke-linecap="round"/>'
            f'<polygon points="{tip_x:.2f},{tip_y:.2f} {base_x + px:.2f},{base_y + py:.2f} {base_x - px:.2f},{base_y - py:.2f}" '
            f'fill="{escape(color)}"/></g>'
        )

    # coordinates: row numbers left of each row, column letters under each column's lowest cell
    if coordinates:
        font = RADIUS * 0.62
        style = f'font-family="sans-serif" font-size="{font:.1f}" fill="{COLORS["coordinates"]}" text-anchor="middle"'
        top = 2 * side - 2
        for r in range(top + 1):
            c_min = min(c for c, rr in geo.coords if rr == r)
            x, y = cell_center(side, c_min - 0.85, r)
            out.append(f'<text class="coordinate" x="{x:.2f}" y="{y + font * 0.35:.2f}" {style}>{r + 1}</text>')
        for c in range(top + 1):
            r_min = min(r for cc, r in geo.coords if cc == c)
            x, y = cell_center(side, c, r_min - 0.8)
            out.append(f'<text class="coordinate" x="{x:.2f}" y="{y + font * 0.35:.2f}" {style}>{chr(ord("A") + c)}</text>')

    if caption:
        outcome = board.outcome()
        text = str(outcome) if outcome else f"{board.turn} to move"
        color = COLORS["green"] if (outcome.winner if outcome else board.turn) == Color.GREEN else COLORS["blue"]
        y = height - caption_height * 0.45
        out.append(
            f'<circle cx="{RADIUS:.2f}" cy="{y - RADIUS * 0.2:.2f}" r="{RADIUS * 0.35:.2f}" fill="{color}" '
            f'stroke="{COLORS["token_border"]}" stroke-width="1"/>'
            f'<text x="{RADIUS * 1.6:.2f}" y="{y:.2f}" font-family="sans-serif" font-size="{RADIUS * 0.7:.1f}" '
            f'fill="{COLORS["coordinates"]}">{escape(text)}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def to_png(svg: str, path=None, width: float | None = None) -> bytes:
    """PNG bytes of an SVG string (needs the ``cairosvg`` package); written to ``path``
    too when given. ``to_png(board(b), "board.png")``."""
    try:
        import cairosvg
    except ImportError:
        raise HingeError("PNG output needs cairosvg: pip install cairosvg") from None
    data = cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width)
    if path is not None:
        with open(path, "wb") as f:
            f.write(data)
    return data


def write_svg(path, svg: str) -> None:
    """Write an SVG string to ``path``; HingeError if it cannot be written."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(svg)
    except OSError as e:
        raise HingeError(f"cannot write {path}: {e.strerror or e}") from None
