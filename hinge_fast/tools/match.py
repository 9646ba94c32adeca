"""Matches between two players: paired openings, results, Elo and SPRT.

    >>> from hinge_fast.tools.match import play_match
    >>> from hinge_fast.tools.players import get_player
    >>> result = play_match(get_player("greedy"), get_player("random"), games=4, size=4, seed=1)
    >>> result.wins + result.losses + result.unfinished
    4

How a match is played
---------------------
* Games come in pairs. Pair ``i`` starts from opening ``i``: ``openings`` uniformly
  random plies from the empty board (seeded; an opening that ends the game is drawn
  again). Game ``2i`` gives player A Green, game ``2i+1`` the same opening with the
  colours swapped, so neither player profits from a lucky opening.
* Before each game both players are ``reset`` with a seed drawn from the match seed:
  the whole match replays exactly when the players are limited by nodes.
* A game ends by elimination or when the side to move has no legal move (rules.md
  section 6), or, after ``max_plies`` plies (opening included), as **unfinished**:
  never a win for either side. For the score an unfinished game counts half a point.

Statistics
----------
* Score ``s = (W + U/2) / N`` from A's side; Elo difference ``-400 log10(1/s - 1)``
  (75% is +190.8).
* 95% interval: the trinomial method (as cutechess-cli): per-game variance
  ``var = [W (1-s)^2 + U (1/2-s)^2 + L s^2] / N``, interval
  ``s +- 1.96 sqrt(var / N)`` turned into Elo (clipped to [0, 1]: an endpoint at 0 or
  1 is -inf or +inf). While every game has the same result the variance is 0; then
  the interval comes from W, U, L with a pseudo-count of 1/2 each (the Elo itself
  stays +-inf).
* SPRT (``sprt=(elo0, elo1, alpha, beta)``, logistic Elo): H0 "A is elo0 stronger",
  H1 "A is elo1 stronger". The log-likelihood ratio uses the GSPRT normal
  approximation ``LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var)`` with ``s0``, ``s1``
  the expected scores at elo0 and elo1; the match stops when LLR leaves
  ``[ln(beta/(1-alpha)), ln((1-beta)/alpha)]``: above accepts H1, below H0, but
  not before ``MIN_SPRT_GAMES`` (10) games, as the approximation is poor on a
  handful. The same pseudo-counts as above keep the variance positive.
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
from .positions import random_position

Z95 = 1.959963984540054
DEFAULT_OPENING_PLIES = 4
#: The SPRT decides nothing before this many games: the normal approximation of the
#: LLR is poor on a handful of games (4 straight wins would already pass 200 Elo).
MIN_SPRT_GAMES = 10
MAX_OPENING_ATTEMPTS = 1000


# ----- statistics ----------------------------------------------------------------------------
def elo_from_score(score: float) -> float:
    """Logistic Elo difference for an expected score: ``elo_from_score(0.75)`` is
    +190.85; 0 and 1 give -inf and +inf."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score for a logistic Elo difference: ``score_from_elo(0)`` is 0.5."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _mean_var(wins: float, unfinished: float, losses: float) -> tuple[float, float]:
    n = wins + unfinished + losses
    s = (wins + 0.5 * unfinished) / n
    var = (wins * (1 - s) ** 2 + unfinished * (0.5 - s) ** 2 + losses * s**2) / n
    return s, var


def elo_interval(wins: int, losses: int, unfinished: int = 0, z: float = Z95) -> tuple[float, float, float]:
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
        return elo_from_score(s), elo_from_score(max(0.0, s_reg - half)), elo_from_score(min(1.0, s_reg + half))
    half = z * math.sqrt(var / n)
    return elo_from_score(s), elo_from_score(max(0.0, s - half)), elo_from_score(min(1.0, s + half))


@dataclass(frozen=True)
class Sprt:
    """Sequential probability ratio test of H0: ``elo0`` against H1: ``elo1``
    (logistic Elo of A over B), with error rates ``alpha`` and ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        if not self.elo0 < self.elo1:
            raise HingeError(f"SPRT needs elo0 < elo1, not {self.elo0} and {self.elo1}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise HingeError(f"SPRT {name} must be between 0 and 0.5, not {value}")

    @classmethod
    def parse(cls, text: str) -> "Sprt":
        """``'0,50'`` or ``'0,50,0.05,0.05'`` (elo0, elo1[, alpha, beta])."""
        parts = [p.strip() for p in str(text).split(",")]
        if len(parts) not in (2, 4):
            raise HingeError(f"--sprt takes elo0,elo1 or elo0,elo1,alpha,beta, not {text!r}")
        try:
            values = [float(p) for p in parts]
        except ValueError:
            raise HingeError(f"--sprt takes numbers: elo0,elo1[,alpha,beta], not {text!r}") from None
        if any(not math.isfinite(v) for v in values):
            raise HingeError(f"--sprt takes finite numbers, not {text!r}")
        return cls(*values)

    @property
    def bounds(self) -> tuple[float, float]:
        """``(lower, upper)`` LLR bounds: below accepts H0, above H1."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, wins: int, losses: int, unfinished: int = 0) -> float:
        """GSPRT log-likelihood ratio of H1 over H0 for these results.

        >>> round(Sprt(0, 50).llr(60, 40, 0), 2)
        1.91
        """
        n = wins + losses + unfinished
        if n == 0:
            return 0.0
        w, u, l = float(wins), float(unfinished), float(losses)
        if (w > 0) + (u > 0) + (l > 0) == 1:
            w, u, l = w + 0.5, u + 0.5, l + 0.5
        s, var = _mean_var(w, u, l)
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return (w + u + l) * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)

    def decision(self, llr: float) -> str | None:
        """``'H1'`` (A is elo1 stronger), ``'H0'`` or None (go on)."""
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None


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

    @property
    def a_score(self) -> float:
        """1 if A won, 0 if A lost, 0.5 if unfinished."""
        if self.result == "unfinished":
            return 0.5
        return 1.0 if self.result == str(self.a_color) else 0.0

    def record(self, date: str | None = None, settings: "MatchSettings | None" = None):
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
        if settings is not None:
            tags.update(settings.tags())
        return GameRecord(size=self.size, moves=list(self.moves), tags=tags)


@dataclass
class MatchResult:
    """Results from player A's side: ``wins``, ``losses``, ``unfinished``; ``elo``
    with its 95% interval ``elo_low .. elo_high``; with an SPRT, ``llr``, its
    ``llr_bounds`` and ``sprt_decision`` (``'H1'``, ``'H0'`` or None); ``games``."""

    player_a: str
    player_b: str
    size: int
    games: list[Game] = field(default_factory=list)
    sprt: Sprt | None = None
    wins: int = 0
    losses: int = 0
    unfinished: int = 0
    elo: float = 0.0
    elo_low: float = -math.inf
    elo_high: float = math.inf
    llr: float | None = None
    sprt_decision: str | None = None

    @property
    def played(self) -> int:
        return len(self.games)

    @property
    def score(self) -> float:
        """A's score fraction (unfinished games count half)."""
        return (self.wins + 0.5 * self.unfinished) / self.played if self.games else 0.5

    @property
    def llr_bounds(self) -> tuple[float, float] | None:
        return None if self.sprt is None else self.sprt.bounds

    def add(self, game: Game) -> None:
        self.games.append(game)
        if game.result == "unfinished":
            self.unfinished += 1
        elif game.result == str(game.a_color):
            self.wins += 1
        else:
            self.losses += 1
        self.elo, self.elo_low, self.elo_high = elo_interval(self.wins, self.losses, self.unfinished)
        if self.sprt is not None:
            self.llr = self.sprt.llr(self.wins, self.losses, self.unfinished)
            if self.played >= MIN_SPRT_GAMES:
                self.sprt_decision = self.sprt.decision(self.llr)

    def records(self) -> list:
        """The games as ``hinge_fast.tools.record.GameRecord`` objects."""
        return [g.record() for g in self.games]

    def summary(self) -> str:
        """Several lines for a person: results, Elo, SPRT, how games ended."""
        a, b = self.player_a, self.player_b
        lines = [
            f"{a} vs {b}: {self.played} games on side {self.size}",
            f"{a}: +{self.wins} -{self.losses} unfinished {self.unfinished}, score {100 * self.score:.1f}%",
            f"Elo difference {elo_text(self.elo)} (95% interval {elo_text(self.elo_low)} to {elo_text(self.elo_high)})",
        ]
        for color in (Color.GREEN, Color.BLUE):
            mine = [g for g in self.games if g.a_color == color]
            w = sum(g.a_score == 1 for g in mine)
            lo = sum(g.a_score == 0 for g in mine)
            lines.append(f"{a} as {color}: +{w} -{lo} unfinished {len(mine) - w - lo}")
        if self.sprt is not None:
            s = self.sprt
            lower, upper = s.bounds
            verdict = {"H1": f"H1 accepted ({a} is at least {s.elo1:g} Elo stronger)", "H0": f"H0 accepted ({a} is not {s.elo1:g} Elo stronger)"}.get(
                self.sprt_decision, "no decision yet"
            )
            lines.append(
                f"SPRT elo0={s.elo0:g} elo1={s.elo1:g} alpha={s.alpha:g} beta={s.beta:g}: "
                f"LLR {self.llr if self.llr is not None else 0.0:.2f} (bounds {lower:.2f}, {upper:.2f}): {verdict}"
            )
        ends = {}
        for g in self.games:
            ends[str(g.termination)] = ends.get(str(g.termination), 0) + 1
        if self.games:
            mean = sum(len(g.moves) for g in self.games) / len(self.games)
            how = ", ".join(f"{k} {v}" for k, v in sorted(ends.items()))
            lines.append(f"games ended by {how}; mean length {mean:.1f} plies")
        return "\n".join(lines)


def elo_text(elo: float) -> str:
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{elo:+.1f}"


def random_opening(size: int, plies: int, rng: _random.Random) -> list:
    """``plies`` uniformly random moves from the empty board of side ``size`` that do
    not end the game (drawn again until they do not)."""
    for _ in range(MAX_OPENING_ATTEMPTS):
        board = random_position(size, plies, rng)
        if not board.is_game_over():
            return list(board.move_stack)
    raise HingeError(f"no {plies}-ply opening on side {size} leaves the game going after {MAX_OPENING_ATTEMPTS} tries")


@dataclass(frozen=True)
class GameJob:
    """Everything one game of a match needs, so that it plays the same wherever it
    runs (this process, a worker process, a Ray actor): ``index`` (from 0; A has Green
    in even games), the two players (Player objects or
    :class:`~hinge_fast.tools.players.PlayerSpec`), the board side, the opening moves,
    the seeds the players are reset with, and the ply cap."""

    index: int
    player_a: object
    player_b: object
    size: int
    opening: tuple
    green_seed: int
    blue_seed: int
    max_plies: int


def game_plan(seed: int, games: int, size: int, openings: int):
    """``(index, opening, green_seed, blue_seed)`` for games ``0 .. games-1`` of a match
    with this seed: pair ``i`` shares opening ``i``; the sequence depends on the seed
    alone (not on how the games are played), so any game can be played anywhere."""
    rng = _random.Random(seed)
    opening = []
    for index in range(games):
        if index % 2 == 0:
            opening = random_opening(size, openings, rng)
        yield index, tuple(opening), rng.getrandbits(32), rng.getrandbits(32)


def _make(player, slot):
    from .players import PlayerSpec

    return player.make(slot) if isinstance(player, PlayerSpec) else player


def _label(player) -> str:
    from .players import PlayerSpec

    return player.label if isinstance(player, PlayerSpec) else player.name


def play_job(job: GameJob) -> Game:
    """Play one game of a match (a job for :mod:`hinge_fast.tools.executor`)."""
    player_a, player_b = _make(job.player_a, "A"), _make(job.player_b, "B")
    a_green = job.index % 2 == 0
    green, blue = (player_a, player_b) if a_green else (player_b, player_a)
    green.reset(job.green_seed)
    blue.reset(job.blue_seed)
    start = Board(job.size)
    for move in job.opening:
        start.push(move)
    played = play_game(green, blue, start, max_plies=job.max_plies)
    return Game(
        round=job.index + 1,
        green=_label(job.player_a if a_green else job.player_b),
        blue=_label(job.player_b if a_green else job.player_a),
        a_color=Color.GREEN if a_green else Color.BLUE,
        moves=[str(m) for m in played.board.move_stack],
        result=played.result,
        termination=played.termination,
        opening_plies=len(job.opening),
        size=job.size,
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
    they finish (to save it at once).

    >>> from hinge_fast.tools.players import get_player
    >>> r = play_match(get_player("random"), get_player("random"), games=2, size=4, seed=5)
    >>> [g.a_color.name for g in r.games]
    ['GREEN', 'BLUE']
    """
    from ..core.geometry import check_size

    size = check_size(size)
    for name, value, low in (("games", games, 1), ("openings", openings, 0), ("max_plies", max_plies, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise HingeError(f"{name} must be a whole number of at least {low}, not {value!r}")
    if openings >= max_plies:
        raise HingeError(f"the opening ({openings} plies) must be shorter than max plies ({max_plies})")
    done = dict(done or {})
    if any(not 0 <= i < games for i in done):
        raise HingeError(f"the games already played go up to game {max(done) + 1}, past the {games} of this match")
    if executor is not None and executor.kind != "serial":
        _check_sendable(player_a)
        _check_sendable(player_b)
    result = MatchResult(_label(player_a), _label(player_b), size, sprt=sprt)
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
        for index, opening, green_seed, blue_seed in game_plan(seed, games, size, openings):
            if index not in done:
                yield GameJob(index, player_a, player_b, size, opening, green_seed, blue_seed, max_plies)

    if apply():
        return result
    if executor is None:
        from .executor import Executor

        executor = Executor()
    stream = executor.run(play_job, jobs())
    try:
        for _, game in stream:
            if on_game is not None:
                on_game(game)
            waiting[game.round - 1] = game
            if apply():
                break
    finally:
        stream.close()
    return result


def _check_sendable(player) -> None:
    import pickle

    try:
        pickle.dumps(player)
    except Exception:  # noqa: BLE001  (whatever pickling raises)
        raise HingeError(f"player {_label(player)} cannot be sent to other processes: give a PlayerSpec") from None


# ----- match files: saved game by game, resumed --------------------------------------------
@dataclass(frozen=True)
class MatchSettings:
    """What decides a match's games, written as tags on each game of its record file
    (``PlayerA``, ``PlayerB``, ``Limit``, ``MaxPlies``, ``Seed``; the side and the
    opening length are the ``Size`` and ``Opening`` tags, the game's index is
    ``Round`` - 1), so that ``match --resume`` knows which games are done and refuses
    a file made with other settings. ``limit``: ``'nodes 200'`` or ``'time 0.1'``;
    ``seed``: the command's seed."""

    player_a: str
    player_b: str
    size: int
    openings: int
    max_plies: int
    limit: str
    seed: int

    def tags(self) -> dict:
        return {"PlayerA": self.player_a, "PlayerB": self.player_b, "Limit": self.limit, "MaxPlies": str(self.max_plies), "Seed": str(self.seed)}

    def check(self, record, where: str) -> None:
        """HingeError naming the first setting on which ``record`` differs."""
        found = {
            "PlayerA": (record.tags.get("PlayerA"), self.player_a),
            "PlayerB": (record.tags.get("PlayerB"), self.player_b),
            "Size": (str(record.size), str(self.size)),
            "Opening": (record.tags.get("Opening"), str(self.openings)),
            "Limit": (record.tags.get("Limit"), self.limit),
            "MaxPlies": (record.tags.get("MaxPlies"), str(self.max_plies)),
            "Seed": (record.tags.get("Seed"), str(self.seed)),
        }
        for tag, (theirs, ours) in found.items():
            if theirs is None:
                raise HingeError(f"{where} has no {tag} tag: it is not a file written by match --out or --resume")
            if theirs != ours:
                raise HingeError(f"{where} was played with {tag} {theirs!r}, not {ours!r}: resume with the same settings")


_RESULT_AT_END = re.compile(r"(?:green|blue|unfinished)\s*\Z")
_GAME_START = re.compile(r"\n[ \t\r]*\n(?=\[)")


def read_match_file(path) -> tuple[list, int]:
    """``(records, length)``: the whole games of a match file and the length in bytes
    of the text holding them. A game cut short by a killed process (the last one,
    without its result token) is left out of both; any other flaw is a HingeError."""
    from .record import parse_records

    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return [], 0
    except OSError as e:
        raise HingeError(f"cannot read {path}: {e.strerror or e}") from None
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


def game_from_record(record) -> Game:
    """The Game of a match file's record (tags as :meth:`Game.record` writes them)."""
    index = int(record.tags["Round"]) - 1
    return Game(
        round=index + 1,
        green=record.tags.get("Green", "?"),
        blue=record.tags.get("Blue", "?"),
        a_color=Color.GREEN if index % 2 == 0 else Color.BLUE,
        moves=list(record.moves),
        result=record.result,
        termination=_termination(record),
        opening_plies=int(record.tags.get("Opening", "0")),
        size=record.size,
    )


def _termination(record) -> Termination:
    try:
        return Termination(record.termination or "max plies")
    except ValueError:
        raise HingeError(f"game {record.tags.get('Round', '?')} ended by {record.termination!r}, not by a match's endings") from None


def read_match(path, settings: MatchSettings) -> tuple[dict, int]:
    """``({index: Game}, length)``: the games already in a match file (``done`` for
    :func:`play_match`), checked against ``settings``, and the length of the text
    holding them (the file is cut there before new games are added)."""
    records, length = read_match_file(path)
    done = {}
    for number, record in enumerate(records, start=1):
        where = f"{path} (game {number})"
        settings.check(record, where)
        round_tag = record.tags.get("Round", "")
        if not round_tag.isdigit() or int(round_tag) < 1:
            raise HingeError(f"{where} has Round {round_tag!r}, not a game number")
        game = game_from_record(record)
        if game.round - 1 in done:
            raise HingeError(f"{where}: game {game.round} is in the file twice")
        done[game.round - 1] = game
    return done, length


def seed_of_match_file(path) -> int | None:
    """The ``Seed`` tag of a match file's first game (None: no game, or no such tag)."""
    records, _ = read_match_file(path)
    if not records:
        return None
    seed = records[0].tags.get("Seed", "")
    return int(seed) if seed.isdigit() else None
