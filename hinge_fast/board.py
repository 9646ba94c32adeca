"""The Python face of the engine: ``Board``, ``Move``, ``Color``, ``Outcome``, ``Termination``.

Modelled on python-chess::

    >>> from hinge_fast import Board
    >>> board = Board()                      # empty side-6 board, Green to move
    >>> len(board.legal_moves)
    61
    >>> board.push_str("F6")
    >>> board.fen()
    '6/7/8/9/10/5g5/10/9/8/7/6 b'
    >>> board.pop()
    Move.from_str('F6')

Positions are kept as bitboards (layout: ``geometry.py``); the legal moves come from
the numba kernels (``core/moves.py``, through ``kernels.py``), imported on first use so
that parsing and drawing a board never wait for numba.

The low-level face, for the searchers and tools above (python-chess shows its
bitboards the same way): ``board.green`` / ``board.blue`` / ``board.own`` /
``board.enemy`` (bitboards: tuples of ``NWORDS`` np.uint64 words), ``board.legal_codes``
and ``board.legal_flips`` (the generator's move codes and the group each flips),
``board.move_from_code(code)`` / ``board.code_of(move)``, ``board.zobrist_key``,
``board.history_keys()`` and ``board.perft(depth)``::

    >>> b = Board(4)
    >>> len(b.legal_codes) == len(b.legal_moves), b.perft(2)
    (True, 258)
    >>> b.move_from_code(b.code_of(Move.from_str("B2")))
    Move.from_str('B2')
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

import numpy as np

from .core.fen import BLUE, GREEN, format_fen, parse_fen
from .core.geometry import DEFAULT_SIZE, NWORDS, check_size, geometry
from .core.movecode import CELL_BITS, CELL_MASK  # noqa: F401  (the move code's layout, for the layers above)
from .core.movecode import decode as decode_move_code
from .core.tables import GROUP_SLOTS, MAX_MOVES, SCRATCH_ROWS, SHIFT_WORDS, workspace
from .errors import HingeError

_CELL_RE = re.compile(r"[A-Za-z][0-9]{1,2}")
_MOVE_RE = re.compile(
    r"\s*([A-Za-z][0-9]{1,2})(?:\s*-\s*([A-Za-z][0-9]{1,2})(?:\s*[xX]\s*([A-Za-z][0-9]{1,2}))?)?\s*"
)


#: Set once ``Board.load_kernels`` has run in this process.
_LOADED: list = []

#: What draws ``Board._repr_svg_``: ``import hinge_fast`` sets it to the picture module's
#: drawing (``analysis/svg.py``, a layer above, which the board does not import).
_SVG_DRAWER = None


def set_svg_drawer(draw) -> None:
    """Make ``draw(board) -> str`` the SVG picture of a board for Jupyter."""
    global _SVG_DRAWER
    _SVG_DRAWER = draw


def _kernels():
    from .core import kernels

    return kernels


class Color(enum.IntEnum):
    """The two sides. Green moves first."""

    GREEN = GREEN
    BLUE = BLUE

    @property
    def letter(self) -> str:
        return "g" if self is Color.GREEN else "b"

    @property
    def other(self) -> Color:
        return Color.BLUE if self is Color.GREEN else Color.GREEN

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Color:
        """``'g'``, ``'green'``, ``'b'`` or ``'blue'`` (any case)."""
        key = str(text).strip().lower()
        if key in ("g", "green"):
            return cls.GREEN
        if key in ("b", "blue"):
            return cls.BLUE
        raise HingeError(f"colour must be green or blue, not {text!r}")


@dataclass(frozen=True)
class Move:
    """A move in rules.md notation, independent of any board.

    ``to`` is the cell a token is placed on or swiped to; ``frm`` the cell a swiped
    token came from (None for a placement); ``target`` a cell of the enemy group the
    swipe flips (None for a placement, or when left out on input). Cells are upper
    case names such as ``'C4'``. ``str(move)`` is the notation: ``C4`` or
    ``E5-F6xG7``. A board gives the canonical move, whose target is the first cell
    of the group: ``board.parse_move("e5-f6xg8")``.
    """

    to: str
    frm: str | None = None
    target: str | None = None

    def __post_init__(self):
        for field in ("to", "frm", "target"):
            value = getattr(self, field)
            if value is None and field != "to":
                continue
            if not isinstance(value, str) or not _CELL_RE.fullmatch(value.strip()):
                raise HingeError(f"move {field} must be a cell name like C4, not {value!r}")
            object.__setattr__(self, field, _normal_cell(value.strip().upper()))
        if self.frm is None and self.target is not None:
            raise HingeError(f"a placement flips nothing: {self.to}x{self.target}")

    @property
    def is_swipe(self) -> bool:
        return self.frm is not None

    def __str__(self) -> str:
        if self.frm is None:
            return self.to
        if self.target is None:
            return f"{self.frm}-{self.to}"
        return f"{self.frm}-{self.to}x{self.target}"

    def __repr__(self) -> str:
        return f"Move.from_str({str(self)!r})"

    @classmethod
    def from_code(cls, code: int, size: int) -> Move:
        """The move of a move generator code on the board of side ``size``
        (layout: ``core/movecode.py``).

        >>> Move.from_code(Board(4).code_of(Move.from_str("B2")), 4)
        Move.from_str('B2')
        """
        return _move_of_code(geometry(check_size(size)).names, code)

    @classmethod
    def from_str(cls, text: str) -> Move:
        """Parse ``C4``, ``E5-F6xG7`` or ``E5-F6`` (case-insensitive). Checks the
        shape only; ``Board.parse_move`` checks legality."""
        if not isinstance(text, str):
            raise HingeError(f"a move is text like C4 or E5-F6xG7, not {type(text).__name__}")
        m = _MOVE_RE.fullmatch(text)
        if not m:
            shown = text if len(text) <= 40 else text[:40] + "..."
            raise HingeError(
                f"cannot read move {shown!r}: write a placement like C4 or a swipe like E5-F6xG7"
            )
        first, second, third = m.groups()
        if second is None:
            return cls(to=first)
        return cls(to=second, frm=first, target=third)


#: Decoded moves by (cells of the board, move code): a Move is immutable, and checking
#: its cell names costs microseconds, paid for every legal move of every position a
#: search or a game lists (a 0.01 s search lists its root's moves twice).
_MOVES_OF_CODES: dict = {}
_MOVES_OF_CODES_MAX = 1 << 16


def _move_of_code(names, code) -> Move:
    key = (len(names), int(code))  # the number of cells fixes the side
    move = _MOVES_OF_CODES.get(key)
    if move is not None:
        return move
    frm, to, target = decode_move_code(code)  # the layout: core/movecode.py
    if target is None:
        move = Move(to=names[to])
    else:
        move = Move(to=names[to], frm=names[frm], target=names[target])
    if len(_MOVES_OF_CODES) >= _MOVES_OF_CODES_MAX:
        _MOVES_OF_CODES.clear()
    _MOVES_OF_CODES[key] = move
    return move


def _normal_cell(name):
    return None if name is None else name[0] + str(int(name[1:]))


class Termination(enum.Enum):
    """Why a game ended. ``str()`` is the text used in records and messages.

    ``ELIMINATION`` and ``NO_LEGAL_MOVE`` are the two endings of rules.md section 6;
    ``MAX_PLIES`` is a game runner giving up on a game after its ply cap (no winner);
    ``TIME_FORFEIT`` a game runner ending a game whose side to move ran out of time
    (the other side wins). The last four are forfeits of an external engine, its
    opponent winning: it ended or crashed (``ENGINE_CRASH``), answered a move that is
    illegal or unreadable (``ILLEGAL_MOVE``), wrote more output than an answer may hold
    (``OUTPUT_FLOOD``), or refused or garbled a command that was not a move
    (``ENGINE_ERROR``).
    """

    ELIMINATION = "elimination"
    NO_LEGAL_MOVE = "no legal move"
    MAX_PLIES = "max plies"
    TIME_FORFEIT = "time forfeit"
    ENGINE_CRASH = "engine crash"
    ILLEGAL_MOVE = "illegal move"
    OUTPUT_FLOOD = "output flood"
    ENGINE_ERROR = "engine error"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text) -> Termination:
        """The termination written ``text`` (``'elimination'``, ``'no legal move'``...)."""
        if isinstance(text, cls):
            return text
        for t in cls:
            if str(text).strip().lower() in (t.value, t.name.lower()):
                return t
        raise HingeError(f"unknown termination {text!r}: choose {', '.join(t.value for t in cls)}")


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: ``winner`` and ``termination`` (rules.md section 6);
    ``reason`` is the termination as text (``'elimination'`` or ``'no legal move'``).

    >>> Outcome(Color.BLUE, Termination.ELIMINATION).reason
    'elimination'
    """

    winner: Color
    termination: Termination

    def __post_init__(self):
        object.__setattr__(self, "termination", Termination.parse(self.termination))

    @property
    def reason(self) -> str:
        return self.termination.value

    def __str__(self) -> str:
        return f"{self.winner} wins by {self.reason}"


def as_bitboard(words) -> tuple:
    """A bitboard of np.uint64 words: numba returns uint64 words as Python ints, and
    kernels must get np.uint64 back."""
    return tuple(np.uint64(w) for w in words)


def bitboard_cells(bitboard) -> list[int]:
    """Cell indices set in a bitboard, in increasing ((c, r)) order."""
    out = []
    for w, word in enumerate(bitboard):
        word = int(word)
        while word:
            low = word & -word
            out.append(64 * w + low.bit_length() - 1)
            word ^= low
    return out


def group_labels(size: int, bitboard) -> np.ndarray:
    """The group number of each cell of side ``size`` holding a token of ``bitboard``
    (-1 where there is none), from 0 in the order of the groups' lowest cells: the
    kernels' flood fill (``moves.group_labels``)."""
    labels = np.full(geometry(size).n_cells, -1, dtype=np.int64)
    _kernels().group_labels(size, tuple(np.uint64(int(w)) for w in bitboard), labels)
    return labels


def group_cells(size: int, bitboard, cell: int) -> set:
    """The cells of the group of ``bitboard``'s tokens that holds ``cell``."""
    labels = group_labels(size, bitboard)
    return set(np.flatnonzero(labels == labels[cell]).tolist())


def play_bitboards(own, enemy, code, flipped) -> tuple:
    """``(their tokens, our tokens)`` after the move of code ``code`` by the side owning
    ``own``, flipping the bitboard ``flipped`` (zero for a placement)."""
    frm, to, _ = decode_move_code(code)
    flipped = [int(w) for w in flipped]
    ours = [int(w) for w in own]
    theirs = [int(w) ^ f for w, f in zip(enemy, flipped)]
    ours[frm >> 6] &= ~(1 << (frm & 63))  # a placement has from == to
    ours[to >> 6] |= 1 << (to & 63)
    return as_bitboard(theirs), as_bitboard(w | f for w, f in zip(ours, flipped))


def flips_as_bitboards(size, codes, sets) -> np.ndarray:
    """The flipped groups of a move list (``sets``: rows of shift-layout sets, as
    ``moves.legal_moves`` writes them) as bitboards, uint64 ``[n, NWORDS]``."""
    out = np.zeros((len(codes), NWORDS), dtype=np.uint64)
    _kernels().bitboard_flips(size, np.asarray(codes, dtype=np.int64), sets, len(codes), out)
    return out


class _MoveBuffers:
    """Per-board scratch for the move generator (allocated once per board)."""

    def __init__(self):
        self.moves = np.zeros(MAX_MOVES, dtype=np.int64)
        self.flips = np.zeros((MAX_MOVES, SHIFT_WORDS), dtype=np.uint64)
        self.scratch = np.zeros((SCRATCH_ROWS, SHIFT_WORDS), dtype=np.uint64)
        self.group_of_bit = np.zeros(GROUP_SLOTS, dtype=np.int16)


class Board:
    """A Hinge position plus the moves that led to it.

    ``Board()`` is the empty side-6 board with Green to move; ``Board(size=S)`` the
    empty board of side S (4 to 9); ``Board.from_fen(text)`` any position string.
    """

    def __init__(self, size: int = DEFAULT_SIZE):
        self.size = check_size(size)
        self._geo = geometry(self.size)
        self._green = self._blue = tuple(self._geo.mask_of(()))
        self.turn = Color.GREEN
        self.move_stack: list[Move] = []
        self._undo: list[tuple] = []
        self._buffers: _MoveBuffers | None = None
        # (codes, flips, {Move: index} or None) for the current position
        self._legal: tuple[np.ndarray, np.ndarray, dict[Move, int] | None] | None = None

    # ----- construction and position strings ---------------------------------------
    @classmethod
    def from_fen(cls, text: str) -> Board:
        """The position of a position string (rules.md section 7)."""
        parsed = parse_fen(text)
        board = cls(parsed.size)
        board._green = tuple(board._geo.mask_of(parsed.green))
        board._blue = tuple(board._geo.mask_of(parsed.blue))
        board.turn = Color(parsed.turn)
        return board

    def fen(self) -> str:
        """The position string of the current position."""
        return format_fen(
            self.size, bitboard_cells(self._green), bitboard_cells(self._blue), self.turn
        )

    def copy(self) -> Board:
        board = Board(self.size)
        board._green, board._blue, board.turn = self._green, self._blue, self.turn
        board.move_stack = list(self.move_stack)
        board._undo = list(self._undo)
        return board

    def __eq__(self, other) -> bool:
        return isinstance(other, Board) and self.fen() == other.fen()

    def __hash__(self) -> int:
        return hash(self.fen())

    def __repr__(self) -> str:
        return f"Board.from_fen({self.fen()!r})"

    # ----- contents -------------------------------------------------------------------
    def tokens(self, color: Color) -> list[str]:
        """Cell names of the tokens of one colour, in (c, r) order."""
        bitboard = self._green if color == Color.GREEN else self._blue
        return [self._geo.names[c] for c in bitboard_cells(bitboard)]

    def token_count(self, color: Color) -> int:
        return sum(
            int(w).bit_count() for w in (self._green if color == Color.GREEN else self._blue)
        )

    def piece_at(self, cell: str) -> Color | None:
        """The colour of the token on ``cell`` ('C4'), or None if it is empty."""
        index = self._geo.parse_cell(cell)
        for color, bitboard in ((Color.GREEN, self._green), (Color.BLUE, self._blue)):
            if int(bitboard[index >> 6]) >> (index & 63) & 1:
                return color
        return None

    def groups(self, color: Color) -> list[list[str]]:
        """The groups of one colour, each a list of cell names, in (c, r) order."""
        labels = group_labels(self.size, self._green if color == Color.GREEN else self._blue)
        groups: dict[int, list[int]] = {}
        for cell in np.flatnonzero(labels >= 0).tolist():
            groups.setdefault(int(labels[cell]), []).append(cell)
        return [[self._geo.names[c] for c in cells] for cells in sorted(groups.values())]

    def _sides(self) -> tuple[tuple, tuple]:
        """(tokens of the side to move, tokens of the other side)."""
        return (self._green, self._blue) if self.turn == Color.GREEN else (self._blue, self._green)

    # ----- the low-level face (bitboards, move codes, keys) -------------------------------
    @property
    def green(self) -> tuple:
        """Green's bitboard: ``NWORDS`` np.uint64 words (bit layout: ``core/geometry.py``)."""
        return self._green

    @property
    def blue(self) -> tuple:
        """Blue's bitboard."""
        return self._blue

    @property
    def own(self) -> tuple:
        """The bitboard of the side to move."""
        return self._sides()[0]

    @property
    def enemy(self) -> tuple:
        """The bitboard of the side not to move."""
        return self._sides()[1]

    def bitboard(self, color: Color) -> tuple:
        """The bitboard of ``color``."""
        return self._green if color == Color.GREEN else self._blue

    @property
    def geometry(self):
        """The board's ``core.geometry.Geometry``: cell names, coordinates, neighbours."""
        return self._geo

    def cells_of(self, bitboard) -> list[str]:
        """Names of the cells set in ``bitboard``, in (c, r) order."""
        return [self._geo.names[c] for c in bitboard_cells(bitboard)]

    @property
    def legal_codes(self) -> np.ndarray:
        """The move generator's codes of the legal moves (int64, read-only; swipes
        first, in generation order). Empty when the game is over."""
        return self._generate()[0]

    @property
    def legal_flips(self) -> np.ndarray:
        """Row i: the bitboard of the enemy group ``legal_codes[i]`` flips (zero for a
        placement); uint64 ``[n, NWORDS]``, read-only."""
        return self._generate()[1]

    def move_from_code(self, code) -> Move:
        """The Move of a move generator code on this board's geometry."""
        return self._decode(code)

    def code_of(self, move: Move | str) -> int:
        """The move generator code of a legal move (Move or notation); HingeError if
        it is not legal here."""
        if isinstance(move, str):
            move = Move.from_str(move)
        return int(self._generate()[0][self._find(move)])

    @property
    def zobrist_key(self) -> int:
        """The 64-bit Zobrist key of the position (tokens and side to move), as the
        searchers' transposition table sees it."""
        return int(
            _kernels().zobrist_hash(self.size, self._green, self._blue, self.turn == Color.BLUE)
        )

    def load_kernels(self) -> None:
        """Load the compiled kernels a board uses (its key, its moves, playing one) from
        numba's cache now, or compile them: once a process, a few tens of milliseconds.
        A search calls it before its clock starts, so that its first result does not pay
        for them."""
        if _LOADED:
            return
        probe = self.copy()
        probe.zobrist_key
        moves = probe.legal_moves
        if moves:
            probe.push(moves[0])
            probe.history_keys()
        _LOADED.append(True)

    def history_keys(self) -> list[int]:
        """The Zobrist keys of the positions before this one in ``move_stack``, oldest
        first (for repetition checks)."""
        zobrist_hash = _kernels().zobrist_hash
        return [
            int(zobrist_hash(self.size, green, blue, turn == Color.BLUE))
            for green, blue, turn, _ in self._undo
        ]

    def perft(self, depth: int) -> int:
        """Leaf count of the legal move tree ``depth`` plies deep (rules.md section 8).

        >>> Board(4).perft(2)
        258
        """
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise HingeError(f"perft depth must be a whole number, at least 0, not {depth!r}")
        if depth == 0:
            return 1
        if depth == 1:
            return len(self.legal_codes)

        own, enemy = self._sides()
        return int(_kernels().perft_kernel(self.size, own, enemy, depth, True, workspace(depth)))

    def play_code(self, code) -> None:
        """Play the legal move of generator code ``code`` (faster than ``push`` for
        callers that already hold codes)."""
        hits = np.flatnonzero(self._generate()[0] == int(code))
        if len(hits) == 0:
            raise HingeError(f"move code {int(code)} is not a legal move here")
        self._play(int(hits[0]))

    # ----- moves ------------------------------------------------------------------------
    def _generate(self) -> tuple[np.ndarray, np.ndarray, dict[Move, int] | None]:
        if self._legal is None:
            b = self._buffers = self._buffers or _MoveBuffers()
            own, enemy = self._sides()
            n = _kernels().legal_moves(
                self.size, own, enemy, b.moves, b.flips, b.scratch, b.group_of_bit
            )
            codes = b.moves[:n].copy()
            flips = flips_as_bitboards(self.size, codes, b.flips)
            codes.flags.writeable = False
            flips.flags.writeable = False
            self._legal = (codes, flips, None)  # the index by Move: made when asked
        return self._legal

    def _move_index(self) -> dict:
        """{Move: its index in the legal codes}, made once per position (decoding
        every move costs more than generating them)."""
        codes, flips, index = self._generate()
        if index is None:
            index = {self._decode(code): i for i, code in enumerate(codes)}
            self._legal = (codes, flips, index)
        return index

    def _decode(self, code) -> Move:
        return _move_of_code(self._geo.names, code)

    @property
    def legal_moves(self) -> list[Move]:
        """The distinct legal moves, sorted by cells in (c, r) order (placements by
        their cell, swipes by from, to and target). Empty when the game is over."""
        geo = self._geo

        def key(move):
            cells = (move.frm or move.to, move.to, move.target or "")
            return tuple(geo.coords[geo.parse_cell(c)] if c else (-1, -1) for c in cells)

        return sorted(self._move_index(), key=key)

    def is_legal(self, move: Move) -> bool:
        try:
            self._find(move)
        except HingeError:
            return False
        return True

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text`` in this position, canonical target filled
        in; HingeError if it is malformed or illegal. The target may be any cell of
        the flipped group, or left out when one enemy group touches the destination.
        """
        return self._decode(self._generate()[0][self._find(Move.from_str(text))])

    def _find(self, move: Move) -> int:
        """Index of ``move`` in the legal move list; HingeError if it is not legal."""
        if not isinstance(move, Move):
            raise HingeError(f"not a move: {move!r}")
        index = self._move_index()
        codes, flips, _ = self._generate()
        if move in index:
            return index[move]
        geo = self._geo
        cells = [geo.parse_cell(c) for c in (move.frm, move.to, move.target) if c is not None]
        if self.is_game_over():
            raise HingeError(f"illegal move {move}: the game is over ({self.outcome()})")
        if not move.is_swipe:
            raise HingeError(f"illegal move {move}: {self._why_not_placement(cells[0])}")
        candidates = [i for m, i in index.items() if m.frm == move.frm and m.to == move.to]
        if move.frm is None or self.piece_at(move.frm) != self.turn:
            raise HingeError(f"illegal move {move}: no {self.turn} token on {move.frm} to swipe")
        if not candidates:
            raise HingeError(
                f"illegal move {move}: no swipe takes the token on {move.frm} to {move.to}"
            )
        if move.target is None:
            if len(candidates) > 1:
                options = ", ".join(sorted(str(self._decode(codes[i])) for i in candidates))
                raise HingeError(f"ambiguous move {move}: say which group to flip ({options})")
            return candidates[0]
        target = geo.parse_cell(move.target)
        for i in candidates:
            if int(flips[i][target >> 6]) >> (target & 63) & 1:
                return i
        raise HingeError(
            f"illegal move {move}: {move.target} is not in an enemy group the swipe can flip"
        )

    def _why_not_placement(self, cell: int) -> str:
        name = self._geo.names[cell]
        if not self._geo.is_interior(cell):
            return f"{name} is an edge cell"
        if self.piece_at(name) is not None:
            return f"{name} is occupied"
        return f"a token on {name} would be a singleton touching an enemy token"

    def push(self, move: Move | str) -> None:
        """Play a legal move (a Move or its notation); HingeError if it is not legal."""
        if isinstance(move, str):
            move = Move.from_str(move)
        self._play(self._find(move))

    def _play(self, i: int) -> None:
        """Play the legal move of index ``i`` in the legal codes."""
        codes, flips, _ = self._generate()
        canonical = self._decode(codes[i])
        own, enemy = self._sides()
        their, ours = play_bitboards(own, enemy, codes[i], flips[i])
        # (green, blue, turn, legal-move cache); the cache is dropped so that a long
        # game's history stays small: pop regenerates the moves when asked.
        self._undo.append((self._green, self._blue, self.turn, None))
        self.move_stack.append(canonical)
        if self.turn == Color.GREEN:
            self._green, self._blue = ours, their
        else:
            self._blue, self._green = ours, their
        self.turn = self.turn.other
        self._legal = None

    def push_str(self, text: str) -> None:
        """``board.push_str("E5-F6")``: parse and play a move in notation."""
        self.push(Move.from_str(text))

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self._undo:
            raise HingeError("no move to take back")
        self._green, self._blue, self.turn, self._legal = self._undo.pop()
        return self.move_stack.pop()

    def peek(self) -> Move:
        if not self.move_stack:
            raise HingeError("no move has been played")
        return self.move_stack[-1]

    # ----- end of the game ---------------------------------------------------------------
    def is_eliminated(self) -> bool:
        """The side to move has no tokens while the board holds two or more."""
        own, enemy = self._sides()
        return not any(own) and sum(int(w).bit_count() for w in enemy) >= 2

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def outcome(self) -> Outcome | None:
        """None while the game goes on, else the winner and the reason
        (rules.md section 6: elimination; a player with no legal move loses)."""
        if self.is_eliminated():
            return Outcome(self.turn.other, Termination.ELIMINATION)
        if len(self._generate()[0]) == 0:
            return Outcome(self.turn.other, Termination.NO_LEGAL_MOVE)
        return None

    # ----- pictures ------------------------------------------------------------------------
    def __str__(self) -> str:
        return draw(self)

    def _repr_svg_(self) -> str | None:
        """The board as SVG, for Jupyter: drawn by ``hinge_fast.analysis.svg.board``, which
        ``import hinge_fast`` sets as the drawer (:func:`set_svg_drawer`)."""
        return None if _SVG_DRAWER is None else _SVG_DRAWER(self)


def draw(board: Board, color: bool = False) -> str:
    """ASCII drawing of the hex board, top row first, with row numbers on the left
    and column letters below the lower rim. ``g``/``b`` are tokens, ``.`` empty
    interior cells, ``-`` edge cells. With ``color``, ANSI colours for a terminal."""
    size, geo = board.size, board._geo
    green, blue = set(bitboard_cells(board._green)), set(bitboard_cells(board._blue))
    top = 2 * size - 2
    margin = 4

    def column(c, r):
        return margin + 2 * c - r + size - 1

    width = column(top, size - 1) + 4
    lines = []
    for r in range(top, -2, -1):
        line = [" "] * width
        for c in range(top + 1):
            if r >= 0 and (c, r) in geo.index:
                cell = geo.index[(c, r)]
                line[column(c, r)] = (
                    "g"
                    if cell in green
                    else "b"
                    if cell in blue
                    else "."
                    if geo.is_interior(cell)
                    else "-"
                )
            elif (
                (c, r + 1) in geo.index
                and (c, r) not in geo.index
                and (c, r + 1) == min((cr for cr in geo.coords if cr[0] == c), key=lambda cr: cr[1])
            ):
                line[column(c, r)] = chr(ord("A") + c)
        if r >= 0:
            label = str(r + 1)
            first = column(min(cr[0] for cr in geo.coords if cr[1] == r), r)
            start = first - 2 - len(label) + 1
            line[start : start + len(label)] = list(label)
        text = "".join(line).rstrip()
        if color:
            text = text.replace("g", "\x1b[1;32mg\x1b[0m").replace("b", "\x1b[1;34mb\x1b[0m")
        lines.append(text)
    to_move = f"{board.turn} to move"
    return "\n".join(lines) + "\n" + to_move
