"""``stats``: play many self-play games and report how Hinge games go.

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
"""

from __future__ import annotations

import math

from . import positive_int, seconds

DEFAULT_GAMES = 100
DEFAULT_MAX_PLIES = 1000
BUCKET_PLIES = 10
MAX_STUCK_SHOWN = 10
MOVE_KINDS = ("placement", "one_step", "onward", "reversing")
SWIPE_DETAILS = ("over_friendly", "onward_over_friendly", "reversing_over_friendly", "reversing_via_edge")



def register(subparsers):
    p = subparsers.add_parser(
        "stats",
        help="self-play statistics: first-player win rate, game length, endings, branching, move kinds",
        description="Play N self-play games of one player and report: Green's (first player's) win rate with a "
        "95%% Wilson interval, game length (mean, median, p10/p90, min/max), how games ended (elimination, "
        "NO LEGAL MOVE, ply cap), the mean number of legal moves by ply, and how often each kind of move is "
        "played (placements; one-step, onward and reversing swipes; swipes passing over a friendly token). "
        "A player without a legal move loses (rules.md section 6): this command is how to check how often "
        "that happens.",
        epilog="Example: hinge-fast stats --size 6 --games 1000 --seed 1 --plot stats.png",
    )
    p.add_argument("--size", type=positive_int("S", 4, 9), default=6, metavar="S", help="board side (4 to 9, default 6)")
    p.add_argument("--games", type=positive_int("N", 1, 10**7), default=DEFAULT_GAMES, metavar="N", help=f"games to play (default {DEFAULT_GAMES})")
    p.add_argument("--player", default="random", metavar="PLAYER", help="random (default), greedy, alphabeta or mcts: plays both sides")
    p.add_argument("--time", type=seconds("time", 3600.0), default=None, metavar="S", help="search seconds per move (alphabeta, mcts)")
    p.add_argument("--nodes", type=positive_int("NODES", 1, 10**12), default=None, help="search nodes per move (alphabeta, mcts)")
    p.add_argument("--seed", type=int, default=None, help="random seed: same seed, same games")
    p.add_argument("--max-plies", type=positive_int("M", 1, 10**6), default=DEFAULT_MAX_PLIES, metavar="M", help=f"stop a game after M plies as unfinished (default {DEFAULT_MAX_PLIES})")
    p.add_argument("--json", action="store_true", help="print one JSON object (schema in docs/usage.md)")
    p.add_argument("--plot", metavar="FILE", default=None, help="write a PNG: game length histogram and legal moves by ply (needs matplotlib)")
    p.set_defaults(run=run_stats)


# ----- move kinds ----------------------------------------------------------------------------
class _Kinds:
    """Geometry of one board side for classifying moves (cell indices)."""

    def __init__(self, size):
        from ..core.geometry import geometry

        geo = geometry(size)
        self.geo = geo
        self.neighbours = [set(int(j) for j in geo.neighbours[i] if j >= 0) for i in range(geo.n_cells)]
        self.n_interior = geo.n_interior

    def group(self, cell, own_bits) -> set:
        """The cells of the group of ``cell`` among the tokens ``own_bits``."""
        group, todo = {cell}, [cell]
        while todo:
            for n in self.neighbours[todo.pop()]:
                if n not in group and own_bits >> n & 1:
                    group.add(n)
                    todo.append(n)
        return group

    def classify(self, frm, to, is_swipe, own_bits):
        """(kind, details) for a move, ``own_bits``: the mover's tokens as one int."""
        if not is_swipe:
            return "placement", ()
        has = lambda cell: own_bits >> cell & 1  # noqa: E731
        if frm == to:
            details = []
            friendly = [p for p in self.neighbours[frm] if has(p)]
            if any(q in self.neighbours[p] and has(q) for p in friendly for q in friendly if q != p):
                details += ["over_friendly", "reversing_over_friendly"]
            # step 1 around a friendly pivot p lands on a cell next to both x and p; from
            # an edge cell, step 2 is forbidden when that cell touches another friendly
            # group (rule 4.4: the merged group would split)
            group = self.group(frm, own_bits)
            for p in friendly:
                if any(
                    q >= self.n_interior and not any(has(t) and t not in group for t in self.neighbours[q])
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


def _bits(bitboard) -> int:
    return sum(int(w) << (64 * k) for k, w in enumerate(bitboard))


# ----- playing -----------------------------------------------------------------------------
class _Tally:
    def __init__(self, max_plies):
        self.lengths = []
        self.winners = []  # 'green', 'blue' or None
        self.endings = {"elimination": 0, "no legal move": 0, "max plies": 0}
        self.branch_sum = []  # by ply index
        self.branch_count = []
        self.kinds = dict.fromkeys(MOVE_KINDS, 0)
        self.details = dict.fromkeys(SWIPE_DETAILS, 0)
        self.stuck = []  # (game, ply, position string) of no-legal-move endings
        self.max_plies = max_plies

    def legal(self, ply, n):
        if ply >= len(self.branch_sum):
            self.branch_sum.append(0)
            self.branch_count.append(0)
        self.branch_sum[ply] += n
        self.branch_count[ply] += 1

    def move(self, kind, details):
        self.kinds[kind] += 1
        for d in details:
            self.details[d] += 1


def _play_random(size, games, max_plies, seed, tally):
    """Uniformly random self-play on the kernels (no Board)."""
    import random

    import numpy as np

    from ..core import kernels
    from ..board import as_bitboard, bitboard_cells
    from ..core.fen import format_fen
    from ..core.tables import workspace

    rng = random.Random(seed)
    kinds = _Kinds(size)
    work = workspace(1)
    moves, flips = work.moves[0], work.flips[0]
    empty = tuple(np.uint64(0) for _ in range(4))
    for game in range(games):
        own, enemy = empty, empty
        ply = 0
        winner = None
        while True:
            if ply >= max_plies:
                tally.endings["max plies"] += 1
                break
            n = kernels.generate_moves(size, own, enemy, moves, flips, work.enemy_groups, work.group_id, True)
            mover = "green" if ply % 2 == 0 else "blue"
            if n == 0:
                winner = "blue" if mover == "green" else "green"
                if kernels.is_eliminated(own, enemy):
                    tally.endings["elimination"] += 1
                else:
                    tally.endings["no legal move"] += 1
                    green, blue = (own, enemy) if mover == "green" else (enemy, own)
                    tally.stuck.append((game + 1, ply, format_fen(size, bitboard_cells(green), bitboard_cells(blue), 0 if mover == "green" else 1)))
                break
            tally.legal(ply, int(n))
            i = rng.randrange(n)
            code = int(moves[i])
            frm, to, target = code & 511, (code >> 9) & 511, (code >> 18) & 511
            tally.move(*kinds.classify(frm, to, target != 511, _bits(own)))
            own, enemy = kernels.play_with_flip(own, enemy, moves[i], tuple(flips[i]))
            own, enemy = as_bitboard(own), as_bitboard(enemy)
            ply += 1
        tally.lengths.append(ply)
        tally.winners.append(winner)


def _play_board(size, games, max_plies, player, tally, seed=None):
    """Self-play of any Player through Board (engines: slow, use --nodes). Game g
    reseeds the player with ``seed + g`` so that seeded games differ (a deterministic
    engine under a node limit still plays the same game every time)."""
    from ..board import Board

    kinds = _Kinds(size)
    geo = kinds.geo
    for game in range(games):
        player.reset(None if seed is None else seed + game)
        board = Board(size)
        winner = None
        while True:
            ply = len(board.move_stack)
            if ply >= max_plies:
                tally.endings["max plies"] += 1
                break
            outcome = board.outcome()
            if outcome is not None:
                winner = str(outcome.winner)
                tally.endings[outcome.reason] += 1
                if outcome.reason == "no legal move":
                    tally.stuck.append((game + 1, ply, board.fen()))
                break
            tally.legal(ply, len(board.legal_codes))
            move = player.choose(board)
            own = board.own
            frm = geo.parse_cell(move.frm) if move.frm else None
            tally.move(*kinds.classify(frm, geo.parse_cell(move.to), move.is_swipe, _bits(own)))
            board.push(move)
        tally.lengths.append(ply)
        tally.winners.append(winner)


# ----- summaries ---------------------------------------------------------------------------------
def wilson_interval(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default); (0, 1) when n == 0.

    >>> [round(x, 3) for x in wilson_interval(50, 100)]
    [0.404, 0.596]
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _percentile(sorted_values, q):
    """Linear-interpolation percentile (numpy's default), without numpy."""
    if not sorted_values:
        return None
    k = (len(sorted_values) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (k - lo)


def summarize(tally: _Tally, size, player, games, seed, seconds) -> dict:
    lengths = sorted(tally.lengths)
    green = sum(1 for w in tally.winners if w == "green")
    blue = sum(1 for w in tally.winners if w == "blue")
    decided = green + blue
    low, high = wilson_interval(green, decided)
    buckets = []
    for start in range(0, len(tally.branch_sum), BUCKET_PLIES):
        s = sum(tally.branch_sum[start : start + BUCKET_PLIES])
        c = sum(tally.branch_count[start : start + BUCKET_PLIES])
        buckets.append({"plies": [start + 1, min(start + BUCKET_PLIES, len(tally.branch_sum))], "positions": c, "mean_legal_moves": round(s / c, 2)})
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
        "endings": dict(tally.endings),
        "no_legal_move": tally.endings["no legal move"],
        "no_legal_move_positions": [{"game": g, "ply": p, "position": fen} for g, p, fen in tally.stuck[:MAX_STUCK_SHOWN]],
        "mean_legal_moves": None if all_count == 0 else round(all_sum / all_count, 2),
        "legal_moves_by_ply": [round(s / c, 2) for s, c in zip(tally.branch_sum, tally.branch_count)],
        "positions_by_ply": list(tally.branch_count),
        "legal_moves_by_bucket": buckets,
        "moves": total_moves,
        "move_kinds": dict(tally.kinds),
        "swipe_details": dict(tally.details),
    }


def _share(n, total):
    if not total:
        return str(n)
    percent = 100 * n / total
    return f"{n} ({percent:.2f}%)" if 0 < percent < 1 or 99 < percent < 100 else f"{n} ({percent:.1f}%)"


def format_text(s: dict) -> str:
    lines = [f"{s['games']} games of {s['player']} self-play on the side-{s['size']} board ({s['seconds']:.1f} s, seed {s['seed']})"]
    decided = s["green_wins"] + s["blue_wins"]
    if decided:
        low, high = s["green_win_rate_95"]
        lines.append(
            f"first player (green) wins: {s['green_wins']} of {decided} finished games = "
            f"{100 * s['green_win_rate']:.1f}% (95% interval {100 * low:.1f}% to {100 * high:.1f}%)"
        )
    else:
        lines.append("first player (green) wins: no game finished")
    n = s["games"]
    stuck = s["no_legal_move"]
    lines.append(
        f"NO LEGAL MOVE: {stuck} of {n} games ended with a player unable to move"
        + (" (the side to move lost)" if stuck else " (the rules' claim held in every game)")
    )
    for item in s["no_legal_move_positions"]:
        lines.append(f"  game {item['game']}, ply {item['ply']}: {item['position']}")
    e = s["endings"]
    lines.append(
        f"endings: elimination {_share(e['elimination'], n)}, no legal move {_share(e['no legal move'], n)}, "
        f"ply cap {s['max_plies']} {_share(e['max plies'], n)}"
    )
    length = s["length"]
    lines.append(
        f"game length in plies: mean {length['mean']:.1f}, median {length['median']:g}, p10 {length['p10']:g}, "
        f"p90 {length['p90']:g}, min {length['min']}, max {length['max']}"
    )
    lines.append(f"legal moves (branching factor): mean {s['mean_legal_moves']} over all positions")
    lines.append("  plies      positions  mean legal moves")
    for b in s["legal_moves_by_bucket"]:
        lines.append(f"  {b['plies'][0]:>4}-{b['plies'][1]:<4}  {b['positions']:>9}  {b['mean_legal_moves']:>16.1f}")
    k, d, total = s["move_kinds"], s["swipe_details"], s["moves"]
    swipes = total - k["placement"]
    lines.append(f"moves played: {total}: placements {_share(k['placement'], total)}, swipes {_share(swipes, total)}")
    lines.append(
        f"  swipes: one-step {_share(k['one_step'], swipes)}, onward two-step {_share(k['onward'], swipes)}, "
        f"reversing two-step {_share(k['reversing'], swipes)}"
    )
    lines.append(
        f"  passing over a friendly token: {_share(d['over_friendly'], swipes)} of swipes "
        f"(onward {d['onward_over_friendly']}, reversing {d['reversing_over_friendly']}); "
        f"reversing off the edge: {d['reversing_via_edge']}"
    )
    return "\n".join(lines)


def write_plot(path, s: dict) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        from ..errors import HingeError

        raise HingeError("--plot needs matplotlib: pip install 'hinge-fast[plot]'") from None
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
    shown = [(ply, mean) for ply, (mean, n) in enumerate(zip(s["legal_moves_by_ply"], s["positions_by_ply"]), start=1) if n >= enough]
    right.plot([p for p, _ in shown], [m for _, m in shown], color="#2358d6")
    right.set_title(f"mean legal moves by ply (plies reached by {enough}+ games)")
    right.set_xlabel("ply")
    right.set_ylabel("legal moves")
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=100)
    except OSError as e:
        from ..errors import HingeError

        raise HingeError(f"cannot write {path}: {e.strerror or e}") from None
    finally:
        plt.close(fig)


def run_stats(args) -> int:
    import json
    import time

    from ..tools.players import get_player

    started = time.perf_counter()
    tally = _Tally(args.max_plies)
    spec = args.player.strip().lower()
    if spec == "random":
        _play_random(args.size, args.games, args.max_plies, args.seed, tally)
    else:
        player = get_player(args.player, time=args.time, nodes=args.nodes, seed=args.seed, size=args.size)
        _play_board(args.size, args.games, args.max_plies, player, tally, args.seed)
    summary = summarize(tally, args.size, args.player, args.games, args.seed, time.perf_counter() - started)
    if args.plot:
        write_plot(args.plot, summary)
    if args.json:
        print(json.dumps(summary))
    else:
        print(format_text(summary))
    return 0
