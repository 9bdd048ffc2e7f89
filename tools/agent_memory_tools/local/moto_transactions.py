"""moto's ``TransactWriteItems`` with an undo journal of the items it touches.

moto (5.2) makes a transaction all-or-nothing by deep-copying EVERY table the transaction
names before it starts and putting the copies back when an item fails. The ledger table
gains an item per writing turn and moto does not run TTL, so each commit copied every
ledger item ever written: a stack that had served 2,000 turns spent most of each commit
copying, and the copies' garbage grew the process to gigabytes.

``install()`` replaces ``DynamoDBBackend.transact_write_items`` with the same algorithm
(the same checks, in the same order, through moto's own ``get_item``/``put_item``/
``update_item``/``delete_item`` and exceptions) that remembers, before each write, a copy of
the ONE item it is about to change and, to roll back, restores those items in reverse
order. Cost per transaction: its own items, whatever the tables hold.

What it relies on, checked by ``tests/unit/local/test_moto_transactions.py``: moto's
original's source is the one reviewed here (``REVIEWED_SOURCE_SHA256``: a moto upgrade
that changes it fails the test, and the adapter must be re-read against it), a table keeps
its items in ``Table.items`` (``[hash]`` or ``[hash][range]``), and the adapter answers every
transaction of the differential test exactly as moto's original does. Tables with a stream
are left to moto's original (a rolled-back write's stream record would survive the undo).
Differences from the original, both towards DynamoDB: a request with two operations in one
element is rejected before anything is written (moto raised after writing the elements
before it), and nothing is copied.
"""

from __future__ import annotations

import copy
import hashlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

REVIEWED_SOURCE_SHA256 = "81db2cb7d94e39c90b3a2077e1f4bb41a449c558ef9b1b1e2910fdaa39978ad4"
_MARK = "_agent_memory_item_journal"
OPERATIONS = frozenset({"ConditionCheck", "Put", "Delete", "Update"})
MAX_ITEMS = 100


def original_source_sha256() -> str:
    """The SHA-256 of moto's own ``transact_write_items`` (what the adapter was reviewed
    against; see the module doc)."""
    return hashlib.sha256(inspect.getsource(_original()).encode()).hexdigest()


def install() -> None:
    """Use the journaled transaction in every moto DynamoDB backend of this process
    (idempotent)."""
    from moto.dynamodb.models import DynamoDBBackend

    if getattr(DynamoDBBackend.transact_write_items, _MARK, False):
        return
    original = DynamoDBBackend.transact_write_items

    def transact_write_items(backend: Any, transact_items: list[dict[str, Any]]) -> None:
        journaled_transact_write_items(backend, transact_items, fallback=original)

    setattr(transact_write_items, _MARK, True)
    transact_write_items.original = original  # type: ignore[attr-defined]
    setattr(DynamoDBBackend, "transact_write_items", transact_write_items)  # noqa: B010


def installed() -> bool:
    from moto.dynamodb.models import DynamoDBBackend

    return bool(getattr(DynamoDBBackend.transact_write_items, _MARK, False))


def _original() -> Callable[..., None]:
    from moto.dynamodb.models import DynamoDBBackend

    method = DynamoDBBackend.transact_write_items
    original: Callable[..., None] = getattr(method, "original", method)
    return original


@dataclass
class _Before:
    """One item as it was before the transaction wrote it (``item`` None: absent)."""

    table: Any
    hash_key: Any
    range_key: Any
    item: Any
    partition_existed: bool


class _Journal:
    def __init__(self) -> None:
        self._entries: list[_Before] = []

    def remember(self, backend: Any, table_name: str, key: dict[str, Any]) -> None:
        table = backend.get_table(table_name)
        hash_key, range_key = backend.get_keys_value(table, key)
        item = table.get_item(hash_key, range_key)
        self._entries.append(
            _Before(
                table=table,
                hash_key=hash_key,
                range_key=range_key,
                item=copy.deepcopy(item),  # update_item changes an item in place
                partition_existed=hash_key in table.items,
            )
        )

    def roll_back(self) -> None:
        for before in reversed(self._entries):
            items = before.table.items
            if before.range_key is None:
                if before.item is None:
                    items.pop(before.hash_key, None)
                else:
                    items[before.hash_key] = before.item
                continue
            if before.item is not None:
                items[before.hash_key][before.range_key] = before.item
                continue
            partition = items.get(before.hash_key)
            if partition is not None:
                partition.pop(before.range_key, None)
                if not partition and not before.partition_existed:
                    del items[before.hash_key]
        self._entries.clear()


def journaled_transact_write_items(
    backend: Any,
    transact_items: list[dict[str, Any]],
    *,
    fallback: Callable[[Any, list[dict[str, Any]]], None],
) -> None:
    """moto's algorithm (``DynamoDBBackend.transact_write_items``), undoing item by item."""
    from moto.dynamodb.exceptions import (
        ConditionalCheckFailed,
        MockValidationException,
        MultipleTransactionsException,
        TooManyTransactionsException,
        TransactionCanceledException,
        TransactWriteSingleOpException,
    )

    if len(transact_items) > MAX_ITEMS:
        raise TooManyTransactionsException()
    if any(len(element) > 1 for element in transact_items):
        raise TransactWriteSingleOpException
    if _any_streamed_table(backend, transact_items):
        fallback(backend, transact_items)
        return

    journal = _Journal()
    target_items: set[tuple[str, str]] = set()
    errors: list[tuple[str | None, str | None, dict[str, Any] | None]] = []
    for element in transact_items:
        original_item: dict[str, Any] | None = None
        try:
            op_type, op = next(iter(element.items()))
            if op_type not in OPERATIONS:
                raise ValueError("Unsupported transaction operation")
            table_name = op["TableName"]
            condition_expression = op.get("ConditionExpression")
            names = op.get("ExpressionAttributeNames")
            values = op.get("ExpressionAttributeValues")
            if op_type == "Put":
                attrs = op["Item"]
                table = backend.get_table(table_name)
                key = {table.hash_key_attr: attrs[table.hash_key_attr]}
                if table.range_key_attr is not None:
                    key[table.range_key_attr] = attrs[table.range_key_attr]
            else:
                key = op["Key"]
            unique = (str(table_name), str(dict(sorted(key.items()))))
            if unique in target_items:
                raise MultipleTransactionsException()
            target_items.add(unique)

            current = backend.get_item(table_name, key)
            if condition_expression is not None:
                condition = _filter_expression(condition_expression, names, values)
                if not condition.expr(current):
                    if op.get("ReturnValuesOnConditionCheckFailure") == "ALL_OLD" and current:
                        original_item = current.to_json()["Attributes"]
                    raise ConditionalCheckFailed(item=original_item)
            if op_type != "ConditionCheck":
                journal.remember(backend, table_name, key)
            if op_type == "Put":
                backend.put_item(
                    table_name,
                    op["Item"],
                    condition_expression=condition_expression,
                    expression_attribute_names=names,
                    expression_attribute_values=values,
                )
            elif op_type == "Delete":
                backend.delete_item(
                    table_name,
                    key,
                    condition_expression=condition_expression,
                    expression_attribute_names=names,
                    expression_attribute_values=values,
                )
            elif op_type == "Update":
                backend.update_item(
                    table_name,
                    key,
                    update_expression=op["UpdateExpression"],
                    condition_expression=condition_expression,
                    expression_attribute_names=names,
                    expression_attribute_values=values,
                )
            errors.append((None, None, None))
        except (MultipleTransactionsException, MockValidationException):
            journal.roll_back()
            raise
        except ConditionalCheckFailed as error:
            errors.append(("ConditionalCheckFailed", str(error.message), original_item))
        except Exception as error:  # as moto: any other failure cancels with its name
            errors.append((type(error).__name__, str(error), original_item))

    if any(code is not None for code, _, _ in errors):
        journal.roll_back()
        raise TransactionCanceledException(errors)


def _filter_expression(expression: str, names: Any, values: Any) -> Any:
    from moto.dynamodb.comparisons import get_filter_expression

    return get_filter_expression(expression, names, values)


def _any_streamed_table(backend: Any, transact_items: list[dict[str, Any]]) -> bool:
    for element in transact_items:
        for op in element.values():
            table = backend.tables.get(op.get("TableName")) if isinstance(op, dict) else None
            if table is not None and table.stream_shard is not None:
                return True
    return False
