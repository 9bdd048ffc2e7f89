"""MemoryRepository against moto over HTTP: the consistent load, conditional writes, ABA,
schema versions, delete and export."""

from __future__ import annotations

from typing import Any

import pytest

from agent_memory.domain import Snapshot, render_document
from agent_memory.repository import (
    CorruptDocumentError,
    LoadedMemory,
    MemoryRepository,
    MemoryUnavailableError,
    RequestCounter,
    TransactionCancelledError,
    UnknownSchemaVersionError,
    migrations,
)

USER = "user-repo"
NOW = 1_700_000_000_000


def write(repo: MemoryRepository, loaded: LoadedMemory, updated: Snapshot, now: int = NOW) -> int:
    """Commit the document writes alone (no ledger item); returns how many were sent."""
    items = repo.document_writes(USER, loaded, updated, now)
    if items:
        repo.transact_write(items, token=f"token-{now}-{len(items)}")
    return len(items)


def put_raw(client: Any, table: str, target: str, **attributes: Any) -> dict[str, Any]:
    item = {"user_id": {"S": USER}, "memory_type": {"S": target}, **attributes}
    client.put_item(TableName=table, Item=item)
    return item


def test_load_of_a_new_user_is_one_consistent_query(
    memory_repository: MemoryRepository, dynamodb_client: Any
) -> None:
    # GIVEN a user with no items, and a spy on the request parameters
    seen: list[dict[str, Any]] = []

    def spy(params: dict[str, Any], **_: Any) -> None:
        seen.append(dict(params))

    dynamodb_client.meta.events.register("provide-client-params.dynamodb.Query", spy)
    counter = RequestCounter().attach(dynamodb_client)
    try:
        # WHEN the memory is loaded
        loaded = memory_repository.load(USER)
    finally:
        counter.detach(dynamodb_client)
        dynamodb_client.meta.events.unregister("provide-client-params.dynamodb.Query", spy)
    # THEN both documents are empty and missing, in ONE strongly consistent request
    assert loaded.snapshot == Snapshot()
    assert not loaded.document("user").exists
    assert not loaded.document("memory").exists
    assert loaded.document("memory").revision is None
    assert counter.counts() == {"Query": 1}
    assert seen[0]["ConsistentRead"] is True


def test_writes_render_documents_with_metadata(
    memory_repository: MemoryRepository, scan_table: Any, table_names: Any
) -> None:
    # GIVEN two missing documents
    loaded = memory_repository.load(USER)
    updated = Snapshot(user=("Name: Ada.",), memory=("Fact one.", "Fact two."))
    # WHEN both are written
    assert write(memory_repository, loaded, updated) == 2
    # THEN each item holds exactly the rendered document and its metadata
    items = {i["memory_type"]["S"]: i for i in scan_table(table_names.memory)}
    assert items["memory"]["content"]["S"] == render_document(["Fact one.", "Fact two."])
    assert items["memory"]["schema_version"] == {"N": str(migrations.CURRENT_SCHEMA_VERSION)}
    assert items["memory"]["created_at"] == items["memory"]["updated_at"] == {"N": str(NOW)}
    assert items["user"]["revision"]["S"] != items["memory"]["revision"]["S"]
    again = memory_repository.load(USER)
    assert again.snapshot == updated
    assert again.document("user").created_at == NOW


def test_only_changed_documents_are_written(memory_repository: MemoryRepository) -> None:
    # GIVEN both documents stored
    write(memory_repository, memory_repository.load(USER), Snapshot(user=("U.",), memory=("M.",)))
    loaded = memory_repository.load(USER)
    # WHEN only one target changes, or none
    only_memory = memory_repository.document_writes(
        USER, loaded, loaded.snapshot.replace_entries("memory", ("M.", "M2.")), NOW
    )
    nothing = memory_repository.document_writes(USER, loaded, loaded.snapshot, NOW)
    # THEN one conditional Put for the changed target, nothing otherwise
    assert len(only_memory) == 1
    put = only_memory[0]["Put"]
    assert put["Item"]["memory_type"] == {"S": "memory"}
    assert put["ConditionExpression"] == "#revision = :seen"
    assert put["ExpressionAttributeValues"] == {":seen": {"S": loaded.document("memory").revision}}
    assert nothing == []


def test_emptied_document_is_deleted_conditionally(
    memory_repository: MemoryRepository, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a stored memory document
    write(memory_repository, memory_repository.load(USER), Snapshot(memory=("Last.",)))
    loaded = memory_repository.load(USER)
    # WHEN its last entry is removed
    items = memory_repository.document_writes(USER, loaded, Snapshot(), NOW + 1)
    # THEN the write is a Delete conditional on the seen revision, and the item is gone
    assert list(items[0]) == ["Delete"]
    assert items[0]["Delete"]["ConditionExpression"] == "#revision = :seen"
    memory_repository.transact_write(items, token="delete-last")
    assert scan_table(table_names.memory) == []
    # AND a missing document that stays empty is never written
    assert (
        memory_repository.document_writes(USER, memory_repository.load(USER), Snapshot(), 1) == []
    )


def test_stale_revision_is_rejected(
    memory_repository: MemoryRepository, scan_table: Any, table_names: Any
) -> None:
    # GIVEN a writer that loaded revision r1, and another that has since written r2
    write(memory_repository, memory_repository.load(USER), Snapshot(memory=("v1",)))
    stale = memory_repository.load(USER)
    write(memory_repository, memory_repository.load(USER), Snapshot(memory=("v1", "v2")), NOW + 1)
    before = scan_table(table_names.memory)
    # WHEN the stale writer writes
    # THEN the transaction is cancelled on that item's condition and nothing changes
    with pytest.raises(TransactionCancelledError) as cancelled:
        write(memory_repository, stale, Snapshot(memory=("v1", "stale")), NOW + 2)
    assert cancelled.value.reasons == ("ConditionalCheckFailed",)
    assert scan_table(table_names.memory) == before


def test_concurrent_creation_is_rejected(memory_repository: MemoryRepository) -> None:
    # GIVEN two writers that both saw the document missing
    first = memory_repository.load(USER)
    second = memory_repository.load(USER)
    write(memory_repository, first, Snapshot(memory=("first",)))
    # WHEN the second creates it too
    # THEN attribute_not_exists fails
    with pytest.raises(TransactionCancelledError):
        write(memory_repository, second, Snapshot(memory=("second",)), NOW + 1)
    assert memory_repository.load(USER).snapshot.memory == ("first",)


def test_aba_deleted_and_recreated_document_is_not_overwritten(
    memory_repository: MemoryRepository,
) -> None:
    # GIVEN a writer that read the document...
    write(memory_repository, memory_repository.load(USER), Snapshot(memory=("Same.",)))
    stale = memory_repository.load(USER)
    # ...which is then deleted and re-created, identical, by others
    write(memory_repository, memory_repository.load(USER), Snapshot(), NOW + 1)
    write(memory_repository, memory_repository.load(USER), Snapshot(memory=("Same.",)), NOW + 2)
    recreated = memory_repository.load(USER)
    assert recreated.snapshot == stale.snapshot
    assert recreated.document("memory").revision != stale.document("memory").revision
    # WHEN the stale writer commits
    # THEN its condition fails: a random revision is never reused
    with pytest.raises(TransactionCancelledError):
        write(memory_repository, stale, Snapshot(memory=("Same.", "Stale.")), NOW + 3)
    assert memory_repository.load(USER).document("memory") == recreated.document("memory")


@pytest.mark.parametrize(
    "version",
    [{"N": str(migrations.CURRENT_SCHEMA_VERSION + 1)}, {"N": "0"}, None],
    ids=["newer", "zero", "missing"],
)
def test_unknown_schema_version_makes_memory_unavailable(
    memory_repository: MemoryRepository,
    dynamodb_client: Any,
    table_names: Any,
    scan_table: Any,
    version: dict[str, str] | None,
) -> None:
    # GIVEN a stored document of a version this code does not know
    attributes: dict[str, Any] = {"content": {"S": "future"}, "revision": {"S": "r"}}
    if version is not None:
        attributes["schema_version"] = version
    item = put_raw(dynamodb_client, table_names.memory, "memory", **attributes)
    # WHEN it is loaded
    # THEN the load fails with the specific error and the item is untouched
    with pytest.raises(UnknownSchemaVersionError) as error:
        memory_repository.load(USER)
    assert error.value.code == "unknown_schema_version"
    assert error.value.target == "memory"
    assert scan_table(table_names.memory) == [item]


def test_older_schema_version_goes_through_the_migration_registry(
    memory_repository: MemoryRepository,
    dynamodb_client: Any,
    table_names: Any,
    scan_table: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # GIVEN a v1 document and a (test) registry where v2 upper-cases the content
    put_raw(
        dynamodb_client,
        table_names.memory,
        "memory",
        content={"S": "old fact"},
        revision={"S": "r1"},
        schema_version={"N": "1"},
        created_at={"N": "5"},
    )
    monkeypatch.setattr(migrations, "CURRENT_SCHEMA_VERSION", 2)
    monkeypatch.setattr(migrations, "MIGRATIONS", {1: str.upper})
    # WHEN it is loaded and then changed
    loaded = memory_repository.load(USER)
    write(memory_repository, loaded, loaded.snapshot.replace_entries("memory", ("OLD FACT", "new")))
    # THEN the load saw the migrated content, and the write stored the current version
    assert loaded.snapshot.memory == ("OLD FACT",)
    assert loaded.document("memory").schema_version == 1
    (item,) = scan_table(table_names.memory)
    assert item["schema_version"] == {"N": "2"}
    assert item["created_at"] == {"N": "5"}


def test_corrupt_document_makes_memory_unavailable(
    memory_repository: MemoryRepository, dynamodb_client: Any, table_names: Any
) -> None:
    # GIVEN a document without a revision
    put_raw(
        dynamodb_client, table_names.memory, "user", content={"S": "x"}, schema_version={"N": "1"}
    )
    # WHEN loaded THEN it is refused
    with pytest.raises(CorruptDocumentError):
        memory_repository.load(USER)


def test_unrelated_items_in_the_partition_are_ignored(
    memory_repository: MemoryRepository, dynamodb_client: Any, table_names: Any
) -> None:
    # GIVEN an item of another memory_type (e.g. a probe) under the user
    put_raw(dynamodb_client, table_names.memory, "probe#1", content={"S": "p"})
    # WHEN loaded THEN it is not part of the snapshot
    assert memory_repository.load(USER).snapshot == Snapshot()


def test_failed_load_raises_unavailable(dynamodb_client: Any, transaction_client: Any) -> None:
    # GIVEN a table that does not exist
    repo = MemoryRepository(dynamodb_client, "no-such-table")
    # WHEN loaded THEN the error names the code only
    with pytest.raises(MemoryUnavailableError) as error:
        repo.load(USER)
    assert error.value.code == "ResourceNotFoundException"


def test_delete_all_removes_both_documents_in_one_transaction(
    memory_repository: MemoryRepository,
    dynamodb_client: Any,
    scan_table: Any,
    table_names: Any,
) -> None:
    # GIVEN both documents of a user and a document of another user
    write(memory_repository, memory_repository.load(USER), Snapshot(user=("U",), memory=("M",)))
    put_raw(dynamodb_client, table_names.memory, "memory", content={"S": "x"})
    dynamodb_client.put_item(
        TableName=table_names.memory,
        Item={"user_id": {"S": "other"}, "memory_type": {"S": "memory"}, "content": {"S": "o"}},
    )
    counter = RequestCounter().attach(dynamodb_client)
    try:
        # WHEN the user forgets everything (twice: idempotent)
        memory_repository.delete_all(USER)
        requests = counter.counts()
        generation = memory_repository.load(USER).forget_generation
        memory_repository.delete_all(USER)
    finally:
        counter.detach(dynamodb_client)
    # THEN only the other user's document and the user's settings item (a new forget
    # generation, no content) remain; one Query found the user's records (none), one
    # transaction did the rest; each forget drew a new generation
    assert requests == {"Query": 1, "TransactWriteItems": 1}
    remaining = {(i["user_id"]["S"], i["memory_type"]["S"]) for i in scan_table(table_names.memory)}
    assert remaining == {("other", "memory"), (USER, "settings")}
    assert memory_repository.load(USER).forget_generation not in (None, generation)


def test_export(
    memory_repository: MemoryRepository, dynamodb_client: Any, table_names: Any
) -> None:
    # GIVEN a stored memory document and no user document
    write(memory_repository, memory_repository.load(USER), Snapshot(memory=("A.", "B.")))
    # WHEN exported
    exported = memory_repository.export(USER)
    # THEN entries, sizes and metadata, and the missing document as empty
    memory = exported["documents"]["memory"]
    assert exported["user_id"] == USER
    assert memory["entries"] == ["A.", "B."]
    assert memory["chars"] == len(render_document(["A.", "B."]))
    assert memory["schema_version"] == migrations.CURRENT_SCHEMA_VERSION
    assert memory["exists"] is True
    assert exported["documents"]["user"] == {
        "exists": False,
        "entries": [],
        "chars": 0,
        "limit": 1375,
    }
    # AND a document of an unknown version is exported raw rather than refused
    put_raw(
        dynamodb_client,
        table_names.memory,
        "user",
        content={"S": "v9 blob"},
        revision={"S": "r"},
        schema_version={"N": "9"},
    )
    user = memory_repository.export(USER)["documents"]["user"]
    assert user["content"] == "v9 blob"
    assert user["entries"] is None
