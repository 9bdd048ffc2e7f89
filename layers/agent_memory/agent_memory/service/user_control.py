"""The user's last word (DESIGN.md "User control"): history, undo, write mode, proposals.

An undo and an approval are commits of their own, like a PATCH: the memory rules (validation
and scanning) on the latest documents, the optional guardrail on the texts they write, a
ledger item, and the same compare-and-swap transaction, which also records their history.
Ids that are unknown, expired or another user's are all "not found": nothing tells whether
an id exists for someone else.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from agent_memory.domain import (
    UNDO_CONFLICT,
    BatchReview,
    Change,
    MemoryValidationError,
    Operation,
    Snapshot,
    apply_operations,
    check_review,
    normalize_text,
    undo_changes,
    undo_texts,
)
from agent_memory.ledger import (
    CancelFlag,
    CommitRecord,
    CommitRequest,
    LedgerConfig,
    MemoryOutcome,
    commit_turn,
)
from agent_memory.repository import (
    HistoryRecord,
    LedgerRepository,
    LoadedMemory,
    MemoryRepository,
    Proposal,
    RepositoryError,
    WriteMode,
)
from agent_memory.service.exceptions import (
    CommitNotFoundError,
    InvalidCommitIdError,
    InvalidCursorError,
    InvalidProposalIdError,
    MemoryDisabledError,
    MemoryEditRejectedError,
    MemoryUnreachableError,
    ProposalConflictError,
    ProposalNotFoundError,
    UndoConflictError,
)
from agent_memory.service.memory import committed_documents
from agent_memory.service.settings import TurnSettings
from agent_memory.telemetry import count_outcome

_T = TypeVar("_T")


@dataclass(frozen=True)
class HistoryPage:
    records: list[HistoryRecord]
    next_cursor: str | None


def parse_id(value: str, error: type[Exception]) -> str:
    """A commit or proposal id: a UUID, in its canonical lower-case form."""
    try:
        return str(uuid.UUID(value.strip()))
    except (ValueError, AttributeError):
        raise error() from None


class UserControlService:
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
        self._control = memory_repository.control
        self._ledger = ledger_repository
        self._memory_enabled = memory_enabled
        self._settings = settings
        self._clock_ms = clock_ms
        self._ledger_config = ledger_config or LedgerConfig(clock_ms=clock_ms)

    # -- history ------------------------------------------------------------------------------

    def history(self, user_id: str, *, limit: int, cursor: str | None) -> HistoryPage:
        self._require_enabled()
        after = parse_id(cursor, InvalidCursorError) if cursor else None
        records, next_cursor = self._unavailable_on_error(
            lambda: self._control.history_page(
                user_id, limit=limit, after=after, now_ms=self._clock_ms()
            )
        )
        return HistoryPage(records=records, next_cursor=next_cursor)

    def delete_history(self, user_id: str) -> None:
        """Erasing is always allowed, also with the feature off: it only removes data."""
        self._unavailable_on_error(lambda: self._control.delete_history(user_id))

    def undo(self, user_id: str, commit_id: str, *, remaining_ms: int | None) -> LoadedMemory:
        self._require_enabled()
        commit_id = parse_id(commit_id, InvalidCommitIdError)
        record = self._unavailable_on_error(
            lambda: self._control.get_history(user_id, commit_id, self._clock_ms())
        )
        if record is None:
            raise CommitNotFoundError()
        loaded = self._load(user_id)
        changes = record.changes
        try:
            staged = undo_changes(loaded.snapshot, changes)
        except MemoryValidationError as error:
            count_outcome("rejected", metric="Undos")
            raise _undo_rejected(error) from None
        self._review(undo_texts(changes), metric="Undos")
        outcome = self._commit(
            loaded,
            _inverse_counts(changes),
            staged,
            CommitRecord(source="undo", replay=lambda latest: undo_changes(latest, changes)),
            remaining_ms=remaining_ms,
        )
        count_outcome(outcome.status, metric="Undos")
        if outcome.status == "conflict":
            raise UndoConflictError()
        return committed_documents(user_id, outcome)

    # -- write mode ----------------------------------------------------------------------------

    def write_mode(self, user_id: str) -> WriteMode:
        self._require_enabled()
        return self._unavailable_on_error(lambda: self._control.write_mode(user_id))

    def set_write_mode(self, user_id: str, mode: WriteMode) -> WriteMode:
        self._require_enabled()
        self._unavailable_on_error(lambda: self._control.set_write_mode(user_id, mode))
        return mode

    # -- proposals ----------------------------------------------------------------------------

    def proposals(self, user_id: str) -> list[Proposal]:
        self._require_enabled()
        return self._unavailable_on_error(
            lambda: self._control.proposals(user_id, self._clock_ms())
        )

    def approve(self, user_id: str, proposal_id: str, *, remaining_ms: int | None) -> LoadedMemory:
        self._require_enabled()
        proposal_id = parse_id(proposal_id, InvalidProposalIdError)
        proposal = self._unavailable_on_error(
            lambda: self._control.get_proposal(user_id, proposal_id, self._clock_ms())
        )
        if proposal is None:
            raise ProposalNotFoundError()
        loaded = self._load(user_id)
        try:
            staged = apply_operations(loaded.snapshot, proposal.operations)
        except MemoryValidationError as error:
            count_outcome("rejected", metric="Approvals")
            raise ProposalConflictError(message=error.message) from None
        self._review(
            tuple(
                normalize_text(op.content) for op in proposal.operations if op.content is not None
            ),
            metric="Approvals",
        )
        outcome = self._commit(
            loaded,
            proposal.operations,
            staged,
            CommitRecord(source="approval", proposal_id=proposal_id),
            remaining_ms=remaining_ms,
        )
        count_outcome(outcome.status, metric="Approvals")
        if outcome.status == "conflict" and outcome.reason == "proposal_missing":
            raise ProposalNotFoundError()
        if outcome.status == "conflict":
            raise ProposalConflictError()
        return committed_documents(user_id, outcome)

    def reject(self, user_id: str, proposal_id: str) -> None:
        self._require_enabled()
        proposal_id = parse_id(proposal_id, InvalidProposalIdError)
        rejected = self._unavailable_on_error(
            lambda: self._control.reject_proposal(user_id, proposal_id, self._clock_ms())
        )
        if not rejected:
            raise ProposalNotFoundError()

    # -- helpers ------------------------------------------------------------------------------

    def _review(self, texts: Sequence[str], *, metric: str) -> None:
        """The optional guardrail on the texts this change writes, as for a PATCH: a refusal
        (or an unanswered review) is the same 422 a PATCH answers, before anything commits."""
        if self._batch_review is None:
            return
        try:
            check_review(self._batch_review, texts)
        except MemoryValidationError as error:
            count_outcome("rejected", metric=metric)
            raise MemoryEditRejectedError(code=str(error.code), message=error.message) from None

    def _commit(
        self,
        loaded: LoadedMemory,
        operations: Sequence[Operation],
        staged: Snapshot,
        record: CommitRecord,
        *,
        remaining_ms: int | None,
    ) -> MemoryOutcome:
        """Open a ledger item for this user's own change and run the commit protocol."""
        now_ms = self._clock_ms()
        turn_id = str(uuid.uuid4())
        deadline_ms = self._settings.deadline_ms(now_ms=now_ms, remaining_ms=remaining_ms)
        self._unavailable_on_error(
            lambda: self._ledger.open_turn(loaded.user_id, turn_id, deadline_ms, now_ms)
        )
        return commit_turn(
            CommitRequest(
                user_id=loaded.user_id,
                turn_id=turn_id,
                deadline_ms=deadline_ms,
                loaded=loaded,
                operations=tuple(operations),
                staged=staged,
                record=record,
            ),
            memory_repo=self._memory,
            ledger_repo=self._ledger,
            cancel_flag=CancelFlag(),
            config=self._ledger_config,
        )

    def _load(self, user_id: str) -> LoadedMemory:
        try:
            return self._memory.load(user_id)
        except RepositoryError:
            raise MemoryUnreachableError() from None

    def _require_enabled(self) -> None:
        if not self._memory_enabled():
            raise MemoryDisabledError()

    @staticmethod
    def _unavailable_on_error(call: Callable[[], _T]) -> _T:
        try:
            return call()
        except RepositoryError:
            raise MemoryUnreachableError() from None


def _undo_rejected(error: MemoryValidationError) -> UndoConflictError:
    """Any rule the undo breaks on the latest memory (the entry changed, no room left for a
    restored entry, a restored entry today's scanner refuses) is a 409: nothing changed."""
    if error.code == UNDO_CONFLICT:
        return UndoConflictError()
    return UndoConflictError(message=error.message)


def _inverse_counts(changes: Sequence[Change]) -> tuple[Operation, ...]:
    """The inverse as operations, for the ledger's counts (numbers by target and action)."""
    inverse = {"add": "remove", "remove": "add", "replace": "replace"}
    return tuple(Operation(c.target, inverse[c.action]) for c in reversed(changes))
