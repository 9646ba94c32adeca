"""A match's games and results from player A's side: the score, Elo by pairs and by
games, the SPRT's state, how games ended, and the summary for a person.

Statistics
----------
The headline figures count **pairs** (pentanomial, ``pairstats.py``): the two games of
a pair share an opening, so they are not independent, and a pair carries much less
noise than two games (an opening that hands one colour the win gives each player a
win). ``ptnml`` counts the pairs that scored 0, 1/2, 1, 3/2, 2 points for A; from it
come the Elo difference with its 95% interval, the normalized Elo, the LOS, the draw
and pair ratios, and the SPRT's log-likelihood ratio (``Sprt``, logistic Elo; it
decides nothing before ``MIN_SPRT_PAIRS`` pairs). A game of an unfinished pair (the
last of an odd number of games) counts in the per-game figures only.

The per-game figures stay available: ``game_elo`` with its interval by the trinomial
method (as cutechess-cli): score ``s = (W + U/2) / N``, per-game variance
``var = [W (1-s)^2 + U (1/2-s)^2 + L s^2] / N``, interval ``s +- 1.96 sqrt(var / N)``
turned into Elo (``elo_interval``; pseudo-counts of 1/2 while every game has the same
result).
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass, field

from ..board import Color, Termination
from ..records.record import GameRecord
from .pairstats import Z95, Pentanomial, Sprt, elo_from_score

#: The endings where a player lost by failing, not on the board: out of time, or an
#: external engine that crashed, answered an illegal move, flooded its output or
#: broke the protocol.
FORFEITS = (
    Termination.TIME_FORFEIT,
    Termination.ENGINE_CRASH,
    Termination.ILLEGAL_MOVE,
    Termination.OUTPUT_FLOOD,
    Termination.ENGINE_ERROR,
)
#: The SPRT decides nothing before this many pairs: the normal approximation of the
#: LLR is poor on a handful (4 straight pair wins would already pass 200 Elo).
MIN_SPRT_PAIRS = 5


def _mean_var(wins: float, unfinished: float, losses: float) -> tuple[float, float]:
    n = wins + unfinished + losses
    s = (wins + 0.5 * unfinished) / n
    var = (wins * (1 - s) ** 2 + unfinished * (0.5 - s) ** 2 + losses * s**2) / n
    return s, var


def elo_interval(
    wins: int, losses: int, unfinished: int = 0, z: float = Z95
) -> tuple[float, float, float]:
    """``(elo, low, high)``: Elo difference and its interval (default 95%) from
    game results, trinomial method (module docstring).

    >>> [round(x, 1) for x in elo_interval(15, 5)]
    [190.8, 42.1, 477.3]
    """
    n = wins + losses + unfinished
    if n == 0:
        return 0.0, -math.inf, math.inf
    s, var = _mean_var(wins, unfinished, losses)
    if var == 0:  # one kind of result only: pseudo-counts give the interval a width
        s_reg, var = _mean_var(wins + 0.5, unfinished + 0.5, losses + 0.5)
        half = z * math.sqrt(var / (n + 1.5))
        return (
            elo_from_score(s),
            elo_from_score(max(0.0, s_reg - half)),
            elo_from_score(min(1.0, s_reg + half)),
        )
    half = z * math.sqrt(var / n)
    return elo_from_score(s), elo_from_score(max(0.0, s - half)), elo_from_score(min(1.0, s + half))


@dataclass
class Game:
    """One game of a match. ``a_color``: the colour player A had; ``result``:
    ``'green'``, ``'blue'`` or ``'unfinished'``; ``termination``: a
    ``hinge_fast.board.Termination``; ``opening_plies``: how many of ``moves``
    (strings) were the random opening."""

    round: int
    green: str
    blue: str
    a_color: Color
    moves: list[str]
    result: str
    termination: Termination
    opening_plies: int
    size: int
    start: str | None = None
    move_seconds: tuple = ()
    detail: str | None = None  # a forfeit's cause: the failing engine's error

    @property
    def forfeit(self) -> bool:
        """Whether the game was lost by a player's failure (time, a crash, an illegal
        move, a flood of output, a protocol error) rather than on the board."""
        return self.termination in FORFEITS

    @property
    def a_score(self) -> float:
        """1 if A won, 0 if A lost, 0.5 if unfinished."""
        if self.result == "unfinished":
            return 0.5
        return 1.0 if self.result == str(self.a_color) else 0.0

    def record(self, date: str | None = None, settings=None):
        """This game as a ``hinge_fast.records.record.GameRecord``; with ``settings`` (a
        ``matchfile.MatchSettings``), tagged with them so that an interrupted match can
        be resumed from its file."""
        tags = {
            "Event": "hinge-fast match",
            "Date": date or datetime.date.today().strftime("%Y.%m.%d"),
            "Round": str(self.round),
            "Green": self.green,
            "Blue": self.blue,
            "Result": self.result,
            "Termination": str(self.termination),
            "Opening": str(self.opening_plies),
        }
        if self.detail:
            tags["Forfeit"] = " ".join(self.detail.split())[:300]
        if settings is not None:
            tags.update(settings.tags())
        # under a clock, each move's seconds as a comment after it; a time forfeit's late
        # move, not played, at the end
        comments = {}
        for i, seconds in enumerate(self.move_seconds):
            ply = self.opening_plies + i + 1
            if ply <= len(self.moves):
                comments[ply] = f"{seconds:.3f} s"
            else:
                last = comments.get(len(self.moves))
                comments[len(self.moves)] = (
                    f"{last}; " if last else ""
                ) + f"out of time after {seconds:.3f} s"
        return GameRecord(
            size=self.size, moves=list(self.moves), tags=tags, start=self.start, comments=comments
        )


@dataclass
class MatchResult:
    """Results from player A's side. Per game: ``wins``, ``losses``, ``unfinished``,
    ``game_elo`` with its interval ``game_elo_low .. game_elo_high``. Per pair (the
    headline, module docstring): ``pentanomial`` (a ``pairstats.Pentanomial``), ``elo``
    with its 95% interval ``elo_low .. elo_high``, ``nelo``, ``los``; with an SPRT,
    ``llr``, its ``llr_bounds`` and ``sprt_decision`` (``'H1'``, ``'H0'`` or None);
    ``games``."""

    player_a: str
    player_b: str
    size: int
    games: list[Game] = field(default_factory=list)
    sprt: Sprt | None = None
    wins: int = 0
    losses: int = 0
    unfinished: int = 0
    pentanomial: Pentanomial = field(default_factory=Pentanomial)
    llr: float | None = None
    sprt_decision: str | None = None

    @property
    def played(self) -> int:
        return len(self.games)

    @property
    def score(self) -> float:
        """A's score fraction over every game (unfinished games count half)."""
        return (self.wins + 0.5 * self.unfinished) / self.played if self.games else 0.5

    @property
    def elo(self) -> float:
        return self.pentanomial.elo

    @property
    def elo_low(self) -> float:
        return self.pentanomial.elo_interval()[0] if self.pentanomial.pairs else -math.inf

    @property
    def elo_high(self) -> float:
        return self.pentanomial.elo_interval()[1] if self.pentanomial.pairs else math.inf

    @property
    def nelo(self) -> float:
        return self.pentanomial.nelo if self.pentanomial.pairs else 0.0

    @property
    def los(self) -> float:
        return self.pentanomial.los

    @property
    def game_elo(self) -> float:
        return elo_interval(self.wins, self.losses, self.unfinished)[0]

    @property
    def game_elo_interval(self) -> tuple[float, float]:
        return elo_interval(self.wins, self.losses, self.unfinished)[1:]

    @property
    def time_losses(self) -> tuple[int, int]:
        """``(A, B)``: the games each player lost on time."""
        lost = [g for g in self.games if g.termination == Termination.TIME_FORFEIT]
        a = sum(g.a_score == 0 for g in lost)
        return a, len(lost) - a

    @property
    def distinct_games(self) -> int:
        """How many games differ from every game before them (the same start and moves
        is the same game: a deterministic pair of players replays a repeated opening)."""
        return len({(g.start, tuple(g.moves), g.green, g.blue) for g in self.games})

    @property
    def endings(self) -> dict[str, int]:
        """How many games ended each way (``{'elimination': 7, 'engine crash': 1}``)."""
        ends: dict[str, int] = {}
        for g in self.games:
            ends[str(g.termination)] = ends.get(str(g.termination), 0) + 1
        return dict(sorted(ends.items()))

    @property
    def forfeits(self) -> dict[str, dict[str, int]]:
        """``{'a': {reason: games}, 'b': {...}}``: the games each player lost by
        failing (:data:`FORFEITS`), by reason."""
        lost: dict[str, dict[str, int]] = {"a": {}, "b": {}}
        for g in self.games:
            if g.forfeit:
                side = lost["a" if g.a_score == 0 else "b"]
                side[str(g.termination)] = side.get(str(g.termination), 0) + 1
        return {k: dict(sorted(v.items())) for k, v in lost.items()}

    @property
    def llr_bounds(self) -> tuple[float, float] | None:
        return None if self.sprt is None else self.sprt.bounds

    def add(self, game: Game) -> None:
        """Count the next game (games come in order: ``2i`` and ``2i + 1`` are pair ``i``)."""
        self.games.append(game)
        if game.result == "unfinished":
            self.unfinished += 1
        elif game.result == str(game.a_color):
            self.wins += 1
        else:
            self.losses += 1
        if self.played % 2 == 0:
            self.pentanomial = self.pentanomial.add(self.games[-2].a_score + game.a_score)
            if self.sprt is not None:
                self.llr = self.sprt.llr(self.pentanomial)
                if self.pentanomial.pairs >= MIN_SPRT_PAIRS:
                    self.sprt_decision = self.sprt.decision(self.llr)

    def figures(self) -> dict:
        """Every figure of the summary, for tools (``match --json``)."""
        p = self.pentanomial
        low, high = self.game_elo_interval
        return {
            "player_a": self.player_a,
            "player_b": self.player_b,
            "size": self.size,
            "games": self.played,
            "wins": self.wins,
            "losses": self.losses,
            "unfinished": self.unfinished,
            "score": self.score,
            "pairs": p.pairs,
            "ptnml": list(p.ptnml),
            "elo": _finite(self.elo),
            "elo_interval": [_finite(self.elo_low), _finite(self.elo_high)],
            "nelo": _finite(self.nelo),
            "nelo_interval": [_finite(x) for x in p.nelo_interval()] if p.pairs else None,
            "los": self.los,
            "draw_ratio": p.draw_ratio,
            "pair_ratio": _finite(p.pair_ratio),
            "game_elo": _finite(self.game_elo),
            "game_elo_interval": [_finite(low), _finite(high)],
            "time_losses": dict(zip(("a", "b"), self.time_losses)),
            "endings": self.endings,
            "forfeits": self.forfeits,
            "distinct_games": self.distinct_games,
            "sprt": None
            if self.sprt is None
            else {
                "elo0": self.sprt.elo0,
                "elo1": self.sprt.elo1,
                "alpha": self.sprt.alpha,
                "beta": self.sprt.beta,
                "llr": self.llr or 0.0,
                "bounds": list(self.sprt.bounds),
                "decision": self.sprt_decision,
            },
        }

    def records(self) -> list:
        """The games as ``hinge_fast.records.record.GameRecord`` objects."""
        return [g.record() for g in self.games]

    def summary(self) -> str:
        """Several lines for a person: results, Elo, SPRT, how games ended."""
        a, b = self.player_a, self.player_b
        lines = [
            f"{a} vs {b}: {self.played} games on side {self.size}",
            f"{a}: +{self.wins} -{self.losses} unfinished {self.unfinished}, score {100 * self.score:.1f}%",
        ]
        p = self.pentanomial
        if p.pairs:
            nlow, nhigh = p.nelo_interval()
            lines += [
                f"Ptnml(0-2): {list(p.ptnml)} over {p.pairs} pair{'s' if p.pairs != 1 else ''} "
                f"(points of {a} per pair of games with the same opening)",
                f"Elo of {a} over {b}: "
                + (
                    f"{elo_text(self.elo)} ({_interval_words(self.elo_low, self.elo_high, 'pairs')}), "
                    f"nElo {elo_text(self.nelo)} ({elo_text(nlow)} to {elo_text(nhigh)})"
                    if _has_interval(buckets=p.ptnml)
                    else f"{elo_text(self.elo)}; {_too_few('pairs', p.pairs, p.ptnml)}"
                ),
                f"LOS {100 * self.los:.1f}%, draw ratio {100 * p.draw_ratio:.1f}%, pair ratio {_ratio_text(p.pair_ratio)}",
            ]
        low, high = self.game_elo_interval
        results = (self.losses, self.unfinished, self.wins)
        if _has_interval(buckets=results):
            lines.append(
                f"per game: Elo {elo_text(self.game_elo)} ({_interval_words(low, high, 'games')}; "
                f"counts games as independent)"
            )
        else:
            lines.append(
                f"per game: Elo {elo_text(self.game_elo)}; {_too_few('games', self.played, results)}"
            )
        for color in (Color.GREEN, Color.BLUE):
            mine = [g for g in self.games if g.a_color == color]
            w = sum(g.a_score == 1 for g in mine)
            lo = sum(g.a_score == 0 for g in mine)
            lines.append(f"{a} as {color}: +{w} -{lo} unfinished {len(mine) - w - lo}")
        if self.sprt is not None:
            s = self.sprt
            lower, upper = s.bounds
            verdicts: dict[str | None, str] = {
                "H1": f"H1 accepted ({a} is at least {s.elo1:g} Elo stronger)",
                "H0": f"H0 accepted ({a} is not {s.elo1:g} Elo stronger)",
            }
            verdict = verdicts.get(self.sprt_decision, "no decision yet")
            lines.append(
                f"SPRT elo0={s.elo0:g} elo1={s.elo1:g} alpha={s.alpha:g} beta={s.beta:g}: "
                f"LLR {self.llr if self.llr is not None else 0.0:.2f} (bounds {lower:.2f}, {upper:.2f}): {verdict}"
            )
        ends = self.endings
        if self.games:
            mean = sum(len(g.moves) for g in self.games) / len(self.games)
            how = ", ".join(f"{k} {v}" for k, v in ends.items())
            lines.append(f"games ended by {how}; mean length {mean:.1f} plies")
            if Termination.TIME_FORFEIT.value in ends:
                lost_a, lost_b = self.time_losses
                lines.append(f"lost on time: {a} {lost_a}, {b} {lost_b}")
            repeated = self.played - self.distinct_games
            if repeated:
                lines.append(
                    f"{repeated} of {self.played} games repeat an earlier game move for move: the intervals count "
                    f"them as independent, which they are not (give more openings: a larger book or --openings)"
                )
            for who, lost in zip((a, b), self.forfeits.values()):
                if set(lost) - {Termination.TIME_FORFEIT.value}:
                    lines.append(
                        f"{who} forfeited: " + ", ".join(f"{k} {v}" for k, v in lost.items())
                    )
        return "\n".join(lines)


def _finite(x: float) -> float | None:
    """A figure for JSON: None stands for an infinite one."""
    return x if math.isfinite(x) else None


def _ratio_text(x: float) -> str:
    return "inf" if math.isinf(x) else "none won" if math.isnan(x) else f"{x:.2f}"


def _has_interval(buckets) -> bool:
    """Whether an Elo interval says something: results of more than one kind (a match
    whose every pair, or game, ended the same has no spread to measure)."""
    return sum(1 for n in buckets if n) > 1


def _interval_words(low: float, high: float, what: str) -> str:
    """A 95% Elo interval in words; an infinite bound is named as missing.

    >>> _interval_words(-20.0, 35.5, "pairs"), _interval_words(168.1, math.inf, "pairs")
    ('95% interval -20.0 to +35.5', '95% interval from +168.1 up, no upper bound: too few pairs')
    """
    if math.isfinite(low) and math.isfinite(high):
        return f"95% interval {elo_text(low)} to {elo_text(high)}"
    if math.isfinite(low):
        return f"95% interval from {elo_text(low)} up, no upper bound: too few {what}"
    if math.isfinite(high):
        return f"95% interval up to {elo_text(high)}, no lower bound: too few {what}"
    return f"no interval: too few {what}"


def _too_few(what: str, count: int, buckets) -> str:
    """The words for a match too small or too one-sided for an interval.

    >>> _too_few("pairs", 1, [0, 0, 0, 0, 1])
    'no interval: one pair is too few; play more games'
    >>> _too_few("games", 6, [0, 0, 6])
    'no interval: all 6 games ended the same way, too few to measure a spread; play more games'
    """
    if count == 1:
        return f"no interval: one {what[:-1]} is too few; play more games"
    return f"no interval: all {count} {what} ended the same way, too few to measure a spread; play more games"


def elo_text(elo: float) -> str:
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{elo + 0.0:+.1f}" if round(elo, 1) != 0 else "+0.0"
