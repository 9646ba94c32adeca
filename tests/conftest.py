"""What the tests share: common positions, the command-line runner, the pair of rule
implementations (reference and fast) and the ``--run-slow`` option.

Positions and the helpers that make them are module constants and functions (importable
for ``parametrize``: ``from tests.conftest import MID_GAME``); the rest are fixtures. A
helper two test modules need lives here, never imported from one test module into another.
"""

from __future__ import annotations

import json
import os
import random
import resource
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

# One search thread by default (the registry's ``threads`` default reads it at import):
# the docs' examples and the tests then replay node for node. Tests of more threads ask
# for them (tests/test_threads.py).
os.environ["HINGE_FAST_THREADS"] = "1"
# No side-4 tablebase unless a test gives one (the registry's ``tablebase`` default reads
# it at import): whether this machine has run ``hinge-fast solve`` must not change what
# the searchers answer in the tests and the docs' examples.
os.environ["HINGE_FAST_TABLEBASE"] = "off"
# The tests' own local Ray (tests/test_cluster.py, docs/cluster.md's examples) on the
# loopback address only, as the product starts one (jobs/executor.py): Ray reads this
# switch as it is imported, so it is set before any test imports it.
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")

import pytest
from filelock import FileLock

from hinge_fast import Board
from hinge_fast import reference as ref
from hinge_fast.core.sets import (
    group_touches_at,
    lift_stuck_among,
    run_counter,
    s_all,
    s_and,
    s_andnot,
)

#: The README's mid-game position (side 6, Green to move, 10 tokens each).
MID_GAME = "6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g"
#: A busier side-6 mid-game position (Green to move), for analysis.
MID_GAME_BUSY = "6/1gg1b2/5b2/2g2gg2/1b1g1g2b1/1b1gg3b2/4g1bbg1/3bb1bg1/1b2bgg1/1b3g1/6 g"
#: The empty side-6 board.
START = "6/7/8/9/10/11/10/9/8/7/6 g"
#: The yardstick's mid-game positions of sides 6 and 9 (Green to move).
S6_MID = MID_GAME
S9_MID = (
    "9/3gggg1b1/1ggg1g3b1/1g4g1b3/1gg4g5/4b3g1g1b1/1b1g1bb2gg1b2/5b1b4b1b1/"
    "1b2g1bb5bb2/3b2bb8/2b3b2b1b1g1/1b7bb3/2b1bg2b1g2/3bggbb4/4ggg4/4g1bb2/9 g"
)
#: Side 4, Blue to move with two tokens but no legal move: every empty cell touches
#: Green only, and Blue's lone tokens cannot swipe (a random filling).
NO_MOVE = "4/1ggg1/1ggbg1/1gggg2/1g1gg1/1ggb1/4 b"
#: Side 4, Green to move with no token left while Blue has two: eliminated.
ELIMINATED = "4/5/6/7/1b2b1/5/4 g"


# ----- positions made by play ---------------------------------------------------------------
#: The largest side on which the reference lists moves quickly enough for many positions
#: in the default suite; ``-m slow`` runs many more on the sides above.
QUICK_MAX_SIZE = 6


def game_positions(size: int, seed: int, every: int = 2):
    """The positions of one seeded random game from the empty board (every ``every``-th
    ply, and the last), as one Board changing in place: copy one to keep it."""
    rng = random.Random(seed)
    board = Board(size)
    while board.legal_moves and len(board.move_stack) < 300:
        if len(board.move_stack) % every == 0:
            yield board
        board.push(rng.choice(board.legal_moves))
    yield board


def midgame_positions(
    size: int, count: int, seed: int, min_ply: int = 6, max_ply: int = 30
) -> list[Board]:
    """``count`` positions of seeded random games, ``min_ply`` to ``max_ply`` plies in,
    still going (no game history: each rebuilt from its FEN)."""
    from hinge_fast.games.positions import random_position

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = random_position(size, rng.randint(min_ply, max_ply), rng)
        if not board.is_game_over():
            out.append(Board.from_fen(board.fen()))
    return out


def shift_cells(size: int, words) -> frozenset:
    """The cells (c, r) of a set in the shift layout (bit c * W + r of its words)."""
    width = 2 * size - 1
    bits = sum(int(word) << (64 * i) for i, word in enumerate(words))
    return frozenset((b // width, b % width) for b in range(64 * len(words)) if bits >> b & 1)


# ----- --run-slow ---------------------------------------------------------------------------
def svg_text(svg: str) -> str:
    """The words a picture shows (every ``<text>`` element's, in order, joined by a
    space), so that a line broken to fit the picture reads as one."""
    import xml.etree.ElementTree as ET

    return " ".join(
        t.text or "" for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")
    )


def pty_read(fd) -> str:
    """What a pseudo-terminal's master ``fd`` has to read now ('' once every process
    holding the other end is gone)."""
    try:
        return os.read(fd, 4096).decode("utf-8", "replace")
    except OSError:  # EIO: the other end is closed
        return ""


def pty_read_to_end(master, said: str, outlived: str) -> str:
    """``said`` and all the pseudo-terminal ``master`` still gives, to its end: the end
    comes once every process holding the terminal is gone (at most 60 s between
    chunks; else the test fails with ``outlived``)."""
    import select

    while True:
        ready, _, _ = select.select([master], [], [], 60)
        assert ready, outlived
        chunk = pty_read(master)
        if not chunk:
            return said
        said += chunk


def pytest_addoption(parser):
    parser.addoption(
        "--run-slow",
        action="store_true",
        default=False,
        help="run the tests marked slow too (the default suite leaves them out)",
    )


@contextmanager
def memory_limit(extra: int = 256 << 20):
    """This process may grow by at most ``extra`` bytes of address space meanwhile."""
    with open("/proc/self/status") as f:
        vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (vm + extra, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


# ----- the command line ------------------------------------------------------------------------
@dataclass
class Run:
    """What one ``hinge-fast`` command did: its exit ``status``, ``out`` and ``err``."""

    status: int
    out: str
    err: str


#: The address the web tests call the app at (the app answers only to this machine's names).
LOCAL = "http://localhost"


@pytest.fixture
def client():
    """The web app (two searches at once) behind FastAPI's test client."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from hinge_fast.web import create_app

    with TestClient(create_app(max_searches=2), base_url=LOCAL) as c:
        yield c


def new_game(client, **body) -> dict:
    """The state of a new game of the web app (``body``: size, position, ...)."""
    response = client.post("/api/games", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def events(response):
    """(name, data) of each server-sent event of a streamed response."""
    import json

    name = None
    for line in response.iter_lines():
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            yield name, json.loads(line[6:])


@pytest.fixture
def cli(capsys):
    """``cli("moves", "--size", "4")`` runs ``hinge_fast.cli.main`` in-process and
    returns a :class:`Run`."""
    from hinge_fast.cli import main

    capsys.readouterr()

    def run(*argv) -> Run:
        status = main([str(a) for a in argv])
        captured = capsys.readouterr()
        return Run(status, captured.out, captured.err)

    return run


# ----- the two rule implementations --------------------------------------------------------------
class ReferenceImpl:
    """The slow oracle, read beside rules.md."""

    name = "reference"

    def moves(self, fen: str) -> set[str]:
        return {ref.move_name(m) for m in ref.legal_moves(ref.parse_position(fen))}

    def play(self, fen: str, move: str) -> str:
        pos = ref.parse_position(fen)
        matches = [m for m in ref.legal_moves(pos) if ref.move_name(m) == move]
        assert len(matches) == 1, f"{move} is not a legal move of {fen}"
        return ref.format_position(ref.play(pos, matches[0]))

    def outcome(self, fen: str):
        return ref.outcome(ref.parse_position(fen))

    def perft(self, fen: str, depth: int) -> int:
        return ref.perft(ref.parse_position(fen), depth)


class FastImpl:
    """The fast engine (Board and the numba kernels) behind the same adapter."""

    name = "fast"

    def moves(self, fen: str) -> set[str]:
        return {str(m) for m in Board.from_fen(fen).legal_moves}

    def play(self, fen: str, move: str) -> str:
        board = Board.from_fen(fen)
        board.push_str(move)
        return board.fen()

    def outcome(self, fen: str):
        outcome = Board.from_fen(fen).outcome()
        return None if outcome is None else (outcome.winner.letter, outcome.reason)

    def perft(self, fen: str, depth: int) -> int:
        from hinge_fast.core import kernels
        from hinge_fast.core.tables import workspace

        board = Board.from_fen(fen)
        own, enemy = board.own, board.enemy
        return int(kernels.perft_kernel(board.size, own, enemy, depth, False, workspace(depth + 1)))


IMPLS = [ReferenceImpl(), FastImpl()]


@pytest.fixture(params=IMPLS, ids=lambda i: i.name)
def impl(request):
    """Each rule implementation in turn: a test using it runs on both."""
    return request.param


def pytest_configure(config):
    """Before any test (in the controller, before xdist starts its workers): compile
    or load every kernel on every core (``hinge-fast warmup``), so that the workers
    load them from the cache instead of each compiling its own copies.

    pyproject's addopts deselect the slow tests with -m "not slow"; --run-slow lifts it."""
    if config.getoption("--run-slow"):
        config.option.markexpr = ""
    if hasattr(config, "workerinput") or config.option.collectonly:
        return
    from hinge_fast.measure.warmup import warm_up

    warm_up()


def pytest_collection_modifyitems(config, items):
    """The longest test first (the whole side-4 table, about two minutes of one worker):
    the other test workers share out the rest while it runs, instead of one worker
    finishing it alone at the end."""
    items.sort(key=lambda item: "side4_table" not in getattr(item, "fixturenames", ()))


# ----- the side-4 tablebase --------------------------------------------------------------------
@pytest.fixture(scope="session")
def local_ray():
    """A Ray on this machine, two CPUs, started once a test process (and shut down at
    its end) unless one is running already."""
    ray = pytest.importorskip("ray")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="error")
    yield ray
    if started:
        ray.shutdown()


#: Where the side-4 table is, under the folder ``XDG_DATA_HOME`` names.
SIDE4_UNDER_DATA = Path("hinge-fast", "side4.tb")


@dataclass(frozen=True)
class Side4Table:
    """The whole side-4 board solved: the table file at its default location under
    ``data`` (``data/hinge-fast/side4.tb`` when ``XDG_DATA_HOME`` is ``data``) and the
    numbers of the solve (:func:`side4_table`)."""

    data: Path
    facts: dict

    @property
    def path(self) -> Path:
        return self.data / SIDE4_UNDER_DATA


def _solve_side4(data: Path) -> dict:
    """Solve the whole side-4 board, write its table under ``data`` and return the
    solve's numbers (what the tests check of the result itself, not of the file)."""
    from hinge_fast.solving.tablebase import (
        count_inconsistent,
        first_move_values,
        solve,
        write_tablebase,
    )

    result = solve(progress=False)
    (data / SIDE4_UNDER_DATA).parent.mkdir(parents=True, exist_ok=True)
    write_tablebase(result, data / SIDE4_UNDER_DATA)
    return {
        "positions_by_side": list(result.positions_by_side),
        "positions": result.positions,
        "wins": result.wins,
        "losses": result.losses,
        "unsolved": result.unsolved,
        "start_code": int(result.values[result.start_index]),
        "inconsistent": count_inconsistent(result),
        "first_moves": [list(m) for m in first_move_values(result)],
    }


@pytest.fixture(scope="session")
def side4_table(tmp_path_factory, worker_id) -> Side4Table:
    """The whole side-4 board solved once for the whole run (about two minutes and 4 GB),
    however many test workers ask: the first to ask solves it under a file lock in the
    run's shared temporary folder, the others wait for it and read what it wrote."""
    if worker_id == "master":  # no xdist: this process is the whole run
        data = tmp_path_factory.mktemp("xdg-data")
        return Side4Table(data, _solve_side4(data))
    shared = tmp_path_factory.getbasetemp().parent / "side4-table"
    facts = shared / "facts.json"
    with FileLock(str(shared) + ".lock"):
        if not facts.is_file():
            facts.write_text(json.dumps(_solve_side4(shared)))
    return Side4Table(shared, json.loads(facts.read_text()))


def group_touches(stones, w):
    """The cells next to one, two, three groups of ``stones``, exact on every cell off
    the stones (``group_touches_at`` asked for all of them)."""
    return group_touches_at(stones, s_andnot(s_all(stones), stones), w)


def lift_stuck(size, own, w):
    """The tokens whose lift splits their group (rule 4.1): ``lift_stuck_among`` asked
    for every token whose friendly neighbours form two runs or more (the others never
    split it)."""
    return lift_stuck_among(size, own, s_and(own, run_counter(own, w)[1]), w)
