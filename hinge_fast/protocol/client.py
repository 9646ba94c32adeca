"""Drive any program that speaks the engine protocol (docs/protocol.md) from Python.

Modelled on python-chess's ``SimpleEngine``::

    >>> from hinge_fast import Board, Limits
    >>> from hinge_fast.protocol.client import Engine
    >>> import sys
    >>> with Engine.popen([sys.executable, "-m", "hinge_fast.cli", "engine"]) as engine:
    ...     board = Board(4)
    ...     result = engine.play(board, Limits(nodes=100))
    ...     result.move in board.legal_moves, result.info.nodes > 0
    (True, True)

Every failure (the engine died, timed out, flooded its output, answered ``err`` or
something unreadable) raises :class:`EngineError` (a HingeError) with a message naming
the engine and the command, and ``termination`` saying how it failed.
``hinge_fast.games.players.EnginePlayer`` adapts an engine to the match runner's
player interface.
"""

from __future__ import annotations

import atexit
import collections
import multiprocessing.util
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time as _time
import weakref
from dataclasses import dataclass

from ..board import Board, Color, Move, Termination
from ..errors import HingeError
from ..search.limits import DEFAULT_TIME, Limits
from ..search.score import Score
from .wire import format_game_string

#: Seconds to wait for an answer to a command that does not search.
DEFAULT_TIMEOUT = 30.0
#: Seconds a search may take past its time (its ``time`` limit or the clock time left to
#: the side to move) before the engine is stopped: process start, numba compiling on a
#: cold cache, a slow machine. A search limited by depth or nodes only gets this margin
#: for the whole move.
SEARCH_MARGIN = 30.0
#: The longest answer line read from an engine, in bytes (a position string of side 9
#: is under 200): a longer one means the engine is broken, and it is stopped.
MAX_ANSWER_LINE = 1 << 20
#: The most bytes one answer may hold before its ``ok`` (``info`` lines of a long search
#: are many, each about a hundred bytes): more is a flood, and the engine is stopped.
MAX_ANSWER_BYTES = 16 << 20
#: The most lines held between the engine and the client (the reader thread waits, and
#: so does the engine, while the queue is full).
MAX_QUEUED_LINES = 4096
#: The last lines of the engine's stderr kept for an error message, and their length.
STDERR_LINES = 20
STDERR_LINE_CHARS = 500
_CLOSED = object()
_TOO_LONG = object()


class EngineError(HingeError):
    """An engine that failed: ``termination`` says how (``Termination.ENGINE_CRASH``,
    ``TIME_FORFEIT``, ``ILLEGAL_MOVE``, ``OUTPUT_FLOOD`` or ``ENGINE_ERROR``); the game
    runner scores it as a loss of that engine's game."""

    def __init__(self, message: str, termination: Termination = Termination.ENGINE_ERROR):
        super().__init__(message)
        self.termination = termination


#: Engines still running, stopped (their whole process group) when this program exits.
_RUNNING: weakref.WeakSet[Engine] = weakref.WeakSet()


@atexit.register
def stop_running_engines() -> None:
    """Kill every engine this process started that is still running, with its process
    group (at exit; a worker process calls it when it is stopped)."""
    for engine in list(_RUNNING):
        engine.kill()


# A worker process of a pool ends without running atexit: multiprocessing's own exit
# hook stops its engines there.
multiprocessing.util.Finalize(None, stop_running_engines, exitpriority=10)


def flipped(score: Score) -> Score:
    """The same score from the other side: centi-tokens negated, a win rate ``1 - r``,
    a win in N plies a loss in N plies and back."""
    if score.kind == "centi":
        return Score.centi(-score.value)
    if score.kind == "rate":
        return Score.rate(1.0 - score.value)
    return Score.loss(score.value) if score.kind == "win" else Score.win(score.value)


@dataclass(frozen=True)
class PovScore:
    """A score together with the side it is from (``turn``: the side to move when the
    engine gave it), as python-chess's ``PovScore``: ``relative`` is the engine's score,
    ``pov(color)`` (or ``green()``, ``blue()``) reads it from either side.

    >>> score = PovScore(Score.centi(125), Color.BLUE)
    >>> score.green(), score.blue(), round(score.win_chance(Color.GREEN), 3)
    (Score.centi(-125), Score.centi(125), 0.482)
    """

    relative: Score
    turn: Color

    def pov(self, color: Color) -> Score:
        return self.relative if color == self.turn else flipped(self.relative)

    def green(self) -> Score:
        return self.pov(Color.GREEN)

    def blue(self) -> Score:
        return self.pov(Color.BLUE)

    def is_mate(self) -> bool:
        """A proven win or loss."""
        return self.relative.is_mate

    def win_chance(self, color: Color) -> float:
        """``color``'s chance to win, 0 to 1 (``Score.win_chance``)."""
        return self.pov(color).win_chance


@dataclass(frozen=True)
class Info:
    """One ``info`` line, parsed: ``depth``, ``multipv`` (None: a single line), ``score``
    (a :class:`PovScore`), ``win_chance`` (the side to move's, 0 to 1: the line's
    ``winchance``, else worked out from the score), ``nodes``, ``nps``, ``time``
    (seconds), ``pv`` (moves, checked legal one after the other from the position searched:
    it stops at the first that is not), and ``line``, the text. A field the line lacks,
    or writes unreadably, is None."""

    depth: int | None = None
    multipv: int | None = None
    score: PovScore | None = None
    win_chance: float | None = None
    nodes: int | None = None
    nps: int | None = None
    time: float | None = None
    pv: tuple[Move, ...] = ()
    line: str = ""


_INT = re.compile(r"[0-9]{1,19}")
_SIGNED = re.compile(r"[+-]?[0-9]{1,19}")
_FLOAT = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,12})?")


def parse_info(line: str, board: Board) -> Info:
    """The :class:`Info` of an ``info`` line answered for ``board`` (the position
    searched, whose side to move the score is from).

    >>> info = parse_info("info depth 2 score cp -125 nodes 71 nps 9 time 0.068 winchance 0.4818 pv C3 D2", Board(4))
    >>> info.depth, info.score.green(), info.win_chance, [str(m) for m in info.pv]
    (2, Score.centi(-125), 0.4818, ['C3', 'D2'])
    """
    words = line.split()
    fields: dict = {"line": line}
    i = 1 if words[:1] == ["info"] else 0
    while i < len(words):
        key = words[i]
        value = words[i + 1] if i + 1 < len(words) else ""
        if key == "pv":
            fields["pv"] = _moves(words[i + 1 :], board)
            break
        if key == "score" and i + 2 < len(words):
            score = _score(value, words[i + 2])
            if score is not None:
                fields["score"] = PovScore(score, board.turn)
            i += 3
            continue
        if key in ("depth", "multipv", "nodes", "nps") and _INT.fullmatch(value):
            fields[key] = int(value)
        elif key in ("time", "winchance") and _FLOAT.fullmatch(value):
            number = float(value)
            if key == "time":
                fields["time"] = number
            elif number <= 1.0:
                fields["win_chance"] = number
        i += 2
    if "win_chance" not in fields and "score" in fields:
        fields["win_chance"] = fields["score"].relative.win_chance
    return Info(**fields)


def _score(kind: str, value: str) -> Score | None:
    if kind == "cp" and _SIGNED.fullmatch(value):
        return Score.centi(int(value))
    if kind in ("win", "loss") and _INT.fullmatch(value):
        return Score.win(int(value)) if kind == "win" else Score.loss(int(value))
    if kind == "winrate" and _FLOAT.fullmatch(value) and float(value) <= 1.0:
        return Score.rate(float(value))
    return None


def _moves(words: list[str], board: Board) -> tuple[Move, ...]:
    line = board.copy()
    moves = []
    for word in words:
        try:
            move = line.parse_move(word)
        except HingeError:
            break
        moves.append(move)
        line.push(move)
        if line.is_game_over():
            break
    return tuple(moves)


@dataclass(frozen=True)
class PlayResult:
    """What :meth:`Engine.play` returns: the engine's ``move`` and the :class:`Info` of
    its last ``info`` line (an empty Info when it sent none); ``str()`` is the move."""

    move: Move
    info: Info

    def __str__(self) -> str:
        return str(self.move)


@dataclass(frozen=True)
class EngineOption:
    """One line of ``options``: ``name;type;value;default;min;max`` (an enum has its
    choices instead of min and max)."""

    name: str
    kind: str
    value: str
    default: str
    low: str | None = None
    high: str | None = None
    choices: tuple[str, ...] = ()

    @classmethod
    def parse(cls, line: str) -> EngineOption:
        fields = line.split(";")
        if len(fields) < 4 or not fields[0]:
            raise HingeError(
                f"cannot read option line {line!r}: expected name;type;value;default;min;max"
            )
        name, kind, value, default, *rest = fields
        if kind == "enum":
            return cls(name, kind, value, default, choices=tuple(rest))
        low, high = (
            (field or None) for field in (rest + [None, None])[:2]
        )  # a string option has neither
        return cls(name, kind, value, default, low, high)


class Engine:
    """A running engine process and the game it was last told about.

    ``Engine.popen(cmd)`` starts it (``cmd``: a list of arguments or a shell-like string)
    in a process group of its own and reads its ``info``. Every request has a deadline:
    ``timeout`` bounds the wait for an answer to a command that does not search; a
    search gets its time plus ``margin`` (a search limited by depth or nodes only:
    ``search_timeout`` when given, else ``margin``). An engine past its deadline is
    killed (its whole process group) and an :class:`EngineError` raised.

    >>> engine = Engine.popen("python -m hinge_fast.cli engine")   # doctest: +SKIP
    >>> engine.id                                                  # doctest: +SKIP
    'hinge-fast 0.1.0'
    """

    def __init__(
        self,
        process: subprocess.Popen,
        name: str,
        timeout: float = DEFAULT_TIMEOUT,
        search_timeout: float | None = None,
        margin: float = SEARCH_MARGIN,
    ):
        self.process = process
        assert process.stdin is not None and process.stdout is not None  # started with pipes
        self._stdin = process.stdin
        self.command_name = name
        self.timeout = timeout
        self.search_timeout = search_timeout
        self.margin = margin
        self.id = ""
        self.last_info: list[str] = []  # the info lines of the last bestmove
        self.analysis: list[Info] = []  # those of the last analyse, parsed
        self.capabilities = ""
        self._lines: queue.Queue = queue.Queue(MAX_QUEUED_LINES)
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._game: tuple[str, list[str]] | None = None  # (start position, moves) the engine holds
        self._closed = False
        self._failure: str | None = None  # how the engine ended, once it did
        self._busy = False  # a command's answer is being read (or was abandoned: Ctrl-C)
        self._reader = threading.Thread(
            target=self._pump, args=(process.stdout, self._lines), daemon=True
        )
        self._reader.start()
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()
        _RUNNING.add(self)

    @classmethod
    def popen(
        cls,
        cmd: list[str] | str,
        timeout: float = DEFAULT_TIMEOUT,
        search_timeout: float | None = None,
        cwd=None,
        env=None,
        margin: float = SEARCH_MARGIN,
        startup: float = DEFAULT_TIMEOUT,
    ) -> Engine:
        """Start the engine ``cmd`` and check that it answers ``info`` within ``startup``
        seconds."""
        args = shlex.split(cmd) if isinstance(cmd, str) else [str(a) for a in cmd]
        if not args:
            raise HingeError("engine command is empty")
        for name, value in (("timeout", timeout), ("margin", margin), ("startup", startup)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise HingeError(f"the engine's {name} must be more than 0 seconds, not {value!r}")
        try:
            process = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=env,
                start_new_session=True,
            )
        except OSError as e:
            raise HingeError(f"cannot start engine {' '.join(args)!r}: {e.strerror or e}") from None
        engine = cls(
            process, " ".join(args), timeout=timeout, search_timeout=search_timeout, margin=margin
        )
        try:
            lines = engine._command("info", _time.monotonic() + startup)
            if not lines or not lines[0].startswith("id "):
                raise EngineError(
                    f"engine {engine.command_name!r} answered info with {lines[:1]!r}, not 'id <name>'"
                )
            engine.id = lines[0][3:].strip()
            engine.capabilities = lines[1] if len(lines) > 1 else ""
        except BaseException:
            engine.close()
            raise
        return engine

    @property
    def alive(self) -> bool:
        """Whether the engine runs and answers: False once it ended, failed or was closed."""
        return not self._closed and self.process.poll() is None

    # ----- plumbing ---------------------------------------------------------------------------
    @staticmethod
    def _pump(stream, lines):
        """Read the engine's output in chunks and queue it line by line (a line longer
        than MAX_ANSWER_LINE ends the reading)."""
        pending = bytearray()
        try:
            while chunk := stream.read1(65536):
                start = 0
                while (end := chunk.find(b"\n", start)) >= 0:
                    pending += chunk[start:end]
                    if len(pending) > MAX_ANSWER_LINE:
                        break
                    lines.put(pending.decode("utf-8", errors="replace").rstrip("\r"))
                    pending.clear()
                    start = end + 1
                else:
                    pending += chunk[start:]
                if len(pending) > MAX_ANSWER_LINE:
                    lines.put(_TOO_LONG)
                    return
        except (OSError, ValueError):
            pass
        lines.put(_CLOSED)

    def _drain_stderr(self):
        try:
            while raw := self.process.stderr.readline(STDERR_LINE_CHARS):
                self._stderr.append(raw.decode("utf-8", errors="replace").rstrip())
        except (OSError, ValueError):
            pass

    def _died(self, command: str) -> EngineError:
        status: int | str | None = self.process.poll()
        if status is None:
            try:
                status = self.process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                status = "still running"
        if status != "still running":
            self._stderr_thread.join(timeout=1.0)  # collect its last words
        tail = " | ".join(self._stderr)
        more = f"; its last words: {tail}" if tail else ""
        self.kill()
        self._failure = f"engine {self.command_name!r} ended (exit status {status}) while answering {_short(command)!r}{more}"
        return EngineError(self._failure, Termination.ENGINE_CRASH)

    def _send(self, line: str) -> None:
        if self._closed:
            raise EngineError(
                self._failure or f"engine {self.command_name!r} is closed", Termination.ENGINE_CRASH
            )
        if "\n" in line or "\r" in line:
            raise HingeError(f"a protocol command is one line, not {line!r}")
        try:
            self._stdin.write((line + "\n").encode())
            self._stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died(line) from None

    def _read_until_ok(self, command: str, deadline: float) -> list[str]:
        lines: list[str] = []
        size = 0
        while True:
            wait = deadline - _time.monotonic()
            try:
                if wait <= 0:
                    raise queue.Empty
                line = self._lines.get(timeout=wait)
            except queue.Empty:
                self.kill()
                raise EngineError(
                    f"engine {self.command_name!r} did not answer {_short(command)!r} in time; it was stopped",
                    Termination.TIME_FORFEIT,
                ) from None
            if line is _CLOSED:
                self._put_back(_CLOSED)  # later reads fail the same way
                raise self._died(command)
            size += 0 if line is _TOO_LONG else len(line) + 1
            if line is _TOO_LONG or size > MAX_ANSWER_BYTES:
                self.kill()
                self._put_back(_CLOSED)
                what = (
                    f"a line longer than {MAX_ANSWER_LINE:,} bytes"
                    if line is _TOO_LONG
                    else f"more than {MAX_ANSWER_BYTES:,} bytes"
                )
                raise EngineError(
                    f"engine {self.command_name!r} answered {_short(command)!r} with {what}; it was stopped",
                    Termination.OUTPUT_FLOOD,
                )
            if line == "ok":
                return lines
            lines.append(line)

    def _put_back(self, item) -> None:
        try:
            self._lines.put_nowait(item)
        except queue.Full:
            pass

    def _command(self, line: str, deadline: float | None = None) -> list[str]:
        """Send one command and return its answer lines without the final ``ok``
        (``deadline``: a ``time.monotonic()`` time, default ``timeout`` from now);
        ``err``/``invalidmove`` answers raise EngineError."""
        if deadline is None:
            deadline = _time.monotonic() + self.timeout
        self._busy = True  # until the answer is read whole
        self._send(line)
        lines = self._read_until_ok(line, deadline)
        self._busy = False
        for answer in lines:
            if answer.startswith("err ") or answer == "err" or answer.startswith("invalidmove"):
                self._game = None  # what the engine holds is unknown now
                raise EngineError(
                    f"engine {self.command_name!r} refused {_short(line)!r}: {_short(answer, 200)}"
                )
        return lines

    # ----- games ------------------------------------------------------------------------------
    @property
    def synced_game(self) -> tuple[str, list[str]] | None:
        """The game the engine holds, as far as this client knows: (start position,
        moves), or None when the next ``play`` or ``analyze`` sends the whole game."""
        return self._game

    def forget_game(self) -> None:
        """Before a new game: the next ``play`` or ``analyze`` sends the whole game again
        (``newgame``) instead of only the moves the engine lacks."""
        self._game = None

    def _sync(self, board: Board) -> None:
        """Make the engine's game that of ``board``: the same starting position and moves
        (so that an engine may see the history), sending only the moves it lacks."""
        start = board.copy()
        while start.move_stack:
            start.pop()
        start_fen = start.fen()
        moves = [str(m) for m in board.move_stack]
        if (
            self._game is not None
            and self._game[0] == start_fen
            and moves[: len(self._game[1])] == self._game[1]
        ):
            for move in moves[len(self._game[1]) :]:
                self._command(f"play {move}")
                self._game[1].append(move)
            return
        self._game = None
        if moves:
            # A game string: the start position, a state the engine checks, the moves.

            self._command("newgame " + format_game_string(start_fen, board, board.move_stack))
        else:
            self._command(f"newgame {start_fen}")
        self._game = (start_fen, moves)

    def play(self, board: Board, limit: Limits) -> PlayResult:
        """The engine's move in ``board`` under ``limit`` (it is not played on ``board``)
        and the parsed last ``info`` line of its search (:class:`PlayResult`).

        The answer is checked against ``board``'s legal moves."""
        move, infos = self._search(board, limit)
        last = [info for info in infos if info.multipv in (None, 1)]
        return PlayResult(move, last[-1] if last else Info())

    def analyse(self, board: Board, limit: Limits, multipv: int | None = None):
        """The engine's analysis of ``board`` under ``limit``: the :class:`Info` of the
        last ``info`` line of its search (depth, nodes, time, the score as a
        :class:`PovScore`, the win chance, the PV as moves). With ``multipv`` (the
        engine's ``multipv`` option is set to it first): a list, the last line of each of
        the best ``multipv`` moves, best first.

        >>> with Engine.popen("hinge-fast engine") as engine:            # doctest: +SKIP
        ...     info = engine.analyse(Board(5), Limits(depth=3))
        ...     info.depth, info.score.green(), [str(m) for m in info.pv]
        (3, Score.centi(1060), ['C4', 'E4', 'C3-C4xD4'])
        """
        if multipv is not None:
            self.set_option("multipv", int(multipv))
        _, infos = self._search(board, limit)
        self.analysis = infos
        if multipv is None:
            last = [info for info in infos if info.multipv in (None, 1)]
            return last[-1] if last else Info()
        best: dict[int, Info] = {}
        for info in infos:
            best[info.multipv or 1] = info
        return [best[k] for k in sorted(best)]

    def _search(self, board: Board, limit: Limits) -> tuple[Move, list[Info]]:
        """``bestmove`` under ``limit``: the move and every info line, parsed."""
        if not isinstance(limit, Limits):
            raise HingeError(f"limit must be a hinge_fast.Limits, not {type(limit).__name__}")
        if board.is_game_over():
            raise HingeError(f"the game is over ({board.outcome()}): there is no move to find")
        self._sync(board)
        parts = []
        if limit.time is not None:
            parts.append("time " + hhmmss(limit.time))
        if limit.depth is not None:
            parts.append(f"depth {limit.depth}")
        if limit.nodes is not None:
            parts.append(f"nodes {limit.nodes}")
        clock = limit.clock
        if clock is not None:
            parts.append(
                f"gtime {hhmmss(clock.green_time)} btime {hhmmss(clock.blue_time)} "
                f"ginc {hhmmss(clock.green_inc, 0)} binc {hhmmss(clock.blue_inc, 0)}"
            )
            if clock.moves_to_go is not None:
                parts.append(f"movestogo {clock.moves_to_go}")
        if not parts:
            parts.append("time " + hhmmss(DEFAULT_TIME))
            limit = Limits(time=DEFAULT_TIME)
        command = "bestmove " + " ".join(parts)
        if limit.time is not None or clock is not None:
            left = None if clock is None else max(clock.side(board.turn)[0], 0.0)
            budget = min(x for x in (limit.time, left) if x is not None)
            deadline = _time.monotonic() + budget + self.margin
        else:
            deadline = _time.monotonic() + (
                self.margin if self.search_timeout is None else self.search_timeout
            )
        lines = self._command(command, deadline)
        self.last_info = [line for line in lines if line.startswith("info ")]
        lines = [line for line in lines if not line.startswith("info ")]
        if len(lines) != 1:
            raise EngineError(
                f"engine {self.command_name!r} answered {command!r} with {_short(repr(lines), 200)}, not one move",
                Termination.ILLEGAL_MOVE,
            )
        try:
            return board.parse_move(lines[0]), [parse_info(line, board) for line in self.last_info]
        except HingeError as e:
            raise EngineError(
                f"engine {self.command_name!r} answered {command!r} with a move that is not legal here: {e}",
                Termination.ILLEGAL_MOVE,
            ) from None

    def validmoves(self, board: Board) -> list[Move]:
        """The legal moves of ``board`` as the engine sees them."""
        self._sync(board)
        lines = self._command("validmoves")
        if len(lines) != 1:
            raise HingeError(
                f"engine {self.command_name!r} answered validmoves with {lines!r}, not one line"
            )
        try:
            return [Move.from_str(m) for m in lines[0].split(";") if m.strip()]
        except HingeError as e:
            raise HingeError(
                f"engine {self.command_name!r} answered validmoves with an unreadable move: {e}"
            ) from None

    def perft(self, board: Board, depth: int, timeout: float | None = None) -> int:
        """The engine's perft count of ``board`` at ``depth``, answered within ``timeout``
        seconds (default: the engine's ``timeout`` plus its ``margin``)."""
        self._sync(board)
        deadline = None if timeout is None else _time.monotonic() + timeout
        lines = self._command(
            f"perft {int(depth)}", deadline or _time.monotonic() + self.timeout + self.margin
        )
        if len(lines) != 1 or not lines[0].isdigit():
            raise HingeError(
                f"engine {self.command_name!r} answered perft with {lines!r}, not a count"
            )
        return int(lines[0])

    def options(self) -> dict[str, EngineOption]:
        """The engine's options by name."""
        return {o.name: o for o in map(EngineOption.parse, self._command("options"))}

    def set_option(self, name: str, value) -> EngineOption:
        """Set one option (``engine.set_option('engine', 'mcts')``); returns its new line."""
        for text in (str(name), str(value)):
            if not text.strip() or any(c in text for c in "\r\n"):
                raise HingeError(f"bad option name or value {text!r}")
        lines = self._command(f"options set {name} {value}")
        if len(lines) != 1:
            raise HingeError(f"engine {self.command_name!r} answered options set with {lines!r}")
        return EngineOption.parse(lines[0])

    # ----- life cycle ----------------------------------------------------------------------------
    def kill(self) -> None:
        """Kill the engine's whole process group (a program started through a shell
        wrapper too) and wait for it."""
        self._closed = True
        _RUNNING.discard(self)
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass
        if self.process.poll() is None:
            try:
                self.process.kill()
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        try:  # (its output streams are left to the reader threads, which end at their end)
            self._stdin.close()
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        """Send ``quit`` and wait for the process to end (killing its process group if it
        does not, and whatever it left running). An engine left in the middle of an
        answer (a search interrupted by Ctrl-C) is killed at once."""
        if self._closed:
            return
        if self.process.poll() is None and not self._busy:
            wait = min(self.timeout, 5.0)
            try:
                self._send("quit")
                self._read_until_ok("quit", _time.monotonic() + wait)
            except HingeError:
                pass
            try:
                self._stdin.close()
            except OSError:
                pass
            try:
                self.process.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        try:
            if not self._closed:
                os.killpg(self.process.pid, signal.SIGKILL)
        except Exception:
            pass


def hhmmss(seconds: float, least: int = 1) -> str:
    """``HH:MM:SS.fff`` for a number of seconds, at least ``least`` milliseconds (by
    default 1: a time limit never rounds down to 0)."""
    millis = max(least, round(seconds * 1000))
    hours, rest = divmod(millis, 3600_000)
    minutes, rest = divmod(rest, 60_000)
    return f"{hours:02d}:{minutes:02d}:{rest // 1000:02d}.{rest % 1000:03d}"


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
