"""The user's own memory: read it, correct it, forget it, cancel a turn.

An edit is a one-operation-batch "turn" of its own: the same domain rules as the model's
tool, the same ledger and the same compare-and-swap commit, so a user's correction and a
concurrent chat turn can never overwrite each other.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from agent_memory.domain import BatchReview
from agent_memory.http import ApiError
from agent_memory.ledger import CancelFlag, MemoryOutcome, TurnLedger, memory_scope
from agent_memory.repository import (
    AlreadyCommittedError,
    LedgerRepository,
    LoadedMemory,
    MemoryRepository,
    RepositoryError,
)
from agent_memory.service.exceptions import MemoryEditRejectedError
from agent_memory.service.settings import TurnSettings
from agent_memory.telemetry import count_outcome


class MemoryUnavailableApiError(ApiError):
    def __init__(self) -> None:
        super().__init__(
            503, "memory_unavailable", "Memory cannot be read right now. Please retry."
        )


class MemoryDisabledApiError(ApiError):
    def __init__(self) -> None:
        super().__init__(503, "memory_disabled", "Memory is turned off for this service.")


# Outcome status -> (HTTP status, code, message) for an edit that did not commit.
EDIT_FAILURES: Mapping[str, tuple[int, str, str]] = {
    "conflict": (
        409,
        "conflict",
        "Memory changed meanwhile and the edit no longer applies; nothing was changed.",
    ),
    "expired": (503, "edit_timeout", "The edit ran out of time; nothing was changed."),
    "cancelled": (409, "edit_cancelled", "The edit was cancelled; nothing was changed."),
    "unavailable": (
        503,
        "memory_unavailable",
        "Memory cannot be changed right now; nothing was changed.",
    ),
    "error": (
        503,
        "commit_failed",
        "The edit could not be saved; nothing was changed. Please retry.",
    ),
}

# Outcome reasons that say more than their status (checked first).
EDIT_FAILURES_BY_REASON: Mapping[str, tuple[int, str, str]] = {
    "memory_forgotten": (
        409,
        "memory_forgotten",
        "Memory was deleted while the edit ran; nothing was changed.",
    ),
    "outcome_unknown": (
        503,
        "edit_outcome_unknown",
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
    status, code, message = (
        EDIT_FAILURES_BY_REASON.get(outcome.reason or "")
        or EDIT_FAILURES.get(outcome.status)
        or EDIT_FAILURES["error"]
    )
    raise MemoryEditRejectedError(status, code, message)


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
    ) -> None:
        self._batch_review = batch_review
        self._memory = memory_repository
        self._ledger = ledger_repository
        self._memory_enabled = memory_enabled
        self._settings = settings
        self._clock_ms = clock_ms

    def documents(self, user_id: str) -> LoadedMemory:
        """Both documents, with each entry's provenance."""
        self._require_enabled()
        try:
            return self._memory.load(user_id)
        except RepositoryError:
            raise MemoryUnavailableApiError() from None

    def edit(
        self,
        user_id: str,
        operations: Sequence[Mapping[str, Any]],
        *,
        remaining_ms: int | None = None,
    ) -> LoadedMemory:
        self._require_enabled()
        now_ms = self._clock_ms()
        ledger = TurnLedger.begin(
            user_id,
            str(uuid.uuid4()),
            self._settings.deadline_ms(now_ms=now_ms, remaining_ms=remaining_ms),
            memory_repo=self._memory,
            ledger_repo=self._ledger,
            clock_ms=self._clock_ms,
            cancel_flag=CancelFlag(),
            source="edit",
            review=self._batch_review,
        )
        if ledger.memory_status != "available":
            raise MemoryUnavailableApiError()
        with memory_scope(user_id, writes_enabled=True):
            result = ledger.call_tool({"operations": list(operations)})
        if not result.get("success"):
            ledger.discard()
            error = result.get("error") or {}
            if error.get("code") == "memory_unavailable":
                # The ledger could not be opened (throttling, an outage): not the user's fault.
                count_outcome("unavailable", metric="Edits")
                raise MemoryUnavailableApiError()
            count_outcome("rejected", metric="Edits")
            raise MemoryEditRejectedError(
                422,
                str(error.get("code", "invalid_operations")),
                str(error.get("message", "The edit is invalid.")),
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
            raise ApiError(
                503, "memory_unavailable", "Memory could not be deleted right now. Please retry."
            ) from None

    def cancel_turn(self, user_id: str, turn_id: str) -> Literal["cancelled", "expired"]:
        try:
            result = self._ledger.cancel(user_id, turn_id, self._clock_ms())
        except AlreadyCommittedError:
            raise ApiError(
                409, "already_committed", "The turn has already committed its memory."
            ) from None
        except RepositoryError:
            raise ApiError(
                503,
                "ledger_unavailable",
                "The turn could not be cancelled right now. Please retry.",
            ) from None
        return "expired" if result.status == "expired" else "cancelled"

    def _require_enabled(self) -> None:
        if not self._memory_enabled():
            raise MemoryDisabledApiError()
