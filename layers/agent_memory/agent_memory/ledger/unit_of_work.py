"""The request-local unit of work of one chat turn.

``TurnUnitOfWork.begin`` loads the snapshot (strongly consistent); the ``memory_update`` tool
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

Nothing here is shared between requests: one turn, one ``TurnUnitOfWork``, used by one
thread at a time (only the cancel flag and a deferred open's timer cross threads).

Names: the *unit of work* is this class; the *ledger item* is the turn's item in
``TurnLedgerTable`` (``LedgerRepository``) that fences its commit. ``LedgerItemState`` says
where that item stands for this turn.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
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
from agent_memory.ledger.commit import commit_turn
from agent_memory.ledger.commit_request import CommitRecord, CommitRequest
from agent_memory.ledger.config import LedgerConfig
from agent_memory.ledger.deferred_open import DeferredOpen
from agent_memory.ledger.exceptions import MemoryScopeError
from agent_memory.ledger.outcome import MemoryOutcome, OutcomeStatus
from agent_memory.ledger.scope import current_memory_request
from agent_memory.ledger.stores import (
    CountedLedgerStore,
    CountedMemoryStore,
    LedgerStore,
    MemoryStore,
    RequestTally,
)
from agent_memory.ledger.turn import LedgerItemState, TurnSpec
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


@dataclass(frozen=True)
class _Stores:
    memory: CountedMemoryStore
    ledger: CountedLedgerStore
    tally: RequestTally


class TurnUnitOfWork:
    """Staging and commit of one turn's memory operations (see ``begin``)."""

    def __init__(
        self,
        turn: TurnSpec,
        loaded: LoadedMemory | None,
        unavailable_reason: str | None,
        *,
        stores: _Stores,
        cancel_flag: CancelFlag,
        config: LedgerConfig,
        writes_enabled: bool,
        review: BatchReview | None,
    ) -> None:
        self._turn = turn
        self._loaded = loaded
        self._unavailable_reason = unavailable_reason
        self._stores = stores
        self._cancel = cancel_flag
        self._config = config
        self._review = review
        # Never writable without a successful load, nor for the model in read-only mode.
        self._session = MemoryToolSession(
            loaded.snapshot if loaded is not None else Snapshot(),
            writes_enabled=writes_enabled and loaded is not None and not self.read_only,
        )
        self._state = LedgerItemState.NOT_STAGED
        # REFUSED: why (the outcome of a turn that can no longer commit); ENDED: the outcome.
        self._refusal: tuple[OutcomeStatus, str] | None = None
        self._outcome: MemoryOutcome | None = None
        # Names this unit of work in its ledger item (see _why_turn_exists).
        self._opener = uuid.uuid4().hex
        self._deferred: DeferredOpen | None = None
        self._staged_at = 0

    @classmethod
    def begin(
        cls,
        user_id: str,
        turn_id: str,
        deadline_ms: int,
        *,
        memory_repo: MemoryStore,
        ledger_repo: LedgerStore,
        cancel_flag: CancelFlag,
        config: LedgerConfig | None = None,
        writes_enabled: bool = True,
        connection_id: str = "",
        source: Source = "chat",
        review: BatchReview | None = None,
    ) -> TurnUnitOfWork:
        """Load the user's memory and open the unit of work (``connection_id``: the WebSocket
        connection of a streamed turn; ``config``: clock, retry policy, the ledger open's
        delay...; see ``LedgerConfig``).

        Raises ``TurnCancelledError`` when the cancel flag is already set (nothing is read).
        A failed load does not raise: memory is ``unavailable``, the snapshot is empty (for the
        prompt only) and writes are disabled for the turn.
        """
        if not user_id or not turn_id:
            raise MemoryScopeError("a turn needs a user id and a turn id")
        cancel_flag.raise_if_cancelled()
        tally = RequestTally()
        stores = _Stores(
            memory=CountedMemoryStore(memory_repo, tally),
            ledger=CountedLedgerStore(ledger_repo, tally),
            tally=tally,
        )
        loaded: LoadedMemory | None = None
        reason: str | None = None
        try:
            loaded = stores.memory.load(user_id)
        except RepositoryError as error:
            reason = error.code
        except Exception as error:  # fail open for reads, whatever broke
            logger.warning("memory load failed", extra={"error_type": type(error).__name__})
            reason = "load_failed"
        return cls(
            TurnSpec(user_id, turn_id, deadline_ms, source=source, connection_id=connection_id),
            loaded,
            reason,
            stores=stores,
            cancel_flag=cancel_flag,
            config=config or LedgerConfig(),
            writes_enabled=writes_enabled,
            review=review,
        )

    # -- what the prompt and the service read ---------------------------------------------

    @property
    def user_id(self) -> str:
        return self._turn.user_id

    @property
    def turn_id(self) -> str:
        return self._turn.turn_id

    @property
    def deadline_ms(self) -> int:
        return self._turn.deadline_ms

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
        return self._turn.source == "chat" and self.write_mode == "read_only"

    @property
    def memory_status(self) -> MemoryStatus:
        return "available" if self._loaded is not None else "unavailable"

    @property
    def unavailable_reason(self) -> str | None:
        return self._unavailable_reason

    @property
    def writes_enabled(self) -> bool:
        return bool(self._session.writes_enabled) and self._state not in (
            LedgerItemState.REFUSED,
            LedgerItemState.ENDED,
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

        The first successful staging creates the ledger item (or schedules it, see the
        module doc); if that fails, writes are disabled for the rest of the turn and the
        model is told nothing was saved.
        """
        self._check_scope()
        if self._state in (LedgerItemState.REFUSED, LedgerItemState.ENDED):
            return dict(unavailable_result())
        result = self._session.call(raw_arguments, review=self._review)
        first = result.ok and bool(self._session.staged_operations)
        if first and self._state is LedgerItemState.NOT_STAGED and not self._start_item():
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
            return self._end(status, reason)
        if self._loaded is None:
            return self._end("unavailable", self._unavailable_reason)
        if self.read_only:
            return self._end("read_only", None)
        if self._state is LedgerItemState.NOT_STAGED:
            return self._end("unchanged", None)
        creates = self._state is LedgerItemState.DEFERRED
        outcome = commit_turn(
            CommitRequest(
                user_id=self._turn.user_id,
                turn_id=self._turn.turn_id,
                deadline_ms=self._turn.deadline_ms,
                loaded=self._loaded,
                operations=tuple(self._session.staged_operations),
                staged=self._session.snapshot,
                record=CommitRecord(
                    source=self._turn.source,
                    propose=self._turn.source == "chat" and self.write_mode == "approve",
                ),
                new_turn=NewTurn(self._staged_at, self._turn.deadline_ms) if creates else None,
                opener=self._opener,
            ),
            memory_repo=self._stores.memory,
            ledger_repo=self._stores.ledger,
            cancel_flag=self._cancel,
            config=self._config,
        )
        return self._ended(replace(outcome, requests=self._stores.tally.count))

    def discard(
        self,
        status: Literal["error", "cancelled", "expired"] = "error",
        reason: str = "turn_failed",
    ) -> MemoryOutcome:
        """End a failed or abandoned turn: nothing is committed; an open ledger item becomes
        ``discarded``, a deferred one a ``discarded`` tombstone (best effort: the cleanup
        path expires an open one otherwise)."""
        if self._outcome is not None:
            return self._outcome
        self._settle_item()
        if self._state in (LedgerItemState.OPEN, LedgerItemState.DEFERRED):
            try:
                self._stores.ledger.discard(
                    self._turn.user_id,
                    self._turn.turn_id,
                    self._config.clock_ms(),
                    opened=self._state is LedgerItemState.OPEN,
                    opener=self._opener,
                )
            except RepositoryError as error:
                logger.warning("ledger discard failed", extra={"code": error.code})
        if self._session.staged_operations:
            return self._end(status, reason)
        return self._end("unchanged", None)

    # -- the ledger item -------------------------------------------------------------------

    def _start_item(self) -> bool:
        """At the first staged operation: open the ledger item, or schedule its open."""
        delay_ms = self._config.open_delay_ms
        if delay_ms is None or not self._turn.defers_open:
            return self._open_item()
        self._staged_at = self._config.clock_ms()
        self._state = LedgerItemState.DEFERRED
        self._deferred = DeferredOpen(self._open_deferred, delay_ms / 1000.0)
        return True

    def _settle_item(self) -> None:
        """At the end of the turn: a deferred open that has not run never will (the state
        stays DEFERRED: the commit or the discard creates the item); one that is running is
        waited for."""
        if self._deferred is not None:
            self._deferred.settle()

    def _open_deferred(self) -> None:
        try:
            self._open_item()
        except Exception as error:  # a timer thread must not die with the turn unsettled
            logger.warning("ledger open failed", extra={"error_type": type(error).__name__})
            self._refuse(("unavailable", "ledger_unavailable"))

    def _open_item(self) -> bool:
        """Create the ``open`` item; False (and REFUSED) when the turn can no longer commit."""
        if self._cancel.is_set():
            return self._refuse(("cancelled", "cancel_flag"))
        try:
            self._stores.ledger.open_turn(
                self._turn.user_id,
                self._turn.turn_id,
                self._turn.deadline_ms,
                self._config.clock_ms(),
                opener=self._opener,
                connection_id=self._turn.connection_id,
            )
        except TurnExistsError:
            refusal = self._why_turn_exists()
            if refusal is not None:
                return self._refuse(refusal)
        except RepositoryError as error:
            logger.warning("ledger open failed", extra={"code": error.code})
            return self._refuse(("unavailable", "ledger_unavailable"))
        self._state = LedgerItemState.OPEN  # ours, or our own put resent by the SDK
        return True

    def _why_turn_exists(self) -> tuple[OutcomeStatus, str] | None:
        """Why the ledger item already exists; None when it is this turn's own open item."""
        try:
            record = self._stores.ledger.get(self._turn.user_id, self._turn.turn_id)
        except RepositoryError:
            record = None
        if record is not None and record.status == "open" and record.opened_by == self._opener:
            return None
        if record is not None and record.status == "cancelled":
            return ("cancelled", "turn_cancelled")
        return ("conflict", "turn_id_reused")

    def _refuse(self, refusal: tuple[OutcomeStatus, str]) -> bool:
        self._refusal = refusal
        self._state = LedgerItemState.REFUSED
        return False

    # -- helpers -----------------------------------------------------------------------------

    def _check_scope(self) -> None:
        scope = current_memory_request.get()
        if scope is None:
            return
        if scope.user_id != self._turn.user_id:
            raise MemoryScopeError("the memory scope belongs to another user")
        if not scope.writes_enabled and self._session.writes_enabled:
            self._session.disable_writes()

    def _end(self, status: OutcomeStatus, reason: str | None) -> MemoryOutcome:
        """The outcome of a turn that sends no commit."""
        return self._ended(
            MemoryOutcome.of(
                status,
                self._loaded.snapshot if self._loaded is not None else None,
                operations=len(self._session.staged_operations),
                reason=reason,
                requests=self._stores.tally.count,
            )
        )

    def _ended(self, outcome: MemoryOutcome) -> MemoryOutcome:
        self._state = LedgerItemState.ENDED
        self._outcome = outcome
        return outcome
