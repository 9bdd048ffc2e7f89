"""What the unit of work needs of the repositories (``MemoryStore``, ``LedgerStore``), and
the same stores counting every DynamoDB request sent through them: a turn's outcome reports
that count (``MemoryOutcome.requests``) and no caller has to remember to add one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, Protocol

from agent_memory.domain import Provenance, Snapshot
from agent_memory.repository import (
    HistoryRecord,
    LedgerRecord,
    LoadedMemory,
    NewTurn,
    Proposal,
    TransactionCancelledError,
)

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef

    from agent_memory.repository.ledger_repository import OperationCounts


class MemoryStore(Protocol):
    """What the ledger needs of the memory repository."""

    def load(self, user_id: str, *, budget_s: float | None = None) -> LoadedMemory: ...

    def document_writes(
        self,
        user_id: str,
        loaded: LoadedMemory,
        updated: Snapshot,
        now_ms: int,
        *,
        stamp: Provenance | None = None,
    ) -> list[TransactWriteItemTypeDef]: ...

    def forget_fence(
        self, user_id: str, seen_generation: str | None
    ) -> TransactWriteItemTypeDef: ...

    def history_write(self, user_id: str, record: HistoryRecord) -> TransactWriteItemTypeDef: ...

    def proposal_write(self, user_id: str, proposal: Proposal) -> TransactWriteItemTypeDef: ...

    def consume_proposal_write(
        self, user_id: str, proposal_id: str, now_ms: int
    ) -> TransactWriteItemTypeDef: ...

    def transact_write(
        self,
        items: Sequence[TransactWriteItemTypeDef],
        *,
        token: str,
        budget_s: float | None = None,
    ) -> None: ...

    def loaded_after_cancellation(
        self,
        loaded: LoadedMemory,
        sent: Sequence[TransactWriteItemTypeDef],
        error: TransactionCancelledError,
    ) -> LoadedMemory | None: ...


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
        self,
        user_id: str,
        turn_id: str,
        token: str,
        now_ms: int,
        counts: OperationCounts,
        *,
        status: Literal["committed", "proposed"] = "committed",
        create: NewTurn | None = None,
        opener: str = "",
    ) -> TransactWriteItemTypeDef: ...

    def discard(
        self, user_id: str, turn_id: str, now_ms: int, *, opened: bool = True, opener: str = ""
    ) -> bool: ...


class RequestTally:
    """How many requests the turn sent (a request that failed counts: it was sent)."""

    def __init__(self) -> None:
        self.count = 0


class CountedMemoryStore:
    """``MemoryStore`` whose requests (``load``, ``transact_write``) are tallied; the item
    builders send nothing."""

    def __init__(self, inner: MemoryStore, tally: RequestTally) -> None:
        self._inner = inner
        self._tally = tally

    def load(self, user_id: str, *, budget_s: float | None = None) -> LoadedMemory:
        self._tally.count += 1
        if budget_s is None:
            return self._inner.load(user_id)
        return self._inner.load(user_id, budget_s=budget_s)

    def transact_write(
        self,
        items: Sequence[TransactWriteItemTypeDef],
        *,
        token: str,
        budget_s: float | None = None,
    ) -> None:
        self._tally.count += 1
        self._inner.transact_write(items, token=token, budget_s=budget_s)

    def document_writes(
        self,
        user_id: str,
        loaded: LoadedMemory,
        updated: Snapshot,
        now_ms: int,
        *,
        stamp: Provenance | None = None,
    ) -> list[TransactWriteItemTypeDef]:
        return self._inner.document_writes(user_id, loaded, updated, now_ms, stamp=stamp)

    def forget_fence(self, user_id: str, seen_generation: str | None) -> TransactWriteItemTypeDef:
        return self._inner.forget_fence(user_id, seen_generation)

    def history_write(self, user_id: str, record: HistoryRecord) -> TransactWriteItemTypeDef:
        return self._inner.history_write(user_id, record)

    def proposal_write(self, user_id: str, proposal: Proposal) -> TransactWriteItemTypeDef:
        return self._inner.proposal_write(user_id, proposal)

    def consume_proposal_write(
        self, user_id: str, proposal_id: str, now_ms: int
    ) -> TransactWriteItemTypeDef:
        return self._inner.consume_proposal_write(user_id, proposal_id, now_ms)

    def loaded_after_cancellation(
        self,
        loaded: LoadedMemory,
        sent: Sequence[TransactWriteItemTypeDef],
        error: TransactionCancelledError,
    ) -> LoadedMemory | None:
        return self._inner.loaded_after_cancellation(loaded, sent, error)


class CountedLedgerStore:
    """``LedgerStore`` whose requests (``open_turn``, ``get``, ``discard``) are tallied."""

    def __init__(self, inner: LedgerStore, tally: RequestTally) -> None:
        self._inner = inner
        self._tally = tally

    def open_turn(
        self,
        user_id: str,
        turn_id: str,
        deadline_ms: int,
        now_ms: int,
        *,
        opener: str = "",
        connection_id: str = "",
    ) -> None:
        self._tally.count += 1
        self._inner.open_turn(
            user_id, turn_id, deadline_ms, now_ms, opener=opener, connection_id=connection_id
        )

    def get(self, user_id: str, turn_id: str) -> LedgerRecord | None:
        self._tally.count += 1
        return self._inner.get(user_id, turn_id)

    def discard(
        self, user_id: str, turn_id: str, now_ms: int, *, opened: bool = True, opener: str = ""
    ) -> bool:
        self._tally.count += 1
        if opened and not opener:
            return self._inner.discard(user_id, turn_id, now_ms)
        return self._inner.discard(user_id, turn_id, now_ms, opened=opened, opener=opener)

    def commit_item(
        self,
        user_id: str,
        turn_id: str,
        token: str,
        now_ms: int,
        counts: OperationCounts,
        *,
        status: Literal["committed", "proposed"] = "committed",
        create: NewTurn | None = None,
        opener: str = "",
    ) -> TransactWriteItemTypeDef:
        return self._inner.commit_item(
            user_id, turn_id, token, now_ms, counts, status=status, create=create, opener=opener
        )
