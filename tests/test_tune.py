"""hinge-fast tune: SPSA over engine options, on tiny budgets."""

import pytest

from hinge_fast.cli import main
from hinge_fast.errors import HingeError
from hinge_fast.games.tune import TuneSettings, parse_param, spsa


def test_parse_param_reads_start_range_and_step():
    p = parse_param("mcts", "exploration=0.4,0.1,1.0")
    assert (p.name, p.type, p.start, p.low, p.high) == ("exploration", "float", 0.4, 0.1, 1.0)
    assert p.c_end == pytest.approx(0.045)
    assert parse_param("mcts", "tree_nodes=6000,2000,10000,500").type == "int"


@pytest.mark.parametrize(
    "text, message",
    [
        ("bogus=1,0,2", "unknown option 'bogus'"),
        ("seed=1,0,3", "not a number that can be tuned"),
        ("prior_weight=1,0,200", "leaves the option's bounds"),
        ("prior_weight=3,0,2", "start 3 is outside"),
        ("prior_weight=1,2,0", "must be below high"),
        ("prior_weight=1,0,2,-1", "step must be more than 0"),
        ("prior_weight=1,0", "needs START,LOW,HIGH"),
        ("prior_weight=a,0,2", "must be a number"),
        ("prior_weight", "NAME=START,LOW,HIGH"),
    ],
)
def test_bad_parameters_are_errors(text, message):
    with pytest.raises(HingeError, match=message):
        parse_param("mcts", text)


def test_spsa_is_reproducible_and_stays_in_bounds():
    params = [
        parse_param("mcts", "exploration=0.4,0.1,1.0", r_end=2.0),
        parse_param("mcts", "prior_weight=1,0.5,1.5", r_end=2.0),
    ]
    runs = [
        spsa("mcts", params, 3, TuneSettings(games=2, nodes=40, size=5, seed=3)) for _ in range(2)
    ]
    assert [s.values for s in runs[0].steps] == [s.values for s in runs[1].steps]
    assert [(s.wins, s.losses) for s in runs[0].steps] == [
        (s.wins, s.losses) for s in runs[1].steps
    ]
    for step in runs[0].steps:
        assert (
            0.1 <= step.values["exploration"] <= 1.0 and 0.5 <= step.values["prior_weight"] <= 1.5
        )
        # The two sides are the start nudged in opposite directions.
        assert (step.plus["prior_weight"] - step.minus["prior_weight"]) * step.delta[
            "prior_weight"
        ] > 0
    # A decided iteration moves the parameters; an even one leaves them.
    theta = {"exploration": 0.4, "prior_weight": 1.0}
    for step in runs[0].steps:
        moved = step.values != theta
        assert moved == (step.wins != step.losses)
        theta = step.values
    assert runs[0].spec.startswith("mcts:exploration=")


def test_spsa_refuses_bad_settings():
    p = parse_param("mcts", "prior_weight=1,0,2")
    with pytest.raises(HingeError, match="iterations"):
        spsa("mcts", [p], 0, TuneSettings(nodes=10))
    with pytest.raises(HingeError, match="twice"):
        spsa("mcts", [p, p], 1, TuneSettings(nodes=10))
    with pytest.raises(HingeError, match="both fixed and tuned"):
        spsa("mcts", [p], 1, TuneSettings(nodes=10, options={"prior_weight": 1.0}))
    with pytest.raises(HingeError, match="at least one"):
        spsa("mcts", [], 1, TuneSettings(nodes=10))


def test_tune_command_prints_the_path_and_final_values(capsys):
    assert (
        main(
            [
                "tune",
                "mcts",
                "-p",
                "exploration=0.4,0.1,1.0",
                "--iterations",
                "2",
                "--nodes",
                "30",
                "--size",
                "5",
                "--seed",
                "1",
                "--learning-rate",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(
        "tune mcts: 2 iterations of 2 games on side 5, 30 nodes per move, seed 1"
    )
    assert [line.split(":")[0] for line in out[1:3]] == ["iter 1/2", "iter 2/2"]
    assert out[3].startswith("final: exploration=") and out[4].startswith(
        "as a player: mcts:exploration="
    )


@pytest.mark.parametrize(
    "argv, message",
    [
        (["tune", "mcts"], "at least one --param"),
        (["tune", "nosuch", "-p", "prior_weight=1,0,2"], "unknown engine"),
        (
            ["tune", "mcts", "-p", "prior_weight=1,0,2", "-o", "prior_weight=1"],
            "both fixed and tuned",
        ),
        (["tune", "mcts", "-p", "prior_weight=1,0,2", "--learning-rate", "-1"], "learning rate"),
    ],
)
def test_tune_command_errors(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err
