"""Tournaments: pairings, the maximum-likelihood rating list (by hand), a tournament
of three players of known order, resuming, and the command's bad input."""

from __future__ import annotations

import json
import math

import pytest

from hinge_fast import HingeError
from hinge_fast.games.match import RunSettings
from hinge_fast.games.players import get_player
from hinge_fast.games.ratings import PRIOR_DRAWS, fit_ratings, ratings_table
from hinge_fast.games.tournament import pairings, play_tournament
from hinge_fast.records.record import read_records


def test_pairings():
    assert pairings(4) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert pairings(4, gauntlet=True) == [(0, 1), (0, 2), (0, 3)]


def test_two_players_by_hand():
    # 3 wins of 4 plus one virtual draw: 3.5 of 5 points, 0.7, so 400 log10(0.7/0.3)
    # Elo apart, split around 0
    a, b = fit_ratings(["a", "b"], [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)])
    gap = 400 * math.log10(0.7 / 0.3)
    assert (a.name, b.name) == ("a", "b")
    assert a.elo == pytest.approx(gap / 2, abs=1e-3) and b.elo == pytest.approx(-gap / 2, abs=1e-3)
    assert (a.games, a.score, b.score) == (4, 0.75, 0.25)
    # the interval by hand: the information on the gap is k^2 n p (1-p) with n = 5 games
    # (the virtual draw included); each rating, with their mean held at 0, carries half the gap
    k = math.log(10) / 400
    sd_gap = 1 / math.sqrt(k * k * (4 + PRIOR_DRAWS) * 0.7 * 0.3)
    assert a.margin == pytest.approx(1.959964 * sd_gap / 2, rel=1e-4)


def test_ratings_average_zero_and_a_perfect_score_stays_finite():
    games = [(0, 1, 1.0)] * 6 + [(1, 2, 1.0)] * 5 + [(1, 2, 0.0)] + [(0, 2, 1.0)] * 6
    ratings = fit_ratings(["x", "y", "z"], games)
    assert [r.name for r in ratings] == ["x", "y", "z"]
    assert sum(r.elo for r in ratings) == pytest.approx(0, abs=1e-6)
    assert all(math.isfinite(r.elo) and math.isfinite(r.margin) for r in ratings)
    text = ratings_table(ratings)
    assert text.splitlines()[1].split()[:2] == ["1", "x"]
    with pytest.raises(HingeError, match="at least two"):
        fit_ratings(["x"], [])


def test_three_players_of_known_order_rank_in_that_order():
    players = [
        get_player("random", seed=1),
        get_player("alphabeta", nodes=300),
        get_player("greedy", seed=2),
    ]
    result = play_tournament(players, rounds=3, size=5, seed=1)
    assert len(result.games) == 2 * 3 * 3
    assert [r.name for r in result.ratings()] == ["alphabeta", "greedy", "random"]
    figures = result.figures()
    assert [r["name"] for r in figures["ratings"]] == ["alphabeta", "greedy", "random"]
    assert sum(p["games"] for p in figures["pairings"]) == 18


def test_a_gauntlet_plays_the_first_player_only():
    players = [
        get_player("greedy", seed=1),
        get_player("random", seed=2),
        get_player("random:", seed=3),
    ]
    with pytest.raises(HingeError, match="twice"):
        play_tournament(players, rounds=1, size=4, seed=1)
    players = [
        get_player("greedy", seed=1),
        get_player("random", seed=2),
        get_player("alphabeta", nodes=20),
    ]
    result = play_tournament(players, rounds=1, size=4, seed=1, gauntlet=True)
    assert result.pairings == [(0, 1), (0, 2)] and len(result.games) == 4
    assert all("greedy" in (g.green, g.blue) for g in result.games.values())


def test_tournament_command_resumes_and_adds_rounds(cli, tmp_path):
    out = tmp_path / "t.hgn"
    args = [
        "tournament",
        "greedy",
        "random",
        "alphabeta",
        "--size",
        "4",
        "--nodes",
        "30",
        "--seed",
        "5",
    ]
    first = cli(*args, "--rounds", "1", "--out", out)
    assert first.status == 0 and "6 games written" in first.out
    games = out.read_text()
    records = read_records(str(out))
    assert [r.tags["Event"] for r in records] == ["hinge-fast tournament"] * 6
    assert records[0].tags["Tournament"] == "round robin: greedy, random, alphabeta"
    # an interrupted write: the last game cut in the middle is dropped and played again
    out.write_text(games[: games.rindex("[Event") + 40])
    again = cli(*args, "--rounds", "2", "--resume", out, "--json", tmp_path / "t.json")
    assert again.status == 0 and "resuming: 5 games already" in again.out
    records = read_records(str(out))
    assert len(records) == 12 and sorted(int(r.tags["Round"]) for r in records) == list(
        range(1, 13)
    )
    assert out.read_text().startswith(games[: games.rindex("[Event")])
    figures = json.loads((tmp_path / "t.json").read_text())
    assert figures["games"] == 12 and len(figures["ratings"]) == 3
    # the same games again: replayed exactly under node limits
    fresh = tmp_path / "fresh.hgn"
    assert cli(*args, "--rounds", "2", "--out", fresh).status == 0
    assert [r.moves for r in read_records(str(fresh))] == [
        r.moves for r in sorted(records, key=lambda r: int(r.tags["Round"]))
    ]
    # other settings are refused
    other = cli(
        "tournament",
        "greedy",
        "random",
        "--size",
        "4",
        "--nodes",
        "30",
        "--rounds",
        "2",
        "--resume",
        out,
    )
    assert other.status == 2 and "resume with the same settings" in other.err


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "greedy"],
        ["tournament", "greedy", "greedy"],
        ["tournament", "greedy", "nobody"],
        ["tournament", "greedy", "random", "--tc", "fast"],
        ["tournament", "greedy", "random", "--rounds", "0"],
        ["tournament", "greedy", "random", "--book", "/nonexistent/book.txt"],
        ["tournament", "greedy", "random", "--openings", "10", "--max-plies", "5"],
        ["tournament", "greedy", "random", "--out", "/nonexistent/dir/t.hgn"],
    ],
)
def test_tournament_command_bad_input(cli, argv):
    run = cli(*argv)
    err = run.err.strip().splitlines()
    assert run.status == 2 and len(err) == 1 and err[0].startswith("error: "), run.err
    assert run.out == ""


def test_a_tournament_in_worker_processes_plays_the_same_games():
    from hinge_fast.games.players import PlayerSpec
    from hinge_fast.jobs.executor import Executor

    specs = [
        PlayerSpec("greedy", size=4),
        PlayerSpec("random", size=4),
        PlayerSpec("mcts", nodes=20, size=4),
    ]
    serial = play_tournament(specs, rounds=1, size=4, seed=3)
    with Executor(concurrency=2) as pool:
        parallel = play_tournament(specs, rounds=1, size=4, seed=3, run=RunSettings(pool))
    assert {i: g.moves for i, g in serial.games.items()} == {
        i: g.moves for i, g in parallel.games.items()
    }


def test_tournament_command_on_a_clock(cli, tmp_path):
    out = tmp_path / "t.hgn"
    run = cli(
        "tournament",
        "greedy",
        "random",
        "--rounds",
        "1",
        "--size",
        "4",
        "--tc",
        "60+1",
        "--seed",
        "2",
        "--out",
        out,
    )
    assert run.status == 0 and "60+1 clock" in run.out
    records = read_records(str(out))
    assert [r.tags["Limit"] for r in records] == ["tc 60+1"] * 2
    assert all(r.comments for r in records)  # each move's time
