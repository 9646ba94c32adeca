"""scripts/strength_curve.py: a point played, resumed and drawn; its mistakes."""

from __future__ import annotations

import json

import pytest

from scripts import run_script
from scripts.strength_curve import main, read_folder


def test_a_point_is_played_resumed_and_drawn(tmp_path, capsys):
    folder = tmp_path / "curve"
    argv = [
        "run",
        str(folder),
        "--times",
        "0.01",
        "--threads",
        "1",
        "--games",
        "2",
        "--reference",
        "random",
        "--reference-time",
        "0.01",
        "--seed",
        "3",
    ]
    assert main(argv) == 0
    records = folder / "time-0.01-threads-1.hgn"
    summary = json.loads((folder / "time-0.01-threads-1.json").read_text())
    assert (
        summary["games"] == 2
        and summary["player_a"] == "alphabeta:threads=1"
        and summary["player_b"] == "random"
    )
    played = records.read_text()
    assert played.count('[Limit "time 0.01"]') == 2
    # run again: the point is done, nothing is played and the file is left as it was
    capsys.readouterr()
    assert main(argv) == 0
    assert "resuming: 2 games already in" in capsys.readouterr().out
    assert records.read_text() == played

    png = tmp_path / "curve.png"
    assert main(["plot", str(folder), "--png", str(png)]) == 0
    out = capsys.readouterr().out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = [line for line in out.splitlines() if line.startswith("| 0.01 s |")]
    assert len(rows) == 1 and rows[0].startswith(
        f"| 0.01 s | 1 | 2 | {100 * summary['score']:.1f}% |"
    )
    assert "alphabeta against random at 0.01 s a move, side 6" in out
    [point] = read_folder(folder)
    assert (point.time, point.threads, point.figures["ptnml"]) == (0.01, 1, summary["ptnml"])


def status(argv) -> int:
    """The exit status of the script run with ``argv``, as ``python -m`` runs it."""
    with pytest.raises(SystemExit) as exit:
        run_script(lambda: main(argv))
    return exit.value.code


@pytest.mark.parametrize(
    "argv, message",
    [
        (["plot", "no/such/folder"], "error: no folder no/such/folder"),
        (
            ["run", "{tmp}", "--times", "0.1", "x"],
            "error: argument --times: --times takes positive numbers, not 'x'",
        ),
        (
            ["run", "{tmp}", "--times", "0.1", "0.2", "--threads", "1", "--games", "2", "4", "6"],
            "error: --games takes one count, or one per point (2: 0.1 s x1, 0.2 s x1), not 3",
        ),
        (
            ["run", "{tmp}", "--threads", "0"],
            "error: argument --threads: --threads takes positive numbers, not '0'",
        ),
        (["plot", "{tmp}"], "error: {tmp} holds no point of a strength curve"),
    ],
)
def test_mistakes_are_one_line_and_exit_2(tmp_path, capsys, argv, message):
    assert status([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message.replace("{tmp}", str(tmp_path))) and err.count("\n") == 1


def test_a_file_of_another_match_is_refused(tmp_path, capsys):
    (tmp_path / "time-0.2-threads-1.hgn").write_text(
        '[Round "1"]\n[PlayerA "greedy"]\n[PlayerB "random"]\n[Limit "nodes 5"]\n\n1. F6 unfinished\n'
    )
    assert status(["plot", str(tmp_path)]) == 2
    assert "is not a point of a strength curve" in capsys.readouterr().err


def test_a_point_begun_without_a_game_is_left_out(tmp_path, capsys):
    (tmp_path / "time-0.2-threads-1.hgn").write_text("")
    assert status(["plot", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith(
        f"error: {tmp_path} holds no point of a strength curve"
    )
