"""Proof files: writing what the prover found, and checking a file with the reference
implementation alone, independent of the prover and of the fast move generator.

A proof file is text (docs/solve.md, "Proof files"):

    hinge-fast proof 1
    position 4/1bgg1/2bbb1/2bgg2/1ggb2/2gb1/4 g
    winner green
    distance 3
    4/1bgg1/2bbb1/2bgg2/1ggb2/2gb1/4 g C2-C2xD2
    ...

then one line per position of the proof with the winner to move: the position string
and the winner's move there. The loser's moves are not listed: the checker plays every
one of them.

    >>> fen = "4/1gg2/2gg2/1gg1gg1/1bggg1/1bb2/4 g"
    >>> checked = check_proof_text(write_proof_text(fen, "green", 1, {fen: "B4-B4xB2"}))
    >>> checked.winner, checked.distance, checked.positions
    ('green', 1, 2)
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .. import reference as ref
from ..errors import HingeError
from ..records.files import read_text_file, reading, write_atomic
from ..search.proofs import deep_recursion

#: The largest proof file read (about 6 million positions, a few hours of checking):
#: a larger one is refused before it is read.
MAX_PROOF_BYTES = 256 << 20

HEADER = "hinge-fast proof 1"


@dataclass
class CheckedProof:
    """A proof the checker accepted: ``winner`` ('green' or 'blue') wins from
    ``position`` in at most ``distance`` plies whatever the loser plays; ``positions``
    the distinct positions it visited, ``winner_positions`` those with the winner to
    move (each took its move from the file), ``unused`` the file's lines it never
    needed."""

    position: str
    winner: str
    distance: int
    positions: int
    winner_positions: int
    unused: int


def write_proof_text(position: str, winner: str, distance: int, strategy: dict) -> str:
    """The text of a proof file: the header, then ``strategy`` (position string ->
    the winner's move) one line each, in the order given."""
    lines = [HEADER, f"position {position}", f"winner {winner}", f"distance {distance}"]
    lines.extend(f"{fen} {move}" for fen, move in strategy.items())
    return "\n".join(lines) + "\n"


def write_proof(
    path: str | os.PathLike, position: str, winner: str, distance: int, strategy: dict
) -> int:
    """Write a proof file; returns its size in bytes. HingeError if it cannot be written."""
    text = write_proof_text(position, winner, distance, strategy)
    return write_atomic(path, text.encode("ascii"), name=f"the proof to {path}")


def _read_header(lines, name):
    """The value of header line ``name`` (the next line); HingeError if it is not there."""
    line = next(lines, None)
    if line is None or not line.startswith(name + " "):
        raise HingeError(f"not a proof file: expected a line '{name} ...' in the header")
    return line[len(name) + 1 :].strip()


def _parse(text: str):
    lines = iter(text.splitlines())
    if next(lines, "").strip() != HEADER:
        raise HingeError(f"not a proof file: its first line is not '{HEADER}'")
    root = ref.parse_position(_read_header(lines, "position"))
    winner = _read_header(lines, "winner")
    if winner not in ("green", "blue"):
        raise HingeError(f"not a proof file: the winner must be green or blue, not {winner!r}")
    claimed = _read_header(lines, "distance")
    if not (claimed.isascii() and claimed.isdigit() and len(claimed) <= 9):
        raise HingeError(
            f"not a proof file: the distance must be a whole number of at most 9 digits, "
            f"not {claimed[:20]!r}"
        )
    strategy = {}
    for number, line in enumerate(lines, start=5):
        line = line.strip()
        if not line:
            continue
        parts = line.split(" ")
        if len(parts) != 3:
            raise HingeError(
                f"line {number}: expected a position string and a move, not {line[:60]!r}"
            )
        pos = ref.parse_position(f"{parts[0]} {parts[1]}")
        if pos.size != root.size:
            raise HingeError(
                f"line {number}: a position of side {pos.size} in a proof of side {root.size}"
            )
        if pos.to_move != winner[0]:
            raise HingeError(
                f"line {number}: the position has {'blue' if winner == 'green' else 'green'} to move, "
                "not the winner"
            )
        strategy[ref.format_position(pos)] = parts[2]
    return root, winner, int(claimed), strategy


class MoveCache:
    """The legal moves and children of positions by the reference implementation,
    kept between checks (``check_proof_text(..., cache=MoveCache())``): proofs of
    positions of one game share most of their positions. At most ``limit``
    positions; emptied when full. Positions are the reference's ``RefPosition``."""

    def __init__(self, limit: int = 200_000):
        self.limit = limit
        self.children: dict = {}

    def root(self, fen: str):
        return ref.parse_position(fen)

    def fen(self, pos) -> str:
        return ref.format_position(pos)

    def to_move(self, pos) -> str:
        return pos.to_move

    def moves(self, pos) -> dict:
        """``{move name: child position}`` of ``pos``, in the reference's terms (empty
        when the game is over)."""
        found = self.children.get(pos)
        if found is None:
            if len(self.children) >= self.limit:
                self.children.clear()
            found = {ref.move_name(m): ref.play(pos, m) for m in ref.legal_moves(pos)}
            self.children[pos] = found
        return found

    def parse_move(self, pos, text: str) -> str:
        """The name of the legal move ``text`` (any spelling the rules accept)."""
        return ref.move_name(ref.parse_move(pos, text))


def check_proof_text(text: str, cache: MoveCache | None = None) -> CheckedProof:
    """Check a proof (the text of a proof file) with the reference implementation
    (``cache``: a ``MoveCache`` to keep its moves in, shared between checks):
    from the position, at every turn of the winner the file's move (it must be legal),
    at every turn of the loser every legal move; every line must end with the loser to
    move and lost (eliminated or without a legal move, rules.md section 6), no line may
    repeat a position, and the longest line must be the file's distance. HingeError,
    naming the first problem, otherwise."""
    parsed_root, winner, claimed, strategy = _parse(text)
    cache = MoveCache() if cache is None else cache
    root = cache.root(ref.format_position(parsed_root))
    me = winner[0]
    distance_of: dict = {}
    used: set = set()
    line: list = []
    on_line: set = set()

    def visit(pos) -> int:
        if pos in distance_of:
            return distance_of[pos]
        if pos in on_line:
            raise HingeError(f"a line of the proof repeats the position {cache.fen(pos)}")
        if len(line) > 1000:
            raise HingeError("a line of the proof is longer than 1000 plies")
        legal = cache.moves(pos)
        if not legal:  # the game is over: the side to move has lost
            if cache.to_move(pos) == me:
                raise HingeError(f"a line of the proof ends with the winner lost: {cache.fen(pos)}")
            distance_of[pos] = 0
            return 0
        line.append(pos)
        on_line.add(pos)
        if cache.to_move(pos) == me:
            fen = cache.fen(pos)
            text_move = strategy.get(fen)
            if text_move is None:
                raise HingeError(
                    f"the proof has no move for the winner in {fen}, a position the loser can reach"
                )
            child = legal.get(text_move)  # as the prover writes it; any other spelling parsed below
            if child is None:
                try:
                    child = legal[cache.parse_move(pos, text_move)]
                except HingeError as e:
                    raise HingeError(f"the proof's move {text_move} in {fen}: {e}") from None
            used.add(fen)
            distance = 1 + visit(child)
        else:
            distance = 1 + max(visit(legal[name]) for name in sorted(legal))
        line.pop()
        on_line.discard(pos)
        distance_of[pos] = distance
        return distance

    with deep_recursion():
        distance = visit(root)
    if distance != claimed:
        raise HingeError(f"the proof claims {claimed} plies but its longest line has {distance}")
    return CheckedProof(
        position=cache.fen(root),
        winner=winner,
        distance=distance,
        positions=len(distance_of),
        winner_positions=len(used),
        unused=len(strategy) - len(used),
    )


def check_proof(path: str | os.PathLike) -> CheckedProof:
    """``check_proof_text`` of a file; HingeError if it cannot be read (or checked in
    the memory there is)."""
    with reading(f"proof file {path}"):
        return check_proof_text(read_text_file(path, "proof file", MAX_PROOF_BYTES))
