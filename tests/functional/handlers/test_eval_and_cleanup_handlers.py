"""The memory-free eval route and the scheduled cleanup, through the real handlers."""

from __future__ import annotations

import pytest
from handler_support import Api, cold_start_with

from agent_memory.repository import RequestCounter
from agent_memory.repository.clients import get_client
from agent_memory_tools.local.events import LocalLambdaContext, scheduled_event
from agent_memory_tools.local.functions import handler


def test_the_eval_route_never_reads_or_writes_memory(api: Api) -> None:
    # GIVEN a user with memory, and a counter on the process's DynamoDB client
    api.chat("remember: private fact", user="alice")
    counter = RequestCounter().attach(get_client())

    # WHEN evaluation traffic asks to remember and to recall, even naming the user
    reply = api.call(
        "POST", "/eval/chat", user="alice", body={"message": "remember: eval fact\nforget: private"}
    )

    # THEN it answers without any DynamoDB request and memory is unchanged
    assert reply.status == 200
    assert reply.memory["status"] == "disabled"
    assert counter.total == 0
    assert api.memory("alice")["memory"] == ["private fact"]


def test_cleanup_expires_open_turns_past_their_deadline(api: Api) -> None:
    from agent_memory.repository import LedgerRepository

    ledger = LedgerRepository(api.client, api.tables.turn_ledger)
    ledger.open_turn("alice", "11111111-1111-4111-8111-111111111111", deadline_ms=1_000, now_ms=500)
    ledger.open_turn("bob", "22222222-2222-4222-8222-222222222222", deadline_ms=2**50, now_ms=500)

    result = handler("cleanup")(scheduled_event(), LocalLambdaContext(function_name="cleanup"))

    assert result == {"expired": 1}
    statuses = {item["user_id"]["S"]: item["status"]["S"] for item in api.items("ledger")}
    assert statuses == {"alice": "expired", "bob": "open"}


def test_cleanup_needs_only_the_ledger_table_name(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN the cleanup function's environment as the template sets it: no memory table
    cold_start_with(monkeypatch, MEMORY_TABLE_NAME=None)

    # WHEN the schedule fires THEN it runs
    result = handler("cleanup")(scheduled_event(), LocalLambdaContext(function_name="cleanup"))
    assert result == {"expired": 0}
