"""Self-play statistics: how Hinge games go (the library behind ``hinge-fast stats``).

    >>> from hinge_fast.games.stats import self_play
    >>> s = self_play(size=4, games=10, seed=1)
    >>> s["green_wins"] + s["blue_wins"] + s["unfinished"]
    10

The numbers a rules designer asks for: how often the first player wins (with a Wilson
95% interval), how long games last, how they end (elimination, no legal move, the ply
cap), how many legal moves a player has by ply, and which kinds of move are played.

Kinds of move (rules.md section 4), decided from the geometry of the move and the
position before it; a swipe (from, to, group) may have several paths, and the kind
does not depend on which one is taken:

* ``placement``;
* ``one_step``: ``to`` is next to ``from`` (only a one-step path can do that);
* ``onward``: ``to`` is two cells from ``from`` (two steps in one direction);
* ``reversing``: ``to == from`` (out and back);
* ``over_friendly`` (counted among the two-step swipes): some path's intermediate cell
  holds a friendly token. For an onward swipe the two cells next to both ``from`` and
  ``to`` are the pivot and the intermediate, either way round, so this is "both hold
  friendly tokens"; for a reversing swipe it is "``from`` has two friendly neighbours
  next to each other";
* ``reversing_via_edge``: a reversing swipe with a legal path whose step 1 lands on
  an edge cell (the designer's "swipe off the edge of the board").

Every count reads the position before the move. ``random`` games run the move
generator kernels directly (a Python loop, no Board); other players go through Board.

On several workers (``--concurrency``, ``--ray``) the games go in chunks:
``RANDOM_STATS_CHUNK`` random self-play games per chunk (the first chunk seeded with the
seed itself, as in one process, the others with seeds drawn from (seed, chunk)),
``PLAYER_STATS_CHUNK`` engine games (game g seeded seed + g); the tallies are added in
chunk order. The chunks do not depend on the number of workers, so neither does the
answer.
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Iterator

import numpy as np

from ..board import (
    CELL_BITS,
    CELL_MASK,
    Board,
    Color,
    Termination,
    bitboard_cells,
    flips_as_bitboards,
    group_cells,
    play_bitboards,
)
from ..core.fen import format_fen
from ..core.geometry import geometry
from ..core.tables import NO_CELL, workspace
from ..errors import HingeError
from .game import play_game
from .players import Player, get_player
from .positions import random_opening

DEFAULT_GAMES = 100
#: Random plies opening each self-play game of a search engine: without them a
#: deterministic engine under a node limit plays one game over and over.
DEFAULT_ENGINE_OPENINGS = 2
DEFAULT_MAX_PLIES = 1000
BUCKET_PLIES = 10
MAX_STUCK_SHOWN = 10
MOVE_KINDS = ("placement", "one_step", "onward", "reversing")
SWIPE_DETAILS = (
    "over_friendly",
    "onward_over_friendly",
    "reversing_over_friendly",
    "reversing_via_edge",
)


# ----- move kinds ----------------------------------------------------------------------------
class MoveKinds:
    """Classifies the moves of one board side (cell indices; module docstring)."""

    def __init__(self, size):
        geo = geometry(size)
        self.geo = geo
        self.neighbours = [
            set(int(j) for j in geo.neighbours[i] if j >= 0) for i in range(geo.n_cells)
        ]
        self.n_interior = geo.n_interior

    def classify(self, frm, to, is_swipe, has, group_of):
        """(kind, details) for a move: ``has(cell)`` tells whether the mover has a
        token on ``cell``, ``group_of(cell)`` is the set of cells of the mover's group
        holding ``cell``."""
        if not is_swipe:
            return "placement", ()
        if frm == to:
            details = []
            friendly = [p for p in self.neighbours[frm] if has(p)]
            if any(
                q in self.neighbours[p] and has(q) for p in friendly for q in friendly if q != p
            ):
                details += ["over_friendly", "reversing_over_friendly"]
            # step 1 around a friendly pivot p lands on a cell next to both x and p; from
            # an edge cell, step 2 is forbidden when that cell touches another friendly
            # group (rule 4.4: the merged group would split)
            group = group_of(frm)
            for p in friendly:
                if any(
                    q >= self.n_interior
                    and not any(has(t) and t not in group for t in self.neighbours[q])
                    for q in self.neighbours[p] & self.neighbours[frm]
                ):
                    details.append("reversing_via_edge")
                    break
            return "reversing", tuple(details)
        if to in self.neighbours[frm]:
            return "one_step", ()
        common = self.neighbours[frm] & self.neighbours[to]
        if len(common) == 2 and all(has(c) for c in common):
            return "onward", ("over_friendly", "onward_over_friendly")
        return "onward", ()


# ----- playing -----------------------------------------------------------------------------
class Tally:
    def __init__(self, max_plies):
        self.lengths = []
        self.winners = []  # 'green', 'blue' or None
        # the endings of self-play (no clock, no external engine to forfeit)
        self.endings = dict.fromkeys(
            (Termination.ELIMINATION, Termination.NO_LEGAL_MOVE, Termination.MAX_PLIES), 0
        )
        self.branch_sum = []  # by ply index
        self.branch_count = []
        self.kinds = dict.fromkeys(MOVE_KINDS, 0)
        self.details = dict.fromkeys(SWIPE_DETAILS, 0)
        self.stuck = []  # (game, ply, position string) of no-legal-move endings
        self.max_plies = max_plies
        self.games_seen = []  # a key of each game's moves (games played through the game loop only)

    def legal(self, ply, n):
        while ply >= len(self.branch_sum):  # (plies of a random opening are not counted)
            self.branch_sum.append(0)
            self.branch_count.append(0)
        self.branch_sum[ply] += n
        self.branch_count[ply] += 1

    def move(self, kind, details):
        self.kinds[kind] += 1
        for d in details:
            self.details[d] += 1


def play_random(size, games, max_plies, seed, tally, on_game=None):
    """Uniformly random self-play straight on the move generator kernels. Going
    through Board and the game loop would give the same statistics about a hundred
    times slower (Board builds and sorts every legal Move in every position), and
    ``stats`` is run for tens of thousands of games."""
    from ..core import kernels  # numba: loaded when random games are played

    rng = random.Random(seed)
    kinds = MoveKinds(size)
    work = workspace(1)
    moves, flips = work.moves[0], work.flips[0]
    empty = tuple(np.uint64(0) for _ in range(4))
    for game in range(games):
        own, enemy = empty, empty
        ply = 0
        winner = None
        while True:
            if ply >= max_plies:
                tally.endings[Termination.MAX_PLIES] += 1
                break
            n = kernels.legal_moves(size, own, enemy, moves, flips, work.scratch, work.group_of_bit)
            mover = Color.GREEN if ply % 2 == 0 else Color.BLUE
            if n == 0:
                winner = mover.other
                if not any(int(w) for w in own) and sum(int(w).bit_count() for w in enemy) >= 2:
                    tally.endings[Termination.ELIMINATION] += 1
                else:
                    tally.endings[Termination.NO_LEGAL_MOVE] += 1
                    green, blue = (own, enemy) if mover == Color.GREEN else (enemy, own)
                    tally.stuck.append(
                        (
                            game + 1,
                            ply,
                            format_fen(size, bitboard_cells(green), bitboard_cells(blue), mover),
                        )
                    )
                break
            tally.legal(ply, int(n))
            i = rng.randrange(n)
            code = int(moves[i])
            frm, to, target = (
                code & CELL_MASK,
                (code >> CELL_BITS) & CELL_MASK,
                (code >> 2 * CELL_BITS) & CELL_MASK,
            )
            mine = set(bitboard_cells(own))
            tally.move(
                *kinds.classify(
                    frm,
                    to,
                    target != NO_CELL,
                    mine.__contains__,
                    lambda cell: group_cells(size, own, cell),  # noqa: B023 (called at once)
                )
            )
            own, enemy = play_bitboards(
                own, enemy, code, flips_as_bitboards(size, moves[i : i + 1], flips[i : i + 1])[0]
            )
            ply += 1
        tally.lengths.append(ply)
        tally.winners.append(None if winner is None else str(winner))
        if on_game is not None:
            on_game()


class _Observed(Player):
    """A player whose every decision is counted: the legal moves it had and the kind
    of move it chose, read in the position before the move."""

    def __init__(self, player, tally, kinds):
        self.player, self.tally, self.kinds = player, tally, kinds
        self.name = player.name

    def choose(self, board):
        geo = self.kinds.geo
        self.tally.legal(len(board.move_stack), len(board.legal_codes))
        move = self.player.choose(board)
        groups = [{geo.parse_cell(c) for c in group} for group in board.groups(board.turn)]
        own = set().union(*groups)
        frm = geo.parse_cell(move.frm) if move.frm else None
        group_of = lambda cell: next(g for g in groups if cell in g)  # noqa: E731
        self.tally.move(
            *self.kinds.classify(
                frm, geo.parse_cell(move.to), move.is_swipe, own.__contains__, group_of
            )
        )
        return move


def play_board(size, games, max_plies, player, tally, seed=None, on_game=None, openings=0):
    """Self-play of any Player through the game loop (engines: slow, use --nodes).
    Game g reseeds the player with ``seed + g`` and opens with ``openings`` uniformly
    random plies drawn from the same seed, so that seeded games differ: a deterministic
    engine under a node limit plays the same game from the same position every time.
    The opening plies count in the game's length, not in the tallies of moves (they
    are not the player's)."""

    observed = _Observed(player, tally, MoveKinds(size))
    for game in range(games):
        player.reset(None if seed is None else seed + game)
        start = Board(size)
        if openings:
            rng = random.Random(None if seed is None else f"stats opening {seed + game}")
            for move in random_opening(size, openings, rng):
                start.push(move)
        played = play_game(observed, observed, start, max_plies=max_plies)
        plies = len(played.board.move_stack)
        tally.endings[played.termination] += 1
        if played.termination == Termination.NO_LEGAL_MOVE:
            tally.stuck.append((game + 1, plies, played.board.fen()))
        moves = " ".join(str(m) for m in played.board.move_stack)
        tally.games_seen.append(hashlib.blake2b(moves.encode(), digest_size=8).hexdigest())
        tally.lengths.append(plies)
        tally.winners.append(None if played.winner is None else str(played.winner))
        if on_game is not None:
            on_game()


# ----- summaries ---------------------------------------------------------------------------------
def wilson_interval(wins: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default; scipy's
    ``binomtest(...).proportion_ci(method="wilson")``); (0, 1) when n == 0.

    >>> [round(x, 3) for x in wilson_interval(50, 100)]
    [0.404, 0.596]
    """
    if n == 0:
        return 0.0, 1.0
    from scipy.stats import binomtest  # a large import: only when a summary is made

    ci = binomtest(wins, n).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def _percentile(values, q):
    """Linear-interpolation percentile (numpy's default)."""
    return float(np.percentile(values, 100 * q)) if len(values) else None


def summarize(tally: Tally, size, player, games, seed, seconds, openings: int = 0) -> dict:
    """The statistics of a tally as a dict (the JSON schema of docs/usage.md)."""
    lengths = sorted(tally.lengths)
    green = sum(1 for w in tally.winners if w == "green")
    blue = sum(1 for w in tally.winners if w == "blue")
    decided = green + blue
    low, high = wilson_interval(green, decided)
    buckets = []
    for start in range(0, len(tally.branch_sum), BUCKET_PLIES):
        s = sum(tally.branch_sum[start : start + BUCKET_PLIES])
        c = sum(tally.branch_count[start : start + BUCKET_PLIES])
        if c:  # (a bucket of opening plies only counts nothing)
            buckets.append(
                {
                    "plies": [start + 1, min(start + BUCKET_PLIES, len(tally.branch_sum))],
                    "positions": c,
                    "mean_legal_moves": round(s / c, 2),
                }
            )
    swipes = tally.kinds["one_step"] + tally.kinds["onward"] + tally.kinds["reversing"]
    total_moves = swipes + tally.kinds["placement"]
    all_sum, all_count = sum(tally.branch_sum), sum(tally.branch_count)
    return {
        "size": size,
        "player": player,
        "games": games,
        "seed": seed,
        "max_plies": tally.max_plies,
        "seconds": round(seconds, 3),
        "green_wins": green,
        "blue_wins": blue,
        "unfinished": games - decided,
        "green_win_rate": None if decided == 0 else round(green / decided, 4),
        "green_win_rate_95": [round(low, 4), round(high, 4)],
        "length": {
            "mean": round(sum(lengths) / len(lengths), 2),
            "median": _percentile(lengths, 0.5),
            "p10": _percentile(lengths, 0.1),
            "p90": _percentile(lengths, 0.9),
            "min": lengths[0],
            "max": lengths[-1],
        },
        "lengths": tally.lengths,
        "endings": {str(t): n for t, n in tally.endings.items()},
        "no_legal_move": tally.endings[Termination.NO_LEGAL_MOVE],
        "no_legal_move_positions": [
            {"game": g, "ply": p, "position": fen} for g, p, fen in tally.stuck[:MAX_STUCK_SHOWN]
        ],
        "mean_legal_moves": None if all_count == 0 else round(all_sum / all_count, 2),
        "legal_moves_by_ply": [
            round(s / c, 2) if c else None for s, c in zip(tally.branch_sum, tally.branch_count)
        ],
        "positions_by_ply": list(tally.branch_count),
        "legal_moves_by_bucket": buckets,
        "moves": total_moves,
        "move_kinds": dict(tally.kinds),
        "swipe_details": dict(tally.details),
        "openings": openings,
        "distinct_games": len(set(tally.games_seen)) if tally.games_seen else None,
    }


def _share(n, total):
    if not total:
        return str(n)
    percent = 100 * n / total
    return (
        f"{n:,} ({percent:.2f}%)"
        if 0 < percent < 1 or 99 < percent < 100
        else f"{n:,} ({percent:.1f}%)"
    )


def format_text(s: dict) -> str:
    """The summary of :func:`summarize` for a person, several lines."""
    from hinge_fast.core.text import count

    lines = [
        f"{count(s['games'], 'game')} of {s['player']} self-play on the side-{s['size']} board ({s['seconds']:.1f} s, seed {s['seed']})"
    ]
    decided = s["green_wins"] + s["blue_wins"]
    if decided:
        low, high = s["green_win_rate_95"]
        lines.append(
            f"first player (green) wins: {s['green_wins']:,} of {count(decided, 'finished game')} = "
            f"{100 * s['green_win_rate']:.1f}% (95% interval {100 * low:.1f}% to {100 * high:.1f}%)"
        )
    else:
        lines.append("first player (green) wins: no game finished")
    n = s["games"]
    distinct = s.get("distinct_games")
    if distinct is not None:
        opened = f" (each opened by {s['openings']} random plies)" if s.get("openings") else ""
        if distinct < n:
            lines.append(
                f"distinct games: {distinct:,} of {n:,}{opened}: {n - distinct:,} repeat an earlier game, so the interval, "
                f"which counts every game as independent, is too narrow; give --openings more plies"
            )
        else:
            lines.append(f"distinct games: {distinct:,} of {n:,}{opened}")
    stuck = s["no_legal_move"]
    lines.append(
        f"NO LEGAL MOVE: {stuck:,} of {count(n, 'game')} ended with a player unable to move"
        + (" (the side to move lost)" if stuck else " (the rules' claim held in every game)")
    )
    for item in s["no_legal_move_positions"]:
        lines.append(f"  game {item['game']}, ply {item['ply']}: {item['position']}")
    e = s["endings"]
    lines.append(
        f"endings: elimination {_share(e['elimination'], n)}, no legal move {_share(e['no legal move'], n)}, "
        f"ply cap {s['max_plies']:,} {_share(e['max plies'], n)}"
    )
    length = s["length"]
    lines.append(
        f"game length in plies: mean {length['mean']:.1f}, median {length['median']:g}, p10 {length['p10']:g}, "
        f"p90 {length['p90']:g}, min {length['min']}, max {length['max']}"
    )
    lines.append(f"legal moves (branching factor): mean {s['mean_legal_moves']} over all positions")
    lines.append("  plies      positions  mean legal moves")
    for b in s["legal_moves_by_bucket"]:
        lines.append(
            f"  {b['plies'][0]:>4}-{b['plies'][1]:<4}  {b['positions']:>9,}  {b['mean_legal_moves']:>16.1f}"
        )
    k, d, total = s["move_kinds"], s["swipe_details"], s["moves"]
    swipes = total - k["placement"]
    lines.append(
        f"moves played: {total:,}: placements {_share(k['placement'], total)}, swipes {_share(swipes, total)}"
    )
    lines.append(
        f"  swipes: one-step {_share(k['one_step'], swipes)}, onward two-step {_share(k['onward'], swipes)}, "
        f"reversing two-step {_share(k['reversing'], swipes)}"
    )
    lines.append(
        f"  passing over a friendly token: {_share(d['over_friendly'], swipes)} of swipes "
        f"(onward {d['onward_over_friendly']:,}, reversing {d['reversing_over_friendly']:,}); "
        f"reversing off the edge: {d['reversing_via_edge']:,}"
    )
    return "\n".join(lines)


def write_plot(path, s: dict) -> None:
    """A PNG at ``path``: game length histogram and mean legal moves by ply."""
    from ..analysis.figures import pyplot, save_figure  # not at the CLI's start-up

    plt = pyplot("--plot")
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    lengths = s["lengths"]
    # whole-ply bins (several plies each for long ranges) so that no bar holds more lengths than another
    width = max(1, math.ceil((max(lengths) - min(lengths) + 1) / 60))
    edges = [x - 0.5 for x in range(min(lengths), max(lengths) + width + 1, width)]
    left.hist(lengths, bins=edges, color="#1f9a3a", edgecolor="white")
    left.set_title(f"game length ({s['games']} games, {s['player']}, side {s['size']})")
    left.set_xlabel("plies")
    left.set_ylabel("games")
    # plies reached by few games only make a noisy tail: leave them out
    enough = max(5, s["games"] // 100)
    shown = [
        (ply, mean)
        for ply, (mean, n) in enumerate(
            zip(s["legal_moves_by_ply"], s["positions_by_ply"]), start=1
        )
        if n >= enough
    ]
    right.plot([p for p, _ in shown], [m for _, m in shown], color="#2358d6")
    right.set_title(f"mean legal moves by ply (plies reached by {enough}+ games)")
    right.set_xlabel("ply")
    right.set_ylabel("legal moves")
    fig.tight_layout()
    save_figure(fig, path)


def self_play(
    size: int = 6,
    games: int = DEFAULT_GAMES,
    player: str = "random",
    *,
    time_limit=None,
    nodes=None,
    seed=None,
    max_plies: int = DEFAULT_MAX_PLIES,
    executor=None,
    progress=None,
    openings: int | None = None,
) -> dict:
    """Play ``games`` self-play games of ``player`` (a spec of
    ``hinge_fast.games.players.get_player``; ``time_limit``/``nodes`` limit a search
    player's moves) on side ``size`` and return :func:`summarize`'s dict.

    ``openings``: uniformly random plies (seeded) opening each game of a player other
    than ``random`` (default :data:`DEFAULT_ENGINE_OPENINGS` for a search engine, 0 for
    ``greedy``, whose ties are drawn at random anyway); the summary's
    ``distinct_games`` says how many games differ.

    The games are played in chunks (``stats_jobs``) on
    ``executor`` (default: one after the other here), and added up in order: with a
    seed (and node limits for engines) the result is the same on any executor.
    ``progress(games_done, games)`` is called as games finish (in worker processes
    or on Ray: as chunks of games finish)."""

    started = time.perf_counter()
    kind = player.strip().lower()
    if kind != "random":
        made = get_player(
            player, time=time_limit, nodes=nodes, seed=seed, size=size
        )  # a bad spec fails here, once
        made.close()
        if openings is None:
            openings = 0 if kind == "greedy" else DEFAULT_ENGINE_OPENINGS
    openings = 0 if kind == "random" or openings is None else openings
    if isinstance(openings, bool) or not isinstance(openings, int) or not 0 <= openings < max_plies:
        raise HingeError(
            f"openings must be a whole number from 0 to max plies - 1 ({max_plies - 1}), not {openings!r}"
        )
    from ..jobs.executor import Executor, in_order  # processes: not at the CLI's start-up

    tally = Tally(max_plies)
    jobs = stats_jobs(size, games, player, time_limit, nodes, seed, max_plies, openings)
    mine = executor is None
    executor = Executor() if mine else executor
    done = 0
    try:
        if executor.kind == "serial":  # here: a step a game

            def finished_game():
                count[0] += 1
                if progress is not None:
                    progress(count[0], games)

            count = [0]
            parts: Iterator[tuple[int, Tally]] = (
                (i, stats_job(job, finished_game)) for i, job in enumerate(jobs)
            )
        else:
            parts = in_order(executor.run(stats_job, jobs))
        for _, part in parts:
            merge_tally(tally, part)
            done += len(part.lengths)
            if progress is not None:
                progress(done, games)
    finally:
        if mine:
            executor.close()
    return summarize(tally, size, player, games, seed, time.perf_counter() - started, openings)


# ----- self-play statistics ---------------------------------------------------------------------------
#: Games per stats job: random self-play (one random stream per chunk, the first
#: seeded with the seed itself, so up to this many games are the games one process
#: plays), and engine self-play (game g is seeded seed + g anyway).
RANDOM_STATS_CHUNK = 10_000
PLAYER_STATS_CHUNK = 10


def stats_chunk_seed(seed, chunk: int):
    """The random seed of random self-play's chunk ``chunk``: the seed itself for the
    first (so that small runs are unchanged), then one drawn from (seed, chunk)."""
    if seed is None or chunk == 0:
        return seed
    return random.Random(f"hinge-fast stats {seed} {chunk}").getrandbits(63)


def stats_jobs(size, games, player, time_limit, nodes, seed, max_plies, openings=0) -> list:
    """The jobs of a stats run: ``(size, player, time, nodes, max plies, seed, first
    game, games, the chunk's random seed, random opening plies)``."""
    random_play = player.strip().lower() == "random"
    step = RANDOM_STATS_CHUNK if random_play else PLAYER_STATS_CHUNK
    return [
        (
            size,
            player,
            time_limit,
            nodes,
            max_plies,
            seed,
            lo,
            min(step, games - lo),
            stats_chunk_seed(seed, lo // step) if random_play else None,
            openings,
        )
        for lo in range(0, games, step)
    ]


def stats_job(job, on_game=None):
    """One chunk of self-play games -> its tally ;
    ``on_game()`` is called as each game ends (in this process only)."""
    size, player, time_limit, nodes, max_plies, seed, first, games, chunk_seed, openings = job
    tally = Tally(max_plies)
    if player.strip().lower() == "random":
        play_random(size, games, max_plies, chunk_seed, tally, on_game)
    else:
        chosen = get_player(player, time=time_limit, nodes=nodes, seed=seed, size=size)
        try:
            play_board(
                size,
                games,
                max_plies,
                chosen,
                tally,
                None if seed is None else seed + first,
                on_game,
                openings,
            )
        finally:
            chosen.close()
    tally.stuck = [(game + first, ply, fen) for game, ply, fen in tally.stuck]
    return tally


def merge_tally(total, part) -> None:
    """Add the tally of a later chunk of games to ``total``."""
    total.lengths += part.lengths
    total.winners += part.winners
    for key, n in part.endings.items():
        total.endings[key] = total.endings.get(key, 0) + n
    for ply, (s, c) in enumerate(zip(part.branch_sum, part.branch_count)):
        if ply >= len(total.branch_sum):
            total.branch_sum.append(0)
            total.branch_count.append(0)
        total.branch_sum[ply] += s
        total.branch_count[ply] += c
    for key, n in part.kinds.items():
        total.kinds[key] += n
    for key, n in part.details.items():
        total.details[key] += n
    total.stuck += part.stuck
    total.games_seen += part.games_seen
