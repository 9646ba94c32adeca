"""Opening books: read them, order them for a match, and make balanced ones.

A book file is text, one entry per line: a position string (rules.md section 7), the
position a pair of games starts from. Blank lines and lines starting with ``#`` are
skipped. A file of game records (``records/record.py``: it starts with a ``[`` tag line)
is a book too: each game is an entry, its moves up to ``plies`` (all of them by default)
played from its start. Every entry must be of the match's side and leave the game going.

    >>> book = parse_book("# two entries\\n4/5/6/7/6/1g3/4 b\\n4/5/6/7/6/5/4 g\\n", "b.txt")
    >>> len(book), book.entries[0].start
    (2, '4/5/6/7/6/1g3/4 b')
    >>> [book.entry(i, 7, "sequential").start[-1] for i in range(3)]
    ['b', 'g', 'b']

In a match, pair ``i`` of games starts from entry ``book.entry(i, seed, order)``:
``sequential`` takes the entries in file order, ``random`` in an order shuffled by the
match seed, a new shuffle each time through the book; both games of a pair get the same
entry. The shipped books (``data/books/sideS.txt``, one per side, made by ``hinge-fast
book``) are the match's default.

Making a book (:func:`make_book`): positions after ``plies`` uniformly random plies from
the empty board, kept when close to even, and never two that are images of each other
under the board's 12 symmetries (with the colours as they are). Close to even on side 4
is decided exactly by the tablebase when one is given: the side to move wins, but only
``max_winning_share`` of its moves or fewer keep the win (a pair is only informative
where a mistake can change the result). Elsewhere, and on side 4 without a tablebase,
by a short alpha-beta search: the score for the side to move is no proven result and
within ``margin`` centi-tokens of the median score of the positions drawn (the side to
move leads by a few tokens in every opening, its tempo: even means no more than that).
"""

from __future__ import annotations

import hashlib
import os
import random as _random
from dataclasses import dataclass
from pathlib import Path

from ..board import Board, bitboard_cells
from ..core.geometry import check_size
from ..core.symmetry import symmetry_permutations
from ..errors import HingeError
from ..records.files import read_text_file, reading
from ..search import Limits, create_searcher
from ..search.tablebase import probe
from .positions import random_position

#: Where the shipped books are: ``side4.txt`` to ``side9.txt``.
BOOKS_DIR = Path(__file__).resolve().parent.parent / "data" / "books"
ORDERS = ("random", "sequential")
#: The words that ask for no book (random openings).
NO_BOOK = ("none", "off")
MAX_BOOK_BYTES = 64 * 2**20
#: Defaults of ``make_book``.
DEFAULT_BOOK_PLIES = 6
DEFAULT_MARGIN = 100
DEFAULT_BOOK_DEPTH = 3
DEFAULT_WINNING_SHARE = 0.5


@dataclass(frozen=True)
class BookEntry:
    """One opening: ``start`` (a position string) and ``moves`` played from it;
    ``where``: where it is in the file (``'line 3'``, ``'game 2 (line 9)'``)."""

    start: str
    moves: tuple = ()
    where: str = ""

    def board(self) -> Board:
        board = Board.from_fen(self.start)
        for move in self.moves:
            board.push(move)
        return board


@dataclass(frozen=True)
class Book:
    """The entries of a book file, its ``name`` and a ``digest`` of its entries (a
    resumed match checks that the book is the same)."""

    entries: tuple
    name: str
    digest: str

    def __len__(self) -> int:
        return len(self.entries)

    def entry(self, pair: int, seed: int, order: str = "random") -> BookEntry:
        """The entry of pair ``pair`` (from 0) of a match with this seed."""
        n = len(self.entries)
        if order == "sequential":
            return self.entries[pair % n]
        round_, at = divmod(pair, n)
        indices = list(range(n))
        _random.Random(f"book {seed} {round_}").shuffle(indices)
        return self.entries[indices[at]]

    def tag(self, order: str) -> str:
        """The book as the match file's ``Book`` tag: name, digest, order."""
        return f"{self.name} {self.digest} {order}"


def check_order(order: str) -> str:
    key = str(order).strip().lower()
    if key not in ORDERS:
        raise HingeError(f"book order must be {' or '.join(ORDERS)}, not {str(order)[:40]!r}")
    return key


def default_book_path(size: int) -> Path:
    """The shipped book of side ``size``."""
    return BOOKS_DIR / f"side{size}.txt"


def read_book(path, size: int | None = None, plies: int | None = None) -> Book:
    """The book in file ``path`` (format in the module docstring); ``size``: the side
    every entry must have; ``plies``: how much of each game of a record file to play.
    HingeError (one line, naming the file and line) for a missing, empty or bad file."""
    text = read_text_file(path, "book", MAX_BOOK_BYTES)
    with reading(f"book {path}"):
        return parse_book(text, str(path), size, plies)


def parse_book(
    text: str, name: str = "book", size: int | None = None, plies: int | None = None
) -> Book:
    """The book in ``text`` (as :func:`read_book`; ``name`` names it in messages)."""
    body = [line.strip() for line in text.splitlines()]
    first = next((line for line in body if line and not line.startswith("#")), None)
    if first is None:
        raise HingeError(f"book {name} holds no position")
    if first.startswith("["):
        entries = _record_entries(text, name, plies)
    else:
        if plies is not None:
            raise HingeError(
                f"book {name} holds position strings: a ply to cut at is for books of game records"
            )
        entries = []
        for number, line in enumerate(body, start=1):
            if not line or line.startswith("#"):
                continue
            try:
                Board.from_fen(line)
            except HingeError as e:
                raise HingeError(f"book {name} line {number}: {e}") from None
            entries.append(BookEntry(line, (), f"line {number}"))
    for entry in entries:
        board = entry.board()
        if size is not None and board.size != size:
            raise HingeError(
                f"book {name} {entry.where}: a side-{board.size} position, not of side {size}"
            )
        if board.is_game_over():
            raise HingeError(
                f"book {name} {entry.where}: the game is over there ({board.outcome()})"
            )
    digest = hashlib.sha256(
        "\n".join(f"{e.start};{' '.join(e.moves)}" for e in entries).encode()
    ).hexdigest()[:12]
    return Book(tuple(entries), os.path.basename(name), digest)


def _record_entries(text: str, name: str, plies: int | None) -> list:
    from ..records.record import parse_records  # not at the CLI's start-up

    try:
        records = parse_records(text)
    except HingeError as e:
        raise HingeError(f"book {name}: {e}") from None
    lines = _game_lines(text)
    entries = []
    for number, record in enumerate(records, start=1):
        where = f"game {number}" + (
            f" (line {lines[number - 1]})" if number - 1 < len(lines) else ""
        )
        moves = record.moves if plies is None else record.moves[:plies]
        if plies is not None and len(record.moves) < plies:
            raise HingeError(
                f"book {name} {where} has {len(record.moves)} moves, fewer than {plies}"
            )
        start = record.start if record.start is not None else Board(record.size).fen()
        entries.append(BookEntry(start, tuple(moves), where))
    return entries


def _game_lines(text: str) -> list:
    """The line number of each game's first line in record text."""
    lines = []
    in_game = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith("[") and not in_game:
            lines.append(number)
            in_game = True
        elif line.strip() and not line.strip().startswith("["):
            in_game = False
    return lines


# ----- making a book ----------------------------------------------------------------------------
def symmetry_key(board: Board) -> tuple:
    """The same for a position and its images under the board's 12 symmetries (6
    rotations, each with or without a reflection; colours and side to move kept): the
    least of the 12 images' (green cells, blue cells)."""
    perms = _permutations(board.size, symmetry_permutations)
    green, blue = bitboard_cells(board.green), bitboard_cells(board.blue)
    images = (
        (tuple(sorted(int(p[c]) for c in green)), tuple(sorted(int(p[c]) for c in blue)))
        for p in perms
    )
    return (board.size, int(board.turn), min(images))


_PERMS: dict = {}


def _permutations(size, make):
    if size not in _PERMS:
        _PERMS[size] = [list(row) for row in make(size)]
    return _PERMS[size]


def is_balanced(board: Board, tablebase, max_winning_share: float = DEFAULT_WINNING_SHARE) -> bool:
    """Whether the side-4 ``board`` is balanced by the ``tablebase`` (an open
    ``Tablebase``): the side to move wins, but with ``max_winning_share`` of its
    moves or fewer (module docstring)."""
    value = probe(board, tablebase)
    winning = sum(m.win for m in value.moves)
    return value.win and winning <= max_winning_share * len(value.moves)


def make_book(
    size: int,
    positions: int,
    plies: int = DEFAULT_BOOK_PLIES,
    seed: int = 1,
    *,
    depth: int = DEFAULT_BOOK_DEPTH,
    margin: int = DEFAULT_MARGIN,
    tablebase=None,
    candidates: int = 3,
    max_tries: int | None = None,
    progress=None,
) -> list:
    """Position strings of up to ``positions`` balanced openings of side ``size``
    (module docstring), in the order drawn: after ``plies`` random plies drawn from
    ``seed``, no two symmetric.

    By search (every side, unless side 4 has a ``tablebase``): ``candidates`` times
    ``positions`` distinct positions are scored by alpha-beta at ``depth``; those with
    a proven result are dropped; the others' scores are compared with their median (an
    opening favours the side to move by a few tokens on every side: the tempo), and the
    ``positions`` closest to it, within ``margin`` centi-tokens, are kept. By the
    side-4 tablebase: the first ``positions`` positions :func:`is_balanced` accepts.

    ``max_tries``: random positions drawn at most (default 50 per position asked);
    ``progress(found, tried)`` is called after each. HingeError when none is found."""
    import statistics  # not at the CLI's start-up

    size = check_size(size)
    for name, value, low in (
        ("plies", plies, 0),
        ("positions", positions, 1),
        ("depth", depth, 1),
        ("margin", margin, 0),
        ("candidates", candidates, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise HingeError(f"{name} must be a whole number of at least {low}, not {value!r}")
    exact = tablebase is not None and size == 4
    wanted = positions if exact else candidates * positions
    tries = 50 * positions if max_tries is None else max_tries
    searcher = (
        None if exact else create_searcher("alphabeta", table_mb=16, threads=1, tablebase="off")
    )
    rng = _random.Random(seed)
    seen = set()
    found: list[tuple[str, int | None]] = []  # (fen, centi-tokens or None)
    for tried in range(1, tries + 1):
        board = random_position(size, plies, rng)
        if board.is_game_over() or len(board.move_stack) < plies:
            continue
        key = symmetry_key(board)
        if key in seen:
            continue
        seen.add(key)
        if exact:
            if is_balanced(board, tablebase):
                found.append((board.fen(), None))
        else:
            assert searcher is not None  # made whenever not exact
            score = searcher.go(board, Limits(depth=depth)).score
            if score.mate is None and score.centi_tokens is not None:
                found.append((board.fen(), score.centi_tokens))
        if progress is not None:
            progress(len(found), tried)
        if len(found) >= wanted:
            break
    if not exact and found:
        # searched positions all have a score (None is for tablebase ones), so
        # scores[i] is found[i]'s
        scores = [c for _, c in found if c is not None]
        middle = statistics.median(scores)
        closest = sorted(range(len(found)), key=lambda i: (abs(scores[i] - middle), i))
        keep = sorted(i for i in closest[:positions] if abs(scores[i] - middle) <= margin)
        found = [found[i] for i in keep]
    if not found:
        raise HingeError(
            f"no balanced position of side {size} after {plies} plies in {tries} tries: "
            "allow a larger margin or fewer plies"
        )
    return [fen for fen, _ in found]


def book_text(fens, header: str = "") -> str:
    """A book file: ``header`` as ``#`` lines, then one position string a line."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    return "\n".join(lines + list(fens)) + "\n"
