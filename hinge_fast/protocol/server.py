"""The engine protocol: ``hinge-fast engine`` reads commands on stdin, answers on stdout.

A line protocol modelled on the Universal Hive Protocol (UHP, spoken by Mzinga and
nokamute). Every response ends with a line ``ok``; a failing command answers
``err <message>`` (a bad move for ``play``: ``invalidmove <message>``) and then ``ok``,
and leaves the game exactly as it was. ``bestmove`` sends ``info`` lines while it
thinks (depth, score, nodes, nps, time, pv) before its move. The reference is
``docs/protocol.md``; the wire format is ``wire.py``, the options ``options.py``.

In-process use (what the tests do)::

    >>> session = EngineSession()
    >>> session.handle("newgame 4")
    ['4/5/6/7/6/5/4 g;NotStarted', 'ok']
    >>> session.handle("play B2")
    ['4/5/6/7/6/5/4 g;InProgress;B2', 'ok']
    >>> session.handle("play B2")[0]
    'invalidmove illegal move B2: B2 is occupied'

``newgame <game string>`` loads a game back (``wire.py``).
"""

from __future__ import annotations

import os
import queue
import signal
import sys
import threading
import traceback

from ..board import Board
from ..core.geometry import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, check_size
from ..errors import HingeError
from ..search.registry import ENGINES, check_limits, create_searcher
from ..search.searcher import Searcher
from ..version import __version__
from .options import Option, default_options, find_option, searcher_options
from .wire import (  # noqa: F401  (re-exported: the protocol's public names)
    MAX_GAME_MOVES,
    STATES,
    format_game_string,
    game_state,
    info_lines,
    parse_bestmove_limits,
    parse_game_string,
    parse_time,
    shown,
    whole_number,
)

#: The engine's name in ``info``.
ENGINE_NAME = "hinge-fast"
#: Longest command line read, in characters (a game string of MAX_GAME_MOVES moves fits).
MAX_LINE = 200_000
#: Deepest ``perft`` the protocol accepts (the command line's ``perft`` allows the same).
MAX_PERFT_DEPTH = 20
#: The protocol's commands (``stop`` aside: it answers nothing), as the unknown-command
#: answer and ``engine --help`` list them.
COMMANDS = (
    "info",
    "newgame",
    "play",
    "validmoves",
    "bestmove",
    "undo",
    "options",
    "perft",
    "prove",
    "quit",
)
#: The transposition table of ``prove``, MB.
PROVE_TABLE_MB = 64


class InvalidMove(HingeError):
    """A ``play`` whose move is malformed or illegal: answered ``invalidmove <message>``."""


# ----- the session -------------------------------------------------------------------------
class EngineSession:
    """One protocol session: a game, options, and ``handle(line) -> response lines``.

    ``should_stop``: a callable polled during ``bestmove`` and ``perft``; when it returns
    True the search ends early with the best move found so far. ``strict``: let an
    unexpected exception (a bug) propagate instead of answering ``err internal error``
    (the tests use it to catch bugs).

    >>> EngineSession().handle("play F6")
    ['err no game in progress: send newgame first', 'ok']
    """

    def __init__(self, should_stop=None, strict: bool = False, emit=None):
        self.should_stop = should_stop or (lambda: False)
        self.emit = (
            emit  # emit(line): sends an info line at once (serve); None: returned with the answer
        )
        # (engine name, options, searcher): kept while the options stay
        self._searcher: tuple[tuple, Searcher] | None = None
        self._prover = None  # the prover of 'prove', made at the first one
        self._pending: list[str] = []
        self.strict = strict
        self.options = default_options()
        self.start: Board | None = None
        self.board: Board | None = None
        self.finished = False  # set by quit
        self.max_perft_depth = MAX_PERFT_DEPTH
        self.last_result = None  # the SearchResult of the last bestmove

    # The state a failing command must leave untouched.
    def snapshot(self):
        board = (
            None
            if self.board is None
            else (self.board.fen(), tuple(map(str, self.board.move_stack)))
        )
        start = None if self.start is None else self.start.fen()
        return start, board, tuple((n, o.value) for n, o in self.options.items())

    def handle(self, line: str) -> list[str]:
        """Run one command line; return the response lines (ending with ``ok``), or ``[]``
        for a blank line or ``stop`` (which answer nothing)."""
        words = line.strip().split(None, 1)
        if not words:
            return []
        command, rest = words[0].lower(), (words[1].strip() if len(words) > 1 else "")
        if command == "stop":
            return []  # outside a search there is nothing to stop; it never answers
        handler = getattr(self, f"_cmd_{command}", None)
        self._pending = []  # info lines of this command only, never of the one before
        try:
            if handler is None:
                raise HingeError(f"unknown command {shown(words[0])}: try {', '.join(COMMANDS)}")
            out = handler(rest)
        except InvalidMove as e:
            out = [f"invalidmove {_one_line(e)}"]
        except HingeError as e:
            out = [f"err {_one_line(e)}"]
        except Exception as e:  # a bug: report it and keep the session alive
            if self.strict:
                raise
            traceback.print_exc(file=sys.stderr)
            out = [f"err internal error: {type(e).__name__}: {_one_line(e)}"]
        return self._pending + out + ["ok"]

    def _game(self) -> Board:
        if self.board is None:
            raise HingeError("no game in progress: send newgame first")
        return self.board

    def game_string(self) -> str:
        board = self._game()
        assert self.start is not None  # set with the game
        return format_game_string(self.start.fen(), board, board.move_stack)

    # ----- commands (each returns the lines before 'ok'; raising leaves the state as it was)
    def _cmd_info(self, rest):
        _no_arguments("info", rest)
        return [
            f"id {ENGINE_NAME} {__version__}",
            f"sizes={MIN_SIZE}-{MAX_SIZE};engines={','.join(ENGINES)};stop;perft;prove",
        ]

    def _cmd_newgame(self, rest):
        text = rest.strip()
        if not text:
            start = Board(DEFAULT_SIZE)
            board = start.copy()
        elif text.lower() == "start":
            start, board = Board(DEFAULT_SIZE), Board(DEFAULT_SIZE)
        elif ";" in text:
            start, board = parse_game_string(text)
        elif " " not in text and "/" not in text:
            size = check_size(whole_number("board size", text))
            start, board = Board(size), Board(size)
        else:
            start = Board.from_fen(text)
            board = start.copy()
        self.start, self.board = start, board
        self._get_ready(board)
        return [self.game_string()]

    def _get_ready(self, board: Board) -> None:
        """Load the kernels of ``board``'s side and allocate the searcher now, so that
        the game's first ``bestmove`` answers within its time as measured from outside
        (``go`` pays them before its own clock starts). A searcher that cannot be made
        is left for ``bestmove`` to report."""
        engine, options = searcher_options(self.options)
        try:
            searcher = self._searcher_for(engine, options)
        except HingeError:
            return
        board.load_kernels()
        searcher.prepare(board)

    def _cmd_play(self, rest):
        board = self._game()
        if not rest:
            raise HingeError("play needs a move, like 'play F6' or 'play E5-F6xG7'")
        if len(board.move_stack) >= MAX_GAME_MOVES:
            raise HingeError(f"a game holds at most {MAX_GAME_MOVES} moves")
        try:
            move = board.parse_move(rest)
        except HingeError as e:
            raise InvalidMove(str(e)) from None
        board.push(move)
        return [self.game_string()]

    def _cmd_validmoves(self, rest):
        _no_arguments("validmoves", rest)
        return [";".join(str(m) for m in self._game().legal_moves)]

    def _cmd_undo(self, rest):
        board = self._game()
        count = 1 if not rest else whole_number("undo's count", rest)
        played = len(board.move_stack)
        if count < 1:
            raise HingeError(f"undo takes a count of at least 1, not {count}")
        if count > played:
            raise HingeError(
                f"cannot undo {count} move{'s' if count != 1 else ''}: {played} played since newgame"
            )
        for _ in range(count):
            board.pop()
        return [self.game_string()]

    def _cmd_options(self, rest):
        words = rest.split(None, 2)
        if not words:
            return [o.line() for o in self.options.values()]
        action = words[0].lower()
        if action == "get" and len(words) == 2:
            return [self._option(words[1]).line()]
        if action == "set" and len(words) == 3:
            option = self._option(words[1])
            option.value = option.parse(words[2])
            return [option.line()]
        raise HingeError("use 'options', 'options get NAME' or 'options set NAME VALUE'")

    def _option(self, name) -> Option:
        return find_option(self.options, name)

    def _cmd_bestmove(self, rest):
        board = self._game()
        limits = parse_bestmove_limits(rest)
        if board.is_game_over():
            raise HingeError(f"the game is over ({board.outcome()})")
        engine, options = searcher_options(self.options)
        check_limits(engine, limits)
        searcher = self._searcher_for(engine, options)

        lines = options.get("multipv", 1)

        def on_progress(interim):
            if interim.move is None:
                return
            for line in info_lines(interim, lines):
                if self.emit is not None:
                    self.emit(line)
                else:
                    self._pending.append(line)

        result = run_search(searcher, board, limits, on_progress, self.should_stop)
        self.last_result = result
        return [str(result.move)]

    def _searcher_for(self, engine: str, options: dict):
        """The session's searcher, made anew only when the engine or its options change
        (so its table or tree is allocated once, not per move)."""
        key = (engine, tuple(sorted(options.items())))
        if self._searcher is None or self._searcher[0] != key:
            self._searcher = None  # let the old one's memory go first
            try:
                self._searcher = (key, create_searcher(engine, **options))
            except MemoryError:
                sizes = ", ".join(
                    f"{k} {v}" for k, v in options.items() if k in ("table_mb", "tree_nodes")
                )
                raise HingeError(
                    f"not enough memory for {engine} with {sizes}: set a smaller value"
                ) from None
        return self._searcher[1]

    def _cmd_perft(self, rest):
        board = self._game()
        if not rest:
            raise HingeError("perft needs a depth, like 'perft 3'")
        depth = whole_number("perft depth", rest)
        if not 0 <= depth <= self.max_perft_depth:
            raise HingeError(f"perft depth must be from 0 to {self.max_perft_depth}, not {depth}")
        return [str(perft(board, depth, self.should_stop))]

    def _cmd_prove(self, rest):
        """``prove [nodes N] [time HH:MM:SS]``: ``proven green 3`` (the winner and the proof's
        distance in plies) or ``unproven``, after an ``info nodes N time T`` line; ``stop``
        ends it early (unproven)."""
        board = self._game()
        nodes = seconds = None
        if rest:  # without limits it runs until proven or stopped
            limits = parse_bestmove_limits(rest)
            if limits.depth is not None:
                raise HingeError("prove takes nodes N and time S, not depth")
            nodes, seconds = limits.nodes, limits.time
        if board.is_game_over():
            raise HingeError(f"the game is over ({board.outcome()})")
        from ..search.prover import Prover

        if self._prover is None:
            self._prover = Prover(table_mb=PROVE_TABLE_MB)
        prover = self._prover
        done = threading.Event()

        def watch():
            while not done.wait(0.005):
                if self.should_stop():
                    prover.stop()

        watcher = threading.Thread(target=watch, name="hinge-fast stop watcher", daemon=True)
        watcher.start()
        try:
            result = prover.prove(board.copy(), nodes=nodes, seconds=seconds)
        finally:
            done.set()
            watcher.join()
        info = f"info nodes {result.nodes} time {result.seconds:.3f}"
        if result.winner is None:
            return [info, "unproven"]
        return [info, f"proven {result.winner} {result.distance}"]

    def _cmd_quit(self, rest):
        _no_arguments("quit", rest)
        self.finished = True
        return []


def _no_arguments(command: str, rest: str) -> None:
    if rest:
        raise HingeError(f"{command} takes no arguments, not {shown(rest)}")


def _one_line(error) -> str:
    """A message on one line: a response line must never be split."""
    return " ".join(str(error).split()) or type(error).__name__


def run_search(searcher, board: Board, limits, on_progress, should_stop):
    """``searcher.go`` on a copy of ``board`` under ``limits``; a watcher thread polls
    ``should_stop()`` every 5 ms and calls ``searcher.stop()`` while it is true, so the
    search returns its best move so far."""
    done = threading.Event()

    def watch():
        # stop() is repeated while should_stop() holds: one sent before go began
        # (go clears the flag on entry) would otherwise be lost.
        while not done.wait(0.005):
            if should_stop():
                searcher.stop()

    watcher = threading.Thread(target=watch, name="hinge-fast stop watcher", daemon=True)
    watcher.start()
    try:
        result = searcher.go(board.copy(), limits, on_progress)
    finally:
        done.set()
        watcher.join()
    if result.move is None:
        raise HingeError("the search found no move: the side to move has none")
    return result


def perft(board: Board, depth: int, should_stop=lambda: False) -> int:
    """perft of ``board`` (rules.md section 8) on every core, polling ``should_stop``
    every few milliseconds, deep inside the count too; HingeError if it was stopped.

    >>> perft(Board(4), 2)
    258
    """
    if depth == 0:
        return 1
    from ..core import parallel

    return parallel.perft(
        board.size, board.own, board.enemy, depth, True, parallel.available_threads(), should_stop
    )


# ----- serving stdin/stdout ------------------------------------------------------------------
_EOF = object()


class _LineReader:
    """Reads command lines on a thread so that a search can notice ``stop`` or the end of
    input while it runs. Lines are numbered; a ``stop`` line stops the command read last
    before it (blank lines aside), and only that one: ``stop_requested(after)`` is true
    once a ``stop`` following line ``after`` arrived, or once input ended right after
    line ``after`` (so a piped script ``...\nbestmove time 00:00:05\nquit`` searches its
    full time, while a client closing its end during a search stops it). Commands queued
    behind a search wait for it, and a ``stop`` queued behind them is theirs, never the
    earlier search's. ``stop`` lines are consumed here; they never reach the session."""

    def __init__(self, stream):
        self.stream = stream
        self.lines: queue.Queue = queue.Queue()
        self.stopped: set[int] = set()  # the numbers of the lines a stop followed
        self.last_command = 0  # the number of the last line that was not stop nor blank
        self.count = 0  # lines read so far
        self.ended = False
        self.thread = threading.Thread(target=self._run, name="hinge-fast-stdin", daemon=True)
        self.thread.start()

    def _run(self):
        number = 0
        try:
            for raw in _read_lines(self.stream):
                number += 1
                self.count = number
                if raw is None:
                    self.last_command = number
                    self.lines.put((number, None))
                    continue
                line = raw.decode("utf-8", errors="replace")
                word = line.strip().split(None, 1)[:1]
                command = word[0].lower() if word else ""
                if command == "stop":
                    self.stopped.add(self.last_command)
                else:
                    if command:
                        self.last_command = number
                    self.lines.put((number, line))
        except (OSError, ValueError):
            pass
        finally:
            self.ended = True
            self.lines.put(_EOF)

    def stop_requested(self, after: int) -> bool:
        return after in self.stopped or (self.ended and self.count == after)


def _read_lines(stream):
    """Yield the lines of binary ``stream`` without their newline, or None for a line
    longer than MAX_LINE (whose bytes are dropped as they come, never held).

    A real file is read with ``os.read`` on its descriptor rather than through its
    buffered reader: a daemon thread blocked inside a buffered read holds the reader's
    lock, and Python aborts at exit if it then needs that lock."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None
    if fd is not None:

        def read():
            return os.read(fd, 65536)
    else:

        def read():
            return stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536)

    pending = bytearray()
    too_long = False
    while True:
        chunk = read()
        if not chunk:
            break
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end]
            if not too_long:
                pending += piece
                if len(pending) > MAX_LINE:
                    too_long = True
                    pending.clear()
            if end < 0:
                break
            yield None if too_long else bytes(pending)
            pending.clear()
            too_long = False
            start = end + 1
    if pending or too_long:
        yield None if too_long else bytes(pending)


def serve(stdin=None, stdout=None, options: dict | None = None) -> int:
    """Run a session on binary ``stdin`` / text ``stdout`` (default: the process's) until
    ``quit`` or the end of input; returns the exit status. ``options``: initial option
    values by name (``{'engine': 'mcts'}``), checked like ``options set``.

    Ctrl-C (SIGINT), and SIGTERM where a handler is set for it, raise KeyboardInterrupt
    out of here, even during a search: a searcher that catches it to return its best
    move so far (alpha-beta does) is followed by a fresh KeyboardInterrupt once it
    returns. ``bestmove``'s ``info`` lines are written as they come."""
    current = [0]
    interrupted = threading.Event()
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout

    def emit(line):
        stdout.write(line + "\n")
        stdout.flush()

    reader: _LineReader  # made once the options are set (it starts reading)
    session = EngineSession(
        should_stop=lambda: interrupted.is_set() or reader.stop_requested(current[0]), emit=emit
    )
    for name, value in (options or {}).items():
        option = session._option(name)
        option.value = option.parse(str(value))
    reader = _LineReader(stdin)

    previous: dict = {}  # the handlers replaced, by signal

    def on_stop(signum, frame):
        """Ctrl-C or SIGTERM: the search stops, then the session; the handler this one
        replaced (the command line's, which knows which signal it was) raises."""
        interrupted.set()
        before = previous.get(signum)
        if callable(before):
            before(signum, frame)
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, on_stop)
        if signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:  # someone handles it
            previous[signal.SIGTERM] = signal.signal(signal.SIGTERM, on_stop)
    try:
        while not session.finished:
            try:
                item = reader.lines.get(timeout=0.25)
            except queue.Empty:
                continue  # wake up now and then so that Ctrl-C is noticed
            if item is _EOF:
                break
            current[0], line = item
            if line is None:
                out = [f"err line too long: at most {MAX_LINE} characters", "ok"]
            else:
                out = session.handle(line)
            if interrupted.is_set():
                raise KeyboardInterrupt
            if out:
                stdout.write("\n".join(out) + "\n")
                stdout.flush()
    except BrokenPipeError:
        return 0
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return 0
