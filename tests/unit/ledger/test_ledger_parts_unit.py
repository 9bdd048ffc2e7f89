"""Retry classification and backoff, the cancel flag, the request scope, the outcome."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_memory.domain import Operation, Snapshot
from agent_memory.ledger import (
    Action,
    CancelFlag,
    MemoryOutcome,
    MemoryScopeError,
    RetryPolicy,
    TurnCancelledError,
    classify_cancellation,
    current_memory_request,
    memory_scope,
    operation_counts,
    require_memory_request,
)

CODES = [
    "None",
    "ConditionalCheckFailed",
    "TransactionConflict",
    "ThrottlingError",
    "ProvisionedThroughputExceeded",
    "ValidationError",
    "ItemCollectionSizeLimitExceeded",
]


@pytest.mark.parametrize(
    ("reasons", "action", "code"),
    [
        (("None", "ConditionalCheckFailed"), Action.CHECK_LEDGER, "ConditionalCheckFailed"),
        (
            ("ConditionalCheckFailed", "ConditionalCheckFailed"),
            Action.CHECK_LEDGER,
            "ConditionalCheckFailed",
        ),
        (("ConditionalCheckFailed", "None", "None"), Action.REPLAY, "ConditionalCheckFailed"),
        (("None", "ConditionalCheckFailed", "None"), Action.REPLAY, "ConditionalCheckFailed"),
        (
            ("ConditionalCheckFailed", "TransactionConflict"),
            Action.REPLAY,
            "ConditionalCheckFailed",
        ),
        (("None", "TransactionConflict"), Action.RETRY_SAME, "TransactionConflict"),
        (("ThrottlingError", "None"), Action.RETRY_SAME, "ThrottlingError"),
        (("ProvisionedThroughputExceeded",), Action.RETRY_SAME, "ProvisionedThroughputExceeded"),
        (("ValidationError", "None"), Action.FAIL, "ValidationError"),
        (("None", "None"), Action.FAIL, "TransactionCanceled"),
        ((), Action.FAIL, "TransactionCanceled"),
    ],
)
def test_classify_cancellation(reasons: tuple[str, ...], action: Action, code: str) -> None:
    ledger_index = max(len(reasons) - 1, 0)
    decision = classify_cancellation(reasons, ledger_index)
    assert (decision.action, decision.code) == (action, code)


@given(st.lists(st.sampled_from(CODES), min_size=1, max_size=3))
def test_a_failed_ledger_condition_always_wins(reasons: list[str]) -> None:
    reasons.append("ConditionalCheckFailed")
    assert classify_cancellation(reasons, len(reasons) - 1).action is Action.CHECK_LEDGER


@given(st.integers(min_value=1, max_value=60), st.floats(min_value=0, max_value=0.9999))
def test_backoff_stays_within_bounds(attempt: int, r: float) -> None:
    policy = RetryPolicy()
    same = policy.same_request_delay_ms(attempt, lambda: r)
    replay = policy.replay_delay_ms(attempt, lambda: r)
    assert policy.same_request_base_ms / 2 <= same <= policy.same_request_cap_ms
    assert 0 <= replay <= policy.replay_cap_ms


def test_cancel_flag() -> None:
    flag = CancelFlag()
    flag.raise_if_cancelled()
    assert flag.is_set() is False
    setter = threading.Timer(0.01, flag.cancel)
    setter.start()
    assert flag.wait(timeout=5) is True
    with pytest.raises(TurnCancelledError):
        flag.raise_if_cancelled()


def test_scope_binds_and_resets() -> None:
    assert current_memory_request.get() is None
    with pytest.raises(MemoryScopeError):
        require_memory_request()
    with memory_scope("alice", writes_enabled=True) as request:
        assert require_memory_request() == request
        with memory_scope("alice", writes_enabled=False):
            assert require_memory_request().writes_enabled is False
        assert require_memory_request().writes_enabled is True
    assert current_memory_request.get() is None
    with pytest.raises(MemoryScopeError), memory_scope("", writes_enabled=True):
        pass


def test_scope_never_leaks_between_threads() -> None:
    barrier = threading.Barrier(8)

    def in_scope(index: int) -> str:
        with memory_scope(f"user-{index}", writes_enabled=True):
            barrier.wait(timeout=5)
            return require_memory_request().user_id

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert list(pool.map(in_scope, range(8))) == [f"user-{i}" for i in range(8)]


def test_scope_never_leaks_between_tasks() -> None:
    async def in_scope(index: int) -> str:
        with memory_scope(f"user-{index}", writes_enabled=True):
            await asyncio.sleep(0.001 * (8 - index))
            return require_memory_request().user_id

    async def main() -> list[str]:
        return await asyncio.gather(*(in_scope(i) for i in range(8)))

    assert asyncio.run(main()) == [f"user-{i}" for i in range(8)]


def test_outcome_to_dict() -> None:
    outcome = MemoryOutcome.of(
        "committed", Snapshot(user=("Ada",), memory=("a", "b")), operations=2, replays=1
    )
    assert outcome.to_dict() == {
        "status": "committed",
        "operations": 2,
        "user": {"chars": 3, "limit": 1375},
        "memory": {"chars": 5, "limit": 2200},
    }
    conflict = MemoryOutcome.of("conflict", None, reason="no_match")
    assert conflict.to_dict()["reason"] == "no_match"
    assert conflict.to_dict()["memory"] == {"chars": 0, "limit": 2200}
    assert MemoryOutcome.disabled().status == "disabled"
    assert outcome.metrics()["replay_count"] == 1


def test_operation_counts_hold_numbers_only() -> None:
    ops = [
        Operation("memory", "add", content="secret one"),
        Operation("memory", "add", content="secret two"),
        Operation("user", "remove", match="secret three"),
    ]
    counts = operation_counts(ops)
    assert counts == {"memory": {"add": 2}, "user": {"remove": 1}}
    assert "secret" not in repr(counts)
