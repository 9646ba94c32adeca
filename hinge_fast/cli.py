"""``hinge-fast``: the command line. Thin argument handling over the layers below.

Each command lives in a module of ``hinge_fast.commands`` that defines
``register(subparsers)`` (found automatically; keep such modules light to import:
import heavy things inside the command's function). A command's function takes the
parsed arguments and returns an exit status. User mistakes raise HingeError, printed here as one line
``error: ...`` with exit status 2; nothing a user types ends in a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import importlib
import os
import pkgutil
import re
import shutil
import signal
import sys
import threading

from . import __version__, commands, core
from .errors import HingeError


def command_modules() -> list[str]:
    return sorted(
        m.name for m in pkgutil.iter_modules(commands.__path__) if not m.name.startswith("_")
    )


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake as a HingeError (one line, status 2), with
    a suggestion for a mistyped choice or option and the help of the command concerned."""

    def error(self, message):
        raise HingeError(f"{message}{_choice_hint(message)} (see '{self.prog} --help')")

    def parse_args(self, args=None, namespace=None):
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            command = self.commands.get(getattr(parsed, "command", None), self)
            raise HingeError(
                f"unrecognized arguments: {' '.join(extras)}{_extras_hint(command, parsed, extras)} "
                f"(see '{command.prog} --help')"
            )
        return parsed

    #: The commands' parsers by name (the top-level parser's; set by build_parser).
    commands: dict = {}

    def long_options(self) -> list[str]:
        """The parser's ``--name`` options."""
        return [o for o in self._option_string_actions if o.startswith("--")]


_INVALID_CHOICE = re.compile(r"invalid choice: '(?P<given>.*?)' \(choose from (?P<choices>.*)\)$")


def _close(given: str, choices) -> str | None:
    """The choice closest to ``given`` (difflib's measure), if one is close enough."""
    found = difflib.get_close_matches(given, list(choices), n=1, cutoff=0.6)
    return found[0] if found else None


def _choice_hint(message: str) -> str:
    """``; did you mean 'move'?`` for argparse's ``invalid choice: 'mvoe' (choose from ...)``."""
    match = _INVALID_CHOICE.search(message)
    if match is None:
        return ""
    choices = [c.strip().strip("'") for c in match["choices"].split(",")]
    close = _close(match["given"], choices)
    return f"; did you mean '{close}'?" if close else ""


def _extras_hint(parser, parsed, extras) -> str:
    """What the arguments a command did not take were probably meant to be: an option
    of its own spelt wrongly, or the side letter of an unquoted position string."""
    options = parser.long_options()
    for extra in extras:
        if extra.startswith("-"):
            close = _close(extra.split("=", 1)[0], options)
            if close:
                return f"; did you mean {close}?"
    position = getattr(parsed, "position", None)
    if (
        isinstance(position, str)
        and "/" in position
        and " " not in position.strip()
        and extras[0].lower() in ("g", "b")
    ):
        return (
            f"; a position string holds a space: quote it, as in "
            f"{parser.prog} '{position} {extras[0]}'"
        )
    return ""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="hinge-fast",
        description="A fast engine for the board game Hinge. POSITION is a position string "
        "(quoted: it holds a space) or 'start' for the empty board.",
        epilog="Example: hinge-fast moves '6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g'",
    )
    parser.add_argument("--version", action="version", version=f"hinge-fast {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in command_modules():
        importlib.import_module(f"hinge_fast.commands.{name}").register(subparsers)
    parser.commands = dict(subparsers.choices)
    return parser


def _on_ctrl_c(signum, frame):
    """SIGINT: KeyboardInterrupt, as Python's own handler, and the game loops' stop flag
    set, so that a search that returns its best move when interrupted does not let a
    match, a tuning run or self-play go on with the next move."""
    game = sys.modules.get("hinge_fast.games.game")
    if game is not None:
        game.stop_requested.set()
    raise KeyboardInterrupt


#: Set when SIGTERM (a process manager or a cluster's scheduler stopping the command)
#: asked the command to stop: it stops as for Ctrl-C, and exits with status 143.
_terminated = threading.Event()


def _on_terminate(signum, frame):
    """SIGTERM: the same stop as Ctrl-C (checkpoints and finished games kept, worker
    processes stopped, no file left half written), remembered for the exit status."""
    _terminated.set()
    _on_ctrl_c(signum, frame)


#: Whether the system has the interval timer that sends a dropped Ctrl-C again.
_ALARM = hasattr(signal, "setitimer")


def _on_unraisable(unraisable):
    """A KeyboardInterrupt raised while a finaliser ran (a progress bar's ``__del__``,
    say) is one Python drops: the Ctrl-C comes again a moment later, as an alarm, to be
    raised where it stops the command. Anything else goes to Python's own hook."""
    if (
        issubclass(unraisable.exc_type, KeyboardInterrupt)
        and signal.getsignal(signal.SIGALRM) is _on_ctrl_c
    ):
        # Not a signal sent now: Python would handle it at once, inside this hook.
        signal.setitimer(signal.ITIMER_REAL, 0.01)
        return
    sys.__unraisablehook__(unraisable)


@contextlib.contextmanager
def ctrl_c_stops_the_command():
    """Within: Ctrl-C raises KeyboardInterrupt (a Ctrl-C that lands in a finaliser a
    moment later, where the system has an interval timer) and sets the game loops' stop
    flag; so does SIGTERM, where it would otherwise end the process at once. Outside the
    main thread nothing changes; Ctrl-C keeps a handler other than Python's (or its being
    ignored, as in a job a shell started in the background), and SIGTERM one set before."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _terminated.clear()
    previous = previous_term = None
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        previous = signal.signal(signal.SIGINT, _on_ctrl_c)
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        previous_term = signal.signal(signal.SIGTERM, _on_terminate)
    alarm = _ALARM and (previous is not None or previous_term is not None)
    if alarm:
        previous_alarm = signal.signal(signal.SIGALRM, _on_ctrl_c)
        previous_hook, sys.unraisablehook = sys.unraisablehook, _on_unraisable
    try:
        yield
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            sys.unraisablehook = previous_hook
            signal.signal(signal.SIGALRM, previous_alarm)
        if previous_term is not None:
            signal.signal(signal.SIGTERM, previous_term)
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``hinge-fast`` console script; returns the exit status.
    Without a command: the help, and status 0."""
    try:
        with ctrl_c_stops_the_command():
            return _main(argv)
    except KeyboardInterrupt:  # also one sent again just as the command ended
        if _terminated.is_set():
            print("terminated", file=sys.stderr, flush=True)
            return 143
        print("interrupted", file=sys.stderr, flush=True)
        return 130
    finally:
        game = sys.modules.get("hinge_fast.games.game")
        if game is not None:
            game.stop_requested.clear()


def _main(argv):
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 0
        return int(args.run(args) or 0)
    except HingeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


def run() -> None:
    """Console-script entry: starts the kernels quickly (``core.QUICK_START``) and exits
    without tearing numba down, which costs a noticeable part of a second at every
    command's end and saves nothing. What multiprocessing's exit handler would do is
    done here: its folder in the temporary folder (the fork server's socket, when worker
    processes ran) is removed."""
    core.QUICK_START = True
    status = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass
    if "multiprocessing.forkserver" in sys.modules:  # worker processes ran (it imports util)
        shutil.rmtree(sys.modules["multiprocessing.util"].get_temp_dir(), ignore_errors=True)
    os._exit(status)


if __name__ == "__main__":
    run()
