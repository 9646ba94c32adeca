"""Position strings (rules.md section 7), parsed and written without numba.

    empty S=6, Green to move:   6/7/8/9/10/11/10/9/8/7/6 g

Rows run from the top (r = 2S-2) to the bottom (r = 0), each in increasing c, with
``g`` / ``b`` for tokens and a number for a run of empty cells; then the side to move.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..errors import HingeError
from .geometry import MAX_SIZE, MIN_SIZE, geometry

GREEN = 0
BLUE = 1
_ROW_TOKEN = re.compile(r"[0-9]+|[gb]")
_MAX_SHOWN = 40


class ParsedPosition(NamedTuple):
    size: int
    green: frozenset  # cell indices
    blue: frozenset
    turn: int  # GREEN or BLUE


def _shown(text: str) -> str:
    return repr(text if len(text) <= _MAX_SHOWN else text[:_MAX_SHOWN] + "...")


def parse_fen(text) -> ParsedPosition:
    """Parse a position string; HingeError names the first problem found.

    >>> p = parse_fen("4/5/6/7/6/5/4 b")
    >>> p.size, len(p.green), p.turn
    (4, 0, 1)
    """
    if not isinstance(text, str):
        raise HingeError(f"a position string is text, not {type(text).__name__}")
    parts = text.split()
    if not parts:
        raise HingeError("empty position string")
    if len(parts) == 2 and text.strip() != " ".join(parts):
        # rules.md section 7: the rows, then one space and the side to move.
        raise HingeError(
            f"position string {_shown(text)}: put exactly one space before the side to move"
        )
    if len(parts) == 1:
        raise HingeError(
            f"position string {_shown(text)} lacks the side to move ('g' or 'b') after a space"
        )
    if len(parts) > 2:
        raise HingeError(
            f"position string {_shown(text)} has {len(parts)} fields; expected rows and the side to move"
        )
    board_text, side = parts
    if side not in ("g", "b"):
        raise HingeError(f"side to move must be 'g' or 'b', not {_shown(side)}")
    rows = board_text.split("/")
    if len(rows) % 2 == 0 or not MIN_SIZE <= (len(rows) + 1) // 2 <= MAX_SIZE:
        raise HingeError(
            f"position string has {len(rows)} rows; a board of side S has 2S-1 rows "
            f"({2 * MIN_SIZE - 1} to {2 * MAX_SIZE - 1})"
        )
    size = (len(rows) + 1) // 2
    geo = geometry(size)
    green: set[int] = set()
    blue: set[int] = set()
    for i, row_text in enumerate(rows):
        r = 2 * size - 2 - i
        row = geo.row_cells[r]
        name = f"row {r + 1} (the {_ordinal(i + 1)} from the top)"
        pos = 0
        at = 0
        for m in _ROW_TOKEN.finditer(row_text):
            if m.start() != at:
                raise HingeError(
                    f"{name}: unexpected character {row_text[at]!r} in {_shown(row_text)}"
                )
            at = m.end()
            token = m.group()
            if token.isdigit():
                # Compare the digits before converting, so a huge number costs nothing.
                if not token.strip("0"):
                    raise HingeError(
                        f"{name}: a run of empty cells is at least 1, not 0, in {_shown(row_text)}"
                    )
                if token[0] == "0":
                    raise HingeError(
                        f"{name}: run {_shown(token)} has a leading zero; write {_shown(token.lstrip('0'))}"
                    )
                if len(token) > 3 or int(token) > len(row) - pos:
                    raise HingeError(
                        f"{name}: run of {_shown(token)} empty cells does not fit its {len(row)} cells"
                    )
                pos += int(token)
                continue
            if pos >= len(row):
                raise HingeError(f"{name}: more than {len(row)} cells in {_shown(row_text)}")
            cell = row[pos]
            if not geo.is_interior(cell):
                raise HingeError(
                    f"{name}: token on edge cell {geo.names[cell]}; tokens stand on interior cells only"
                )
            (green if token == "g" else blue).add(cell)
            pos += 1
        if at != len(row_text):
            raise HingeError(f"{name}: unexpected character {row_text[at]!r} in {_shown(row_text)}")
        if pos != len(row):
            raise HingeError(f"{name}: describes {pos} cells; the row has {len(row)}")
    return ParsedPosition(size, frozenset(green), frozenset(blue), GREEN if side == "g" else BLUE)


def format_fen(size: int, green, blue, turn: int) -> str:
    """Write a position string from cell-index collections; the inverse of parse_fen."""
    geo = geometry(size)
    green, blue = set(green), set(blue)
    rows = []
    for r in range(2 * size - 2, -1, -1):
        out = []
        run = 0
        for cell in geo.row_cells[r]:
            letter = "g" if cell in green else "b" if cell in blue else None
            if letter is None:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(letter)
        if run:
            out.append(str(run))
        rows.append("".join(out))
    return "/".join(rows) + (" g" if turn == GREEN else " b")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
