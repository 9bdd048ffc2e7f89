"""The ``$connect`` authorizer of the WebSocket API: the same verifier as HTTP, the token
from the ``bearer.<JWT>`` subprotocol, an IAM policy answer, and never the token in a log."""

from __future__ import annotations

from typing import Any

import pytest
from authorizer_support import Authorizer, FakeLambdaContext
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from test_authorizer_handler import BAD_CASES, BadCase

from agent_memory_tools.dev_auth import DevIssuer

METHOD_ARN = "arn:aws:execute-api:eu-west-1:123456789012:abcdef1234/dev/$connect"


def connect_event(protocols: str | None, query: dict[str, str] | None = None) -> dict[str, Any]:
    headers = {"Host": "abcdef1234.execute-api.eu-west-1.amazonaws.com"}
    if protocols is not None:
        headers["Sec-WebSocket-Protocol"] = protocols
    return {
        "type": "REQUEST",
        "methodArn": METHOD_ARN,
        "headers": headers,
        "multiValueHeaders": {k: [v] for k, v in headers.items()},
        "queryStringParameters": query,
        "stageVariables": {},
        "requestContext": {"routeKey": "$connect", "eventType": "CONNECT", "stage": "dev"},
    }


def invoke(authorizer: Authorizer, event: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = authorizer.module.websocket_handler(event, FakeLambdaContext())
    return result


def effect(result: dict[str, Any]) -> str:
    [statement] = result["policyDocument"]["Statement"]
    assert statement["Action"] == "execute-api:Invoke"
    return str(statement["Effect"])


def test_a_good_bearer_subprotocol_is_allowed_with_only_the_subject(
    authorizer: Authorizer, dev_issuer: DevIssuer
) -> None:
    # GIVEN a client offering agent-memory.v1 and bearer.<JWT>
    token = dev_issuer.mint("alice")
    # WHEN it connects
    result = invoke(authorizer, connect_event(f"agent-memory.v1, bearer.{token}"))
    # THEN the connection is allowed on this route, with the subject as the only context
    assert effect(result) == "Allow"
    assert result["policyDocument"]["Statement"][0]["Resource"] == METHOD_ARN
    assert result["principalId"] == "alice"
    assert result["context"] == {"sub": "alice"}
    assert token not in authorizer.log.getvalue()


@pytest.mark.parametrize("case", sorted(BAD_CASES))
def test_every_bad_token_is_denied_and_never_logged(
    authorizer: Authorizer,
    dev_issuer: DevIssuer,
    foreign_key: rsa.RSAPrivateKey,
    ec_key: ec.EllipticCurvePrivateKey,
    case: str,
) -> None:
    build: BadCase = BAD_CASES[case]
    header = build(dev_issuer, foreign_key, ec_key)
    token = header.split(" ", 1)[1] if header and " " in header else header
    protocols = "agent-memory.v1" + (f", bearer.{token}" if token else "")
    result = invoke(authorizer, connect_event(protocols))
    assert effect(result) == "Deny"
    assert "context" not in result
    if token and len(token) > 8:
        assert token not in authorizer.log.getvalue()


@pytest.mark.parametrize(
    "protocols",
    [None, "", "agent-memory.v1", "bearer.", "chat, superchat"],
)
def test_a_handshake_without_a_usable_bearer_subprotocol_is_denied(
    authorizer: Authorizer, protocols: str | None
) -> None:
    assert effect(invoke(authorizer, connect_event(protocols))) == "Deny"


def test_the_agent_memory_subprotocol_must_be_offered(
    authorizer: Authorizer, dev_issuer: DevIssuer
) -> None:
    token = dev_issuer.mint("alice")
    assert effect(invoke(authorizer, connect_event(f"bearer.{token}"))) == "Deny"
    two = f"agent-memory.v1, bearer.{token}, bearer.{token}"
    assert effect(invoke(authorizer, connect_event(two))) == "Deny"


@pytest.mark.parametrize("name", ["token", "access_token", "Authorization", "innocent"])
def test_a_token_in_the_query_string_is_refused_even_beside_a_good_subprotocol(
    authorizer: Authorizer, dev_issuer: DevIssuer, name: str
) -> None:
    # GIVEN a good subprotocol, and a token in the query string (it would land in logs)
    token = dev_issuer.mint("alice")
    event = connect_event(f"agent-memory.v1, bearer.{token}", query={name: token})
    # WHEN it connects THEN it is refused, and the token is not logged
    assert effect(invoke(authorizer, event)) == "Deny"
    assert token not in authorizer.log.getvalue()
    assert '"reason":"token_in_query_string"' in authorizer.log.getvalue().replace(" ", "")


def test_other_query_parameters_are_left_alone(
    authorizer: Authorizer, dev_issuer: DevIssuer
) -> None:
    token = dev_issuer.mint("alice")
    event = connect_event(f"agent-memory.v1, bearer.{token}", query={"client": "ios-2.3"})
    assert effect(invoke(authorizer, event)) == "Allow"


def test_the_http_entry_point_answers_a_connect_event_as_the_websocket_one(
    authorizer: Authorizer, dev_issuer: DevIssuer
) -> None:
    # GIVEN one $connect event (the local stack invokes the function's lambda_handler)
    event = connect_event(f"agent-memory.v1, bearer.{dev_issuer.mint('alice')}")
    # WHEN both entry points answer it THEN they agree, with a policy (not a simple response)
    via_http_entry = authorizer.module.lambda_handler(event, FakeLambdaContext())
    assert via_http_entry == invoke(authorizer, event)
    assert effect(via_http_entry) == "Allow"
    # AND an HTTP payload-v2 event still gets the simple response
    assert authorizer.invoke("Bearer forged") == {"isAuthorized": False}
