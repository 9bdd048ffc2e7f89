"""The commit protocol under faults moto cannot produce (injected around a real client, or
with botocore's Stubber), and under interleavings staged by hand. Each test asserts what is
stored afterwards."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import EndpointConnectionError, ReadTimeoutError
from botocore.stub import Stubber
from ledger_support import (
    FaultyClient,
    Turns,
    add,
    cancelled,
    conflict_on_ledger_item,
    fail_before,
    operations,
    remove,
    replace,
    seed_memory,
    throttled,
    timeout_after_applied,
)

from agent_memory.domain import render_document
from agent_memory.repository import (
    LedgerRepository,
    MemoryRepository,
    new_client,
)

USER = "user-faults"


@pytest.fixture
def faulty(transaction_client: Any) -> FaultyClient:
    return FaultyClient(transaction_client)


@pytest.fixture
def faulty_turns(
    memory_repository: MemoryRepository,
    ledger_repository: LedgerRepository,
    faulty: FaultyClient,
    table_names: Any,
) -> Turns:
    repo = MemoryRepository(
        memory_repository._client, table_names.memory, transaction_client=faulty
    )
    return Turns(repo, ledger_repository)


@pytest.fixture
def turns(memory_repository: MemoryRepository, ledger_repository: LedgerRepository) -> Turns:
    return Turns(memory_repository, ledger_repository)


def memory_content(scan_table: Any, table_names: Any) -> str | None:
    for item in scan_table(table_names.memory):
        if item["memory_type"]["S"] == "memory":
            return str(item["content"]["S"])
    return None


def ledger_status(ledger_repository: LedgerRepository, turn_id: str) -> str | None:
    record = ledger_repository.get(USER, turn_id)
    return record.status if record else None


def test_transaction_conflict_then_success(
    faulty_turns: Turns, faulty: FaultyClient, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a staged turn and a transaction that first collides with another one
    faulty.faults = [conflict_on_ledger_item()]
    ledger = faulty_turns.begin(USER, "turn-conflict")
    ledger.call_tool(add("memory", "Fact after a conflict."))
    # WHEN it commits
    outcome = ledger.commit()
    # THEN the SAME request (same token) is resent once and commits; stored once
    assert outcome.status == "committed"
    assert (outcome.retries, outcome.replays) == (1, 0)
    assert len(faulty.calls) == 2
    assert faulty.calls[0] == faulty.calls[1]
    assert memory_content(scan_table, table_names) == "Fact after a conflict."


def test_throttling_is_retried_with_the_same_token(
    faulty_turns: Turns, faulty: FaultyClient, scan_table: Any, table_names: Any
) -> None:
    # GIVEN three throttled attempts in a row (three kinds DynamoDB sends)
    faulty.faults = [
        throttled("ProvisionedThroughputExceededException"),
        throttled("ThrottlingException"),
        fail_before(lambda kwargs: _cancelled_all(kwargs, "ThrottlingError")),
    ]
    ledger = faulty_turns.begin(USER, "turn-throttled")
    ledger.call_tool(add("memory", "Throttled fact."))
    # WHEN it commits
    outcome = ledger.commit()
    # THEN the fourth attempt of the same request commits
    assert outcome.status == "committed"
    assert outcome.retries == 3
    assert len(set(faulty.tokens)) == 1
    assert len(faulty.tokens) == 4
    assert memory_content(scan_table, table_names) == "Throttled fact."


def test_retries_of_the_same_request_are_limited(
    faulty_turns: Turns,
    faulty: FaultyClient,
    ledger_repository: LedgerRepository,
    scan_table: Any,
    table_names: Any,
) -> None:
    # GIVEN a table that stays throttled
    faulty.faults = [throttled() for _ in range(10)]
    ledger = faulty_turns.begin(USER, "turn-throttled-out")
    ledger.call_tool(add("memory", "Never stored."))
    # WHEN it commits
    outcome = ledger.commit()
    # THEN it gives up after 1 + 3 attempts with an error code, nothing stored, ledger fenced
    assert outcome.status == "error"
    assert outcome.reason == "ProvisionedThroughputExceededException"
    assert len(faulty.calls) == 4
    assert memory_content(scan_table, table_names) is None
    assert ledger_status(ledger_repository, "turn-throttled-out") == "discarded"


def test_transport_error_after_the_request_was_applied(
    turns: Turns,
    faulty_turns: Turns,
    faulty: FaultyClient,
    ledger_repository: LedgerRepository,
    scan_table: Any,
    table_names: Any,
) -> None:
    # GIVEN a stored counter, and a batch that would fail or double if applied twice
    seed_memory(turns.memory_repo, ledger_repository, USER, memory=["Counter: 1"])
    faulty.faults = [timeout_after_applied()]
    ledger = faulty_turns.begin(USER, "turn-ambiguous")
    result = ledger.call_tool(
        operations(replace("memory", "Counter: 1", "Counter: 2"), add("memory", "Bumped once."))
    )
    assert result["success"]
    # WHEN the commit is applied but its answer is lost
    outcome = ledger.commit()
    # THEN the same request is resent with the same token; the ledger (committed with our
    # token) settles it: success, no replay, the batch applied exactly once
    assert outcome.status == "committed"
    assert outcome.replays == 0
    assert len(faulty.calls) == 2
    assert faulty.calls[0] == faulty.calls[1]
    assert memory_content(scan_table, table_names) == render_document(
        ["Counter: 2", "Bumped once."]
    )
    record = ledger_repository.get(USER, "turn-ambiguous")
    assert record is not None
    assert record.status == "committed"
    assert record.commit_token == faulty.tokens[0]
    assert outcome.memory.chars == len(render_document(["Counter: 2", "Bumped once."]))


def test_transport_error_before_sending_then_another_writer(
    faulty_turns: Turns,
    faulty: FaultyClient,
    turns: Turns,
    scan_table: Any,
    table_names: Any,
) -> None:
    # GIVEN a staged turn whose first attempt never arrives, while another turn commits
    ledger = faulty_turns.begin(USER, "turn-lost")
    ledger.call_tool(add("memory", "Mine."))

    def other_commits_then_connection_fails(real: Any, kwargs: dict[str, Any]) -> Any:
        other = turns.begin(USER, "turn-other")
        other.call_tool(add("memory", "Theirs."))
        assert other.commit().status == "committed"
        raise EndpointConnectionError(endpoint_url="http://injected")

    faulty.faults = [other_commits_then_connection_fails]
    # WHEN it commits
    outcome = ledger.commit()
    # THEN the resend finds the document changed; the ledger shows ours did not commit, so
    # the batch is replayed on the latest snapshot: both facts stored
    assert outcome.status == "committed"
    assert outcome.replays == 1
    assert memory_content(scan_table, table_names) == render_document(["Theirs.", "Mine."])


def test_replay_after_a_concurrent_commit(
    turns: Turns, ledger_repository: LedgerRepository, scan_table: Any, table_names: Any
) -> None:
    # GIVEN two turns that loaded the same snapshot
    seed_memory(turns.memory_repo, ledger_repository, USER, memory=["Base."])
    first = turns.begin(USER, "turn-a")
    second = turns.begin(USER, "turn-b")
    first.call_tool(add("memory", "From A."))
    second.call_tool(add("memory", "From B."))
    # WHEN B commits first, then A
    assert second.commit().status == "committed"
    outcome = first.commit()
    # THEN A's batch is replayed on B's result: both changes preserved
    assert outcome.status == "committed"
    assert outcome.replays == 1
    expected = render_document(["Base.", "From B.", "From A."])
    assert memory_content(scan_table, table_names) == expected
    assert outcome.memory.chars == len(expected)


def test_replay_whose_batch_no_longer_applies(
    turns: Turns, ledger_repository: LedgerRepository, scan_table: Any, table_names: Any
) -> None:
    # GIVEN two turns: A replaces an entry that B removes
    seed_memory(turns.memory_repo, ledger_repository, USER, memory=["Editor: vim.", "Other."])
    a = turns.begin(USER, "turn-replace")
    b = turns.begin(USER, "turn-remove")
    a.call_tool(operations(replace("memory", "Editor:", "Editor: emacs."), add("memory", "New.")))
    b.call_tool(remove("memory", "Editor:"))
    # WHEN B commits first, then A
    assert b.commit().status == "committed"
    outcome = a.commit()
    # THEN A is rejected clearly, none of its operations stored, its ledger fenced
    assert outcome.status == "conflict"
    assert outcome.reason == "no_match"
    assert memory_content(scan_table, table_names) == "Other."
    assert ledger_status(ledger_repository, "turn-replace") == "discarded"


def test_aba_stale_writer_cannot_commit_over_a_recreated_document(
    turns: Turns, ledger_repository: LedgerRepository, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a writer that read a document...
    seed_memory(turns.memory_repo, ledger_repository, USER, memory=["Same text."])
    stale = turns.begin(USER, "turn-stale")
    stale.call_tool(replace("memory", "Same text.", "Stale rewrite."))
    seen = stale._loaded.document("memory").revision  # type: ignore[union-attr]
    # ...which others then delete and re-create with the very same content
    deleter = turns.begin(USER, "turn-delete")
    deleter.call_tool(remove("memory", "Same text."))
    assert deleter.commit().status == "committed"
    assert memory_content(scan_table, table_names) is None
    creator = turns.begin(USER, "turn-recreate")
    creator.call_tool(add("memory", "Same text."))
    assert creator.commit().status == "committed"
    recreated = turns.memory_repo.load(USER).document("memory").revision
    assert recreated != seen
    # WHEN the stale writer commits
    outcome = stale.commit()
    # THEN its conditional write fails on the new revision and the batch is replayed on the
    # re-created document (never written over it blindly)
    assert outcome.replays == 1
    assert outcome.status == "committed"
    assert memory_content(scan_table, table_names) == "Stale rewrite."
    assert turns.memory_repo.load(USER).document("memory").revision not in (seen, recreated)


def test_validation_error_is_never_retried(
    turns: Turns,
    ledger_repository: LedgerRepository,
    table_names: Any,
    moto_endpoint: str,
    scan_table: Any,
) -> None:
    # GIVEN a transaction client that answers ValidationException (Stubber)
    client = new_client(
        region="us-east-1",
        endpoint_url=moto_endpoint,
        transactions=True,
        credentials={"aws_access_key_id": "testing", "aws_secret_access_key": "testing"},
    )
    stubber = Stubber(client)
    stubber.add_client_error("transact_write_items", "ValidationException", "bad request")
    repo = MemoryRepository(
        turns.memory_repo._client, table_names.memory, transaction_client=client
    )
    ledger = turns.begin(USER, "turn-invalid", memory_repo=repo)
    ledger.call_tool(add("memory", "Never stored."))
    # WHEN it commits
    with stubber:
        outcome = ledger.commit()
    # THEN one attempt only, outcome error with the code (not the message), nothing stored
    stubber.assert_no_pending_responses()
    assert outcome.status == "error"
    assert outcome.reason == "ValidationException"
    assert outcome.retries == 0
    assert memory_content(scan_table, table_names) is None
    assert ledger_status(ledger_repository, "turn-invalid") == "discarded"


def test_unknown_error_is_never_retried(
    faulty_turns: Turns, faulty: FaultyClient, scan_table: Any, table_names: Any
) -> None:
    # GIVEN an error code nobody classified
    faulty.faults = [throttled("SomethingNewException")]
    ledger = faulty_turns.begin(USER, "turn-unknown")
    ledger.call_tool(add("memory", "Never stored."))
    # WHEN it commits
    outcome = ledger.commit()
    # THEN no retry, error with the code, nothing stored
    assert (outcome.status, outcome.reason) == ("error", "SomethingNewException")
    assert len(faulty.calls) == 1
    assert memory_content(scan_table, table_names) is None


def test_read_timeout_on_every_attempt_then_fenced(
    faulty_turns: Turns,
    faulty: FaultyClient,
    ledger_repository: LedgerRepository,
    scan_table: Any,
    table_names: Any,
) -> None:
    # GIVEN a network that never answers (the requests never arrive)
    faulty.faults = [
        fail_before(lambda kwargs: ReadTimeoutError(endpoint_url="http://injected"))
        for _ in range(4)
    ]
    ledger = faulty_turns.begin(USER, "turn-timeouts")
    ledger.call_tool(add("memory", "Never stored."))
    # WHEN it commits
    outcome = ledger.commit()
    # THEN it gives up, discards the ledger (so a late request could not commit) and says so
    assert outcome.status == "error"
    assert outcome.reason == "ReadTimeoutError"
    assert ledger_status(ledger_repository, "turn-timeouts") == "discarded"
    assert memory_content(scan_table, table_names) is None


def _cancelled_all(kwargs: dict[str, Any], code: str) -> Exception:
    return cancelled(*([code] * len(kwargs["TransactItems"])))
