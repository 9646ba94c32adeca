"""The engine protocol: ``hinge-fast engine`` reads commands on stdin, answers on stdout.

A line protocol modelled on the Universal Hive Protocol (UHP, spoken by Mzinga and
nokamute). Every response ends with a line ``ok``; a failing command answers
``err <message>`` (a bad move for ``play``: ``invalidmove <message>``) and then ``ok``,
and leaves the game exactly as it was. The reference is ``docs/protocol.md``.

In-process use (what the tests do)::

    >>> session = EngineSession()
    >>> session.handle("newgame 4")
    ['4/5/6/7/6/5/4 g;NotStarted', 'ok']
    >>> session.handle("play B2")
    ['4/5/6/7/6/5/4 g;InProgress;B2', 'ok']
    >>> session.handle("play B2")[0]
    'invalidmove illegal move B2: B2 is occupied'

Game string: ``<position string>;<state>[;<move>;<move>...]`` where the position string is
the position the game started from (the one ``newgame`` set up), the state one of
``NotStarted`` (no move played yet and no token on the board), ``InProgress``,
``GreenWins``, ``BlueWins``, and the moves those played since ``newgame``, oldest first.
``newgame <game string>`` loads such a game back.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import sys
import threading
import traceback
from dataclasses import dataclass

from ..board import Board, Color, Move
from ..errors import HingeError
from ..core.geometry import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, check_size

#: The engine's name in ``info``.
ENGINE_NAME = "hinge-fast"
#: Longest command line read, in characters (a game string of MAX_GAME_MOVES moves fits).
MAX_LINE = 200_000
#: Most moves a game may hold (newgame with a game string, or play): bounds memory (a
#: Board keeps about 24 KiB per ply on S=9, for undo) and
#: the time a ``newgame`` replay takes.
MAX_GAME_MOVES = 5_000
#: Deepest ``perft`` the protocol accepts (the command line's ``perft`` allows the same).
MAX_PERFT_DEPTH = 20

STATES = ("NotStarted", "InProgress", "GreenWins", "BlueWins")
_NUMBER = re.compile(r"[+-]?[0-9]{1,19}")
_TIME = re.compile(r"([0-9]{1,5}):([0-9]{1,2}):([0-9]{1,2}(?:\.[0-9]{1,6})?)")


class InvalidMove(HingeError):
    """A ``play`` whose move is malformed or illegal: answered ``invalidmove <message>``."""


class SearchStopped(Exception):
    """Raised from the search's progress callback to end a search early (private)."""


# ----- game strings ------------------------------------------------------------------------
def game_state(board: Board, moves_played: int) -> str:
    """``NotStarted``, ``InProgress``, ``GreenWins`` or ``BlueWins`` for ``board``.

    >>> game_state(Board(), 0)
    'NotStarted'
    """
    outcome = board.outcome()
    if outcome is not None:
        return "GreenWins" if outcome.winner == Color.GREEN else "BlueWins"
    if moves_played == 0 and board.token_count(Color.GREEN) + board.token_count(Color.BLUE) == 0:
        return "NotStarted"
    return "InProgress"


def format_game_string(start_fen: str, board: Board, moves: list[Move]) -> str:
    """The game string of a game that started at ``start_fen`` and reached ``board``
    through ``moves``.

    >>> format_game_string("4/5/6/7/6/5/4 g", Board(4), [])
    '4/5/6/7/6/5/4 g;NotStarted'
    """
    return ";".join([start_fen, game_state(board, len(moves))] + [str(m) for m in moves])


def parse_game_string(text: str) -> tuple[Board, Board]:
    """(start board, current board) of a game string; HingeError names the problem.
    The state field must be one of the four states and agree with the moves.

    >>> start, now = parse_game_string("4/5/6/7/6/5/4 g;InProgress;B2")
    >>> now.fen()
    '4/5/6/7/6/1g3/4 b'
    """
    fields = [f.strip() for f in text.split(";")]
    if len(fields) < 2:
        raise HingeError("a game string is '<position string>;<state>[;<move>...]'")
    if len(fields) - 2 > MAX_GAME_MOVES:
        raise HingeError(f"a game holds at most {MAX_GAME_MOVES} moves, not {len(fields) - 2}")
    start = Board.from_fen(fields[0])
    state = fields[1]
    if state not in STATES:
        raise HingeError(f"game state must be one of {', '.join(STATES)}, not {_shown(state)}")
    board = start.copy()
    for number, move in enumerate(fields[2:], 1):
        try:
            board.push(board.parse_move(move))
        except HingeError as e:
            raise HingeError(f"move {number} of the game string: {e}") from None
    actual = game_state(board, len(board.move_stack))
    if actual != state:
        raise HingeError(f"game string says {state} but its moves lead to {actual}")
    return start, board


def parse_time(text: str) -> float:
    """Seconds in ``HH:MM:SS`` (seconds may have a fraction: ``00:00:00.5``).

    >>> parse_time("00:01:30")
    90.0
    """
    m = _TIME.fullmatch(text)
    if not m:
        raise HingeError(f"time must be HH:MM:SS (like 00:00:05), not {_shown(text)}")
    hours, minutes, seconds = int(m.group(1)), int(m.group(2)), float(m.group(3))
    if minutes >= 60 or seconds >= 60:
        raise HingeError(f"time {text}: minutes and seconds must be below 60")
    return hours * 3600 + minutes * 60 + seconds


def _shown(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _whole_number(name: str, text: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise HingeError(f"{name} must be a whole number, not {_shown(text)}")
    return int(text)


# ----- options -----------------------------------------------------------------------------
@dataclass
class Option:
    """One engine option: ``name;type;value;default;min;max`` (an enum lists its choices
    in place of min and max)."""

    name: str
    kind: str  # 'int' or 'enum'
    default: object
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    help: str = ""
    value: object = None

    def __post_init__(self):
        if self.value is None:
            self.value = self.default

    def line(self) -> str:
        if self.kind == "enum":
            tail = ";".join(self.choices)
        else:
            tail = f"{self.low};{self.high}"
        return f"{self.name};{self.kind};{self.value};{self.default};{tail}"

    def parse(self, text: str):
        """The value ``text`` stands for; HingeError if it is out of bounds."""
        text = text.strip()
        if self.kind == "enum":
            key = text.lower()
            if key not in self.choices:
                raise HingeError(f"option {self.name} must be one of {', '.join(self.choices)}, not {_shown(text)}")
            return key
        value = _whole_number(f"option {self.name}", text)
        if not self.low <= value <= self.high:
            raise HingeError(f"option {self.name} must be from {self.low} to {self.high}, not {value}")
        return value


def default_options() -> dict[str, Option]:
    """The options of a fresh session, with the searchers' own defaults and bounds."""
    from ..search.alphabeta import DEFAULT_TABLE_MB as table_default
    from ..search.alphabeta import MIN_TABLE_MB as table_min
    from ..search.limits import MAX_TABLE_MB as table_max
    from ..search.mcts import DEFAULT_TREE_NODES as tree_default
    from ..search.mcts import MAX_TREE_NODES as tree_max

    tree_min = 1000  # smaller trees are allowed by search() but play no better than nodes=1
    options = [
        Option("engine", "enum", "alphabeta", choices=("alphabeta", "mcts"), help="which searcher bestmove uses"),
        Option("threads", "int", 1, 1, 1, help="search threads; the searchers are single-threaded, so only 1"),
        Option("table_mb", "int", table_default, table_min, table_max, help="alpha-beta transposition table, MB (0: none)"),
        Option("tree_nodes", "int", tree_default, tree_min, tree_max, help="MCTS tree capacity, nodes"),
        Option("seed", "int", -1, -1, 2**63 - 1, help="random seed (MCTS); -1: a fresh one each search"),
    ]
    return {o.name: o for o in options}


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

    def __init__(self, should_stop=None, strict: bool = False):
        self.should_stop = should_stop or (lambda: False)
        self.strict = strict
        self.options = default_options()
        self.start: Board | None = None
        self.board: Board | None = None
        self.finished = False  # set by quit
        self.max_perft_depth = MAX_PERFT_DEPTH
        self.last_result = None  # the SearchResult of the last bestmove

    # The state a failing command must leave untouched.
    def snapshot(self):
        board = None if self.board is None else (self.board.fen(), tuple(map(str, self.board.move_stack)))
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
        try:
            if handler is None:
                raise HingeError(f"unknown command {_shown(words[0])}: try info, newgame, play, validmoves, bestmove, undo, options, perft, quit")
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
        return out + ["ok"]

    def _game(self) -> Board:
        if self.board is None:
            raise HingeError("no game in progress: send newgame first")
        return self.board

    def game_string(self) -> str:
        board = self._game()
        return format_game_string(self.start.fen(), board, board.move_stack)

    # ----- commands (each returns the lines before 'ok'; raising leaves the state as it was)
    def _cmd_info(self, rest):
        from .. import __version__

        _no_arguments("info", rest)
        return [f"id {ENGINE_NAME} {__version__}", f"sizes={MIN_SIZE}-{MAX_SIZE};engines=alphabeta,mcts;stop;perft"]

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
            size = check_size(_whole_number("board size", text))
            start, board = Board(size), Board(size)
        else:
            start = Board.from_fen(text)
            board = start.copy()
        self.start, self.board = start, board
        return [self.game_string()]

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
        count = 1 if not rest else _whole_number("undo's count", rest)
        played = len(board.move_stack)
        if count < 1:
            raise HingeError(f"undo takes a count of at least 1, not {count}")
        if count > played:
            raise HingeError(f"cannot undo {count} move{'s' if count != 1 else ''}: {played} played since newgame")
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
        option = self.options.get(name.lower())
        if option is None:
            raise HingeError(f"unknown option {_shown(name)}: the options are {', '.join(self.options)}")
        return option

    def _cmd_bestmove(self, rest):
        board = self._game()
        limits = parse_bestmove_limits(rest)
        if board.is_game_over():
            raise HingeError(f"the game is over ({board.outcome()})")
        result = run_search(board, limits, self._option_values(), self.should_stop)
        self.last_result = result
        return [str(result.move)]

    def _option_values(self) -> dict:
        return {name: option.value for name, option in self.options.items()}

    def _cmd_perft(self, rest):
        board = self._game()
        if not rest:
            raise HingeError("perft needs a depth, like 'perft 3'")
        depth = _whole_number("perft depth", rest)
        if not 0 <= depth <= self.max_perft_depth:
            raise HingeError(f"perft depth must be from 0 to {self.max_perft_depth}, not {depth}")
        return [str(perft(board, depth, self.should_stop))]

    def _cmd_quit(self, rest):
        _no_arguments("quit", rest)
        self.finished = True
        return []


def _no_arguments(command: str, rest: str) -> None:
    if rest:
        raise HingeError(f"{command} takes no arguments, not {_shown(rest)}")


def _one_line(error) -> str:
    """A message on one line: a response line must never be split."""
    return " ".join(str(error).split()) or type(error).__name__


def parse_bestmove_limits(text: str):
    """Limits from ``time HH:MM:SS``, ``depth N``, ``nodes N`` (one or more pairs;
    whichever is reached first ends the search).

    >>> parse_bestmove_limits("depth 3 time 00:00:02")
    Limits(time=2.0, nodes=None, depth=3)
    """
    from ..search import Limits

    words = text.split()
    if not words or len(words) % 2:
        raise HingeError("bestmove needs a limit: 'bestmove time HH:MM:SS', 'bestmove depth N' or 'bestmove nodes N'")
    values = {}
    for key, value in zip(words[::2], words[1::2]):
        key = key.lower()
        if key in values:
            raise HingeError(f"bestmove: {key} given twice")
        if key == "time":
            values[key] = parse_time(value)
        elif key in ("depth", "nodes"):
            values[key] = _whole_number(f"bestmove {key}", value)
        else:
            raise HingeError(f"bestmove limit must be time, depth or nodes, not {_shown(key)}")
    return Limits(**values)


# ----- searching with a stop --------------------------------------------------------------
def run_search(board: Board, limits, options: dict, should_stop):
    """Search a copy of ``board`` under ``limits`` with the session ``options``; end early
    (returning the last interim result) as soon as ``should_stop()`` is true.

    How a search is stopped: if the searcher accepts a ``should_stop`` keyword (a callable
    it polls between its numba chunks), it is passed; otherwise the ``progress`` callback,
    which every searcher calls with an interim result after each iteration or chunk,
    raises a private exception once ``should_stop()`` is true and the last interim result
    is returned. A stop before the first interim result waits for that first result.
    """
    from ..search import search as search_function

    engine = options["engine"]
    kwargs = {}
    if engine == "alphabeta":
        kwargs["table_mb"] = options["table_mb"]
    else:
        kwargs["tree_nodes"] = options["tree_nodes"]
    seed = None if options["seed"] < 0 else options["seed"]
    latest = []

    def progress(interim):
        latest[:] = [interim]
        if interim.move is not None and should_stop():
            raise SearchStopped

    if _accepts_should_stop(engine):
        kwargs["should_stop"] = should_stop
    try:
        result = search_function(
            board.copy(), engine=engine, time=limits.time, nodes=limits.nodes, depth=limits.depth,
            seed=seed, progress=progress, **kwargs,
        )
    except SearchStopped:
        result = latest[0]
    except MemoryError:
        size = f"table_mb {options['table_mb']}" if engine == "alphabeta" else f"tree_nodes {options['tree_nodes']}"
        raise HingeError(f"not enough memory for {size}: set a smaller value") from None
    if result.move is None:
        raise HingeError("the search found no move: the side to move has none")
    return result


def _accepts_should_stop(engine: str) -> bool:
    import importlib
    import inspect

    try:
        module = importlib.import_module(f"hinge_fast.search.{'alphabeta' if engine == 'alphabeta' else 'mcts'}")
        function = getattr(module, f"search_{engine}")
        return "should_stop" in inspect.signature(function).parameters
    except (ImportError, AttributeError, ValueError, TypeError):
        return False


def perft(board: Board, depth: int, should_stop=lambda: False) -> int:
    """perft of ``board`` (rules.md section 8), checking ``should_stop`` between root
    moves; HingeError if it was stopped.

    >>> perft(Board(4), 2)
    258
    """
    if depth == 0:
        return 1
    if depth == 1:
        return len(board.legal_moves)
    from ..core import kernels
    from ..core.tables import workspace

    work = workspace(depth)
    total = 0
    child = board.copy()
    moves = child.legal_moves
    for done, move in enumerate(moves):
        if should_stop():
            raise HingeError(f"perft stopped after {done} of {len(moves)} root moves")
        child.push(move)
        own, enemy = child._sides()
        total += int(kernels.perft_kernel(board.size, own, enemy, depth - 1, True, work))
        child.pop()
    return total


# ----- serving stdin/stdout ------------------------------------------------------------------
_EOF = object()


class _LineReader:
    """Reads command lines on a thread so that a search can notice ``stop`` or the end of
    input while it runs. Lines are numbered; ``stop_requested(after)`` is true once a
    ``stop`` line read after line ``after`` arrived, or once input ended right after line
    ``after`` (so a piped script ``...\nbestmove time 00:00:05\nquit`` searches its full
    time, while a client closing its end during a search stops it). ``stop`` lines are
    consumed here; they never reach the session."""

    def __init__(self, stream):
        self.stream = stream
        self.lines: queue.Queue = queue.Queue()
        self.last_stop = 0
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
                    self.lines.put((number, None))
                    continue
                line = raw.decode("utf-8", errors="replace")
                word = line.strip().split(None, 1)[:1]
                command = word[0].lower() if word else ""
                if command == "stop":
                    self.last_stop = number
                else:
                    self.lines.put((number, line))
        except (OSError, ValueError):
            pass
        finally:
            self.ended = True
            self.lines.put(_EOF)

    def stop_requested(self, after: int) -> bool:
        return self.last_stop > after or (self.ended and self.count == after)


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

    Ctrl-C (SIGINT) raises KeyboardInterrupt out of here, even during a search: a
    searcher that catches it to return its best move so far (alpha-beta does) is
    followed by a fresh KeyboardInterrupt once it returns."""
    current = [0]
    interrupted = threading.Event()
    session = EngineSession(should_stop=lambda: interrupted.is_set() or reader.stop_requested(current[0]))
    for name, value in (options or {}).items():
        option = session._option(name)
        option.value = option.parse(str(value))
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout
    reader = _LineReader(stdin)

    def on_sigint(signum, frame):
        interrupted.set()
        raise KeyboardInterrupt

    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, on_sigint)
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
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    return 0
