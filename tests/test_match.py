"""Players, the match runner, its statistics and the ``match`` command."""

from __future__ import annotations

import math

import pytest

from hinge_fast import Board, HingeError
from hinge_fast.board import Termination
from hinge_fast.cli import main
from hinge_fast.games.match import GameSettings, play_match
from hinge_fast.games.pairstats import Pentanomial, Sprt, elo_from_score, score_from_elo
from hinge_fast.games.players import GreedyPlayer, Player, RandomPlayer, get_player, parse_spec
from hinge_fast.games.positions import random_opening
from hinge_fast.games.results import elo_interval
from hinge_fast.records.record import read_records

# Blue to move on side 5, with swipes flipping groups of 1, 2 and 3 green tokens; only
# E4-F5xF6 flips three.
GREEDY_POSITION = "5/1bb1g1/1b2g2/2bbg3/2b1b4/4bg2/3g1g1/6/5 b"


def flip_size(board, move):
    before = board.token_count(board.turn.other)
    board.push(move)
    after = board.token_count(board.turn)
    board.pop()
    return before - after


# ----- players ------------------------------------------------------------------------------------
def test_greedy_picks_the_largest_flip():
    board = Board.from_fen(GREEDY_POSITION)
    sizes = {m: flip_size(board, m) for m in board.legal_moves}
    largest = max(sizes.values())
    assert sorted(set(sizes.values())) == [0, 1, 2, 3]
    for seed in range(5):
        move = GreedyPlayer(seed=seed).choose(board)
        assert sizes[move] == largest and str(move) == "E4-F5xF6"


def test_greedy_places_when_it_cannot_swipe():
    board = Board(6)
    move = GreedyPlayer(seed=1).choose(board)
    assert not move.is_swipe and move in board.legal_moves


def test_random_player_is_seeded():
    board = Board(6)
    a = [RandomPlayer(seed=3).choose(board) for _ in range(3)]
    assert len(set(a)) == 1
    player = RandomPlayer(seed=3)
    first = player.choose(board)
    player.reset()
    assert player.choose(board) == first


def test_get_player_builtins_and_options():
    assert get_player("random").name == "random"
    assert isinstance(get_player("greedy", seed=1), GreedyPlayer)
    mcts = get_player("mcts", nodes=50, seed=1)
    assert mcts.name == "mcts" and mcts.limits.nodes == 50
    tuned = get_player("mcts:exploration=0.7,tree_nodes=5000", nodes=50, seed=1)
    assert tuned.options == {"exploration": 0.7, "tree_nodes": 5000}
    assert tuned.choose(Board(4)) in Board(4).legal_moves
    assert parse_spec("MCTS") == ("mcts", {})
    assert isinstance(get_player("alphabeta", time=0.05), Player)


@pytest.mark.parametrize(
    "spec", ["nonsense", "", "cmd:./engine", "mcts:exploration", "greedy:depth=3"]
)
def test_get_player_rejects_bad_specs(spec):
    with pytest.raises(HingeError):
        get_player(spec)


def test_mcts_player_rejects_unknown_option_when_made():
    with pytest.raises(HingeError, match="unknown option 'colour' of engine mcts"):
        get_player("mcts:colour=red", nodes=10)
    with pytest.raises(HingeError, match="option exploration must be a number, not 'abc'"):
        get_player("mcts:exploration=abc", nodes=10)


# ----- statistics -----------------------------------------------------------------------------------
def test_elo_maths():
    assert elo_from_score(0.75) == pytest.approx(190.848, abs=1e-3)
    assert elo_from_score(0.5) == 0
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    assert score_from_elo(elo_from_score(0.3)) == pytest.approx(0.3)
    elo, low, high = elo_interval(75, 25)
    assert elo == pytest.approx(190.848, abs=1e-3)
    # s = 0.75, var = 0.1875, half width = 1.96 * sqrt(0.1875 / 100) = 0.08487
    assert low == pytest.approx(elo_from_score(0.75 - 0.0848705), abs=0.01)
    assert high == pytest.approx(elo_from_score(0.75 + 0.0848705), abs=0.01)
    assert elo_interval(5, 5, 2)[0] == 0
    elo, low, high = elo_interval(10, 0)
    assert elo == math.inf and 0 < low < math.inf and high == math.inf


def test_sprt_llr_and_bounds():
    sprt = Sprt(0, 50)
    lower, upper = sprt.bounds
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(
        math.log(0.95 / 0.05)
    )
    # 4 pairs [0, 0, 2, 2, 0]: mu = 0.625, var = 0.015625, s1 - s0 = 0.07146:
    # LLR = 4 * 0.07146 * (1.25 - 0.5 - 0.57146) / (2 * 0.015625)
    s1 = score_from_elo(50)
    assert sprt.llr(Pentanomial((0, 0, 2, 2, 0))) == pytest.approx(
        4 * (s1 - 0.5) * (1.25 - 0.5 - s1) / 0.03125
    )
    assert sprt.llr(Pentanomial()) == 0
    assert sprt.decision(sprt.llr(Pentanomial((0, 0, 0, 0, 30)))) == "H1"
    assert sprt.decision(sprt.llr(Pentanomial((30, 0, 0, 0, 0)))) == "H0"
    assert sprt.decision(0.0) is None
    assert Sprt.parse("0,50,0.1,0.2") == Sprt(0, 50, 0.1, 0.2)
    for bad in ("50,0", "0", "a,b", "0,50,0.7,0.1", "0,inf"):
        with pytest.raises(HingeError):
            Sprt.parse(bad)


def test_pentanomial_figures_by_hand():
    p = Pentanomial((0, 0, 2, 2, 0))  # pair scores per game 0.5, 0.5, 0.75, 0.75
    assert p.pairs == 4 and p.mean == pytest.approx(0.625)
    assert p.variance == pytest.approx(0.015625)
    assert p.elo == pytest.approx(elo_from_score(0.625))
    half = 1.959964 * math.sqrt(0.015625 / 4)  # 0.1225
    low, high = p.elo_interval()
    assert low == pytest.approx(elo_from_score(0.625 - half), abs=1e-3)
    assert high == pytest.approx(elo_from_score(0.625 + half), abs=1e-3)
    assert p.los == pytest.approx(0.977250, abs=1e-6)  # Phi(0.125 / 0.0625) = Phi(2)
    assert p.nelo == pytest.approx(0.125 / math.sqrt(0.03125) * 800 / math.log(10))
    assert p.draw_ratio == 0.5 and p.pair_ratio == math.inf
    assert Pentanomial((1, 2, 3, 4, 5)).pair_ratio == 3.0
    assert Pentanomial().add(1.5).add(0.5).add(2).ptnml == (0, 1, 0, 1, 1)
    with pytest.raises(HingeError):
        Pentanomial().add(0.3)


def test_pairs_are_narrower_than_games_when_openings_decide():
    """Every pair 1-1 (each side wins with the favoured colour): per game the score is
    50% with a wide interval, per pair there is no doubt at all that they are equal."""
    p = Pentanomial((0, 0, 100, 0, 0))
    low, high = p.elo_interval()
    game = elo_interval(100, 100)
    assert p.elo == 0 and high - low < (game[2] - game[1]) / 5


def test_a_match_counts_its_pairs():
    result = play_match(get_player("greedy"), get_player("random"), games=21, size=4, seed=3)
    scores = [g.a_score for g in result.games]
    expected = [0] * 5
    for i in range(0, 20, 2):
        expected[round(2 * (scores[i] + scores[i + 1]))] += 1
    assert list(result.pentanomial.ptnml) == expected  # game 21 waits for its pair
    figures = result.figures()
    assert figures["ptnml"] == expected and figures["games"] == 21 and figures["pairs"] == 10
    assert "Ptnml(0-2): " + str(expected) in result.summary()


# ----- match runner ---------------------------------------------------------------------------------
def test_colours_alternate_and_openings_are_shared():
    result = play_match(
        get_player("random"),
        get_player("greedy"),
        games=6,
        size=5,
        seed=11,
        settings=GameSettings(3),
    )
    assert [g.a_color.name for g in result.games] == ["GREEN", "BLUE"] * 3
    assert [g.green for g in result.games] == ["random", "greedy"] * 3
    openings = [tuple(g.moves[: g.opening_plies]) for g in result.games]
    assert all(len(o) == 3 for o in openings)
    assert openings[0] == openings[1] and openings[2] == openings[3] and openings[4] == openings[5]
    assert len({openings[0], openings[2], openings[4]}) == 3
    assert result.wins + result.losses + result.unfinished == 6


def test_match_is_reproducible():
    def run():
        r = play_match(
            get_player("mcts", nodes=30),
            get_player("random"),
            games=2,
            size=4,
            seed=4,
            settings=GameSettings(2),
        )
        return [g.moves for g in r.games]

    assert run() == run()


def test_random_openings_never_end_the_game():
    import random

    rng = random.Random(0)
    for _ in range(20):
        board = Board(4)
        for move in random_opening(4, 6, rng):
            board.push(move)
        assert not board.is_game_over()


def test_max_plies_makes_unfinished_games():
    result = play_match(
        get_player("random"),
        get_player("random"),
        games=4,
        size=6,
        seed=1,
        settings=GameSettings(2, max_plies=6),
    )
    assert result.unfinished == 4 and result.wins == result.losses == 0
    assert all(
        g.result == "unfinished" and g.termination == Termination.MAX_PLIES and len(g.moves) == 6
        for g in result.games
    )
    assert result.score == 0.5 and result.elo == 0
    records = result.records()
    assert (
        records[0].tags["Result"] == "unfinished" and records[0].tags["Termination"] == "max plies"
    )


def test_results_are_from_a_point_of_view():
    result = play_match(get_player("greedy"), get_player("random"), games=8, size=5, seed=3)
    for g in result.games:
        winner = g.result
        a_won = winner == str(g.a_color)
        assert g.a_score == (1.0 if a_won else 0.0)
    assert result.wins == sum(g.a_score == 1 for g in result.games)


def test_sprt_stops_a_lopsided_match():
    result = play_match(
        get_player("random", seed=1),
        get_player("greedy", seed=2),
        games=200,
        size=5,
        seed=1,
        sprt=Sprt(0, 100),
    )
    assert result.sprt_decision == "H0"
    assert 10 <= result.played < 200  # never decided on fewer than MIN_SPRT_PAIRS pairs
    assert result.llr <= result.llr_bounds[0]


def test_bad_match_arguments():
    a, b = get_player("random"), get_player("random")
    with pytest.raises(HingeError):
        play_match(a, b, games=0)
    with pytest.raises(HingeError):
        play_match(a, b, games=2, size=12)
    with pytest.raises(HingeError):
        play_match(a, b, games=2, settings=GameSettings(5, max_plies=5))


# ----- command line --------------------------------------------------------------------------------
def test_match_command_writes_records(tmp_path, capsys):
    out = tmp_path / "games.hgn"
    status = main(
        [
            "match",
            "greedy",
            "random",
            "--games",
            "4",
            "--size",
            "5",
            "--seed",
            "2",
            "--out",
            str(out),
        ]
    )
    assert status == 0
    captured = capsys.readouterr()
    assert "greedy vs random: 4 games on side 5" in captured.out
    assert "Elo of greedy over random" in captured.out and "Ptnml(0-2)" in captured.out
    records = read_records(str(out))
    assert len(records) == 4
    assert [r.tags["Green"] for r in records] == ["greedy", "random", "greedy", "random"]
    # the shipped book opens each pair: both games start from the same entry
    assert records[0].start is not None and records[0].start == records[1].start
    assert records[2].start == records[3].start


def test_match_command_sprt_summary(capsys):
    status = main(
        [
            "match",
            "greedy",
            "random",
            "--games",
            "100",
            "--size",
            "5",
            "--seed",
            "1",
            "--sprt",
            "0,200",
        ]
    )
    assert status == 0
    out = capsys.readouterr().out
    assert "SPRT elo0=0 elo1=200" in out and "accepted" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["match", "greedy"],
        ["match", "greedy", "nobody", "--games", "2"],
        ["match", "greedy", "random", "--games", "0"],
        ["match", "greedy", "random", "--time", "-1"],
        ["match", "greedy", "random", "--time", "1", "--nodes", "5"],
        ["match", "greedy", "random", "--time-b", "1", "--nodes-b", "5"],
        ["match", "greedy", "random", "--nodes-b", "0"],
        ["match", "greedy", "random", "--time-b", "-0.5"],
        ["match", "greedy", "random", "--sprt", "50,0"],
        ["match", "greedy", "random", "--size", "3"],
        ["match", "greedy", "random", "--openings", "10", "--max-plies", "5"],
        ["match", "greedy", "random", "--out", "/nonexistent/dir/games.hgn"],
        ["match", "cmd:engine", "random"],
        ["match", "mcts:exploration=abc", "greedy", "--games", "2"],
        ["match", "greedy", "alphabeta:no_such_option=1", "--games", "2"],
    ],
)
def test_match_command_bad_input(argv, cli):
    """One error line and nothing on stdout: players are checked before the banner."""
    run = cli(*argv)
    err = run.err.strip().splitlines()
    assert run.status == 2 and len(err) == 1 and err[0].startswith("error: ")
    assert run.out == ""


def test_match_command_writes_the_figures_as_json(tmp_path, capsys):
    import json

    path = tmp_path / "figures.json"
    assert (
        main(
            [
                "match",
                "greedy",
                "random",
                "--games",
                "6",
                "--size",
                "4",
                "--seed",
                "4",
                "--json",
                str(path),
            ]
        )
        == 0
    )
    figures = json.loads(path.read_text())
    assert figures["games"] == 6 and figures["pairs"] == 3 and sum(figures["ptnml"]) == 3
    assert figures["wins"] + figures["losses"] + figures["unfinished"] == 6
    assert f"Ptnml(0-2): {figures['ptnml']}" in capsys.readouterr().out


def test_players_of_one_name_are_told_apart_by_their_place(tmp_path, cli):
    # One engine against itself: the games' tags and the results name ENGINE_A and
    # ENGINE_B apart, so the file says which one played Green in each game.
    path = tmp_path / "games.hgn"
    run = cli(
        "match",
        "random",
        "random",
        "--games",
        "4",
        "--size",
        "4",
        "--seed",
        "1",
        "--out",
        str(path),
    )
    assert run.status == 0, run.err
    assert "match random (A) vs random (B):" in run.out
    assert "Elo of random (A) over random (B):" in run.out
    for record in read_records(path):
        a_green = int(record.tags["Round"]) % 2 == 1
        assert (record.tags["Green"], record.tags["Blue"]) == (
            ("random (A)", "random (B)") if a_green else ("random (B)", "random (A)")
        )
    # Players of different names keep them.
    run = cli("match", "greedy", "random", "--games", "2", "--size", "4", "--seed", "1")
    assert "Elo of greedy over random:" in run.out
