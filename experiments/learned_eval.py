"""Would a learned evaluation predict game results better than the fitted linear one?

    python -m experiments.texel generate --sizes 6 --leaves --seconds 1800 --seed 11 --out s6.npz
    python -m experiments.learned_eval s6.npz --limit 300000 --epochs 3 --pattern-l2 1e-4

Example (side 9, a wider network):
python -m experiments.learned_eval s9.npz --limit 300000 --epochs 3 --pattern-l2 1e-4 --hidden 64

Fits three models of ``P(side to move wins)`` on the positions of ``experiments.texel
generate --leaves`` (half the games; the other half held out) and prints each
one's held-out logistic loss and sign agreement with the result:

``linear``
    the fitted evaluation's own model (``experiments.texel``: each term weighted by the
    phase), refitted on these positions: the baseline.
``mlp``
    a small network over the same terms and the phase (one hidden layer of ``--hidden``
    ReLU units), trained with Adam: what a nonlinear mix of the terms adds.
``patterns``
    the linear model plus one weight per local pattern (a cell and its six neighbours,
    each empty, the side to move's, the other side's or off the board, up to the
    board's twelve symmetries), counted over the board: what the cells add beyond the
    terms.

A model worth building into the engine must lower the held-out loss clearly; then it
still has to win games at equal time. On 300,000 positions of each side neither did
(docs/search-alphabeta.md, "Tried and not adopted").
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np

from hinge_fast.core.geometry import geometry
from scripts import run_script

from .texel import design, fit_weights

#: The pattern of a cell: its state, then its six neighbours' in direction order, each
#: 0 empty, 1 the side to move's, 2 the other side's, 3 off the board.
STATES = 4


def _canonical_patterns() -> np.ndarray:
    """For every pattern number, the number of its class under the twelve symmetries
    (six rotations, each with or without a mirror), classes numbered from 0."""
    n = STATES**7
    canon = np.full(n, -1, dtype=np.int64)
    classes: dict[int, int] = {}
    rotations = [tuple((k + r) % 6 for k in range(6)) for r in range(6)]
    mirrors = [tuple((r - k) % 6 for k in range(6)) for r in range(6)]
    for code in range(n):
        digits = [(code // STATES**i) % STATES for i in range(7)]
        centre, ring = digits[0], digits[1:]
        best = None
        for perm in itertools.chain(rotations, mirrors):
            value = centre + sum(ring[perm[k]] * STATES ** (k + 1) for k in range(6))
            best = value if best is None else min(best, value)
        canon[code] = classes.setdefault(best, len(classes))
    return canon


def pattern_features(cells, sizes, phase, canon, n_classes):
    """Each position's count of each pattern class over its board's cells, weighted by
    ``1 - phase`` in the first ``n_classes`` columns and by ``phase`` in the next: a
    sparse ``[positions, 2 * n_classes]`` matrix."""
    from scipy.sparse import coo_matrix

    rows, cols, values = [], [], []
    for size in np.unique(sizes):
        geo = geometry(int(size))
        at = np.flatnonzero(sizes == size)
        states = cells[at][:, : geo.n_cells].astype(np.int64)
        padded = np.concatenate([states, np.full((len(at), 1), 3)], axis=1)
        code = states.copy()
        for k in range(6):
            neighbour = np.where(geo.neighbours[:, k] >= 0, geo.neighbours[:, k], geo.n_cells)
            code += padded[:, neighbour] * STATES ** (k + 1)
        classes = canon[code]
        row = np.repeat(at, geo.n_cells)
        p = np.repeat(phase[at], geo.n_cells)
        rows += [row, row]
        cols += [classes.ravel(), classes.ravel() + n_classes]
        values += [1 - p, p]
    shape = (len(cells), 2 * n_classes)
    return coo_matrix(
        (np.concatenate(values), (np.concatenate(rows), np.concatenate(cols))), shape=shape
    ).tocsr()


def held_out(z, y):
    """The logistic loss of the log-odds ``z`` against the results ``y``, and how often
    their sign agrees with the result."""
    return np.mean(np.logaddexp(0.0, z) - y * z), np.mean((z > 0) == (y > 0.5))


def train_mlp(x, y, x_test, y_test, hidden, epochs, seed, l2=1e-5):
    """A one-hidden-layer network, ``sigmoid(w2 . relu(W1 x + b1) + b2)``, by Adam on
    the logistic loss; returns the held-out loss and sign agreement."""
    rng = np.random.default_rng(seed)
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-9
    x, x_test = (x - mean) / std, (x_test - mean) / std
    w1 = rng.normal(0, np.sqrt(2 / x.shape[1]), (x.shape[1], hidden))
    b1 = np.zeros(hidden)
    w2 = rng.normal(0, np.sqrt(1 / hidden), hidden)
    b2 = 0.0
    params = [w1, b1, w2, np.array([b2])]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step, batch, lr = 0, 512, 1e-3
    for _ in range(epochs):
        order = rng.permutation(len(y))
        for start in range(0, len(y), batch):
            idx = order[start : start + batch]
            xb, yb = x[idx], y[idx]
            h = np.maximum(xb @ params[0] + params[1], 0)
            z = h @ params[2] + params[3][0]
            d = (1 / (1 + np.exp(-z)) - yb) / len(yb)
            g2 = h.T @ d + l2 * params[2]
            gb2 = np.array([d.sum()])
            dh = np.outer(d, params[2]) * (h > 0)
            g1 = xb.T @ dh + l2 * params[0]
            gb1 = dh.sum(axis=0)
            step += 1
            for p, g, mi, vi in zip(params, (g1, gb1, g2, gb2), m, v):
                mi *= 0.9
                mi += 0.1 * g
                vi *= 0.999
                vi += 0.001 * g * g
                p -= lr * (mi / (1 - 0.9**step)) / (np.sqrt(vi / (1 - 0.999**step)) + 1e-8)
    h = np.maximum(x_test @ params[0] + params[1], 0)
    return held_out(h @ params[2] + params[3][0], y_test)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m experiments.learned_eval", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("data", nargs="+", help="npz files of experiments.texel generate")
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--l2", type=float, default=1e-6)
    parser.add_argument("--pattern-l2", type=float, default=1e-5)
    parser.add_argument("--limit", type=int, default=400_000, help="at most this many positions")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    parts = [np.load(name) for name in args.data]
    offset, games = 0, []
    for part in parts:  # game numbers kept apart between files
        games.append(part["game"] + offset)
        offset += int(part["game"].max()) + 1
    terms = np.concatenate([p["terms"] for p in parts])
    phase = np.concatenate([p["phase"] for p in parts])
    y = np.concatenate([p["result"] for p in parts])
    sizes = np.concatenate([p["size"] for p in parts])
    cells = np.concatenate([p["cells"] for p in parts])
    game = np.concatenate(games)
    if len(y) > args.limit:
        keep = np.sort(np.random.default_rng(args.seed).permutation(len(y))[: args.limit])
        terms, phase, y, sizes, cells, game = (
            a[keep] for a in (terms, phase, y, sizes, cells, game)
        )
    train, test = game % 2 == 0, game % 2 == 1
    print(
        f"{len(y)} positions, sides {sorted(set(sizes.tolist()))}, "
        f"{int(train.sum())} to train, {int(test.sum())} held out; side to move won {y.mean():.3f}"
    )
    print(f"constant            loss {np.log(2.0):.4f}")  # log-odds 0 for every position

    x = design(terms, phase)
    w = fit_weights(x[train], y[train], args.l2)
    loss, agree = held_out(x[test] @ w, y[test])
    print(f"linear              loss {loss:.4f}  agreement {agree:.3f}")

    xm = np.hstack([terms, phase[:, None], terms * phase[:, None]])
    loss, agree = train_mlp(
        xm[train], y[train], xm[test], y[test], args.hidden, args.epochs, args.seed
    )
    print(f"mlp ({args.hidden:>3} hidden)    loss {loss:.4f}  agreement {agree:.3f}")

    from scipy.sparse import csr_matrix, diags, hstack

    canon = _canonical_patterns()
    n_classes = int(canon.max()) + 1
    xp = hstack([csr_matrix(x), pattern_features(cells, sizes, phase, canon, n_classes)]).tocsr()
    scale = np.sqrt(np.asarray(xp.multiply(xp).mean(axis=0)).ravel()) + 1e-9
    xp = (xp @ diags(1 / scale)).tocsr()
    wp = fit_weights(xp[train], y[train], args.pattern_l2)
    loss, agree = held_out(xp[test] @ wp, y[test])
    print(f"patterns ({n_classes} classes) loss {loss:.4f}  agreement {agree:.3f}")


if __name__ == "__main__":
    run_script(main)
