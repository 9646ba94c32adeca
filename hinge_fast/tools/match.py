"""Matches between two players: paired openings, results, Elo and SPRT.

    >>> from hinge_fast.tools.match import play_match
    >>> from hinge_fast.tools.players import get_player
    >>> result = play_match(get_player("greedy"), get_player("random"), games=4, size=4, seed=1)
    >>> result.wins + result.losses + result.unfinished
    4

How a match is played
---------------------
* Games come in pairs. Pair ``i`` starts from opening ``i``: with a ``book``
  (``tools/book.py``), the book's entry for pair ``i`` in the book order; without one,
  ``openings`` uniformly random plies from the empty board (seeded; an opening that
  ends the game is drawn again). Game ``2i`` gives player A Green, game ``2i+1`` the
  same opening with the colours swapped, so neither player profits from a lucky opening.
* Under a clock (``time_control``), each game starts both clocks at the base time; a
  side whose clock runs out loses by time forfeit (``tools/game.py``). Each player is
  made ready (its compiled code loaded) before the clocks start.
* Before each game both players are ``reset`` with a seed drawn from the match seed:
  the whole match replays exactly when the players are limited by nodes.
* A game ends by elimination or when the side to move has no legal move (rules.md
  section 6), or, after ``max_plies`` plies (opening included), as **unfinished**:
  never a win for either side. For the score an unfinished game counts half a point.

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
import random as _random
import re
from dataclasses import dataclass, field

from ..board import Board, Color, Termination
from ..errors import HingeError
from .game import DEFAULT_MAX_PLIES, play_game
from .pairstats import Z95, Pentanomial, Sprt, elo_from_score, score_from_elo  # noqa: F401  (re-exported)
from .positions import random_position

DEFAULT_OPENING_PLIES = 4
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
MAX_OPENING_ATTEMPTS = 1000


# ----- statistics ----------------------------------------------------------------------------
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


# ----- games -------------------------------------------------------------------------------------
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

    def record(self, date: str | None = None, settings: MatchSettings | None = None):
        """This game as a ``hinge_fast.tools.record.GameRecord``; with ``settings``,
        tagged with them so that an interrupted match can be resumed from its file."""
        from .record import GameRecord

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
        """The games as ``hinge_fast.tools.record.GameRecord`` objects."""
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
            verdict = {
                "H1": f"H1 accepted ({a} is at least {s.elo1:g} Elo stronger)",
                "H0": f"H0 accepted ({a} is not {s.elo1:g} Elo stronger)",
            }.get(self.sprt_decision, "no decision yet")
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


def random_opening(size: int, plies: int, rng: _random.Random) -> list:
    """``plies`` uniformly random moves from the empty board of side ``size`` that do
    not end the game (drawn again until they do not)."""
    for _ in range(MAX_OPENING_ATTEMPTS):
        board = random_position(size, plies, rng)
        if not board.is_game_over():
            return list(board.move_stack)
    raise HingeError(
        f"no {plies}-ply opening on side {size} leaves the game going after {MAX_OPENING_ATTEMPTS} tries"
    )


@dataclass(frozen=True)
class GameJob:
    """Everything one game of a match needs, so that it plays the same wherever it
    runs (this process, a worker process, a Ray actor): ``index`` (from 0; A has Green
    in even games), the two players (Player objects or
    :class:`~hinge_fast.tools.players.PlayerSpec`), the board side, the opening moves,
    the seeds the players are reset with, and the ply cap; ``start``: the position
    string the opening moves start from (None: the empty board); ``time_control``: the
    clock (None: none) and ``timer``, its time source (None: the wall clock)."""

    index: int
    player_a: object
    player_b: object
    size: int
    opening: tuple
    green_seed: int
    blue_seed: int
    max_plies: int
    start: str | None = None
    time_control: object = None
    timer: object = None


def game_plan(
    seed: int, games: int, size: int, openings: int, book=None, book_order: str = "random"
):
    """``(index, start, opening, green_seed, blue_seed)`` for games ``0 .. games-1`` of
    a match with this seed: pair ``i`` shares opening ``i`` (``start``: a position
    string or None for the empty board; ``opening``: moves from it), from ``book`` (a
    ``tools.book.Book``) when given, else random; the sequence depends on the seed alone
    (not on how the games are played), so any game can be played anywhere."""
    rng = _random.Random(seed)
    start, opening = None, []
    for index in range(games):
        if index % 2 == 0:
            if book is None:
                opening = random_opening(size, openings, rng)
            else:
                entry = book.entry(index // 2, seed, book_order)
                start, opening = entry.start, entry.moves
        yield index, start, tuple(opening), rng.getrandbits(32), rng.getrandbits(32)


def _make(player, slot):
    from .players import PlayerSpec

    return player.make(slot) if isinstance(player, PlayerSpec) else player


def player_label(player) -> str:
    """The name a player (a Player or a PlayerSpec) goes by in a match."""
    from .players import PlayerSpec

    return player.label if isinstance(player, PlayerSpec) else player.name


def play_job(job: GameJob) -> Game:
    """Play one game of a match (a job for :mod:`hinge_fast.tools.executor`)."""
    from ..protocol.client import EngineError
    from .game import GameResult

    player_a, player_b = _make(job.player_a, "A"), _make(job.player_b, "B")
    a_green = job.index % 2 == 0
    green, blue = (player_a, player_b) if a_green else (player_b, player_a)
    start = Board(job.size) if job.start is None else Board.from_fen(job.start)
    for move in job.opening:
        start.push(move)
    played = None
    for color, player, seed in (
        (Color.GREEN, green, job.green_seed),
        (Color.BLUE, blue, job.blue_seed),
    ):
        try:  # an engine that cannot start again, or fails its warm-up, loses the game
            player.reset(seed)
            if job.time_control is not None:
                ready = getattr(player, "ready", None)
                if ready is not None:
                    ready(start)
        except EngineError as e:
            played = played or GameResult(start, [], color.other, e.termination, detail=str(e))
    if played is None:
        played = play_game(
            green,
            blue,
            start,
            max_plies=job.max_plies,
            time_control=job.time_control,
            timer=job.timer,
        )
    return Game(
        round=job.index + 1,
        green=player_label(job.player_a if a_green else job.player_b),
        blue=player_label(job.player_b if a_green else job.player_a),
        a_color=Color.GREEN if a_green else Color.BLUE,
        moves=[str(m) for m in played.board.move_stack],
        result=played.result,
        termination=played.termination,
        opening_plies=len(job.opening),
        size=job.size,
        start=job.start,
        move_seconds=tuple(played.move_seconds or ()),
        detail=played.detail,
    )


def play_match(
    player_a,
    player_b,
    games: int,
    size: int = 6,
    openings: int = DEFAULT_OPENING_PLIES,
    max_plies: int = DEFAULT_MAX_PLIES,
    seed: int | None = None,
    progress=None,
    sprt: Sprt | None = None,
    *,
    executor=None,
    done=None,
    on_game=None,
    book=None,
    book_order: str = "random",
    time_control=None,
    timer=None,
) -> MatchResult:
    """Play ``games`` games of ``player_a`` against ``player_b`` (Players from
    ``hinge_fast.tools.players``, or PlayerSpecs) on side ``size`` and return a
    MatchResult.

    ``openings``: random plies before the players take over, shared by each pair of
    games; ``max_plies``: a game this long is unfinished; ``seed``: openings and
    player seeds (:func:`game_plan`); ``progress``: called as
    ``progress(result_so_far)`` after each game, in game order; ``sprt``: an
    :class:`Sprt` that may stop the match early.

    ``executor``: a :class:`hinge_fast.tools.executor.Executor` playing several games
    at once, here or on a Ray cluster (default: one at a time in this process). Games
    are counted in game order whatever order they finish in, so a match (an SPRT's
    stopping point included) has the same result on any executor when the players are
    limited by nodes; Player objects are copied to the workers (give PlayerSpecs for
    players that cannot be copied, such as ``cmd:`` engines). ``done``: games already
    played (``{index: Game}``, from :func:`read_match`), counted but not played again;
    ``on_game``: called as ``on_game(game)`` as each new game finishes, in the order
    they finish (to save it at once). ``book``: a ``tools.book.Book`` whose entries
    open the pairs (instead of random openings), in ``book_order`` (``'random'`` or
    ``'sequential'``); ``time_control``: a ``search.timeman.TimeControl`` both players
    play under (their own limits then only add to it), ``timer`` the clock's time
    source (default the wall clock).

    >>> from hinge_fast.tools.players import get_player
    >>> r = play_match(get_player("random"), get_player("random"), games=2, size=4, seed=5)
    >>> [g.a_color.name for g in r.games]
    ['GREEN', 'BLUE']
    """
    from ..core.geometry import check_size

    size = check_size(size)
    for name, value, low in (
        ("games", games, 1),
        ("openings", openings, 0),
        ("max_plies", max_plies, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise HingeError(f"{name} must be a whole number of at least {low}, not {value!r}")
    if book is None and openings >= max_plies:
        raise HingeError(
            f"the opening ({openings} plies) must be shorter than max plies ({max_plies})"
        )
    if book is not None:
        from .book import check_order

        book_order = check_order(book_order)
        if not len(book):
            raise HingeError("the book holds no position")
        if any(e.board().size != size for e in book.entries):
            raise HingeError(f"the book holds positions of another side than {size}")
    done = dict(done or {})
    if any(not 0 <= i < games for i in done):
        raise HingeError(
            f"the games already played go up to game {max(done) + 1}, past the {games} of this match"
        )
    if executor is not None and executor.kind != "serial":
        _check_sendable(player_a)
        _check_sendable(player_b)
    result = MatchResult(player_label(player_a), player_label(player_b), size, sprt=sprt)
    waiting = dict(done)

    def apply() -> bool:
        """Count the games now next in order; True when the match is over."""
        while result.played in waiting:
            result.add(waiting.pop(result.played))
            if progress is not None:
                progress(result)
            if result.sprt_decision is not None:
                return True
        return result.played >= games

    def jobs():
        for index, start, opening, green_seed, blue_seed in game_plan(
            seed, games, size, openings, book, book_order
        ):
            if index not in done:
                yield GameJob(
                    index,
                    player_a,
                    player_b,
                    size,
                    opening,
                    green_seed,
                    blue_seed,
                    max_plies,
                    start,
                    time_control,
                    timer,
                )

    if apply():
        return result

    def take(game) -> bool:
        waiting[game.round - 1] = game
        return apply()

    run_games(jobs(), executor, on_game, take)
    return result


def run_games(jobs, executor=None, on_game=None, take=None) -> None:
    """Play ``jobs`` (:class:`GameJob`) on ``executor`` (default: one at a time in this
    process): as each game finishes, in the order they finish, ``on_game(game)`` is
    called (to save it), then ``take(game)``, which returns True to stop (the games
    still running are dropped). The runner of matches and tournaments."""
    if executor is None:
        from .executor import Executor

        executor = Executor()
    stream = executor.run(play_job, jobs)
    try:
        for _, game in stream:
            if on_game is not None:
                on_game(game)
            if take is not None and take(game):
                break
    finally:
        stream.close()


def _check_sendable(player) -> None:
    import pickle

    try:
        pickle.dumps(player)
    except Exception:  # noqa: BLE001  (whatever pickling raises)
        raise HingeError(
            f"player {player_label(player)} cannot be sent to other processes: give a PlayerSpec"
        ) from None


# ----- match files: saved game by game, resumed --------------------------------------------
@dataclass(frozen=True)
class MatchSettings:
    """What decides a match's games, written as tags on each game of its record file
    (``PlayerA``, ``PlayerB``, ``Limit``, ``MaxPlies``, ``Seed``; the side and the
    opening length are the ``Size`` and ``Opening`` tags, the game's index is
    ``Round`` - 1), so that ``match --resume`` knows which games are done and refuses
    a file made with other settings. ``limit``: ``'nodes 200'``, ``'time 0.1'`` or
    ``'tc 10+0.1'``; ``seed``: the command's seed; ``book``: the book's ``Book`` tag
    (``Book.tag``; None: random openings of ``openings`` plies); ``tournament``: for a
    game of a tournament, the tournament's ``Tournament`` tag (its kind and players)."""

    player_a: str
    player_b: str
    size: int
    openings: int
    max_plies: int
    limit: str
    seed: int
    book: str | None = None
    tournament: str | None = None

    def tags(self) -> dict:
        tags = {
            "PlayerA": self.player_a,
            "PlayerB": self.player_b,
            "Limit": self.limit,
            "MaxPlies": str(self.max_plies),
            "Seed": str(self.seed),
        }
        if self.book is not None:
            tags["Book"] = self.book
        if self.tournament is not None:
            tags["Event"] = "hinge-fast tournament"
            tags["Tournament"] = self.tournament
        return tags

    def check(self, record, where: str) -> None:
        """HingeError naming the first setting on which ``record`` differs."""
        found = {
            "PlayerA": (record.tags.get("PlayerA"), self.player_a),
            "PlayerB": (record.tags.get("PlayerB"), self.player_b),
            "Size": (str(record.size), str(self.size)),
            "Book": (record.tags.get("Book", "none"), self.book or "none"),
            "Opening": (
                record.tags.get("Opening"),
                str(self.openings) if self.book is None else record.tags.get("Opening"),
            ),
            "Limit": (record.tags.get("Limit"), self.limit),
            "MaxPlies": (record.tags.get("MaxPlies"), str(self.max_plies)),
            "Seed": (record.tags.get("Seed"), str(self.seed)),
            "Tournament": (record.tags.get("Tournament", "none"), self.tournament or "none"),
        }
        for tag, (theirs, ours) in found.items():
            if theirs is None:
                raise HingeError(
                    f"{where} has no {tag} tag: it is not a file written by match --out or --resume"
                )
            if theirs != ours:
                raise HingeError(
                    f"{where} was played with {tag} {theirs!r}, not {ours!r}: resume with the same settings"
                )


#: A whole game ends with its result token, alone after the moves (not in a tag line:
#: a game torn inside ``[Result "green"]`` must not pass for a whole one).
_RESULT_AT_END = re.compile(r"(?:\A|\n)(?![ \t]*\[)[^\n]*(?<![^\s])(?:green|blue|unfinished)\s*\Z")
_GAME_START = re.compile(r"\n[ \t\r]*\n(?=\[)")
#: A game number in a match file's tags: ASCII digits, at most nine of them.
_GAME_NUMBER = re.compile(r"[0-9]{1,9}")


def tag_number(record, tag: str, where: str, default: str | None = None) -> int:
    """The whole number of ``record``'s tag ``tag`` (ASCII digits only, at most nine);
    HingeError naming ``where`` for anything else."""
    text = record.tags.get(tag, default)
    if text is None or not _GAME_NUMBER.fullmatch(text):
        shown = repr(text if text is None or len(text) <= 20 else text[:20] + "...")
        raise HingeError(f"{where} has {tag} {shown}, not a whole number of at most 9 digits")
    return int(text)


def read_match_file(path) -> tuple[list, int]:
    """``(records, length)``: the whole games of a match file and the length in bytes
    of the text holding them. A game cut short by a killed process (the last one,
    without its result token) is left out of both; any other flaw is a HingeError."""
    import os

    from .record import MAX_RECORD_BYTES, parse_records

    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_RECORD_BYTES:
                raise HingeError(f"match file {path} is over {MAX_RECORD_BYTES >> 20} MB")
            data = f.read(size + 1)  # a read of the maximum would allocate it all at once
    except FileNotFoundError:
        return [], 0
    except IsADirectoryError:
        raise HingeError(f"match file {path} is a folder, not a file") from None
    except OSError as e:
        raise HingeError(f"cannot read {path}: {e.strerror or e}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise HingeError(f"match file {path} is over {MAX_RECORD_BYTES >> 20} MB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")  # a character cut in two at the end
    starts = [0] + [m.end() for m in _GAME_START.finditer(text)]
    end = len(text)
    if text.strip() and not _RESULT_AT_END.search(text[starts[-1] :]):
        end = starts[-1]  # the last game was being written when the match stopped
    good = text[:end]
    try:
        records = parse_records(good)
    except HingeError as e:
        raise HingeError(f"{path}: {e}") from None
    return records, len(good.encode("utf-8"))


def game_from_record(record, where: str = "the match file") -> Game:
    """The Game of a match file's record (tags as :meth:`Game.record` writes them)."""
    index = tag_number(record, "Round", where) - 1
    if index < 0:
        raise HingeError(f"{where} has Round 0, not a game number")
    return Game(
        round=index + 1,
        green=record.tags.get("Green", "?"),
        blue=record.tags.get("Blue", "?"),
        a_color=Color.GREEN if index % 2 == 0 else Color.BLUE,
        moves=list(record.moves),
        result=record.result,
        termination=_termination(record),
        opening_plies=tag_number(record, "Opening", where, "0"),
        size=record.size,
        start=record.start,
        detail=record.tags.get("Forfeit"),
    )


def _termination(record) -> Termination:
    try:
        return Termination(record.termination or "max plies")
    except ValueError:
        raise HingeError(
            f"game {record.tags.get('Round', '?')} ended by {record.termination!r}, not by a match's endings"
        ) from None


def read_match(path, settings) -> tuple[dict, int]:
    """``({index: Game}, length)``: the games already in a match file (``done`` for
    :func:`play_match`), checked against ``settings`` (a :class:`MatchSettings`, or a
    function of the game's index giving one: a tournament's), and the length of the
    text holding them (the file is cut there before new games are added)."""
    records, length = read_match_file(path)
    done = {}
    for number, record in enumerate(records, start=1):
        where = f"{path} (game {number})"
        if record.tags.get("Round") is None:
            raise HingeError(
                f"{where} has no Round tag: it is not a file written by match --out or --resume"
            )
        number_tag = tag_number(record, "Round", where)
        if number_tag < 1:
            raise HingeError(f"{where} has Round 0, not a game number")
        if callable(settings):
            expected = settings(number_tag - 1)
            if expected is None:
                raise HingeError(f"{where} is game {number_tag}, past the games of these settings")
        else:
            expected = settings
        if expected is not None:
            expected.check(record, where)
        game = game_from_record(record, where)
        if game.round - 1 in done:
            raise HingeError(f"{where}: game {game.round} is in the file twice")
        done[game.round - 1] = game
    return done, length


def cut_file(path, length) -> None:
    """Cut a match file at ``length`` bytes (dropping a game cut short, as
    :func:`read_match` measures), creating it if need be."""
    import os

    try:
        with open(path, "a"):
            pass
        if os.path.getsize(path) > length:
            os.truncate(path, length)
    except OSError as e:
        raise HingeError(f"cannot write {path}: {e.strerror or e}") from None


def seed_of_match_file(path) -> int | None:
    """The ``Seed`` tag of a match file's first game (None: no game, or no such tag)."""
    records, _ = read_match_file(path)
    if not records:
        return None
    seed = records[0].tags.get("Seed", "")
    return int(seed) if re.fullmatch(r"[0-9]{1,19}", seed) else None
