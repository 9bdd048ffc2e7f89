"""Rollback is a flag change only (the seed's "Make rollout reversible"): with the memory
flag off no chat turn sends a single DynamoDB request and no route writes memory, except
DELETE /memory, which only removes data; turning the flag back on finds every item exactly
as it was. Through the environment variable (the template's MemoryEnabled) and AppConfig."""

from __future__ import annotations

import io
import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from aws_lambda_powertools.utilities.feature_flags import AppConfigStore, FeatureFlags
from operations_support import Api, snapshot_tables

from agent_memory.repository import (
    RequestCounter,
    TableNames,
    get_client,
    get_transaction_client,
)
from agent_memory.service import memory_flag


@pytest.fixture
def counter() -> Iterator[RequestCounter]:
    """Counts every request of the process-wide clients the handlers use."""
    clients = (get_client(), get_transaction_client())
    counter = RequestCounter().attach(*clients)
    yield counter
    counter.detach(*clients)


def seed(api: Api, counter: RequestCounter) -> None:
    """Two users' memory, committed with the flag on (and seen by the counter: it is
    attached to the clients the handlers really use)."""
    counter.reset()
    assert api.chat("remember: The project deploys with SAM.").body["memory"]["status"] == (
        "committed"
    )
    assert api.chat("about me: Alice prefers short answers.").body["memory"]["status"] == (
        "committed"
    )
    assert api.chat("remember: Bob's fact.", user="bob").body["memory"]["status"] == "committed"
    assert counter.counts().get("TransactWriteItems") == 3


def turns_and_routes_with_the_flag_off(api: Api, counter: RequestCounter) -> None:
    """Every way a client can ask for memory while the flag is off: no request at all."""
    counter.reset()
    chat = api.chat("remember: not while off\nforget: deploys\nabout me: nope")
    assert chat.status == 200
    assert chat.body["memory"]["status"] == "disabled"
    assert chat.body["memory"]["operations"] == 0
    tool = api.chat(
        'memory_update: {"operations": [{"target": "memory", "action": "add", "content": "x"}]}'
    )
    assert tool.body["memory"]["status"] == "disabled"
    read = api.call("GET", "/memory")
    edit = api.call(
        "PATCH",
        "/memory",
        body={"operations": [{"target": "memory", "action": "add", "content": "x"}]},
    )
    assert (read.status, read.body["error"]["code"]) == (503, "memory_disabled")
    assert (edit.status, edit.body["error"]["code"]) == (503, "memory_disabled")
    assert counter.counts() == {}


def test_the_env_flag_off_stops_every_memory_request_and_on_finds_the_data_intact(
    api: Api,
    counter: RequestCounter,
    dynamodb_client: Any,
    dynamodb_env: TableNames,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # GIVEN two users' committed memory, then the flag turned off (the rollback)
    seed(api, counter)
    before = snapshot_tables(dynamodb_client, dynamodb_env)
    monkeypatch.setenv("MEMORY_ENABLED", "false")

    # WHEN chat turns and the memory routes run with the flag off
    # THEN not one DynamoDB request is sent, and the tables are untouched
    turns_and_routes_with_the_flag_off(api, counter)
    assert snapshot_tables(dynamodb_client, dynamodb_env) == before

    # WHEN the flag is turned back on
    monkeypatch.setenv("MEMORY_ENABLED", "true")
    # THEN every item is exactly as it was (same revisions), and memory works again
    assert snapshot_tables(dynamodb_client, dynamodb_env) == before
    body = api.call("GET", "/memory").body
    assert body["memory"]["entries"] == ["The project deploys with SAM."]
    assert body["user"]["entries"] == ["Alice prefers short answers."]
    assert api.chat("remember: After the rollback.").body["memory"]["status"] == "committed"


def test_with_the_flag_off_delete_and_cancel_still_work_and_touch_nothing_else(
    api: Api,
    counter: RequestCounter,
    dynamodb_client: Any,
    dynamodb_env: TableNames,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # GIVEN stored memory of two users, and the flag off
    seed(api, counter)
    before = snapshot_tables(dynamodb_client, dynamodb_env)
    alice_items = [i for i in before["memory"] if i["user_id"]["S"] == "alice"]
    monkeypatch.setenv("MEMORY_ENABLED", "false")
    counter.reset()

    # WHEN bob asks to be forgotten (an erasure request must not wait for a rollout)
    forgotten = api.call("DELETE", "/memory", user="bob")
    deletes = counter.counts()
    # AND alice cancels a turn (a turn started before the flip must still be fenced)
    counter.reset()
    turn_id = str(uuid.uuid4())
    cancelled = api.call("POST", f"/turns/{turn_id}/cancel")

    # THEN the delete looked for his history and proposals (one Query: none), removed his
    # documents and fenced his running turns (a new forget generation in his settings item)
    # and nothing else, in one transaction
    assert forgotten.status == 204
    assert deletes == {"Query": 1, "TransactWriteItems": 1}
    after = snapshot_tables(dynamodb_client, dynamodb_env)
    bob_items = [i for i in after["memory"] if i["user_id"]["S"] == "bob"]
    assert [i["memory_type"]["S"] for i in bob_items] == ["settings"]
    assert [i for i in after["memory"] if i["user_id"]["S"] == "alice"] == alice_items
    # AND the cancel only wrote a metadata tombstone in the ledger (no memory request)
    assert (cancelled.status, cancelled.body["status"]) == (200, "cancelled")
    assert counter.counts() == {"GetItem": 1, "PutItem": 1}
    [tombstone] = [i for i in after["ledger"] if i["turn_id"]["S"] == turn_id]
    assert tombstone["status"] == {"S": "cancelled"}
    assert set(tombstone) <= {
        "user_id",
        "turn_id",
        "status",
        "cancelled_at",
        "updated_at",
        "expires_at",
    }


class FakeAppConfigData:
    """The two ``appconfigdata`` calls Powertools makes, over a flag the test flips."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.reachable = True
        self.calls = 0

    def start_configuration_session(self, **_: Any) -> dict[str, Any]:
        return {"InitialConfigurationToken": "token-0"}

    def get_latest_configuration(self, ConfigurationToken: str) -> dict[str, Any]:
        self.calls += 1
        if not self.reachable:
            raise ConnectionError("AppConfig unreachable")
        document = {"memory_enabled": {"default": self.enabled}}
        return {
            "Configuration": io.BytesIO(json.dumps(document).encode()),
            "NextPollConfigurationToken": f"token-{self.calls}",
            "ContentType": "application/json",
        }


def test_the_appconfig_flag_is_the_rollback_switch_without_a_deploy(
    api: Api,
    counter: RequestCounter,
    dynamodb_client: Any,
    dynamodb_env: TableNames,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # GIVEN the functions configured for AppConfig (as the template sets them), the env
    # flag false as its fallback, and the AppConfig feature memory_enabled on
    appconfig = FakeAppConfigData(enabled=True)
    store = AppConfigStore(
        environment="env1234",
        application="app1234",
        name="prof123",
        max_age=0,
        boto3_client=appconfig,  # type: ignore[arg-type]
    )
    monkeypatch.setattr(memory_flag, "_feature_flags", FeatureFlags(store=store))
    monkeypatch.setenv("MEMORY_ENABLED", "false")
    monkeypatch.setenv("APPCONFIG_APPLICATION", "app1234")
    monkeypatch.setenv("APPCONFIG_ENVIRONMENT", "env1234")
    monkeypatch.setenv("APPCONFIG_PROFILE", "prof123")
    seed(api, counter)
    assert appconfig.calls > 0
    before = snapshot_tables(dynamodb_client, dynamodb_env)

    # WHEN the operator turns the feature off in AppConfig (no deploy)
    appconfig.enabled = False
    # THEN memory is off at once: no request, nothing changed
    turns_and_routes_with_the_flag_off(api, counter)
    assert snapshot_tables(dynamodb_client, dynamodb_env) == before

    # WHEN it is turned back on THEN the data is intact
    appconfig.enabled = True
    assert api.call("GET", "/memory").body["memory"]["entries"] == ["The project deploys with SAM."]
    # AND when AppConfig cannot answer, the environment variable (false) decides
    appconfig.reachable = False
    assert api.chat("remember: x").body["memory"]["status"] == "disabled"
