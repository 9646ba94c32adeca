"""Slow, obviously-correct reference implementation of Hinge.

This module is the oracle the fast engine is differentially tested against. It is
meant to be read side by side with the rules, ``docs/rules.md`` ("rules.md" below):
every rule of sections 1-8 lives in a function whose docstring quotes the rule it
implements. It uses plain Python only (tuples, sets, dicts), recomputes everything
from scratch, and takes no shortcuts: group splits are decided by literally
computing connectivity.

Conventions this module fixes where rules.md leaves room (all documented again at
the function concerned):

* Position strings (section 7): the colour letters ``g``/``b`` and the side to move
  are lower case only; surrounding whitespace is ignored but the board and the side
  to move must be separated by exactly one space; a run count is a decimal number
  without a leading zero (``0``, ``00`` and ``05`` are rejected).
* :func:`play` does not re-run move generation; it checks only what is cheap
  (the mover's token is at ``from``, ``to`` is empty once ``from`` is lifted, the
  flipped group is a whole enemy group touching ``to``).
* :func:`outcome` only reports elimination for the side to move (section 6); a
  position where the side *not* to move has no tokens cannot arise in play and is
  treated as a game that goes on.

Imports nothing from the rest of ``hinge_fast`` except :class:`HingeError`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from hinge_fast.core.text import count
from hinge_fast.errors import HingeError

Cell = tuple[int, int]  # (c, r) axial coordinates

MIN_SIZE = 4
MAX_SIZE = 9

GREEN = "g"
BLUE = "b"
COLOURS = (GREEN, BLUE)
#: The digits of a position string's runs (ASCII only: ``str.isdigit`` also takes '²' and '٣').
DIGITS = "0123456789"


def other(colour: str) -> str:
    """The opponent of ``colour`` (rules.md 2: "Green and Blue")."""
    return BLUE if colour == GREEN else GREEN


# ---------------------------------------------------------------------------
# Section 1. Board and coordinates
# ---------------------------------------------------------------------------

# rules.md 1: "Neighbours of (c, r), in cyclic order around the cell (each is
# adjacent to the next): D = [(+1,0), (+1,+1), (0,+1), (-1,0), (-1,-1), (0,-1)]."
D: list[tuple[int, int]] = [(+1, 0), (+1, +1), (0, +1), (-1, 0), (-1, -1), (0, -1)]


def check_size(size: int) -> None:
    """rules.md 1: "Supported: every S from 4 to 9"."""
    if isinstance(size, bool) or not isinstance(size, int):
        raise HingeError(f"board side must be an integer, got {size!r}")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise HingeError(
            f"board side {size} is outside the supported range {MIN_SIZE} to {MAX_SIZE}"
        )


def on_board(size: int, cell: Cell) -> bool:
    """rules.md 1: "Cells use axial coordinates (c, r) with 0 <= c, r <= 2S-2 and
    |c - r| <= S-1"."""
    c, r = cell
    n = 2 * size - 2
    return 0 <= c <= n and 0 <= r <= n and abs(c - r) <= size - 1


def cells(size: int) -> list[Cell]:
    """All cells of the board of side ``size``, sorted in (c, r) order.

    rules.md 1: "There are 3S(S-1)+1 cells (91 for S=6, 217 for S=9)."
    """
    check_size(size)
    n = 2 * size - 2
    return [(c, r) for c in range(n + 1) for r in range(n + 1) if on_board(size, (c, r))]


def is_edge(size: int, cell: Cell) -> bool:
    """rules.md 1: "Edge cells are the outer ring: c or r equal to 0 or 2S-2, or
    |c - r| = S-1 (exactly the cells with fewer than six neighbours). All other
    cells are interior"."""
    c, r = cell
    n = 2 * size - 2
    return c in (0, n) or r in (0, n) or abs(c - r) == size - 1


def is_interior(size: int, cell: Cell) -> bool:
    """An on-board cell that is not an edge cell (rules.md 1)."""
    return on_board(size, cell) and not is_edge(size, cell)


def step(cell: Cell, direction: int) -> Cell:
    """``cell + D[direction mod 6]`` (may be off the board)."""
    dc, dr = D[direction % 6]
    return (cell[0] + dc, cell[1] + dr)


@functools.cache
def neighbours(size: int, cell: Cell) -> tuple[Cell, ...]:
    """On-board neighbours of ``cell``, in D order (rules.md 1). Kept once worked
    out: the checker asks for the same cells' neighbours millions of times."""
    return tuple(n for n in (step(cell, i) for i in range(6)) if on_board(size, n))


def cell_name(cell: Cell) -> str:
    """rules.md 1: "column letter A + c, row number r + 1. (2, 3) is C4. ... upper
    case on output"."""
    c, r = cell
    return f"{chr(ord('A') + c)}{r + 1}"


def parse_cell(size: int, text: str) -> Cell:
    """Inverse of :func:`cell_name`; letters are case-insensitive (rules.md 1).

    Accepts a letter followed by a decimal row number without leading zero.
    Raises HingeError unless the cell is on the board of side ``size``.
    """
    check_size(size)
    t = text.strip() if isinstance(text, str) else ""
    if (
        len(t) < 2
        or not ("A" <= t[0].upper() <= "Z")
        or not t[1:].isdigit()
        or not t[1:].isascii()
        or t[1] == "0"
        or len(t) > 4
    ):
        raise HingeError(f"bad cell name {text!r}: expected a letter and a row number, like C4")
    cell = (ord(t[0].upper()) - ord("A"), int(t[1:]) - 1)
    if not on_board(size, cell):
        raise HingeError(f"cell {t.upper()} is not on the board of side {size}")
    return cell


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------


class _Tokens(Mapping):
    """An immutable, hashable ``dict[Cell, str]`` (equality by value)."""

    __slots__ = ("_d", "_h")

    def __init__(self, items=()):
        self._d = dict(items)
        self._h = None

    def __getitem__(self, key):
        return self._d[key]

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    # the dict's own lookups, rather than Mapping's generic ones built on __getitem__
    def __contains__(self, key) -> bool:
        return key in self._d

    def get(self, key, default=None):
        return self._d.get(key, default)

    def items(self):
        return self._d.items()

    def __hash__(self) -> int:
        if self._h is None:
            self._h = hash(frozenset(self._d.items()))
        return self._h

    def __eq__(self, other):
        if isinstance(other, Mapping):
            return self._d == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return f"{{{', '.join(f'{cell_name(k)}: {v!r}' for k, v in sorted(self._d.items()))}}}"


@dataclass(frozen=True)
class RefPosition:
    """A Hinge position: board side, tokens on interior cells, side to move.

    Validated on construction (HingeError): size in 4..9, to_move 'g' or 'b', every
    token 'g' or 'b' on an interior cell (rules.md 1: "Tokens only ever rest on
    interior cells").
    """

    size: int
    tokens: Mapping  # Cell -> 'g' | 'b'; stored as an immutable hashable mapping
    to_move: str

    def __post_init__(self):
        check_size(self.size)
        if self.to_move not in COLOURS:
            raise HingeError(f"side to move must be 'g' or 'b', got {self.to_move!r}")
        frozen = _Tokens(self.tokens)
        for cell, colour in frozen.items():
            if colour not in COLOURS:
                raise HingeError(f"token colour must be 'g' or 'b', got {colour!r}")
            if not (isinstance(cell, tuple) and len(cell) == 2 and on_board(self.size, cell)):
                raise HingeError(f"token on a cell that is not on the board: {cell!r}")
            if is_edge(self.size, cell):
                raise HingeError(f"token on edge cell {cell_name(cell)}")
        object.__setattr__(self, "tokens", frozen)

    def __repr__(self) -> str:
        return f"RefPosition({format_position(self)!r})"


def empty_position(size: int = 6) -> RefPosition:
    """rules.md 5-6 / 2: "The game begins with an empty board" and "Green moves
    first". Default S = 6 (rules.md 1)."""
    check_size(size)
    return RefPosition(size, {}, GREEN)


# ---------------------------------------------------------------------------
# Section 7. Position string
# ---------------------------------------------------------------------------


def row_span(size: int, r: int) -> tuple[int, int]:
    """rules.md 7: "row r spans c = max(0, r-S+1) .. min(2S-2, r+S-1)" (inclusive)."""
    return max(0, r - size + 1), min(2 * size - 2, r + size - 1)


def format_position(pos: RefPosition) -> str:
    """rules.md 7: "the board rows from top (r = 2S-2) to bottom (r = 0), separated
    by /; each row lists its cells in increasing c ..., with g for Green, b for Blue
    and a decimal number for a run of empty cells. Edge cells are included (always
    empty). Then one space and the side to move, g or b."

    Canonical form: each maximal run of empty cells is one number.
    """
    size = pos.size
    rows = []
    for r in range(2 * size - 2, -1, -1):
        lo, hi = row_span(size, r)
        out = []
        empties = 0
        for c in range(lo, hi + 1):
            colour = pos.tokens.get((c, r))
            if colour is None:
                empties += 1
            else:
                if empties:
                    out.append(str(empties))
                    empties = 0
                out.append(colour)
        if empties:
            out.append(str(empties))
        rows.append("".join(out))
    return "/".join(rows) + " " + pos.to_move


def parse_position(text: str) -> RefPosition:
    """Parse a position string (rules.md 7).

    "Anything else (wrong row lengths, a token on an edge cell, unknown characters,
    a missing side to move, a side outside the supported range) is rejected with a
    message that names the problem. A run count longer than its row is rejected
    however large the number is, without allocating anything in proportion to it."

    Conventions: surrounding whitespace is ignored; the board and the side to move
    are separated by exactly one space; letters are lower case only ('g', 'b');
    a run count is a decimal number >= 1 written without a leading zero. Non-canonical
    but unambiguous run splits cannot occur (two adjacent numbers would be one number),
    so canonical output is unique.
    """
    if not isinstance(text, str):
        raise HingeError("position string must be a string")
    t = text.strip()
    if not t:
        raise HingeError("empty position string")
    if not t.isascii():
        raise HingeError("position string contains a non-ASCII character")
    parts = t.split(" ")
    if len(parts) == 1:
        raise HingeError(
            "position string has no side to move (expected ' g' or ' b' after the board)"
        )
    if len(parts) != 2:
        raise HingeError("position string must be the board, one space, and the side to move")
    board, side = parts
    if side not in COLOURS:
        raise HingeError(f"side to move must be 'g' or 'b', got {side!r}")
    for ch in board:
        if not (ch in "gb/" or ch in DIGITS):
            raise HingeError(f"unknown character {ch!r} in position string")
    rows = board.split("/")
    nrows = len(rows)
    if nrows % 2 == 0 or not (2 * MIN_SIZE - 1 <= nrows <= 2 * MAX_SIZE - 1):
        raise HingeError(
            f"position string has {count(nrows, 'row')}; a board of side S has 2S-1 rows "
            f"({2 * MIN_SIZE - 1} to {2 * MAX_SIZE - 1})"
        )
    size = (nrows + 1) // 2
    tokens: dict[Cell, str] = {}
    for k, row_text in enumerate(rows):
        r = 2 * size - 2 - k  # rows go from top (r = 2S-2) to bottom (r = 0)
        lo, hi = row_span(size, r)
        length = hi - lo + 1
        c = lo  # next column to fill
        i = 0
        while i < len(row_text):
            ch = row_text[i]
            if ch in COLOURS:
                if c > hi:
                    raise HingeError(f"row {r + 1} is longer than its {length} cells")
                if is_edge(size, (c, r)):
                    raise HingeError(f"token on edge cell {cell_name((c, r))}")
                tokens[(c, r)] = ch
                c += 1
                i += 1
            elif ch in DIGITS:
                j = i
                while j < len(row_text) and row_text[j] in DIGITS:
                    j += 1
                digits = row_text[i:j]
                if digits[0] == "0":
                    raise HingeError(
                        f"bad run count {digits!r} in row {r + 1} (zero or leading zero)"
                    )
                # Never convert a huge digit string: a run longer than any row
                # (at most 17 cells) has at least 3 digits.
                if len(digits) > 2 or c + int(digits) - 1 > hi:
                    shown = digits if len(digits) <= 12 else digits[:12] + "..."
                    raise HingeError(
                        f"run count {shown} is longer than row {r + 1} ({length} cells)"
                    )
                c += int(digits)
                i = j
            else:  # '/' cannot occur inside a row
                raise HingeError(f"unknown character {ch!r} in position string")
        if c != hi + 1:
            raise HingeError(f"row {r + 1} has {c - lo} cells; it should have {length}")
    return RefPosition(size, tokens, side)


# ---------------------------------------------------------------------------
# Section 2. Groups
# ---------------------------------------------------------------------------


def connected_components(size: int, cellset) -> list[frozenset[Cell]]:
    """Split a set of cells into maximal sets connected through adjacency
    (flood fill). Sorted by their smallest cell."""
    remaining = set(cellset)
    comps = []
    while remaining:
        start = min(remaining)
        comp = {start}
        frontier = [start]
        remaining.discard(start)
        while frontier:
            cur = frontier.pop()
            for n in neighbours(size, cur):
                if n in remaining:
                    remaining.discard(n)
                    comp.add(n)
                    frontier.append(n)
        comps.append(frozenset(comp))
    comps.sort(key=min)
    return comps


def is_connected(size: int, cellset) -> bool:
    """True when ``cellset`` forms a single connected piece (the empty set, which
    never matters here, counts as connected)."""
    return len(connected_components(size, cellset)) <= 1


def groups_of(size: int, tokens: Mapping, colour: str) -> list[frozenset[Cell]]:
    """rules.md 2: "A group is a maximal set of same-colour tokens connected through
    adjacency." Sorted by their smallest cell in (c, r) order."""
    return connected_components(size, {cell for cell, col in tokens.items() if col == colour})


def group_of(size: int, tokens: Mapping, cell: Cell) -> frozenset[Cell]:
    """The group (rules.md 2) containing the token at ``cell``."""
    colour = tokens[cell]
    for g in groups_of(size, tokens, colour):
        if cell in g:
            return g
    raise AssertionError("unreachable")


def groups(pos: RefPosition, colour: str) -> list[frozenset[Cell]]:
    """The groups of ``colour`` in ``pos`` (rules.md 2), sorted by smallest cell."""
    if colour not in COLOURS:
        raise HingeError(f"colour must be 'g' or 'b', got {colour!r}")
    return groups_of(pos.size, pos.tokens, colour)


def has_enemy_neighbour(size: int, tokens: Mapping, cell: Cell, me: str) -> bool:
    """Whether ``cell`` touches a token of the opponent of ``me``. "Only tokens count"
    (rules.md 4); the caller passes the tokens with the moving token already lifted."""
    return any(tokens.get(n) == other(me) for n in neighbours(size, cell))


def enemy_groups_touching(size: int, tokens: Mapping, cell: Cell, me: str) -> list[frozenset[Cell]]:
    """The distinct enemy groups with a token adjacent to ``cell`` (rules.md 4.5:
    "tokens of one group are one choice")."""
    enemy = other(me)
    result = []
    for g in groups_of(size, tokens, enemy):
        if any(n in g for n in neighbours(size, cell)):
            result.append(g)
    return result


# ---------------------------------------------------------------------------
# Section 3. Placement
# ---------------------------------------------------------------------------


def placement_is_legal(pos: RefPosition, x: Cell) -> bool:
    """rules.md 3: "A player may place a token of their colour on an empty interior
    cell x if  x has no enemy neighbour OR x has at least one friendly neighbour."
    """
    me = pos.to_move
    if not is_interior(pos.size, x):
        return False
    if x in pos.tokens:
        return False
    nbrs = neighbours(pos.size, x)
    no_enemy_neighbour = not any(pos.tokens.get(n) == other(me) for n in nbrs)
    some_friendly_neighbour = any(pos.tokens.get(n) == me for n in nbrs)
    return no_enemy_neighbour or some_friendly_neighbour


def placements(pos: RefPosition) -> set:
    """All legal placements ('place', x) for the side to move (rules.md 3)."""
    return {("place", x) for x in cells(pos.size) if placement_is_legal(pos, x)}


# ---------------------------------------------------------------------------
# Section 4. Swipe
# ---------------------------------------------------------------------------


def swipe_final_cells(pos: RefPosition, x: Cell) -> set[Cell]:
    """Every final cell ``f`` a swipe of the friendly token at ``x`` can reach, over
    all pivots and paths (rules.md 4, steps 1-4). The flip (step 5) is done by
    :func:`swipes`.

    rules.md 4: "The player picks a friendly token at x, a pivot: a friendly token
    at p adjacent to x, and one or two rotation steps around p. With x = p + D[i],
    one step clockwise or counterclockwise takes the token to p + D[i+1] or
    p + D[i-1] (indices mod 6). Both steps turn around the same pivot. Let G be the
    group of x before the move."
    """
    size = pos.size
    me = pos.to_move
    enemy = other(me)
    tokens = pos.tokens
    assert tokens.get(x) == me
    G = group_of(size, tokens, x)

    # 4.1 Lift. "G without x must stay connected. If not, this token cannot swipe at
    # all (with any pivot)."
    if not is_connected(size, G - {x}):
        return set()

    # "Enemy adjacency at y1, y2 and f is judged with the moving token already lifted
    # from x. Only tokens count; the moving token itself is not an enemy."
    lifted = {cell: col for cell, col in tokens.items() if cell != x}

    def empty(cell: Cell) -> bool:
        return cell not in lifted

    def valid_final(cell: Cell) -> bool:
        # "empty, interior, and have an enemy neighbour" (4.3 for y1, 4.4 for y2)
        return (
            empty(cell) and is_interior(size, cell) and has_enemy_neighbour(size, lifted, cell, me)
        )

    finals: set[Cell] = set()
    for p in neighbours(size, x):
        if tokens.get(p) != me:
            continue  # the pivot is a friendly token adjacent to x
        i = D.index((x[0] - p[0], x[1] - p[1]))  # x = p + D[i]
        for s in (+1, -1):  # clockwise or counterclockwise
            # 4.2 "Step 1 goes to y1 = p + D[i±1]. y1 must not hold an enemy token."
            y1 = step(p, i + s)
            if lifted.get(y1) == enemy:
                continue
            # 4.3 "If y1 is empty, interior, and has an enemy neighbour, the swipe
            # ends at y1. It cannot continue: a valid one-step swipe ends the turn."
            if valid_final(y1):
                finals.add(y1)
                continue
            # 4.4 "Otherwise (y1 is an edge cell, or holds a friendly token that is
            # passed over and stays, or is an empty interior cell with no enemy
            # neighbour), the swipe may take step 2:"
            #  - "If y1 is empty (edge or interior) and the token there touches a
            #    friendly token that is not in G, step 1 merged groups, and lifting
            #    the token again would split the merged group: step 2 is forbidden,
            #    and this path yields no move."
            if empty(y1):
                touches_other_friendly = any(
                    lifted.get(n) == me and n not in G for n in neighbours(size, y1)
                )
                if touches_other_friendly:
                    after_step1 = dict(lifted)
                    after_step1[y1] = me
                    merged = group_of(size, after_step1, y1)
                    if not is_connected(size, merged - {y1}):
                        continue
            #  - "Step 2 goes to y2, either onward (p + D[i±2], same direction) or
            #    back (to x, reversing). y2 must be empty, interior, and have an
            #    enemy neighbour. x is empty at this point, so a reversing swipe can
            #    end where it started."
            for y2 in (step(p, i + 2 * s), x):
                if valid_final(y2):
                    finals.add(y2)
    return finals


def swipes(pos: RefPosition) -> set:
    """All swipes ('swipe', from, to, group) for the side to move (rules.md 4-5).

    4.5 "Flip. The token now stands on the final cell f. Exactly one enemy group
    adjacent to f is flipped to the mover's colour. If several distinct enemy groups
    touch f, the player chooses; tokens of one group are one choice."
    5: "A swipe is identified by (from, to, flipped group), whatever pivot or path
    produced it" -- the result is a set, so each triple appears once.
    """
    me = pos.to_move
    result = set()
    for x in sorted(c for c, col in pos.tokens.items() if col == me):
        lifted = {cell: col for cell, col in pos.tokens.items() if cell != x}
        for f in swipe_final_cells(pos, x):
            for g in enemy_groups_touching(pos.size, lifted, f, me):
                result.add(("swipe", x, f, g))
    return result


# ---------------------------------------------------------------------------
# Section 6. End of the game
# ---------------------------------------------------------------------------


def is_eliminated(pos: RefPosition) -> bool:
    """rules.md 6: "From a position string alone: the side to move has no tokens
    while the board holds two or more tokens means it was eliminated, and the game
    is over." """
    mine = sum(1 for col in pos.tokens.values() if col == pos.to_move)
    return mine == 0 and len(pos.tokens) >= 2


def legal_moves(pos: RefPosition) -> set:
    """The distinct legal moves of the side to move (rules.md 3, 4, 5); empty when the
    game is over (rules.md 8: "A finished game (section 6) has no legal moves")."""
    if is_eliminated(pos):
        return set()
    return placements(pos) | swipes(pos)


def outcome(pos: RefPosition):
    """None while the game goes on, else (winner, reason).

    rules.md 6: elimination -- "If a swipe leaves the opponent with no tokens, the
    mover wins"; seen from the position: the side to move has no tokens while the
    board holds two or more tokens -> (other side, 'elimination').
    "Convention here: a player with no legal move on their turn loses"
    -> (other side, 'no legal move').
    """
    if is_eliminated(pos):
        return (other(pos.to_move), "elimination")
    if not legal_moves(pos):
        return (other(pos.to_move), "no legal move")
    return None


# ---------------------------------------------------------------------------
# Section 5. Notation, and applying moves
# ---------------------------------------------------------------------------


def move_name(move) -> str:
    """rules.md 5: "A placement is its cell: C4." A swipe is "Written
    from-toxtarget, e.g. E5-F6xG7 ... On output, target is the group's first cell in
    (c, r) order (smallest column, then smallest row)." A reversing swipe has
    from == to: E5-E5xF7."""
    if move[0] == "place":
        return cell_name(move[1])
    if move[0] == "swipe":
        _, frm, to, group = move
        return f"{cell_name(frm)}-{cell_name(to)}x{cell_name(min(group))}"
    raise HingeError(f"not a move: {move!r}")


def parse_move(pos: RefPosition, text: str):
    """Find the legal move written ``text`` (rules.md 5), case-insensitive.

    "On input, xtarget may be left out when exactly one enemy group touches to";
    target may be any cell of the flipped group. HingeError if unparsable, illegal,
    or ambiguous.
    """
    t = text.strip() if isinstance(text, str) else ""
    legal = legal_moves(pos)
    if "-" not in t:
        x = parse_cell(pos.size, t)
        if ("place", x) not in legal:
            raise HingeError(f"illegal move {t.upper()}")
        return ("place", x)
    frm_text, _, rest = t.partition("-")
    to_text, sep, target_text = rest.upper().partition("X")
    frm = parse_cell(pos.size, frm_text)
    to = parse_cell(pos.size, to_text)
    target = parse_cell(pos.size, target_text) if sep else None
    if sep and not target_text:
        raise HingeError(f"bad move {text!r}: missing target after 'x'")
    candidates = [
        m
        for m in legal
        if m[0] == "swipe" and m[1] == frm and m[2] == to and (target is None or target in m[3])
    ]
    if not candidates:
        raise HingeError(f"illegal move {t.upper()}")
    if len(candidates) > 1:
        raise HingeError(
            f"ambiguous move {t.upper()}: several enemy groups touch {cell_name(to)}; add xTARGET"
        )
    return candidates[0]


def play(pos: RefPosition, move) -> RefPosition:
    """Apply ``move`` and hand the turn over (rules.md 2: "Players alternate").

    A placement puts a token of the mover's colour on its cell (rules.md 3). A swipe
    lifts the token at ``from``, puts it on ``to`` and flips every token of the chosen
    enemy group to the mover's colour (rules.md 4.5).

    Legality is NOT fully re-checked (use :func:`legal_moves`); only cheap sanity
    checks are made, raising HingeError: the placement cell is empty and interior;
    for a swipe, ``from`` holds the mover's token, ``to`` is interior and empty once
    ``from`` is lifted, and ``group`` is a whole enemy group touching ``to``.
    """
    me = pos.to_move
    tokens = dict(pos.tokens)
    if move[0] == "place":
        x = move[1]
        if not is_interior(pos.size, x) or x in tokens:
            raise HingeError(f"cannot place on {cell_name(x)}")
        tokens[x] = me
    elif move[0] == "swipe":
        _, frm, to, group = move
        if tokens.get(frm) != me:
            raise HingeError(f"no token of the side to move on {cell_name(frm)}")
        del tokens[frm]
        if not is_interior(pos.size, to) or to in tokens:
            raise HingeError(f"cannot swipe to {cell_name(to)}")
        if group not in enemy_groups_touching(pos.size, tokens, to, me):
            raise HingeError("the flipped group is not an enemy group touching the final cell")
        tokens[to] = me
        for cell in group:
            tokens[cell] = me
    else:
        raise HingeError(f"not a move: {move!r}")
    return RefPosition(pos.size, tokens, other(me))


# ---------------------------------------------------------------------------
# Section 8. Perft
# ---------------------------------------------------------------------------


def perft(pos: RefPosition, depth: int) -> int:
    """rules.md 8: "perft(pos, 0) = 1; perft(pos, d) = sum of perft(child, d-1) over
    the distinct legal moves of pos. A finished game (section 6) has no legal moves."
    """
    if depth < 0:
        raise HingeError("perft depth must be >= 0")
    if depth == 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)  # each child contributes perft(child, 0) = 1
    return sum(perft(play(pos, m), depth - 1) for m in moves)
