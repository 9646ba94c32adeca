"""``play``: a game against the engine in the terminal (works through a pipe too)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

from ..board import Color
from ..search.registry import DEFAULT_ENGINE, ENGINES
from . import (
    add_color_argument,
    add_limit_arguments,
    add_size_argument,
    add_tablebase_argument,
    ansi_colors,
)

HELP_TEXT = """\
commands:
  F6, E5-F6xG7   play a move (the target after x may be left out when only one group can be flipped)
  moves          list the legal moves
  undo           take back your last move and the engine's answer
  hint           ask the engine for a move
  save FILE      write the game so far as a record (docs/usage.md)
  help           this text
  quit           leave (so does end of input)
the rules, with pictures: docs/rules.md (or the rules page of hinge-fast serve)"""


def register(subparsers):
    p = subparsers.add_parser(
        "play",
        help="play a game against the engine in the terminal",
        description="Play against the engine: type moves in notation (F6, E5-F6xG7); the engine answers "
        "with 'engine plays X'. Commands: moves, undo, hint, save FILE, help, quit. End of input ends the "
        "game, so moves can be piped in. The rules, with pictures: docs/rules.md in the project "
        "(or the rules page of 'hinge-fast serve').",
        epilog="Example: printf 'F6\\nhint\\nsave game.hgn\\nquit\\n' | hinge-fast play --engine mcts --time 0.2",
    )
    p.add_argument(
        "--engine",
        default=None,
        metavar="PLAYER",
        help=f"a player: an engine ({', '.join(ENGINES)}; default {DEFAULT_ENGINE}, the stronger), greedy or "
        "random; engine options after a colon: mcts:exploration=0.7",
    )
    add_limit_arguments(
        p,
        "engine seconds per move (default 1)",
        "engine node limit per move instead of time",
        most_seconds=3600.0,
        time=1.0,
    )
    p.add_argument(
        "--side",
        type=_side,
        default=Color.GREEN,
        metavar="green|blue",
        help="the side you play (default green, who moves first)",
    )
    add_size_argument(p)
    p.add_argument("--seed", type=int, default=None, help="engine random seed")
    add_tablebase_argument(p)
    add_color_argument(p)
    p.set_defaults(run=run_play)


def _side(text):
    """An argparse type: ``--side green|blue``."""
    import argparse

    from ..errors import HingeError

    try:
        return Color.parse(text)
    except HingeError:
        raise argparse.ArgumentTypeError(f"--side must be green or blue, not {text!r}") from None


class _Leave(Exception):
    """The person typed quit or the input ended."""


@dataclass
class TerminalGame:
    """The terminal game: reads commands from ``stdin``, writes to ``out``. The moves
    go through the one game loop (``hinge_fast.games.game.play_game``), the person
    being the player whose ``choose`` reads the terminal."""

    board: Any
    human: Color
    player: Any
    engine_name: str
    stdin: Any
    out: Any
    ansi: bool
    name: str = field(default="you", init=False)

    @property
    def interactive(self) -> bool:
        return hasattr(self.stdin, "isatty") and self.stdin.isatty()

    def say(self, text=""):
        print(text, file=self.out, flush=True)

    def show(self):
        from ..board import draw

        self.say(draw(self.board, color=self.ansi))

    def moved(self, board, move):
        """The game loop's report of each move."""
        self.say(
            f"you play {move}" if board.turn != self.human else f"engine plays {move}{self.exact()}"
        )
        self.show()
        self.announce_end()

    def announce_end(self):
        outcome = self.board.outcome()
        if outcome is not None:
            who = "you win" if outcome.winner == self.human else "the engine wins"
            self.say(f"game over: {outcome} ({who}); type undo, save FILE or quit")

    def read(self):
        if self.interactive:
            print(f"{self.human}> ", end="", file=self.out, flush=True)
        line = self.stdin.readline()
        return None if line == "" else line.strip()

    def run(self) -> int:
        from ..games.game import play_game

        self.say(
            f"You play {self.human} against {self.engine_name}, on the side-{self.board.size} board. "
            "Type a move (F6, E5-F6xG7) or help."
        )
        self.show()
        green, blue = (self, self.player) if self.human == Color.GREEN else (self.player, self)
        try:
            while True:
                play_game(green, blue, self.board, max_plies=sys.maxsize, on_move=self.moved)
                while self.board.is_game_over():  # until undo takes the game back
                    self.command(self.next_line())
        except _Leave:
            return 0

    def choose(self, board):
        """The person's move: commands are handled until a move is typed."""
        while True:
            move = self.command(self.next_line())
            if move is not None:
                return move

    def next_line(self):
        while True:
            line = self.read()
            if line is None:
                self.say("end of input: game left")
                raise _Leave
            if line and not line.startswith("#"):
                return line

    def command(self, line):
        """Do one typed command; a typed legal move is returned, not played."""
        from ..errors import HingeError

        word, _, rest = line.partition(" ")
        word = word.lower()
        try:
            if word in ("quit", "exit", "q"):
                self.say("bye")
                raise _Leave
            if word in ("help", "?"):
                self.say(HELP_TEXT)
            elif word == "moves":
                moves = self.board.legal_moves
                self.say(
                    " ".join(str(m) for m in moves) if moves else "no legal move: the game is over"
                )
            elif word == "undo":
                self.undo()
            elif word == "hint":
                self.hint()
            elif word == "save":
                self.save(rest.strip())
            else:
                if self.board.is_game_over():
                    raise HingeError(
                        f"the game is over ({self.board.outcome()}); type undo, save FILE or quit"
                    )
                return self.board.parse_move(line)
        except HingeError as e:
            self.say(f"{e} (type help for the commands)" if word not in ("save",) else str(e))
        return None

    def reset(self, seed=None):
        pass

    def undo(self):
        """Take back moves until it is the human's turn, one human move at least."""
        popped = []
        stack = self.board.move_stack
        human_moves = [i for i in range(len(stack)) if self._mover(i) == self.human]
        if not human_moves:
            self.say("nothing to take back")
            return
        while len(self.board.move_stack) > human_moves[-1]:
            popped.append(self.board.pop())
        self.say("taken back: " + " ".join(str(m) for m in reversed(popped)))
        self.show()

    def _mover(self, index):
        """Colour that played move ``index`` of the move stack."""
        turn = self.board.turn
        back = len(self.board.move_stack) - index
        return turn if back % 2 == 0 else turn.other

    def hint(self):
        if self.board.is_game_over():
            self.say(f"no hint: the game is over ({self.board.outcome()})")
            return
        move = self.player.choose(self.board)
        self.say(f"hint: {move}{self.exact()}")

    def exact(self) -> str:
        """`` (tablebase: Green wins in 13)`` after a move the engine took from the
        tablebase (plies of both sides)."""
        from ..search.score import green_text

        result = getattr(self.player, "last_result", None)
        if result is None or not result.tablebase:
            return ""
        return f" (tablebase: {green_text(result.score, result.turn)})"

    def save(self, path):
        from ..errors import HingeError
        from ..records.record import GameRecord, write_records

        if not path:
            raise HingeError("save needs a file name: save FILE")
        import datetime

        green, blue = (
            ("you", self.engine_name) if self.human.name == "GREEN" else (self.engine_name, "you")
        )
        record = GameRecord.from_board(
            self.board, Date=datetime.date.today().strftime("%Y.%m.%d"), Green=green, Blue=blue
        )
        write_records(path, [record])
        self.say(f"saved {len(self.board.move_stack)} moves to {path}")


def run_play(args) -> int:
    from ..board import Board
    from ..games.players import get_player

    human = args.side
    board = Board(args.size)
    time = None if args.nodes is not None else args.time
    engine = args.engine or DEFAULT_ENGINE
    player = get_player(
        engine,
        time=time,
        nodes=args.nodes,
        seed=args.seed,
        size=args.size,
        options=None if args.tablebase is None else {"tablebase": args.tablebase},
    )
    ansi = ansi_colors(args)
    return TerminalGame(board, human, player, engine, sys.stdin, sys.stdout, ansi).run()
