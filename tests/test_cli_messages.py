"""What the command line says: bare ``hinge-fast``, help texts, scores with their
owner and unit, match banners and small-match Elo, files written, progress by game."""

from __future__ import annotations

import re

import pytest

from hinge_fast.cli import main
from hinge_fast.errors import HingeError
from tests.conftest import MID_GAME, svg_text


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
    assert "\ndepth 2: Green +" in err and " tokens, " in err and "% to win; " in err
    assert "info " not in err and "bestmove" not in err  # the protocol's words are for programs
    assert "\nbest move J6-I6xG6: Green +" in err
    assert main(["analyze", MID_GAME, "--depth", "2", "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert (
        "static evaluation: Green " in out
        and "best: J6-I6xG6, Green +" in out
        and "  1. J6-I6xG6  Green +" in out
    )


def test_a_blue_win_is_named_from_either_side(capsys):
    assert main(["move", "4/1g3/1g4/1g3b1/1ggg2/5/4 b", "--depth", "3"]) == 0
    assert "best move F5: Blue wins in 3 (depth 3, " in capsys.readouterr().err


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


def test_python_dash_m_hinge_fast_is_the_command():
    import subprocess
    import sys

    from hinge_fast import __version__

    done = subprocess.run(
        [sys.executable, "-m", "hinge_fast", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout == f"hinge-fast {__version__}\n"
    done = subprocess.run([sys.executable, "-m", "hinge_fast", "nonsense"], capture_output=True)
    assert done.returncode == 2 and b"Traceback" not in done.stderr


def _tracked_files():
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    names = subprocess.run(
        ["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.split()
    return [
        (name, (root / name).read_text(errors="replace"))
        for name in names
        if (root / name).is_file() and not name.endswith((".png", ".svg", ".tb"))
    ]


def test_install_hints_name_what_pip_can_install():
    """No package index has hinge-fast: every hint installs from the source folder or
    the wheel."""
    from hinge_fast.core.text import install_hint

    hint = install_hint("web")
    assert "pip install '.[web]'" in hint and "whl[web]" in hint
    no_index_name = "hinge-fast" + "["
    assert [name for name, text in _tracked_files() if no_index_name in text] == []


def test_no_file_names_a_path_outside_the_repository():
    pattern = ("../shared", "/work/", "/" + "tmp/")
    found = [
        name
        for name, text in _tracked_files()
        if name != "tests/test_docs_reference.py"  # its pattern of history names the folder
        and name != "tests/test_cli_messages.py"  # this test's pattern
        and any(p in text for p in pattern)
    ]
    assert found == []


FINISHED = "6/7/8/9/10/4gg5/10/9/8/7/6 b"  # Blue has no token: Green has won


@pytest.mark.parametrize(
    "argv",
    [["move"], ["moves"], ["analyze", "--depth", "1"], ["analyze", "--json"], ["prove"]],
)
def test_every_command_that_needs_a_move_refuses_a_finished_game_alike(argv, cli):
    run = cli(argv[0], FINISHED, *argv[1:])
    assert (run.status, run.out) == (2, "")
    assert run.err == "error: the game is over: green wins by elimination\n"


def test_perft_of_a_finished_game_counts_no_leaves(cli):
    run = cli("perft", "2", FINISHED)
    assert (run.status, run.out) == (0, "0\n")


@pytest.mark.parametrize(
    "argv, said",
    [
        (["mvoe"], "invalid choice: 'mvoe'"),
        (["move", "--tiem", "1"], "unrecognized arguments: --tiem; did you mean --time?"),
        (["moves", "--szie", "4"], "unrecognized arguments: --szie; did you mean --size?"),
        (
            ["move", "--engine", "alphabta"],
            "did you mean 'alphabeta'? (see 'hinge-fast move --help')",
        ),
    ],
)
def test_mistyped_commands_options_and_choices_get_a_suggestion_and_their_help(argv, said, cli):
    run = cli(*argv)
    assert run.status == 2 and run.out == ""
    assert said in run.err and len(run.err.splitlines()) == 1
    command = argv[0] if argv[0] != "mvoe" else None
    help_of = f"(see 'hinge-fast {command} --help')" if command else "(see 'hinge-fast --help')"
    assert run.err.rstrip().endswith(help_of)
    if command is None:
        assert "did you mean 'move'?" in run.err


def test_an_unquoted_position_gets_a_hint_to_quote_it(cli):
    run = cli("moves", "4/5/6/7/6/5/4", "b")
    assert run.status == 2
    assert (
        "unrecognized arguments: b; a position string holds a space: quote it, as in "
        "hinge-fast moves '4/5/6/7/6/5/4 b' (see 'hinge-fast moves --help')"
    ) in run.err


def test_a_long_time_limit_is_written_as_people_write_it(cli):
    run = cli("prove", "--time", "0")
    assert "at most 2,592,000 seconds, not 0" in run.err and "e+" not in run.err


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_tc_accepts_what_its_help_says(command, capsys):
    from hinge_fast.cli import build_parser

    parser = build_parser()
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--tc BASE[+INC]" in out and "BASE alone, 60: no increment" in out
    engines = ["random", "greedy"]
    for text, base, inc in (("2", 2.0, 0.0), ("10+0.1", 10.0, 0.1)):
        args = parser.parse_args([command, *engines, "--tc", text])
        assert (args.tc.base, args.tc.increment) == (base, inc)
    with pytest.raises(HingeError, match=r"BASE\[\+INC\]"):
        parser.parse_args([command, *engines, "--tc", "2+"])


def test_color_means_ansi_colours_in_every_command_and_side_picks_yours_in_play(capsys):
    from hinge_fast.board import Color
    from hinge_fast.cli import build_parser

    parser = build_parser()
    for command in ("show", "replay", "play"):
        flags = ["x.hgn"] if command == "replay" else []
        assert parser.parse_args([command, *flags, "--color"]).color is True
        assert parser.parse_args([command, *flags, "--no-color"]).color is False
        assert parser.parse_args([command, *flags]).color is None  # a terminal decides
    assert parser.parse_args(["play", "--side", "blue"]).side == Color.BLUE
    with pytest.raises(HingeError, match="--side must be green or blue"):
        parser.parse_args(["play", "--side", "purple"])
    assert main(["show", "4/5/2g3/7/6/5/4 b", "--color"]) == 0
    assert "\x1b[" in capsys.readouterr().out
    assert main(["show", "4/5/2g3/7/6/5/4 b"]) == 0  # not a terminal
    assert "\x1b[" not in capsys.readouterr().out


def test_counts_shown_to_people_have_thousands_separators_and_the_right_plural(cli):
    run = cli("perft", "3")
    assert run.out == "181272\n"  # the total alone, for programs
    # The timing line is for scripts too (``perft D: N nodes in T s``): plain digits.
    assert re.search(r"^perft 3: 181272 nodes in [0-9.]+ s, [0-9]+ nodes/s$", run.err, re.M)
    assert cli("perft", "0").err.startswith("perft 0: 1 node (")
    run = cli("playouts", "2000", "--size", "4", "--threads", "1")
    assert run.out.startswith("games 2,000, seed 0, 1 thread\n")
    assert "playouts: 2,000 games in " in run.err
    run = cli("analyze", "--size", "4", "--engine", "mcts", "--nodes", "20000", "--seed", "1")
    assert ", 20,000 nodes in " in run.out
    assert re.search(r"  1\. \S+ +Green \d+% to win \(\d{1,3},\d{3} visits\)\n", run.out)
    run = cli(
        "tournament",
        "greedy",
        "random",
        "--rounds",
        "1",
        "--size",
        "4",
        "--seed",
        "1",
        "--openings",
        "2",
    )
    assert run.status == 0 and ": 2 games on side 4, 1 round, " in run.out
    assert "has 1 row;" in cli("moves", "4 g").err


def test_a_search_result_reads_with_its_side_and_unit():
    from hinge_fast import Board, search
    from hinge_fast.search import SearchResult
    from hinge_fast.search.score import Score

    result = search(Board.from_fen("4/1g3/1g4/1g3b1/1ggg2/5/4 b"), depth=3)
    text = str(result)
    assert (
        text.startswith("alphabeta depth 3: Blue wins in 3; 51 nodes in ")
        and " nodes/s); pv F5" in text
    )
    assert result.turn.name == "BLUE"
    bare = SearchResult(move=None, score=Score.centi(1234), nodes=12345, engine="x")
    assert str(bare).startswith("x depth 0: +12.34 tokens for the side to move; 12,345 nodes in ")


def test_json_and_svg_scores_name_their_side_and_unit(cli, tmp_path):
    import json

    position = "4/1g3/1g4/1g3b1/1ggg2/5/4 b"  # Blue to move wins in 3
    report = json.loads(cli("analyze", position, "--depth", "3", "--json").out)
    assert report["best"]["score_text"] == "Blue wins in 3"
    report = json.loads(cli("analyze", MID_GAME, "--depth", "2", "--json", "--top", "1").out)
    assert report["best"]["score_text"].startswith("Green +") and report["best"][
        "score_text"
    ].endswith(" tokens")
    svg = tmp_path / "a.svg"
    cli("analyze", MID_GAME, "--depth", "2", "--svg", svg)
    assert "best move: J6-I6xG6  Green +" in svg_text(
        svg.read_text()
    ) and "% to win (alphabeta)" in svg_text(svg.read_text())


def test_a_proof_s_length_is_a_bound_and_said_so(cli):
    run = cli("prove", "--size", "4", "--quiet", "--table-mb", "8")
    assert run.out == "Green wins in at most 19 plies (proven)\n"


def test_the_web_docs_state_the_mcts_tree_s_real_size():
    from pathlib import Path

    from hinge_fast.search.mcts import NODE_BYTES
    from hinge_fast.web.engine import TREE_NODES

    text = " ".join((Path(__file__).parent.parent / "docs" / "web.md").read_text().split())
    megabytes = round(NODE_BYTES * TREE_NODES / 1e6)
    assert f"{TREE_NODES:,} nodes ({megabytes} MB: `NODE_BYTES` a node" in text
    assert f"N x {megabytes} MB" in text


def test_the_python_docs_say_what_the_default_engine_is():
    import inspect
    from pathlib import Path

    from hinge_fast.search import search_position as search
    from hinge_fast.search.registry import DEFAULT_ENGINE

    assert inspect.signature(search).parameters["engine"].default is None
    text = " ".join((Path(__file__).parent.parent / "docs" / "python.md").read_text().split())
    assert "engine=None" in text and f'`DEFAULT_ENGINE` (`"{DEFAULT_ENGINE}"`)' in text
    assert 'engine="alphabeta", **options)' not in text


def test_the_cluster_docs_name_exactly_the_commands_that_take_ray():
    import re as regex
    from pathlib import Path

    from hinge_fast.cli import build_parser

    parser = build_parser()
    taking = {name for name, sub in parser.commands.items() if "--ray" in sub.long_options()}
    raw = (Path(__file__).parent.parent / "docs" / "cluster.md").read_text()
    text = " ".join(raw.split())
    listed = regex.search(r"The commands that take `--ray`: (.*?)\.", text).group(1)
    assert set(regex.findall(r"`([a-z-]+)`", listed)) == taking
    used = set(regex.findall(r"^\$ hinge-fast ([a-z-]+) .*--ray", raw, regex.MULTILINE))
    assert used and used <= taking
