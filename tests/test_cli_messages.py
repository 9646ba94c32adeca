"""What the command line says: bare ``hinge-fast``, help texts, scores with their
owner and unit, match banners and small-match Elo, files written, progress by game."""

from __future__ import annotations

import pytest

from hinge_fast.cli import main
from tests.conftest import MID_GAME


def test_bare_hinge_fast_prints_the_help_and_succeeds(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: hinge-fast") and "match" in out and "probe" in out


@pytest.mark.parametrize("command", ["stats", "perft", "playouts", "probe", "tune", "match"])
def test_help_texts_print_percent_once_and_cite_the_rules_users_have(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    assert "%%" not in out
    assert "rules.md" not in out.replace("docs/rules.md", "")


def test_perft_depth_has_help(capsys):
    with pytest.raises(SystemExit):
        main(["perft", "--help"])
    assert "plies to look ahead" in capsys.readouterr().out


def test_a_match_of_players_that_do_not_search_says_the_limit_does_not_apply(capsys):
    assert (
        main(
            [
                "match",
                "greedy",
                "random",
                "--games",
                "2",
                "--size",
                "4",
                "--nodes",
                "100",
                "--seed",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "100 nodes per move (neither player searches: the limit does not apply)" in out
    assert (
        "Elo of greedy over random: +0.0; no interval: one pair is too few; play more games" in out
    )


def test_a_one_sided_match_has_no_interval_but_says_why(capsys):
    assert (
        main(
            [
                "match",
                "alphabeta",
                "random",
                "--games",
                "4",
                "--size",
                "4",
                "--nodes",
                "200",
                "--seed",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "(for the searching player only: random does not search)" in out
    assert "no interval: all 2 pairs ended the same way" in out and "to +inf" not in out


def test_move_and_analyze_scores_name_green_and_the_unit(capsys):
    assert main(["move", MID_GAME, "--depth", "2"]) == 0
    err = capsys.readouterr().err
    assert "info depth 2 score Green +" in err and " tokens, " in err and "% to win nodes " in err
    assert main(["analyze", MID_GAME, "--depth", "2", "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert (
        "static evaluation: Green " in out
        and "best: J6-I6xG6, Green +" in out
        and "  1. J6-I6xG6  Green +" in out
    )


def test_a_blue_win_is_named_from_either_side(capsys):
    assert main(["move", "4/1g3/1g4/1g3b1/1ggg2/5/4 b", "--depth", "3"]) == 0
    assert "bestmove F5 score Blue wins in 3 depth 3" in capsys.readouterr().err


def test_svg_and_plot_files_are_announced(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["analyze", MID_GAME, "--depth", "1", "--svg", "a.svg"]) == 0
    assert capsys.readouterr().err.endswith("wrote a.svg\n") and (tmp_path / "a.svg").exists()


def test_stats_reports_progress_game_by_game():
    from hinge_fast.games.stats import self_play

    seen = []
    self_play(4, 5, "greedy", seed=1, progress=lambda done, total: seen.append((done, total)))
    assert seen[:5] == [(n, 5) for n in range(1, 6)]


def test_bench_explains_threads_slower_than_one():
    from hinge_fast.measure.benchmark import slower_threads_note

    busy = {
        "threads": 2,
        "quick": False,
        "system_load": 64.0,
        "figures": [{"rate": 10.0, "rate_threads": 9.0}],
    }
    assert "the machine was busy" in slower_threads_note(busy)
    assert slower_threads_note({**busy, "figures": [{"rate": 10.0, "rate_threads": 19.0}]}) is None
