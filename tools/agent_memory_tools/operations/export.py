"""An operator's export of one user's memory, for data-subject access requests.

Both documents as the service reads them (``MemoryRepository.export``: entries with their
provenance, sizes, schema version, times; a document of an unknown version raw), the user's
settings (write mode), history records and pending proposals, and what the turn ledger holds
about the user: counts by status, and on request each item's metadata. Ledger items never hold
memory content; they expire by TTL.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from agent_memory.repository import LEDGER_TTL_S, MemoryRepository, TableNames, translate_error

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient

# The ledger attributes an export shows (all of them are metadata; see ledger_repository).
LEDGER_FIELDS = (
    "turn_id",
    "status",
    "opened_at",
    "deadline_ms",
    "updated_at",
    "committed_at",
    "cancelled_at",
    "expired_at",
    "discarded_at",
    "expires_at",
    "operation_counts",
)


class LedgerMetadata:
    """Read-only view of one user's ledger partition."""

    def __init__(self, client: DynamoDBClient, names: TableNames) -> None:
        self._client = client
        self._table = names.turn_ledger

    def items(self, user_id: str) -> list[dict[str, Any]]:
        request: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "#user_id = :user_id",
            "ExpressionAttributeNames": {"#user_id": "user_id"},
            "ExpressionAttributeValues": {":user_id": {"S": user_id}},
            "ConsistentRead": True,
        }
        found: list[dict[str, Any]] = []
        while True:
            try:
                page = self._client.query(**request)
            except (ClientError, BotoCoreError) as error:
                raise translate_error(error) from error
            found.extend(_plain(item) for item in page.get("Items", []))
            if "LastEvaluatedKey" not in page:
                return found
            request["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def export_user(
    memory: MemoryRepository,
    ledger: LedgerMetadata,
    user_id: str,
    *,
    include_ledger_items: bool = False,
    now: datetime | None = None,
) -> dict[str, Any]:
    exported = memory.export(user_id)
    ledger_items = ledger.items(user_id)
    ledger_section: dict[str, Any] = {
        "items": len(ledger_items),
        "by_status": dict(sorted(Counter(str(i.get("status")) for i in ledger_items).items())),
        "note": (
            "Turn ledger items hold metadata only (status, times, operation counts), never "
            f"memory content; each expires {LEDGER_TTL_S // 86_400} days after its last change."
        ),
    }
    if include_ledger_items:
        ledger_section["records"] = [
            {name: item[name] for name in LEDGER_FIELDS if name in item} for item in ledger_items
        ]
    return {
        "user_id": user_id,
        "exported_at": (now or datetime.now(UTC)).isoformat(timespec="seconds"),
        "documents": exported["documents"],
        "settings": exported["settings"],
        "history": exported["history"],
        "proposals": exported["proposals"],
        "ledger": ledger_section,
    }


def _plain(item: dict[str, Any]) -> dict[str, Any]:
    return {name: _value(value) for name, value in item.items()}


def _value(value: dict[str, Any]) -> Any:
    if "S" in value:
        return value["S"]
    if "N" in value:
        number = value["N"]
        return int(number) if number.lstrip("-").isdigit() else float(number)
    if "M" in value:
        return {name: _value(inner) for name, inner in value["M"].items()}
    if "L" in value:
        return [_value(inner) for inner in value["L"]]
    if "BOOL" in value:
        return bool(value["BOOL"])
    if "NULL" in value:
        return None
    return {kind: str(inner) for kind, inner in value.items()}
