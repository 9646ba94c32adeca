"""Who the local server lets in (hinge_fast/web/guard.py): this machine's host names,
no other site's Origin, the run's token, JSON bodies of bounded size. Each refusal is a
one-line error and changes nothing."""

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from hinge_fast.web import create_app  # noqa: E402
from hinge_fast.web.guard import MAX_BODY  # noqa: E402

TOKEN = "s3cret-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture()
def client():
    with TestClient(
        create_app(max_searches=1, token=TOKEN, hosts=("hinge.lan",)),
        base_url="http://localhost:8000",
    ) as c:
        yield c


def new_game(client, **headers) -> str:
    answer = client.post("/api/games", json={"size": 4}, headers={**AUTH, **headers})
    assert answer.status_code == 200, answer.text
    return answer.json()["id"]


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8000", "127.0.0.2", "localhost.evil.example"]
)
def test_a_foreign_host_gets_400(client, host):
    answer = client.get("/api/engines", headers={**AUTH, "Host": host})
    assert answer.status_code == 400 and "Host" in answer.json()["error"]


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1", "[::1]:8000", "hinge.lan:8000"])
def test_this_machines_names_and_the_allowed_ones_are_answered(client, host):
    assert client.get("/api/engines", headers={**AUTH, "Host": host}).status_code == 200


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "null", "http://localhost.evil.example:8000", "file://"]
)
def test_a_foreign_origin_cannot_change_anything(client, origin):
    before = len(client.app.state.store)
    answer = client.post("/api/games", json={"size": 4}, headers={**AUTH, "Origin": origin})
    assert answer.status_code == 403 and "other sites" in answer.json()["error"]
    assert len(client.app.state.store) == before


def test_the_pages_own_origin_is_fine(client):
    new_game(client, Origin="http://localhost:8000")


def test_no_token_gets_403_and_each_way_of_giving_it_works(client):
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"X-Hinge-Token": "wrong"}):
        answer = client.get("/api/engines", headers=headers)
        assert answer.status_code == 403 and "token" in answer.json()["error"]
    assert client.get("/", headers={}).status_code == 403
    assert client.get("/api/engines", headers={"X-Hinge-Token": TOKEN}).status_code == 200
    assert client.get("/api/engines", headers=AUTH).status_code == 200
    # the page opened with ?token= sets a SameSite=Strict cookie the page's requests carry
    page = client.get(f"/?token={TOKEN}")
    assert page.status_code == 200
    cookie = page.headers["set-cookie"]
    assert "hinge_fast_token=" in cookie and "SameSite=Strict" in cookie and "HttpOnly" in cookie
    assert client.get("/api/engines").status_code == 200  # the client kept the cookie


def test_the_rules_and_static_files_need_no_token(client):
    assert client.get("/rules").status_code == 200


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"],
)
def test_a_body_that_is_not_json_gets_415(client, content_type):
    before = len(client.app.state.store)
    answer = client.post(
        "/api/games", content=b'{"size": 4}', headers={**AUTH, "Content-Type": content_type}
    )
    assert answer.status_code == 415
    assert len(client.app.state.store) == before


def test_a_body_over_the_limit_gets_413_declared_or_chunked(client):
    game = new_game(client)
    big = b'{"record": "' + b"x" * (1 << 20) + b'"}'
    answer = client.post(
        f"/api/games/{game}/record",
        content=big,
        headers={**AUTH, "Content-Type": "application/json"},
    )
    assert answer.status_code == 413 and f"{MAX_BODY:,}" in answer.json()["error"]

    def chunks():
        for _ in range(64):
            yield b" " * 16384
        yield big

    answer = client.post(
        f"/api/games/{game}/record",
        content=chunks(),
        headers={**AUTH, "Content-Type": "application/json"},
    )
    assert answer.status_code == 413
    assert client.get(f"/api/games/{game}", headers=AUTH).json()["ply"] == 0


def test_a_body_under_the_limit_goes_through(client):
    game = new_game(client)
    answer = client.post(f"/api/games/{game}/moves", json={"move": "D4"}, headers=AUTH)
    assert answer.status_code == 200 and answer.json()["moves"] == ["D4"]
    # POSTs without a body need no content type
    assert client.post(f"/api/games/{game}/undo", headers=AUTH).json()["moves"] == []
