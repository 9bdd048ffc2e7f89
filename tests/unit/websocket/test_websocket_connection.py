"""The management API adapter, checked against botocore's service model with Stubber:
``GoneException`` is told apart from every other failure (it is a ``ClientError`` too)."""

from __future__ import annotations

import json
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber

from agent_memory.websocket import (
    ConnectionGoneError,
    ConnectionPostError,
    ManagementApiConnection,
    management_endpoint,
)
from agent_memory.websocket.connection import ENV_MANAGEMENT_ENDPOINT

CONNECTION_ID = "L0SM9cOFvHcCIhw="


@pytest.fixture
def client() -> Any:
    return boto3.session.Session(
        aws_access_key_id="testing", aws_secret_access_key="testing"
    ).client(
        "apigatewaymanagementapi",
        region_name="eu-west-1",
        endpoint_url="https://abc.execute-api.eu-west-1.amazonaws.com/dev",
    )


def test_a_frame_is_posted_as_compact_json_to_its_connection(client: Any) -> None:
    frame = {"type": "delta", "turn_id": "t", "text": "héllo"}
    with Stubber(client) as stubber:
        stubber.add_response(
            "post_to_connection",
            {},
            {
                "ConnectionId": CONNECTION_ID,
                "Data": json.dumps(frame, ensure_ascii=False, separators=(",", ":")).encode(),
            },
        )
        ManagementApiConnection(client, CONNECTION_ID).post(frame)
        stubber.assert_no_pending_responses()


@pytest.mark.parametrize(
    ("code", "status", "raised"),
    [
        ("GoneException", 410, ConnectionGoneError),
        ("LimitExceededException", 429, ConnectionPostError),
        ("PayloadTooLargeException", 413, ConnectionPostError),
        ("ForbiddenException", 403, ConnectionPostError),
    ],
)
def test_a_gone_client_is_told_apart_from_other_failures(
    client: Any, code: str, status: int, raised: type[Exception]
) -> None:
    with Stubber(client) as stubber:
        stubber.add_client_error(
            "post_to_connection", service_error_code=code, http_status_code=status
        )
        with pytest.raises(raised):
            ManagementApiConnection(client, CONNECTION_ID).post({"type": "started"})


def test_the_connection_check_treats_any_failure_as_gone(client: Any) -> None:
    with Stubber(client) as stubber:
        stubber.add_response(
            "get_connection",
            {"ConnectedAt": "2026-01-01T00:00:00Z"},
            {"ConnectionId": CONNECTION_ID},
        )
        stubber.add_client_error("get_connection", "GoneException", http_status_code=410)
        stubber.add_client_error("get_connection", "InternalServerError", http_status_code=500)
        connection = ManagementApiConnection(client, CONNECTION_ID)
        assert [connection.is_open() for _ in range(3)] == [True, False, False]


def test_the_endpoint_comes_from_the_event_unless_the_local_stack_names_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(ENV_MANAGEMENT_ENDPOINT, raising=False)
    assert (
        management_endpoint("abc.execute-api.eu-west-1.amazonaws.com", "prod")
        == "https://abc.execute-api.eu-west-1.amazonaws.com/prod"
    )
    monkeypatch.setenv(ENV_MANAGEMENT_ENDPOINT, "http://127.0.0.1:3000/@management")
    assert management_endpoint("ignored", "ignored") == "http://127.0.0.1:3000/@management"
