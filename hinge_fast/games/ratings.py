"""One rating list from the games of many players: logistic Elo fitted by maximum
likelihood over all the games at once (as Ordo and BayesElo do).

A game between players ``i`` and ``j`` is scored for ``i`` (1, 0, or 1/2 for an
unfinished game); the model gives ``i`` the expected score ``1 / (1 + 10**(-(r_i -
r_j) / 400))``. The ratings maximise the likelihood of all the scores, with one virtual
drawn game (two half-points) added to every pairing that played, as BayesElo's prior
does: without it a player that won every game would have an infinite rating. Ratings
are relative: they are shifted to average 0. The 95% interval of each rating comes
from the curvature of the log-likelihood at the maximum (the inverse Hessian, with the
average held at 0).

Two players, ``a`` winning 3 games of 4: with the virtual draw, 3.5 points of 5, a
score of 0.7, which is ``400 log10(0.7 / 0.3) = 147`` Elo between them::

    >>> ratings = fit_ratings(["a", "b"], [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)])
    >>> [round(r.elo) for r in ratings]
    [74, -74]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import HingeError

#: Virtual drawn games added to every pairing that played.
PRIOR_DRAWS = 1.0
_K = math.log(10) / 400
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Rating:
    """A player's line of the list: ``elo`` with its 95% interval ``elo +- margin``,
    ``games`` played and ``score`` (its points over its games)."""

    name: str
    elo: float
    margin: float
    games: int
    score: float

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "elo": self.elo,
            "interval": [self.elo - self.margin, self.elo + self.margin],
            "margin": self.margin,
            "games": self.games,
            "score": self.score,
        }


def fit_ratings(names, games, prior_draws: float = PRIOR_DRAWS) -> list:
    """Ratings (``Rating``, best first) of the players ``names`` from ``games``:
    ``(i, j, score of i)`` triples of indices into ``names``."""
    from scipy.optimize import minimize

    n = len(names)
    if n < 2:
        raise HingeError("a rating list needs at least two players")
    points = np.zeros((n, n))
    played = np.zeros((n, n))
    for i, j, score in games:
        if i == j:
            raise HingeError(f"player {names[i]} cannot play itself")
        points[i, j] += score
        points[j, i] += 1.0 - score
        played[i, j] += 1
        played[j, i] += 1
    counts = played.sum(axis=1)
    scores = points.sum(axis=1)
    pairs = played > 0
    games_ij = played + prior_draws * pairs
    points_ij = points + 0.5 * prior_draws * pairs

    def expected(r):
        return 1.0 / (1.0 + np.exp(-_K * (r[:, None] - r[None, :])))

    def negative_log_likelihood(x):
        r = np.append(x, -x.sum())
        p = np.clip(expected(r), 1e-300, 1.0)
        value = -(points_ij * np.log(p)).sum()
        grad_r = _K * (games_ij * expected(r) - points_ij).sum(axis=1)
        return value, grad_r[:-1] - grad_r[-1]

    result = minimize(
        negative_log_likelihood,
        np.zeros(n - 1),
        jac=True,
        method="BFGS",
        options={"gtol": 1e-9, "maxiter": 10_000},
    )
    r = np.append(result.x, -result.x.sum())
    p = expected(r)
    weight = _K**2 * games_ij * p * (1 - p)
    hessian = np.diag(weight.sum(axis=1)) - weight
    covariance = np.linalg.pinv(hessian)
    margins = Z95 * np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    table = [
        Rating(
            str(names[i]),
            float(r[i]),
            float(margins[i]),
            int(counts[i]),
            float(scores[i] / counts[i]) if counts[i] else 0.0,
        )
        for i in range(n)
    ]
    return sorted(table, key=lambda t: (-t.elo, t.name))


def ratings_table(ratings) -> str:
    """The list as text: rank, name, Elo +- interval, games, score."""
    width = max(len("player"), *(len(r.name) for r in ratings))
    lines = [
        f"{'rank':>4}  {'player':<{width}}  {'Elo':>7}  {'95%':>6}  {'games':>5}  {'score':>6}"
    ]
    for rank, r in enumerate(ratings, start=1):
        margin = "inf" if not math.isfinite(r.margin) else f"{r.margin:.1f}"
        lines.append(
            f"{rank:>4}  {r.name:<{width}}  {round(r.elo, 1) + 0.0:>+7.1f}  {'+-' + margin:>6}  {r.games:>5}  {100 * r.score:>5.1f}%"
        )
    return "\n".join(lines)
