"""What a person asks about a position: material, threats, the engine's best moves.

    >>> from hinge_fast import Board
    >>> from hinge_fast.analysis.position import analyze, threats
    >>> board = Board.from_fen("6/7/8/9/10/4gg5/5b4/9/8/2b4/6 g")
    >>> [(t.side, t.group) for t in threats(board)]
    [('blue', ['F5'])]
    >>> report = analyze(board, engine="mcts", nodes=500, seed=1)
    >>> report.best is not None and report.to_dict()["turn"]
    'green'

``analyze`` returns an :class:`Analysis` with ``to_dict()`` (the JSON schema in
docs/usage.md) and ``to_text()``. Threats are found by generating the moves of both
sides (for the side not to move, as if it were its turn) and collecting the enemy
groups their swipes would flip.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..board import Board, Color, Move, Outcome
from ..errors import HingeError
from ..search.limits import Limits
from ..search.registry import check_limits, create_searcher, engine_spec
from ..search.result import SearchResult
from ..search.score import Score, green_text, mover_text
from .svg import COLORS
from .svg import board as board_svg

DEFAULT_TOP = 5
MAX_SHOWN_MOVES = 6


@dataclass
class Threat:
    """A group of ``side`` that ``attacker`` could flip with one move: the group's
    cells and the moves that flip it. ``to_move``: the attacker is the side to move
    (it can do it now); otherwise only if it were its turn (it is a threat the side to
    move must answer)."""

    side: str
    attacker: str
    group: list[str]
    moves: list[str]
    to_move: bool

    def to_dict(self) -> dict:
        return {
            "side": self.side,
            "attacker": self.attacker,
            "group": self.group,
            "tokens": len(self.group),
            "moves": self.moves,
            "to_move": self.to_move,
        }


@dataclass
class Elimination:
    """A swipe by ``side`` that flips the opponent's last tokens (wins at once)."""

    side: str
    move: str
    to_move: bool

    def to_dict(self) -> dict:
        return {"side": self.side, "move": self.move, "to_move": self.to_move}


def _turned(board: Board) -> Board:
    """The same tokens with the other side to move."""
    text = board.fen()
    return Board.from_fen(text[:-1] + ("b" if text.endswith("g") else "g"))


def _attacks(board: Board):
    """(threats, eliminations) of the side to move of ``board``."""
    attacker = board.turn
    enemy_count = board.token_count(attacker.other)
    by_group: dict[tuple, list[str]] = {}
    eliminations = []
    for code, flip in zip(board.legal_codes, board.legal_flips):
        move = board.move_from_code(code)
        if not move.is_swipe:
            continue
        cells = tuple(board.cells_of(flip))  # in (c, r) order
        by_group.setdefault(cells, []).append(str(move))
        if len(cells) == enemy_count:
            eliminations.append(str(move))
    threat_list = [(list(cells), moves) for cells, moves in by_group.items()]
    return threat_list, eliminations


def threats(board: Board) -> list[Threat]:
    """Every group of either side that the opponent could flip with one move: first
    those of the side not to move (flippable now), then those of the side to move (if
    the opponent were to move), each list largest group first."""
    out: list[Threat] = []
    for b, to_move in ((board, True), (_turned(board), False)):
        attacker = b.turn
        found, _ = _attacks(b)
        found.sort(key=lambda item: (-len(item[0]), item[0]))
        out.extend(
            Threat(str(attacker.other), str(attacker), group, moves, to_move)
            for group, moves in found
        )
    return out


def eliminations(board: Board) -> list[Elimination]:
    """Swipes that would flip the opponent's last tokens: the side to move's (winning
    now), then the other side's (if it were its turn)."""
    out: list[Elimination] = []
    for b, to_move in ((board, True), (_turned(board), False)):
        _, moves = _attacks(b)
        out.extend(Elimination(str(b.turn), move, to_move) for move in moves)
    return out


def root_move_text(root_move, depth: int | None = None, turn=None, green: bool = True) -> str:
    """A root move's score as a person reads it. Without ``turn``: ``+1.25``, ``win in
    3``, ``62.5% (1,234 visits)`` for the side to move. With ``turn`` (the side to move),
    naming a side and the unit: from Green's side as ``search.score.green_text`` words it
    (``Green +1.25 tokens, 52% to win``, ``Blue wins in 3``, ``Green 62% to win (1,234
    visits)``), or with ``green=False`` from the side to move's, as
    ``search.score.mover_text`` words it (``Blue -1.25 tokens``, ``Blue loses in 3``).
    ``(depth 4)`` follows a score from another depth than the result's ``depth`` (an
    unfinished iteration leaves some moves one depth short)."""
    score = root_move.score
    if score is None:
        return "not fully searched"
    if turn is None:
        text = str(score)
    else:
        text = green_text(score, turn) if green else mover_text(score, turn)
    if score.kind == "rate":
        text += f" ({root_move.visits:,} visit{'' if root_move.visits == 1 else 's'})"
    if depth is not None and root_move.depth and root_move.depth != depth:
        text += f" (depth {root_move.depth})"
    return text


def ranked_root_moves(result) -> list:
    """The result's root moves for showing: those scored at the deepest depth first,
    then the rest, each group in the searcher's order (best first). Scores from
    different depths are not comparable, so they are never interleaved."""
    moves = list(result.root_moves)
    return sorted(moves, key=lambda rm: -rm.depth if rm.score is not None else 1)


def _score_number(score):
    """The JSON ``score``: centi-tokens or a win rate; None for a proven result (see ``mate``)."""
    if score is None or score.is_mate:
        return None
    return score.value


def _chance(score):
    """The JSON ``win_chance``: the side to move's chance to win, rounded (None: no score)."""
    return None if score is None else round(score.win_chance, 4)


@dataclass
class Analysis:
    """The report on one position. ``to_dict()`` gives the JSON object, ``to_text()``
    the plain text of ``hinge-fast analyze``."""

    board: Board
    outcome: Outcome | None = None
    evaluation: dict | None = None
    threats: list[Threat] = field(default_factory=list)
    eliminations: list[Elimination] = field(default_factory=list)
    result: SearchResult | None = None  # None when the game is over
    top: int = DEFAULT_TOP
    engine: str | None = None

    @property
    def best(self) -> Move | None:
        return None if self.result is None else self.result.move

    def _move_dict(self, root_move) -> dict:
        depth = None if self.result is None else self.result.depth
        return {
            "move": str(root_move.move),
            "score": _score_number(root_move.score),
            "score_text": root_move_text(root_move, depth, self.board.turn, green=False),
            "mate": root_move.mate,
            "win_rate": root_move.win_rate,
            "visits": root_move.visits,
            "depth": root_move.depth or None,
            "win_chance": _chance(root_move.score),
            "green_text": root_move_text(root_move, depth, self.board.turn),
            "pv": [str(m) for m in root_move.pv],
        }

    def to_dict(self) -> dict:
        board = self.board
        result = self.result
        out = {
            "position": board.fen(),
            "size": board.size,
            "turn": str(board.turn),
            "tokens": {str(c): board.token_count(c) for c in Color},
            "groups": {str(c): len(board.groups(c)) for c in Color},
            "outcome": None
            if self.outcome is None
            else {"winner": str(self.outcome.winner), "reason": self.outcome.reason},
            "legal_moves": len(board.legal_codes),
            "evaluation": self.evaluation,
            "engine": self.engine if result is not None else None,
            "time": None if result is None else round(result.seconds, 4),
            "nodes": None if result is None else result.nodes,
            "depth": None if result is None else result.depth,
            "tablebase": None if result is None else result.tablebase,
            "best": None,
            "top": [],
            "pv": [] if result is None else [str(m) for m in result.pv],
            "threats": [t.to_dict() for t in self.threats],
            "eliminations": [e.to_dict() for e in self.eliminations],
        }
        if result is not None and result.move is not None:
            out["best"] = {
                "move": str(result.move),
                "score": _score_number(result.score),
                "score_text": mover_text(result.score, board.turn),
                "mate": result.mate,
                "win_chance": _chance(result.score),
                "green_text": green_text(result.score, board.turn),
            }
            out["top"] = [self._move_dict(rm) for rm in ranked_root_moves(result)[: self.top]]
        return out

    def to_text(self) -> str:
        board = self.board
        lines = [f"position: {board.fen()}"]
        counts = {c: (board.token_count(c), len(board.groups(c))) for c in Color}
        lines.append(
            f"side {board.size}, {board.turn} to move; "
            + ", ".join(
                f"{c} {_plural(n, 'token')} in {_plural(g, 'group')}"
                for c, (n, g) in counts.items()
            )
        )
        if self.outcome is not None:
            lines.append(f"game over: {self.outcome}")
            return "\n".join(lines)
        if self.evaluation is not None and "total" in self.evaluation:
            verdict = self.evaluation.get("verdict")
            if verdict == "eliminates":
                lines.append(f"static evaluation: {board.turn} can eliminate now")
            elif verdict == "lost":
                lines.append(f"static evaluation: {board.turn} has no legal move")
            else:
                lines.append(
                    f"static evaluation: {green_text(Score.centi(self.evaluation['total']), board.turn, chance=False)}"
                )
        result = self.result
        if result is not None and result.move is not None:
            how = (
                f"from the side-4 tablebase, {result.nodes:,} positions looked up"
                if result.tablebase
                else f"depth {result.depth}, {result.nodes:,} nodes"
            )
            lines.append(
                f"best: {result.move}, {green_text(result.score, board.turn)} ({self.engine}, {how} in "
                f"{result.seconds:.2f} s)"
            )
            lines.append(f"top moves {_top_meaning(result)}:")
            shown = ranked_root_moves(result)[: self.top]
            width = max(len(str(rm.move)) for rm in shown) if shown else 0
            for i, rm in enumerate(shown, start=1):
                lines.append(
                    f"  {i}. {str(rm.move):<{width}}  {root_move_text(rm, result.depth, board.turn)}"
                )
            lines.append("principal variation: " + " ".join(str(m) for m in result.pv))
        now = [t for t in self.threats if t.to_move]
        later = [t for t in self.threats if not t.to_move]
        lines.append(f"threats by {board.turn} (groups it can flip now): {len(now) or 'none'}")
        lines.extend(_threat_line(t) for t in now)
        lines.append(
            f"threats against {board.turn} (groups {board.turn.other} could flip next): {len(later) or 'none'}"
        )
        lines.extend(_threat_line(t) for t in later)
        if self.eliminations:
            for to_move in (True, False):
                found = [e for e in self.eliminations if e.to_move == to_move]
                if found:
                    when = "now" if to_move else "if it were its turn"
                    lines.append(
                        f"elimination: {found[0].side} wins {when} with {', '.join(e.move for e in found)}"
                    )
        else:
            lines.append("eliminations: none")
        return "\n".join(lines)


def _top_meaning(result) -> str:
    """What the listed moves' scores are, in words."""
    if result.tablebase:
        return "(exact, from the side-4 tablebase)"

    if engine_spec(result.engine).progress_unit == "playouts":
        return "(most visited first; each the win rate of the playouts through it)"
    return f"(each line searched to depth {result.depth})"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _threat_line(t: Threat) -> str:
    moves = t.moves[:MAX_SHOWN_MOVES]
    more = f" and {len(t.moves) - len(moves)} more" if len(t.moves) > len(moves) else ""
    return f"  {t.side} {' '.join(t.group)} ({len(t.group)}): {', '.join(moves)}{more}"


def analyze(
    board: Board,
    engine: str | None = None,
    time: float | None = 1.0,
    nodes: int | None = None,
    depth: int | None = None,
    top: int = DEFAULT_TOP,
    seed: int | None = None,
    **options,
) -> Analysis:
    """Analyse ``board``: outcome, evaluation terms, threats, eliminations and (unless
    the game is over) a search. ``time`` is the search's own time in seconds, all of it
    used (the searcher loads its kernels before its clock starts, and the threat scan
    comes before that).
    ``engine``: a registry name (None: the default engine); ``options``: its options.

    >>> from hinge_fast import Board
    >>> analyze(Board(5), engine="mcts", nodes=200, seed=3).result.nodes
    200
    """
    if not isinstance(board, Board):
        raise HingeError(f"analyze needs a Board, not {type(board).__name__}")
    if not isinstance(top, int) or top < 1:
        raise HingeError(f"top must be a whole number of moves, at least 1, not {top!r}")

    spec = engine_spec(engine)
    engine = spec.name
    limits = Limits(time=time, nodes=nodes, depth=depth)  # a bad limit is reported as such
    check_limits(engine, limits)
    report = Analysis(board=board, top=top, engine=engine)
    report.outcome = board.outcome()
    if report.outcome is not None:
        report.engine = None
        return report
    report.evaluation = _evaluation(board)
    report.threats = threats(board)
    report.eliminations = eliminations(board)

    # A searcher with MultiPV searches the top K lines, each scored exactly at the same
    # depth (alpha-beta); the others list their moves best first by their own measure
    # (MCTS: visits, each with its win rate).
    if "multipv" in spec.option_names:
        high = spec.option("multipv").high
        options.setdefault("multipv", top if high is None else min(top, int(high)))
    if seed is not None and "seed" in spec.option_names:
        options["seed"] = seed
    searcher = create_searcher(engine, **options)
    search_time = time
    if time is None and nodes is None and depth is None:
        search_time = 1.0
    report.result = searcher.go(board, Limits(time=search_time, nodes=nodes, depth=depth))
    return report


def _evaluation(board: Board) -> dict:
    """evaluate_board's named terms (imported here: it loads the numba kernels)."""
    from ..search.evaluate import evaluate_board

    return evaluate_board(board)


def analysis_svg(report: Analysis, **options) -> str:
    """The picture of an analysed position: the best move as an arrow (the group it
    flips crossed out) and written under the board with its score, the groups the side
    to move can flip outlined in orange, its own groups under threat in red, and a
    legend saying so.
    ``options`` go to :func:`hinge_fast.analysis.svg.board`."""
    outlines = [
        (t.group, COLORS["outline_attack"] if t.to_move else COLORS["outline"])
        for t in report.threats
    ]
    options.setdefault("lastmove", None)
    best_text = None
    if report.result is not None and report.result.move is not None:
        from ..search.score import green_text

        best_text = f"{green_text(report.result.score, report.board.turn)} ({report.engine})"
    return board_svg(
        report.board, best=report.best, best_text=best_text, outlines=outlines, **options
    )
