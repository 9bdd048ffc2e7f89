"""A turn's unit of work against moto over HTTP: staging, commit, request counts, cancel,
deadline, failed and unknown loads, and what the ledger item may hold."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from botocore.stub import Stubber
from ledger_support import (
    FaultyClient,
    Turns,
    add,
    far_deadline,
    now_ms,
    operations,
    remove,
    replace,
    seed_memory,
)

from agent_memory.domain import LIMITS, render_document
from agent_memory.ledger import CancelFlag, MemoryScopeError, TurnCancelledError, memory_scope
from agent_memory.repository import (
    CURRENT_SCHEMA_VERSION,
    LedgerRepository,
    MemoryRepository,
    RequestCounter,
    new_client,
)

USER = "user-7f3a"


@pytest.fixture
def turns(memory_repository: MemoryRepository, ledger_repository: LedgerRepository) -> Turns:
    return Turns(memory_repository, ledger_repository)


@pytest.fixture
def request_counter(dynamodb_client: Any, transaction_client: Any) -> Iterator[RequestCounter]:
    counter = RequestCounter().attach(dynamodb_client, transaction_client)
    yield counter
    counter.detach(dynamodb_client, transaction_client)


def stored(scan_table: Any, table: str) -> dict[str, str]:
    """The stored documents (history records and settings left out)."""
    return {
        item["memory_type"]["S"]: item["content"]["S"]
        for item in scan_table(table)
        if item["memory_type"]["S"] in ("user", "memory")
    }


def ledger_items(scan_table: Any, table: str) -> dict[str, dict[str, Any]]:
    return {item["turn_id"]["S"]: item for item in scan_table(table)}


def test_read_only_turn_makes_one_request(turns: Turns, request_counter: RequestCounter) -> None:
    # GIVEN a user with nothing stored
    # WHEN a turn loads memory and the model never calls the tool
    ledger = turns.begin(USER, "turn-read-only")
    outcome = ledger.commit()
    # THEN the turn is unchanged and made exactly one request: the consistent Query
    assert outcome.status == "unchanged"
    assert ledger.memory_status == "available"
    assert request_counter.counts() == {"Query": 1}
    assert outcome.requests == 1
    print(f"\nread-only turn: {request_counter.total} request(s) {request_counter.counts()}")


def test_uncontended_writing_turn_makes_three_requests(
    turns: Turns, request_counter: RequestCounter, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a user with nothing stored
    ledger = turns.begin(USER, "turn-write")
    # WHEN the model adds one fact and the turn commits
    result = ledger.call_tool(add("memory", "The project deploys with SAM."))
    outcome = ledger.commit()
    # THEN: load, ledger open, commit (documents, history record and ledger) - exactly
    assert result["success"] is True
    assert outcome.status == "committed"
    assert request_counter.counts() == {"Query": 1, "PutItem": 1, "TransactWriteItems": 1}
    assert outcome.requests == 3
    assert (outcome.retries, outcome.replays) == (0, 0)
    assert outcome.commit_id is not None
    history = [i for i in scan_table(table_names.memory) if i["memory_type"]["S"] != "memory"]
    assert [i["commit_id"]["S"] for i in history] == [outcome.commit_id]
    assert outcome.to_dict() == {
        "status": "committed",
        "operations": 1,
        "commit_id": outcome.commit_id,
        "user": {"chars": 0, "limit": LIMITS["user"]},
        "memory": {"chars": len("The project deploys with SAM."), "limit": LIMITS["memory"]},
    }
    assert stored(scan_table, table_names.memory) == {"memory": "The project deploys with SAM."}
    item = ledger_items(scan_table, table_names.turn_ledger)["turn-write"]
    assert item["status"]["S"] == "committed"
    assert "open_shard" not in item
    assert item["operation_counts"] == {"M": {"memory": {"M": {"add": {"N": "1"}}}}}
    print(f"\nwriting turn: {request_counter.total} request(s) {request_counter.counts()}")


def test_commit_is_idempotent_per_turn(turns: Turns, request_counter: RequestCounter) -> None:
    # GIVEN a committed turn
    ledger = turns.begin(USER, "turn-twice")
    ledger.call_tool(add("user", "Prefers short answers."))
    first = ledger.commit()
    request_counter.reset()
    # WHEN commit is called again, and the tool after the end of the turn
    second = ledger.commit()
    late = ledger.call_tool(add("user", "Late fact."))
    # THEN the same outcome, no request, and nothing staged
    assert second == first
    assert request_counter.total == 0
    assert late["success"] is False


def test_documents_keep_created_at_and_get_fresh_revisions(
    turns: Turns, memory_repository: MemoryRepository
) -> None:
    # GIVEN a stored document
    first = turns.begin(USER, "t1")
    first.call_tool(add("memory", "Fact A."))
    first.commit()
    before = memory_repository.load(USER).document("memory")
    # WHEN another turn changes it
    second = turns.begin(USER, "t2")
    second.call_tool(add("memory", "Fact B."))
    second.commit()
    after = memory_repository.load(USER).document("memory")
    # THEN the revision is new and random, created_at kept, updated_at moved on
    assert before.revision
    assert after.revision
    assert before.revision != after.revision
    assert len(after.revision) == 32
    assert after.created_at == before.created_at
    assert after.updated_at is not None
    assert before.updated_at is not None
    assert after.updated_at >= before.updated_at
    assert after.schema_version == CURRENT_SCHEMA_VERSION


def test_removing_the_last_entry_deletes_the_item(
    turns: Turns, memory_repository: MemoryRepository, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a document with one entry and another document
    seed_memory(
        memory_repository,
        turns.ledger_repo,
        USER,
        user=["Name: Ada."],
        memory=["Only fact."],
    )
    # WHEN a turn removes that entry
    ledger = turns.begin(USER, "turn-remove")
    assert ledger.call_tool(remove("memory", "Only fact."))["success"]
    outcome = ledger.commit()
    # THEN the memory item is gone (a missing item is an empty document), the other stays
    assert outcome.status == "committed"
    assert stored(scan_table, table_names.memory) == {"user": "Name: Ada."}
    assert memory_repository.load(USER).snapshot.memory == ()


def test_failed_batch_commits_nothing(
    turns: Turns,
    memory_repository: MemoryRepository,
    request_counter: RequestCounter,
    scan_table: Any,
    table_names: Any,
) -> None:
    # GIVEN a stored entry
    seed_memory(memory_repository, turns.ledger_repo, USER, memory=["Uses Python 3.13."])
    before = scan_table(table_names.memory)
    request_counter.reset()
    # WHEN the model's only call is a batch whose second operation fails
    ledger = turns.begin(USER, "turn-failed-batch")
    result = ledger.call_tool(
        operations(add("memory", "A valid new fact."), replace("memory", "no such entry", "x"))
    )
    outcome = ledger.commit()
    requests = request_counter.counts()
    # THEN no operation of the batch is staged or committed, and no ledger item exists
    assert result["success"] is False
    assert result["error"]["code"] == "no_match"
    assert outcome.status == "unchanged"
    assert outcome.operations == 0
    assert scan_table(table_names.memory) == before
    assert "turn-failed-batch" not in ledger_items(scan_table, table_names.turn_ledger)
    assert requests == {"Query": 1}


def test_full_memory_consolidation_commits_in_one_batch(
    turns: Turns,
    memory_repository: MemoryRepository,
    request_counter: RequestCounter,
    scan_table: Any,
    table_names: Any,
) -> None:
    # GIVEN a memory store filled close to its limit
    entries = [f"Fact {i:02d}: " + "x" * 190 for i in range(10)]
    seed_memory(memory_repository, turns.ledger_repo, USER, memory=entries)
    assert len(render_document(entries)) > LIMITS["memory"] - 200
    request_counter.reset()
    # WHEN one call consolidates (removes, replaces) and adds in the same batch
    ledger = turns.begin(USER, "turn-consolidate")
    big_fact = "New fact: " + "y" * 300
    assert ledger.call_tool(add("memory", big_fact))["error"]["code"] == "capacity_exceeded"
    result = ledger.call_tool(
        operations(
            remove("memory", "Fact 00:"),
            remove("memory", "Fact 01:"),
            replace("memory", "Fact 02:", "Fact 02: consolidated."),
            add("memory", big_fact),
        )
    )
    outcome = ledger.commit()
    # THEN the batch commits at once, in one transaction
    assert result["success"] is True
    assert outcome.status == "committed"
    assert outcome.operations == 4
    assert request_counter.counts()["TransactWriteItems"] == 1
    expected = ["Fact 02: consolidated.", *entries[3:], big_fact]
    assert stored(scan_table, table_names.memory)["memory"] == render_document(expected)
    assert outcome.memory.chars == len(render_document(expected)) <= LIMITS["memory"]


def test_failed_load_disables_writes(
    transaction_client: Any,
    dynamodb_client: Any,
    turns: Turns,
    table_names: Any,
    scan_table: Any,
    moto_endpoint: str,
) -> None:
    # GIVEN stored memory, and a read that fails (throttled beyond the SDK's retries)
    seed_memory(turns.memory_repo, turns.ledger_repo, USER, memory=["Keep me."])
    before = scan_table(table_names.memory)
    failing = new_client(
        region="us-east-1",
        endpoint_url=moto_endpoint,
        credentials={"aws_access_key_id": "testing", "aws_secret_access_key": "testing"},
    )
    stubber = Stubber(failing)
    stubber.add_client_error(
        "query", "ProvisionedThroughputExceededException", http_status_code=400
    )
    broken = MemoryRepository(failing, table_names.memory, transaction_client=transaction_client)
    with stubber:
        ledger = turns.begin(USER, "turn-unavailable", memory_repo=broken)
    # WHEN the model still tries to write
    result = ledger.call_tool(add("memory", "Overwrite everything."))
    outcome = ledger.commit()
    # THEN memory is unavailable, the prompt snapshot is empty, the tool says nothing was
    # saved, and nothing at all was written (no ledger item either)
    assert ledger.memory_status == "unavailable"
    assert ledger.unavailable_reason == "ProvisionedThroughputExceededException"
    assert ledger.snapshot.memory == ()
    assert ledger.snapshot.user == ()
    assert ledger.writes_enabled is False
    assert result["success"] is False
    assert result["error"]["code"] == "memory_unavailable"
    assert outcome.status == "unavailable"
    assert outcome.reason == "ProvisionedThroughputExceededException"
    assert scan_table(table_names.memory) == before
    assert "turn-unavailable" not in ledger_items(scan_table, table_names.turn_ledger)


def test_unknown_schema_version_is_never_overwritten(
    turns: Turns, dynamodb_client: Any, table_names: Any, scan_table: Any
) -> None:
    # GIVEN a document written by a newer version of the code
    future = {
        "user_id": {"S": USER},
        "memory_type": {"S": "user"},
        "content": {"S": "v2-format:{...}"},
        "revision": {"S": "r-future"},
        "schema_version": {"N": str(CURRENT_SCHEMA_VERSION + 1)},
        "created_at": {"N": "1"},
        "updated_at": {"N": "1"},
    }
    dynamodb_client.put_item(TableName=table_names.memory, Item=future)
    # WHEN a turn loads memory and tries to write both documents
    ledger = turns.begin(USER, "turn-future")
    result = ledger.call_tool(add("memory", "A fact."))
    outcome = ledger.commit()
    # THEN memory is unavailable with the reason, nothing is written, the item is unchanged
    assert ledger.memory_status == "unavailable"
    assert outcome.status == "unavailable"
    assert outcome.reason == "unknown_schema_version"
    assert result["error"]["code"] == "memory_unavailable"
    assert scan_table(table_names.memory) == [future]
    assert scan_table(table_names.turn_ledger) == []


def test_cancel_flag_before_load_reads_nothing(
    turns: Turns, request_counter: RequestCounter
) -> None:
    # GIVEN a turn whose client went away before it started
    flag = CancelFlag()
    flag.cancel()
    # WHEN the turn begins
    # THEN it raises before any request
    with pytest.raises(TurnCancelledError):
        turns.begin(USER, "turn-gone", cancel_flag=flag)
    assert request_counter.total == 0


def test_cancel_flag_after_staging_commits_nothing(
    turns: Turns, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a turn with a staged write
    flag = CancelFlag()
    ledger = turns.begin(USER, "turn-cancel-flag", cancel_flag=flag)
    ledger.call_tool(add("memory", "Should never be stored."))
    # WHEN the client disconnects before the commit
    flag.cancel()
    outcome = ledger.commit()
    # THEN cancelled, nothing stored, the ledger item discarded (fenced)
    assert outcome.status == "cancelled"
    assert outcome.reason == "cancel_flag"
    assert scan_table(table_names.memory) == []
    item = ledger_items(scan_table, table_names.turn_ledger)["turn-cancel-flag"]
    assert item["status"]["S"] == "discarded"
    assert "open_shard" not in item


def test_cancel_flag_right_before_send_commits_nothing(
    turns: Turns,
    memory_repository: MemoryRepository,
    transaction_client: Any,
    scan_table: Any,
    table_names: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # GIVEN a staged turn whose flag is set while the commit request is being built
    flag = CancelFlag()
    faulty = FaultyClient(transaction_client)
    repo = MemoryRepository(
        memory_repository._client, table_names.memory, transaction_client=faulty
    )
    ledger = turns.begin(USER, "turn-cancel-late", cancel_flag=flag, memory_repo=repo)
    ledger.call_tool(add("memory", "Never stored."))
    build = repo.document_writes

    def build_then_cancel(*args: Any, **kwargs: Any) -> Any:
        writes = build(*args, **kwargs)
        flag.cancel()
        return writes

    monkeypatch.setattr(repo, "document_writes", build_then_cancel)
    # WHEN the turn commits
    outcome = ledger.commit()
    # THEN the check right before sending stops it: nothing sent, nothing stored
    assert outcome.status == "cancelled"
    assert faulty.calls == []
    assert scan_table(table_names.memory) == []


def test_tombstone_before_first_staging_disables_writes(
    turns: Turns, ledger_repository: LedgerRepository, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a turn that the user cancelled (POST /turns/{id}/cancel) before it staged
    ledger = turns.begin(USER, "turn-tombstone")
    assert ledger_repository.cancel(USER, "turn-tombstone", now_ms()).previous == "missing"
    # WHEN the model then calls the tool and the turn commits
    result = ledger.call_tool(add("memory", "Too late."))
    again = ledger.call_tool(add("memory", "Still too late."))
    outcome = ledger.commit()
    # THEN the tool reports nothing saved, the outcome is cancelled, nothing stored
    assert result["error"]["code"] == "memory_unavailable"
    assert again["success"] is False
    assert outcome.status == "cancelled"
    assert outcome.reason == "turn_cancelled"
    assert outcome.operations == 1
    assert scan_table(table_names.memory) == []
    assert ledger_items(scan_table, table_names.turn_ledger)["turn-tombstone"]["status"] == {
        "S": "cancelled"
    }


def test_cancel_after_staging_wins_over_commit(
    turns: Turns, ledger_repository: LedgerRepository, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a staged turn (ledger open)
    ledger = turns.begin(USER, "turn-cancelled-open")
    ledger.call_tool(add("memory", "Not saved."))
    # WHEN the user cancels it before the commit
    assert ledger_repository.cancel(USER, "turn-cancelled-open", now_ms()).previous == "open"
    outcome = ledger.commit()
    # THEN the commit's ledger condition fails and nothing is stored
    assert outcome.status == "cancelled"
    assert outcome.reason == "turn_cancelled"
    assert scan_table(table_names.memory) == []


def test_turn_past_its_deadline_commits_nothing(
    memory_repository: MemoryRepository,
    ledger_repository: LedgerRepository,
    transaction_client: Any,
    scan_table: Any,
    table_names: Any,
) -> None:
    # GIVEN a staged turn and a clock that then runs past the turn's deadline
    clock = {"now": 1_000_000}
    faulty = FaultyClient(transaction_client)
    repo = MemoryRepository(
        memory_repository._client, table_names.memory, transaction_client=faulty
    )
    turns = Turns(repo, ledger_repository, clock_ms=lambda: clock["now"])
    ledger = turns.begin(USER, "turn-late", deadline_ms=1_005_000)
    ledger.call_tool(add("memory", "Too slow."))
    clock["now"] = 1_005_001
    # WHEN the turn commits
    outcome = ledger.commit()
    # THEN expired, no transaction sent, nothing stored, ledger no longer open
    assert outcome.status == "expired"
    assert faulty.calls == []
    assert scan_table(table_names.memory) == []
    assert ledger_items(scan_table, table_names.turn_ledger)["turn-late"]["status"]["S"] != "open"


def test_turn_expired_by_cleanup_commits_nothing(
    memory_repository: MemoryRepository,
    ledger_repository: LedgerRepository,
    scan_table: Any,
    table_names: Any,
) -> None:
    # GIVEN a staged turn that the cleanup path expired (its clock is past the deadline)
    clock = {"now": 2_000_000}
    turns = Turns(memory_repository, ledger_repository, clock_ms=lambda: clock["now"])
    ledger = turns.begin(USER, "turn-expired", deadline_ms=2_010_000)
    ledger.call_tool(add("memory", "Never stored."))
    assert ledger_repository.expire_overdue(2_010_001) == 1
    # WHEN the (slow) turn commits while its own clock still says it is in time
    outcome = ledger.commit()
    # THEN the ledger condition fails: expired, nothing stored
    assert outcome.status == "expired"
    assert outcome.reason == "turn_expired"
    assert scan_table(table_names.memory) == []


def test_reused_turn_id_is_a_conflict(turns: Turns, scan_table: Any, table_names: Any) -> None:
    # GIVEN a committed turn
    first = turns.begin(USER, "turn-reused")
    first.call_tool(add("memory", "First."))
    assert first.commit().status == "committed"
    # WHEN another turn runs with the same turn id (a replayed Idempotency-Key)
    second = turns.begin(USER, "turn-reused")
    result = second.call_tool(add("memory", "Second."))
    outcome = second.commit()
    # THEN its writes are disabled and it reports the conflict; only the first is stored
    assert result["error"]["code"] == "memory_unavailable"
    assert outcome.status == "conflict"
    assert outcome.reason == "turn_id_reused"
    assert list(stored(scan_table, table_names.memory).values()) == ["First."]


def test_discard_ends_a_failed_turn(turns: Turns, scan_table: Any, table_names: Any) -> None:
    # GIVEN a staged turn whose model then fails
    ledger = turns.begin(USER, "turn-failed")
    ledger.call_tool(add("memory", "Never stored."))
    # WHEN the service discards it
    outcome = ledger.discard()
    # THEN nothing is stored, the ledger says discarded, and commit cannot revive it
    assert outcome.status == "error"
    assert outcome.reason == "turn_failed"
    assert ledger.commit() == outcome
    assert scan_table(table_names.memory) == []
    item = ledger_items(scan_table, table_names.turn_ledger)["turn-failed"]
    assert item["status"]["S"] == "discarded"


def test_scope_of_another_user_is_refused(turns: Turns) -> None:
    # GIVEN a turn of USER
    ledger = turns.begin(USER, "turn-scope")
    # WHEN the tool runs inside the request scope of someone else
    # THEN it refuses before staging anything
    with memory_scope("someone-else", writes_enabled=True), pytest.raises(MemoryScopeError):
        ledger.call_tool(add("memory", "Cross-user write."))
    assert ledger.has_staged_writes is False


def test_scope_without_writes_disables_the_tool(
    turns: Turns, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a request scope with writes disabled (e.g. read-only rollout)
    ledger = turns.begin(USER, "turn-read-scope")
    # WHEN the model calls the tool
    with memory_scope(USER, writes_enabled=False):
        result = ledger.call_tool(add("memory", "Not allowed."))
    # THEN nothing is staged or written
    assert result["error"]["code"] == "memory_unavailable"
    assert ledger.commit().status == "unchanged"
    assert scan_table(table_names.memory) == []


def test_ledger_items_never_hold_memory_content(
    turns: Turns, ledger_repository: LedgerRepository, scan_table: Any, table_names: Any
) -> None:
    # GIVEN distinctive sentinel strings used as contents and matches in every kind of turn
    sentinels = [f"SENTINEL-{uuid.uuid4().hex}" for _ in range(6)]
    committed = turns.begin(USER, "c-committed")
    committed.call_tool(add("memory", f"Fact {sentinels[0]}"))
    committed.call_tool(replace("memory", sentinels[0], f"Fact {sentinels[1]}"))
    committed.commit()
    cancelled = turns.begin(USER, "c-cancelled")
    cancelled.call_tool(add("user", f"Profile {sentinels[2]}"))
    ledger_repository.cancel(USER, "c-cancelled", now_ms())
    cancelled.commit()
    discarded = turns.begin(USER, "c-discarded")
    discarded.call_tool(add("memory", f"Fact {sentinels[3]}"))
    discarded.discard()
    conflict = turns.begin(USER, "c-conflict")
    conflict.call_tool(remove("memory", sentinels[1]))
    other = turns.begin(USER, "c-other")
    other.call_tool(replace("memory", sentinels[1], f"Fact {sentinels[4]}"))
    other.commit()
    conflict.commit()
    expired = turns.begin(USER, "c-expired", deadline_ms=far_deadline(0.2))
    expired.call_tool(add("memory", f"Fact {sentinels[5]}"))
    ledger_repository.expire_overdue(now_ms() + 10_000)
    expired.commit()
    # WHEN the ledger table is scanned
    dump = json.dumps(scan_table(table_names.turn_ledger))
    # THEN no sentinel appears, and only metadata attributes exist
    for sentinel in sentinels:
        assert sentinel not in dump
    allowed = {
        "user_id", "turn_id", "status", "opened_at", "deadline_ms", "updated_at", "expires_at",
        "open_shard", "opened_by", "commit_token", "committed_at", "operation_counts",
        "cancelled_at", "discarded_at", "expired_at",
    }  # fmt: skip
    for item in scan_table(table_names.turn_ledger):
        assert set(item) <= allowed


class _ResentOpen(LedgerRepository):
    """The SDK resends the ledger put after its first answer was lost: the first put is
    applied, the resend fails its condition and surfaces as TurnExistsError."""

    def open_turn(self, *args: Any, **kwargs: Any) -> None:
        super().open_turn(*args, **kwargs)
        super().open_turn(*args, **kwargs)


def test_a_resent_ledger_open_is_recognised_as_the_turns_own(
    memory_repository: MemoryRepository,
    dynamodb_client: Any,
    table_names: Any,
    scan_table: Any,
) -> None:
    # GIVEN a turn whose ledger put is applied but answered only on the SDK's resend
    turns = Turns(memory_repository, _ResentOpen(dynamodb_client, table_names.turn_ledger))
    ledger = turns.begin(USER, "turn-resent-open")

    # WHEN it stages a fact and commits
    result = ledger.call_tool(add("memory", "Saved once."))
    outcome = ledger.commit()

    # THEN it is not mistaken for a reused turn id: the fact is committed, once
    assert result["success"] is True
    assert outcome.status == "committed"
    assert list(stored(scan_table, table_names.memory).values()) == ["Saved once."]
