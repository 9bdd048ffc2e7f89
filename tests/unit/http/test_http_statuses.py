"""One table maps error codes to HTTP statuses; services raise codes and know no HTTP."""

from __future__ import annotations

import ast
import json
from http import HTTPStatus
from pathlib import Path

import pytest

import agent_memory.service
from agent_memory.domain import ErrorCode
from agent_memory.http import build_resolver
from agent_memory.http.statuses import STATUS_BY_CODE, status_for
from agent_memory.service.exceptions import (
    ClientDisconnectedError,
    MemoryEditRejectedError,
    ServiceError,
    ServiceErrorCode,
    TurnDeadlineExceededError,
)
from agent_memory_tools.local.events import LocalLambdaContext, http_api_event

SERVICE = Path(agent_memory.service.__file__).parent


@pytest.mark.parametrize(
    "code", [c for c in ServiceErrorCode if c is not ServiceErrorCode.CLIENT_DISCONNECTED]
)
def test_every_code_a_service_raises_has_a_status(code: ServiceErrorCode) -> None:
    # GIVEN a code a service raises  THEN the table answers it with a client or server error
    status = status_for(code)
    assert status is not None
    assert 400 <= status < 600


@pytest.mark.parametrize("code", list(ErrorCode))
def test_a_broken_memory_rule_is_a_422_whatever_the_rule(code: ErrorCode) -> None:
    # GIVEN a user's own edit that breaks a memory rule  THEN it is unprocessable
    assert status_for(code) is HTTPStatus.UNPROCESSABLE_ENTITY


def test_the_table_holds_statuses_by_name_and_no_status_for_a_client_that_left() -> None:
    assert all(isinstance(status, HTTPStatus) for status in STATUS_BY_CODE.values())
    assert status_for(ClientDisconnectedError.code) is None


def _answer(error: Exception) -> tuple[int, dict[str, object]]:
    app = build_resolver()

    @app.get("/fails")
    def fails() -> dict[str, str]:
        raise error

    event = http_api_event("GET", "/fails", authorizer_context={"sub": "alice"})
    event["routeKey"] = "GET /fails"
    response = app.resolve(event, LocalLambdaContext(function_name="test"))
    return response["statusCode"], json.loads(response["body"])


def test_a_service_error_is_answered_with_its_code_status_and_message() -> None:
    # WHEN a route's service gives up on the turn's deadline, or refuses an edit by a rule
    timeout = _answer(TurnDeadlineExceededError())
    rejected = _answer(MemoryEditRejectedError(code=ErrorCode.NO_MATCH, message="No match."))

    # THEN each is the common error body with the status of its code
    assert timeout == (
        504,
        {"error": {"code": "turn_timeout", "message": TurnDeadlineExceededError.message}},
    )
    assert rejected == (422, {"error": {"code": "no_match", "message": "No match."}})


def test_a_code_without_a_status_is_a_plain_500_that_shows_neither_code_nor_message() -> None:
    # GIVEN a service error whose code the table does not know (a bug)
    error = ServiceError(code="sentinel_code", message="SENTINEL message")

    # WHEN a route raises it
    status, body = _answer(error)

    # THEN the client gets the generic internal error, nothing of the unknown one
    assert status == 500
    assert body == {
        "error": {"code": "internal_error", "message": "The request failed. Please retry later."}
    }


@pytest.mark.parametrize("module", sorted(SERVICE.glob("*.py")), ids=lambda path: path.name)
def test_no_service_module_picks_an_http_status(module: Path) -> None:
    # GIVEN one service module's source
    tree = ast.parse(module.read_text(encoding="utf-8"))
    imported = {
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }

    # THEN from the HTTP layer it takes the body models only: no ApiError, no status table,
    # and no HTTPStatus either
    assert {m for m, _ in imported if m.startswith("agent_memory.http")} <= {
        "agent_memory.http.contract"
    }
    assert ("http", "HTTPStatus") not in imported
