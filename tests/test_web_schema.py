"""The web API against its own OpenAPI schema, by schemathesis: requests generated from
the schema (valid and invalid bodies, paths and methods) never get a 5xx answer, and
every answer matches the status codes, content types and bodies the schema documents.

Two runs. Each operation alone (the search streams left out: there a generated request
would search for up to the server's limit). And stateful: sequences that follow the
schema's links (a new game's id to every route of that game, a game's first legal move
to playing it), so that games are made, played, taken back, loaded, analysed, moved by
the engine and stopped, on an app whose searches last at most ``SEARCH_SECONDS`` and
whose proofs take at most ``PROVE_NODES`` nodes: a
generated search time up to the app's usual limit (120 s), or the default (1 s) when none
is given, is scaled into that one, so that such requests search rather than being refused.

Two of schemathesis's checks do not apply to a game: "valid data must be accepted" (a
move can match the schema and still be illegal: 400) and "an undocumented method gets
405" (schemathesis counts a 404 for an unknown game as wrong there)."""

from __future__ import annotations

import collections

import pytest

pytest.importorskip("schemathesis")

import schemathesis  # noqa: E402
from hypothesis import HealthCheck, Phase, seed, settings  # noqa: E402
from hypothesis.errors import FlakyReplay, FlakyStrategyDefinition  # noqa: E402
from hypothesis.stateful import get_state_machine_test  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance, unsupported_method  # noqa: E402

from hinge_fast.web import create_app  # noqa: E402

#: The longest search of the stateful run's app, seconds.
SEARCH_SECONDS = 0.05
#: The most nodes a proof may take in both runs' apps (a generated budget above it is
#: refused with 400), so that no request proves for long.
PROVE_NODES = 1000
#: Requests of the stateful run in the default suite, and in the slow one (``--run-slow``).
DEFAULT_REQUESTS = 2000
SLOW_REQUESTS = 10000
EXCLUDED = [positive_data_acceptance, unsupported_method]

#: schemathesis calls the app as ``testserver``.


def load(app):
    """The app's schema, as schemathesis tests it. A body too big for the server is
    refused with 413 before it is read: a rejection too (a text at its length bound,
    written in escapes, can be that big)."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    rejection = schema.config.checks.negative_data_rejection
    rejection.expected_statuses = [*rejection.expected_statuses, "413"]
    return schema


APP = create_app(max_searches=2, hosts=("testserver",), max_prove_nodes=PROVE_NODES)
SCHEMA = load(APP).exclude(path_regex="analysis|engine-move")


@SCHEMA.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_answer_matches_the_schema_and_none_is_a_server_error(case):
    case.call_and_validate(excluded_checks=EXCLUDED)


def warm_up_searches() -> None:
    """Load each engine's kernels for every side before the run (a search on a cold
    kernel cache waits for numba, far beyond any search time)."""
    from hinge_fast import Board
    from hinge_fast.web.engine import ENGINE_NAMES, RunningSearch, SearchRequest

    for size in range(4, 10):
        for name in ENGINE_NAMES:
            for lines in (1, 3):
                RunningSearch(SearchRequest(name, 0.01, lines)).run(Board(size))


#: The operations a run must see answered 200 at least once: games made, legal moves
#: played, analysed, moved by the engine and stopped.
MUST_SUCCEED = (
    "POST /api/games",
    "POST /api/games/{game_id}/moves",
    "POST /api/games/{game_id}/analysis",
    "POST /api/games/{game_id}/engine-move",
    "POST /api/games/{game_id}/stop",
)
#: The most rounds a run may take to reach its requests and every operation above.
MAX_ROUNDS = 60


def missing(answers: collections.Counter) -> list[str]:
    """The operations of ``MUST_SUCCEED`` not yet answered 200."""
    ok = {operation for (operation, status) in answers if status == 200}
    return [operation for operation in MUST_SUCCEED if operation not in ok]


def stateful_run(scenarios: int, steps: int, requests: int) -> collections.Counter:
    """Generated sequences of at most ``steps`` requests, ``scenarios`` at a time, against
    a fresh app until ``requests`` requests were made and every operation of
    ``MUST_SUCCEED`` was answered 200 (most generated bodies are refused, so a rare
    operation can need more rounds); the answers by (operation, status). Fails on any
    answer that is a server error or does not match the schema.

    Each round has its own seed (round 1, 2, ...), so that rounds differ and a run is
    the same on every machine: under a CI profile hypothesis would otherwise draw every
    round alike. The answers (game ids, the engine's moves) differ from run to run, so hypothesis
    cannot replay a sequence: it runs them once each (no shrinking), and when it notices
    that a sequence drew differently than an earlier one it stops that round
    (FlakyStrategyDefinition, FlakyReplay), as schemathesis's own runner does; the next
    round goes on. Failures are collected as they are met, so none is lost with a round;
    any other error, hypothesis's FlakyFailure (a failure that did not happen again)
    included, fails the test."""
    warm_up_searches()
    app = create_app(
        max_searches=2,
        hosts=("testserver",),
        max_seconds=SEARCH_SECONDS,
        max_prove_nodes=PROVE_NODES,
    )
    schema = load(app)
    schema.config.phases.stateful.inference.algorithms = []  # the schema's own links, none guessed
    answers: collections.Counter = collections.Counter()
    failures: list[str] = []

    class Machine(schema.as_state_machine()):
        def get_call_kwargs(self, case):
            # every stream read to its end, however long a loaded machine takes: a stream
            # cut short would leave its search running while the next request starts one
            return {"timeout": 300}

        def call(self, case, **kwargs):
            body = case.body
            if case.path.endswith(("/analysis", "/engine-move")) and isinstance(body, dict):
                seconds = body.get("time", 1.0)
                if type(seconds) in (int, float) and SEARCH_SECONDS < seconds <= 120:
                    body["time"] = (
                        SEARCH_SECONDS * seconds / 120
                    )  # within this app's limit: a search that runs
            response = super().call(case, **kwargs)
            answers[(f"{case.method} {case.path}", response.status_code)] += 1
            return response

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            where = f"{case.method} {case.formatted_path} {case.body!r:.200}"
            if response.status_code >= 500:
                failures.append(f"{where}: {response.status_code} {response.text[:300]}")
            try:
                case.validate_response(
                    response,
                    additional_checks=additional_checks,
                    excluded_checks=EXCLUDED,
                    transport_kwargs=kwargs or None,
                    recorder=self.recorder,
                )
            except Exception as e:
                failures.append(f"{where}: {e}")
                raise

    rounds = 0
    while (
        (sum(answers.values()) < requests or missing(answers))
        and not failures
        and rounds < MAX_ROUNDS
    ):
        rounds += 1
        run = get_state_machine_test(
            Machine,
            _min_steps=2,
            settings=settings(
                max_examples=scenarios,
                stateful_step_count=steps,
                deadline=None,
                database=None,
                phases=[Phase.generate],
                suppress_health_check=list(HealthCheck),
            ),
        )
        try:
            seed(rounds)(run)()
        except (FlakyStrategyDefinition, FlakyReplay):
            pass  # the sequence drew differently: the round ends, its failures are kept
    assert not failures, "\n".join(failures[:5])
    pool = app.state.pool
    pool.stop_all()
    assert pool.wait_idle(30), "a search slot was never given back"
    return answers


def report(answers: collections.Counter) -> None:
    """The run's figures, shown with ``pytest -s``."""
    statuses = collections.Counter()
    for (_, status), n in answers.items():
        statuses[status] += n
    errors = sum(n for status, n in statuses.items() if status >= 500)
    print(
        f"stateful run: {sum(answers.values())} requests, {errors} server errors; by status: "
        + ", ".join(f"{status} {n}" for status, n in sorted(statuses.items()))
    )


def check_coverage(answers: collections.Counter, requests: int) -> None:
    """The run made its requests and reached the game: every operation of
    ``MUST_SUCCEED`` answered 200 at least once."""
    assert sum(answers.values()) >= requests, (
        f"only {sum(answers.values())} requests in {MAX_ROUNDS} rounds"
    )
    assert not missing(answers), (missing(answers), sorted(answers.items()))


def test_stateful_sequences_get_no_server_error_and_match_the_schema():
    answers = stateful_run(scenarios=25, steps=12, requests=DEFAULT_REQUESTS)
    report(answers)
    check_coverage(answers, DEFAULT_REQUESTS)


@pytest.mark.slow
def test_stateful_sequences_thousands_of_requests():
    answers = stateful_run(scenarios=200, steps=20, requests=SLOW_REQUESTS)
    report(answers)
    check_coverage(answers, SLOW_REQUESTS)
