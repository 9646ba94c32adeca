"""One result type for every searcher."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..board import Color, Move
from .score import Score


@dataclass
class RootMove:
    """One legal move at the root, as the search saw it.

    ``score``: a :class:`Score` for the mover (alpha-beta: centi-tokens or a proven
    result, None if the move was not searched to an exact score; MCTS: its win rate
    or a proven result, None if unvisited); ``visits``: MCTS visits or alpha-beta
    nodes spent under the move; ``depth``: the iteration its score comes from
    (alpha-beta; 0 for MCTS); ``pv``: its principal variation, starting with ``move``
    (alpha-beta: the moves scored at the result's depth, its MultiPV lines; MCTS: the
    most visited line under each of the first ``mcts.PV_LINES`` moves; empty otherwise).
    ``win_rate`` and ``mate`` read the score.
    """

    move: Move
    score: Score | None = None
    visits: int = 0
    depth: int = 0
    pv: list[Move] = field(default_factory=list)

    @property
    def win_rate(self) -> float | None:
        return None if self.score is None else self.score.win_rate

    @property
    def mate(self) -> int | None:
        """Plies to a proven win (> 0) or loss (<= 0), else None."""
        return None if self.score is None else self.score.mate


@dataclass
class SearchResult:
    """What a search found.

    ``move``: the best move (None only when the side to move has no legal move);
    ``score``: a :class:`Score` for the side to move (centi-tokens for alpha-beta,
    a win rate for MCTS, or a proven win/loss); ``str(result.score)`` is the text
    (``+1.25``, ``win in 3``, ``loss in 4``, ``62.5%``), also ``score_text``;
    ``mate``: plies to a proven win (>0) or loss (<=0), or None; ``pv``: principal
    variation, starting with ``move``; ``nodes``: positions searched or playouts;
    ``nps``: nodes per second; ``depth``: deepest completed iteration (alpha-beta)
    or deepest tree ply (MCTS); ``seconds``: time used; ``engine``: the registry
    name of the searcher; ``root_moves``: every legal root move, best first;
    ``tablebase``: the answer comes from the side-4 tablebase (exact, no search);
    ``turn``: the side to move (set by ``Searcher.go``), whom ``score`` is for.
    ``str(result)`` is the line a person reads: the score from Green's side with its
    unit (``search.score.green_text``), counts with thousands separators.
    """

    move: Move | None
    score: Score
    pv: list[Move] = field(default_factory=list)
    nodes: int = 0
    nps: float = 0.0
    depth: int = 0
    seconds: float = 0.0
    engine: str = ""
    root_moves: list[RootMove] = field(default_factory=list)
    tablebase: bool = False
    turn: Color | None = None

    @property
    def score_text(self) -> str:
        return str(self.score)

    @property
    def mate(self) -> int | None:
        return self.score.mate

    def __str__(self) -> str:
        return f"{self.engine} {self.progress_text()}"

    def progress_text(self) -> str:
        """``depth 4: Green +35.72 tokens, 89% to win; 9,850 nodes in 0.016 s (619,120
        nodes/s); pv J6-I6xG6 B2-B3xB4``: ``str(result)`` without the engine's name."""
        from .score import green_text, mover_text

        score = mover_text(self.score) if self.turn is None else green_text(self.score, self.turn)
        how = (
            f"{self.nodes:,} positions looked up in the side-4 tablebase"
            if self.tablebase
            else f"{self.nodes:,} nodes in {self.seconds:.3f} s ({self.nps:,.0f} nodes/s)"
        )
        pv = " ".join(str(m) for m in self.pv)
        return f"depth {self.depth}: {score}; {how}; pv {pv}"
