"""Matches between two players: paired openings, the games played here or on workers, an
SPRT that may stop early (the results and their statistics: ``results.py``; the match
file: ``matchfile.py``).

    >>> from hinge_fast.games.match import play_match
    >>> from hinge_fast.games.players import get_player
    >>> result = play_match(get_player("greedy"), get_player("random"), games=4, size=4, seed=1)
    >>> result.wins + result.losses + result.unfinished
    4

How a match is played
---------------------
* Games come in pairs. Pair ``i`` starts from opening ``i``: with a ``book``
  (``games/book.py``), the book's entry for pair ``i`` in the book order; without one,
  ``openings`` uniformly random plies from the empty board (seeded; an opening that
  ends the game is drawn again). Game ``2i`` gives player A Green, game ``2i+1`` the
  same opening with the colours swapped, so neither player profits from a lucky opening.
* Under a clock (``time_control``), each game starts both clocks at the base time; a
  side whose clock runs out loses by time forfeit (``games/game.py``). Each player is
  made ready (its compiled code loaded) before the clocks start.
* Before each game both players are ``reset`` with a seed drawn from the match seed:
  the whole match replays exactly when the players are limited by nodes.
* A game ends by elimination or when the side to move has no legal move (rules.md
  section 6), or, after ``max_plies`` plies (opening included), as **unfinished**:
  never a win for either side. For the score an unfinished game counts half a point.
"""

from __future__ import annotations

import pickle
import random as _random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..board import Board, Color
from ..core.geometry import check_size
from ..errors import HingeError
from ..jobs.executor import Executor
from ..protocol.client import EngineError
from .book import Book, check_order
from .game import DEFAULT_MAX_PLIES, GameResult, play_game
from .pairstats import Sprt
from .players import PlayerSpec
from .positions import random_opening
from .results import Game, MatchResult

if TYPE_CHECKING:
    from ..search.timeman import TimeControl

DEFAULT_OPENING_PLIES = 4


@dataclass(frozen=True)
class GameSettings:
    """How every game of a match or tournament is opened and played: ``openings``
    random plies from the empty board, or the entries of ``book`` (a
    ``games.book.Book``) in ``book_order`` (``'random'`` or ``'sequential'``);
    ``max_plies``: a game this long is unfinished; ``time_control``: a
    ``search.timeman.TimeControl`` both players play under (their own limits then only
    add to it), ``timer`` the clock's time source (None: the wall clock)."""

    openings: int = DEFAULT_OPENING_PLIES
    book: Book | None = None
    book_order: str = "random"
    max_plies: int = DEFAULT_MAX_PLIES
    time_control: TimeControl | None = None
    timer: Callable[[], float] | None = None

    def book_tag(self) -> str | None:
        """The match file's ``Book`` tag (None: random openings)."""
        return None if self.book is None else self.book.tag(self.book_order)

    def checked(self, size: int) -> GameSettings:
        """These settings for games on side ``size`` (the book order spelled out), or
        HingeError naming what is wrong."""
        for name, value, low in (("openings", self.openings, 0), ("max_plies", self.max_plies, 1)):
            _check_count(name, value, low)
        if self.book is None:
            if self.openings >= self.max_plies:
                raise HingeError(
                    f"the opening ({self.openings} plies) must be shorter than max plies ({self.max_plies})"
                )
            return self
        if not len(self.book):
            raise HingeError("the book holds no position")
        if any(e.board().size != size for e in self.book.entries):
            raise HingeError(f"the book holds positions of another side than {size}")
        return replace(self, book_order=check_order(self.book_order))


@dataclass(frozen=True)
class RunSettings:
    """Where the games are played and what hears of them: ``executor``, a
    :class:`hinge_fast.jobs.executor.Executor` playing several games at once, here or
    on a Ray cluster (None: one at a time in this process); ``done``: games already
    played (``{index: Game}``, from :func:`read_match`), counted but not played again;
    ``on_game(game)``: called as each new game finishes, in the order they finish (to
    save it at once); ``progress(result_so_far)``: called after each game is counted."""

    executor: Executor | None = None
    done: Mapping[int, Game] | None = None
    on_game: Callable[[Game], None] | None = None
    progress: Callable[[Any], None] | None = None

    def already_played(self, total: int, what: str) -> dict:
        """``done`` as a dict, or HingeError when it holds games past ``total``."""
        done = dict(self.done or {})
        if any(not 0 <= i < total for i in done):
            raise HingeError(
                f"the games already played go up to game {max(done) + 1}, past the {total} of this {what}"
            )
        return done


def _check_count(name: str, value, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise HingeError(f"{name} must be a whole number of at least {low}, not {value!r}")


@dataclass(frozen=True)
class GameJob:
    """Everything one game of a match needs, so that it plays the same wherever it
    runs (this process, a worker process, a Ray actor): ``index`` (from 0; A has Green
    in even games), the two players (Player objects or
    :class:`~hinge_fast.games.players.PlayerSpec`), the board side, the opening moves,
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
    timer: Callable[[], float] | None = None


def game_plan(seed, games: int, size: int, settings: GameSettings):
    """``(index, start, opening, green_seed, blue_seed)`` for games ``0 .. games-1`` of
    a match with this seed: pair ``i`` shares opening ``i`` (``start``: a position
    string or None for the empty board; ``opening``: moves from it), from the settings'
    book when there is one, else random; the sequence depends on the seed alone (not
    on how the games are played), so any game can be played anywhere."""
    rng = _random.Random(seed)
    start, opening = None, ()
    book = settings.book
    for index in range(games):
        if index % 2 == 0:
            if book is None:
                opening = tuple(random_opening(size, settings.openings, rng))
            else:
                entry = book.entry(index // 2, seed, settings.book_order)
                start, opening = entry.start, tuple(entry.moves)
        yield index, start, opening, rng.getrandbits(32), rng.getrandbits(32)


def game_jobs(players_of, games: int, size: int, seed: int | None, settings, done=()):
    """The :class:`GameJob` of each game ``0 .. games-1`` not in ``done``, in order,
    opened and seeded by :func:`game_plan`; ``players_of(index)``: its two players
    ``(a, b)`` (A has Green in even games)."""
    for index, start, opening, green_seed, blue_seed in game_plan(seed, games, size, settings):
        if index not in done:
            player_a, player_b = players_of(index)
            yield GameJob(
                index,
                player_a,
                player_b,
                size,
                opening,
                green_seed,
                blue_seed,
                settings.max_plies,
                start,
                settings.time_control,
                settings.timer,
            )


def _make(player, slot):
    return player.make(slot) if isinstance(player, PlayerSpec) else player


def player_label(player) -> str:
    """The name a player (a Player or a PlayerSpec) goes by in a match."""
    return player.label if isinstance(player, PlayerSpec) else player.name


def play_job(job: GameJob) -> Game:
    """Play one game of a match (a job for :mod:`hinge_fast.jobs.executor`)."""
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
    seed: int | None = None,
    sprt: Sprt | None = None,
    settings: GameSettings | None = None,
    run: RunSettings | None = None,
) -> MatchResult:
    """Play ``games`` games of ``player_a`` against ``player_b`` (Players from
    ``hinge_fast.games.players``, or PlayerSpecs) on side ``size`` and return a
    MatchResult.

    ``seed``: openings and player seeds (:func:`game_plan`); ``sprt``: an
    :class:`Sprt` that may stop the match early; ``settings``: how the games are opened
    and played (:class:`GameSettings`: random plies or a book, the ply cap, a clock;
    None: its defaults); ``run``: where they are played and what hears of them
    (:class:`RunSettings`: an executor, games already played, ``on_game``,
    ``progress``; None: one at a time here).

    Games are counted in game order whatever order they finish in, so a match (an
    SPRT's stopping point included) has the same result on any executor when the
    players are limited by nodes; Player objects are copied to the workers (give
    PlayerSpecs for players that cannot be copied, such as ``cmd:`` engines).

    >>> from hinge_fast.games.players import get_player
    >>> r = play_match(get_player("random"), get_player("random"), games=2, size=4, seed=5)
    >>> [g.a_color.name for g in r.games]
    ['GREEN', 'BLUE']
    """
    size = check_size(size)
    _check_count("games", games, 1)
    settings = (settings or GameSettings()).checked(size)
    run = run or RunSettings()
    done = run.already_played(games, "match")
    if run.executor is not None and run.executor.kind != "serial":
        _check_sendable(player_a)
        _check_sendable(player_b)
    result = MatchResult(player_label(player_a), player_label(player_b), size, sprt=sprt)
    waiting = dict(done)

    def take(game=None) -> bool:
        """Count the games now next in order; True when the match is over."""
        if game is not None:
            waiting[game.round - 1] = game
        while result.played in waiting:
            result.add(waiting.pop(result.played))
            if run.progress is not None:
                run.progress(result)
            if result.sprt_decision is not None:
                return True
        return result.played >= games

    if not take():
        jobs = game_jobs(lambda _: (player_a, player_b), games, size, seed, settings, done)
        run_games(jobs, run, take)
    return result


def run_games(jobs, run: RunSettings, take) -> None:
    """Play ``jobs`` (:class:`GameJob`) on ``run.executor`` (None: one at a time in this
    process): as each game finishes, in the order they finish, ``run.on_game(game)`` is
    called (to save it), then ``take(game)``, which returns True to stop (the games
    still running are dropped). The runner of matches and tournaments."""
    executor = Executor() if run.executor is None else run.executor
    stream = executor.run(play_job, jobs)
    try:
        for _, game in stream:
            if run.on_game is not None:
                run.on_game(game)
            if take(game):
                break
    finally:
        stream.close()


def _check_sendable(player) -> None:
    try:
        pickle.dumps(player)
    except Exception:  # noqa: BLE001  (whatever pickling raises)
        raise HingeError(
            f"player {player_label(player)} cannot be sent to other processes: give a PlayerSpec"
        ) from None
