"""The search signature: one number that changes when the searches' trees change.

Like Stockfish's ``Bench: N``, it is the sum of the work of fixed searches of a fixed
set of positions (four each of sides 4, 6 and 9), on one thread, with nothing left to
the clock or to chance:

* **alpha-beta**: the nodes of a fixed-depth search of each position (the engine's
  defaults, one thread, tablebase off);
* **MCTS**: the tree nodes (expanded children) after a fixed number of iterations of
  each position (the engine's defaults, one thread, a fixed seed, tablebase off); the
  iterations themselves are fixed, the tree they grow is not.

A change that keeps every search's tree keeps the signature; one that changes the
order of moves, a pruning, the evaluation or the selection of MCTS changes it.
Searches on several threads and under a time limit vary from run to run and are not
part of it. ``hinge-fast bench --signature`` prints it.
"""

from __future__ import annotations

from dataclasses import dataclass

#: ``(position, alpha-beta depth)``: four positions of random games on each of sides 4,
#: 6 and 9 (a few to a hundred legal moves).
POSITIONS = (
    ("4/3g1/6/2b2g1/4g1/1b3/4 b", 10),
    ("4/5/1g4/2b4/2b1g1/5/4 g", 10),
    ("4/1g3/2g1b1/5b1/6/2g2/4 b", 10),
    ("4/2g2/2gg2/5b1/2b1b1/5/4 g", 10),
    ("6/1g1b1b1/8/7b1/7b2/3b5g1/4ggg3/2b3g2/8/4g2/6 b", 6),
    ("6/1g1b3/1g6/2g6/5b4/2bbb3g2/8g1/1g1b2g2/8/7/6 b", 6),
    ("6/1g1b3/4b3/1b7/5b4/2g4gg2/2b2b4/1b1g5/3gg1g1/7/6 g", 6),
    ("6/2g4/5gb1/3g2bb1/2g4b2/1g1g1g5/4g3g1/1gg1b4/1bb3b1/1b2bb1/6 g", 6),
    (
        "9/5ggg2/1g5g3/4b5b1/1b4b6/4b3b5/6b1b1g1b2/5bb7g1/2g1g4g7/6b3g5/5b3g5/2b1b7g1/"
        "1b3b1g5/4bggb2g1/3bb1gb3/2bb4b1/9 g",
        5,
    ),
    (
        "9/2g3g3/1b9/7b4/2b10/14/9g1g3/3bb5g2g2/1b5g1b2bb3/5g1g8/6g8/14/2b2b3b3/6g5/1b1g7/"
        "5g1g2/9 g",
        5,
    ),
    (
        "9/4b2b2/1b4b4/1b1gggg5/1g6b4/5b2b5/4g2gg3g2/6g4g2g1/1b1b9b3/5gg7g1/1g5g1bb4/14/"
        "6g2b3/4g1bb4/8b2/1b8/9 b",
        5,
    ),
    (
        "9/10/7g3/3b1b4b1/3g9/1g2g1g1b5/5g3bg4/8bb3g2/3b2b1g3b4/7g6b1/1b3g9/7g6/3g1b7/"
        "1g7bb1/4g6/2b1g5/9 g",
        5,
    ),
)
#: MCTS iterations of each position, and its seed.
MCTS_ITERATIONS = 2000
MCTS_SEED = 1


@dataclass(frozen=True)
class Signature:
    """The signature and its two parts."""

    alphabeta_nodes: int
    mcts_tree_nodes: int

    @property
    def total(self) -> int:
        return self.alphabeta_nodes + self.mcts_tree_nodes

    def __str__(self) -> str:
        return (
            f"alpha-beta nodes {self.alphabeta_nodes}, MCTS tree nodes {self.mcts_tree_nodes}\n"
            f"Signature: {self.total}"
        )


def search_signature() -> Signature:
    """The signature of this build's searches (module docstring)."""
    from ..board import Board
    from .limits import Limits
    from .mcts import NEXT_FREE
    from .registry import create_searcher

    alphabeta = create_searcher("alphabeta", threads=1, tablebase="off")
    mcts = create_searcher("mcts", threads=1, seed=MCTS_SEED, tablebase="off")
    nodes = tree = 0
    for fen, depth in POSITIONS:
        nodes += alphabeta.go(Board.from_fen(fen), Limits(depth=depth)).nodes
        mcts.go(Board.from_fen(fen), Limits(nodes=MCTS_ITERATIONS))
        tree += int(mcts.tree.stats[NEXT_FREE]) - 1
    return Signature(nodes, tree)
