"""The protocol's wire format: game strings, ``HH:MM:SS`` times, ``bestmove`` limits.

Game string: ``<position string>;<state>[;<move>;<move>...]`` where the position string is
the position the game started from (the one ``newgame`` set up), the state one of
``NotStarted`` (no move played yet and no token on the board), ``InProgress``,
``GreenWins``, ``BlueWins``, and the moves those played since ``newgame``, oldest first.
"""

from __future__ import annotations

import re

from ..board import Board, Color, Move
from ..errors import HingeError
from ..search.limits import Limits
from ..search.timeman import Clock

#: Most moves a game may hold (newgame with a game string, or play): bounds memory (a
#: Board keeps about 24 KiB per ply on S=9, for undo) and
#: the time a ``newgame`` replay takes.
MAX_GAME_MOVES = 5_000

STATES = ("NotStarted", "InProgress", "GreenWins", "BlueWins")
_NUMBER = re.compile(r"[+-]?[0-9]{1,19}")
_TIME = re.compile(r"([0-9]{1,5}):([0-9]{1,2}):([0-9]{1,2}(?:\.[0-9]{1,6})?)")


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
        raise HingeError(f"game state must be one of {', '.join(STATES)}, not {shown(state)}")
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
        raise HingeError(f"time must be HH:MM:SS (like 00:00:05), not {shown(text)}")
    hours, minutes, seconds = int(m.group(1)), int(m.group(2)), float(m.group(3))
    if minutes >= 60 or seconds >= 60:
        raise HingeError(f"time {text}: minutes and seconds must be below 60")
    return hours * 3600 + minutes * 60 + seconds


def shown(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def whole_number(name: str, text: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise HingeError(f"{name} must be a whole number, not {shown(text)}")
    return int(text)


#: The clock words of ``bestmove`` (times ``HH:MM:SS``) and ``movestogo N``.
CLOCK_WORDS = {"gtime": "green_time", "btime": "blue_time", "ginc": "green_inc", "binc": "blue_inc"}


def parse_bestmove_limits(text: str):
    """Limits from ``time HH:MM:SS``, ``depth N``, ``nodes N`` (one or more pairs;
    whichever is reached first ends the search), or a clock: ``gtime`` and ``btime``
    (the time left to Green and Blue), optionally ``ginc``, ``binc`` (their increments)
    and ``movestogo N``; the engine then decides the time of this move.

    >>> parse_bestmove_limits("depth 3 time 00:00:02")
    Limits(time=2.0, nodes=None, depth=3)
    >>> parse_bestmove_limits("gtime 00:00:10 btime 00:00:09.5 ginc 00:00:00.1 binc 00:00:00.1").clock.blue_time
    9.5
    """
    words = text.split()
    if not words or len(words) % 2:
        raise HingeError(
            "bestmove needs a limit: 'bestmove time HH:MM:SS', 'bestmove depth N', 'bestmove nodes N' "
            "or a clock 'bestmove gtime HH:MM:SS btime HH:MM:SS [ginc HH:MM:SS binc HH:MM:SS]'"
        )
    values: dict = {}
    clock: dict = {}
    for key, value in zip(words[::2], words[1::2]):
        key = key.lower()
        if (
            key in values
            or CLOCK_WORDS.get(key) in clock
            or (key == "movestogo" and "moves_to_go" in clock)
        ):
            raise HingeError(f"bestmove: {key} given twice")
        if key == "time":
            values[key] = parse_time(value)
        elif key in ("depth", "nodes"):
            values[key] = whole_number(f"bestmove {key}", value)
        elif key in CLOCK_WORDS:
            clock[CLOCK_WORDS[key]] = parse_time(value)
        elif key == "movestogo":
            clock["moves_to_go"] = whole_number("bestmove movestogo", value)
        else:
            raise HingeError(
                f"bestmove limit must be time, depth, nodes or a clock (gtime, btime, ginc, binc, "
                f"movestogo), not {shown(key)}"
            )
    if clock:
        if "green_time" not in clock or "blue_time" not in clock:
            raise HingeError("bestmove with a clock needs both gtime and btime")
        values["clock"] = Clock(**clock)
    return Limits(**values)


def info_lines(result, lines: int = 1) -> list[str]:
    """The ``info`` lines of an interim search result: ``info depth D score S nodes N
    nps R time T winchance W pv MOVES``, the score written ``cp 125``, ``win 3``,
    ``loss 4`` or ``winrate 0.625`` (one word and a number, as UCI writes ``cp`` and
    ``mate``), ``W`` the side to move's chance to win, 0 to 1 (``Score.win_chance``). With
    ``lines`` > 1 (alpha-beta's ``multipv``) one line for each of the first ``lines``
    root moves scored at the result's depth, best first, as UCI writes MultiPV:
    ``info depth D multipv K score S ... pv MOVES`` (K from 1), each with its own line."""
    tail = f"nodes {result.nodes} nps {result.nps:.0f} time {result.seconds:.3f}"
    if lines == 1:
        pv = " ".join(str(m) for m in result.pv)
        return [
            f"info depth {result.depth} score {score_words(result.score)} {tail} winchance {result.score.win_chance:.4f} "
            f"pv {pv}".rstrip()
        ]
    scored = [rm for rm in result.root_moves if rm.score is not None and rm.depth == result.depth][
        :lines
    ]
    return [
        f"info depth {result.depth} multipv {k} score {score_words(rm.score)} {tail} winchance {rm.score.win_chance:.4f} pv "
        f"{' '.join(str(m) for m in rm.pv or [rm.move])}".rstrip()
        for k, rm in enumerate(scored, start=1)
    ]


def score_words(score) -> str:
    """A Score on the wire: ``cp 125``, ``win 3``, ``loss 4`` or ``winrate 0.625``."""
    if score.mate is not None:
        return f"win {score.mate}" if score.mate > 0 else f"loss {-score.mate}"
    if score.centi_tokens is not None:
        return f"cp {score.centi_tokens}"
    return f"winrate {score.win_rate:.4f}"
