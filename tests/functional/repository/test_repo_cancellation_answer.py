"""A cancelled commit's answer says what the documents are now (ALL_OLD), so a replay needs
no second read: against moto over HTTP, what the answer gives equals a fresh load."""

from __future__ import annotations

from typing import Any

import pytest

from agent_memory.domain import Snapshot
from agent_memory.repository import (
    LoadedMemory,
    MemoryRepository,
    TransactionCancelledError,
)

USER = "user-answer"
NOW = 1_700_000_000_000


def _commit(repo: MemoryRepository, loaded: LoadedMemory, updated: Snapshot, token: str) -> None:
    repo.transact_write(repo.document_writes(USER, loaded, updated, NOW), token=token)


def _cancelled(
    repo: MemoryRepository, loaded: LoadedMemory, updated: Snapshot
) -> tuple[list[Any], TransactionCancelledError]:
    items = repo.document_writes(USER, loaded, updated, NOW + 1)
    with pytest.raises(TransactionCancelledError) as cancelled:
        repo.transact_write(items, token="stale")
    return list(items), cancelled.value


def test_a_stale_writer_learns_the_documents_from_the_cancellation(
    memory_repository: MemoryRepository,
) -> None:
    # GIVEN two writers that loaded the same documents, and the first one committed both
    _commit(
        memory_repository,
        memory_repository.load(USER),
        Snapshot(user=("Old me.",), memory=("Old fact.",)),
        "seed",
    )
    stale = memory_repository.load(USER)
    _commit(
        memory_repository,
        stale,
        Snapshot(user=("New me.",), memory=("Old fact.", "Their fact.")),
        "theirs",
    )

    # WHEN the second writer's transaction over both documents is cancelled
    items, error = _cancelled(
        memory_repository, stale, Snapshot(user=("Other me.",), memory=("My fact.",))
    )
    answered = memory_repository.loaded_after_cancellation(stale, items, error)

    # THEN the answer holds the documents as a fresh read sees them, revisions included,
    # and none of their content is in the error's message
    fresh = memory_repository.load(USER)
    assert answered is not None
    assert answered.snapshot == fresh.snapshot
    assert answered.documents == fresh.documents
    assert answered.provenance == fresh.provenance
    assert "Their fact" not in str(error)
    assert "New me" not in str(error)


def test_a_document_deleted_meanwhile_is_answered_as_absent(
    memory_repository: MemoryRepository,
) -> None:
    # GIVEN a writer that loaded a document which another writer then emptied (deleted)
    _commit(memory_repository, memory_repository.load(USER), Snapshot(memory=("A.",)), "seed")
    stale = memory_repository.load(USER)
    _commit(memory_repository, stale, Snapshot(), "theirs")

    # WHEN the stale writer's write is cancelled
    items, error = _cancelled(memory_repository, stale, Snapshot(memory=("A.", "B.")))
    answered = memory_repository.loaded_after_cancellation(stale, items, error)

    # THEN the answer says the document is gone, as a fresh read does
    assert answered is not None
    assert answered.snapshot == Snapshot() == memory_repository.load(USER).snapshot
    assert not answered.document("memory").exists


def test_an_answer_without_a_failed_document_asks_for_a_reload(
    memory_repository: MemoryRepository,
) -> None:
    # GIVEN a cancellation that names no failed document (e.g. only another item failed)
    loaded = memory_repository.load(USER)
    items = memory_repository.document_writes(USER, loaded, Snapshot(memory=("A.",)), NOW)
    error = TransactionCancelledError(("TransactionConflict",), (None,))

    # WHEN the answer is read THEN it does not pretend to know: reload
    assert memory_repository.loaded_after_cancellation(loaded, items, error) is None
