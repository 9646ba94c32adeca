"""The games of the web app, by id (the page keeps the id in its address), each with
its moves, its redo list and at most one search at a time.

    >>> from hinge_fast.web.games import GameStore
    >>> store = GameStore()
    >>> game = store.create(size=4)
    >>> game.play("C3").position
    '4/5/6/7/2g3/5/4 b'

Every change is checked before it is made: a rejected input (a HingeError) leaves the
game exactly as it was.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict

from ..board import Board, Color, bitboard_cells
from ..core.fen import format_fen
from ..errors import HingeError
from ..records.record import GameRecord, format_record, parse_record
from .engine import RunningSearch

#: Games kept at once; the least recently used one is dropped beyond that.
MAX_GAMES = 256
#: Longest record text or position string accepted, characters.
MAX_TEXT = 200_000
#: Longest move or cell name accepted, characters (the longest real one, J17-J17xJ17, has 11).
MAX_NAME = 40
#: Most moves a game may hold, as in the engine protocol: the next one is refused.
MAX_MOVES = 5000


class Game:
    """A board with its history: the moves played (``board.move_stack``) and the moves
    taken back (``redo``, the next one last), plus a version number that changes with
    every change (a search started on one version does not play into another)."""

    def __init__(self, game_id: str, board: Board, tags: dict | None = None):
        self.id = game_id
        self.board = board
        self.redo: list[str] = []
        self.tags = dict(tags or {})
        self.version = 0
        self.lock = threading.RLock()
        self.search: RunningSearch | None = None  # the search of this game, if any
        self.resigned: Color | None = None  # the side that resigned, if one did

    def outcome(self) -> dict | None:
        """``{"winner", "reason"}`` once the game is over (on the board, or by
        resignation), else None."""
        if self.resigned is not None:
            return {"winner": str(self.resigned.other), "reason": "resignation"}
        outcome = self.board.outcome()
        return (
            None if outcome is None else {"winner": str(outcome.winner), "reason": outcome.reason}
        )

    def over_text(self) -> str | None:
        outcome = self.outcome()
        return None if outcome is None else f"{outcome['winner']} wins by {outcome['reason']}"

    # ----- what the page shows -----------------------------------------------------------
    @property
    def position(self) -> str:
        return self.board.fen()

    def start_board(self) -> Board:
        start = self.board.copy()
        while start.move_stack:
            start.pop()
        return start

    def legal_moves(self) -> list[dict]:
        """Every legal move with the cells it involves and the tokens it flips."""
        board = self.board
        names = board.geometry.names
        out = []
        for code, flip in zip(board.legal_codes, board.legal_flips):
            move = board.move_from_code(code)
            out.append(
                {
                    "move": str(move),
                    "from": move.frm,
                    "to": move.to,
                    "flips": [names[c] for c in bitboard_cells(flip)],
                }
            )
        out.sort(key=lambda m: (m["from"] or "", m["to"], m["move"]))
        return out

    def record(self) -> GameRecord:
        outcome = self.outcome()
        tags = dict(self.tags)
        if outcome is not None:
            tags["Result"], tags["Termination"] = outcome["winner"], outcome["reason"]
        else:
            tags["Result"] = "unfinished"
        return GameRecord.from_board(self.board, **tags)

    def record_text(self) -> str:
        return format_record(self.record())

    # ----- changes -------------------------------------------------------------------------
    def _changed(self):
        self.version += 1
        self.resigned = None  # a move taken back or a new position: the game goes on
        if self.search is not None:
            self.search.stop()

    def play(self, text: str) -> Game:
        _check_text(text, "move", MAX_NAME)
        if self.outcome() is not None:
            raise HingeError(f"illegal move {text}: the game is over ({self.over_text()})")
        _check_length(len(self.board.move_stack) + 1)
        move = self.board.parse_move(text)
        self.board.push(move)
        if self.redo and self.redo[-1] == str(move):
            self.redo.pop()
        else:
            self.redo = []
        self._changed()
        return self

    def resign(self, side: str | None = None) -> Game:
        """``side`` (default: the side to move) gives up; any later change (undo, a
        new position) takes the resignation back with it."""
        if self.outcome() is not None:
            raise HingeError(f"the game is over already ({self.over_text()})")
        color = self.board.turn if side is None else Color.parse(side)
        self._changed()
        self.resigned = color
        return self

    def undo(self) -> Game:
        if not self.board.move_stack:
            raise HingeError("no move to take back")
        self.redo.append(str(self.board.pop()))
        self._changed()
        return self

    def redo_move(self) -> Game:
        if not self.redo:
            raise HingeError("no move to play again")
        self.board.push(self.board.parse_move(self.redo[-1]))
        self.redo.pop()
        self._changed()
        return self

    def goto(self, ply: int) -> Game:
        """Move along the game to ``ply`` moves from the start (0: the start); the moves
        after it stay in the redo list."""
        total = len(self.board.move_stack) + len(self.redo)
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= total:
            raise HingeError(
                f"ply must be from 0 to {total} (the game has {total} moves), not {ply!r}"
            )
        while len(self.board.move_stack) > ply:
            self.redo.append(str(self.board.pop()))
        while len(self.board.move_stack) < ply:
            self.board.push(self.board.parse_move(self.redo.pop()))
        self._changed()
        return self

    def load_position(self, text: str) -> Game:
        _check_text(text, "position string")
        board = Board.from_fen(text.strip())
        return self._replace(board, {})

    def load_record(self, text: str) -> Game:
        _check_text(text, "record")
        record, _ = parse_record(
            text, 1, max_moves=MAX_MOVES
        )  # refused before a long game is replayed
        board = record.board_at()
        tags = {k: v for k, v in record.tags.items() if k not in ("Result", "Termination")}
        return self._replace(board, tags)

    def new(self, size: int, tags: dict | None = None) -> Game:
        return self._replace(Board(size), tags or {})

    def edit(self, cell: str | None, piece: str | None, turn: str | None = None) -> Game:
        """The position with ``cell`` set to ``piece`` (``'green'``, ``'blue'`` or None
        for empty) and ``turn`` to move; the history is dropped (a new start)."""
        if cell is not None:
            _check_text(cell, "cell name", MAX_NAME)
        board = self.board
        geo = board.geometry
        index = None if cell is None else geo.parse_cell(cell)
        green = set(geo.parse_cell(c) for c in board.tokens(Color.GREEN)) - {index}
        blue = set(geo.parse_cell(c) for c in board.tokens(Color.BLUE)) - {index}
        if piece is not None and index is None:
            raise HingeError("say which cell to put the token on")
        if piece is not None:
            color = Color.parse(piece)
            if not geo.is_interior(index):
                raise HingeError(
                    f"{geo.names[index]} is an edge cell; tokens stand on interior cells only"
                )
            (green if color == Color.GREEN else blue).add(index)
        side = board.turn if turn is None else Color.parse(turn)
        return self._replace(
            Board.from_fen(format_fen(board.size, green, blue, int(side))), self.tags
        )

    def _replace(self, board: Board, tags: dict) -> Game:
        self.board = board
        self.redo = []
        self.tags = dict(tags)
        self._changed()
        return self


def _check_text(text, what, most: int = MAX_TEXT):
    if not isinstance(text, str):
        raise HingeError(f"a {what} is text, not {type(text).__name__}")
    if len(text) > most:
        raise HingeError(
            f"the {what} is {len(text):,} characters long; the most accepted is {most:,}"
        )


def _check_length(moves: int):
    if moves > MAX_MOVES:
        raise HingeError(
            f"a game may hold at most {MAX_MOVES:,} moves; start a new game from this position"
        )


class GameStore:
    """The games by id, least recently used first; at most ``limit`` are kept."""

    def __init__(self, limit: int = MAX_GAMES):
        self.limit = limit
        self._games: OrderedDict[str, Game] = OrderedDict()
        self._lock = threading.Lock()

    def create(self, size: int = 6, position: str | None = None, record: str | None = None) -> Game:
        """A new game: on the empty board of side ``size``, from a ``position`` string,
        or from a game ``record`` (its first game, at its last move)."""
        if position and record:
            raise HingeError("start a game from a position string or from a record, not both")
        if position:
            _check_text(position, "position string")
        board = Board.from_fen(position) if position else Board(size)
        game = Game(secrets.token_urlsafe(9), board)
        if record is not None:
            game.load_record(record)
        with self._lock:
            self._games[game.id] = game
            while len(self._games) > self.limit:
                _, old = self._games.popitem(last=False)
                if old.search is not None:
                    old.search.stop()
        return game

    def get(self, game_id: str) -> Game:
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                raise KeyError(game_id)
            self._games.move_to_end(game_id)
            return game

    def __len__(self) -> int:
        return len(self._games)
