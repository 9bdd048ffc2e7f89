"""The commit protocol (DESIGN.md, "The turn protocol", step 7).

ONE ``TransactWriteItems`` carries the conditional Put/Delete of every changed document, the
forget fence (a ConditionCheck that the user's forget generation is still the one the turn's
load saw) and the ledger's ``open``-and-before-deadline update. Failures are classified:

- conflict or throttling -> the same request with the same ``ClientRequestToken``, short
  jittered backoff, low limit;
- a document's condition failed -> reload, replay the whole ordered batch on the latest
  snapshot and send a NEW request (new token), with jittered exponential backoff, for as long
  as the deadline allows; a batch that no longer applies -> ``conflict``, nothing committed;
- the forget fence failed (DELETE /memory since the load) -> ``cancelled`` with reason
  ``memory_forgotten``, nothing committed and nothing replayed;
- the ledger's condition failed -> read the ledger: committed with one of our tokens means an
  earlier, ambiguous attempt succeeded; otherwise the turn was cancelled or expired;
- a transport error after sending -> the same request with the same token (DynamoDB's
  idempotency, then the ledger check, settle it);
- validation and unknown errors -> ``error``, never retried.

The cancel flag is checked before each request is built and again right before it is sent;
when set, the protocol raises inside itself and writes nothing.
"""

from __future__ import annotations

import random
import secrets
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from agent_memory.domain import MemoryValidationError, Operation, Snapshot, apply_operations
from agent_memory.ledger.cancel import CancelFlag
from agent_memory.ledger.exceptions import TurnCancelledError
from agent_memory.ledger.outcome import MemoryOutcome, OutcomeStatus
from agent_memory.ledger.retry import (
    DEFAULT_RETRY_POLICY,
    Action,
    RetryPolicy,
    classify_cancellation,
)
from agent_memory.repository import (
    LedgerRecord,
    LoadedMemory,
    MemoryUnavailableError,
    RepositoryError,
    RetryableError,
    TransactionCancelledError,
    TransportError,
)

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef

    from agent_memory.repository.ledger_repository import OperationCounts


class MemoryStore(Protocol):
    """What the ledger needs of the memory repository."""

    def load(self, user_id: str) -> LoadedMemory: ...

    def document_writes(
        self, user_id: str, loaded: LoadedMemory, updated: Snapshot, now_ms: int
    ) -> list[TransactWriteItemTypeDef]: ...

    def forget_fence(
        self, user_id: str, seen_generation: str | None
    ) -> TransactWriteItemTypeDef: ...

    def transact_write(self, items: Sequence[TransactWriteItemTypeDef], *, token: str) -> None: ...


class LedgerStore(Protocol):
    """What the ledger needs of the ledger repository."""

    def open_turn(
        self,
        user_id: str,
        turn_id: str,
        deadline_ms: int,
        now_ms: int,
        *,
        opener: str = "",
        connection_id: str = "",
    ) -> None: ...

    def get(self, user_id: str, turn_id: str) -> LedgerRecord | None: ...

    def commit_item(
        self, user_id: str, turn_id: str, token: str, now_ms: int, counts: OperationCounts
    ) -> TransactWriteItemTypeDef: ...

    def discard(self, user_id: str, turn_id: str, now_ms: int) -> bool: ...


@dataclass(frozen=True)
class CommitRequest:
    """A turn's staged batch: ``staged`` is ``operations`` applied to ``loaded.snapshot``."""

    user_id: str
    turn_id: str
    deadline_ms: int
    loaded: LoadedMemory
    operations: tuple[Operation, ...]
    staged: Snapshot


def operation_counts(operations: Sequence[Operation]) -> dict[str, dict[str, int]]:
    """Operations by target and action (numbers only: what the ledger item may hold)."""
    counts: Counter[tuple[str, str]] = Counter(
        (str(operation.target), str(operation.action)) for operation in operations
    )
    by_target: dict[str, dict[str, int]] = {}
    for (target, action), n in counts.items():
        by_target.setdefault(target, {})[action] = n
    return by_target


def new_request_token() -> str:
    return secrets.token_hex(16)


def commit_turn(
    request: CommitRequest,
    *,
    memory_repo: MemoryStore,
    ledger_repo: LedgerStore,
    clock_ms: Callable[[], int],
    cancel_flag: CancelFlag,
    sleep: Callable[[float], None] = time.sleep,
    rand: Callable[[], float] = random.random,
    policy: RetryPolicy = DEFAULT_RETRY_POLICY,
    new_token: Callable[[], str] = new_request_token,
) -> MemoryOutcome:
    """Run the commit protocol for one turn whose ledger item is open."""
    return _Commit(
        request,
        memory_repo=memory_repo,
        ledger_repo=ledger_repo,
        clock_ms=clock_ms,
        cancel_flag=cancel_flag,
        sleep=sleep,
        rand=rand,
        policy=policy,
        new_token=new_token,
    ).run()


class _Replay(Exception):
    """Internal signal: a document changed since the load."""


class _Commit:
    def __init__(
        self,
        request: CommitRequest,
        *,
        memory_repo: MemoryStore,
        ledger_repo: LedgerStore,
        clock_ms: Callable[[], int],
        cancel_flag: CancelFlag,
        sleep: Callable[[float], None],
        rand: Callable[[], float],
        policy: RetryPolicy,
        new_token: Callable[[], str],
    ) -> None:
        self._request = request
        self._memory = memory_repo
        self._ledger = ledger_repo
        self._clock = clock_ms
        self._cancel = cancel_flag
        self._sleep = sleep
        self._rand = rand
        self._policy = policy
        self._new_token = new_token
        self._counts = operation_counts(request.operations)
        # Every token we sent, with the snapshot its request would commit.
        self._sent: dict[str, Snapshot] = {}
        # An attempt failed without a definite answer: it may have been applied.
        self._ambiguous = False
        self._last_known = request.loaded.snapshot
        # The fence is what the FIRST load saw, never a reload's: a turn that loaded before
        # a DELETE /memory must not pass the fence by reloading after it.
        self._generation = request.loaded.forget_generation
        self.retries = 0
        self.replays = 0
        self.requests = 0

    # -- the protocol --------------------------------------------------------------------

    def run(self) -> MemoryOutcome:
        try:
            return self._run()
        except TurnCancelledError:
            return self._give_up("cancelled", "cancel_flag")

    def _run(self) -> MemoryOutcome:
        loaded, staged = self._request.loaded, self._request.staged
        while True:
            self._cancel.raise_if_cancelled()
            if self._remaining_ms() < self._policy.attempt_budget_ms:
                return self._deadline_reached()
            now = self._clock()
            token = self._new_token()
            items = [
                *self._memory.document_writes(self._request.user_id, loaded, staged, now),
                self._memory.forget_fence(self._request.user_id, self._generation),
                self._ledger.commit_item(
                    self._request.user_id, self._request.turn_id, token, now, self._counts
                ),
            ]
            self._sent[token] = staged
            try:
                return self._send(items, token, staged)
            except _Replay:
                pass
            if self.replays >= self._policy.max_replays:
                return self._give_up("conflict", "too_many_replays")
            if not self._backoff(self._policy.replay_delay_ms(self.replays + 1, self._rand)):
                return self._deadline_reached()
            self._cancel.raise_if_cancelled()
            self.replays += 1
            try:
                self.requests += 1
                loaded = self._memory.load(self._request.user_id)
            except MemoryUnavailableError as error:
                return self._give_up("unavailable", error.code)
            self._last_known = loaded.snapshot
            if loaded.forget_generation != self._generation:
                return self._forgotten()
            try:
                staged = apply_operations(loaded.snapshot, list(self._request.operations))
            except MemoryValidationError as error:
                return self._give_up("conflict", str(error.code))

    def _send(
        self, items: list[TransactWriteItemTypeDef], token: str, staged: Snapshot
    ) -> MemoryOutcome:
        """Send one request, resending it (same token) on conflict, throttling or transport
        errors. Raises ``_Replay`` when a document's condition failed."""
        retry = 0
        while True:
            self._cancel.raise_if_cancelled()
            try:
                self.requests += 1
                self._memory.transact_write(items, token=token)
            except TransactionCancelledError as error:
                decision = classify_cancellation(
                    error.reasons, ledger_index=len(items) - 1, fence_index=len(items) - 2
                )
                if decision.action is Action.CHECK_LEDGER:
                    return self._check_ledger()
                if decision.action is Action.FORGOTTEN:
                    return self._forgotten()
                if decision.action is Action.REPLAY:
                    if self._ambiguous:
                        # Our earlier attempt may have landed (then it is what changed the
                        # document): replaying it would apply the batch twice.
                        settled = self._committed_by_us()
                        if settled is not None:
                            return settled
                    raise _Replay from None
                if decision.action is Action.FAIL:
                    return self._give_up("error", decision.code)
                code = decision.code
            except (RetryableError, TransportError) as error:
                self._ambiguous = True
                code = error.code
            except RepositoryError as error:
                return self._give_up("error", error.code)
            else:
                return self._outcome("committed", staged)
            retry += 1
            if retry > self._policy.max_same_request_retries:
                return self._give_up("error", code)
            self.retries += 1
            if not self._backoff(self._policy.same_request_delay_ms(retry, self._rand)):
                return self._deadline_reached()

    # -- settling ------------------------------------------------------------------------

    def _read_ledger(self) -> LedgerRecord | None:
        self.requests += 1
        return self._ledger.get(self._request.user_id, self._request.turn_id)

    def _committed_by_us(self) -> MemoryOutcome | None:
        """``committed`` when the ledger holds one of our tokens, else ``None``."""
        try:
            record = self._read_ledger()
        except RepositoryError:
            return None
        if record is not None and record.status == "committed" and record.commit_token:
            snapshot = self._sent.get(record.commit_token)
            if snapshot is not None:
                return self._outcome("committed", snapshot)
        return None

    def _check_ledger(self) -> MemoryOutcome:
        """The ledger's condition failed: what does the ledger say happened?"""
        try:
            record = self._read_ledger()
        except RepositoryError as error:
            return self._outcome("error", None, reason=error.code)
        if record is None:
            return self._outcome("error", None, reason="ledger_missing")
        if record.status == "committed":
            snapshot = self._sent.get(record.commit_token or "")
            if snapshot is not None:
                return self._outcome("committed", snapshot)
            return self._outcome("conflict", None, reason="turn_id_reused")
        if record.status == "cancelled":
            return self._outcome("cancelled", None, reason="turn_cancelled")
        if record.status == "expired":
            return self._outcome("expired", None, reason="turn_expired")
        if record.status == "discarded":
            # Fenced by a WebSocket $disconnect: the client left, the turn commits nothing.
            return self._outcome("cancelled", None, reason="turn_discarded")
        # Still open: the condition failed on the deadline (our clock passed it).
        return self._give_up("expired", "deadline_passed")

    def _forgotten(self) -> MemoryOutcome:
        # The memory this turn built on was deleted: an empty usage, whatever was loaded.
        self._last_known = Snapshot()
        return self._give_up("cancelled", "memory_forgotten")

    def _deadline_reached(self) -> MemoryOutcome:
        return self._give_up("expired", "deadline_passed")

    def _give_up(self, status: OutcomeStatus, reason: str) -> MemoryOutcome:
        """End without committing. The ledger item is still open: discard it, which also
        fences any of our requests still in flight; if it is no longer open, one of them may
        have committed after all."""
        fenced = True
        try:
            self.requests += 1
            discarded = self._ledger.discard(
                self._request.user_id, self._request.turn_id, self._clock()
            )
        except RepositoryError:
            discarded, fenced = False, False  # the cleanup path expires it later
        if not discarded and self._sent:
            settled = self._committed_by_us()
            if settled is not None:
                return settled
        if self._ambiguous and not fenced:
            # A request of ours may have landed, and nothing could fence it or read the
            # ledger: claiming "not saved" could be false. Say that nobody knows.
            return self._outcome("error", None, reason="outcome_unknown")
        return self._outcome(status, None, reason=reason)

    # -- helpers -------------------------------------------------------------------------

    def _remaining_ms(self) -> float:
        return float(self._request.deadline_ms - self._clock())

    def _backoff(self, delay_ms: float) -> bool:
        """Sleep unless the deadline would not leave time for the next attempt."""
        if self._remaining_ms() - delay_ms < self._policy.attempt_budget_ms:
            return False
        self._sleep(delay_ms / 1000.0)
        return True

    def _outcome(
        self, status: OutcomeStatus, snapshot: Snapshot | None, *, reason: str | None = None
    ) -> MemoryOutcome:
        return MemoryOutcome.of(
            status,
            snapshot if snapshot is not None else self._last_known,
            operations=len(self._request.operations),
            reason=reason,
            retries=self.retries,
            replays=self.replays,
            requests=self.requests,
            committed_snapshot=snapshot if status == "committed" else None,
        )
