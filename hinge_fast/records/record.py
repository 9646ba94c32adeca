"""Game records: a PGN-like text format for Hinge games, read and written.

A record is tag lines, a blank line, then the moves::

    [Green "alphabeta"]
    [Blue "mcts"]
    [Size "6"]
    [Result "green"]
    [Termination "elimination"]

    1. F6 E5 2. G7 {a comment} D4 ... green

* Tags are ``[Name "value"]``, one per line; a name is letters, digits and ``_``; in the
  value, ``\\"`` is a quote and ``\\\\`` a backslash. ``Size`` (default 6) and ``Start`` (a
  position string; default the empty board) say where the game starts; ``Result`` is
  ``green``, ``blue`` or ``unfinished``; ``Termination`` says why it ended
  (``elimination``, ``no legal move``, ``max plies``, or any other reason such as
  ``resignation``). Every other tag (``Date``, ``Round``, ``Event``...) is kept as is.
* Moves are in rules.md notation, numbered per Green+Blue pair: ``1. F6 E5 2. ...``;
  a game starting with Blue to move begins ``1... E5``. Numbers are optional; when
  present they must be right. ``{...}`` comments may appear anywhere in the moves, and
  ``;`` comments out the rest of a line.
* The movetext ends with the result token (``green``, ``blue``, ``unfinished``).
* A file holds any number of games, separated by blank lines.

Reading replays every game and checks it (a HingeError names the game, the ply and the
move):

* every move must be legal; moves are stored in canonical notation (target filled in);
* the result must agree with the final position: a finished game (elimination or no
  legal move) must name its winner; ``unfinished`` is only valid while the game goes on;
  ``green``/``blue`` on a game that goes on are accepted only with a ``Termination`` tag
  giving another reason (``resignation``, ``time forfeit``, ``adjudication``...);
* ``Termination`` ``elimination`` or ``no legal move`` must be what actually happened;
* the ``Result`` tag and the result token, when both are present, must agree.

    >>> from hinge_fast.records.record import GameRecord, format_record, parse_records
    >>> record = GameRecord(size=4, moves=["C3", "D5"], tags={"Green": "me", "Blue": "you"})
    >>> print(format_record(record))
    [Green "me"]
    [Blue "you"]
    [Size "4"]
    [Result "unfinished"]
    <BLANKLINE>
    1. C3 D5 unfinished
    <BLANKLINE>
    >>> parse_records(format_record(record))[0].moves
    ['C3', 'D5']
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import NoReturn

from ..board import Board, Termination
from ..core.fen import parse_fen
from ..core.geometry import DEFAULT_SIZE, check_size
from ..errors import HingeError
from .files import read_text_file, reading, write_atomic

RESULTS = ("green", "blue", "unfinished")
#: Terminations that the final position itself shows; checked on reading.
POSITION_TERMINATIONS = (Termination.ELIMINATION.value, Termination.NO_LEGAL_MOVE.value)
MAX_PLIES_TERMINATION = Termination.MAX_PLIES.value
#: Tags written first, in this order; any others follow in their own order.
TAG_ORDER = (
    "Event",
    "Site",
    "Date",
    "Round",
    "Green",
    "Blue",
    "Size",
    "Start",
    "Result",
    "Termination",
)
LINE_WIDTH = 79

_TAG_LINE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*')
_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
_NUMBER = re.compile(r"([0-9]+)(\.\.\.|\.)(.*)")


@dataclass
class GameRecord:
    """One game: board side, moves in notation, tags, and the start position.

    ``size``: board side; ``moves``: list of move strings (``'F6'``, ``'E5-F6xG7'``;
    Move objects are turned into strings); ``tags``: every tag except ``Size`` and
    ``Start`` (those are ``size`` and ``start``); ``start``: a position string, or None
    for the empty board; ``comments``: ``{ply: text}``, a comment written after ``ply``
    moves (0: before the first move).

    >>> r = GameRecord(6, ["F6", "E5"], {"Result": "unfinished"})
    >>> r.board_at(1).fen()
    '6/7/8/9/10/5g5/10/9/8/7/6 b'
    """

    size: int = DEFAULT_SIZE
    moves: list[str] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    start: str | None = None
    comments: dict[int, str] = field(default_factory=dict)

    def __post_init__(self):
        self.moves = [str(m) for m in self.moves]
        self.tags = {str(k): str(v) for k, v in dict(self.tags).items()}
        for name in self.tags:
            if not _TAG_NAME.fullmatch(name):
                raise HingeError(f"tag name {name!r} must be letters, digits or _")
        size_tag = self.tags.pop("Size", None)
        start_tag = self.tags.pop("Start", None)
        if self.start is None and start_tag is not None:
            self.start = start_tag
        if self.start is not None:
            start_size = parse_fen(self.start).size
            if self.size != start_size and self.size != DEFAULT_SIZE:
                raise HingeError(
                    f"size {self.size} disagrees with the start position, of side {start_size}"
                )
            self.size = start_size
        if size_tag is not None and _int_or_none(size_tag) != self.size:
            raise HingeError(f"Size tag {size_tag!r} disagrees with the board side {self.size}")
        self.size = check_size(self.size)
        if "Result" in self.tags and self.tags["Result"] not in RESULTS:
            raise HingeError(
                f"Result must be green, blue or unfinished, not {self.tags['Result']!r}"
            )

    # ----- replay ------------------------------------------------------------------------
    def start_board(self):
        """The Board the game starts from."""
        return Board(self.size) if self.start is None else Board.from_fen(self.start)

    def board_at(self, ply: int | None = None):
        """The Board after ``ply`` moves (default: all of them), with the moves on its
        ``move_stack``; HingeError names the ply and move if one is illegal."""
        if ply is None:
            ply = len(self.moves)
        if not isinstance(ply, int) or not 0 <= ply <= len(self.moves):
            raise HingeError(
                f"ply must be from 0 to {len(self.moves)} (the game has {len(self.moves)} moves), not {ply}"
            )
        board = self.start_board()
        for i in range(ply):
            self._push(board, i)
        return board

    def boards(self) -> list:
        """The Board before the first move and after each move: ``len(moves) + 1`` boards."""
        board = self.start_board()
        out = [board.copy()]
        for i in range(len(self.moves)):
            self._push(board, i)
            out.append(board.copy())
        return out

    def _push(self, board, i):
        try:
            board.push(board.parse_move(self.moves[i]))
        except HingeError as e:
            raise HingeError(
                f"ply {i + 1} ({move_label(board.turn, i, self.moves[i], self.starts_with_blue())}): {e}"
            ) from None

    def starts_with_blue(self) -> bool:
        return self.start is not None and self.start.split()[-1] == "b"

    def final_outcome(self):
        """The Outcome of the final position (None if the game goes on there)."""
        return self.board_at().outcome()

    @property
    def result(self) -> str:
        """``'green'``, ``'blue'`` or ``'unfinished'``: the Result tag, else what the
        final position shows."""
        if "Result" in self.tags:
            return self.tags["Result"]
        outcome = self.final_outcome()
        return "unfinished" if outcome is None else str(outcome.winner)

    @property
    def termination(self) -> str | None:
        """The Termination tag, else the reason the final position shows (or None)."""
        if "Termination" in self.tags:
            return self.tags["Termination"]
        outcome = self.final_outcome()
        return None if outcome is None else outcome.reason

    def validate(self) -> GameRecord:
        """Replay the game, put the moves in canonical notation and check the result
        and termination against the final position (rules in the module docstring).
        Returns self; HingeError names the problem."""
        board = self.start_board()
        canonical = []
        for i, text in enumerate(self.moves):
            try:
                move = board.parse_move(text)
            except HingeError as e:
                raise HingeError(
                    f"ply {i + 1} ({move_label(board.turn, i, text, self.starts_with_blue())}): {e}"
                ) from None
            board.push(move)
            canonical.append(str(move))
        self.moves = canonical
        outcome = board.outcome()
        result = self.tags.get("Result")
        termination = self.tags.get("Termination")
        if outcome is not None:
            if result is not None and result != str(outcome.winner):
                raise HingeError(f"result {result} disagrees with the final position: {outcome}")
            if termination is not None and termination != outcome.reason:
                raise HingeError(
                    f"termination {termination!r} disagrees with the final position: {outcome}"
                )
        else:
            if termination in POSITION_TERMINATIONS:
                raise HingeError(
                    f"termination {termination!r} but the game goes on in the final position"
                )
            if result in ("green", "blue") and (
                termination is None or termination == MAX_PLIES_TERMINATION
            ):
                raise HingeError(
                    f"result {result} but the game goes on in the final position "
                    "(a decided result there needs a Termination tag such as resignation)"
                )
        return self

    @classmethod
    def from_board(cls, board, **tags) -> GameRecord:
        """The record of the moves on ``board.move_stack``, from the position before
        them. ``GameRecord.from_board(board, Green="me", Blue="alphabeta")``."""
        start = board.copy()
        while start.move_stack:
            start.pop()

        empty = start.fen() == Board(board.size).fen()
        return cls(
            board.size,
            [str(m) for m in board.move_stack],
            dict(tags),
            None if empty else start.fen(),
        )


def move_label(turn, index, move, first_blue=False) -> str:
    """``'3. F6'`` or ``'3... E5'``: a move with its number, as in the movetext.
    ``index`` counts plies from 0; ``first_blue``: the game started with Blue to move."""
    ply = index + (1 if first_blue else 0)
    number = ply // 2 + 1
    return f"{number}{'.' if ply % 2 == 0 else '...'} {move}"


def _int_or_none(text):
    """The whole number ``text`` spells in ASCII digits (at most 9 of them, spaces
    around allowed), else None."""
    text = text.strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 9):
        return None
    return int(text)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


# ----- writing ----------------------------------------------------------------------------
def format_record(record: GameRecord) -> str:
    """The text of one game, ending with a newline. Result (and Termination, when the
    final position shows it) are filled in from the final position when not tagged."""
    tags = dict(record.tags)
    tags["Size"] = str(record.size)
    if record.start is not None:
        tags["Start"] = record.start
    if "Result" not in tags or ("Termination" not in tags and tags["Result"] != "unfinished"):
        outcome = record.final_outcome()
        tags.setdefault("Result", "unfinished" if outcome is None else str(outcome.winner))
        if outcome is not None:
            tags.setdefault("Termination", outcome.reason)
    ordered = [name for name in TAG_ORDER if name in tags] + [
        name for name in tags if name not in TAG_ORDER
    ]
    lines = [f'[{name} "{_escape(tags[name])}"]' for name in ordered]
    lines.append("")

    first_blue = record.starts_with_blue()
    tokens = []
    if 0 in record.comments:
        tokens.append(_comment(record.comments[0]))
    for i, move in enumerate(record.moves):
        ply = i + (1 if first_blue else 0)
        # a number stays on the line of its move
        if ply % 2 == 0:
            tokens.append(f"{ply // 2 + 1}. {move}")
        elif i == 0 or i in record.comments:
            tokens.append(f"{ply // 2 + 1}... {move}")
        else:
            tokens.append(move)
        if i + 1 in record.comments:
            tokens.append(_comment(record.comments[i + 1]))
    tokens.append(tags["Result"])
    lines.extend(_wrap(tokens))
    return "\n".join(lines) + "\n"


def _comment(text) -> str:
    return "{" + str(text).replace("{", "(").replace("}", ")") + "}"


def _wrap(tokens) -> list[str]:
    lines, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > LINE_WIDTH:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return lines


def write_records(path_or_file, records) -> None:
    """Write games to a path (created or replaced whole: ``core/atomic.py``) or an open
    text file, separated by blank lines. ``write_records("games.hgn", [record1, record2])``."""
    text = "\n".join(format_record(r) for r in records)
    if hasattr(path_or_file, "write"):
        path_or_file.write(text)
        return
    write_atomic(path_or_file, text)


def append_record(path, record) -> None:
    """Add one game at the end of the file ``path`` (created if need be) and make sure
    it is on disk (flush and fsync) before returning: a match saving its games this way
    loses at most the game being written when it is killed."""
    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(format_record(record) + "\n")
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        raise HingeError(f"cannot write {path}: {e.strerror or e}") from None


# ----- reading ----------------------------------------------------------------------------
#: The largest game record file read (a million games of side 9 take about 1 GB).
MAX_RECORD_BYTES = 2 << 30


def read_records(source) -> list[GameRecord]:
    """Games from a path, an open text file, or the text itself (anything holding a
    newline or a ``[`` is taken as text). Every game is replayed and checked."""
    with reading("the game records"):
        return parse_records(_text_of(source))


def _text_of(source) -> str:
    """The record text of a path, an open text file, or the text itself."""
    if hasattr(source, "read"):
        return source.read()
    if isinstance(source, os.PathLike) or (
        isinstance(source, str) and "\n" not in source and "[" not in source
    ):
        return read_text_file(source, "game record file", MAX_RECORD_BYTES)
    if isinstance(source, str):
        return source
    raise HingeError(f"read_records needs a path, a file or text, not {type(source).__name__}")


class _Game:
    def __init__(self, line):
        self.line = line
        self.tags: dict[str, str] = {}
        self.moves: list[str] = []
        self.numbers: list[tuple[int, str, int]] = []  # (move index, number token, line)
        self.comments: dict[int, list[str]] = {}  # joined once, when the game is built
        self.result_token: str | None = None
        self.in_moves = False

    @property
    def empty(self):
        return not self.tags and not self.moves and self.result_token is None and not self.comments


def parse_records(text: str) -> list[GameRecord]:
    """Games from record text (format in the module docstring), replayed and checked.
    HingeError names the game (and line, ply and move) at the first problem."""
    records = []
    for number, g in enumerate(_scan(text), start=1):
        records.append(_build_numbered(g, number))
    return records


def read_record(source, game: int = 1) -> tuple[GameRecord, int]:
    """Game number ``game`` (from 1) of a path, file or text as ``read_records``
    takes it, and the number of games there (``parse_record``)."""
    with reading("the game records"):
        return parse_record(_text_of(source), game)


def parse_record(text: str, game: int = 1, max_moves: int | None = None) -> tuple[GameRecord, int]:
    """Game number ``game`` (from 1) of record text, and the number of games there:
    only that game is replayed and checked (the others are read as far as telling
    where each one starts and ends). A game of more than ``max_moves`` moves is refused
    before any of them is replayed."""
    games = _scan(text)
    if not games:
        raise HingeError("the record holds no game")
    if not 1 <= game <= len(games):
        raise HingeError(
            f"there is no game {game}: the record holds {len(games)} game{'s' if len(games) > 1 else ''}"
        )
    moves = len(games[game - 1].moves)
    if max_moves is not None and moves > max_moves:
        raise HingeError(
            f"game {game} holds {moves:,} moves; a game may hold at most {max_moves:,} moves"
        )
    return _build_numbered(games[game - 1], game), len(games)


def count_games(source) -> int:
    """The number of games in a path, file or text, none of them replayed."""
    with reading("the game records"):
        return len(_scan(_text_of(source)))


def _build_numbered(g, number: int) -> GameRecord:
    try:
        return _build(g)
    except HingeError as e:
        raise HingeError(f"game {number}: {e}") from None


def _scan(text: str) -> list:
    """The games of record text, tokenised but not replayed: one pass over the text."""
    if not isinstance(text, str):
        raise HingeError(f"record text must be str, not {type(text).__name__}")
    games: list[_Game] = []
    game = None
    pos, n, line = 0, len(text), 1

    def current():
        nonlocal game
        if game is None or game.result_token is not None:
            game = _Game(line)
            games.append(game)
        return game

    def fail(message: str) -> NoReturn:
        number = len(games) if games else 1
        raise HingeError(f"game {number}, line {line}: {message}")

    at_line_start = True
    while pos < n:
        ch = text[pos]
        if ch == "\n":
            line += 1
            pos += 1
            at_line_start = True
            continue
        if ch in " \t\r":
            pos += 1
            continue
        if ch == "[":
            if not at_line_start:
                fail("a tag must start its own line")
            end = text.find("\n", pos)
            end = n if end < 0 else end
            m = _TAG_LINE.fullmatch(text, pos, end)
            if not m:
                fail(f'cannot read tag line {_shorten(text[pos:end])}: write [Name "value"]')
            g = current()
            if g.in_moves:  # tags after moves without a result token: a new game
                game = _Game(line)
                games.append(game)
                g = game
            name, value = m.group(1), _unescape(m.group(2))
            if name in g.tags:
                fail(f"tag {name} given twice")
            g.tags[name] = value
            pos = end
            continue
        at_line_start = False
        if ch == ";":
            end = text.find("\n", pos)
            pos = n if end < 0 else end
            continue
        if ch == "{":
            end = text.find("}", pos)
            if end < 0:
                fail("comment opened with { is never closed")
            g = current()
            g.in_moves = True
            body = " ".join(text[pos + 1 : end].split())
            ply = len(g.moves)
            g.comments.setdefault(ply, []).append(body)
            line += text.count("\n", pos, end)
            pos = end + 1
            continue
        if ch == "}":
            fail("} without an opening {")
        end = pos
        while end < n and text[end] not in " \t\r\n{};[":
            end += 1
        token = text[pos:end]
        pos = end
        g = current()
        g.in_moves = True
        m = _NUMBER.fullmatch(token)
        if m:
            g.numbers.append((len(g.moves), m.group(1) + m.group(2), line))
            token = m.group(3)
            if not token:
                continue
        if token.lower() in RESULTS:
            g.result_token = token.lower()
            continue
        if not re.fullmatch(
            r"[A-Za-z][0-9]{1,2}(-[A-Za-z][0-9]{1,2}([xX][A-Za-z][0-9]{1,2})?)?", token
        ):
            fail(
                f"cannot read {_shorten(token)}: expected a move like F6 or E5-F6xG7, a move number or a result"
            )
        g.moves.append(token)

    return [g for g in games if not g.empty]


def _build(g: _Game) -> GameRecord:
    tags = dict(g.tags)
    if "Size" in tags and _int_or_none(tags["Size"]) is None:
        raise HingeError(f"Size must be a whole number, not {tags['Size']!r}")
    size = _int_or_none(tags.get("Size", "")) or DEFAULT_SIZE
    if "Start" in tags:
        size = parse_fen(tags["Start"]).size
    if "Result" in tags:
        tags["Result"] = tags["Result"].strip().lower()
        if tags["Result"] not in RESULTS:
            raise HingeError(
                f"Result tag must be green, blue or unfinished, not {g.tags['Result']!r}"
            )
        if g.result_token is not None and g.result_token != tags["Result"]:
            raise HingeError(
                f"Result tag {tags['Result']} disagrees with the result token {g.result_token}"
            )
    elif g.result_token is not None:
        tags["Result"] = g.result_token
    comments = {ply: " ".join(parts) for ply, parts in g.comments.items()}
    record = GameRecord(size, g.moves, tags, comments=comments)
    first_blue = record.starts_with_blue()
    for index, token, line in g.numbers:
        ply = index + (1 if first_blue else 0)
        expected = f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'}"
        if token != expected:
            raise HingeError(
                f"line {line}: move number {token} before ply {index + 1}, expected {expected}"
            )
    record.validate()
    return record


def _shorten(text: str) -> str:
    return repr(text if len(text) <= 30 else text[:30] + "...")


__all__ = [
    "GameRecord",
    "format_record",
    "parse_records",
    "read_records",
    "read_record",
    "parse_record",
    "count_games",
    "write_records",
    "append_record",
    "move_label",
    "RESULTS",
]
