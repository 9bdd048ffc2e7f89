"""The deferred ledger open (a chat turn over HTTP, ``open_delay_ms``) against moto: a short
turn creates its ledger item in the commit transaction, a long one opens it from a timer
thread, and every fence of the open item still holds (cancel, discard, reuse, $disconnect)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from ledger_support import Turns, add, now_ms

from agent_memory.repository import LedgerRepository, MemoryRepository, RequestCounter

USER = "user-deferred"
# Longer than any of these turns: the timer never fires before the end of the turn.
NEVER_MS = 60_000.0


@pytest.fixture
def turns(memory_repository: MemoryRepository, ledger_repository: LedgerRepository) -> Turns:
    return Turns(memory_repository, ledger_repository)


@pytest.fixture
def request_counter(dynamodb_client: Any, transaction_client: Any) -> Iterator[RequestCounter]:
    counter = RequestCounter().attach(dynamodb_client, transaction_client)
    yield counter
    counter.detach(dynamodb_client, transaction_client)


def sent(counter: RequestCounter) -> dict[str, int]:
    """The requests of the turn (the tests' own scans left out)."""
    return {name: n for name, n in counter.counts().items() if name != "Scan"}


def ledger_item(scan_table: Any, table: str, turn_id: str) -> dict[str, Any] | None:
    items = {item["turn_id"]["S"]: item for item in scan_table(table)}
    return items.get(turn_id)


def memory_entries(scan_table: Any, table: str) -> list[str]:
    return [
        item["content"]["S"] for item in scan_table(table) if item["memory_type"]["S"] == "memory"
    ]


def test_a_short_turn_creates_its_ledger_item_in_the_commit(
    turns: Turns, request_counter: RequestCounter, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a chat turn that defers its ledger open
    ledger = turns.begin(USER, "turn-short", open_delay_ms=NEVER_MS)
    # WHEN the model adds one fact and the turn commits at once
    staged = ledger.call_tool(add("memory", "Deploys with SAM."))
    staging_requests = request_counter.total
    outcome = ledger.commit()
    # THEN two requests in all (the load and the commit): the staging sent nothing, and the
    # commit created the item committed, with what an opened item records
    assert staged["success"] is True
    assert staging_requests == 1
    assert outcome.status == "committed"
    assert sent(request_counter) == {"Query": 1, "TransactWriteItems": 1}
    assert outcome.requests == 2
    item = ledger_item(scan_table, table_names.turn_ledger, "turn-short")
    assert item is not None
    assert item["status"]["S"] == "committed"
    assert "open_shard" not in item  # never in the cleanup's index
    assert item["operation_counts"] == {"M": {"memory": {"M": {"add": {"N": "1"}}}}}
    assert {"opened_at", "deadline_ms", "committed_at", "expires_at", "commit_token"} <= set(item)
    assert memory_entries(scan_table, table_names.memory) == ["Deploys with SAM."]


def test_a_cancel_before_the_commit_fences_a_turn_that_never_opened(
    turns: Turns, ledger_repository: LedgerRepository, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a staged turn whose ledger item does not exist yet
    ledger = turns.begin(USER, "turn-cancelled", open_delay_ms=NEVER_MS)
    ledger.call_tool(add("memory", "Not saved."))
    # WHEN the user cancels it (a tombstone, since there is no item) before the commit
    assert ledger_repository.cancel(USER, "turn-cancelled", now_ms()).previous == "missing"
    outcome = ledger.commit()
    # THEN the commit's create condition fails: cancelled, nothing stored, the tombstone kept
    assert (outcome.status, outcome.reason) == ("cancelled", "turn_cancelled")
    assert memory_entries(scan_table, table_names.memory) == []
    item = ledger_item(scan_table, table_names.turn_ledger, "turn-cancelled")
    assert item is not None
    assert item["status"]["S"] == "cancelled"


def test_a_failed_short_turn_leaves_a_discarded_tombstone(
    turns: Turns, request_counter: RequestCounter, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a staged turn whose model then fails, before the open
    ledger = turns.begin(USER, "turn-failed", open_delay_ms=NEVER_MS)
    ledger.call_tool(add("memory", "Never stored."))
    # WHEN the service discards it
    outcome = ledger.discard()
    # THEN nothing stored, GET /turns can say discarded, and one write did it
    assert (outcome.status, outcome.reason) == ("error", "turn_failed")
    assert memory_entries(scan_table, table_names.memory) == []
    item = ledger_item(scan_table, table_names.turn_ledger, "turn-failed")
    assert item is not None
    assert item["status"]["S"] == "discarded"
    assert sent(request_counter) == {"Query": 1, "PutItem": 1}
    assert ledger.commit() == outcome


def test_a_reused_turn_id_cannot_create_a_second_item(
    turns: Turns, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a committed turn
    first = turns.begin(USER, "turn-reused", open_delay_ms=NEVER_MS)
    first.call_tool(add("memory", "First."))
    assert first.commit().status == "committed"
    # WHEN another short turn runs with the same turn id
    second = turns.begin(USER, "turn-reused", open_delay_ms=NEVER_MS)
    second.call_tool(add("memory", "Second."))
    outcome = second.commit()
    # THEN it reports the conflict and only the first is stored
    assert (outcome.status, outcome.reason) == ("conflict", "turn_id_reused")
    assert memory_entries(scan_table, table_names.memory) == ["First."]


def test_a_fenced_short_turn_leaves_a_tombstone_for_its_attempts(
    turns: Turns, memory_repository: MemoryRepository, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a staged turn, then a DELETE /memory before its commit
    ledger = turns.begin(USER, "turn-forgotten", open_delay_ms=NEVER_MS)
    ledger.call_tool(add("memory", "Forgotten."))
    memory_repository.delete_all(USER)
    # WHEN the turn commits
    outcome = ledger.commit()
    # THEN the fence cancels it and its item is a discarded tombstone (no attempt of it
    # still in flight could create the item afterwards)
    assert (outcome.status, outcome.reason) == ("cancelled", "memory_forgotten")
    item = ledger_item(scan_table, table_names.turn_ledger, "turn-forgotten")
    assert item is not None
    assert item["status"]["S"] == "discarded"


def test_a_long_turn_opens_its_item_while_the_model_works(
    turns: Turns,
    ledger_repository: LedgerRepository,
    request_counter: RequestCounter,
    scan_table: Any,
    table_names: Any,
) -> None:
    # GIVEN a staged turn whose model takes longer than the open delay
    ledger = turns.begin(USER, "turn-long", open_delay_ms=20.0)
    ledger.call_tool(add("memory", "Slow but saved."))
    # WHEN the delay passes (the model is still working)
    item = None
    for _ in range(500):
        item = ledger_item(scan_table, table_names.turn_ledger, "turn-long")
        if item is not None:
            break
        time.sleep(0.01)
    # THEN the item is open (GET /turns says so, a cancel would find it, the cleanup too)
    assert item is not None
    assert item["status"]["S"] == "open"
    assert "open_shard" in item
    # AND the commit updates it as an opened turn's commit does: three requests
    outcome = ledger.commit()
    assert outcome.status == "committed"
    assert outcome.requests == 3
    assert sent(request_counter) == {"Query": 1, "PutItem": 1, "TransactWriteItems": 1}
    assert ledger_repository.get(USER, "turn-long").status == "committed"  # type: ignore[union-attr]


def test_a_long_turn_cancelled_after_its_open_commits_nothing(
    turns: Turns, ledger_repository: LedgerRepository, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a long turn whose item the timer opened
    ledger = turns.begin(USER, "turn-long-cancelled", open_delay_ms=10.0)
    ledger.call_tool(add("memory", "Not saved."))
    for _ in range(500):
        if ledger_item(scan_table, table_names.turn_ledger, "turn-long-cancelled"):
            break
        time.sleep(0.01)
    # WHEN the user cancels it, then the turn commits
    assert ledger_repository.cancel(USER, "turn-long-cancelled", now_ms()).previous == "open"
    outcome = ledger.commit()
    # THEN cancelled, nothing stored
    assert (outcome.status, outcome.reason) == ("cancelled", "turn_cancelled")
    assert memory_entries(scan_table, table_names.memory) == []


def test_a_streamed_turn_opens_at_once_whatever_the_delay(
    turns: Turns, request_counter: RequestCounter, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a streamed turn (its connection's $disconnect finds it by its ledger item)
    ledger = turns.begin(USER, "turn-streamed", open_delay_ms=NEVER_MS, connection_id="conn-1")
    # WHEN it stages
    ledger.call_tool(add("memory", "Streamed."))
    # THEN the item is open at once, with its connection
    item = ledger_item(scan_table, table_names.turn_ledger, "turn-streamed")
    assert item is not None
    assert (item["status"]["S"], item["connection_id"]["S"]) == ("open", "conn-1")
    assert ledger.commit().status == "committed"
