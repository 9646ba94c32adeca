"""``hinge-fast analyze`` and hinge_fast.analysis.position: threats, eliminations, search report, JSON, SVG;
and ``hinge-fast replay``."""

import json
import random

import pytest

from hinge_fast import Board, Color
from hinge_fast.analysis.position import analyze, eliminations, threats
from hinge_fast.cli import main
from hinge_fast.games.positions import random_position
from hinge_fast.records.record import GameRecord, write_records
from tests.conftest import MID_GAME_BUSY

# Green E6 F6 against a lone Blue F5 (and Blue C2 far away): Green can flip F5 now.
SIMPLE = "6/7/8/9/10/4gg5/5b4/9/8/2b4/6 g"
# Blue to move with no token left: eliminated, the game is over.
FINISHED = "6/7/8/9/10/4gg5/10/9/8/7/6 b"
# Green can flip Blue's only group, F5: elimination.
ELIMINATE = "6/7/8/9/10/4gg5/5b4/9/8/7/6 g"

TOP_KEYS = {
    "position",
    "size",
    "turn",
    "tokens",
    "groups",
    "outcome",
    "legal_moves",
    "evaluation",
    "engine",
    "time",
    "nodes",
    "depth",
    "tablebase",
    "best",
    "top",
    "pv",
    "threats",
    "eliminations",
}


def expected_threats(board):
    """{(owner, group cells): sorted moves} from legal_moves and groups alone."""
    out = {}
    for b in (
        board,
        Board.from_fen(board.fen()[:-1] + ("b" if board.turn == Color.GREEN else "g")),
    ):
        groups = b.groups(b.turn.other)
        for move in b.legal_moves:
            if move.is_swipe:
                group = next(g for g in groups if move.target in g)
                out.setdefault((str(b.turn.other), tuple(group)), []).append(str(move))
    return {k: sorted(v) for k, v in out.items()}


@pytest.mark.parametrize("seed", range(4))
def test_threats_match_legal_moves_of_both_sides(seed):
    board = random_position(5, 14 + seed, seed)
    found = {(t.side, tuple(t.group)): sorted(t.moves) for t in threats(board)}
    assert found == expected_threats(board)
    for t in threats(board):
        assert t.to_move == (t.attacker == str(board.turn))


def test_simple_threat_and_elimination():
    board = Board.from_fen(SIMPLE)
    [threat] = [t for t in threats(board) if t.to_move]
    assert threat.side == "blue" and threat.group == ["F5"] and threat.attacker == "green"
    assert eliminations(board) == []
    board = Board.from_fen(ELIMINATE)
    found = eliminations(board)
    assert found and all(e.side == "green" and e.to_move for e in found)
    assert {e.move for e in found} == {str(m) for m in board.legal_moves if m.is_swipe}


def test_analyze_with_mcts_reports_search_and_schema():
    report = analyze(
        Board.from_fen(MID_GAME_BUSY), engine="mcts", nodes=300, seed=1, top=3, time=None
    )
    d = report.to_dict()
    assert set(d) == TOP_KEYS
    assert d["turn"] == "green" and d["size"] == 6
    assert d["tokens"] == {"green": 15, "blue": 14}
    assert d["groups"] == {"green": 4, "blue": 5}
    assert d["outcome"] is None and d["engine"] == "mcts" and d["nodes"] == 300
    assert len(d["top"]) == 3 and d["best"]["move"] == d["top"][0]["move"] == d["pv"][0]
    assert set(d["top"][0]) == {
        "move",
        "score",
        "score_text",
        "mate",
        "win_rate",
        "visits",
        "depth",
        "win_chance",
        "green_text",
        "pv",
    }
    # MCTS's lines: the most visited first, each its win rate, with its most visited line
    assert [t["visits"] for t in d["top"]] == sorted((t["visits"] for t in d["top"]), reverse=True)
    assert all(
        t["win_chance"] == round(t["win_rate"], 4) and t["pv"][0] == t["move"] for t in d["top"]
    )
    assert d["best"]["move"] in {str(m) for m in Board.from_fen(MID_GAME_BUSY).legal_moves}
    assert {(t["side"], tuple(t["group"])) for t in d["threats"]} == set(
        expected_threats(Board.from_fen(MID_GAME_BUSY))
    )
    text = report.to_text()
    assert "best: " in text and "principal variation:" in text and "threats against green" in text


def test_finished_game_reports_outcome_without_search(capsys):
    report = analyze(Board.from_fen(FINISHED), engine="alphabeta").to_dict()
    assert report["outcome"] == {"winner": "green", "reason": "elimination"}
    assert report["best"] is None and report["engine"] is None and report["top"] == []
    assert report["nodes"] is None
    # The command, as every command that searches: an error naming the winner.
    for flags in ([], ["--json"]):
        assert main(["analyze", FINISHED, *flags]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err == "error: the game is over: green wins by elimination\n"


def test_cli_text_json_and_svg(capsys, tmp_path):
    svg = tmp_path / "a.svg"
    args = ["analyze", SIMPLE, "--engine", "mcts", "--nodes", "200", "--seed", "2", "--top", "2"]
    assert main([*args, "--svg", str(svg)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"position: {SIMPLE}\n")
    assert "green 2 tokens in 1 group, blue 2 tokens in 2 groups" in out
    assert "  blue F5 (1):" in out
    picture = svg.read_text()
    assert 'class="arrow"' in picture and 'class="outline"' in picture
    assert main([*args, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert len(d["top"]) == 2 and d["threats"][0]["group"] == ["F5"]


def test_analyze_with_alphabeta(capsys):
    assert main(["analyze", ELIMINATE, "--depth", "2", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["engine"] == "alphabeta" and d["best"]["mate"] is not None and d["best"]["mate"] > 0
    assert d["best"]["move"] in {e["move"] for e in d["eliminations"]}
    assert d["top"][0]["score_text"].startswith("Green wins in ")


@pytest.mark.parametrize(
    "args, message",
    [
        (["analyze", "6/7 g"], "position string has 2 rows"),
        (["analyze", "--top", "0"], "K must be from 1"),
        (["analyze", "--top", "1001"], "K must be from 1"),
        (["analyze", "-o", "multipv=0", "--depth", "1"], "multipv must be from 1"),
        (["analyze", "--engine", "nope"], "invalid choice"),
        (["analyze", "--time", "-1"], "time must be more than 0"),
        (["analyze", "--time", "abc"], "time must be a number"),
        (
            ["replay", "/nonexistent/games.hgn"],
            "game record file /nonexistent/games.hgn does not exist",
        ),
    ],
)
def test_bad_input_is_one_error_line(capsys, args, message):
    assert main(args) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert "Traceback" not in err


# ----- replay ----------------------------------------------------------------------------------
@pytest.fixture
def games_file(tmp_path):
    rng = random.Random(4)
    records = []
    for _ in range(2):
        board = random_position(4, 1000, rng)
        records.append(GameRecord.from_board(board, Green="random", Blue="random"))
    path = tmp_path / "games.hgn"
    write_records(path, records)
    return path, records


def test_replay_end_and_ply(capsys, games_file, tmp_path):
    path, records = games_file
    assert main(["replay", str(path), "--game", "2"]) == 0
    out = capsys.readouterr().out
    final = records[1].board_at()
    assert f"game 2 of 2 in {path}" in out
    assert final.fen() in out and f"game over: {final.outcome()}" in out
    assert f"result: {final.outcome().winner} ({final.outcome().reason})" in out
    svg = tmp_path / "ply2.svg"
    assert main(["replay", str(path), "--ply", "2", "--svg", str(svg)]) == 0
    out = capsys.readouterr().out
    assert f"position after ply 2 of {len(records[0].moves)} (1... {records[0].moves[1]}):" in out
    assert records[0].board_at(2).fen() in out
    assert svg.read_text().startswith("<svg")
    assert main(["replay", str(path), "--ply", "0"]) == 0
    assert "position at the start" in capsys.readouterr().out


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--game", "3"], "holds 2 games"),
        (["--ply", "999"], "has"),
        (["--game", "0"], "N must be from 1"),
    ],
)
def test_replay_bad_input(capsys, games_file, extra, message):
    path, _ = games_file
    assert main(["replay", str(path), *extra]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_replay_reports_a_bad_record(capsys, tmp_path):
    path = tmp_path / "bad.hgn"
    path.write_text('[Size "6"]\n\n1. F6 F6 unfinished\n')
    assert main(["replay", str(path)]) == 2
    assert (
        capsys.readouterr().err.strip()
        == "error: game 1: ply 2 (1... F6): illegal move F6: F6 is occupied"
    )


def test_scores_from_an_unfinished_depth_are_ranked_apart_and_marked():
    """After an unfinished depth 5, one move carries a depth-5 score
    and the others depth-4 scores; the depth-4 ones are never ranked among the depth-5
    ones by score, and are marked."""
    from hinge_fast.analysis.position import Analysis, ranked_root_moves
    from hinge_fast.search import RootMove, Score, SearchResult

    board = Board.from_fen("6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g")
    best, second, third = (
        board.parse_move(m) for m in ("J6-I6xG6", "G5-G4xF3", board.legal_moves[0].__str__())
    )
    result = SearchResult(
        move=best,
        score=Score.centi(144),
        pv=[best],
        nodes=10,
        depth=5,
        engine="alphabeta",
        root_moves=[
            RootMove(third, None, 1, 0),
            RootMove(second, Score.centi(378), 5, 4),
            RootMove(best, Score.centi(144), 5, 5),
        ],
    )
    assert [rm.move for rm in ranked_root_moves(result)] == [best, second, third]
    report = Analysis(board=board, result=result, engine="alphabeta", top=3)
    text = report.to_text()
    assert "  1. J6-I6xG6  Green +1.44 tokens, 52% to win\n" in text
    assert "  2. G5-G4xF3  Green +3.78 tokens, 55% to win (depth 4)\n" in text
    top = report.to_dict()["top"]
    assert [(m["move"], m["depth"], m["score_text"]) for m in top[:2]] == [
        ("J6-I6xG6", 5, "Green +1.44 tokens"),
        ("G5-G4xF3", 4, "Green +3.78 tokens (depth 4)"),
    ]


def test_alpha_beta_top_moves_are_multipv_lines_of_one_depth():
    """Under a time limit every listed move has an exact score of the reported depth, each
    with its own line; the text says so; more lines than moves lists every move."""
    board = Board.from_fen(MID_GAME_BUSY)
    report = analyze(board, engine="alphabeta", time=0.5, top=4, threads=1)
    d = report.to_dict()
    assert len(d["top"]) == 4 and all(
        t["depth"] == d["depth"] and t["score"] is not None for t in d["top"]
    )
    assert [t["score"] for t in d["top"]] == sorted((t["score"] for t in d["top"]), reverse=True)
    assert all(t["pv"][0] == t["move"] for t in d["top"]) and d["top"][0]["pv"] == d["pv"]
    assert all(0 < t["win_chance"] < 1 and t["green_text"].endswith("% to win") for t in d["top"])
    assert f"top moves (each line searched to depth {d['depth']}):" in report.to_text()
    assert "not fully searched" not in report.to_text()
    small = Board.from_fen("4/1g3/1g4/1g3b1/1ggg2/5/4 b")
    everything = analyze(
        small, engine="alphabeta", depth=2, top=1000, threads=1, tablebase="off"
    ).to_dict()
    assert len(everything["top"]) == len(small.legal_moves) and all(
        t["depth"] for t in everything["top"]
    )


def test_a_forced_elimination_reads_as_a_win_in_n_plies():
    """Blue to move eliminates Green in 3 plies whatever Green does: from Green's side the
    text says Blue wins in 3, the JSON gives the plies and a chance of 1."""
    board = Board.from_fen("4/1g3/1g4/1g3b1/1ggg2/5/4 b")
    report = analyze(board, engine="alphabeta", depth=4, top=2, threads=1, tablebase="off")
    d = report.to_dict()
    assert (
        d["best"]["mate"] == 3
        and d["best"]["green_text"] == "Blue wins in 3"
        and d["best"]["win_chance"] == 1.0
    )
    assert d["top"][0]["green_text"] == "Blue wins in 3" and len(d["top"][0]["pv"]) == 3
    assert f"best: {d['best']['move']}, Blue wins in 3 (alphabeta, depth" in report.to_text()
