"""Pictures of positions as SVG: a pure function of a board, like ``chess.svg``.

    >>> from hinge_fast import Board
    >>> from hinge_fast.analysis.svg import board as board_svg
    >>> b = Board(); b.push_str("F6")
    >>> svg = board_svg(b, arrows=[("F6", "G7")], outlines=[["F6"]])
    >>> svg.startswith("<svg")
    True

The drawing matches ``draw()``: rows are horizontal and numbered upwards, so the hexes
are pointy-topped and cell ``(c, r)`` sits at ``x = c - r/2`` cell widths, ``r`` rows up;
a column runs up-left. Row numbers stand at both ends of each row and column letters
at both ends of each column (on the line the column follows), so a reader can follow
either axis from either side. Edge cells are shaded darker than empty interior cells;
tokens are green and blue discs. The last move's cells are tinted yellow and the
tokens it flipped carry a yellow ring; a reversing swipe (a token swiped back onto its
own cell) also gets a looped arrow, so it does not look like a placement. Arrows
reach the centre of their destination, and an arrow for a swipe crosses out the
tokens of the group it flips. Outlined groups have a border around the group; a
legend under the board says what each outline, tint and arrow means, and the best
move is written there in words too.

Every cell polygon and token carries ``data-cell="F6"``, which the web app uses to
turn clicks into moves.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from typing import Any, NamedTuple
from xml.sax.saxutils import escape, quoteattr

from ..board import Color, Move
from ..core.atomic import write_atomic
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
    "flipped": "#ffe14d",
    "reverse": "#7b2cbf",
    "highlight": "#9fd8ef",
    "arrow": "#d9480f",
    "outline": "#e0102f",
    "outline_attack": "#ff9f1c",
    "coordinates": "#4a4a4a",
    "label": "#a89a80",
}

#: Hex circumradius in SVG units; a cell is sqrt(3) * RADIUS wide.
RADIUS = 24.0
_SQRT3 = math.sqrt(3.0)
#: Screen angle (degrees, counterclockwise, y up) of each rules.md direction D[k].
_DIRECTION_ANGLES = (0, 60, 120, 180, 240, 300)
#: Height of one line of text under the board (caption, best move, legend).
_LINE = RADIUS * 1.25

AUTO = "auto"


def cell_center(size: int, c: float, r: float, radius: float = RADIUS) -> tuple[float, float]:
    """SVG (x, y) of the centre of cell (c, r), in the picture's own units (before
    scaling to ``size`` pixels): the picture's natural width is :func:`natural_size`."""
    margin = 1.6 * radius
    top = 2 * size - 2
    x = (
        _SQRT3 * radius * (c - r / 2.0)
        + _SQRT3 * radius * (size - 1) / 2.0
        + margin
        + _SQRT3 * radius / 2
    )
    y = 1.5 * radius * (top - r) + margin + radius
    return x, y


def natural_size(size: int, radius: float = RADIUS) -> tuple[float, float]:
    """(width, height) of the picture of a side-``size`` board at scale 1, without the
    lines of text under it."""
    margin = 1.6 * radius
    n = 2 * size - 1
    width = _SQRT3 * radius * n + 2 * margin
    height = 1.5 * radius * (n - 1) + 2 * radius + 2 * margin
    return width, height


def _corner(x, y, radius, angle_degrees):
    a = math.radians(angle_degrees)
    return x + radius * math.cos(a), y - radius * math.sin(a)


def _hexagon_points(x, y, radius):
    return " ".join(
        f"{px:.2f},{py:.2f}" for px, py in (_corner(x, y, radius, 30 + 60 * k) for k in range(6))
    )


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


def _as_move(move):
    return Move.from_str(move) if isinstance(move, str) else move


def _arrow_spec(board, arrow):
    """(from cell, to cell, colour, target cell or None, is a swipe) of an arrow given
    as a Move, move text, or a (from, to) / (from, to, colour) tuple."""
    color = COLORS["arrow"]
    target = None
    swipe = True
    if isinstance(arrow, str):
        arrow = Move.from_str(arrow)
    if isinstance(arrow, Move):
        frm, to, target, swipe = arrow.frm or arrow.to, arrow.to, arrow.target, arrow.is_swipe
    else:
        try:
            frm, to, *rest = arrow
        except (TypeError, ValueError):
            raise HingeError(f"an arrow is a move or a (from, to) pair, not {arrow!r}") from None
        if rest:
            color = rest[0]
    a, b = _cells_of(board, (frm, to), "arrow")
    t = _cells_of(board, (target,), "arrow")[0] if target else None
    return a, b, color, t, swipe


def flipped_by(board, move) -> list[str]:
    """Cells of the enemy group that swipe ``move`` (with a target) flips on ``board``,
    or [] for a placement, a move without a target or a target that is not a token."""
    move = _as_move(move)
    if move is None or not move.is_swipe or move.target is None:
        return []
    try:
        owner = board.piece_at(move.target)
    except HingeError:
        return []
    if owner is None:
        return []
    for group in board.groups(owner):
        if move.target in group:
            return group
    return []


def last_flipped(board) -> list[str]:
    """Cells whose tokens changed colour in the last move of ``board.move_stack``."""
    if not board.move_stack:
        return []
    before = board.copy()
    before.pop()
    was = {c: Color.GREEN for c in before.tokens(Color.GREEN)} | {
        c: Color.BLUE for c in before.tokens(Color.BLUE)
    }
    now = {c: Color.GREEN for c in board.tokens(Color.GREEN)} | {
        c: Color.BLUE for c in board.tokens(Color.BLUE)
    }
    return [c for c, color in now.items() if c in was and was[c] != color]


def _loop_arrow(x, y, color, stroke, klass):
    """A looped arrow around (x, y): a token swiped out and back onto its own cell."""
    r = RADIUS * 0.82
    start, end = 110, 400  # degrees, counterclockwise from east; the gap is at the top
    (x1, y1), (x2, y2) = _corner(x, y, r, start), _corner(x, y, r, end - 40)
    tip = _corner(x, y, r, end - 8)
    # the arrowhead points along the circle, clockwise direction of travel reversed
    a = math.radians(end - 40)
    tangent = (-math.sin(a), -math.cos(a))  # screen coordinates, counterclockwise
    return (
        f'<g class="{klass}" opacity="0.9"><path d="M{x1:.2f},{y1:.2f} A{r:.2f},{r:.2f} 0 1 0 {x2:.2f},{y2:.2f}" '
        f'fill="none" stroke={quoteattr(color)} stroke-width="{stroke:.2f}" stroke-linecap="round"/>'
        f"{_arrowhead(tip, tangent, RADIUS * 0.42, 0.6, color)}</g>"
    )


def _straight_arrow(x1, y1, x2, y2, color, stroke, klass):
    """An arrow whose tip is the centre of the destination cell."""
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    head = RADIUS * 0.75
    base_x, base_y = x2 - ux * head, y2 - uy * head
    return (
        f'<g class="{klass}" opacity="0.85"><line x1="{x1:.2f}" y1="{y1:.2f}" x2="{base_x:.2f}" y2="{base_y:.2f}" '
        f'stroke={quoteattr(color)} stroke-width="{stroke:.2f}" stroke-linecap="round"/>'
        f"{_arrowhead((x2, y2), (ux, uy), head, 0.55, color)}</g>"
    )


def _arrowhead(tip, direction, length, spread, color):
    """A triangle with its point at ``tip`` pointing along the unit vector
    ``direction``, ``length`` long and ``2 * spread * length`` wide at its base."""
    (x, y), (ux, uy) = tip, direction
    base_x, base_y = x - ux * length, y - uy * length
    px, py = -uy * length * spread, ux * length * spread
    return (
        f'<polygon points="{x:.2f},{y:.2f} {base_x + px:.2f},{base_y + py:.2f} {base_x - px:.2f},{base_y - py:.2f}" '
        f"fill={quoteattr(color)}/>"
    )


def _cross(x, y, color):
    """The mark on a token that a drawn swipe would flip."""
    d = RADIUS * 0.32
    return (
        f'<path class="flip-mark" d="M{x - d:.2f},{y - d:.2f}L{x + d:.2f},{y + d:.2f}M{x - d:.2f},{y + d:.2f}L{x + d:.2f},{y - d:.2f}" '
        f'stroke="#ffffff" stroke-width="{RADIUS * 0.26:.2f}" stroke-linecap="round"/>'
        f'<path class="flip-mark" d="M{x - d:.2f},{y - d:.2f}L{x + d:.2f},{y + d:.2f}M{x - d:.2f},{y + d:.2f}L{x + d:.2f},{y - d:.2f}" '
        f'stroke={quoteattr(color)} stroke-width="{RADIUS * 0.13:.2f}" stroke-linecap="round"/>'
    )


def _outline_path(board, cells):
    geo = board.geometry
    path = []
    for cell in sorted(cells):
        x, y = cell_center(board.size, *geo.coords[cell])
        for k in range(6):
            if int(geo.neighbours[cell, k]) in cells:
                continue
            angle = _DIRECTION_ANGLES[k]
            (x1, y1), (x2, y2) = (
                _corner(x, y, RADIUS, angle - 30),
                _corner(x, y, RADIUS, angle + 30),
            )
            path.append(f"M{x1:.2f},{y1:.2f}L{x2:.2f},{y2:.2f}")
    return "".join(path)


@dataclass(frozen=True)
class Drawing:
    """What :func:`board` draws besides the position (its keyword arguments).

    ``arrows``: moves to draw as arrows: Move objects, move text (``'E5-F6xG7'``) or
    ``(from, to)`` / ``(from, to, colour)`` cell pairs; a placement is drawn as a ring
    on the cell, a reversing swipe (from == to) as a looped arrow; a swipe with a
    target crosses out the tokens of the group it flips. ``highlight``: cells to tint.
    ``size``: width in pixels (default: natural size, about 42 px per cell).
    ``coordinates``: row numbers and column letters at both ends of every row and
    column. ``lastmove``: a Move to mark, None for none, default the last move on
    ``board.move_stack``. ``outlines``: groups (lists of cells, or ``(cells, colour)``
    or ``(cells, colour, legend text)``) to draw a border around, e.g. threatened
    groups. ``caption``: the side to move (or the outcome) and, below it, the best move
    and a legend of what is drawn. ``best``: the best move, drawn as an arrow (a ring
    for a placement, a loop for a reversing swipe) and written under the board with the
    same mark, followed by ``best_text`` (a score, say). ``flipped``: cells to ring as
    just flipped (default: the tokens the last move on ``board.move_stack`` flipped,
    when ``lastmove`` is that move). ``legend``: AUTO (what is drawn), None, or a list
    of ``(colour, text)`` entries (or ``(colour, text, mark)``, mark ``"ring"``,
    ``"loop"`` or ``"arrow"``). ``labels``: each empty interior cell's name written
    faintly inside it. ``result``: ``(winner, text)`` to write as the caption instead
    (a game that ended off the board, by resignation)."""

    arrows: Any = ()
    highlight: Any = ()
    size: float | None = None
    coordinates: bool = True
    lastmove: Any = AUTO
    outlines: Any = ()
    caption: bool = True
    best: Any = None
    best_text: str | None = None
    flipped: Any = AUTO
    legend: Any = AUTO
    labels: bool = False
    result: Any = None


class _Marks(NamedTuple):
    """The cells and moves a drawing marks, resolved against the board."""

    lastmove: Move | None
    last_cells: set
    flipped_cells: set
    highlight_cells: set
    green: set
    blue: set
    outlines: list  # (cells, colour, legend text or None)
    arrows: list  # (from, to, colour, target, swipe)
    best: Move | None


def board(board, **options) -> str:
    """The SVG picture of ``board`` as a string; ``options`` are the fields of
    :class:`Drawing` (arrows, highlight, size, coordinates, lastmove, outlines, caption,
    best, best_text, flipped, legend, labels, result).

    >>> from hinge_fast import Board
    >>> board(Board(4), size=200)[:4]
    '<svg'
    """
    drawing = Drawing(**options)
    marks = _marks(board, drawing)
    width, board_height = natural_size(board.size)
    text_lines = _wrapped(_text_lines(board, drawing, marks), width)
    height = board_height + _LINE * len(text_lines) + (RADIUS * 0.4 if text_lines else 0.0)
    pixel_width = width if drawing.size is None else float(drawing.size)
    if not pixel_width > 0:
        raise HingeError(f"picture size must be a positive number of pixels, not {drawing.size!r}")
    pixel_height = pixel_width * height / width
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{pixel_width:.0f}" height="{pixel_height:.0f}" '
        f'viewBox="0 0 {width:.2f} {height:.2f}">',
        f"<title>{escape(board.fen())}</title>",
        f'<rect x="0" y="0" width="{width:.2f}" height="{height:.2f}" fill="{COLORS["background"]}"/>',
    ]
    out += _cells_svg(board, marks, drawing.labels)
    out += _tokens_svg(board, marks)
    out += _outlines_svg(board, marks)
    out += _arrows_svg(board, marks)
    if drawing.coordinates:
        out += _coordinates_svg(board)
    # text under the board: the side to move, the best move, the legend
    y = board_height + RADIUS * 0.1
    for kind, color, text, mark in text_lines:
        y += _LINE
        out.append(_text_line(kind, color, text, y, mark))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _is_auto(value) -> bool:
    return value is AUTO or (isinstance(value, str) and value == AUTO)


def _marks(board, drawing: Drawing) -> _Marks:
    """The cells and moves ``drawing`` marks on ``board`` (HingeError for a bad cell)."""
    auto_last = _is_auto(drawing.lastmove)
    lastmove = drawing.lastmove
    if auto_last:
        lastmove = board.move_stack[-1] if board.move_stack else None
    lastmove = _as_move(lastmove)
    last_cells = set()
    if lastmove is not None:
        last_cells = set(
            _cells_of(board, [c for c in (lastmove.frm, lastmove.to) if c], "last move")
        )
    flipped = drawing.flipped
    if _is_auto(flipped):
        flipped = (
            last_flipped(board)
            if auto_last or (board.move_stack and lastmove == board.move_stack[-1])
            else []
        )
    outlines = []
    for group in drawing.outlines:
        color, label = COLORS["outline"], None
        if (
            isinstance(group, tuple)
            and len(group) in (2, 3)
            and isinstance(group[0], (list, tuple, set, frozenset))
        ):
            group, color, *rest = group
            label = rest[0] if rest else None
        outlines.append((set(_cells_of(board, group, "outline")), color, label))
    best = _as_move(drawing.best)
    arrows = [_arrow_spec(board, a) for a in drawing.arrows]
    if best is not None:
        a, b, _, t, swipe = _arrow_spec(board, best)
        arrows.append((a, b, COLORS["arrow"], t, swipe))
    return _Marks(
        lastmove,
        last_cells,
        set(_cells_of(board, flipped, "flipped")),
        set(_cells_of(board, drawing.highlight, "highlight")),
        set(_cells_of(board, board.tokens(Color.GREEN), "token")),
        set(_cells_of(board, board.tokens(Color.BLUE), "token")),
        outlines,
        arrows,
        best,
    )


def _text_lines(board, drawing: Drawing, marks: _Marks) -> list:
    """``(kind, colour, text, mark)`` for each line of text under the board."""
    lines: list[tuple[str, str, str, str | None]] = []
    best = marks.best
    if drawing.caption:
        outcome = board.outcome()
        text = str(outcome) if outcome else f"{board.turn} to move"
        winner = outcome.winner if outcome else board.turn
        if drawing.result is not None:
            winner, text = drawing.result
            winner = Color.parse(str(winner))
        lines.append(("caption", COLORS["green" if winner == Color.GREEN else "blue"], text, None))
        if best is not None:
            best_text = drawing.best_text
            lines.append(
                (
                    "best",
                    COLORS["arrow"],
                    f"best move: {best}" + (f"  {best_text}" if best_text else ""),
                    _best_mark(best),
                )
            )
    legend = drawing.legend
    if _is_auto(legend):
        legend = _auto_legend(board, marks) if drawing.caption else []
    for entry in legend or ():
        color, text, *mark = entry
        lines.append(("legend", color, text, mark[0] if mark else None))
    return lines


def _cells_svg(board, marks: _Marks, labels: bool) -> list:
    """The cells (tinted for the last move and the highlight), their labels, and a
    loop on the cell of a reversing last move."""
    geo, side = board.geometry, board.size
    out = []
    for cell, (c, r) in enumerate(geo.coords):
        x, y = cell_center(side, c, r)
        interior = geo.is_interior(cell)
        fill = COLORS["interior"] if interior else COLORS["edge"]
        if cell in marks.last_cells:
            fill = COLORS["lastmove"]
        if cell in marks.highlight_cells:
            fill = COLORS["highlight"]
        name = geo.names[cell]
        out.append(
            f'<polygon class="cell {name}{"" if interior else " edge"}" data-cell="{name}" '
            f'points="{_hexagon_points(x, y, RADIUS)}" fill="{fill}" stroke="{COLORS["cell_border"]}" stroke-width="1"/>'
        )
        if labels and interior and cell not in marks.green and cell not in marks.blue:
            out.append(
                f'<text class="label" data-cell="{name}" x="{x:.2f}" y="{y + RADIUS * 0.18:.2f}" font-family="sans-serif" '
                f'font-size="{RADIUS * 0.5:.1f}" fill="{COLORS["label"]}" text-anchor="middle" pointer-events="none">{name}</text>'
            )
    return out


def _tokens_svg(board, marks: _Marks) -> list:
    """The tokens, those just flipped ringed; then, when the last move was a reversing
    swipe, a loop on its cell (not only a tint)."""
    geo, side = board.geometry, board.size
    out = []
    for cell in sorted(marks.green | marks.blue):
        x, y = cell_center(side, *geo.coords[cell])
        colour = "green" if cell in marks.green else "blue"
        out.append(
            f'<circle class="token {colour}" data-cell="{geo.names[cell]}" cx="{x:.2f}" cy="{y:.2f}" r="{RADIUS * 0.68:.2f}" '
            f'fill="{COLORS[colour]}" stroke="{COLORS["token_border"]}" stroke-width="1.5"/>'
        )
        if cell in marks.flipped_cells:
            out.append(
                f'<circle class="flipped" cx="{x:.2f}" cy="{y:.2f}" r="{RADIUS * 0.4:.2f}" fill="none" '
                f'stroke="{COLORS["flipped"]}" stroke-width="{RADIUS * 0.14:.2f}" pointer-events="none"/>'
            )
    last = marks.lastmove
    if last is not None and last.is_swipe and last.frm == last.to:
        x, y = cell_center(side, *geo.coords[_cells_of(board, [last.to], "last move")[0]])
        out.append(_loop_arrow(x, y, COLORS["reverse"], RADIUS * 0.12, "lastmove-reverse"))
    return out


def _outlines_svg(board, marks: _Marks) -> list:
    """Outlined groups: the hexagon sides of each cell that face a cell outside the group."""
    out = []
    for cells, color, _ in marks.outlines:
        path = _outline_path(board, cells)
        if path:
            out.append(
                f'<path class="outline" d="{path}" fill="none" stroke={quoteattr(color)} '
                f'stroke-width="{RADIUS * 0.16:.2f}" stroke-linecap="round" pointer-events="none"/>'
            )
    return out


def _arrows_svg(board, marks: _Marks) -> list:
    """The arrows, and the tokens each swipe would flip crossed out."""
    geo, side = board.geometry, board.size
    out = []
    for frm, to, color, target, swipe in marks.arrows:
        x1, y1 = cell_center(side, *geo.coords[frm])
        x2, y2 = cell_center(side, *geo.coords[to])
        stroke = RADIUS * 0.2
        out.append('<g pointer-events="none">')
        if target is not None:
            for name in flipped_by(board, f"{geo.names[frm]}-{geo.names[to]}x{geo.names[target]}"):
                out.append(_cross(*cell_center(side, *geo.coords[geo.parse_cell(name)]), color))
        if frm == to and swipe:
            out.append(_loop_arrow(x2, y2, color, stroke, "arrow"))
        elif frm == to:
            out.append(
                f'<circle class="arrow" cx="{x2:.2f}" cy="{y2:.2f}" r="{RADIUS * 0.8:.2f}" fill="none" '
                f'stroke={quoteattr(color)} stroke-width="{stroke:.2f}" opacity="0.85"/>'
            )
        else:
            out.append(_straight_arrow(x1, y1, x2, y2, color, stroke, "arrow"))
        out.append("</g>")
    return out


def _coordinates_svg(board) -> list:
    """Row numbers at both ends of each row, column letters at both ends of each
    column, one step beyond the rim along the row or column."""
    geo, side = board.geometry, board.size
    font = RADIUS * 0.62
    style = f'font-family="sans-serif" font-size="{font:.1f}" fill="{COLORS["coordinates"]}" text-anchor="middle"'
    top = 2 * side - 2
    places = []  # (c, r, text)
    for r in range(top + 1):
        cs = [c for c, rr in geo.coords if rr == r]
        places += [(c, r, str(r + 1)) for c in (min(cs) - 0.85, max(cs) + 0.85)]
    for c in range(top + 1):
        rs = [r for cc, r in geo.coords if cc == c]
        # on the slanted sides a column's end is also a row's end: the letter stands
        # further out along the column, clear of that row's number
        low = min(rs) - (0.8 if min(rs) == 0 else 1.5)
        high = max(rs) + (0.8 if max(rs) == top else 1.5)
        places += [(c, r, chr(ord("A") + c)) for r in (low, high)]
    out = []
    for c, r, text in places:
        x, y = cell_center(side, c, r)
        out.append(
            f'<text class="coordinate" x="{x:.2f}" y="{y + font * 0.35:.2f}" {style}>{text}</text>'
        )
    return out


def _best_mark(best) -> str:
    """How a move is drawn on the board, so that its legend draws the same: ``ring`` (a
    placement), ``loop`` (a reversing swipe) or ``arrow``."""
    if best.is_swipe:
        return "loop" if best.frm == best.to else "arrow"
    return "ring"


#: Where a line of text under the board starts, after its mark, and the widest a
#: character of its font is on average, in ems (sans-serif; bold a little wider).
_TEXT_X = RADIUS * 1.8 + 4
_EM_WIDTH = {"best": 0.7}
_DEFAULT_EM_WIDTH = 0.62


def _font_size(kind) -> float:
    return RADIUS * (0.7 if kind != "legend" else 0.6)


def _wrapped(lines, width) -> list:
    """``lines`` with each text too long for the picture's ``width`` broken at spaces
    into lines of its own, the continuations without a mark (kind ``more-`` and the
    line's own), so that no text runs off the picture."""
    out = []
    for kind, color, text, mark in lines:
        em = _EM_WIDTH.get(kind, _DEFAULT_EM_WIDTH) * _font_size(kind)
        chars = max(12, int((width - _TEXT_X - RADIUS * 0.3) / em))
        first, *rest = textwrap.wrap(text, chars) or [""]
        out.append((kind, color, first, mark))
        out += [("more-" + kind, color, more, None) for more in rest]
    return out


def _text_line(kind, color, text, y, shape=None):
    font = _font_size(kind.removeprefix("more-"))
    x0, x1 = RADIUS * 0.6, RADIUS * 1.8
    mid = y - font * 0.35
    if kind.startswith("more-"):
        mark = ""  # the rest of the line above
    elif shape == "ring":
        mark = (
            f'<circle class="legend-ring" cx="{(x0 + x1) / 2 - 4:.2f}" cy="{mid:.2f}" r="{RADIUS * 0.32:.2f}" fill="none" '
            f'stroke={quoteattr(color)} stroke-width="{RADIUS * 0.1:.2f}"/>'
        )
    elif shape == "loop":
        mark = _loop_arrow((x0 + x1) / 2 - 4, mid, color, RADIUS * 0.08, "legend-loop")
    elif kind == "caption":
        mark = (
            f'<circle cx="{(x0 + x1) / 2 - 4:.2f}" cy="{mid:.2f}" r="{RADIUS * 0.35:.2f}" fill={quoteattr(color)} '
            f'stroke="{COLORS["token_border"]}" stroke-width="1"/>'
        )
    elif kind == "best" or color == COLORS["arrow"]:
        mark = _straight_arrow(x0, mid, x1 - 4, mid, color, RADIUS * 0.14, "legend-arrow")
    elif color in (COLORS["lastmove"], COLORS["highlight"]):
        mark = (
            f'<polygon points="{_hexagon_points((x0 + x1) / 2 - 4, mid, RADIUS * 0.45)}" fill={quoteattr(color)} '
            f'stroke="{COLORS["cell_border"]}" stroke-width="1"/>'
        )
    elif color == COLORS["flipped"]:
        mark = (
            f'<circle cx="{(x0 + x1) / 2 - 4:.2f}" cy="{mid:.2f}" r="{RADIUS * 0.35:.2f}" fill="#888888"/>'
            f'<circle cx="{(x0 + x1) / 2 - 4:.2f}" cy="{mid:.2f}" r="{RADIUS * 0.22:.2f}" fill="none" '
            f'stroke={quoteattr(color)} stroke-width="{RADIUS * 0.1:.2f}"/>'
        )
    elif color == COLORS["reverse"]:
        mark = _loop_arrow((x0 + x1) / 2 - 4, mid, color, RADIUS * 0.08, "legend-loop")
    else:
        mark = (
            f'<line x1="{x0:.2f}" y1="{mid:.2f}" x2="{x1 - 4:.2f}" y2="{mid:.2f}" stroke={quoteattr(color)} '
            f'stroke-width="{RADIUS * 0.16:.2f}" stroke-linecap="round"/>'
        )
    weight = ' font-weight="bold"' if kind.removeprefix("more-") == "best" else ""
    return (
        f'<g class="text-{kind}">{mark}<text x="{_TEXT_X:.2f}" y="{y:.2f}" font-family="sans-serif" '
        f'font-size="{font:.1f}"{weight} fill="{COLORS["coordinates"]}">{escape(text)}</text></g>'
    )


def _auto_legend(board, marks: _Marks):
    """(colour, text) for each kind of mark actually drawn."""
    turn, other = board.turn, board.turn.other
    entries: list[tuple] = []
    seen = set()
    lastmove, best = marks.lastmove, marks.best
    for _, color, label in marks.outlines:
        if label is None:
            if color == COLORS["outline_attack"]:
                label = f"outlined orange: {other} groups {turn} can flip now"
            elif color == COLORS["outline"]:
                label = f"outlined red: {turn} groups {other} threatens to flip"
            else:
                continue
        if (color, label) not in seen:
            seen.add((color, label))
            entries.append((color, label))
    if lastmove is not None:
        entries.append((COLORS["lastmove"], f"tinted: the last move, {lastmove}"))
        if lastmove.is_swipe and lastmove.frm == lastmove.to:
            entries.append(
                (
                    COLORS["reverse"],
                    f"loop: {lastmove.frm} was swiped out and back onto its own cell",
                )
            )
    if marks.flipped_cells:
        entries.append((COLORS["flipped"], "ringed: tokens the last move flipped"))
    if marks.arrows and best is None:
        entries.append((COLORS["arrow"], "arrow: a move (its flipped group crossed out)"))
    elif best is not None:
        shape = _best_mark(best)
        if shape == "ring":
            entries.append((COLORS["arrow"], "ring: the best move, a placement", shape))
        elif shape == "loop":
            entries.append(
                (
                    COLORS["arrow"],
                    "loop: the best move, a reversing swipe (the group it flips crossed out)",
                    shape,
                )
            )
        else:
            entries.append(
                (COLORS["arrow"], "arrow: the best move (the group it flips crossed out)", shape)
            )
    return entries


def to_png(svg: str, path=None, width: float | None = None) -> bytes:
    """PNG bytes of an SVG string (needs the ``cairosvg`` package); written to ``path``
    too when given. ``to_png(board(b), "board.png")``."""
    try:
        import cairosvg
    except ImportError:
        raise HingeError("PNG output needs cairosvg: pip install cairosvg") from None
    data = cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width)
    if path is not None:
        write_atomic(path, data)
    return data
