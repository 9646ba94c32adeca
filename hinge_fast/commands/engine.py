"""``engine``: speak the engine protocol (docs/protocol.md) on stdin and stdout."""

from __future__ import annotations

from ..errors import HingeError
from . import add_option_argument, add_tablebase_argument


def register(subparsers):
    p = subparsers.add_parser(
        "engine",
        help="run as an engine speaking the line protocol on stdin/stdout",
        description="Read protocol commands on stdin and answer on stdout (docs/protocol.md): "
        "info, newgame, play, validmoves, bestmove, undo, options, perft, prove, stop, quit. "
        "Every answer ends with a line 'ok'; a command waits for the search before it, and 'stop' "
        "ends only the search sent just before it.",
        epilog="Example: printf 'newgame 6\\nbestmove time 00:00:01\\nquit\\n' | hinge-fast engine --option engine=mcts",
    )
    add_option_argument(
        p,
        "set an option before the first command, as 'options set NAME VALUE' would (repeatable)",
    )
    add_tablebase_argument(p)
    p.set_defaults(run=run_engine)


def run_engine(args) -> int:
    from ..protocol.server import serve

    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise HingeError(f"--option takes NAME=VALUE, not {item!r}")
        options[name.strip()] = value.strip()
    if args.tablebase is not None:
        options["tablebase"] = args.tablebase
    return serve(options=options)  # Ctrl-C or SIGTERM: the command line says which
