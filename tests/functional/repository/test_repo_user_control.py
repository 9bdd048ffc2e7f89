"""History records, proposals, settings and provenance in MemoryTable (moto over HTTP): the
load stays one bounded Query, old documents stay readable, records expire by TTL."""

from __future__ import annotations

import json
import time
from typing import Any

from agent_memory.domain import Change, Operation, Provenance, Snapshot
from agent_memory.repository import (
    HistoryRecord,
    MemoryRepository,
    RequestCounter,
    new_time_ordered_id,
)
from agent_memory.repository.user_control import history_retention_days

USER = "user-control"
NOW = 1_800_000_000_000


def put_history(repo: MemoryRepository, commit_id: str, at: int, text: str) -> None:
    record = HistoryRecord(commit_id, "chat", at, (Change("memory", "add", after=text),), "t")
    repo.transact_write([repo.history_write(USER, record)], token=commit_id.replace("-", ""))


def test_the_load_reads_documents_and_settings_but_never_the_history(
    memory_repository: MemoryRepository, dynamodb_client: Any
) -> None:
    # GIVEN a document, a write mode, 120 history records and a proposal
    loaded = memory_repository.load(USER)
    memory_repository.transact_write(
        memory_repository.document_writes(USER, loaded, Snapshot(memory=("Kept.",)), NOW),
        token="seed",
    )
    memory_repository.control.set_write_mode(USER, "approve")
    for index in range(120):
        put_history(memory_repository, new_time_ordered_id(NOW + index), NOW + index, "x" * 500)
    proposal = memory_repository.control.new_proposal(
        "t", [Operation("memory", "add", content="P.")], NOW
    )
    memory_repository.transact_write([memory_repository.proposal_write(USER, proposal)], token="p")
    returned: list[int] = []

    def count(parsed: dict[str, Any], **_: Any) -> None:
        returned.append(parsed.get("Count", -1))

    dynamodb_client.meta.events.register("after-call.dynamodb.Query", count)
    counter = RequestCounter().attach(dynamodb_client)
    try:
        # WHEN memory is loaded
        loaded = memory_repository.load(USER)
    finally:
        counter.detach(dynamodb_client)
        dynamodb_client.meta.events.unregister("after-call.dynamodb.Query", count)
    # THEN one Query returned the document and the settings item only
    assert counter.counts() == {"Query": 1}
    assert returned == [2]
    assert loaded.snapshot == Snapshot(memory=("Kept.",))
    assert loaded.write_mode == "approve"


def test_a_document_older_than_provenance_reads_as_unknown_and_is_not_rewritten(
    memory_repository: MemoryRepository, dynamodb_client: Any, table_names: Any
) -> None:
    # GIVEN a schema v2 document (no provenance attribute)
    item = {
        "user_id": {"S": USER},
        "memory_type": {"S": "memory"},
        "content": {"S": "Old fact.\n§\nOther fact."},
        "revision": {"S": "rev-v2"},
        "schema_version": {"N": "2"},
        "created_at": {"N": "7"},
        "updated_at": {"N": "9"},
    }
    dynamodb_client.put_item(TableName=table_names.memory, Item=item)
    # WHEN it is loaded
    loaded = memory_repository.load(USER)
    # THEN its entries read with unknown provenance at the document's time, and the read
    # rewrote nothing
    unknown = Provenance(source="unknown", updated_at=9)
    assert loaded.entry_provenance("memory") == (unknown, unknown)
    stored = dynamodb_client.get_item(
        TableName=table_names.memory,
        Key={"user_id": item["user_id"], "memory_type": item["memory_type"]},
    )["Item"]
    assert stored == item
    # WHEN a commit changes the document
    updated = loaded.snapshot.replace_entries("memory", ("Old fact.", "New fact."))
    stamp = Provenance(source="chat", updated_at=NOW, turn_id="t1")
    writes = memory_repository.document_writes(USER, loaded, updated, NOW, stamp=stamp)
    memory_repository.transact_write(writes, token="migrate")
    # THEN it is written at v3 with provenance: the kept entry's unknown, the new one chat's
    after = memory_repository.load(USER)
    assert after.document("memory").schema_version == 3
    assert after.entry_provenance("memory") == (unknown, stamp)


def test_a_provenance_list_that_does_not_line_up_is_not_trusted(
    memory_repository: MemoryRepository, dynamodb_client: Any, table_names: Any
) -> None:
    # GIVEN a v3 document whose provenance has the wrong length (a hand edit)
    dynamodb_client.put_item(
        TableName=table_names.memory,
        Item={
            "user_id": {"S": USER},
            "memory_type": {"S": "user"},
            "content": {"S": "A.\n§\nB."},
            "revision": {"S": "r"},
            "schema_version": {"N": "3"},
            "created_at": {"N": "1"},
            "updated_at": {"N": "2"},
            "provenance": {"S": json.dumps([{"source": "chat", "updated_at": 1}])},
        },
    )
    # THEN the document still reads, its provenance unknown
    loaded = memory_repository.load(USER)
    assert loaded.snapshot.user == ("A.", "B.")
    assert {p.source for p in loaded.entry_provenance("user")} == {"unknown"}


def test_history_records_expire_after_the_retention_and_read_as_absent(
    dynamodb_client: Any, table_names: Any
) -> None:
    # GIVEN a repository keeping history 7 days, and a record committed just now
    repo = MemoryRepository(dynamodb_client, table_names.memory, history_retention_days=7)
    now = int(time.time() * 1000)
    commit_id = new_time_ordered_id(now)
    put_history(repo, commit_id, now, "Fact.")
    item = dynamodb_client.get_item(
        TableName=table_names.memory,
        Key={"user_id": {"S": USER}, "memory_type": {"S": f"~history#{commit_id}"}},
    )["Item"]
    # THEN its TTL is 7 days later (epoch seconds), and past it the record is gone for reads
    assert int(item["expires_at"]["N"]) == now // 1000 + 7 * 86_400
    assert repo.control.get_history(USER, commit_id, now) is not None
    later = now + 7 * 86_400_000
    assert repo.control.get_history(USER, commit_id, later) is None
    assert repo.control.history_page(USER, limit=5, after=None, now_ms=later) == ([], None)


def test_retention_comes_from_the_environment_with_a_safe_default() -> None:
    assert history_retention_days({}) == 30
    assert history_retention_days({"HISTORY_RETENTION_DAYS": "90"}) == 90
    assert history_retention_days({"HISTORY_RETENTION_DAYS": "zero"}) == 30
    assert history_retention_days({"HISTORY_RETENTION_DAYS": "0"}) == 30


def test_commit_ids_are_uuids_ordered_by_time() -> None:
    ids = [new_time_ordered_id(NOW + step) for step in (0, 1, 1000, 86_400_000)]
    assert ids == sorted(ids)
    assert all(len(i) == 36 and i[14] == "7" for i in ids)


def test_export_holds_documents_provenance_settings_history_and_proposals(
    memory_repository: MemoryRepository,
) -> None:
    # GIVEN a document, a mode, a history record and a proposal
    now = int(time.time() * 1000)
    loaded = memory_repository.load(USER)
    stamp = Provenance(source="edit", updated_at=now)
    memory_repository.transact_write(
        memory_repository.document_writes(USER, loaded, Snapshot(user=("Ada.",)), now, stamp=stamp),
        token="x",
    )
    memory_repository.control.set_write_mode(USER, "read_only")
    put_history(memory_repository, new_time_ordered_id(now), now, "Ada.")
    proposal = memory_repository.control.new_proposal(
        "t", [Operation("user", "add", content="P.")], now
    )
    memory_repository.transact_write([memory_repository.proposal_write(USER, proposal)], token="p")
    # WHEN the operator exports the user
    exported = memory_repository.export(USER, now_ms=now)
    # THEN every kind of item is there
    assert exported["documents"]["user"]["provenance"] == [stamp.to_dict()]
    assert exported["settings"] == {"write_mode": "read_only"}
    assert [h["changes"] for h in exported["history"]] == [
        [{"target": "memory", "action": "add", "after": "Ada."}]
    ]
    assert [p["proposal_id"] for p in exported["proposals"]] == [proposal.proposal_id]
