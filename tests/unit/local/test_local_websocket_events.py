"""The local WebSocket API's events and its reading of the $connect authorizer's policy."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from agent_memory_tools.local.websocket_events import (
    ConnectionInfo,
    authorizer_event,
    disconnect_event,
    message_event,
    new_connection_id,
    route_key_of,
)
from agent_memory_tools.local.websocket_front import allowed_context

INFO = ConnectionInfo(
    connection_id="abcDEF123_-xyz0=",
    domain_name="127.0.0.1:3000",
    stage="local",
    source_ip="127.0.0.1",
    user_agent="test",
    headers={"host": "127.0.0.1:3000", "sec-websocket-protocol": "agent-memory.v1, bearer.x"},
    query="a=1&a=2",
)
AUTHORIZER = {"sub": "alice", "principalId": "alice"}


def _policy(effect: str, resource: Any = None, **extra: Any) -> dict[str, Any]:
    statement = {
        "Action": "execute-api:Invoke",
        "Effect": effect,
        "Resource": resource if resource is not None else INFO.method_arn,
    }
    return {
        "principalId": "alice",
        "policyDocument": {"Version": "2012-10-17", "Statement": [statement]},
        **extra,
    }


@pytest.mark.parametrize(
    ("body", "route"),
    [
        ('{"action": "chat", "message": "hi"}', "chat"),
        ('{"action": "cancel", "turn_id": "x"}', "cancel"),
        ('{"action": "$connect"}', "$default"),
        ('{"action": 3}', "$default"),
        ('["chat"]', "$default"),
        ("not json", "$default"),
        ("[" * 100_000, "$default"),
        (None, "$default"),
    ],
)
def test_frames_are_routed_by_their_action_as_the_route_selection_expression(
    body: str | None, route: str
) -> None:
    assert route_key_of(body) == route


def test_an_allow_policy_hands_its_context_and_principal_to_later_routes() -> None:
    decision = _policy("Allow", context={"sub": "alice"})

    assert allowed_context(decision, INFO.method_arn) == {"sub": "alice", "principalId": "alice"}


@pytest.mark.parametrize(
    "decision",
    [
        pytest.param(_policy("Deny", context={"sub": "alice"}), id="deny"),
        pytest.param(_policy("Allow", resource="arn:aws:execute-api:*:*:other/*"), id="elsewhere"),
        pytest.param(
            {
                **_policy("Allow", context={"sub": "a"}),
                "policyDocument": {
                    "Statement": [
                        _policy("Allow")["policyDocument"]["Statement"][0],
                        _policy("Deny")["policyDocument"]["Statement"][0],
                    ]
                },
            },
            id="a-deny-wins",
        ),
        pytest.param(_policy("Allow", context={"sub": {"nested": 1}}), id="nested-context"),
        pytest.param({"isAuthorized": True}, id="http-simple-response"),
        pytest.param(None, id="nothing"),
    ],
)
def test_anything_but_a_clean_allow_refuses_the_connection(decision: Any) -> None:
    assert allowed_context(decision, INFO.method_arn) is None


def test_a_wildcard_resource_allows() -> None:
    decision = _policy("Allow", resource="arn:aws:execute-api:*:*:*/local/*", context={"sub": "a"})

    assert allowed_context(decision, INFO.method_arn) == {"sub": "a", "principalId": "alice"}


def test_the_authorizer_event_is_a_websocket_request_event() -> None:
    event = authorizer_event(INFO)

    assert event["type"] == "REQUEST"
    assert event["methodArn"].endswith("/local/$connect")
    assert "version" not in event  # what tells the shared authorizer it is a WebSocket event
    assert event["headers"]["sec-websocket-protocol"] == "agent-memory.v1, bearer.x"
    assert event["queryStringParameters"] == {"a": "1,2"}
    assert event["requestContext"]["eventType"] == "CONNECT"
    assert event["requestContext"]["connectionId"] == INFO.connection_id


def test_message_events_carry_the_connection_and_the_authorizer_context() -> None:
    event = message_event(INFO, AUTHORIZER, '{"action": "chat", "message": "hi"}')

    context = event["requestContext"]
    assert context["routeKey"] == "chat"
    assert context["eventType"] == "MESSAGE"
    assert (context["domainName"], context["stage"]) == ("127.0.0.1:3000", "local")
    assert context["authorizer"] == AUTHORIZER
    assert json.loads(event["body"])["message"] == "hi"
    assert event["isBase64Encoded"] is False


def test_a_binary_message_goes_base64_encoded_to_the_default_route() -> None:
    event = message_event(INFO, AUTHORIZER, b'{"action": "chat"}')

    assert event["requestContext"]["routeKey"] == "$default"
    assert event["isBase64Encoded"] is True
    assert base64.b64decode(event["body"]) == b'{"action": "chat"}'


def test_a_disconnect_event_says_how_the_socket_closed() -> None:
    event = disconnect_event(INFO, AUTHORIZER, status_code=1006)

    assert event["requestContext"]["routeKey"] == "$disconnect"
    assert event["requestContext"]["disconnectStatusCode"] == 1006
    assert "sec-websocket-protocol" not in event["headers"]


def test_connection_ids_look_like_api_gateways_and_are_safe_in_a_path() -> None:
    ids = {new_connection_id() for _ in range(200)}

    assert len(ids) == 200
    assert all(len(i) == 16 and i.endswith("=") and "/" not in i and "+" not in i for i in ids)
