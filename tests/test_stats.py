"""``hinge-fast stats``: self-play statistics, move kinds, JSON and plot output."""

import json
import random

import pytest

from hinge_fast import Board
from hinge_fast import reference as ref
from hinge_fast.cli import main
from hinge_fast.games.stats import MoveKinds, wilson_interval


@pytest.fixture
def run_json(cli):
    def run(*args):
        done = cli("stats", *args, "--json")
        assert done.status == 0, done.err
        return json.loads(done.out)

    return run


def test_json_counts_add_up(run_json):
    s = run_json("--size", "4", "--games", "40", "--seed", "1")
    assert s["games"] == 40 and s["size"] == 4 and s["player"] == "random"
    assert s["green_wins"] + s["blue_wins"] + s["unfinished"] == 40
    assert sum(s["endings"].values()) == 40
    assert s["no_legal_move"] == s["endings"]["no legal move"]
    assert len(s["lengths"]) == 40
    assert s["length"]["min"] == min(s["lengths"]) and s["length"]["max"] == max(s["lengths"])
    assert s["length"]["p10"] <= s["length"]["median"] <= s["length"]["p90"]
    # one move is played in every position counted, and each is of exactly one kind
    assert (
        sum(s["move_kinds"].values())
        == s["moves"]
        == sum(s["positions_by_ply"])
        == sum(s["lengths"])
    )
    assert s["positions_by_ply"][0] == 40
    assert s["legal_moves_by_ply"][0] == 19  # every interior cell of the empty S=4 board
    assert sum(b["positions"] for b in s["legal_moves_by_bucket"]) == s["moves"]
    low, high = s["green_win_rate_95"]
    assert low <= s["green_win_rate"] <= high


def test_same_seed_same_games(run_json):
    a = run_json("--size", "5", "--games", "15", "--seed", "7")
    b = run_json("--size", "5", "--games", "15", "--seed", "7")
    for s in (a, b):
        s.pop("seconds")
    assert a == b


def test_ply_cap_gives_unfinished_games(run_json):
    s = run_json("--size", "6", "--games", "5", "--seed", "1", "--max-plies", "10")
    assert s["unfinished"] == 5 and s["endings"]["max plies"] == 5 and s["green_win_rate"] is None
    assert s["lengths"] == [10] * 5


def test_text_report_makes_no_legal_move_prominent(capsys):
    assert main(["stats", "--size", "4", "--games", "20", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "NO LEGAL MOVE:" in out
    assert "first player (green) wins:" in out
    assert "reversing two-step" in out and "passing over a friendly token" in out


def test_greedy_player_through_board(run_json):
    s = run_json("--size", "4", "--games", "4", "--seed", "2", "--player", "greedy")
    assert s["player"] == "greedy" and sum(s["endings"].values()) == 4


def test_plot_writes_a_png(capsys, tmp_path):
    path = tmp_path / "stats.png"
    assert main(["stats", "--size", "4", "--games", "10", "--seed", "1", "--plot", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--games", "0"], "N must be from 1"),
        (["--size", "3"], "S must be from 4 to 9"),
        (["--player", "nobody"], "nobody"),
        (["--time", "-1"], "time must be more than 0"),
    ],
)
def test_bad_input_is_one_error_line(capsys, args, message):
    assert main(["stats", *args]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert "Traceback" not in captured.err


def test_wilson_interval():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0) and 0.69 < low < 0.73


# ----- move kinds against an oracle that traces every path (built on the reference) -------------
def path_kinds(pos, x, f):
    """For the swipe of the token on x ending on f: the set of (step-1 cell contents,
    is edge) over every legal path, following reference.swipe_final_cells."""
    size, me = pos.size, pos.to_move
    tokens = pos.tokens
    group = ref.group_of(size, tokens, x)
    lifted = {c: col for c, col in tokens.items() if c != x}
    enemy = ref.other(me)

    def valid_final(cell):
        return (
            cell not in lifted
            and ref.is_interior(size, cell)
            and ref.has_enemy_neighbour(size, lifted, cell, me)
        )

    found = set()
    for p in ref.neighbours(size, x):
        if tokens.get(p) != me:
            continue
        i = ref.D.index((x[0] - p[0], x[1] - p[1]))
        for s in (1, -1):
            y1 = ref.step(p, i + s)
            if lifted.get(y1) == enemy:
                continue
            if valid_final(y1):
                if y1 == f:
                    found.add(("one", None, False))
                continue
            if y1 not in lifted and any(
                lifted.get(n) == me and n not in group for n in ref.neighbours(size, y1)
            ):
                continue
            for y2 in (ref.step(p, i + 2 * s), x):
                if y2 == f and valid_final(y2):
                    found.add(("two", lifted.get(y1), ref.is_edge(size, y1)))
    return found


def test_move_kinds_agree_with_path_tracing():
    rng = random.Random(5)
    checked = 0
    for _game in range(6):
        board = Board(5)
        kinds = MoveKinds(5)
        geo = kinds.geo
        while not board.is_game_over() and len(board.move_stack) < 60:
            pos = ref.parse_position(board.fen())
            me = pos.to_move
            groups = [{geo.parse_cell(c) for c in g} for g in board.groups(board.turn)]
            own = set().union(*groups)
            for move in board.legal_moves:
                if not move.is_swipe:
                    continue
                x, f = geo.coords[geo.parse_cell(move.frm)], geo.coords[geo.parse_cell(move.to)]
                paths = path_kinds(pos, x, f)
                assert paths, move
                kind, details = kinds.classify(
                    geo.parse_cell(move.frm),
                    geo.parse_cell(move.to),
                    True,
                    own.__contains__,
                    lambda c: next(g for g in groups if c in g),  # noqa: B023 (called at once)
                )
                expected_kind = (
                    "reversing"
                    if x == f
                    else "one_step"
                    if ("one", None, False) in paths
                    else "onward"
                )
                assert kind == expected_kind, (board.fen(), move)
                assert ("over_friendly" in details) == any(
                    step == "two" and held == me for step, held, _ in paths
                ), (board.fen(), move)
                assert ("reversing_via_edge" in details) == (
                    x == f and any(edge for _, _, edge in paths)
                ), (board.fen(), move)
                checked += 1
            board.push(rng.choice(board.legal_moves))
    assert checked > 200


# ----- different seeds, different games ------------------------------------------------------------
def test_a_deterministic_engine_plays_different_games_with_random_openings(run_json, monkeypatch):
    monkeypatch.setenv("HINGE_FAST_THREADS", "1")
    opened = run_json(
        "--size", "5", "--games", "6", "--player", "alphabeta", "--nodes", "300", "--seed", "1"
    )
    assert opened["openings"] == 2 and opened["distinct_games"] == 6
    assert len(set(opened["lengths"])) > 1
    assert opened["legal_moves_by_ply"][:2] == [
        None,
        None,
    ]  # the opening plies are not the player's
    assert sum(opened["move_kinds"].values()) == opened["moves"] == sum(opened["lengths"]) - 2 * 6
    other = run_json(
        "--size", "5", "--games", "6", "--player", "alphabeta", "--nodes", "300", "--seed", "2"
    )
    assert other["lengths"] != opened["lengths"] or other["green_wins"] != opened["green_wins"]
    again = run_json(
        "--size", "5", "--games", "6", "--player", "alphabeta", "--nodes", "300", "--seed", "1"
    )
    assert again["lengths"] == opened["lengths"]  # the same seed, the same games


def test_stats_say_when_games_repeat(cli, monkeypatch):
    monkeypatch.setenv("HINGE_FAST_THREADS", "1")
    done = cli(
        "stats",
        "--size",
        "5",
        "--games",
        "3",
        "--player",
        "alphabeta",
        "--nodes",
        "300",
        "--seed",
        "1",
        "--openings",
        "0",
    )
    assert done.status == 0, done.err
    assert "distinct games: 1 of 3: 2 repeat an earlier game" in done.out


def test_a_match_says_when_games_repeat():
    from hinge_fast.games.match import GameSettings, play_match
    from hinge_fast.games.players import get_player

    same = play_match(
        get_player("alphabeta", nodes=200),
        get_player("alphabeta", nodes=200),
        games=4,
        size=4,
        seed=1,
        settings=GameSettings(0),
    )
    assert same.distinct_games == 1 and same.figures()["distinct_games"] == 1
    assert "3 of 4 games repeat an earlier game" in same.summary()
    opened = play_match(
        get_player("alphabeta", nodes=200),
        get_player("alphabeta", nodes=200),
        games=4,
        size=4,
        seed=1,
        settings=GameSettings(2),
    )
    assert (
        opened.distinct_games == 2
    )  # the two pairs differ; within a pair one engine played both sides alike
