"""The request-local unit of work of one chat turn.

``TurnLedger.begin`` loads the snapshot (strongly consistent); the ``memory_update`` tool
stages operations through the domain's ``MemoryToolSession``; the first staged operation
creates the ledger item (``open``); ``commit`` runs the commit protocol once, after the final
answer; ``discard`` ends a failed turn.

With ``open_delay_ms`` (chat turns over HTTP; see ``deferred_open``) the first staged
operation only schedules the open: a turn that ends within the delay creates its ledger
item in the commit transaction (``committed`` on the condition that the turn id has no item:
a cancel's tombstone fences it), or ``discarded`` as a tombstone when it fails; a longer turn
opens its item from a timer thread while the model works. A streamed turn opens at once:
its connection's ``$disconnect`` finds it by its item.

The user's write mode, read by the same load, governs a chat turn (``source="chat"``) only:
``read_only`` stages nothing (its outcome is ``read_only``), ``approve`` commits the staged
batch as a proposal. A user's own edit (``source="edit"``) applies in every mode.

Nothing here is shared between requests: one turn, one ``TurnLedger``, used by one thread at
a time (only the cancel flag crosses threads).
"""

from __future__ import annotations

import enum
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal

from aws_lambda_powertools import Logger

from agent_memory.domain import (
    BatchReview,
    MemoryToolSession,
    Operation,
    Snapshot,
    Source,
    unavailable_result,
)
from agent_memory.ledger.cancel import CancelFlag
from agent_memory.ledger.commit import (
    CommitRecord,
    CommitRequest,
    LedgerStore,
    MemoryStore,
    commit_turn,
)
from agent_memory.ledger.deferred_open import DeferredOpen
from agent_memory.ledger.exceptions import MemoryScopeError
from agent_memory.ledger.outcome import MemoryOutcome, OutcomeStatus
from agent_memory.ledger.retry import DEFAULT_RETRY_POLICY, RetryPolicy
from agent_memory.ledger.scope import current_memory_request
from agent_memory.repository import (
    DEFAULT_WRITE_MODE,
    LoadedMemory,
    NewTurn,
    RepositoryError,
    TurnExistsError,
    WriteMode,
)

# A child of the service's structured logger: codes and types only, never a message.
logger = Logger(service="agent-memory", child=True)

MemoryStatus = Literal["available", "unavailable"]


class LedgerItem(enum.Enum):
    """Where the turn's ledger item stands."""

    NONE = "none"  # nothing staged: no item, nothing to commit
    DEFERRED = "deferred"  # staged; the commit creates the item unless the timer opens it
    OPEN = "open"  # the item is open: the commit moves it to committed
    REFUSED = "refused"  # the item could not be created: the turn cannot commit


class TurnLedger:
    """Staging and commit of one turn's memory operations (see ``begin``)."""

    def __init__(
        self,
        *,
        user_id: str,
        turn_id: str,
        deadline_ms: int,
        loaded: LoadedMemory | None,
        unavailable_reason: str | None,
        writes_enabled: bool,
        memory_repo: MemoryStore,
        ledger_repo: LedgerStore,
        clock_ms: Callable[[], int],
        cancel_flag: CancelFlag,
        sleep: Callable[[float], None],
        rand: Callable[[], float],
        policy: RetryPolicy,
        requests: int,
        connection_id: str = "",
        source: Source = "chat",
        review: BatchReview | None = None,
        open_delay_ms: float | None = None,
    ) -> None:
        self._user_id = user_id
        self._review = review
        self._connection_id = connection_id
        self._source: Source = source
        self._turn_id = turn_id
        self._deadline_ms = deadline_ms
        self._loaded = loaded
        self._unavailable_reason = unavailable_reason
        self._memory_repo = memory_repo
        self._ledger_repo = ledger_repo
        self._clock = clock_ms
        self._cancel = cancel_flag
        self._sleep = sleep
        self._rand = rand
        self._policy = policy
        self._requests = requests
        # Never writable without a successful load, nor for the model in read-only mode.
        self._session = MemoryToolSession(
            loaded.snapshot if loaded is not None else Snapshot(),
            writes_enabled=writes_enabled and loaded is not None and not self.read_only,
        )
        self._item = LedgerItem.NONE
        # Why the item was refused (the outcome of a turn that can no longer commit).
        self._refusal: tuple[OutcomeStatus, str] | None = None
        # Names this unit of work in its ledger item (see _why_turn_exists).
        self._opener = uuid.uuid4().hex
        # A chat turn over HTTP defers the open (a streamed turn's $disconnect needs it).
        deferrable = source == "chat" and not connection_id
        self._open_delay_ms = open_delay_ms if deferrable else None
        self._deferred: DeferredOpen | None = None
        self._staged_at = 0
        self._outcome: MemoryOutcome | None = None

    @classmethod
    def begin(
        cls,
        user_id: str,
        turn_id: str,
        deadline_ms: int,
        *,
        memory_repo: MemoryStore,
        ledger_repo: LedgerStore,
        clock_ms: Callable[[], int],
        cancel_flag: CancelFlag,
        writes_enabled: bool = True,
        sleep: Callable[[float], None] = time.sleep,
        rand: Callable[[], float] = random.random,
        policy: RetryPolicy = DEFAULT_RETRY_POLICY,
        connection_id: str = "",
        source: Source = "chat",
        review: BatchReview | None = None,
        open_delay_ms: float | None = None,
    ) -> TurnLedger:
        """Load the user's memory and open the unit of work (``connection_id``: the WebSocket
        connection of a streamed turn, recorded on the ledger item for its ``$disconnect``;
        ``open_delay_ms``: defer the ledger item's open, see the module doc).

        Raises ``TurnCancelledError`` when the cancel flag is already set (nothing is read).
        A failed load does not raise: memory is ``unavailable``, the snapshot is empty (for the
        prompt only) and writes are disabled for the turn.
        """
        if not user_id or not turn_id:
            raise MemoryScopeError("a turn needs a user id and a turn id")
        cancel_flag.raise_if_cancelled()
        loaded: LoadedMemory | None = None
        reason: str | None = None
        try:
            loaded = memory_repo.load(user_id)
        except RepositoryError as error:
            reason = error.code
        except Exception as error:  # fail open for reads, whatever broke
            logger.warning("memory load failed", extra={"error_type": type(error).__name__})
            reason = "load_failed"
        return cls(
            user_id=user_id,
            turn_id=turn_id,
            deadline_ms=deadline_ms,
            loaded=loaded,
            unavailable_reason=reason,
            writes_enabled=writes_enabled,
            memory_repo=memory_repo,
            ledger_repo=ledger_repo,
            clock_ms=clock_ms,
            cancel_flag=cancel_flag,
            sleep=sleep,
            rand=rand,
            policy=policy,
            requests=1,
            connection_id=connection_id,
            source=source,
            review=review,
            open_delay_ms=open_delay_ms,
        )

    # -- what the prompt and the service read ---------------------------------------------

    @property
    def user_id(self) -> str:
        return self._user_id

    @property
    def turn_id(self) -> str:
        return self._turn_id

    @property
    def deadline_ms(self) -> int:
        return self._deadline_ms

    @property
    def snapshot(self) -> Snapshot:
        """The loaded snapshot, for the prompt (empty when memory is unavailable)."""
        return self._loaded.snapshot if self._loaded is not None else Snapshot()

    @property
    def loaded_memory(self) -> LoadedMemory | None:
        """What the load read (``None`` when memory is unavailable)."""
        return self._loaded

    @property
    def write_mode(self) -> WriteMode:
        """The user's write mode (``auto`` when memory could not be loaded)."""
        return self._loaded.write_mode if self._loaded is not None else DEFAULT_WRITE_MODE

    @property
    def read_only(self) -> bool:
        """The model may read memory but not write it (the user's ``read_only`` mode)."""
        return self._source == "chat" and self.write_mode == "read_only"

    @property
    def memory_status(self) -> MemoryStatus:
        return "available" if self._loaded is not None else "unavailable"

    @property
    def unavailable_reason(self) -> str | None:
        return self._unavailable_reason

    @property
    def writes_enabled(self) -> bool:
        return (
            bool(self._session.writes_enabled)
            and self._item is not LedgerItem.REFUSED
            and self._outcome is None
        )

    @property
    def has_staged_writes(self) -> bool:
        return bool(self._session.staged_operations)

    @property
    def staged_operations(self) -> tuple[Operation, ...]:
        """The ordered batch staged so far (kept after the end of the turn, for telemetry)."""
        return tuple(self._session.staged_operations)

    @property
    def failed_calls(self) -> int:
        return int(self._session.failed_calls)

    # -- the memory_update tool ------------------------------------------------------------

    def call_tool(self, raw_arguments: Any) -> dict[str, Any]:
        """Run one ``memory_update`` call: validate and stage (never write).

        The first successful staging creates the ledger item; if that fails, writes are
        disabled for the rest of the turn and the model is told nothing was saved.
        """
        self._check_scope()
        if self._item is LedgerItem.REFUSED or self._outcome is not None:
            return dict(unavailable_result())
        result = self._session.call(raw_arguments, review=self._review)
        first = result.ok and bool(self._session.staged_operations)
        if first and self._item is LedgerItem.NONE and not self._start_item():
            return dict(unavailable_result())
        return dict(result.result)

    # -- the end of the turn ---------------------------------------------------------------

    def commit(self) -> MemoryOutcome:
        """Commit the staged batch once (idempotent: a second call returns the outcome).

        Nothing staged -> ``unchanged`` with no request at all.
        """
        if self._outcome is not None:
            return self._outcome
        self._settle_item()
        if self._refusal is not None:
            status, reason = self._refusal
            outcome = self._plain_outcome(status, reason)
        elif self._loaded is None:
            outcome = self._plain_outcome("unavailable", self._unavailable_reason)
        elif self.read_only:
            outcome = self._plain_outcome("read_only", None)
        elif not self._session.staged_operations or self._item is LedgerItem.NONE:
            outcome = self._plain_outcome("unchanged", None)
        else:
            operations = tuple(self._session.staged_operations)
            outcome = commit_turn(
                CommitRequest(
                    user_id=self._user_id,
                    turn_id=self._turn_id,
                    deadline_ms=self._deadline_ms,
                    loaded=self._loaded,
                    operations=operations,
                    staged=self._session.snapshot,
                    record=CommitRecord(
                        source=self._source,
                        propose=self._source == "chat" and self.write_mode == "approve",
                    ),
                    new_turn=(
                        NewTurn(opened_at=self._staged_at, deadline_ms=self._deadline_ms)
                        if self._item is LedgerItem.DEFERRED
                        else None
                    ),
                ),
                memory_repo=self._memory_repo,
                ledger_repo=self._ledger_repo,
                clock_ms=self._clock,
                cancel_flag=self._cancel,
                sleep=self._sleep,
                rand=self._rand,
                policy=self._policy,
            )
            outcome = replace(outcome, requests=outcome.requests + self._requests)
        self._outcome = outcome
        return outcome

    def discard(
        self,
        status: Literal["error", "cancelled", "expired"] = "error",
        reason: str = "turn_failed",
    ) -> MemoryOutcome:
        """End a failed or abandoned turn: nothing is committed; an open ledger item becomes
        ``discarded`` (best effort: the cleanup path expires it otherwise)."""
        if self._outcome is not None:
            return self._outcome
        self._settle_item()
        if self._item in (LedgerItem.OPEN, LedgerItem.DEFERRED):
            try:
                self._requests += 1
                self._ledger_repo.discard(
                    self._user_id,
                    self._turn_id,
                    self._clock(),
                    opened=self._item is LedgerItem.OPEN,
                )
            except RepositoryError as error:
                logger.warning("ledger discard failed", extra={"code": error.code})
        if self._session.staged_operations:
            self._outcome = self._plain_outcome(status, reason)
        else:
            self._outcome = self._plain_outcome("unchanged", None)
        return self._outcome

    # -- helpers -----------------------------------------------------------------------------

    def _check_scope(self) -> None:
        scope = current_memory_request.get()
        if scope is None:
            return
        if scope.user_id != self._user_id:
            raise MemoryScopeError("the memory scope belongs to another user")
        if not scope.writes_enabled and self._session.writes_enabled:
            self._session.disable_writes()

    def _start_item(self) -> bool:
        """At the first staged operation: open the ledger item, or schedule its open."""
        if self._open_delay_ms is None:
            return self._open_item()
        self._staged_at = self._clock()
        self._item = LedgerItem.DEFERRED
        self._deferred = DeferredOpen(self._open_deferred, self._open_delay_ms / 1000.0)
        return True

    def _settle_item(self) -> None:
        """At the end of the turn: a deferred open that has not run never will (the item
        stays DEFERRED: the commit or the discard creates it); one that is running is
        waited for."""
        if self._deferred is not None:
            self._deferred.settle()

    def _open_deferred(self) -> None:
        try:
            self._open_item()
        except Exception as error:  # a timer thread must not die with the turn unsettled
            logger.warning("ledger open failed", extra={"error_type": type(error).__name__})
            self._refuse(("unavailable", "ledger_unavailable"))

    def _refuse(self, refusal: tuple[OutcomeStatus, str]) -> None:
        self._refusal = refusal
        self._item = LedgerItem.REFUSED

    def _open_item(self) -> bool:
        stop: tuple[OutcomeStatus, str] | None = None
        if self._cancel.is_set():
            stop = ("cancelled", "cancel_flag")
        else:
            try:
                self._requests += 1
                self._ledger_repo.open_turn(
                    self._user_id,
                    self._turn_id,
                    self._deadline_ms,
                    self._clock(),
                    opener=self._opener,
                    connection_id=self._connection_id,
                )
            except TurnExistsError:
                stop = self._why_turn_exists()
            except RepositoryError as error:
                logger.warning("ledger open failed", extra={"code": error.code})
                stop = ("unavailable", "ledger_unavailable")
        if stop is not None:
            self._refuse(stop)
            return False
        self._item = LedgerItem.OPEN  # ours, or our own put resent by the SDK
        return True

    def _why_turn_exists(self) -> tuple[OutcomeStatus, str] | None:
        """Why the ledger item already exists; None when it is this turn's own open item."""
        try:
            self._requests += 1
            record = self._ledger_repo.get(self._user_id, self._turn_id)
        except RepositoryError:
            record = None
        if record is not None and record.status == "open" and record.opened_by == self._opener:
            return None
        if record is not None and record.status == "cancelled":
            return ("cancelled", "turn_cancelled")
        return ("conflict", "turn_id_reused")

    def _plain_outcome(self, status: OutcomeStatus, reason: str | None) -> MemoryOutcome:
        return MemoryOutcome.of(
            status,
            self._loaded.snapshot if self._loaded is not None else None,
            operations=len(self._session.staged_operations),
            reason=reason,
            requests=self._requests,
        )
