"""The web API against its own OpenAPI schema, by schemathesis: requests generated from
the schema (valid and invalid bodies, paths and methods) never get a 5xx answer, and
every answer matches the status codes, content types and bodies the schema documents.

The two search streams are left out (a generated request would start searches of up to
two minutes); tests/test_web_api.py drives them. Two of schemathesis's checks do not
apply to a game: "valid data must be accepted" (a move can match the schema and still
be illegal: 400) and the exact ``Allow`` list of a 405."""

import pytest

pytest.importorskip("schemathesis")

import schemathesis  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance, unsupported_method  # noqa: E402

from hinge_fast.web import create_app  # noqa: E402

#: schemathesis calls the app as ``testserver``.
APP = create_app(max_searches=2, hosts=("testserver",))
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP).exclude(path_regex="analysis|engine-move")


@SCHEMA.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_answer_matches_the_schema_and_none_is_a_server_error(case):
    case.call_and_validate(excluded_checks=[positive_data_acceptance, unsupported_method])
