"""The commands of ``hinge-fast``, one module each (see ``hinge_fast.cli``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..board import Board
from ..core.text import count, install_hint, seconds_text
from ..errors import HingeError

if TYPE_CHECKING:
    from tqdm import tqdm


def add_position_arguments(parser, required_side=False, default_size=6):
    """POSITION (a position string or 'start') and --size S for the empty board
    (``default_size`` when not given)."""
    parser.add_argument(
        "position",
        nargs="?",
        default="start",
        metavar="POSITION",
        help="a position string (quote it: it holds a space) or 'start' (default): the empty board",
    )
    add_size_argument(
        parser, f"side of the empty board for 'start' (4 to 9, default {default_size})", None
    )
    parser.set_defaults(default_size=default_size)


def add_size_argument(parser, text="board side (4 to 9, default 6)", default=6):
    """``--size S``: a board side from 4 to 9 (``default``), with the help ``text``."""
    int_option(parser, "--size", 4, 9, name="S", default=default, metavar="S", help=text)


def add_max_plies_argument(parser, default: int, text: str) -> None:
    """``--max-plies M``: the plies (1 to 10^6, ``default``) after which a game of random
    or self-play stops unfinished, with the help ``text``."""
    int_option(parser, "--max-plies", 1, 10**6, name="M", default=default, metavar="M", help=text)


def add_json_argument(parser, text="print one JSON object (schema in docs/usage.md)"):
    """``--json``: the command prints one JSON object instead of its text."""
    parser.add_argument("--json", action="store_true", help=text)


def add_threads_argument(parser, what="threads"):
    """``--threads T``: the threads of a count (``what``), by default every core this
    process may use."""
    int_option(
        parser,
        "--threads",
        1,
        1024,
        name="T",
        default=None,
        metavar="T",
        help=f"{what} (default: every core this process may use)",
    )


def add_color_argument(parser):
    """``--color`` / ``--no-color``: the board drawn with ANSI colours or not (default:
    when stdout is a terminal); read by :func:`ansi_colors`. The one meaning of
    ``--color`` in every command."""
    parser.add_argument(
        "--color",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="draw the tokens in ANSI colours (default: when the output is a terminal)",
    )


def ansi_colors(args) -> bool:
    """Whether to draw in ANSI colours: ``--color`` / ``--no-color``, else whether
    stdout is a terminal."""
    import sys

    return sys.stdout.isatty() if args.color is None else args.color


def board_from_args(args) -> Board:
    """The Board named by POSITION and --size."""
    text = args.position.strip()
    if text.lower() == "start":
        return Board(getattr(args, "default_size", 6) if args.size is None else args.size)
    board = Board.from_fen(text)
    if args.size is not None and args.size != board.size:
        raise HingeError(
            f"--size {args.size} disagrees with the position string, which is of side {board.size}"
        )
    return board


def require_game_on(board: Board) -> None:
    """HingeError ``the game is over: <outcome>`` (exit status 2) for a finished game:
    the one answer of every command that needs a move to search or list."""
    outcome = board.outcome()
    if outcome is not None:
        raise HingeError(f"the game is over: {outcome}")


def positive_int(name, low, high):
    """An argparse type: a whole number from low to high, with a message naming ``name``."""
    return _number_type(
        name,
        int,
        "a whole number",
        lambda value, text: None if low <= value <= high else f"from {low} to {high}, not {value}",
    )


def int_option(parser, flag, low, high, name=None, **options) -> None:
    """Declare the option ``flag`` on ``parser``: a whole number from ``low`` to ``high``
    (``positive_int``; its messages name ``name``, by default ``flag``), with argparse's
    ``default``, ``metavar`` and ``help``."""
    parser.add_argument(flag, type=positive_int(name or flag, low, high), **options)


def seconds(name="time", high=24 * 3600.0):
    """An argparse type: a number of seconds, more than 0 and at most ``high``."""
    return _number_type(
        name,
        float,
        "a number of seconds",
        lambda value, text: (
            None
            if 0 < value <= high  # also rejects nan
            else f"more than 0 and at most {seconds_text(high)} seconds, not {text}"
        ),
    )


def seconds_option(parser, flag, high=24 * 3600.0, **options) -> None:
    """Declare the option ``flag`` on ``parser``: a number of seconds, more than 0 and at
    most ``high`` (:func:`seconds`, its messages naming ``flag``), with argparse's
    ``default``, ``metavar`` and ``help``."""
    parser.add_argument(flag, type=seconds(flag, high), **options)


def _number_type(name, convert, kind, problem):
    """An argparse type: ``convert(text)``, refused with ``{name} must be {kind}`` when it
    fails and with ``{name} must be {problem(value, text)}`` when that is not None."""

    def parse(text):
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be {kind}, not {text!r}") from None
        wrong = problem(value, text)
        if wrong is not None:
            raise argparse.ArgumentTypeError(f"{name} must be {wrong}")
        return value

    parse.__name__ = name
    return parse


def add_executor_arguments(
    parser,
    concurrency_help="jobs run at once on this machine, in worker processes (default 1)",
    concurrency=True,
):
    """``--concurrency C`` (unless ``concurrency=False``) and ``--ray [ADDRESS]``:
    where a command's jobs run (``hinge_fast.jobs.executor``). A command taking them
    calls :func:`executor_from_args` and hands the Executor to its runner."""
    if concurrency:
        int_option(
            parser, "--concurrency", 1, 4096, default=None, metavar="C", help=concurrency_help
        )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="local",
        default=None,
        metavar="ADDRESS",
        help="run on a Ray cluster (ADDRESS as 'ray start --head' prints it; 'auto': the one started on this machine); "
        "without ADDRESS, a Ray started here with one worker per core"
        + ("; with --concurrency C, at most C workers" if concurrency else "")
        + f" (needs Ray: {install_hint('cluster')})",
    )


def add_count_arguments(parser) -> None:
    """``--threads``, and ``--ray`` (``add_executor_arguments``), of a count spread over
    threads here or jobs on a Ray cluster (perft, playouts)."""
    add_threads_argument(parser)
    add_executor_arguments(parser, concurrency=False)


def executor_from_args(args):
    """The Executor that ``--concurrency`` and ``--ray`` ask for (close it when done)."""
    from ..jobs.executor import Executor

    return Executor(concurrency=getattr(args, "concurrency", None), ray=getattr(args, "ray", None))


def add_engine_arguments(parser, default_help="", seed=True):
    """--engine NAME (the registry's engines; default its DEFAULT_ENGINE), -o/--option
    NAME=VALUE (the engine's options, checked by the registry), --tablebase FILE (the
    ``tablebase`` option) and --seed N (bounds of the registry's seed option: -1 is a
    fresh seed each search)."""
    from ..search.registry import DEFAULT_ENGINE, REGISTRY, all_options

    described = "; ".join(f"{name}: {spec.description}" for name, spec in REGISTRY.items())
    parser.add_argument(
        "--engine",
        choices=tuple(REGISTRY),
        default=None,
        help=f"searcher (default {DEFAULT_ENGINE}{default_help}). {described}",
    )
    names = ", ".join(all_options())
    add_option_argument(parser, f"an engine option (repeatable): {names}")
    add_tablebase_argument(parser)
    if seed:
        add_seed_argument(
            parser,
            "random seed ({low} to {high}; {low}: a fresh one each search); "
            "the same seed and node limit give the same move",
            metavar="N",
        )


def add_seed_argument(parser, text: str, **options) -> None:
    """``--seed``: the seed of the engines, within the bounds of the registry's seed
    option (-1: a fresh seed each search); ``{low}`` and ``{high}`` in ``text`` name them."""
    from ..search.registry import all_options

    spec = all_options()["seed"]
    int_option(
        parser,
        "--seed",
        spec.low,
        spec.high,
        name="seed",
        default=None,
        help=text.format(low=spec.low, high=spec.high),
        **options,
    )


def add_limit_arguments(
    parser, time_help: str, nodes_help: str, depth_help=None, most_seconds=24 * 3600.0, time=None
) -> None:
    """A search's limits: ``--time S`` (default ``time``, at most ``most_seconds``),
    ``--nodes N`` and, with ``depth_help``, ``--depth D``."""
    parser.add_argument(
        "--time", type=seconds("time", most_seconds), default=time, metavar="S", help=time_help
    )
    parser.add_argument(
        "--nodes",
        type=positive_int("nodes", 1, 10**12),
        default=None,
        metavar="N",
        help=nodes_help,
    )
    if depth_help is not None:
        parser.add_argument(
            "--depth",
            type=positive_int("depth", 1, 64),
            default=None,
            metavar="D",
            help=depth_help,
        )


def add_option_argument(parser, text: str) -> None:
    """``-o/--option NAME=VALUE``, repeatable (``args.option``: the list given)."""
    parser.add_argument(
        "-o", "--option", action="append", default=[], metavar="NAME=VALUE", help=text
    )


def add_tablebase_argument(parser):
    """--tablebase FILE: the engines' ``tablebase`` option (search/tablebase.py)."""
    parser.add_argument(
        "--tablebase",
        default=None,
        metavar="FILE",
        help="side-4 tablebase to play from ('off': none; default 'auto': the file 'hinge-fast solve --size 4' "
        "writes, when it exists): a side-4 position in it gets the table's move and exact value (win in N, loss in N)",
    )


def engine_options(engine: str, args) -> dict:
    """The options of ``-o NAME=VALUE`` (and --seed) for ``engine``, parsed and checked
    by the registry; HingeError naming a bad one."""
    from ..search.registry import engine_spec

    spec = engine_spec(engine)
    options = {}
    for item in getattr(args, "option", []) or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise HingeError(f"--option takes NAME=VALUE, not {item!r}")
        options[name.strip()] = spec.option(name.strip()).parse(value.strip())
    if getattr(args, "seed", None) is not None and "seed" in spec.option_names:
        options["seed"] = args.seed
    if getattr(args, "tablebase", None) is not None:
        options["tablebase"] = spec.option("tablebase").parse(args.tablebase)
    return options


class ProgressBar:
    """A tqdm bar on stderr for long counts, shown only when stderr is a terminal and
    the work lasts more than a second; ``show(done, total)`` is the counts' progress
    callback. tqdm is loaded on entering, not inside a timed count."""

    def __init__(self, unit: str):
        self.unit = unit
        self.bar: tqdm | None = None

    def __enter__(self):
        from tqdm import tqdm

        self.tqdm = tqdm
        return self

    def show(self, done: int, total: int) -> None:
        if self.bar is None:
            import sys

            self.bar = self.tqdm(
                total=total, unit=self.unit, file=sys.stderr, disable=None, delay=1.0, leave=False
            )
        self.bar.update(done - self.bar.n)

    def write(self, line: str) -> None:
        """Print ``line`` on stdout above the bar (the bar is drawn again below it)."""
        import sys

        self.tqdm.write(line, file=sys.stdout)
        sys.stdout.flush()

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.close()


def add_opening_arguments(parser):
    """``--book FILE|none``, ``--book-order``, ``--book-plies N`` and ``--openings K``:
    how the pairs of a match or tournament open (:func:`game_settings_from_args`)."""
    parser.add_argument(
        "--book",
        default=None,
        metavar="FILE",
        help="opening book: one position string a line, or game records (see --book-plies); "
        "default: the book shipped for the board side; 'none': random openings (--openings)",
    )
    parser.add_argument(
        "--book-order",
        choices=("random", "sequential"),
        default="random",
        help="take the book's entries in an order shuffled by the seed (default) or in file order",
    )
    int_option(
        parser,
        "--book-plies",
        0,
        10**6,
        default=None,
        metavar="N",
        help="a book of game records: play the first N moves of each game (default: all)",
    )
    int_option(
        parser,
        "--openings",
        0,
        1000,
        default=None,
        metavar="K",
        help="no book: K uniformly random plies open each pair of games (default with --book none: 4)",
    )


def add_move_limit_arguments(parser, time_help: str, nodes_help: str):
    """``--time S`` or ``--nodes N`` (not both): the limit of each move of a game's search
    players; the group, to which a command may add other limits."""
    limit = parser.add_mutually_exclusive_group()
    seconds_option(limit, "--time", default=None, metavar="S", help=time_help)
    int_option(limit, "--nodes", 1, 10**12, default=None, metavar="N", help=nodes_help)
    return limit


def add_game_arguments(parser, what: str, default_time: float):
    """The arguments every command that plays games of search players shares: a limit
    per move (``--time``, ``--nodes``) or a clock (``--tc``), ``--size``, the openings
    (:func:`add_opening_arguments`), ``--max-plies``, ``--seed``, and the games file
    (``--out`` or ``--resume``). ``what`` names the command's run ('match')."""
    limit = add_move_limit_arguments(
        parser,
        f"seconds per search move (default {default_time})",
        "nodes (alpha-beta) or playouts (MCTS) per search move",
    )
    limit.add_argument(
        "--tc",
        type=time_control,
        default=None,
        metavar="BASE[+INC]",
        help="a clock for each side: BASE seconds, INC more after each move (10+0.1; BASE alone, "
        "60: no increment); the engines "
        "decide the time of each move, and a side whose clock runs out loses on time",
    )
    int_option(parser, "--size", 4, 9, default=6, metavar="S", help="board side (default 6)")
    add_opening_arguments(parser)
    int_option(
        parser,
        "--max-plies",
        1,
        10**6,
        default=400,
        metavar="M",
        help="a game this long (opening included) is unfinished (default 400)",
    )
    int_option(
        parser,
        "--seed",
        0,
        2**63 - 1,
        default=None,
        metavar="N",
        help="seed of openings and players (default: random)",
    )
    saving = parser.add_mutually_exclusive_group()
    saving.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help="write the games to FILE as game records, each appended whole and flushed to disk as it "
        "finishes; a FILE that already holds something is refused (--resume goes on with it, --force "
        "replaces it)",
    )
    saving.add_argument(
        "--resume",
        default=None,
        metavar="FILE",
        help=f"like --out, but first read FILE: the games in it are counted, not played again, so an "
        f"interrupted {what} goes on where it stopped (FILE missing or empty: a new {what}). The "
        "settings must be the same; --seed may be left out (FILE says it); more games add games",
    )
    seconds_option(
        parser,
        "--margin",
        default=None,
        metavar="S",
        help="external engines (cmd:): the seconds a move may take past its time, or for the whole "
        "move under --nodes, and the wait for any other answer, before the engine loses the game and "
        "is started again for the next (default 30)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help=f"with --out: replace what FILE holds (the games of an earlier {what} are lost)",
    )


def move_time(args, default: float) -> float | None:
    """The seconds per search move of a match or tournament: ``--time``, else
    ``default`` when no limit (``--time``, ``--nodes``, ``--tc``) is given."""
    if args.time is not None or args.nodes is not None or args.tc is not None:
        return args.time
    return default


def make_players(args, limits, seeds) -> list:
    """The players of a match or tournament: ``limits`` holds each one's engine spec and
    limits per move, ``(spec, (seconds, nodes))``; each seeded in turn from ``seeds`` (a
    ``random.Random``), on ``--size`` with ``--margin``. The ones made are closed when one
    fails."""
    from ..games.players import get_player

    made = []
    try:
        for spec, (time, nodes) in limits:
            made.append(
                get_player(
                    spec,
                    time=time,
                    nodes=nodes,
                    seed=seeds.getrandbits(32),
                    size=args.size,
                    margin=args.margin,
                )
            )
    except BaseException:
        for player in made:
            player.close()
        raise
    return made


def start_games(args, executor, settings_for, players, limits, banner: str):
    """The start of a match or tournament: the games already played
    (:func:`open_games_file`; ``settings_for(index)``: the settings of game ``index``),
    ``executor`` started (Ray first, to say how many workers it has) and ``banner``
    printed with where the games run, then the games resumed. Returns ``(done, players,
    on_game, written)``: the games already played; ``players``, or for worker processes
    what they make them again from (each one's spec and limits per move, as
    :func:`make_players` takes ``limits``, its name, ``--size`` and ``--margin``); the
    callback that appends each game to the ``--out`` or ``--resume`` file as it
    finishes; and ``written``, whose ``[0]`` counts the games played, those already
    played included."""
    from ..games.players import PlayerSpec
    from ..records.record import append_record

    path = args.resume if args.resume is not None else args.out
    done = open_games_file(args, settings_for)
    if executor.kind != "serial":
        players = [
            PlayerSpec(
                spec, time=time, nodes=nodes, size=args.size, name=player.name, margin=args.margin
            )
            for player, (spec, (time, nodes)) in zip(players, limits)
        ]
    written = [len(done)]

    def on_game(game):
        if path is not None:
            append_record(path, game.record(settings=settings_for(game.round - 1)))
        written[0] += 1

    executor.start()
    print(banner + ("" if executor.kind == "serial" else f", {executor.describe()}"), flush=True)
    if done:
        print(f"resuming: {count(len(done), 'game')} already in {path}", flush=True)
    return done, players, on_game, written


def seed_of_args(args) -> int:
    """The seed of a match or tournament: ``--seed``, else the one its ``--resume`` file
    was played with, else a fresh random one."""
    import random

    from ..games.matchfile import seed_of_match_file

    seed = args.seed
    if args.resume is not None and seed is None:
        seed = seed_of_match_file(args.resume)
    if seed is None:
        seed = random.SystemRandom().getrandbits(32)
    return seed


def open_games_file(args, settings) -> dict:
    """The games already played: with ``--resume``, those of its file (cut after the
    last whole record; ``settings``, as ``games.matchfile.read_match`` takes them, must
    match); with ``--out``, none: a file that holds anything is refused unless
    ``--force`` (then it is replaced by an empty one); HingeError if it cannot be written."""
    import os

    from ..games.matchfile import cut_file, read_match, read_match_file
    from ..records.files import write_text_file

    if getattr(args, "force", False) and args.out is None:
        raise HingeError("--force goes with --out FILE: it replaces what FILE holds")
    if args.resume is not None:
        done, length = read_match(args.resume, settings)
        cut_file(args.resume, length)
        return done
    if args.out is not None:
        try:
            held = os.path.getsize(args.out) if os.path.exists(args.out) else 0
        except OSError as e:
            raise HingeError(f"cannot read {args.out}: {e.strerror or e}") from None
        if held and not args.force:
            try:
                games = len(read_match_file(args.out)[0])
            except HingeError:
                games = 0
            what = (
                f"holds {games} game{'s' if games != 1 else ''}"
                if games
                else f"is not empty ({held:,} bytes)"
            )
            raise HingeError(
                f"{args.out} {what}: go on with --resume {args.out}, or replace it with --force"
            )
        write_text_file(args.out, "")
    return {}


def game_settings_from_args(args):
    """The ``games.match.GameSettings`` of a match or tournament: the book the arguments
    ask for (None: random openings of ``--openings`` plies), ``--book-order``,
    ``--max-plies`` and ``--tc``; HingeError for a missing, empty or bad book, or
    openings as long as the games."""
    from ..games.book import NO_BOOK, default_book_path, read_book
    from ..games.match import DEFAULT_OPENING_PLIES, GameSettings

    name = args.book
    if args.openings is not None and name is not None and name.strip().lower() not in NO_BOOK:
        raise HingeError(
            "--openings asks for random openings: give it without --book, or with --book none"
        )
    book, openings = None, DEFAULT_OPENING_PLIES if args.openings is None else args.openings
    if args.openings is not None or (name is not None and name.strip().lower() in NO_BOOK):
        if args.book_plies is not None:
            raise HingeError("--book-plies is for a book of game records, not for random openings")
        if openings >= args.max_plies:
            raise HingeError(
                f"--openings ({openings}) must be less than --max-plies ({args.max_plies})"
            )
    else:
        path = default_book_path(args.size) if name is None else name
        book, openings = read_book(path, args.size, args.book_plies), 0
    return GameSettings(openings, book, args.book_order, args.max_plies, args.tc)


def openings_text(settings) -> str:
    """A banner's words for how the games of ``settings`` (a GameSettings) open."""
    book = settings.book
    if book is None:
        return f"{settings.openings}-ply random openings"
    return f"book {book.name} ({count(len(book), 'entry', 'entries')}, {settings.book_order} order)"


def report_games(result, path: str | None, written: int, json_path: str | None) -> int:
    """The end of a match or tournament: its summary, the games written to ``path``,
    every figure to ``json_path`` as JSON; the exit status."""
    print(result.summary())
    if path is not None:
        print(f"{count(written, 'game')} written to {path}")
    if json_path is not None:
        write_json(json_path, result.figures())
    return 0


def write_json(path: str, data) -> None:
    """Write ``data`` to ``path`` as indented JSON; HingeError if it cannot be written."""
    import json

    from ..records.files import write_text_file

    write_text_file(path, json.dumps(data, indent=1) + "\n")


def time_control(text: str):
    """An argparse type: ``--tc BASE[+INC]`` (seconds; no INC: none)."""
    from ..search.timeman import TimeControl

    try:
        return TimeControl.parse(text)
    except HingeError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def stopped_text(games: int, played: int, path: str | None) -> str:
    """What an interrupted match or tournament says: the games it kept, and how to go on.

    >>> stopped_text(20, 14, "m.hgn")
    'stopped after 14 of 20 games; resume with --resume m.hgn (the same command otherwise)'
    >>> stopped_text(20, 14, None)
    'stopped after 14 of 20 games (not saved: --out FILE keeps them, to resume)'
    """
    if path is None:
        return (
            f"stopped after {played} of {games} games (not saved: --out FILE keeps them, to resume)"
        )
    return f"stopped after {played} of {games} games; resume with --resume {path} (the same command otherwise)"
