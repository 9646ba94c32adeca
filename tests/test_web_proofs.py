"""The web app's prover and puzzles, through FastAPI's test client: ``/prove`` within a
node budget the server bounds, the analysis's ``proof`` event, ``/api/puzzles``; bad
budgets answered 4xx with the project's message."""

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from hinge_fast import Board  # noqa: E402
from hinge_fast.errors import HingeError  # noqa: E402
from hinge_fast.solving.puzzles import load_puzzles  # noqa: E402
from hinge_fast.web import create_app  # noqa: E402
from tests.conftest import LOCAL, events, new_game  # noqa: E402
from tests.test_web_api import MIDGAME  # noqa: E402

#: Green to move wins in 3 plies (docs/solve.md), only by C2-C2xD2.
GREEN_WINS_IN_3 = "4/1bgg1/2bbb1/2bgg2/1ggb2/2gb1/4 g"


def new_game_id(client, **body):
    return new_game(client, **body)["id"]


def test_prove_answers_the_winner_its_distance_and_winning_moves(client):
    gid = new_game_id(client, position=GREEN_WINS_IN_3)
    answer = client.post(f"/api/games/{gid}/prove", json={"nodes": 1000})
    assert answer.status_code == 200, answer.text
    proof = answer.json()
    assert proof["winner"] == "green" and proof["distance"] == 3
    assert proof["text"] == "Green wins, proven within 3 moves" and proof["moves"] == ["C2-C2xD2"]
    assert 0 < proof["nodes"] <= 1000
    # not proven within a tiny budget: no winner, said so
    gid = new_game_id(client, position=MIDGAME)
    proof = client.post(f"/api/games/{gid}/prove", json={"nodes": 10}).json()
    assert (
        proof["winner"] is None
        and proof["text"] == "not proven within the limits"
        and proof["moves"] == []
    )


def test_prove_refuses_a_bad_budget_or_a_finished_game(client):
    gid = new_game_id(client, position=GREEN_WINS_IN_3)
    for body, status, text in (
        ({"nodes": 0}, 400, "the prover's nodes must be from 1 to 100,000, not 0"),
        ({"nodes": 10**9}, 400, "the prover's nodes must be from 1"),
        ({"nodes": "5"}, 422, "nodes"),
        ({"nodes": True}, 422, "nodes"),
    ):
        answer = client.post(f"/api/games/{gid}/prove", json=body)
        assert answer.status_code == status and text in answer.json()["error"], answer.text
    over = new_game_id(
        client, position="6/7/8/9/10/11/10/9/8/2bb3/6 g"
    )  # Green has no tokens: over
    answer = client.post(f"/api/games/{over}/prove", json={})
    assert (
        answer.status_code == 400 and answer.json()["error"] == "nothing to prove: the game is over"
    )
    assert client.post("/api/games/nosuchgame/prove", json={}).status_code == 404


def test_the_servers_budget_bounds_every_proof():
    with TestClient(create_app(max_prove_nodes=500), base_url=LOCAL) as client:
        assert client.get("/api/engines").json()["max_prove_nodes"] == 500
        gid = new_game_id(client, position=GREEN_WINS_IN_3)
        assert client.post(f"/api/games/{gid}/prove", json={"nodes": 501}).status_code == 400
        analysis = client.post(f"/api/games/{gid}/analysis", json={"time": 0.1, "prove": 501})
        assert analysis.status_code == 400 and "from 1 to 500" in analysis.json()["error"]
        assert client.get(f"/api/games/{gid}").json()["searching"] is False
    with pytest.raises(HingeError, match="the prover's nodes must be from 1"):
        create_app(max_prove_nodes=0)


def test_an_analysis_with_a_budget_streams_the_proof_before_it_ends(client):
    gid = new_game_id(client, position=GREEN_WINS_IN_3)
    with client.stream(
        "POST", f"/api/games/{gid}/analysis", json={"time": 0.2, "prove": 1000}
    ) as response:
        assert response.status_code == 200
        got = list(events(response))
    names = [name for name, _ in got]
    assert names[0] == "start" and names[-1] == "done" and names.count("proof") == 1
    proof = dict(got)["proof"]
    assert proof["winner"] == "green" and proof["text"] == "Green wins, proven within 3 moves"
    # without a budget, no proof
    with client.stream("POST", f"/api/games/{gid}/analysis", json={"time": 0.1}) as response:
        assert "proof" not in [name for name, _ in events(response)]


def test_the_puzzles_are_listed_with_their_positions(client):
    listed = client.get("/api/puzzles").json()
    shipped = load_puzzles()
    assert [p["position"] for p in listed] == [p.position for p in shipped]
    assert [p["number"] for p in listed] == list(range(1, len(shipped) + 1))
    first = listed[0]
    assert (
        str(Board.from_fen(first["position"]).turn) == first["winner"]
        and first["size"] == shipped[0].size
    )
    # a puzzle is played as a game from its position; its winning move keeps the win proven
    gid = new_game_id(client, size=first["size"], position=first["position"])
    client.post(f"/api/games/{gid}/moves", json={"move": first["moves"][0]})
    proof = client.post(f"/api/games/{gid}/prove", json={"nodes": 100_000}).json()
    assert proof["winner"] == first["winner"]


def test_a_stopped_analysis_ends_at_once_and_stops_its_proof(client):
    gid = new_game_id(client, size=9)  # the empty side-9 board: far from proven within the budget
    with client.stream(
        "POST", f"/api/games/{gid}/analysis", json={"time": 60, "prove": 100_000}
    ) as response:
        stream = events(response)
        assert next(stream)[0] == "start"  # the proof runs first, then the search
        client.post(f"/api/games/{gid}/stop")
        rest = list(stream)
    done = rest[-1][1]
    assert rest[-1][0] == "done" and done["stopped"] is True and done["seconds"] < 60
    # the stream did not wait for the prover to spend its budget (seconds on side 9)
    assert all(
        data["winner"] is None and data["nodes"] < 100_000 for name, data in rest if name == "proof"
    )
