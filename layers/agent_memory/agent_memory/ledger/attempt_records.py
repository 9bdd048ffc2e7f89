"""The items of a commit attempt before the forget fence and the ledger item's: the changed
documents and their history record (with the approved proposal's Delete), or the proposal of
an ``approve``-mode turn; and, by request token, what each attempt recorded."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from agent_memory.domain import Provenance, Snapshot, carry_provenance, diff_snapshots
from agent_memory.ledger.commit_request import CommitRequest
from agent_memory.ledger.retry import CONDITION_FAILED
from agent_memory.ledger.stores import MemoryStore
from agent_memory.repository import (
    PROPOSAL_TTL_S,
    HistoryRecord,
    LoadedMemory,
    Proposal,
    new_time_ordered_id,
)

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef


class AttemptRecords:
    """Builds each attempt's record items. One commit id for the commit, whichever attempt
    lands (the ledger item lets one land at most)."""

    def __init__(self, request: CommitRequest, memory: MemoryStore) -> None:
        self._request = request
        self._memory = memory
        self.commit_id: str | None = None
        # token -> the history record or proposal id that request carried.
        self.recorded: dict[str, str | None] = {}
        # token -> the provenance of the documents that request would commit.
        self.provenance: dict[str, Mapping[str, tuple[Provenance, ...]]] = {}
        self._guard_index: int | None = None

    def items(
        self, loaded: LoadedMemory, staged: Snapshot, now: int, token: str
    ) -> list[TransactWriteItemTypeDef]:
        """This attempt's items before the ledger's: the documents and the history record,
        the approved proposal's Delete; or, in ``approve`` mode, the proposal alone."""
        user_id, record = self._request.user_id, self._request.record
        if record.propose:
            proposal_id = self.commit_id or new_time_ordered_id(now)
            self.commit_id = proposal_id
            self.recorded[token] = proposal_id
            proposal = Proposal(
                proposal_id=proposal_id,
                turn_id=self._request.turn_id,
                created_at=now,
                expires_at=now // 1000 + PROPOSAL_TTL_S,
                operations=self._request.operations,
            )
            return [self._memory.proposal_write(user_id, proposal)]
        stamp = Provenance(source=record.source, updated_at=now, turn_id=self._turn_of_record())
        items = self._memory.document_writes(user_id, loaded, staged, now, stamp=stamp)
        self.provenance[token] = carry_provenance(loaded.snapshot, loaded.provenance, staged, stamp)
        changes = diff_snapshots(loaded.snapshot, staged)
        self.recorded[token] = None
        if changes:
            self.commit_id = self.commit_id or new_time_ordered_id(now)
            self.recorded[token] = self.commit_id
            history = HistoryRecord(
                commit_id=self.commit_id,
                source=record.source,
                committed_at=now,
                changes=changes,
                turn_id=self._turn_of_record(),
            )
            items.append(self._memory.history_write(user_id, history))
        if record.proposal_id is not None:
            self._guard_index = len(items)
            items.append(self._memory.consume_proposal_write(user_id, record.proposal_id, now))
        return items

    def _turn_of_record(self) -> str | None:
        """The turn a record names: a chat turn's id (a user's own commit has none)."""
        return self._request.turn_id if self._request.record.source == "chat" else None

    def guard_failed(self, reasons: Sequence[str]) -> bool:
        """The approved proposal is gone (approved, rejected or expired meanwhile)."""
        index = self._guard_index
        return index is not None and len(reasons) > index and reasons[index] == CONDITION_FAILED
