"""Puzzles: positions where the side to move has a forced win that the prover proves
and the default engine at a tenth of a second misses (docs/solve.md, "Puzzles").

    >>> puzzles = load_puzzles()
    >>> p = puzzles[0]
    >>> str(Board.from_fen(p.position).turn) == p.winner, p.engine_move in p.moves
    (True, False)

How they are found (``find_puzzles``): seeded games of the engines against each other
(alpha-beta and MCTS, each under a node limit, so a game replays exactly), each from
an opening of the shipped book of its side. Each game's positions are proven from its
end backwards, each with a fresh prover and the same node budget, until a few in a row
are not proven. Where the side to move is proven to win, the default engine
(``hinge_fast.search``: alpha-beta, one thread, ``engine_time`` seconds) chooses a
move; the engine missed the win if the position after its move is not proven a loss
for the opponent within the budget. Each such position, with its proven winning
moves, the proof's distance and the engine's move, is a puzzle; its proof is written
down and replayed by the reference checker of ``solving/proof.py`` before it is kept.

A puzzle file is JSON: ``{"format": "hinge-fast puzzles 1", "puzzles": [...]}``, each
puzzle the fields of ``Puzzle``, and the command that found them. The shipped set is the
files ``data/puzzles/sideS-SEED.json``, one a run of ``hinge-fast puzzles``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, fields
from importlib import resources

from ..board import Board
from ..errors import HingeError
from ..games.book import default_book_path, read_book
from ..games.game import play_game
from ..games.players import SearchPlayer
from ..records.files import read_text_file, reading
from ..search import search_position

FORMAT = "hinge-fast puzzles 1"
#: The prover's node budget per position, by default.
DEFAULT_NODES = 100_000
#: Nodes per move of the engines that play the games, by default.
DEFAULT_PLAY_NODES = 2_000
#: Seconds per move of the engine that must miss the win.
ENGINE_TIME = 0.1
#: Positions in a row not proven after which the walk back through a game stops.
UNPROVEN_RUN = 3
#: With replies: the least distance of a game position lost for its side to move whose
#: other replies are tried.
MIN_REPLY_DISTANCE = 8
#: The prover's table, MB (one per position: each result depends on its position alone).
TABLE_MB = 16
#: Plies after which a game is given up.
MAX_PLIES = 400
#: The largest puzzle file read.
MAX_FILE_BYTES = 8 << 20


@dataclass
class Puzzle:
    """A position (``position``, a position string) whose side to move (``winner``,
    'green' or 'blue') wins by force: ``moves`` the winning moves the prover proved,
    ``distance`` the plies of the proof's longest line, ``nodes`` the prover's nodes to
    prove it from an empty table; ``engine_move`` the move of the default engine at
    ``engine_time`` seconds, which does not win by force within the budget;
    ``source`` where it came from (the game and ply)."""

    position: str
    winner: str
    moves: list
    distance: int
    nodes: int
    engine_move: str
    engine_time: float
    source: str = ""

    @property
    def size(self) -> int:
        return Board.from_fen(self.position).size

    def to_dict(self) -> dict:
        return asdict(self)


def puzzles_json(puzzles, header: dict | None = None) -> str:
    """The text of a puzzle file: ``header`` (how they were found) and the puzzles."""
    data = {"format": FORMAT, **(header or {}), "puzzles": [p.to_dict() for p in puzzles]}
    return json.dumps(data, indent=1) + "\n"


def parse_puzzles(text: str, name: str = "puzzles") -> list[Puzzle]:
    """The puzzles of a puzzle file's text; HingeError naming ``name`` and the puzzle
    when it is not one."""
    try:
        data = json.loads(text)
    except ValueError:
        raise HingeError(f"{name} is not JSON") from None
    except RecursionError:
        raise HingeError(f"{name} is not a puzzle file: its JSON is nested too deeply") from None
    if (
        not isinstance(data, dict)
        or data.get("format") != FORMAT
        or not isinstance(data.get("puzzles"), list)
    ):
        raise HingeError(
            f'{name} is not a puzzle file: expected JSON with "format": "{FORMAT}" and a list "puzzles"'
        )
    names = {f.name for f in fields(Puzzle)}
    out = []
    for i, item in enumerate(data["puzzles"], 1):
        if not isinstance(item, dict) or not {"position", "winner", "moves", "distance"} <= set(
            item
        ):
            raise HingeError(f"{name}: puzzle {i} needs position, winner, moves and distance")
        try:
            puzzle = Puzzle(**{k: v for k, v in item.items() if k in names})
            if not (
                isinstance(puzzle.position, str)
                and isinstance(puzzle.winner, str)
                and isinstance(puzzle.moves, list)
                and all(isinstance(m, str) for m in puzzle.moves)
                and type(puzzle.distance) is int
                and 0 <= puzzle.distance <= MAX_PLIES
            ):
                raise HingeError(
                    "position and winner must be strings, moves a list of strings, "
                    f"distance a whole number of plies from 0 to {MAX_PLIES}"
                )
            board = Board.from_fen(puzzle.position)
            if str(board.turn) != puzzle.winner:
                raise HingeError(f"the side to move is not the winner {puzzle.winner!r}")
            for move in puzzle.moves:
                board.parse_move(move)
        except (HingeError, TypeError) as e:
            raise HingeError(f"{name}: puzzle {i}: {e}") from None
        out.append(puzzle)
    return out


def shipped_files() -> list:
    """The shipped puzzle files, by side and seed (``sideS-SEED.json``)."""
    folder = resources.files("hinge_fast") / "data" / "puzzles"
    files = [f for f in folder.iterdir() if re.fullmatch(r"side[0-9]-[0-9]{1,9}\.json", f.name)]
    return sorted(files, key=lambda f: tuple(int(n) for n in re.findall(r"[0-9]+", f.name)))


def load_puzzles(path: str | os.PathLike | None = None) -> list[Puzzle]:
    """The puzzles of the file ``path`` (None: the shipped set, side by side)."""
    if path is None:
        return [
            p
            for f in shipped_files()
            for p in parse_puzzles(f.read_text(encoding="utf-8"), f"the shipped {f.name}")
        ]
    text = read_text_file(path, "puzzle file", MAX_FILE_BYTES)
    with reading(f"puzzle file {path}"):
        return parse_puzzles(text, f"puzzle file {path}")


def proven_win(board: Board, nodes: int, prover=None):
    """The prover's result for ``board`` within ``nodes`` (a fresh prover unless one
    is given); Ctrl-C stops it."""
    from ..search.prover import Prover

    return (prover or Prover(table_mb=TABLE_MB)).prove(board, nodes=nodes)


def proven_moves(board: Board, result) -> list[str]:
    """The moves of ``board`` that ``result`` (the prover's) proves winning for its
    side to move; a win in one ply, which the prover's root keeps no list of, by trying
    each move."""
    moves = [str(m.move) for m in result.root_moves if m.winner == board.turn]
    if not moves and result.winner == board.turn and result.distance == 1:
        for move in board.legal_moves:
            child = board.copy()
            child.push(move)
            outcome = child.outcome()
            if outcome is not None and outcome.winner == board.turn:
                moves.append(str(move))
    return moves


def wins_by_force(board: Board, move, nodes: int) -> bool:
    """Whether ``move`` wins ``board`` for its side to move: the game ends in its win
    at once, or the position after it is proven won for it within ``nodes``."""
    mover = board.turn
    child = board.copy()
    child.push(move)
    outcome = child.outcome()
    if outcome is not None:
        return outcome.winner == mover
    return proven_win(child, nodes).winner == mover


def engine_move(board: Board, seconds: float = ENGINE_TIME):
    """The default engine's move: alpha-beta, one thread, ``seconds``."""
    return search_position(board, engine="alphabeta", time=seconds, threads=1).move


def game_players(index: int, seed: int, play_nodes: int):
    """The two players of game ``index``: alpha-beta and MCTS under ``play_nodes`` nodes
    per move (MCTS: a tenth as many playouts), seeded, their colours alternating."""
    ab = SearchPlayer("alphabeta", nodes=play_nodes, threads=1, table_mb=8)
    mcts = SearchPlayer(
        "mcts", nodes=max(1, play_nodes // 10), seed=seed * 1_000_003 + index, threads=1
    )
    return (ab, mcts) if index % 2 == 0 else (mcts, ab)


def play_engine_game(size: int, index: int, seed: int, play_nodes: int) -> list[str]:
    """The positions (strings) of game ``index`` of a seeded run, from its opening to
    its last position."""
    book = read_book(default_book_path(size), size=size)
    board = book.entry(index, seed).board()
    green, blue = game_players(index, seed, play_nodes)
    positions = [board.fen()]
    play_game(
        green, blue, board, max_plies=MAX_PLIES, on_move=lambda b, m: positions.append(b.fen())
    )
    return positions


def check_puzzle_proof(board: Board, nodes: int):
    """The proof of ``board``'s win written down and replayed by the reference checker
    (``solving/proof.py``): its CheckedProof; HingeError if it cannot be."""
    from ..search.prover import Prover
    from .proof import check_proof_text, write_proof_text  # not at the CLI's start-up

    prover = Prover(table_mb=TABLE_MB)
    proof = prover.proof(board, nodes=nodes)
    return check_proof_text(
        write_proof_text(proof.position, str(proof.winner), proof.distance, proof.strategy)
    )


def puzzle_of(
    board: Board,
    nodes: int,
    engine_time: float = ENGINE_TIME,
    source: str = "",
    check: bool = True,
    result=None,
):
    """The puzzle of ``board`` (None if it is not one): its side to move proven to win
    within ``nodes``, the engine's move at ``engine_time`` s not proven to win.
    ``result``: the prover's result for ``board`` when it is known."""
    result = proven_win(board, nodes) if result is None else result
    if result.winner != board.turn:
        return None
    moves = proven_moves(board, result)
    chosen = engine_move(board, engine_time)
    if str(chosen) in moves or wins_by_force(board, chosen, nodes):
        return None
    if check:
        check_puzzle_proof(board, nodes)
    return Puzzle(
        board.fen(),
        str(board.turn),
        moves,
        int(result.distance),
        int(result.nodes),
        str(chosen),
        engine_time,
        source,
    )


def find_puzzles(
    size: int,
    games: int,
    seed: int = 1,
    nodes: int = DEFAULT_NODES,
    play_nodes: int = DEFAULT_PLAY_NODES,
    engine_time: float = ENGINE_TIME,
    on_game: Callable[[int, int], None] | None = None,
    check: bool = True,
    replies: bool = False,
) -> Iterator[Puzzle]:
    """The puzzles of ``games`` seeded engine games on side ``size``, as found (module
    docstring); ``on_game(index, puzzles so far)`` after each game. ``replies``: also
    the positions after each other reply of the losing side at a game position proven
    lost for its side to move in at least ``MIN_REPLY_DISTANCE`` plies."""
    if not 4 <= size <= 9:
        raise HingeError(f"the side must be from 4 to 9, not {size}")
    found = 0
    seen = set()
    for index in range(games):
        positions = play_engine_game(size, index, seed, play_nodes)
        unproven = 0
        for ply in range(len(positions) - 2, -1, -1):
            board = Board.from_fen(positions[ply])
            result = proven_win(board, nodes)
            if result.winner is None:
                unproven += 1
                if unproven >= UNPROVEN_RUN:
                    break
                continue
            unproven = 0
            where = f"side {size} seed {seed} game {index + 1} ply {ply}"
            candidates = [(board, result, where)]
            if result.winner != board.turn:
                candidates = []
                if replies and result.distance >= MIN_REPLY_DISTANCE:
                    for move in board.legal_moves:
                        child = board.copy()
                        child.push(move)
                        if child.outcome() is None and child.fen() != positions[ply + 1]:
                            candidates.append((child, None, f"{where} after {move}"))
            for candidate, known, source in candidates:
                if candidate.fen() in seen:
                    continue
                seen.add(candidate.fen())
                puzzle = puzzle_of(candidate, nodes, engine_time, source, check, known)
                if puzzle is not None:
                    found += 1
                    yield puzzle
        if on_game is not None:
            on_game(index, found)


def solves(puzzle: Puzzle, move) -> bool:
    """Whether ``move`` is one of the puzzle's proven winning moves."""
    return str(move) in puzzle.moves


def engine_solve_counts(
    puzzles, engines=("alphabeta", "mcts"), nodes: int = 20_000, seed: int = 1
) -> dict:
    """For each engine, how many of ``puzzles`` it solves (its move is a listed winning
    move) at ``nodes`` nodes, one thread, seeded: ``{engine: (solved, moves)}`` with
    ``moves`` the engine's move per puzzle."""
    out = {}
    for engine in engines:
        moves = []
        for puzzle in puzzles:
            board = Board.from_fen(puzzle.position)
            moves.append(
                search_position(board, engine=engine, nodes=nodes, threads=1, seed=seed).move
            )
        out[engine] = (sum(solves(p, m) for p, m in zip(puzzles, moves)), moves)
    return out


__all__ = [
    "Puzzle",
    "load_puzzles",
    "parse_puzzles",
    "puzzles_json",
    "find_puzzles",
    "puzzle_of",
    "proven_moves",
    "wins_by_force",
    "engine_move",
    "engine_solve_counts",
    "solves",
]
