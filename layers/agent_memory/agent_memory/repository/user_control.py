"""History records, proposals and the per-user settings item in ``MemoryTable``.

They live in the user's partition beside the two documents, under sort keys the turn's
load does not read (``LOAD_RANGE`` covers ``memory``, ``settings`` and ``user``; history
and proposals sort after ``user``), so a turn's load stays one bounded Query however long
the history grows:

- ``settings``: ``write_mode`` (``auto`` | ``approve`` | ``read_only``); other attributes
  of the item (the forget generation) are never touched here.
- ``~history#<commit_id>``: one commit's entry-level ``changes`` (JSON), ``source``,
  ``turn_id``, ``committed_at`` and ``expires_at`` (TTL, ``HistoryRetentionDays``).
- ``~proposal#<proposal_id>``: a staged batch of an ``approve``-mode turn (``operations``,
  JSON), ``turn_id``, ``created_at`` and ``expires_at`` (7 days).

Commit and proposal ids are time-ordered UUIDs (version 7), so the sort key orders the
history by time and an id addresses its item directly. Items past ``expires_at`` read as
absent (DynamoDB's TTL deletes them lazily).
"""

from __future__ import annotations

import json
import os
import secrets
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from botocore.exceptions import BotoCoreError, ClientError

from agent_memory.domain import Change, Operation
from agent_memory.repository.attributes import number_attribute, string_attribute
from agent_memory.repository.clients import translate_error

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import AttributeValueTypeDef, TransactWriteItemTypeDef

_T = TypeVar("_T")

WriteMode = Literal["auto", "approve", "read_only"]
WRITE_MODES: tuple[WriteMode, ...] = ("auto", "approve", "read_only")
DEFAULT_WRITE_MODE: WriteMode = "auto"

SETTINGS_KEY = "settings"
HISTORY_PREFIX = "~history#"
PROPOSAL_PREFIX = "~proposal#"
# The documents and the settings item, and nothing else (BETWEEN is inclusive).
LOAD_RANGE = ("memory", "user")

ENV_HISTORY_RETENTION_DAYS = "HISTORY_RETENTION_DAYS"
DEFAULT_HISTORY_RETENTION_DAYS = 30
PROPOSAL_TTL_S = 7 * 24 * 3600
_TRANSACTION_LIMIT = 100


def new_time_ordered_id(now_ms: int) -> str:
    """A UUID version 7: 48 bits of milliseconds, then random bits (RFC 9562)."""
    value = (now_ms & ((1 << 48) - 1)) << 80
    value |= 0x7 << 76
    value |= secrets.randbits(12) << 64
    value |= 0b10 << 62
    value |= secrets.randbits(62)
    return str(uuid.UUID(int=value))


def history_retention_days(environ: Mapping[str, str] | None = None) -> int:
    env = os.environ if environ is None else environ
    try:
        days = int(env.get(ENV_HISTORY_RETENTION_DAYS, DEFAULT_HISTORY_RETENTION_DAYS))
    except ValueError:
        return DEFAULT_HISTORY_RETENTION_DAYS
    return days if days > 0 else DEFAULT_HISTORY_RETENTION_DAYS


@dataclass(frozen=True)
class HistoryRecord:
    commit_id: str
    source: str
    committed_at: int
    changes: tuple[Change, ...]
    turn_id: str | None = None


@dataclass(frozen=True)
class Proposal:
    proposal_id: str
    turn_id: str
    created_at: int
    expires_at: int  # epoch seconds
    operations: tuple[Operation, ...]


class UserControlRepository:
    """History, proposals and settings of each user (same table as the documents)."""

    def __init__(
        self,
        client: DynamoDBClient,
        table_name: str,
        *,
        retention_days: int = DEFAULT_HISTORY_RETENTION_DAYS,
    ) -> None:
        self._client = client
        self._table = table_name
        self._retention_s = retention_days * 24 * 3600

    # -- items of a commit's transaction ---------------------------------------------------

    def history_write(self, user_id: str, record: HistoryRecord) -> TransactWriteItemTypeDef:
        """The Put of one history record. Its key is fresh and the ledger's condition lets
        at most one attempt of a commit land, so it needs no condition of its own."""
        item: dict[str, AttributeValueTypeDef] = {
            "user_id": {"S": user_id},
            "memory_type": {"S": HISTORY_PREFIX + record.commit_id},
            "commit_id": {"S": record.commit_id},
            "source": {"S": record.source},
            "committed_at": {"N": str(record.committed_at)},
            "changes": {"S": json.dumps([change.to_dict() for change in record.changes])},
            "expires_at": {"N": str(record.committed_at // 1000 + self._retention_s)},
        }
        if record.turn_id is not None:
            item["turn_id"] = {"S": record.turn_id}
        return {"Put": {"TableName": self._table, "Item": item}}

    def proposal_write(self, user_id: str, proposal: Proposal) -> TransactWriteItemTypeDef:
        item: dict[str, AttributeValueTypeDef] = {
            "user_id": {"S": user_id},
            "memory_type": {"S": PROPOSAL_PREFIX + proposal.proposal_id},
            "proposal_id": {"S": proposal.proposal_id},
            "turn_id": {"S": proposal.turn_id},
            "created_at": {"N": str(proposal.created_at)},
            "expires_at": {"N": str(proposal.expires_at)},
            "operations": {"S": json.dumps([_operation_dict(op) for op in proposal.operations])},
        }
        return {"Put": {"TableName": self._table, "Item": item}}

    def consume_proposal_write(
        self, user_id: str, proposal_id: str, now_ms: int
    ) -> TransactWriteItemTypeDef:
        """The Delete of an approved proposal, conditional on it still being pending: of two
        approvals of one proposal, at most one transaction can succeed."""
        return {
            "Delete": {
                "TableName": self._table,
                "Key": _key(user_id, PROPOSAL_PREFIX + proposal_id),
                "ConditionExpression": "attribute_exists(#key) AND expires_at > :now",
                "ExpressionAttributeNames": {"#key": "memory_type"},
                "ExpressionAttributeValues": {":now": {"N": str(now_ms // 1000)}},
            }
        }

    def new_proposal(self, turn_id: str, operations: Sequence[Operation], now_ms: int) -> Proposal:
        return Proposal(
            proposal_id=new_time_ordered_id(now_ms),
            turn_id=turn_id,
            created_at=now_ms,
            expires_at=now_ms // 1000 + PROPOSAL_TTL_S,
            operations=tuple(operations),
        )

    # -- reads -------------------------------------------------------------------------------

    def history_page(
        self, user_id: str, *, limit: int, after: str | None, now_ms: int
    ) -> tuple[list[HistoryRecord], str | None]:
        """Up to ``limit`` records, newest first, older than commit ``after`` when given;
        and the commit id to continue after, when there may be more."""
        upper = HISTORY_PREFIX + after if after else HISTORY_PREFIX + "\uffff"
        records: list[HistoryRecord] = []
        last: str | None = None
        items = self._query_range(
            user_id, HISTORY_PREFIX, upper, newest_first=True, page_size=limit + 1
        )
        for item in items:
            if not _alive(item, now_ms) or string_attribute(item, "memory_type") == upper:
                continue
            records.append(_history_record(item))
            if len(records) == limit:
                last = records[-1].commit_id
                break
        return records, last

    def get_history(self, user_id: str, commit_id: str, now_ms: int) -> HistoryRecord | None:
        item = self._get(user_id, HISTORY_PREFIX + commit_id)
        return _history_record(item) if item is not None and _alive(item, now_ms) else None

    def proposals(self, user_id: str, now_ms: int) -> list[Proposal]:
        items = self._query_range(user_id, PROPOSAL_PREFIX, PROPOSAL_PREFIX + "\uffff")
        return [_proposal(item) for item in items if _alive(item, now_ms)]

    def get_proposal(self, user_id: str, proposal_id: str, now_ms: int) -> Proposal | None:
        item = self._get(user_id, PROPOSAL_PREFIX + proposal_id)
        return _proposal(item) if item is not None and _alive(item, now_ms) else None

    def write_mode(self, user_id: str) -> WriteMode:
        item = self._get(user_id, SETTINGS_KEY)
        return read_write_mode(item)

    # -- user's own writes -------------------------------------------------------------------

    def set_write_mode(self, user_id: str, mode: WriteMode) -> None:
        """Only ``write_mode`` changes: the item's other attributes stay as they are."""
        try:
            self._client.update_item(
                TableName=self._table,
                Key=_key(user_id, SETTINGS_KEY),
                UpdateExpression="SET write_mode = :mode",
                ExpressionAttributeValues={":mode": {"S": mode}},
            )
        except (ClientError, BotoCoreError) as error:
            raise translate_error(error) from error

    def reject_proposal(self, user_id: str, proposal_id: str, now_ms: int) -> bool:
        """Delete a pending proposal; False when there was none (or it had expired)."""
        try:
            self._client.delete_item(
                TableName=self._table,
                Key=_key(user_id, PROPOSAL_PREFIX + proposal_id),
                ConditionExpression="attribute_exists(#key) AND expires_at > :now",
                ExpressionAttributeNames={"#key": "memory_type"},
                ExpressionAttributeValues={":now": {"N": str(now_ms // 1000)}},
            )
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                return False
            raise translate_error(error) from error
        except BotoCoreError as error:
            raise translate_error(error) from error
        return True

    def delete_history(self, user_id: str) -> int:
        keys = self._keys(user_id, HISTORY_PREFIX, HISTORY_PREFIX)
        if keys:
            self._transact(user_id, keys)
        return len(keys)

    def delete_records(
        self, user_id: str, *, leading: Sequence[TransactWriteItemTypeDef] = ()
    ) -> int:
        """History and proposals (one Query finds them: both prefixes sort after the rest
        of the partition), with ``leading`` (the documents' deletes and the forget fence's
        Update) in the first transaction: what ``DELETE /memory`` removes."""
        keys = self._keys(user_id, HISTORY_PREFIX, PROPOSAL_PREFIX)
        self._transact(user_id, keys, leading=leading)
        return len(keys)

    # -- operator's export -----------------------------------------------------------------

    def export(self, user_id: str, now_ms: int) -> dict[str, Any]:
        history: list[dict[str, Any]] = []
        after: str | None = None
        while True:
            page, after = self.history_page(user_id, limit=50, after=after, now_ms=now_ms)
            history.extend(history_body(record) for record in page)
            if after is None:
                break
        return {
            "settings": {"write_mode": self.write_mode(user_id)},
            "history": history,
            "proposals": [proposal_body(p) for p in self.proposals(user_id, now_ms)],
        }

    # -- helpers -----------------------------------------------------------------------------

    def _get(self, user_id: str, sort_key: str) -> dict[str, Any] | None:
        try:
            response = self._client.get_item(
                TableName=self._table, Key=_key(user_id, sort_key), ConsistentRead=True
            )
        except (ClientError, BotoCoreError) as error:
            raise translate_error(error) from error
        item = response.get("Item")
        return dict(item) if item else None

    def _query_range(
        self,
        user_id: str,
        lower: str,
        upper: str,
        *,
        newest_first: bool = False,
        page_size: int | None = None,
    ) -> Iterator[dict[str, Any]]:
        kwargs: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "user_id = :user AND memory_type BETWEEN :lo AND :hi",
            "ExpressionAttributeValues": {
                ":user": {"S": user_id},
                ":lo": {"S": lower},
                ":hi": {"S": upper},
            },
            "ConsistentRead": True,
            "ScanIndexForward": not newest_first,
        }
        if page_size is not None:
            kwargs["Limit"] = page_size
        while True:
            try:
                page = self._client.query(**kwargs)
            except (ClientError, BotoCoreError) as error:
                raise translate_error(error) from error
            yield from (dict(item) for item in page.get("Items", []))
            if "LastEvaluatedKey" not in page:
                return
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def _keys(self, user_id: str, first_prefix: str, last_prefix: str) -> list[str]:
        """The sort keys from ``first_prefix`` to everything under ``last_prefix``."""
        return [
            str(string_attribute(item, "memory_type"))
            for item in self._query_range(user_id, first_prefix, last_prefix + "\uffff")
        ]

    def _transact(
        self,
        user_id: str,
        sort_keys: Sequence[str],
        *,
        leading: Sequence[TransactWriteItemTypeDef] = (),
    ) -> None:
        """``leading`` and unconditional deletes of ``sort_keys``, a hundred items per
        transaction (idempotent, so the SDK's retries are safe)."""
        items: list[TransactWriteItemTypeDef] = list(leading)
        for key in sort_keys:
            items.append({"Delete": {"TableName": self._table, "Key": _key(user_id, key)}})
        for start in range(0, len(items), _TRANSACTION_LIMIT):
            try:
                self._client.transact_write_items(
                    TransactItems=items[start : start + _TRANSACTION_LIMIT]
                )
            except (ClientError, BotoCoreError) as error:
                raise translate_error(error) from error


def read_write_mode(item: Mapping[str, Any] | None) -> WriteMode:
    """The write mode a settings item holds (``auto`` when absent or unknown)."""
    value = string_attribute(item or {}, "write_mode")
    for mode in WRITE_MODES:
        if value == mode:
            return mode
    return DEFAULT_WRITE_MODE


def history_body(record: HistoryRecord) -> dict[str, Any]:
    body: dict[str, Any] = {
        "commit_id": record.commit_id,
        "source": record.source,
        "committed_at": record.committed_at,
        "changes": [change.to_dict() for change in record.changes],
    }
    if record.turn_id is not None:
        body["turn_id"] = record.turn_id
    return body


def proposal_body(proposal: Proposal) -> dict[str, Any]:
    return {
        "proposal_id": proposal.proposal_id,
        "turn_id": proposal.turn_id,
        "created_at": proposal.created_at,
        "expires_at": proposal.expires_at * 1000,
        "operations": [_operation_dict(op) for op in proposal.operations],
    }


def _operation_dict(operation: Operation) -> dict[str, Any]:
    body: dict[str, Any] = {"target": operation.target, "action": operation.action}
    if operation.match is not None:
        body["match"] = operation.match
    if operation.content is not None:
        body["content"] = operation.content
    return body


def _key(user_id: str, sort_key: str) -> dict[str, AttributeValueTypeDef]:
    return {"user_id": {"S": user_id}, "memory_type": {"S": sort_key}}


def _alive(item: Mapping[str, Any], now_ms: int) -> bool:
    expires = number_attribute(item, "expires_at")
    return expires is None or expires > now_ms // 1000


def _history_record(item: Mapping[str, Any]) -> HistoryRecord:
    changes = _json_list(item, "changes", lambda data: Change.from_dict(data))
    return HistoryRecord(
        commit_id=string_attribute(item, "commit_id") or "",
        source=string_attribute(item, "source") or "unknown",
        committed_at=number_attribute(item, "committed_at") or 0,
        changes=tuple(changes),
        turn_id=string_attribute(item, "turn_id"),
    )


def _proposal(item: Mapping[str, Any]) -> Proposal:
    operations = _json_list(
        item,
        "operations",
        lambda data: Operation(
            target=str(data.get("target", "")),
            action=str(data.get("action", "")),
            match=data.get("match") if isinstance(data.get("match"), str) else None,
            content=data.get("content") if isinstance(data.get("content"), str) else None,
        ),
    )
    return Proposal(
        proposal_id=string_attribute(item, "proposal_id") or "",
        turn_id=string_attribute(item, "turn_id") or "",
        created_at=number_attribute(item, "created_at") or 0,
        expires_at=number_attribute(item, "expires_at") or 0,
        operations=tuple(operations),
    )


def _json_list(item: Mapping[str, Any], name: str, build: Callable[[Any], _T]) -> list[_T]:
    try:
        data = json.loads(string_attribute(item, name) or "[]")
    except ValueError:
        return []
    values: list[_T] = []
    for entry in data if isinstance(data, list) else []:
        if isinstance(entry, dict):
            try:
                values.append(build(entry))
            except ValueError:
                continue
    return values
    return None
