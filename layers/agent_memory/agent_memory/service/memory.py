"""The user's own memory: read it, correct it, forget it, cancel a turn.

An edit is a one-operation-batch "turn" of its own: the same domain rules as the model's
tool, the same ledger and the same compare-and-swap commit, so a user's correction and a
concurrent chat turn can never overwrite each other.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, get_args

from agent_memory.domain import BatchReview
from agent_memory.ledger import (
    CancelFlag,
    LedgerConfig,
    MemoryOutcome,
    TurnUnitOfWork,
    memory_scope,
)
from agent_memory.repository import (
    AlreadyCommittedError,
    LedgerRepository,
    LoadedMemory,
    MemoryRepository,
    RepositoryError,
    TurnStatus,
)
from agent_memory.service.exceptions import (
    AlreadyCommittedTurnError,
    LedgerUnreachableError,
    MemoryDisabledError,
    MemoryEditRejectedError,
    MemoryUnreachableError,
    TurnNotFoundError,
)
from agent_memory.service.exceptions import ServiceErrorCode as Code
from agent_memory.service.settings import TurnSettings
from agent_memory.telemetry import count_outcome

TURN_STATUSES = frozenset(get_args(TurnStatus))

# Outcome status -> (code, message) for an edit that did not commit.
EDIT_FAILURES: Mapping[str, tuple[str, str]] = {
    "conflict": (
        Code.CONFLICT,
        "Memory changed meanwhile and the edit no longer applies; nothing was changed.",
    ),
    "expired": (Code.EDIT_TIMEOUT, "The edit ran out of time; nothing was changed."),
    "cancelled": (Code.EDIT_CANCELLED, "The edit was cancelled; nothing was changed."),
    "unavailable": (
        Code.MEMORY_UNAVAILABLE,
        "Memory cannot be changed right now; nothing was changed.",
    ),
    "error": (
        Code.COMMIT_FAILED,
        "The edit could not be saved; nothing was changed. Please retry.",
    ),
}

# Outcome reasons that say more than their status (checked first).
EDIT_FAILURES_BY_REASON: Mapping[str, tuple[str, str]] = {
    "memory_forgotten": (
        Code.MEMORY_FORGOTTEN,
        "Memory was deleted while the edit ran; nothing was changed.",
    ),
    "outcome_unknown": (
        Code.EDIT_OUTCOME_UNKNOWN,
        "The edit may or may not have been saved. Read memory before you retry it.",
    ),
}


def committed_documents(user_id: str, outcome: MemoryOutcome) -> LoadedMemory:
    """The documents exactly as a user's own commit wrote them, with their provenance;
    raises the edit's error for any other outcome. Reading again instead could fail after
    the commit landed (a 503 that invites a retry which could change a different entry)."""
    if outcome.status == "committed" and outcome.committed_snapshot is not None:
        return LoadedMemory(
            user_id=user_id,
            snapshot=outcome.committed_snapshot,
            provenance=outcome.committed_provenance or {},
        )
    code, message = (
        EDIT_FAILURES_BY_REASON.get(outcome.reason or "")
        or EDIT_FAILURES.get(outcome.status)
        or EDIT_FAILURES["error"]
    )
    raise MemoryEditRejectedError(code=code, message=message)


class MemoryService:
    def __init__(
        self,
        *,
        memory_repository: MemoryRepository,
        ledger_repository: LedgerRepository,
        memory_enabled: Callable[[], bool],
        settings: TurnSettings,
        clock_ms: Callable[[], int],
        batch_review: BatchReview | None = None,
        ledger_config: LedgerConfig | None = None,
    ) -> None:
        self._batch_review = batch_review
        self._memory = memory_repository
        self._ledger = ledger_repository
        self._memory_enabled = memory_enabled
        self._settings = settings
        self._clock_ms = clock_ms
        self._ledger_config = ledger_config or LedgerConfig(clock_ms=clock_ms)

    def documents(self, user_id: str) -> LoadedMemory:
        """Both documents, with each entry's provenance."""
        self._require_enabled()
        try:
            return self._memory.load(user_id)
        except RepositoryError:
            raise MemoryUnreachableError() from None

    def edit(
        self,
        user_id: str,
        operations: Sequence[Mapping[str, Any]],
        *,
        remaining_ms: int | None = None,
    ) -> LoadedMemory:
        self._require_enabled()
        now_ms = self._clock_ms()
        ledger = TurnUnitOfWork.begin(
            user_id,
            str(uuid.uuid4()),
            self._settings.deadline_ms(now_ms=now_ms, remaining_ms=remaining_ms),
            memory_repo=self._memory,
            ledger_repo=self._ledger,
            cancel_flag=CancelFlag(),
            source="edit",
            review=self._batch_review,
            config=self._ledger_config,
        )
        if ledger.memory_status != "available":
            raise MemoryUnreachableError()
        with memory_scope(user_id, writes_enabled=True):
            result = ledger.call_tool({"operations": list(operations)})
        if not result.get("success"):
            ledger.discard()
            error = result.get("error") or {}
            if error.get("code") == "memory_unavailable":
                # The ledger could not be opened (throttling, an outage): not the user's fault.
                count_outcome("unavailable", metric="Edits")
                raise MemoryUnreachableError()
            count_outcome("rejected", metric="Edits")
            raise MemoryEditRejectedError(
                code=str(error.get("code", Code.INVALID_OPERATIONS)),
                message=str(error.get("message", "The edit is invalid.")),
            )
        outcome = ledger.commit()
        count_outcome(outcome.status, metric="Edits")
        if outcome.status == "unchanged":
            return ledger.loaded_memory or LoadedMemory(user_id=user_id, snapshot=ledger.snapshot)
        return committed_documents(user_id, outcome)

    def forget(self, user_id: str) -> None:
        """Both documents gone, with their history and the pending proposals (the write
        mode stays), and every turn that loaded before fenced in the same request (a new
        forget generation: their commits fail its ConditionCheck, whether or not they have
        staged anything yet). Forgetting is always allowed, also with the feature off: it
        only removes data."""
        try:
            self._memory.delete_all(user_id)
        except RepositoryError:
            raise MemoryUnreachableError(
                message="Memory could not be deleted right now. Please retry."
            ) from None

    def cancel_turn(self, user_id: str, turn_id: str) -> Literal["cancelled"]:
        """The turn can never commit now: ``cancelled`` (whatever it was, unless committed)."""
        try:
            self._ledger.cancel(user_id, turn_id, self._clock_ms())
        except AlreadyCommittedError:
            raise AlreadyCommittedTurnError() from None
        except RepositoryError:
            raise LedgerUnreachableError() from None
        return "cancelled"

    def turn_status(self, user_id: str, turn_id: str) -> TurnStatus:
        """The ledger's status of the caller's turn (a client that lost the answer asks).
        A turn that staged nothing has no ledger item: 404, as another user's turn."""
        try:
            record = self._ledger.get(user_id, turn_id)
        except RepositoryError:
            raise LedgerUnreachableError(
                message="The turn cannot be looked up right now. Please retry."
            ) from None
        if record is None or record.status not in TURN_STATUSES:
            raise TurnNotFoundError()
        return record.status  # type: ignore[return-value]

    def _require_enabled(self) -> None:
        if not self._memory_enabled():
            raise MemoryDisabledError()
