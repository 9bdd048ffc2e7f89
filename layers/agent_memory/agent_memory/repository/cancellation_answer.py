"""What a cancelled commit's answer says about the documents now (``ALL_OLD``).

Every conditional document write of ``MemoryRepository.document_writes`` asks DynamoDB to
return the stored item when its condition fails. A write whose condition failed therefore
tells the current document (or, with no item, that it no longer exists); the transaction's
other documents were as the load saw them; a document it did not write stays as loaded (the
commit's compare-and-swap catches it if that is stale). So a replay after another writer's
commit needs no second read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from agent_memory.domain import Target
from agent_memory.repository.attributes import string_attribute
from agent_memory.repository.exceptions import MemoryUnavailableError, TransactionCancelledError
from agent_memory.repository.memory_repository import (
    LoadedMemory,
    _read_document,
    _read_provenance,
    _target,
)

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef

CONDITION_FAILED = "ConditionalCheckFailed"


def documents_from_answer(
    table: str,
    loaded: LoadedMemory,
    sent: Sequence[TransactWriteItemTypeDef],
    error: TransactionCancelledError,
) -> LoadedMemory | None:
    """``loaded`` updated with what the cancelled transaction ``sent`` found; ``None`` when
    the answer does not say (no document failed, an item unreadable, reasons missing)."""
    if len(error.reasons) != len(sent) or len(error.items) != len(sent):
        return None
    snapshot, documents = loaded.snapshot, dict(loaded.documents)
    provenance = dict(loaded.provenance)
    seen_change = False
    for write, reason, item in zip(sent, error.reasons, error.items, strict=True):
        target = _written_document(table, loaded.user_id, write)
        if target is None or reason != CONDITION_FAILED:
            continue
        seen_change = True
        if item is None:
            documents.pop(target, None)
            provenance.pop(target, None)
            snapshot = snapshot.replace_entries(target, ())
            continue
        try:
            state, entries = _read_document(target, item)
        except MemoryUnavailableError:
            return None
        documents[target] = state
        provenance[target] = _read_provenance(item, state, entries)
        snapshot = snapshot.replace_entries(target, entries)
    if not seen_change:
        return None
    return replace(loaded, snapshot=snapshot, documents=documents, provenance=provenance)


def _written_document(table: str, user_id: str, write: Mapping[str, Any]) -> Target | None:
    """The document a Put/Delete of ``document_writes`` targets, if it asked for ALL_OLD."""
    op = write.get("Put") or write.get("Delete")
    if not isinstance(op, Mapping) or op.get("TableName") != table:
        return None
    if op.get("ReturnValuesOnConditionCheckFailure") != "ALL_OLD":
        return None
    key = op.get("Item") or op.get("Key") or {}
    if string_attribute(key, "user_id") != user_id:
        return None
    return _target(key)
