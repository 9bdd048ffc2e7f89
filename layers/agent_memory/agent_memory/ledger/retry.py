"""Retry policy of the commit: how a failed ``TransactWriteItems`` is classified and how long
to wait before the next attempt."""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agent_memory.retryable import DYNAMODB_RETRYABLE_CANCELLATION_REASONS

CONDITION_FAILED = "ConditionalCheckFailed"
NO_REASON = "None"


class Action(enum.Enum):
    CHECK_LEDGER = "check_ledger"  # the ledger's condition failed: ask the ledger what happened
    FORGOTTEN = "forgotten"  # DELETE /memory ran since the load: the turn commits nothing
    REPLAY = "replay"  # a document changed under us: reload and replay the whole batch
    RETRY_SAME = "retry_same"  # conflict or throttling: same request, same token
    FAIL = "fail"  # validation or unknown: never retried


@dataclass(frozen=True)
class Classification:
    action: Action
    code: str


def classify_cancellation(
    reasons: Sequence[str], ledger_index: int, fence_index: int | None = None
) -> Classification:
    """Decide from the per-item reasons of a cancelled transaction whose last item (at
    ``ledger_index``) is the ledger update, whose item at ``fence_index`` (when given) is
    the forget fence and whose other items are the documents.

    The ledger comes first: when it failed, the turn is over (or an ambiguous earlier
    attempt already committed it) and a replay would be wrong. The fence comes next: after
    a DELETE /memory the documents fail too, and replaying onto the emptied documents is
    exactly what must never happen.
    """
    if len(reasons) <= ledger_index:
        return Classification(Action.FAIL, "TransactionCanceled")
    if reasons[ledger_index] == CONDITION_FAILED:
        return Classification(Action.CHECK_LEDGER, CONDITION_FAILED)
    if fence_index is not None and reasons[fence_index] == CONDITION_FAILED:
        return Classification(Action.FORGOTTEN, CONDITION_FAILED)
    if CONDITION_FAILED in reasons[:ledger_index]:
        return Classification(Action.REPLAY, CONDITION_FAILED)
    for code in reasons:
        if code in DYNAMODB_RETRYABLE_CANCELLATION_REASONS:
            return Classification(Action.RETRY_SAME, code)
    failed = [code for code in reasons if code != NO_REASON]
    return Classification(Action.FAIL, failed[0] if failed else "TransactionCanceled")


@dataclass(frozen=True)
class RetryPolicy:
    """Backoff and limits; ``rand`` (0 <= r < 1) is injected so tests can pin the jitter.

    Same-request retries are few and short (equal jitter). Replays are bounded by the
    turn's deadline, not by a small count: every writer of a contended user should get in.
    A replay follows a failed condition, which means another writer committed: progress was
    made, nobody is waiting on a lock, so the first ``immediate_replays`` go at once (a
    sleep there only adds latency, and each retry of a contended user can only find it
    changed again by a writer that got in). After that their delay grows exponentially with
    full jitter to spread persistent writers apart. ``max_replays`` is only a safety net.
    """

    max_same_request_retries: int = 3
    same_request_base_ms: float = 20.0
    same_request_cap_ms: float = 200.0
    replay_base_ms: float = 10.0
    replay_cap_ms: float = 500.0
    immediate_replays: int = 3
    max_replays: int = 200
    # Do not start an attempt with less time than this left before the deadline.
    attempt_budget_ms: float = 50.0

    def same_request_delay_ms(self, retry: int, rand: Callable[[], float]) -> float:
        ceiling = min(
            self.same_request_cap_ms, self.same_request_base_ms * 2.0 ** max(retry - 1, 0)
        )
        return ceiling / 2 + rand() * ceiling / 2

    def replay_delay_ms(self, replay: int, rand: Callable[[], float]) -> float:
        """0 for the first ``immediate_replays``, then full jitter up to a doubling ceiling."""
        backed_off = replay - self.immediate_replays
        if backed_off <= 0:
            return 0.0
        ceiling = min(self.replay_cap_ms, self.replay_base_ms * 2.0 ** (backed_off - 1))
        return rand() * ceiling


DEFAULT_RETRY_POLICY = RetryPolicy()
