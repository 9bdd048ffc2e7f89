"""Schema versions: the v1 -> v2 migration (canonical documents), applied in memory on load,
written back only by a normal commit that changes the document, never by a read; a document
of an unknown newer version is never overwritten and makes memory unavailable (with its
metric)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from operations_support import Api, snapshot_tables

from agent_memory.domain import (
    MemoryValidationError,
    normalize_text,
    parse_document,
    render_document,
    validate_entry,
)
from agent_memory.ledger import CancelFlag, LedgerConfig, TurnUnitOfWork
from agent_memory.repository import (
    CURRENT_SCHEMA_VERSION,
    MIGRATIONS,
    LedgerRepository,
    MemoryRepository,
    TableNames,
    migrate,
)
from agent_memory.repository.migrations import canonicalise_v1
from agent_memory_tools.operations.probe import wall_clock_ms

USER = "alice"
# A v1 document as a Windows editor or an import would leave it: CRLF line endings, a
# delimiter line with spaces, trailing whitespace, an empty entry and an exact duplicate.
V1_CONTENT = (
    "Uses SAM for deploys.  \r\n§\r\n"
    "Python 3.13 on arm64.\r\n  §  \r\n"
    "\r\n§\r\n"
    "Uses SAM for deploys.\r\n§\r\n"
    "Two-line fact:\r\nsecond line."
)
V1_ENTRIES = ("Uses SAM for deploys.", "Python 3.13 on arm64.", "Two-line fact:\nsecond line.")


def put_v1(
    client: Any, table: str, target: str = "memory", content: str = V1_CONTENT
) -> dict[str, Any]:
    item = {
        "user_id": {"S": USER},
        "memory_type": {"S": target},
        "content": {"S": content},
        "revision": {"S": "rev-v1"},
        "schema_version": {"N": "1"},
        "created_at": {"N": "5"},
        "updated_at": {"N": "5"},
    }
    client.put_item(TableName=table, Item=item)
    return item


def begin(memory: MemoryRepository, ledger: LedgerRepository) -> TurnUnitOfWork:
    return TurnUnitOfWork.begin(
        USER,
        str(uuid.uuid4()),
        wall_clock_ms() + 20_000,
        memory_repo=memory,
        ledger_repo=ledger,
        cancel_flag=CancelFlag(),
        config=LedgerConfig(clock_ms=wall_clock_ms),
    )


# -- the migration itself ----------------------------------------------------------------


def test_the_registry_migrates_v1_to_the_current_version() -> None:
    assert CURRENT_SCHEMA_VERSION == 3
    assert MIGRATIONS[1] is canonicalise_v1
    assert MIGRATIONS[2](V1_CONTENT) == V1_CONTENT  # v3 adds provenance beside the content
    assert parse_document(migrate(V1_CONTENT, 1)) == V1_ENTRIES
    assert migrate(V1_CONTENT, CURRENT_SCHEMA_VERSION) == V1_CONTENT  # nothing to do


@pytest.mark.parametrize(
    ("stored", "entries"),
    [
        ("", ()),
        ("§", ()),
        ("a\r\n§\r\nb", ("a", "b")),
        ("a\r§\rb", ("a", "b")),
        ("a\n\t§ \nb", ("a", "b")),
        ("  a  \n§\n\n§\n a", ("a",)),
        ("a § b\n§\nc", ("a § b", "c")),  # a § inside a line is text, not a delimiter
        ("x\n§§\ny", ("x\n§§\ny",)),
    ],
)
def test_canonical_form_of_stored_documents(stored: str, entries: tuple[str, ...]) -> None:
    assert parse_document(canonicalise_v1(stored)) == entries


@given(st.text(alphabet=st.sampled_from(list("ab §\r\n\t ")), max_size=60))
def test_the_migration_is_idempotent_and_its_output_is_canonical(content: str) -> None:
    once = canonicalise_v1(content)
    assert canonicalise_v1(once) == once
    entries = parse_document(once)
    assert len(set(entries)) == len(entries)
    for entry in entries:
        assert entry
        assert normalize_text(entry) == entry
        assert all(line.strip() != "§" for line in entry.split("\n"))


@given(st.lists(st.text(min_size=1, max_size=40), max_size=6))
def test_documents_the_rules_wrote_are_left_exactly_as_they_are(texts: list[str]) -> None:
    # GIVEN entries as the domain stores them (validated, normalised, no duplicate)
    entries: list[str] = []
    for text in texts:
        try:
            entry = validate_entry(text, "memory")
        except MemoryValidationError:
            continue
        if entry not in entries:
            entries.append(entry)
    stored = render_document(entries)
    # WHEN migrated THEN nothing changes: v2 only names what the rules already guarantee
    assert canonicalise_v1(stored) == stored


# -- through the repository and the turn ledger (moto) ------------------------------------


def test_a_v1_document_loads_migrated_and_a_read_only_turn_writes_nothing(
    memory_repository: MemoryRepository,
    ledger_repository: LedgerRepository,
    dynamodb_client: Any,
    table_names: TableNames,
) -> None:
    # GIVEN a v1 document
    put_v1(dynamodb_client, table_names.memory)
    before = snapshot_tables(dynamodb_client, table_names)
    # WHEN a turn loads it and commits without staging anything
    turn = begin(memory_repository, ledger_repository)
    outcome = turn.commit()
    # THEN the turn saw the migrated entries, and the stored item is untouched (still v1)
    assert turn.snapshot.memory == V1_ENTRIES
    assert memory_repository.load(USER).document("memory").schema_version == 1
    assert outcome.status == "unchanged"
    assert snapshot_tables(dynamodb_client, table_names) == before


def test_a_commit_that_changes_another_document_leaves_the_v1_document_alone(
    memory_repository: MemoryRepository,
    ledger_repository: LedgerRepository,
    dynamodb_client: Any,
    table_names: TableNames,
) -> None:
    # GIVEN a v1 memory document
    v1 = put_v1(dynamodb_client, table_names.memory)
    # WHEN a turn commits a change to the user document only
    turn = begin(memory_repository, ledger_repository)
    turn.call_tool({"operations": [{"target": "user", "action": "add", "content": "Ada."}]})
    assert turn.commit().status == "committed"
    # THEN the memory document is still the v1 item, byte for byte
    items = {
        i["memory_type"]["S"]: i for i in snapshot_tables(dynamodb_client, table_names)["memory"]
    }
    assert items["memory"] == v1
    assert items["user"]["schema_version"] == {"N": str(CURRENT_SCHEMA_VERSION)}


def test_a_normal_commit_writes_the_migrated_document_at_the_current_version(
    memory_repository: MemoryRepository,
    ledger_repository: LedgerRepository,
    dynamodb_client: Any,
    table_names: TableNames,
) -> None:
    # GIVEN a v1 document
    put_v1(dynamodb_client, table_names.memory)
    # WHEN a turn replaces an entry by the migrated text and commits
    turn = begin(memory_repository, ledger_repository)
    result = turn.call_tool(
        {
            "operations": [
                {
                    "target": "memory",
                    "action": "replace",
                    "match": "Two-line fact:\nsecond",
                    "content": "One-line fact.",
                }
            ]
        }
    )
    assert result["success"], result
    assert turn.commit().status == "committed"
    # THEN the item is canonical, at the current version, with a new revision and its
    # creation time kept
    [item] = [
        i
        for i in snapshot_tables(dynamodb_client, table_names)["memory"]
        if i["memory_type"]["S"] == "memory"
    ]
    assert item["schema_version"] == {"N": str(CURRENT_SCHEMA_VERSION)}
    assert item["content"] == {"S": render_document((*V1_ENTRIES[:2], "One-line fact."))}
    assert item["revision"] != {"S": "rev-v1"}
    assert item["created_at"] == {"N": "5"}
    # AND the round trip: loading it again needs no migration and gives the same entries
    again = memory_repository.load(USER)
    assert again.document("memory").schema_version == CURRENT_SCHEMA_VERSION
    assert again.snapshot.memory == (*V1_ENTRIES[:2], "One-line fact.")
    assert migrate(item["content"]["S"], CURRENT_SCHEMA_VERSION) == item["content"]["S"]


def test_a_conflicting_writer_of_the_v1_document_makes_the_commit_replay_on_its_version(
    memory_repository: MemoryRepository,
    ledger_repository: LedgerRepository,
    dynamodb_client: Any,
    table_names: TableNames,
) -> None:
    # GIVEN a turn that loaded a v1 document, which another (older) writer then changes
    put_v1(dynamodb_client, table_names.memory)
    turn = begin(memory_repository, ledger_repository)
    turn.call_tool({"operations": [{"target": "memory", "action": "add", "content": "New."}]})
    put_v1(dynamodb_client, table_names.memory, content="Rewritten elsewhere.\r\n")
    dynamodb_client.update_item(
        TableName=table_names.memory,
        Key={"user_id": {"S": USER}, "memory_type": {"S": "memory"}},
        UpdateExpression="SET revision = :r",
        ExpressionAttributeValues={":r": {"S": "rev-other"}},
    )
    # WHEN the turn commits
    outcome = turn.commit()
    # THEN the revision condition caught it, and the batch was replayed on the migrated
    # latest version, never over it
    assert outcome.status == "committed"
    assert outcome.replays == 1
    assert memory_repository.load(USER).snapshot.memory == ("Rewritten elsewhere.", "New.")


def test_an_unknown_newer_version_is_never_overwritten_and_is_counted(
    api: Api,
    dynamodb_client: Any,
    dynamodb_env: TableNames,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # GIVEN a document written by a newer release (schema_version above this code's)
    future = put_v1(dynamodb_client, dynamodb_env.memory, content="future-format")
    dynamodb_client.update_item(
        TableName=dynamodb_env.memory,
        Key={"user_id": {"S": USER}, "memory_type": {"S": "memory"}},
        UpdateExpression="SET schema_version = :v",
        ExpressionAttributeValues={":v": {"N": str(CURRENT_SCHEMA_VERSION + 1)}},
    )
    future["schema_version"] = {"N": str(CURRENT_SCHEMA_VERSION + 1)}
    capsys.readouterr()

    # WHEN a chat turn asks to remember (and the user edits through the API)
    reply = api.chat("remember: would overwrite")
    edit = api.call(
        "PATCH",
        "/memory",
        body={"operations": [{"target": "user", "action": "add", "content": "x"}]},
    )

    # THEN memory is unavailable for the turn, nothing is written anywhere
    assert reply.status == 200
    assert reply.body["memory"]["status"] == "unavailable"
    assert reply.body["memory"]["reason"] == "unknown_schema_version"
    assert edit.status == 503
    assert snapshot_tables(dynamodb_client, dynamodb_env) == {"memory": [future], "ledger": []}
    # AND the MemoryUnavailable metric carries the reason
    metrics = [
        json.loads(line) for line in capsys.readouterr().out.splitlines() if '"_aws"' in line
    ]
    unavailable = [m for m in metrics if "MemoryUnavailable" in m]
    assert unavailable
    assert unavailable[0]["reason"] == "unknown_schema_version"
    assert unavailable[0]["service"] == "agent-memory"
