"""The local gateway: routes, the authorizer as API Gateway runs it, responses unchanged."""

from __future__ import annotations

import base64
import json

import pytest
from local_fakes import FakeFunctions, allow, deny, respond

from agent_memory_tools.local.exceptions import (
    FunctionCrashedError,
    FunctionTimeoutError,
    PoolClosedError,
    ThrottledError,
)
from agent_memory_tools.local.gateway import GatewayRequest, LocalGateway, proxy_response
from agent_memory_tools.local.invoker import Invocation

BEARER = (("Authorization", "Bearer token"),)


def _body(response_body: bytes) -> dict[str, object]:
    parsed = json.loads(response_body)
    assert isinstance(parsed, dict)
    return parsed


def test_unknown_route_is_404_and_unknown_method_405_before_any_function() -> None:
    functions = FakeFunctions()
    gateway = LocalGateway(functions)

    missing = gateway.handle(GatewayRequest("GET", "/nowhere", headers=BEARER))
    wrong = gateway.handle(GatewayRequest("PUT", "/memory", headers=BEARER))

    assert missing.status == 404
    assert _body(missing.body)["error"] == {
        "code": "not_found",
        "message": "No such route.",
    }
    assert wrong.status == 405
    assert ("Allow", "DELETE, GET, PATCH") in wrong.headers
    assert functions.calls == []


@pytest.mark.parametrize("headers", [(), (("Authorization", "  "),)], ids=["absent", "blank"])
def test_no_authorization_header_is_401_without_calling_the_authorizer(
    headers: tuple[tuple[str, str], ...],
) -> None:
    functions = FakeFunctions()

    response = LocalGateway(functions).handle(GatewayRequest("GET", "/memory", headers=headers))

    assert response.status == 401
    assert _body(response.body) == {"message": "Unauthorized"}
    assert functions.calls == []


def test_a_denial_is_403_and_the_handler_never_runs() -> None:
    functions = FakeFunctions(authorizer=deny(), memory_api=respond())

    response = LocalGateway(functions).handle(GatewayRequest("GET", "/memory", headers=BEARER))

    assert response.status == 403
    # exactly API Gateway's own body (issue 12): nothing of our error shape
    assert _body(response.body) == {"message": "Forbidden"}
    assert functions.called() == ["authorizer"]


def test_an_allow_copies_the_context_into_the_event_as_api_gateway_does() -> None:
    functions = FakeFunctions(authorizer=allow("alice"), chat=respond())
    request = GatewayRequest(
        "POST",
        "/chat",
        headers=(*BEARER, ("Content-Type", "application/json")),
        body=b'{"message": "hi"}',
    )

    response = LocalGateway(functions).handle(request)

    assert response.status == 200
    (_, authorizer_event), (_, event) = functions.calls
    assert "body" not in authorizer_event
    assert event["requestContext"]["authorizer"] == {"lambda": {"sub": "alice"}}
    assert event["routeKey"] == "POST /chat"
    assert event["body"] == '{"message": "hi"}'
    assert any(name == "apigw-requestid" for name, _ in response.headers)


def test_the_eval_route_runs_without_the_authorizer() -> None:
    functions = FakeFunctions(eval=respond())

    response = LocalGateway(functions).handle(GatewayRequest("POST", "/eval/chat", body=b"{}"))

    assert response.status == 200
    assert functions.called() == ["eval"]


def test_path_parameters_reach_the_handler() -> None:
    functions = FakeFunctions(authorizer=allow(), memory_api=respond())

    LocalGateway(functions).handle(GatewayRequest("POST", "/turns/abc/cancel", headers=BEARER))

    assert functions.calls[-1][1]["pathParameters"] == {"turn_id": "abc"}


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (FunctionCrashedError("chat raised KeyError: 'secret'"), 500),
        (FunctionTimeoutError("chat"), 504),
        (ThrottledError("chat"), 429),
        (PoolClosedError("stopping"), 503),
    ],
)
def test_invocation_failures_are_json_errors_without_internals(
    error: Exception, status: int
) -> None:
    functions = FakeFunctions(authorizer=allow(), chat=lambda event, watch: error)

    response = LocalGateway(functions).handle(GatewayRequest("POST", "/chat", headers=BEARER))

    assert response.status == status
    assert "secret" not in response.body.decode()
    assert "KeyError" not in response.body.decode()
    assert set(_body(response.body)) == {"message", "error"}


def test_a_malformed_authorizer_answer_fails_closed() -> None:
    functions = FakeFunctions(
        authorizer=lambda event, watch: {"isAuthorized": "yes"}, chat=respond()
    )

    response = LocalGateway(functions).handle(GatewayRequest("POST", "/chat", headers=BEARER))

    assert response.status == 500
    assert functions.called() == ["authorizer"]


def test_when_the_client_left_during_authorization_the_handler_never_runs() -> None:
    class GoneWatch:
        watching = False
        gone = True

    functions = FakeFunctions(authorizer=allow(), chat=respond())

    response = LocalGateway(functions).handle(
        GatewayRequest("POST", "/chat", headers=BEARER),
        watch=GoneWatch(),  # type: ignore[arg-type]
    )

    assert response.client_gone
    assert functions.called() == ["authorizer"]


def test_the_client_gone_flag_of_the_invocation_reaches_the_server() -> None:
    functions = FakeFunctions(
        authorizer=allow(), chat=lambda event, watch: Invocation({"statusCode": 200}, True)
    )

    assert (
        LocalGateway(functions).handle(GatewayRequest("POST", "/chat", headers=BEARER)).client_gone
    )


def test_a_proxy_response_is_returned_unchanged_with_cookies_and_base64() -> None:
    response = proxy_response(
        {
            "statusCode": 201,
            "headers": {
                "X-Custom": "1",
                "Content-Type": "image/png",
                "Content-Length": "999",
                "Connection": "close",
            },
            "cookies": ["a=1; Path=/", "b=2"],
            "body": base64.b64encode(b"\x89PNG").decode(),
            "isBase64Encoded": True,
        }
    )

    assert response.status == 201
    assert response.body == b"\x89PNG"
    assert response.headers == (
        ("X-Custom", "1"),
        ("Content-Type", "image/png"),
        ("Set-Cookie", "a=1; Path=/"),
        ("Set-Cookie", "b=2"),
    )


def test_a_response_without_status_code_is_inferred_as_api_gateway_does() -> None:
    assert proxy_response({"hello": "world"}).status == 200
    assert json.loads(proxy_response({"hello": "world"}).body) == {"hello": "world"}
    assert proxy_response("plain").body == b"plain"


@pytest.mark.parametrize(
    "bad",
    [
        {"statusCode": "200"},
        {"statusCode": 99},
        {"statusCode": True},
        {"statusCode": 200, "isBase64Encoded": True, "body": "%%"},
    ],
)
def test_an_invalid_proxy_response_is_a_500(bad: dict[str, object]) -> None:
    assert proxy_response(bad).status == 500
