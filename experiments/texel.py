"""Texel tuning of alpha-beta's fitted evaluation: a logistic fit of game results.

    python -m experiments.texel generate --out texel.npz --seconds 900   # self-play, sides 6-9
    python -m experiments.texel fit texel.npz                            # weights for evaluate.py
    python -m experiments.texel check                                         # side 4, tablebase labels
    python -m experiments.texel records GAMES.hgn ... --out games.npz         # leaves of played games

    # side 4's own weights (search/weights.py; no --leaves: see there):
    python -m experiments.texel generate --sizes 4 --out texel4.npz --seconds 150 --seed 8
    python -m experiments.texel fit texel4.npz --l2 1e-3 --unit fitted

Example: python -m experiments.texel check --positions 500

``generate`` plays self-play games (``--engine``, default ``alphabeta``, or an
engine with options such as ``alphabeta:quiescence=0``, at ``--nodes`` 800 a move, after 2 to 10 uniformly random opening plies so the games
differ) on the sides ``--sizes`` (default 6 to 9) and keeps, for every position after the opening, the raw terms
of the evaluation (``terms.board_terms``), the phase (the fraction of interior
cells filled), the cells (``cell_states``: what ``experiments.learned_eval`` fits) and
the game's result for the side to move. Positions with a verdict (no
legal move, or an elimination now) are left out: the search scores them exactly.

``records`` takes the positions of games already played instead (match files: every
game once, however many files hold it), each replaced by its leaf as ``generate
--leaves`` does, labelled with the game's result: games between stronger players than
self-play at a few hundred nodes a move affords.

``fit`` fits the fitted evaluation's model, ``P(side to move wins) = sigmoid(score)``
with ``score = sum_i term_i * (opening_i * (1 - phase) + end_i * phase)`` (the terms
of ``FITTED_TERMS``, ``tempo`` being 1), by minimising the logistic loss (scipy's
L-BFGS, a little L2), as Texel tuning does for chess. The weights are then converted
from log-odds to centi-tokens at the scale that fits the classic evaluation best on
the same positions (so a fitted centi-token means what a classic one does), and
printed as the two tuples of ``evaluate.py``.
Half the games (by game, so that positions of one game stay together) are held out to
report the loss of the fit beside the hand-set ``classic`` weights.

With ``generate --leaves`` each position is replaced by the leaf of its depth-1 search
(the principal variation played out: the root move and the quiescence's flips), where the
search applies the evaluation, labelled with the game's result for the leaf's side to
move; the sides 6-9 ``leaf-fitted`` weights come from such a fit (``fit --unit
fitted``: in the fitted evaluation's centi-tokens), and each side's own weights
(``search/weights.py``) from one fit per side (``generate --sizes S --leaves``, then ``fit
--l2 1e-5 --unit leaf-fitted``: in the sides 6-9 leaf fit's centi-tokens).

``check`` samples side-4 positions from random games and compares each evaluation's
sign with the exact result of the side-4 tablebase (win or loss for the side to
move): agreement rate and logistic loss, by phase, of the classic, fitted and
leaf-fitted weights (sides 6-9) and of leaf-fitted's side-4 weights
(``search/weights.py``, evaluator ``leaf-fitted`` on side 4). It measures how well a fit to sides 6-9 carries over to a
board it never saw; the tablebase only measures here, it never trains.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from hinge_fast import Board, Color
from hinge_fast.board import bitboard_cells
from hinge_fast.search import Limits, create_searcher
from hinge_fast.search.evaluate import FITTED_TERMS, WEIGHTS
from hinge_fast.search.registry import parse_engine_spec
from hinge_fast.search.terms import board_terms
from hinge_fast.search.weights import (
    FITTED_END,
    FITTED_OPENING,
    LEAF_FITTED_END,
    LEAF_FITTED_OPENING,
    LEAF_FITTED_SIDE4,
)
from scripts import run_script

K = len(FITTED_TERMS)


def features(board: Board):
    """``(terms + (1,), phase)`` of ``board``, or None when it has a verdict."""
    terms, n_own, can_eliminate = board_terms(board.size, board.own, board.enemy)
    if n_own == 0 or can_eliminate:
        return None
    size = board.size
    cells = 3 * (size - 1) * (size - 2) + 1
    tokens = board.token_count(Color.GREEN) + board.token_count(Color.BLUE)
    return np.array(list(terms) + [1], dtype=np.float64), tokens / cells


#: The most cells of any side (side 9): ``cells`` rows are padded to it.
MAX_CELLS = 3 * 9 * 8 + 1


def cell_states(board: Board) -> np.ndarray:
    """Each cell's state from the side to move's view (1 its token, 2 the other side's,
    0 empty), in cell-index order, padded with -1 to ``MAX_CELLS``."""
    states = np.full(MAX_CELLS, -1, dtype=np.int8)
    size = board.size
    states[: 3 * size * (size - 1) + 1] = 0
    states[bitboard_cells(board.own)] = 1
    states[bitboard_cells(board.enemy)] = 2
    return states


class Positions:
    """The rows of a data file as they are gathered: each kept position's terms, phase,
    cells and result for its side to move, by game."""

    def __init__(self):
        self.rows: list = []
        self.phases: list = []
        self.results: list = []
        self.game_ids: list = []
        self.sizes: list = []
        self.cells: list = []
        self.games = 0

    def add_game(self, kept, size: int, winner: int) -> None:
        """One game's kept positions (``leaf_row``'s answers) and its winner."""
        for (terms, phase), turn, states in kept:
            self.cells.append(states)
            self.rows.append(terms)
            self.phases.append(phase)
            self.results.append(1.0 if turn == winner else 0.0)
            self.game_ids.append(self.games)
            self.sizes.append(size)
        self.games += 1

    def save(self, out: str) -> str:
        from hinge_fast.core.atomic import write_atomic

        out = out if str(out).endswith(".npz") else f"{out}.npz"  # the name numpy would give it
        write_atomic(
            out,
            lambda f: np.savez_compressed(
                f,
                terms=np.array(self.rows),
                phase=np.array(self.phases),
                result=np.array(self.results),
                game=np.array(self.game_ids),
                size=np.array(self.sizes),
                cells=np.array(self.cells, dtype=np.int8),
            ),
        )
        return out


def leaf_row(board: Board, probe):
    """``(features, turn, cells)`` of ``board`` or, with a ``probe`` searcher, of the
    leaf of its depth-1 search (the principal variation played out: the root move and
    the quiescence's flips), where the search applies the evaluation; None when that
    position has a verdict."""
    at = board
    if probe is not None:
        at = board.copy()
        for move in probe.go(board, Limits(depth=1)).pv:
            at.push(move)
    f = None if at.is_game_over() else features(at)
    return None if f is None else (f, int(at.turn), cell_states(at))


def generate(args) -> None:
    rng = random.Random(args.seed)
    name, options = parse_engine_spec(args.engine)
    if name == "alphabeta":
        options.setdefault("threads", 1)  # deterministic under a node limit
    searcher = create_searcher(name, **options)
    probe = create_searcher(name, **options) if args.leaves else None
    limits = Limits(nodes=args.nodes)
    data = Positions()
    started = time.monotonic()
    while time.monotonic() - started < args.seconds and data.games < args.games:
        size = rng.choice(args.sizes)
        board = Board(size)
        for _ in range(rng.randint(2, 10)):
            if board.is_game_over():
                break
            board.push(rng.choice(board.legal_moves))
        kept = []
        while not board.is_game_over() and len(board.move_stack) < args.max_plies:
            row = leaf_row(board, probe)
            if row is not None:
                kept.append(row)
            board.push(searcher.go(board, limits).move)
        outcome = board.outcome()
        if outcome is None or outcome.winner is None:
            continue
        data.add_game(kept, size, int(outcome.winner))
        if data.games % 20 == 0:
            print(
                f"{data.games} games, {len(data.rows)} positions, {time.monotonic() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    out = data.save(args.out)
    print(f"{data.games} games, {len(data.rows)} positions -> {out}")


def from_records(args) -> None:
    """The leaf positions (as ``generate --leaves``) of the games of match files, each
    game once (a game found in two files is counted once), labelled with its result."""
    from hinge_fast.records.record import read_records

    probe = create_searcher("alphabeta", threads=1, tablebase="off")
    data = Positions()
    seen = set()
    for path in args.records:
        for record in read_records(path):
            boards = record.boards()
            game = tuple(b.fen() for b in boards)
            outcome = boards[-1].outcome()
            if game in seen or outcome is None or outcome.winner is None:
                continue
            seen.add(game)
            kept = [leaf_row(b, probe) for b in boards[:-1]]
            data.add_game([r for r in kept if r is not None], boards[0].size, int(outcome.winner))
    out = data.save(args.out)
    print(f"{data.games} games, {len(data.rows)} positions -> {out}")


def design(terms, phase):
    """The fit's inputs: each term times (1 - phase), then times phase."""
    p = phase[:, None]
    return np.hstack([terms * (1 - p), terms * p])


def logistic_loss(w, x, y, l2=0.0):
    z = x @ w
    # log(1 + e^z) - y z, computed stably, and its gradient.
    loss = np.logaddexp(0.0, z) - y * z
    grad = x.T @ (1 / (1 + np.exp(-z)) - y) / len(y)
    return loss.mean() + l2 * (w @ w), grad + 2 * l2 * w


def fit_weights(x, y, l2=1e-6):
    from scipy.optimize import minimize

    w0 = np.zeros(x.shape[1])
    answer = minimize(logistic_loss, w0, args=(x, y, l2), jac=True, method="L-BFGS-B")
    return answer.x


def classic_vector():
    """The classic weights in the fit's layout (same in both phases, tempo 0)."""
    v = np.array(list(WEIGHTS) + [0], dtype=np.float64)
    return np.concatenate([v, v])


def best_scale(v, x, y):
    """The logistic loss of centi-token weights ``v`` at the best scale (centi-tokens to log-odds)."""
    from scipy.optimize import minimize_scalar

    answer = minimize_scalar(
        lambda k: logistic_loss(v * k, x, y)[0], bounds=(1e-6, 0.1), method="bounded"
    )
    return answer.fun, answer.x


def fit(args) -> None:
    data = np.load(args.data)
    terms, phase, y, game = data["terms"], data["phase"], data["result"], data["game"]
    x = design(terms, phase)
    train = game % 2 == 0
    test = ~train
    print(
        f"{len(y)} positions from {len(set(game.tolist()))} games; sizes {sorted(set(data['size'].tolist()))}; "
        f"side to move won {y.mean():.3f}"
    )
    w = fit_weights(x[train], y[train], args.l2)
    held_out = logistic_loss(w, x[test], y[test])[0]
    classic_loss, _ = best_scale(classic_vector(), x[test], y[test])
    fitted = np.array(FITTED_OPENING + FITTED_END, dtype=np.float64)
    fitted_loss, _ = best_scale(fitted, x[test], y[test])
    leaf = np.array(LEAF_FITTED_OPENING + LEAF_FITTED_END, dtype=np.float64)
    leaf_loss, _ = best_scale(leaf, x[test], y[test])
    base = logistic_loss(np.zeros(x.shape[1]), x[test], y[test])[0]
    print(
        f"held-out logistic loss: this fit {held_out:.4f}, evaluate.py's fitted (best scale) {fitted_loss:.4f}, "
        f"leaf-fitted of sides 6-9 (best scale) {leaf_loss:.4f}, "
        f"classic (best scale) {classic_loss:.4f}, constant {base:.4f}"
    )
    accuracy = np.mean((x[test] @ w > 0) == (y[test] > 0.5))
    fitted_accuracy = np.mean((x[test] @ fitted > 0) == (y[test] > 0.5))
    print(
        f"held-out sign agreement with the result: this fit {accuracy:.3f}, evaluate.py's fitted {fitted_accuracy:.3f}"
    )
    w_all = fit_weights(x, y, args.l2)
    # Centi-tokens as the evaluation named by --unit (classic, fitted, or the sides 6-9
    # leaf fit) means them: its best scale (log-odds per centi-token) on all the
    # positions converts the fitted log-odds.
    unit = {"classic": classic_vector(), "fitted": fitted, "leaf-fitted": leaf}[args.unit]
    _, k = best_scale(unit, x, y)
    centi = w_all / k
    print(
        f"all positions: the {args.unit} evaluation's 1 centi-token = {k:.5f} log-odds, the unit of the weights below"
    )
    for name, a, b in zip(FITTED_TERMS, centi[:K], centi[K:]):
        print(f"  {name:<11} opening {a:8.1f}  end {b:8.1f}")
    print("FITTED_OPENING = (" + ", ".join(f"{v:.0f}" for v in centi[:K]) + ")")
    print("FITTED_END = (" + ", ".join(f"{v:.0f}" for v in centi[K:]) + ")")


def check(args) -> None:
    from hinge_fast.solving.tablebase import Tablebase, probe

    tb = Tablebase(args.tablebase)
    rng = random.Random(args.seed)
    rows, phases, labels = [], [], []
    while len(rows) < args.positions:
        board = Board(4)
        for _ in range(rng.randint(0, 18)):
            if board.is_game_over():
                break
            board.push(rng.choice(board.legal_moves))
        if board.is_game_over():
            continue
        f = features(board)
        if f is None:
            continue
        answer = probe(board, tb)
        rows.append(f[0])
        phases.append(f[1])
        labels.append(1.0 if answer.win else 0.0)
    terms, phase, y = np.array(rows), np.array(phases), np.array(labels)
    x = design(terms, phase)
    print(
        f"{len(y)} side-4 positions from random games (seed {args.seed}); side to move wins {y.mean():.3f}"
    )
    fitted = np.array(FITTED_OPENING + FITTED_END, dtype=np.float64)
    leaf = np.array(LEAF_FITTED_OPENING + LEAF_FITTED_END, dtype=np.float64)
    leaf4 = np.array(LEAF_FITTED_SIDE4, dtype=np.float64)
    for name, v in (
        ("classic", classic_vector()),
        ("fitted", fitted),
        ("leaf-69", leaf),
        ("leaf-4", leaf4),
    ):
        loss, k = best_scale(v, x, y)
        agree = (x @ v > 0) == (y > 0.5)
        by_phase = []
        for low, high in ((0, 0.25), (0.25, 0.5), (0.5, 1.01)):
            mask = (phase >= low) & (phase < high)
            by_phase.append(f"{agree[mask].mean():.3f} ({mask.sum()})")
        print(
            f"{name:<8} sign agreement {agree.mean():.3f}  by filled fraction <0.25, <0.5, rest: "
            + ", ".join(by_phase)
            + f"  logistic loss {loss:.4f}"
        )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m experiments.texel", description=__doc__.split("\n\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="self-play positions with results")
    g.add_argument("--out", required=True)
    g.add_argument("--sizes", type=int, nargs="+", default=[6, 7, 8, 9])
    g.add_argument("--engine", default="alphabeta")
    g.add_argument("--nodes", type=int, default=800)
    g.add_argument("--seconds", type=float, default=600)
    g.add_argument("--games", type=int, default=10**9)
    g.add_argument("--max-plies", type=int, default=400)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument(
        "--leaves",
        action="store_true",
        help="keep the leaf of each position's depth-1 search (its PV played out), not the position",
    )
    r = sub.add_parser("records", help="leaf positions of the games of match files")
    r.add_argument("records", nargs="+", help="match files (.hgn)")
    r.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit the weights")
    f.add_argument("data")
    f.add_argument("--l2", type=float, default=1e-6)
    f.add_argument(
        "--unit",
        choices=("classic", "fitted", "leaf-fitted"),
        default="classic",
        help="print the weights in the centi-tokens of this evaluation (its best scale on the data)",
    )
    c = sub.add_parser("check", help="side 4 against the tablebase")
    c.add_argument("--positions", type=int, default=3000)
    c.add_argument("--seed", type=int, default=4)
    c.add_argument("--tablebase", default=None)
    args = parser.parse_args(argv)
    {"generate": generate, "records": from_records, "fit": fit, "check": check}[args.command](args)


if __name__ == "__main__":
    run_script(main)
