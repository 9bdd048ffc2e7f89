"""LedgerRepository against moto over HTTP: open, commit item, cancel, discard, expire."""

from __future__ import annotations

import re
from typing import Any

import pytest

from agent_memory.repository import (
    LEDGER_TTL_S,
    OPEN_SHARDS,
    OPEN_TURNS_INDEX,
    AlreadyCommittedError,
    LedgerRepository,
    MemoryRepository,
    NewTurn,
    TransactionCancelledError,
    TurnExistsError,
    open_shard,
)

USER = "user-ledger"
NOW = 1_700_000_000_000
DEADLINE = NOW + 30_000


def commit(
    ledger: LedgerRepository, memory: MemoryRepository, turn_id: str, now: int, user: str = USER
) -> None:
    item = ledger.commit_item(user, turn_id, f"tok-{turn_id}", now, {"memory": {"add": 2}})
    memory.transact_write([item], token=f"tok-{turn_id}")


def status(ledger: LedgerRepository, turn_id: str, user: str = USER) -> str | None:
    record = ledger.get(user, turn_id)
    return record.status if record else None


def test_open_turn_writes_only_metadata(
    ledger_repository: LedgerRepository, scan_table: Any, table_names: Any
) -> None:
    # WHEN a turn opens
    ledger_repository.open_turn(USER, "t1", DEADLINE, NOW)
    # THEN the item is open, in its GSI shard, with the TTL 7 days out (seconds)
    (item,) = scan_table(table_names.turn_ledger)
    assert item == {
        "user_id": {"S": USER},
        "turn_id": {"S": "t1"},
        "status": {"S": "open"},
        "opened_at": {"N": str(NOW)},
        "deadline_ms": {"N": str(DEADLINE)},
        "updated_at": {"N": str(NOW)},
        "expires_at": {"N": str(NOW // 1000 + LEDGER_TTL_S)},
        "open_shard": {"S": open_shard(USER)},
    }
    assert LEDGER_TTL_S == 7 * 24 * 3600


def test_open_turn_is_conditional(ledger_repository: LedgerRepository) -> None:
    # GIVEN an open turn
    ledger_repository.open_turn(USER, "t1", DEADLINE, NOW)
    # WHEN the same turn id opens again THEN it is refused
    with pytest.raises(TurnExistsError):
        ledger_repository.open_turn(USER, "t1", DEADLINE, NOW + 1)


def _leave_in(ledger: LedgerRepository, memory: MemoryRepository, state: str) -> None:
    """Turn t1 in ``state``, opened by attempt ``first`` (deadline ``DEADLINE``)."""
    ledger.open_turn(USER, "t1", DEADLINE, NOW, opener="first")
    if state == "committed":
        commit(ledger, memory, "t1", NOW + 5)
    elif state == "proposed":
        item = ledger.commit_item(USER, "t1", "tok", NOW + 5, {}, status="proposed")
        memory.transact_write([item], token="tok")
    elif state == "cancelled":
        ledger.cancel(USER, "t1", NOW + 5)
    elif state == "discarded":
        assert ledger.discard(USER, "t1", NOW + 5, opener="first")
    elif state == "expired":
        assert ledger.expire_overdue(DEADLINE + 1) == 1


@pytest.mark.parametrize(
    ("state", "now"), [("discarded", NOW + 10), ("expired", DEADLINE + 10), ("open", DEADLINE + 1)]
)
def test_a_retry_takes_over_an_attempt_that_can_never_commit(
    ledger_repository: LedgerRepository,
    memory_repository: MemoryRepository,
    state: str,
    now: int,
) -> None:
    # GIVEN a failed attempt's item: discarded, expired, or open past its deadline
    _leave_in(ledger_repository, memory_repository, state)

    # WHEN a retry of the same turn opens it
    ledger_repository.open_turn(USER, "t1", now + 30_000, now, opener="second")

    # THEN the item is the retry's, open, and the retry can commit
    record = ledger_repository.get(USER, "t1")
    assert record is not None
    assert (record.status, record.opened_by) == ("open", "second")
    item = ledger_repository.commit_item(USER, "t1", "tok2", now + 5, {}, opener="second")
    memory_repository.transact_write([item], token="tok2")
    assert status(ledger_repository, "t1") == "committed"


@pytest.mark.parametrize("state", ["committed", "proposed", "cancelled", "open"])
def test_a_completed_cancelled_or_running_turn_is_never_taken_over(
    ledger_repository: LedgerRepository, memory_repository: MemoryRepository, state: str
) -> None:
    # GIVEN a turn that committed, proposed, was cancelled, or is still running
    _leave_in(ledger_repository, memory_repository, state)

    # WHEN another attempt of it tries to open it THEN it is refused, the item unchanged
    with pytest.raises(TurnExistsError):
        ledger_repository.open_turn(USER, "t1", DEADLINE + 60_000, NOW + 10, opener="second")
    record = ledger_repository.get(USER, "t1")
    assert record is not None
    assert record.status == state
    assert record.opened_by == "first"


def test_the_superseded_attempt_can_neither_commit_nor_discard(
    ledger_repository: LedgerRepository, memory_repository: MemoryRepository
) -> None:
    # GIVEN an attempt that overran its deadline, and a retry that took its item over
    ledger_repository.open_turn(USER, "t1", DEADLINE, NOW, opener="first")
    later = DEADLINE + 1
    ledger_repository.open_turn(USER, "t1", later + 30_000, later, opener="second")

    # WHEN the first attempt still tries to commit (before the retry's deadline) or discard
    item = ledger_repository.commit_item(USER, "t1", "tok1", later + 5, {}, opener="first")
    with pytest.raises(TransactionCancelledError):
        memory_repository.transact_write([item], token="tok1")
    assert not ledger_repository.discard(USER, "t1", later + 6, opener="first")

    # THEN the retry's item is untouched
    record = ledger_repository.get(USER, "t1")
    assert record is not None
    assert (record.status, record.opened_by) == ("open", "second")


def test_a_retry_creates_the_item_in_its_commit_over_a_failed_attempts_tombstone(
    ledger_repository: LedgerRepository, memory_repository: MemoryRepository
) -> None:
    # GIVEN a short first attempt that never opened its item and failed: a tombstone
    assert ledger_repository.discard(USER, "t1", NOW + 5, opened=False, opener="first")

    # WHEN the failed attempt's own commit still arrives, THEN the tombstone fences it
    late = ledger_repository.commit_item(
        USER, "t1", "tok1", NOW + 6, {}, create=NewTurn(NOW, DEADLINE), opener="first"
    )
    with pytest.raises(TransactionCancelledError):
        memory_repository.transact_write([late], token="tok1")

    # WHEN a retry (another attempt) commits, creating the item in its transaction
    item = ledger_repository.commit_item(
        USER, "t1", "tok2", NOW + 10, {}, create=NewTurn(NOW + 8, DEADLINE), opener="second"
    )
    memory_repository.transact_write([item], token="tok2")

    # THEN it committed, and a third attempt can never commit again
    record = ledger_repository.get(USER, "t1")
    assert record is not None
    assert (record.status, record.opened_by) == ("committed", "second")
    again = ledger_repository.commit_item(
        USER, "t1", "tok3", NOW + 20, {}, create=NewTurn(NOW + 15, DEADLINE), opener="third"
    )
    with pytest.raises(TransactionCancelledError):
        memory_repository.transact_write([again], token="tok3")
    assert not ledger_repository.discard(USER, "t1", NOW + 21, opened=False, opener="third")
    assert status(ledger_repository, "t1") == "committed"


def test_a_commit_creating_the_item_never_replaces_a_cancelled_turn(
    ledger_repository: LedgerRepository, memory_repository: MemoryRepository
) -> None:
    ledger_repository.cancel(USER, "t1", NOW)

    item = ledger_repository.commit_item(
        USER, "t1", "tok", NOW + 5, {}, create=NewTurn(NOW, DEADLINE), opener="second"
    )
    with pytest.raises(TransactionCancelledError):
        memory_repository.transact_write([item], token="tok")
    assert status(ledger_repository, "t1") == "cancelled"


def test_shards_are_stable_and_spread() -> None:
    shards = {open_shard(f"user-{i}") for i in range(200)}
    assert shards == {f"open#{n}" for n in range(OPEN_SHARDS)}
    assert open_shard("alice") == open_shard("alice")
    assert re.fullmatch(r"open#[0-7]", open_shard("alice"))


def test_commit_item_moves_open_to_committed(
    ledger_repository: LedgerRepository, memory_repository: MemoryRepository
) -> None:
    # GIVEN an open turn
    ledger_repository.open_turn(USER, "t1", DEADLINE, NOW)
    # WHEN its commit item is written before the deadline
    commit(ledger_repository, memory_repository, "t1", NOW + 5)
    # THEN committed, with our token and the counts, out of the open-turns index
    record = ledger_repository.get(USER, "t1")
    assert record is not None
    assert record.status == "committed"
    assert record.commit_token == "tok-t1"
    assert record.operation_counts == {"memory": {"add": 2}}


@pytest.mark.parametrize("case", ["past-deadline", "at-deadline", "cancelled", "missing"])
def test_commit_item_condition(
    ledger_repository: LedgerRepository, memory_repository: MemoryRepository, case: str
) -> None:
    # GIVEN a turn that may not commit
    now = NOW + 5
    if case != "missing":
        ledger_repository.open_turn(USER, "t1", DEADLINE, NOW)
    if case == "cancelled":
        ledger_repository.cancel(USER, "t1", NOW + 1)
    if case == "past-deadline":
        now = DEADLINE + 1
    if case == "at-deadline":
        now = DEADLINE
    # WHEN it tries THEN the ledger's condition fails
    with pytest.raises(TransactionCancelledError) as error:
        commit(ledger_repository, memory_repository, "t1", now)
    assert error.value.reasons == ("ConditionalCheckFailed",)


def test_cancel_open_turn(ledger_repository: LedgerRepository) -> None:
    ledger_repository.open_turn(USER, "t1", DEADLINE, NOW)
    result = ledger_repository.cancel(USER, "t1", NOW + 1)
    assert (result.status, result.previous, result.changed) == ("cancelled", "open", True)
    assert status(ledger_repository, "t1") == "cancelled"


def test_cancel_unknown_turn_leaves_a_tombstone(
    ledger_repository: LedgerRepository, scan_table: Any, table_names: Any
) -> None:
    # WHEN a turn that never staged is cancelled
    result = ledger_repository.cancel(USER, "t1", NOW)
    # THEN a cancelled tombstone exists (not in the open-turns index) and blocks opening
    assert (result.status, result.previous, result.changed) == ("cancelled", "missing", True)
    (item,) = scan_table(table_names.turn_ledger)
    assert item["status"] == {"S": "cancelled"}
    assert "open_shard" not in item
    assert "deadline_ms" not in item
    with pytest.raises(TurnExistsError):
        ledger_repository.open_turn(USER, "t1", DEADLINE, NOW + 1)


def test_cancel_is_idempotent(ledger_repository: LedgerRepository) -> None:
    ledger_repository.cancel(USER, "t1", NOW)
    again = ledger_repository.cancel(USER, "t1", NOW + 1)
    assert (again.status, again.previous, again.changed) == ("cancelled", "cancelled", False)


def test_cancel_refuses_a_committed_turn(
    ledger_repository: LedgerRepository, memory_repository: MemoryRepository
) -> None:
    ledger_repository.open_turn(USER, "t1", DEADLINE, NOW)
    commit(ledger_repository, memory_repository, "t1", NOW + 1)
    with pytest.raises(AlreadyCommittedError):
        ledger_repository.cancel(USER, "t1", NOW + 2)
    assert status(ledger_repository, "t1") == "committed"


def test_cancel_of_an_expired_or_discarded_turn_marks_it_cancelled(
    ledger_repository: LedgerRepository,
) -> None:
    # GIVEN a turn the cleanup expired and one whose attempt failed
    ledger_repository.open_turn(USER, "t-expired", NOW + 10, NOW)
    ledger_repository.expire_overdue(NOW + 11)
    ledger_repository.open_turn(USER, "t-discarded", DEADLINE, NOW)
    ledger_repository.discard(USER, "t-discarded", NOW + 1)

    # WHEN the user cancels them
    expired = ledger_repository.cancel(USER, "t-expired", NOW + 12)
    discarded = ledger_repository.cancel(USER, "t-discarded", NOW + 12)

    # THEN both are cancelled in the ledger (what GET /turns then says), having written
    assert (expired.status, expired.previous, expired.changed) == ("cancelled", "expired", True)
    assert (discarded.status, discarded.previous) == ("cancelled", "discarded")
    assert status(ledger_repository, "t-expired") == "cancelled"
    assert status(ledger_repository, "t-discarded") == "cancelled"


@pytest.mark.parametrize("state", ["discarded", "expired"])
def test_a_retry_of_a_failed_turn_the_user_cancelled_never_commits(
    ledger_repository: LedgerRepository, memory_repository: MemoryRepository, state: str
) -> None:
    # GIVEN a failed attempt's item (a retry could take it over), then the user's cancel
    _leave_in(ledger_repository, memory_repository, state)
    later = DEADLINE + 20
    ledger_repository.cancel(USER, "t1", later)

    # WHEN the client retries the turn: its open, or its commit creating the item
    with pytest.raises(TurnExistsError):
        ledger_repository.open_turn(USER, "t1", later + 30_000, later + 1, opener="second")
    item = ledger_repository.commit_item(
        USER,
        "t1",
        "tok2",
        later + 2,
        {},
        create=NewTurn(later + 1, later + 30_000),
        opener="second",
    )

    # THEN neither lands: the turn stays cancelled
    with pytest.raises(TransactionCancelledError):
        memory_repository.transact_write([item], token="tok2")
    assert status(ledger_repository, "t1") == "cancelled"


def test_a_late_create_of_a_superseded_attempt_never_replaces_the_retrys_item(
    ledger_repository: LedgerRepository, memory_repository: MemoryRepository
) -> None:
    # GIVEN attempt A sent its create-commit at NOW + 5, and it is delayed; meanwhile A gave up
    # (its tombstone), a retry B ran and failed too (B's tombstone, written at NOW + 50)
    late = ledger_repository.commit_item(
        USER, "t1", "tokA", NOW + 5, {}, create=NewTurn(NOW, DEADLINE), opener="first"
    )
    assert ledger_repository.discard(USER, "t1", NOW + 10, opened=False, opener="first")
    assert ledger_repository.discard(USER, "t1", NOW + 50, opened=False, opener="second")

    # WHEN A's delayed request finally arrives
    with pytest.raises(TransactionCancelledError):
        memory_repository.transact_write([late], token="tokA")

    # THEN B's tombstone stands: A's request predates it
    record = ledger_repository.get(USER, "t1")
    assert record is not None
    assert (record.status, record.opened_by) == ("discarded", "second")


def test_cancel_is_race_safe_when_the_turn_appears(
    ledger_repository: LedgerRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a cancel that first reads "no item" while the turn opens meanwhile
    real_get = ledger_repository.get
    reads = {"n": 0}

    def get_then_open(user_id: str, turn_id: str) -> Any:
        reads["n"] += 1
        if reads["n"] == 1:
            ledger_repository.open_turn(USER, "t1", DEADLINE, NOW)
            return None
        return real_get(user_id, turn_id)

    monkeypatch.setattr(ledger_repository, "get", get_then_open)
    # WHEN the cancel goes on (its tombstone put fails: the item appeared)
    result = ledger_repository.cancel(USER, "t1", NOW + 1)
    # THEN it re-reads and cancels the open turn instead
    assert (result.status, result.previous) == ("cancelled", "open")
    assert real_get(USER, "t1").status == "cancelled"  # type: ignore[union-attr]


def test_discard(ledger_repository: LedgerRepository) -> None:
    ledger_repository.open_turn(USER, "t1", DEADLINE, NOW)
    assert ledger_repository.discard(USER, "t1", NOW + 1) is True
    assert status(ledger_repository, "t1") == "discarded"
    assert ledger_repository.discard(USER, "t1", NOW + 2) is False
    assert ledger_repository.discard(USER, "never-opened", NOW + 2) is False


def test_expire_overdue_moves_only_open_turns_past_their_deadline(
    ledger_repository: LedgerRepository,
    memory_repository: MemoryRepository,
    dynamodb_client: Any,
    table_names: Any,
) -> None:
    # GIVEN open turns past their deadline (several users, so several shards), one open in
    # time, and past-deadline turns that committed, were cancelled or discarded
    overdue = [(f"user-{i}", f"late-{i}") for i in range(6)]
    for user, turn in overdue:
        ledger_repository.open_turn(user, turn, NOW + 100, NOW)
    ledger_repository.open_turn(USER, "in-time", NOW + 10_000, NOW)
    ledger_repository.open_turn(USER, "committed", NOW + 100, NOW)
    commit(ledger_repository, memory_repository, "committed", NOW + 50)
    ledger_repository.open_turn(USER, "cancelled", NOW + 100, NOW)
    ledger_repository.cancel(USER, "cancelled", NOW + 50)
    ledger_repository.open_turn(USER, "discarded", NOW + 100, NOW)
    ledger_repository.discard(USER, "discarded", NOW + 50)
    assert len({open_shard(user) for user, _ in overdue}) > 1
    # WHEN the cleanup runs after those deadlines (with a limit, then again)
    first = ledger_repository.expire_overdue(NOW + 200, limit=4)
    second = ledger_repository.expire_overdue(NOW + 200)
    third = ledger_repository.expire_overdue(NOW + 200)
    # THEN exactly the open overdue turns are moved, each once, and counted
    assert (first, second, third) == (4, 2, 0)
    for user, turn in overdue:
        assert status(ledger_repository, turn, user) == "expired"
    assert status(ledger_repository, "in-time") == "open"
    assert status(ledger_repository, "committed") == "committed"
    assert status(ledger_repository, "cancelled") == "cancelled"
    assert status(ledger_repository, "discarded") == "discarded"
    # AND the sparse index now holds only the turn still open
    index = dynamodb_client.scan(TableName=table_names.turn_ledger, IndexName=OPEN_TURNS_INDEX)
    assert [i["turn_id"]["S"] for i in index["Items"]] == ["in-time"]
