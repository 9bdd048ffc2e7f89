"""Remove a probe run's items by key: idempotent, and only ever inside the probe namespace.

The application itself never deletes ledger items (TTL does) and removes memory items only
through the commit protocol or ``DELETE /memory``; the probe needs to leave nothing at all,
whatever step failed, so this adapter deletes by key and then sweeps the probe user's two
partitions (a probe user id belongs to the probe alone; see ``namespace``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from agent_memory.domain import TARGETS
from agent_memory.repository import TableNames
from agent_memory_tools.operations.exceptions import NotAProbeUserError
from agent_memory_tools.operations.namespace import is_probe_user_id

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient

MEMORY_SORT_KEY = "memory_type"
LEDGER_SORT_KEY = "turn_id"


class ProbeCleaner:
    def __init__(self, client: DynamoDBClient, names: TableNames) -> None:
        self._client = client
        self._names = names

    def remove(self, user_id: str, turn_ids: Iterable[str] = ()) -> None:
        """Delete the known keys of a probe run, then anything else in its partitions."""
        _require_probe(user_id)
        for target in TARGETS:
            self._delete(self._names.memory, user_id, MEMORY_SORT_KEY, target)
        for turn_id in turn_ids:
            self._delete(self._names.turn_ledger, user_id, LEDGER_SORT_KEY, turn_id)
        for table, sort_key, value in self.leftovers(user_id):
            self._delete(table, user_id, sort_key, value)

    def leftovers(self, user_id: str) -> list[tuple[str, str, str]]:
        """(table, sort key name, sort key value) of every item still in the probe user's
        partitions (strongly consistent)."""
        _require_probe(user_id)
        found: list[tuple[str, str, str]] = []
        for table, sort_key in (
            (self._names.memory, MEMORY_SORT_KEY),
            (self._names.turn_ledger, LEDGER_SORT_KEY),
        ):
            values = self._sort_keys(table, user_id, sort_key)
            found.extend((table, sort_key, value) for value in values)
        return found

    def _sort_keys(self, table: str, user_id: str, sort_key: str) -> list[str]:
        values: list[str] = []
        request: dict[str, Any] = {
            "TableName": table,
            "KeyConditionExpression": "#user_id = :user_id",
            "ProjectionExpression": "#sort_key",
            "ExpressionAttributeNames": {"#user_id": "user_id", "#sort_key": sort_key},
            "ExpressionAttributeValues": {":user_id": {"S": user_id}},
            "ConsistentRead": True,
        }
        while True:
            try:
                page = self._client.query(**request)
            except ClientError as error:
                if _missing_table(error):
                    return values  # a table that does not exist holds no probe item
                raise
            values.extend(item[sort_key]["S"] for item in page.get("Items", []))
            if "LastEvaluatedKey" not in page:
                return values
            request["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def _delete(self, table: str, user_id: str, sort_key: str, value: str) -> None:
        try:
            self._client.delete_item(
                TableName=table, Key={"user_id": {"S": user_id}, sort_key: {"S": value}}
            )
        except ClientError as error:
            if not _missing_table(error):
                raise


def _missing_table(error: ClientError) -> bool:
    return error.response.get("Error", {}).get("Code") == "ResourceNotFoundException"


def _require_probe(user_id: str) -> None:
    if not is_probe_user_id(user_id):
        raise NotAProbeUserError("refusing to delete outside the probe namespace")
