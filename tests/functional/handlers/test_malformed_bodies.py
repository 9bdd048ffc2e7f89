"""Malformed bodies get a clear 4xx and write nothing, on /chat and PATCH /memory alike
(issue 12, items 7, 11 and 12)."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from handler_support import Api

from agent_memory_tools.local.events import LocalLambdaContext, http_api_event
from agent_memory_tools.local.functions import handler

ROUTES = [("POST", "/chat", "chat"), ("PATCH", "/memory", "memory_api")]
DEEP = "[" * 10_000 + "]" * 10_000
LONG_INT = '{"message": ' + "9" * 5_000 + "}"


def send(
    method: str,
    path: str,
    function: str,
    body: str,
    *,
    base64_encoded: bool = False,
    content_type: str = "application/json",
) -> tuple[int, Any]:
    event = http_api_event(method, path, body=body, authorizer_context={"sub": "alice"})
    event["headers"]["content-type"] = content_type
    event["isBase64Encoded"] = base64_encoded
    response = handler(function)(event, LocalLambdaContext(function_name=function))
    return response["statusCode"], json.loads(response["body"] or "null")


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


@pytest.mark.parametrize(("method", "path", "function"), ROUTES)
@pytest.mark.parametrize(
    ("body", "encoded"),
    [
        (DEEP, False),
        ('{"message": ' + DEEP + "}", False),
        (LONG_INT, False),
        (b64(b'{"message": "caf\xe9"}'), True),  # Latin-1, not UTF-8
        ("not base64 at all!", True),
    ],
    ids=["deep", "deep-in-object", "long-int", "not-utf8", "bad-base64"],
)
def test_a_body_that_cannot_be_parsed_is_a_400(
    api: Api, method: str, path: str, function: str, body: str, encoded: bool
) -> None:
    status, reply = send(method, path, function, body, base64_encoded=encoded)
    assert (status, reply["error"]["code"]) == (400, "invalid_json")
    assert api.items("memory") == []
    assert api.items("ledger") == []


def test_an_upper_case_json_content_type_is_json(api: Api) -> None:
    # WHEN a client sends the media type in another case (media types are case-insensitive)
    status, reply = send(
        "POST", "/chat", "chat", '{"message": "remember: X"}', content_type="Application/JSON"
    )
    # THEN it is an ordinary turn
    assert status == 200, reply
    assert reply["memory"]["status"] == "committed"


def test_a_base64_encoded_json_body_is_accepted(api: Api) -> None:
    status, reply = send(
        "POST", "/chat", "chat", b64('{"message": "remember: é"}'.encode()), base64_encoded=True
    )
    assert status == 200, reply
    assert api.memory()["memory"] == ["é"]


@pytest.mark.parametrize(("method", "path", "function"), ROUTES)
def test_a_body_that_is_not_an_object_is_a_422(
    api: Api, method: str, path: str, function: str
) -> None:
    # GIVEN a JSON array whose first element would be valid
    first = (
        {"message": "remember: X"}
        if path == "/chat"
        else {"operations": [{"target": "memory", "action": "add", "content": "X"}]}
    )
    status, reply = send(method, path, function, json.dumps([first, first]))
    # THEN it is refused as a whole and nothing is written
    assert (status, reply["error"]["code"]) == (422, "invalid_request")
    assert api.items("memory") == []


def test_a_422_never_echoes_an_unexpected_key(api: Api) -> None:
    # GIVEN unexpected keys that could carry anything, at the top and inside an operation
    secret = "sk_live_secret_key_name"
    reply = api.call(
        "PATCH",
        "/memory",
        body={
            "operations": [{"target": "memory", "action": "add", "content": "x", secret: 1}],
            f"{secret}_2": True,
        },
    )
    # THEN the message names where, never what
    assert reply.status == 422
    assert secret not in json.dumps(reply.body)
    assert "operations.0: unknown fields are not allowed" in reply.body["error"]["message"]


@pytest.mark.parametrize(
    "operation",
    [
        {"target": "memory", "action": "sk_live_secret_action", "content": "x"},
        {"target": "memory", "content": "x"},
        {"target": "memory", "action": "add", "match": "sk_live_secret_match", "content": "x"},
        {"target": "memory", "action": "remove"},
    ],
    ids=["unknown-action", "no-action", "add-with-match", "remove-without-match"],
)
def test_an_operation_breaking_its_actions_fields_is_a_422_that_quotes_nothing(
    api: Api, operation: dict[str, str]
) -> None:
    # GIVEN an operation whose fields do not fit its action (or whose action is unknown)
    # WHEN it is sent as an edit
    reply = api.call("PATCH", "/memory", body={"operations": [operation]})

    # THEN it is a 422 that names the field and the rule, never the caller's values
    assert (reply.status, reply.body["error"]["code"]) == (422, "invalid_request"), reply
    assert "sk_live_secret" not in json.dumps(reply.body)
    assert reply.body["error"]["message"].startswith("operations.0")
    assert api.items("memory") == []
