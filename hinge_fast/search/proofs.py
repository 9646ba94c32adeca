"""What the prover finds: a position's result (``ProofResult``, with each root move's
state, ``RootMove``) and the winner's strategy (``Proof``). Shared by the prover on one
thread (``prover.py``) and on several (``prover_split.py``); and ``deep_recursion``,
for the walks over a proof's lines that recurse once a ply (``prover_split.py``,
``solving/proof.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from .score import proof_text


@contextmanager
def deep_recursion(depth: int = 10_000) -> Iterator[None]:
    """Python's recursion limit raised to at least ``depth`` inside the block, and
    put back after it."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, depth))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


@dataclass
class RootMove:
    """A move of the root and what the search knows of it: ``winner`` (a Color, None
    while open), its distance in plies from the root, and its numbers for the side to
    move at the root (``pn``: that it wins after this move; ``dn``: that it loses)."""

    move: object
    winner: object
    distance: int | None
    pn: int
    dn: int


@dataclass
class ProofResult:
    """What ``Prover.prove`` found.

    ``winner``: the Color that wins by force, or None (not proven within the limits,
    or neither side can force a win without letting the game repeat); ``distance``:
    plies to the end of the game along the proof; ``nodes``: positions searched
    (expanded) in all; ``complete``: the search ended by itself rather than at a
    limit; ``root_moves``: each root move's state at the end; ``pn``, ``dn``: the root's
    numbers for the side to move at the end (0 and INFINITY once won); ``shortest``:
    the distance is proven the shortest there is (``prove(..., shortest=True)``)."""

    position: str
    winner: object
    distance: int | None
    nodes: int
    seconds: float
    complete: bool
    pn: int
    dn: int
    root_moves: list = field(default_factory=list)
    repetition: bool = False
    shortest: bool = False

    def text(self) -> str:
        """The result in words, naming the side.

        >>> from hinge_fast.board import Color
        >>> ProofResult("", Color.GREEN, 13, 5, 0.1, True, 0, 1 << 40).text()
        'Green wins in at most 13 plies (proven)'
        """
        if self.winner is not None:
            # every ProofResult with a winner is made with the distance of its proof
            assert self.distance is not None
            return proof_text(self.winner, self.distance, self.shortest)
        if self.complete:
            return "no forced win for either side: each can make the game repeat"
        return "not proven within the limits"


@dataclass
class Proof:
    """A proof that ``winner`` wins from ``position``: ``strategy`` maps every
    position of the proof with the winner to move (position strings) to the winner's
    move there (notation); the loser's moves are all the legal ones. ``distance``: the
    plies of its longest line."""

    position: str
    winner: object
    distance: int
    strategy: dict
