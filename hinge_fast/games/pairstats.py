"""Match statistics from game pairs (pentanomial), as fishtest and fastchess count them.

A match plays its games in pairs: the same opening twice, colours swapped. The two
games of a pair are not independent (an opening that favours one colour gives each
player one win), so the figures here count pairs, not games. A pair scores 0, 1/2,
1, 3/2 or 2 points for player A (an unfinished game counts half); ``ptnml[k]`` is the
number of pairs that scored ``k / 2``. With ``a_k = k / 4`` a pair's score per game
and ``N`` the number of pairs:

* mean score ``mu = sum(ptnml[k] a_k) / N``, per-pair variance
  ``var = sum(ptnml[k] (a_k - mu)^2) / N``;
* Elo ``-400 log10(1/mu - 1)``, its 95% interval from ``mu +- 1.96 sqrt(var / N)``;
* normalized Elo (nElo: Elo per standard deviation of a game, which does not depend
  on how drawish the openings are) ``(mu - 1/2) / sqrt(2 var) * 800 / ln 10``, with
  the same interval scaled alike;
* LOS (likelihood of superiority) ``Phi((mu - 1/2) / sqrt(var / N))``;
* the SPRT's log-likelihood ratio (normal approximation of the generalized SPRT)
  ``LLR = N (s1 - s0) (2 mu - s0 - s1) / (2 var)``, ``s0``, ``s1`` the scores of the
  two hypotheses' logistic Elo;
* draw ratio: the pairs that scored 1 (each side won once, or two unfinished games);
  pair ratio: ``(ptnml[3] + ptnml[4]) / (ptnml[0] + ptnml[1])``.

While every pair has the same score the variance is 0: the interval, LOS, nElo and
LLR then use the counts with a pseudo-count of 1/2 in each of the five cells, for the
mean as for the variance (the Elo itself stays at its value, +-inf at a score of 0
or 1), so that one pair won is weak evidence, as it should be.

    >>> p = Pentanomial((0, 0, 2, 2, 0))
    >>> round(p.mean, 3), round(p.elo, 1), [round(x, 1) for x in p.elo_interval()]
    (0.625, 88.7, [1.7, 188.5])
    >>> round(p.los, 4), round(p.nelo, 1)
    (0.9772, 245.7)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import HingeError

Z95 = 1.959963984540054
#: Normalized Elo per unit of score over standard deviation: ``800 / ln 10``.
NELO_PER_SIGMA = 800.0 / math.log(10.0)
#: A pair's score per game for each pentanomial cell.
CELL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def elo_from_score(score: float) -> float:
    """Logistic Elo difference for an expected score: ``elo_from_score(0.75)`` is
    about +190.8; 0 and 1 give -inf and +inf."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score for a logistic Elo difference: ``score_from_elo(0)`` is 0.5."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _moments(counts) -> tuple[float, float, float]:
    """``(n, mean, variance)`` of the cell scores weighted by ``counts``."""
    n = float(sum(counts))
    mean = sum(c * a for c, a in zip(counts, CELL_SCORES)) / n
    var = sum(c * (a - mean) ** 2 for c, a in zip(counts, CELL_SCORES)) / n
    return n, mean, var


@dataclass(frozen=True)
class Pentanomial:
    """Pair counts ``ptnml[0..4]`` (pairs that scored 0, 1/2, 1, 3/2, 2 for A) and
    the figures drawn from them (module docstring)."""

    ptnml: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)

    @property
    def pairs(self) -> int:
        return sum(self.ptnml)

    def add(self, pair_score: float) -> Pentanomial:
        """These counts with one more pair that scored ``pair_score`` (0 to 2, halves)."""
        k = round(2 * pair_score)
        if not 0 <= k <= 4 or abs(2 * pair_score - k) > 1e-9:
            raise HingeError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, not {pair_score!r}")
        counts = list(self.ptnml)
        counts[k] += 1
        ll, ld, dd, dw, ww = counts
        return Pentanomial((ll, ld, dd, dw, ww))

    @property
    def mean(self) -> float:
        """A's mean score per game (0.5 with no pair yet)."""
        return _moments(self.ptnml)[1] if self.pairs else 0.5

    def _spread(self) -> tuple[float, float, float]:
        """``(pairs, mean, variance)`` for intervals and tests: the counts' own, or with
        the pseudo-counts while the variance is 0."""
        n, mean, var = _moments(self.ptnml) if self.pairs else (0.0, 0.5, 0.0)
        if var > 0.0:
            return n, mean, var
        return _moments([c + 0.5 for c in self.ptnml])

    @property
    def variance(self) -> float:
        """The per-pair variance of the score per game (regularised while it is 0)."""
        return self._spread()[2]

    @property
    def elo(self) -> float:
        return elo_from_score(self.mean) if self.pairs else 0.0

    def elo_interval(self, z: float = Z95) -> tuple[float, float]:
        n, mean, var = self._spread()
        half = z * math.sqrt(var / n)
        return elo_from_score(max(0.0, mean - half)), elo_from_score(min(1.0, mean + half))

    @property
    def nelo(self) -> float:
        _, mean, var = self._spread()
        return (mean - 0.5) / math.sqrt(2.0 * var) * NELO_PER_SIGMA

    def nelo_interval(self, z: float = Z95) -> tuple[float, float]:
        n, _, var = self._spread()
        half = z * math.sqrt(var / n) / math.sqrt(2.0 * var) * NELO_PER_SIGMA
        return self.nelo - half, self.nelo + half

    @property
    def los(self) -> float:
        """The probability that A is the stronger (0.5 with no pair yet)."""
        if not self.pairs:
            return 0.5
        n, mean, var = self._spread()
        return normal_cdf((mean - 0.5) / math.sqrt(var / n))

    @property
    def draw_ratio(self) -> float:
        return self.ptnml[2] / self.pairs if self.pairs else 0.0

    @property
    def pair_ratio(self) -> float:
        """Pairs A won over pairs A lost (inf when A lost none and won some, nan when
        neither player won a pair)."""
        won, lost = self.ptnml[3] + self.ptnml[4], self.ptnml[0] + self.ptnml[1]
        if lost == 0:
            return math.inf if won else math.nan
        return won / lost


@dataclass(frozen=True)
class Sprt:
    """Sequential probability ratio test of H0: ``elo0`` against H1: ``elo1``
    (logistic Elo of A over B), with error rates ``alpha`` and ``beta``, on pairs."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        if not self.elo0 < self.elo1:
            raise HingeError(f"SPRT needs elo0 < elo1, not {self.elo0} and {self.elo1}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 0.5:
                raise HingeError(f"SPRT {name} must be between 0 and 0.5, not {value}")

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """``'0,50'`` or ``'0,50,0.05,0.05'`` (elo0, elo1[, alpha, beta])."""
        parts = [p.strip() for p in str(text).split(",")]
        if len(parts) not in (2, 4):
            raise HingeError(f"--sprt takes elo0,elo1 or elo0,elo1,alpha,beta, not {text!r}")
        try:
            values = [float(p) for p in parts]
        except ValueError:
            raise HingeError(
                f"--sprt takes numbers: elo0,elo1[,alpha,beta], not {text!r}"
            ) from None
        if not all(math.isfinite(v) for v in values):
            raise HingeError(f"--sprt takes finite numbers, not {text!r}")
        return cls(*values)

    @property
    def bounds(self) -> tuple[float, float]:
        """``(lower, upper)`` LLR bounds: below accepts H0, above H1."""
        return math.log(self.beta / (1.0 - self.alpha)), math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts: Pentanomial) -> float:
        """The log-likelihood ratio of the pairs so far (0 with none).

        >>> round(Sprt(0, 50).llr(Pentanomial((0, 0, 2, 2, 0))), 3)
        1.633
        """
        if not counts.pairs:
            return 0.0
        n, mean, var = counts._spread()
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)

    def decision(self, llr: float) -> str | None:
        """``'H1'`` (A is elo1 stronger), ``'H0'`` or None (go on)."""
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None


__all__ = [
    "Pentanomial",
    "Sprt",
    "elo_from_score",
    "score_from_elo",
    "normal_cdf",
    "Z95",
    "NELO_PER_SIGMA",
]
