"""One result type for every searcher."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..board import Move


@dataclass
class RootMove:
    """One legal move at the root, as the search saw it.

    ``score``: alpha-beta score in centi-tokens from the mover's side (None if the
    move was not searched to the last depth), MCTS: None; ``win_rate``: MCTS's mean
    result for the mover in [0, 1] (None for alpha-beta); ``visits``: MCTS visits or
    alpha-beta nodes spent under the move; ``mate``: plies to a proven result, with
    the sign of ``score`` (None if unproven).
    """

    move: Move
    score: float | None = None
    win_rate: float | None = None
    visits: int = 0
    mate: int | None = None


@dataclass
class SearchResult:
    """What a search found.

    ``move``: the best move (None only when the side to move has no legal move);
    ``score``: centi-tokens for the side to move (alpha-beta) or win rate in [0, 1]
    (MCTS); ``score_text``: the score as a person reads it (``+1.25``, ``win in 3``,
    ``loss in 4``, ``62.5%``); ``mate``: plies to a proven win (>0) or loss (<0), or
    None; ``pv``: principal variation, starting with ``move``; ``nodes``: positions
    searched or playouts; ``nps``: nodes per second; ``depth``: deepest completed
    iteration (alpha-beta) or deepest tree ply (MCTS); ``seconds``: time used;
    ``engine``: ``'alphabeta'`` or ``'mcts'``; ``root_moves``: every legal root move,
    best first.
    """

    move: Move | None
    score: float
    score_text: str
    pv: list[Move] = field(default_factory=list)
    nodes: int = 0
    nps: float = 0.0
    depth: int = 0
    seconds: float = 0.0
    engine: str = ""
    mate: int | None = None
    root_moves: list[RootMove] = field(default_factory=list)

    def __str__(self) -> str:
        pv = " ".join(str(m) for m in self.pv)
        return (
            f"{self.engine} depth {self.depth} score {self.score_text} nodes {self.nodes} "
            f"nps {self.nps:,.0f} time {self.seconds:.3f} pv {pv}"
        )
