"""Idempotent retries leave no content in telemetry: the stored response quotes the chat
reply (and so may quote memory), and Powertools' idempotency utility, its DynamoDB calls and
our handler must not copy it, nor the request it hashes, into any log line, metric or trace.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from telemetry_support import (
    HISTORY,
    MSG,
    OUT,
    Capture,
    Reply,
    TracedApi,
)

from agent_memory.repository import TableNames, get_client


@pytest.fixture
def replies_with_sentinel(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules model's final answer quotes the model-output sentinel."""
    import agent_memory.models.rules as rules

    monkeypatch.setattr(rules, "_reply", lambda *_: f"Noted, {OUT}.")


def keyed_chat(api: TracedApi, message: str, key: str) -> Reply:
    body = {"message": message, "history": HISTORY}
    return api.call("POST", "/chat", body=body, headers={"Idempotency-Key": key})


def stored_records(names: TableNames) -> list[dict[str, Any]]:
    return list(get_client().scan(TableName=names.idempotency).get("Items", []))


@pytest.mark.usefixtures("replies_with_sentinel")
def test_a_replayed_and_a_refused_retry_leave_no_content_in_telemetry(
    traced_api: TracedApi, capture: Capture, dynamodb_env: TableNames
) -> None:
    # GIVEN stored memory, and a turn sent with an Idempotency-Key that commits a fact
    traced_api.seed()
    key = str(uuid.uuid4())
    message = f"{MSG}\nremember: codename change"
    first = keyed_chat(traced_api, message, key)
    assert first.memory["status"] == "committed"
    # (the threat is real: the stored response quotes the reply)
    [record] = stored_records(dynamodb_env)
    assert OUT in record["data"]["S"]

    # WHEN the client retries it, and then sends the key with another body
    replayed = keyed_chat(traced_api, message, key)
    refused = keyed_chat(traced_api, f"{MSG} again", key)

    # THEN the retry was a replay, the other body a 422, and no channel holds a sentinel
    assert replayed.headers.get("Idempotent-Replayed") == "true"
    assert replayed.body == first.body
    assert refused.status == 422
    assert capture.leaks() == []
    # AND a replay is no new turn: one turn record for the one turn
    assert len(capture.turn_records()) == 1


@pytest.mark.usefixtures("replies_with_sentinel")
def test_a_retry_while_in_progress_leaves_no_content(
    traced_api: TracedApi, capture: Capture, dynamodb_env: TableNames
) -> None:
    # GIVEN a key whose first attempt is recorded as still running
    key = str(uuid.uuid4())
    first = keyed_chat(traced_api, f"{MSG}\nremember: a fact", key)
    assert first.status == 200
    get_client().update_item(
        TableName=dynamodb_env.idempotency,
        Key={"id": stored_records(dynamodb_env)[0]["id"]},
        UpdateExpression="SET #s = :p REMOVE in_progress_expiration",
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":p": {"S": "INPROGRESS"}},
    )

    # WHEN the client retries THEN it is told so, and nothing leaks
    retry = keyed_chat(traced_api, f"{MSG}\nremember: a fact", key)
    assert retry.status == 409
    assert retry.body["error"]["code"] == "turn_in_progress"
    assert capture.leaks() == []
