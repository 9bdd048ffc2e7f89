"""The commit protocol (DESIGN.md, "The turn protocol", step 7).

ONE ``TransactWriteItems`` carries the conditional Put/Delete of every changed document, the
forget fence (a ConditionCheck that the user's forget generation is still the one the turn's
load saw) and the ledger's ``open``-and-before-deadline update (or, for a short turn that
never opened its item, the item's conditional creation). Failures are classified:

- conflict or throttling -> the same request with the same ``ClientRequestToken``, short
  jittered backoff, low limit;
- a document's condition failed -> replay the whole ordered batch on the latest snapshot and
  send a NEW request (new token), for as long as the deadline allows; a batch that no longer
  applies -> ``conflict``, nothing committed. Another writer committed (progress was made),
  so the first replays go at once, and the latest snapshot is the failed attempt's answer
  (``ALL_OLD``) when it says enough, a reload otherwise (``RetryPolicy.replay_delay_ms``);
- the forget fence failed (DELETE /memory since the load) -> ``cancelled`` with reason
  ``memory_forgotten``, nothing committed and nothing replayed;
- the ledger's condition failed -> read the ledger: committed with one of our tokens means an
  earlier, ambiguous attempt succeeded; otherwise the turn was cancelled or expired;
- a transport error after sending -> the same request with the same token (DynamoDB's
  idempotency, then the ledger check, settle it);
- validation and unknown errors -> ``error``, never retried.

The cancel flag is checked before each request is built and again right before it is sent;
when set, the protocol raises inside itself and writes nothing. Every request (transaction
or reload) is sized to the time left: its client's timeouts end it before the deadline, and
none starts that could not (``expired``, ``deadline_passed``).

User control (DESIGN.md "User control"): the same transaction also carries the commit's
history record (the entry-level diff of the documents as this attempt commits them), and for
an approval the conditional Delete of the proposal it consumes (a proposal that is gone ends
the commit: ``conflict``/``proposal_missing``, never a second apply). A turn in ``approve``
mode commits a proposal instead of the documents: the proposal's Put and the ledger update,
outcome ``proposed``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from agent_memory.domain import (
    MemoryValidationError,
    Snapshot,
    apply_operations,
)
from agent_memory.ledger.attempt_records import AttemptRecords
from agent_memory.ledger.cancel import CancelFlag
from agent_memory.ledger.commit_request import CommitRecord, CommitRequest, operation_counts
from agent_memory.ledger.config import LedgerConfig, new_request_token
from agent_memory.ledger.exceptions import TurnCancelledError
from agent_memory.ledger.outcome import MemoryOutcome, OutcomeStatus
from agent_memory.ledger.retry import (
    Action,
    Classification,
    classify_cancellation,
)
from agent_memory.ledger.stores import (
    CountedLedgerStore,
    CountedMemoryStore,
    LedgerStore,
    MemoryStore,
    RequestTally,
)
from agent_memory.repository import (
    DeadlineTooCloseError,
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

__all__ = [
    "CommitRecord",
    "CommitRequest",
    "LedgerStore",
    "MemoryStore",
    "commit_turn",
    "new_request_token",
    "operation_counts",
]


def commit_turn(
    request: CommitRequest,
    *,
    memory_repo: MemoryStore,
    ledger_repo: LedgerStore,
    cancel_flag: CancelFlag,
    config: LedgerConfig | None = None,
) -> MemoryOutcome:
    """Run the commit protocol for one turn (its ledger item open, or ``request.new_turn``)."""
    tally = RequestTally()
    return _Commit(
        request,
        memory=CountedMemoryStore(memory_repo, tally),
        ledger=CountedLedgerStore(ledger_repo, tally),
        tally=tally,
        cancel_flag=cancel_flag,
        config=config or LedgerConfig(),
    ).run()


# Ledger statuses of a turn whose commit transaction landed.
_LANDED = ("committed", "proposed")


@dataclass(frozen=True)
class _Replay:
    """An attempt's answer: a document changed since the load. ``loaded`` is what the answer
    says the documents are now (``None``: read them again)."""

    loaded: LoadedMemory | None


class _Commit:
    def __init__(
        self,
        request: CommitRequest,
        *,
        memory: MemoryStore,
        ledger: LedgerStore,
        tally: RequestTally,
        cancel_flag: CancelFlag,
        config: LedgerConfig,
    ) -> None:
        self._request = request
        self._memory = memory
        self._ledger = ledger
        self._tally = tally
        self._cancel = cancel_flag
        self._config = config
        self._policy = config.policy
        self._counts = operation_counts(request.operations)
        # Every token we sent, with the snapshot its request would commit.
        self._sent: dict[str, Snapshot] = {}
        # An attempt failed without a definite answer: it may have been applied.
        self._ambiguous = False
        self._last_known = request.loaded.snapshot
        # The fence is what the FIRST load saw, never a reload's: a turn that loaded before
        # a DELETE /memory must not pass the fence by reloading after it.
        self._generation = request.loaded.forget_generation
        self._records = AttemptRecords(request, memory)
        self.retries = 0
        self.replays = 0

    # -- the protocol, top to bottom -----------------------------------------------------

    def run(self) -> MemoryOutcome:
        try:
            return self._attempts()
        except TurnCancelledError:
            return self._give_up("cancelled", "cancel_flag")

    def _attempts(self) -> MemoryOutcome:
        """Send the batch; when a document changed meanwhile, replay the batch on the latest
        documents and send that, for as long as the deadline (and ``max_replays``) allows."""
        loaded, staged = self._request.loaded, self._request.staged
        while True:
            answer = self._attempt(loaded, staged)
            if isinstance(answer, MemoryOutcome):
                return answer
            latest = self._latest(answer)
            if isinstance(latest, MemoryOutcome):
                return latest
            loaded = latest
            try:
                staged = self._replay(loaded.snapshot)
            except MemoryValidationError as error:  # the batch no longer applies
                return self._give_up("conflict", str(error.code))

    def _attempt(self, loaded: LoadedMemory, staged: Snapshot) -> MemoryOutcome | _Replay:
        """One new request (a new token) that would commit ``staged``."""
        self._cancel.raise_if_cancelled()
        if self._remaining_ms() < self._policy.attempt_budget_ms:
            return self._deadline_reached()
        now = self._config.clock_ms()
        token = self._config.new_token()
        items = [
            *self._records.items(loaded, staged, now, token),
            self._memory.forget_fence(self._request.user_id, self._generation),
            self._ledger.commit_item(
                self._request.user_id,
                self._request.turn_id,
                token,
                now,
                self._counts,
                status="proposed" if self._request.record.propose else "committed",
                create=self._request.new_turn,
                opener=self._request.opener,
            ),
        ]
        self._sent[token] = staged
        return self._send(items, token, staged, loaded)

    def _send(
        self,
        items: list[TransactWriteItemTypeDef],
        token: str,
        staged: Snapshot,
        loaded: LoadedMemory,
    ) -> MemoryOutcome | _Replay:
        """Send one request, and resend it as it is (same token, so DynamoDB applies it at
        most once) after a conflict, throttling or a lost answer."""
        retry = 0
        while True:
            self._cancel.raise_if_cancelled()
            try:
                self._memory.transact_write(items, token=token, budget_s=self._budget_s())
                return self._landed(token, staged)
            except DeadlineTooCloseError:
                return self._deadline_reached()
            except TransactionCancelledError as error:
                decision = classify_cancellation(
                    error.reasons, ledger_index=len(items) - 1, fence_index=len(items) - 2
                )
                if decision.action is not Action.RETRY_SAME:
                    return self._cancelled(decision, error, items, loaded)
                code = decision.code
            except (RetryableError, TransportError) as error:
                self._ambiguous = True
                code = error.code
            except RepositoryError as error:
                return self._give_up("error", error.code)
            retry += 1
            if retry > self._policy.max_same_request_retries:
                return self._give_up("error", code)
            self.retries += 1
            if not self._backoff(self._policy.same_request_delay_ms(retry, self._config.rand)):
                return self._deadline_reached()

    def _cancelled(
        self,
        decision: Classification,
        error: TransactionCancelledError,
        items: list[TransactWriteItemTypeDef],
        loaded: LoadedMemory,
    ) -> MemoryOutcome | _Replay:
        """What a cancelled transaction means (other than "send it again")."""
        if decision.action is Action.CHECK_LEDGER:
            return self._check_ledger()
        if decision.action is Action.FORGOTTEN:
            return self._forgotten()
        if self._records.guard_failed(error.reasons):
            # Our own earlier, ambiguous attempt may be what consumed the proposal.
            settled = self._committed_by_us() if self._ambiguous else None
            return settled or self._give_up("conflict", "proposal_missing")
        if decision.action is Action.REPLAY:
            # An earlier, ambiguous attempt of ours may have landed (then it is what changed
            # the document): replaying it would apply the batch twice.
            settled = self._committed_by_us() if self._ambiguous else None
            return settled or _Replay(self._memory.loaded_after_cancellation(loaded, items, error))
        return self._give_up("error", decision.code)

    def _latest(self, replay: _Replay) -> LoadedMemory | MemoryOutcome:
        """The documents to replay the batch on: the failed attempt's answer, or a reload.

        A failed condition means another writer committed (progress was made), so the first
        replays go at once (``RetryPolicy.replay_delay_ms``).
        """
        if self.replays >= self._policy.max_replays:
            return self._give_up("conflict", "too_many_replays")
        if not self._backoff(self._policy.replay_delay_ms(self.replays + 1, self._config.rand)):
            return self._deadline_reached()
        self._cancel.raise_if_cancelled()
        self.replays += 1
        loaded = replay.loaded
        if loaded is None:
            try:
                loaded = self._memory.load(self._request.user_id, budget_s=self._budget_s())
            except MemoryUnavailableError as error:
                return self._give_up("unavailable", error.code)
        self._last_known = loaded.snapshot
        if loaded.forget_generation != self._generation:
            return self._forgotten()
        return loaded

    # -- helpers of an attempt -----------------------------------------------------------

    def _replay(self, latest: Snapshot) -> Snapshot:
        replay = self._request.record.replay
        if replay is not None:
            return replay(latest)
        return apply_operations(latest, list(self._request.operations))

    # -- settling: what the ledger item says happened --------------------------------------

    def _check_ledger(self) -> MemoryOutcome:
        """The ledger item's condition failed: the item says what became of the turn."""
        try:
            record = self._ledger.get(self._request.user_id, self._request.turn_id)
        except RepositoryError as error:
            return self._outcome("error", None, reason=error.code)
        if record is None:
            return self._outcome("error", None, reason="ledger_missing")
        if record.status in _LANDED:
            return self._ours(record) or self._outcome("conflict", None, reason="turn_id_reused")
        if record.status == "cancelled":
            return self._outcome("cancelled", None, reason="turn_cancelled")
        if record.status == "expired":
            return self._outcome("expired", None, reason="turn_expired")
        if record.status == "discarded":
            # Fenced by a WebSocket $disconnect: the client left, the turn commits nothing.
            return self._outcome("cancelled", None, reason="turn_discarded")
        if self._request.new_turn is not None:
            # We were creating the item: an open one is another attempt's of this turn id.
            return self._outcome("conflict", None, reason="turn_id_reused")
        if self._request.opener and record.opened_by != self._request.opener:
            # A retry took the item over after this attempt failed: that attempt decides.
            return self._outcome("cancelled", None, reason="turn_superseded")
        # Still open: the condition failed on the deadline (our clock passed it).
        return self._give_up("expired", "deadline_passed")

    def _committed_by_us(self) -> MemoryOutcome | None:
        """``committed`` when the ledger item holds one of our tokens, else ``None`` (also
        when it cannot be read)."""
        try:
            record = self._ledger.get(self._request.user_id, self._request.turn_id)
        except RepositoryError:
            return None
        return self._ours(record) if record is not None else None

    def _ours(self, record: LedgerRecord) -> MemoryOutcome | None:
        """The outcome of OUR request that landed, when the item says one did."""
        if record.status not in _LANDED or not record.commit_token:
            return None
        snapshot = self._sent.get(record.commit_token)
        return self._landed(record.commit_token, snapshot) if snapshot is not None else None

    def _forgotten(self) -> MemoryOutcome:
        # The memory this turn built on was deleted: an empty usage, whatever was loaded.
        self._last_known = Snapshot()
        return self._give_up("cancelled", "memory_forgotten")

    def _deadline_reached(self) -> MemoryOutcome:
        return self._give_up("expired", "deadline_passed")

    def _give_up(self, status: OutcomeStatus, reason: str) -> MemoryOutcome:
        """End without committing. Discard the ledger item (an open one moves to
        ``discarded``, a missing one becomes a ``discarded`` tombstone), which also fences
        any of our requests still in flight; if that finds the item no longer open, one of
        them may have committed after all."""
        fenced = True
        try:
            discarded = self._ledger.discard(
                self._request.user_id,
                self._request.turn_id,
                self._config.clock_ms(),
                opened=self._request.new_turn is None,
                opener=self._request.opener,
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
        return float(self._request.deadline_ms - self._config.clock_ms())

    def _budget_s(self) -> float:
        """How long the next request may take: it must end before the deadline."""
        return max(self._remaining_ms(), 0.0) / 1000.0

    def _backoff(self, delay_ms: float) -> bool:
        """Sleep unless the deadline would not leave time for the next attempt."""
        if self._remaining_ms() - delay_ms < self._policy.attempt_budget_ms:
            return False
        if delay_ms > 0:
            self._config.sleep(delay_ms / 1000.0)
        return True

    def _landed(self, token: str, snapshot: Snapshot) -> MemoryOutcome:
        """The outcome of the request sent with ``token``, which committed."""
        recorded = self._records.recorded.get(token)
        if self._request.record.propose:
            outcome = self._outcome("proposed", self._request.loaded.snapshot)
            return replace(outcome, proposal_id=recorded)
        return replace(
            self._outcome("committed", snapshot),
            commit_id=recorded,
            committed_provenance=self._records.provenance.get(token),
        )

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
            requests=self._tally.count,
            committed_snapshot=snapshot if status == "committed" else None,
        )
