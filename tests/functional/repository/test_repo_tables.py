"""Tables are created from template.yaml, so tests and the local stack match the deployment."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agent_memory.domain import Snapshot
from agent_memory.repository import MemoryRepository, TableNames
from agent_memory.repository.tables import (
    default_template_path,
    load_template,
    table_definitions,
)


def test_template_short_tags_become_intrinsic_functions(tmp_path: Path) -> None:
    # GIVEN a template using CloudFormation short tags (scalar, sequence and mapping forms)
    template = tmp_path / "template.yaml"
    template.write_text(
        "Conditions:\n"
        "  UseKey: !Not [!Equals [!Ref Key, '']]\n"
        "Outputs:\n"
        "  Arn: {Value: !GetAtt Table.Arn}\n"
        "  Name: {Value: !Sub '${AWS::StackName}-x'}\n"
        "  Pick: {Value: !If [UseKey, !Ref A, !Ref AWS::NoValue]}\n"
        "  Map: {Value: !Transform {Name: X}}\n",
        encoding="utf-8",
    )
    # WHEN it is loaded
    loaded = load_template(template)
    # THEN every tag reads as its JSON-form intrinsic function
    assert loaded["Conditions"]["UseKey"] == {"Fn::Not": [{"Fn::Equals": [{"Ref": "Key"}, ""]}]}
    assert loaded["Outputs"]["Arn"]["Value"] == {"Fn::GetAtt": ["Table", "Arn"]}
    assert loaded["Outputs"]["Name"]["Value"] == {"Fn::Sub": "${AWS::StackName}-x"}
    assert loaded["Outputs"]["Pick"]["Value"] == {
        "Fn::If": ["UseKey", {"Ref": "A"}, {"Ref": "AWS::NoValue"}]
    }
    assert loaded["Outputs"]["Map"]["Value"] == {"Fn::Transform": {"Name": "X"}}


def test_the_repository_template_defines_both_tables() -> None:
    # GIVEN the real template
    path = default_template_path()
    assert path.name == "template.yaml"
    assert path.is_file()
    # WHEN its tables are read
    definitions = table_definitions(load_template(path))
    # THEN both tables, their keys, the TTL and the sparse GSI are there
    memory, ledger = definitions["MemoryTable"], definitions["TurnLedgerTable"]
    assert memory["KeySchema"] == [
        {"AttributeName": "user_id", "KeyType": "HASH"},
        {"AttributeName": "memory_type", "KeyType": "RANGE"},
    ]
    assert ledger["TimeToLiveSpecification"] == {"AttributeName": "expires_at", "Enabled": True}
    (index,) = ledger["GlobalSecondaryIndexes"]
    assert index["IndexName"] == "open-turns-by-deadline"
    assert [k["AttributeName"] for k in index["KeySchema"]] == ["open_shard", "deadline_ms"]
    # Deployment-only properties are left out of CreateTable.
    assert "SSESpecification" not in memory
    assert "DeletionProtectionEnabled" not in memory


def test_created_tables_match_the_template(dynamodb_client: Any, table_names: TableNames) -> None:
    # GIVEN tables created by the fixture from the template
    definitions = table_definitions(load_template())
    for logical_id, name in (
        ("MemoryTable", table_names.memory),
        ("TurnLedgerTable", table_names.turn_ledger),
    ):
        # WHEN described
        table = dynamodb_client.describe_table(TableName=name)["Table"]
        # THEN keys, attributes, billing and indexes are the template's
        expected = definitions[logical_id]
        assert table["KeySchema"] == expected["KeySchema"]
        assert sorted(table["AttributeDefinitions"], key=str) == sorted(
            expected["AttributeDefinitions"], key=str
        )
        assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    ledger = dynamodb_client.describe_table(TableName=table_names.turn_ledger)["Table"]
    (index,) = ledger["GlobalSecondaryIndexes"]
    assert index["IndexName"] == "open-turns-by-deadline"
    assert index["Projection"] == {"ProjectionType": "KEYS_ONLY"}
    ttl = dynamodb_client.describe_time_to_live(TableName=table_names.turn_ledger)
    assert ttl["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED",
        "AttributeName": "expires_at",
    }


def test_in_process_variant(inprocess_dynamodb: tuple[Any, TableNames]) -> None:
    # GIVEN in-process moto with tables from the template
    client, names = inprocess_dynamodb
    repo = MemoryRepository(client, names.memory)
    # WHEN a user's memory is loaded THEN it works without any server
    assert repo.load("someone").snapshot == Snapshot()
