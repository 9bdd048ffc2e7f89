"""Create the tables from ``template.yaml`` so tests and the local stack can never drift
from what is deployed.

Only the tests and the local stack call this (never a Lambda), so PyYAML is imported inside
the functions and is not a runtime dependency.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_memory.repository.clients import TableNames

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient

TEMPLATE_NAME = "template.yaml"
MEMORY_TABLE_RESOURCE = "MemoryTable"
TURN_LEDGER_TABLE_RESOURCE = "TurnLedgerTable"
IDEMPOTENCY_TABLE_RESOURCE = "IdempotencyTable"

# CloudFormation properties that map one to one onto CreateTable arguments. Encryption,
# deletion protection and point-in-time recovery are deployment concerns left out locally.
_CREATE_TABLE_PROPERTIES = (
    "AttributeDefinitions",
    "KeySchema",
    "BillingMode",
    "ProvisionedThroughput",
    "LocalSecondaryIndexes",
    "StreamSpecification",
    "TableClass",
)
_INDEX_PROPERTIES = ("IndexName", "KeySchema", "Projection", "ProvisionedThroughput")


def default_template_path() -> Path:
    """``template.yaml`` of the repository this package was installed from (editable)."""
    for parent in Path(__file__).resolve().parents:
        candidate = parent / TEMPLATE_NAME
        if candidate.is_file():
            return candidate
    return Path.cwd() / TEMPLATE_NAME


def load_template(path: Path | str | None = None) -> dict[str, Any]:
    """The template as plain data; short tags (``!Ref x``) become ``{"Ref": x}`` and
    ``!If [...]`` becomes ``{"Fn::If": [...]}``, as in the JSON form of a template."""
    # PyYAML is a test/local-stack dependency only (and ships without type hints).
    yaml: Any = importlib.import_module("yaml")
    loader_class: Any = type("CloudFormationLoader", (yaml.SafeLoader,), {})

    def construct_tag(loader: Any, suffix: str, node: Any) -> dict[str, Any]:
        name = "Ref" if suffix == "Ref" else f"Fn::{suffix}"
        value: Any
        if isinstance(node, yaml.ScalarNode):
            value = loader.construct_scalar(node)
            if suffix == "GetAtt" and isinstance(value, str):
                value = value.split(".", 1)
        elif isinstance(node, yaml.SequenceNode):
            value = loader.construct_sequence(node, deep=True)
        else:
            value = loader.construct_mapping(node, deep=True)
        return {name: value}

    loader_class.add_multi_constructor("!", construct_tag)
    text = Path(path or default_template_path()).read_text(encoding="utf-8")
    document = yaml.load(text, Loader=loader_class)  # a SafeLoader subclass
    if not isinstance(document, dict):
        raise ValueError("the template is not a mapping")
    return document


def table_definitions(template: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each ``AWS::DynamoDB::Table`` resource (by logical id) as ``create_table`` kwargs
    without ``TableName``, plus ``"TimeToLiveSpecification"`` when the table has one."""
    definitions: dict[str, dict[str, Any]] = {}
    for logical_id, resource in template.get("Resources", {}).items():
        if not isinstance(resource, Mapping) or resource.get("Type") != "AWS::DynamoDB::Table":
            continue
        properties = resource.get("Properties", {})
        kwargs: dict[str, Any] = {
            name: properties[name] for name in _CREATE_TABLE_PROPERTIES if name in properties
        }
        indexes = properties.get("GlobalSecondaryIndexes")
        if indexes:
            kwargs["GlobalSecondaryIndexes"] = [
                {name: index[name] for name in _INDEX_PROPERTIES if name in index}
                for index in indexes
            ]
        ttl = properties.get("TimeToLiveSpecification")
        if ttl:
            kwargs["TimeToLiveSpecification"] = {
                "AttributeName": ttl["AttributeName"],
                "Enabled": _is_true(ttl.get("Enabled", True)),
            }
        definitions[str(logical_id)] = kwargs
    return definitions


def create_tables_from_template(
    client: DynamoDBClient,
    names: TableNames,
    template_path: Path | str | None = None,
) -> None:
    """Create ``MemoryTable`` and ``TurnLedgerTable`` (with TTL) under the given names, and
    ``IdempotencyTable`` when ``names.idempotency`` is set."""
    definitions = table_definitions(load_template(template_path))
    physical = {
        MEMORY_TABLE_RESOURCE: names.memory,
        TURN_LEDGER_TABLE_RESOURCE: names.turn_ledger,
    }
    if names.idempotency:
        physical[IDEMPOTENCY_TABLE_RESOURCE] = names.idempotency
    for logical_id, table_name in physical.items():
        if logical_id not in definitions:
            raise ValueError(f"{logical_id} is not defined in the template")
        kwargs = dict(definitions[logical_id])
        ttl = kwargs.pop("TimeToLiveSpecification", None)
        client.create_table(TableName=table_name, **kwargs)
        client.get_waiter("table_exists").wait(
            TableName=table_name, WaiterConfig={"Delay": 1, "MaxAttempts": 30}
        )
        if ttl:
            client.update_time_to_live(TableName=table_name, TimeToLiveSpecification=ttl)


def delete_tables(client: DynamoDBClient, names: TableNames) -> None:
    """Drop the tables (tests and the local stack; ignores tables already gone)."""
    for table_name in (names.memory, names.turn_ledger, names.idempotency):
        if not table_name:
            continue
        with contextlib.suppress(client.exceptions.ResourceNotFoundException):
            client.delete_table(TableName=table_name)


def _is_true(value: Any) -> bool:
    return value is True or (isinstance(value, str) and value.lower() == "true")
