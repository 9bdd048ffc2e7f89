"""The turn ledger in ``TurnLedgerTable``: one small item per turn that has staged a write
(or was cancelled before it did).

The item fences the commit: the commit's transaction updates it on the condition
``status = open AND deadline_ms > now``, so a cancelled, expired or discarded turn can never
commit, whichever Lambda is still running. A short chat turn that never opened its item
creates it in the commit instead, on the condition that the turn id has no item a cancel or
a discard left (``commit_item(create=...)``; docs/architecture.md, "deferred").
It holds only metadata: status, times, the commit's request token and operation COUNTS.
Never memory content (no entries, matches or tool arguments).

``open_shard`` (``open#<n>``, n a stable hash of the user mod ``OPEN_SHARDS``) exists only
while the turn is open: it keys the sparse GSI the cleanup path reads, spread over a few
partitions so the index has no single hot key.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from botocore.exceptions import BotoCoreError, ClientError

from agent_memory.repository.clients import (
    ENV_TURN_LEDGER_TABLE,
    TableNames,
    error_code,
    get_client,
    translate_error,
)
from agent_memory.repository.exceptions import (
    AlreadyCommittedError,
    ConfigurationError,
    TurnExistsError,
)

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import AttributeValueTypeDef, TransactWriteItemTypeDef

TurnStatus = Literal["open", "committed", "proposed", "cancelled", "expired", "discarded"]

OPEN_TURNS_INDEX = "open-turns-by-deadline"
OPEN_SHARDS = 8
LEDGER_TTL_S = 7 * 24 * 3600
_CANCEL_ATTEMPTS = 4

OperationCounts = Mapping[str, Mapping[str, int]]


def open_shard(user_id: str) -> str:
    """The GSI partition of a user's open turns (stable across processes, unlike hash())."""
    return f"open#{zlib.crc32(user_id.encode('utf-8')) % OPEN_SHARDS}"


def expires_at(now_ms: int) -> int:
    """The TTL attribute (epoch SECONDS, as DynamoDB TTL requires)."""
    return now_ms // 1000 + LEDGER_TTL_S


@dataclass(frozen=True)
class LedgerRecord:
    user_id: str
    turn_id: str
    status: str
    deadline_ms: int | None = None
    opened_at: int | None = None
    updated_at: int | None = None
    commit_token: str | None = None
    opened_by: str | None = None
    operation_counts: Mapping[str, Mapping[str, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class NewTurn:
    """What the commit records of a turn whose ledger item it creates (see ``commit_item``):
    when the turn staged its first operation, and its deadline."""

    opened_at: int
    deadline_ms: int


@dataclass(frozen=True)
class CancelResult:
    """What a cancel found (``previous``) and left (``status``); ``changed`` when it wrote."""

    status: TurnStatus
    previous: Literal["open", "missing", "cancelled", "expired", "discarded"]

    @property
    def changed(self) -> bool:
        return self.previous != "cancelled"


class LedgerRepository:
    """DynamoDB adapter of the turn ledger."""

    def __init__(self, client: DynamoDBClient, table_name: str) -> None:
        self._client = client
        self._table = table_name

    @classmethod
    def from_env(cls, names: TableNames | None = None) -> LedgerRepository:
        """The ledger named by ``TURN_LEDGER_TABLE_NAME`` alone: the cleanup function has no
        permission on (and no name for) the memory table, by design."""
        if names is not None:
            return cls(get_client(), names.turn_ledger)
        table = os.environ.get(ENV_TURN_LEDGER_TABLE, "").strip()
        if not table:
            raise ConfigurationError(f"missing environment variable: {ENV_TURN_LEDGER_TABLE}")
        return cls(get_client(), table)

    @property
    def table_name(self) -> str:
        return self._table

    def open_turn(
        self,
        user_id: str,
        turn_id: str,
        deadline_ms: int,
        now_ms: int,
        *,
        opener: str = "",
        connection_id: str = "",
    ) -> None:
        """Create the ``open`` ledger item; ``TurnExistsError`` when the turn id is taken.

        A retry of a failed attempt is a new attempt of the same turn (DESIGN.md step 6), so
        the put also succeeds over an item that can never commit any more (``TAKEOVER``):
        ``discarded``, ``expired``, or ``open`` past its deadline. Never over ``committed``,
        ``proposed`` or ``cancelled``: a completed turn never commits twice, a cancelled one
        never.

        ``opener`` (a random value of the caller's) is stored so that, when the SDK resends a
        put whose first answer was lost, the caller can recognise the item as its own; the
        commit and the discard are conditional on it, so an earlier attempt can neither
        commit nor end the attempt that took its item over.
        ``connection_id`` names the WebSocket connection of a streamed turn, so that the
        connection's ``$disconnect`` can fence it (``discard_connection_turns``).
        """
        item: dict[str, AttributeValueTypeDef] = {
            **_key(user_id, turn_id),
            "status": {"S": "open"},
            "opened_at": {"N": str(now_ms)},
            "deadline_ms": {"N": str(deadline_ms)},
            "updated_at": {"N": str(now_ms)},
            "expires_at": {"N": str(expires_at(now_ms))},
            "open_shard": {"S": open_shard(user_id)},
        }
        if opener:
            item["opened_by"] = {"S": opener}
        if connection_id:
            item["connection_id"] = {"S": connection_id}
        try:
            self._client.put_item(
                TableName=self._table,
                Item=item,
                ConditionExpression=f"attribute_not_exists(#turn_id) OR {_TAKEOVER}",
                ExpressionAttributeNames={"#turn_id": "turn_id", "#status": "status"},
                ExpressionAttributeValues=_takeover_values(now_ms, opener),
            )
        except ClientError as error:
            if error_code(error) == "ConditionalCheckFailedException":
                raise TurnExistsError from error
            raise translate_error(error) from error
        except BotoCoreError as error:
            raise translate_error(error) from error

    def get(self, user_id: str, turn_id: str) -> LedgerRecord | None:
        """The ledger item (strongly consistent), ``None`` when there is none."""
        try:
            response = self._client.get_item(
                TableName=self._table, Key=_key(user_id, turn_id), ConsistentRead=True
            )
        except (ClientError, BotoCoreError) as error:
            raise translate_error(error) from error
        item = response.get("Item")
        return _record(item) if item else None

    def commit_item(
        self,
        user_id: str,
        turn_id: str,
        token: str,
        now_ms: int,
        counts: OperationCounts,
        *,
        status: Literal["committed", "proposed"] = "committed",
        create: NewTurn | None = None,
        opener: str = "",
    ) -> TransactWriteItemTypeDef:
        """The ledger's part of the commit transaction: ``open`` and before the deadline ->
        ``committed`` (``proposed`` in approve mode) with our request token and the
        operation counts.

        With ``create`` (a turn whose item was never opened, see ``TurnUnitOfWork``): the item is
        created ``committed`` on the condition that the turn id has no item yet, so a
        cancel's tombstone (or a discard's) fences it as ``status = open`` fences an open
        one. The deadline is the caller's to keep (as ``deadline_ms > :now`` is, since
        ``:now`` is the caller's clock): no attempt starts that could end after it. A retry
        of a failed attempt also creates it over that attempt's item (``TAKEOVER``).

        ``opener`` names the attempt: its commit lands only while the item is still its own
        (open by it), and a created item records it.
        """
        if create is not None:
            item: dict[str, AttributeValueTypeDef] = {
                **_key(user_id, turn_id),
                "status": {"S": status},
                "commit_token": {"S": token},
                "opened_at": {"N": str(create.opened_at)},
                "deadline_ms": {"N": str(create.deadline_ms)},
                "committed_at": {"N": str(now_ms)},
                "updated_at": {"N": str(now_ms)},
                "expires_at": {"N": str(expires_at(now_ms))},
                "operation_counts": _counts_value(counts),
            }
            if opener:
                item["opened_by"] = {"S": opener}
            return {
                "Put": {
                    "TableName": self._table,
                    "Item": item,
                    "ConditionExpression": f"attribute_not_exists(#turn_id) OR {_TAKEOVER}",
                    "ExpressionAttributeNames": {"#turn_id": "turn_id", "#status": "status"},
                    "ExpressionAttributeValues": _takeover_values(now_ms, opener),
                }
            }
        condition = "#status = :open AND deadline_ms > :now"
        values: dict[str, AttributeValueTypeDef] = {
            ":committed": {"S": status},
            ":open": {"S": "open"},
            ":token": {"S": token},
            ":now": {"N": str(now_ms)},
            ":expires": {"N": str(expires_at(now_ms))},
            ":counts": _counts_value(counts),
        }
        if opener:
            condition += " AND opened_by = :opener"
            values[":opener"] = {"S": opener}
        return {
            "Update": {
                "TableName": self._table,
                "Key": _key(user_id, turn_id),
                "UpdateExpression": (
                    "SET #status = :committed, commit_token = :token, committed_at = :now,"
                    " updated_at = :now, expires_at = :expires, operation_counts = :counts"
                    " REMOVE open_shard"
                ),
                "ConditionExpression": condition,
                "ExpressionAttributeNames": {"#status": "status"},
                "ExpressionAttributeValues": values,
            }
        }

    def open_turn_ids(self, user_id: str, *, connection_id: str = "") -> list[str]:
        """The user's turns that are still ``open`` (one partition, strongly consistent);
        with ``connection_id``, only the streamed turns of that WebSocket connection."""
        turn_ids: list[str] = []
        values: dict[str, AttributeValueTypeDef] = {
            ":user": {"S": user_id},
            ":open": {"S": "open"},
        }
        condition = "#s = :open"
        if connection_id:
            condition += " AND connection_id = :connection"
            values[":connection"] = {"S": connection_id}
        kwargs: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "user_id = :user",
            "FilterExpression": condition,
            "ProjectionExpression": "turn_id",
            "ExpressionAttributeNames": {"#s": "status"},
            "ExpressionAttributeValues": values,
            "ConsistentRead": True,
        }
        try:
            while True:
                page = self._client.query(**kwargs)
                turn_ids.extend(item["turn_id"]["S"] for item in page.get("Items", []))
                if "LastEvaluatedKey" not in page:
                    return turn_ids
                kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        except (ClientError, BotoCoreError) as error:
            raise translate_error(error) from error

    def cancel(self, user_id: str, turn_id: str, now_ms: int) -> CancelResult:
        """Cancel a turn: ``open``, ``expired`` or ``discarded`` -> ``cancelled``; no item ->
        a ``cancelled`` tombstone (so a turn cancelled before it staged anything can never
        open); already cancelled -> nothing to do. Raises ``AlreadyCommittedError``.

        An expired or discarded item is marked too: a retry of a failed attempt may take such
        an item over (``open_turn``), and a turn the user cancelled must never commit.
        Race-safe: every write is conditional on what was read, and a lost race re-reads.
        """
        for _ in range(_CANCEL_ATTEMPTS):
            record = self.get(user_id, turn_id)
            if record is None:
                if self._put_tombstone(user_id, turn_id, now_ms):
                    return CancelResult(status="cancelled", previous="missing")
            elif record.status in ("open", "expired", "discarded"):
                previous: Literal["open", "expired", "discarded"] = record.status  # type: ignore[assignment]
                if self._transition(user_id, turn_id, "cancelled", now_ms, from_status=previous):
                    return CancelResult(status="cancelled", previous=previous)
            elif record.status in ("committed", "proposed"):
                raise AlreadyCommittedError
            elif record.status == "cancelled":
                return CancelResult(status="cancelled", previous="cancelled")
            else:
                break
        raise TurnExistsError

    def discard(
        self, user_id: str, turn_id: str, now_ms: int, *, opened: bool = True, opener: str = ""
    ) -> bool:
        """``open`` -> ``discarded`` (a failed turn); False when the turn was not open (or,
        with ``opener``, is no longer that attempt's).

        ``opened=False``: a turn that staged but never opened its item gets a ``discarded``
        tombstone (``GET /turns`` tells the truth, and none of its attempts still in flight
        can create the item); over an earlier failed attempt's item too, re-stamped with
        ``opener``, so that this attempt's own requests in flight stay fenced. False when
        the turn id has another item (committed, proposed, cancelled or open).
        """
        if not opened:
            return self._put_tombstone(user_id, turn_id, now_ms, status="discarded", opener=opener)
        return self._transition(
            user_id,
            turn_id,
            "discarded",
            now_ms,
            extra_condition="opened_by = :opener" if opener else None,
            extra_values={":opener": {"S": opener}} if opener else None,
        )

    def discard_connection_turns(self, user_id: str, connection_id: str, now_ms: int) -> int:
        """The ``$disconnect`` fence: every open turn of this WebSocket connection becomes
        ``discarded``. Each update is conditional on ``open``, and the commit on ``open``
        too, so whichever lands first wins and a turn never both commits and is discarded.
        Returns how many turns it fenced."""
        turn_ids = self.open_turn_ids(user_id, connection_id=connection_id)
        return sum(1 for turn_id in turn_ids if self.discard(user_id, turn_id, now_ms))

    def expire_overdue(self, now_ms: int, limit: int = 500) -> int:
        """Move up to ``limit`` open turns whose deadline has passed to ``expired``.

        Reads every shard of the sparse GSI (eventually consistent, keys only), then moves
        each turn with a conditional update, so a turn that committed or was cancelled in
        the meantime is left alone. Returns how many it actually moved.
        """
        moved = 0
        for shard in range(OPEN_SHARDS):
            remaining = limit - moved
            if remaining <= 0:
                break
            for user_id, turn_id in self._overdue_in_shard(f"open#{shard}", now_ms, remaining):
                if self._transition(
                    user_id, turn_id, "expired", now_ms, extra_condition="deadline_ms < :now"
                ):
                    moved += 1
        return moved

    # -- helpers -------------------------------------------------------------------------

    def _overdue_in_shard(self, shard: str, now_ms: int, limit: int) -> list[tuple[str, str]]:
        keys: list[tuple[str, str]] = []
        start_key: Mapping[str, Any] | None = None
        while len(keys) < limit:
            request: dict[str, Any] = {
                "TableName": self._table,
                "IndexName": OPEN_TURNS_INDEX,
                "KeyConditionExpression": "open_shard = :shard AND deadline_ms < :now",
                "ExpressionAttributeValues": {
                    ":shard": {"S": shard},
                    ":now": {"N": str(now_ms)},
                },
                "Limit": limit - len(keys),
            }
            if start_key:
                request["ExclusiveStartKey"] = start_key
            try:
                response = self._client.query(**request)
            except (ClientError, BotoCoreError) as error:
                raise translate_error(error) from error
            for item in response.get("Items", []):
                keys.append((item["user_id"]["S"], item["turn_id"]["S"]))
            start_key = response.get("LastEvaluatedKey")
            if not start_key:
                break
        return keys

    def _transition(
        self,
        user_id: str,
        turn_id: str,
        status: TurnStatus,
        now_ms: int,
        *,
        from_status: TurnStatus = "open",
        extra_condition: str | None = None,
        extra_values: Mapping[str, AttributeValueTypeDef] | None = None,
    ) -> bool:
        condition = "#status = :from"
        if extra_condition:
            condition = f"{condition} AND {extra_condition}"
        try:
            self._client.update_item(
                TableName=self._table,
                Key=_key(user_id, turn_id),
                UpdateExpression=(
                    f"SET #status = :status, {status}_at = :now, updated_at = :now,"
                    " expires_at = :expires REMOVE open_shard"
                ),
                ConditionExpression=condition,
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues={
                    ":status": {"S": status},
                    ":from": {"S": from_status},
                    ":now": {"N": str(now_ms)},
                    ":expires": {"N": str(expires_at(now_ms))},
                    **(extra_values or {}),
                },
            )
        except ClientError as error:
            if error_code(error) == "ConditionalCheckFailedException":
                return False
            raise translate_error(error) from error
        except BotoCoreError as error:
            raise translate_error(error) from error
        return True

    def _put_tombstone(
        self,
        user_id: str,
        turn_id: str,
        now_ms: int,
        *,
        status: Literal["cancelled", "discarded"] = "cancelled",
        opener: str = "",
    ) -> bool:
        """A tombstone where the turn id has no item; a ``discarded`` one (with ``opener``)
        also over an earlier failed attempt's item, as a retry's commit would be."""
        item: dict[str, AttributeValueTypeDef] = {
            **_key(user_id, turn_id),
            "status": {"S": status},
            f"{status}_at": {"N": str(now_ms)},
            "updated_at": {"N": str(now_ms)},
            "expires_at": {"N": str(expires_at(now_ms))},
        }
        condition = "attribute_not_exists(#turn_id)"
        names = {"#turn_id": "turn_id"}
        values: dict[str, AttributeValueTypeDef] = {}
        if status == "discarded" and opener:
            item["opened_by"] = {"S": opener}
            condition = f"{condition} OR {_TAKEOVER}"
            names["#status"] = "status"
            values = _takeover_values(now_ms, opener)
        request: dict[str, Any] = {
            "TableName": self._table,
            "Item": item,
            "ConditionExpression": condition,
            "ExpressionAttributeNames": names,
        }
        if values:
            request["ExpressionAttributeValues"] = values
        try:
            self._client.put_item(**request)
        except ClientError as error:
            if error_code(error) == "ConditionalCheckFailedException":
                return False
            raise translate_error(error) from error
        except BotoCoreError as error:
            raise translate_error(error) from error
        return True


# The items a new attempt of a turn may replace: an earlier attempt's that can never commit
# (failed, expired, or open past its deadline), never the attempt's own (``:opener``), and
# only one written before this request (``updated_at < :now``): a late request of a
# superseded attempt, timed before the retry's item was written, never replaces it.
_TAKEOVER = (
    "((#status IN (:discarded, :expired) OR (#status = :open AND deadline_ms < :now))"
    " AND (attribute_not_exists(opened_by) OR opened_by <> :opener) AND updated_at < :now)"
)


def _takeover_values(now_ms: int, opener: str) -> dict[str, AttributeValueTypeDef]:
    return {
        ":discarded": {"S": "discarded"},
        ":expired": {"S": "expired"},
        ":open": {"S": "open"},
        ":now": {"N": str(now_ms)},
        ":opener": {"S": opener or "-"},
    }


def _key(user_id: str, turn_id: str) -> dict[str, AttributeValueTypeDef]:
    return {"user_id": {"S": user_id}, "turn_id": {"S": turn_id}}


def _counts_value(counts: OperationCounts) -> AttributeValueTypeDef:
    return {
        "M": {
            target: {"M": {action: {"N": str(n)} for action, n in sorted(actions.items())}}
            for target, actions in sorted(counts.items())
        }
    }


def _record(item: Mapping[str, Any]) -> LedgerRecord:
    def number(name: str) -> int | None:
        value = item.get(name, {}).get("N")
        return int(value) if value is not None else None

    counts = {
        target: {action: int(n["N"]) for action, n in actions.get("M", {}).items()}
        for target, actions in item.get("operation_counts", {}).get("M", {}).items()
    }
    return LedgerRecord(
        user_id=item["user_id"]["S"],
        turn_id=item["turn_id"]["S"],
        status=item.get("status", {}).get("S", ""),
        deadline_ms=number("deadline_ms"),
        opened_at=number("opened_at"),
        updated_at=number("updated_at"),
        commit_token=item.get("commit_token", {}).get("S"),
        opened_by=item.get("opened_by", {}).get("S"),
        operation_counts=counts,
    )
