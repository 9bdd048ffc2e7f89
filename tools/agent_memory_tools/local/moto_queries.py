"""moto's ``Query`` on a table's own key, reading only the partition it asks for.

moto (5.2) answers a Query on the table's key by sorting and scanning ALL the table's items
(``Table.all_items``) and keeping those of the partition. ``MemoryTable`` gains a history
item per commit and moto does not run TTL, so each turn's load (one Query of the user's
partition) cost more with every turn the stack had served.

``install()`` wraps ``Table.query``: a query on the table's own key (no index) runs moto's
original on a shallow view of the table that holds only that partition (the same ``Item``
objects; a query reads, never writes). Results, counts and pagination are moto's own, since
its base-table query keeps exactly the items of ``hash_key``. Queries on an index are left
as they are. ``tests/unit/local/test_moto_queries.py`` compares the answers with moto's
original and fails when moto's ``Table.query`` changes (``REVIEWED_SOURCE_SHA256``).

A Query on a global secondary index is worse: moto lists and sorts every item of the table
and checks each in Python. The ledger's sparse index (``open-turns-by-deadline``) is read by
the cleanup every minute, in eight shards, while the ledger table keeps an item per writing
turn: measured, 1 s of moto per cleanup at 10,000 ledger items and 7 s at 50,000, each second
one in which every other request of the stack waits (moto serves one at a time). So a query on
a GSI with hash-key conditions runs moto's original on a view of the items that moto's own
loop would keep (every hash condition equal, every index key attribute present: what
DynamoDB indexes), found with one cheap pass over the table's items; moto then sorts, pages
and filters exactly that. Other index queries are left as they are.
"""

from __future__ import annotations

import copy
import hashlib
import inspect
from collections import defaultdict
from collections.abc import Callable
from typing import Any

REVIEWED_SOURCE_SHA256 = "002b4d00be6df07cf37f6cbe0132e5eb89455ae12a8e79b23db3fb492450f21e"
_MARK = "_agent_memory_partition_query"
# Where ``index_name`` is among ``Table.query``'s positional arguments after ``hash_key``
# (``DynamoDBBackend.query`` passes it by position).
INDEX_NAME_AT = 6


def original_source_sha256() -> str:
    return hashlib.sha256(inspect.getsource(original_query()).encode()).hexdigest()


def original_query() -> Callable[..., Any]:
    from moto.dynamodb.models.table import Table

    method = Table.query
    original: Callable[..., Any] = getattr(method, "original", method)
    return original


def partition_view(table: Any, hash_key: Any) -> Any:
    """A shallow copy of ``table`` whose items are only those of ``hash_key``."""
    view = copy.copy(table)
    view.items = defaultdict(dict)
    if hash_key in table.items:
        view.items[hash_key] = table.items[hash_key]
    return view


def index_view(
    table: Any, index_name: str, hash_key_conditions: list[tuple[str, Any]]
) -> Any | None:
    """A shallow copy of ``table`` holding only the items a Query of the global secondary
    index ``index_name`` could return: each ``(attribute, value)`` of ``hash_key_conditions``
    equal, and every key attribute of the index present (``None``: not a GSI of the table)."""
    index = next((i for i in table.global_indexes if i.name == index_name), None)
    if index is None:
        return None
    range_attrs = [key["AttributeName"] for key in index.schema if key["KeyType"] == "RANGE"]
    view = copy.copy(table)
    view.items = defaultdict(dict)
    for hash_value, partition in table.items.items():
        candidates = partition.values() if table.range_key_attr else (partition,)
        for item in candidates:
            if not _indexed_under(item.attrs, hash_key_conditions, range_attrs):
                continue
            if table.range_key_attr:
                view.items[hash_value][item.range_key] = item
            else:
                view.items[hash_value] = item
    return view


def _indexed_under(
    attrs: dict[str, Any], hash_key_conditions: list[tuple[str, Any]], range_attrs: list[str]
) -> bool:
    """moto's own test of an item in its index query, in its order (a missing attribute is
    tested before comparing: moto's values cannot be compared with None)."""
    for name, expected in hash_key_conditions:
        value = attrs.get(name)
        if not value or value != expected:
            return False
    return all(attrs.get(name) for name in range_attrs)


def install() -> None:
    """Use the partition query in every moto DynamoDB table of this process (idempotent)."""
    from moto.dynamodb.models.table import Table

    if getattr(Table.query, _MARK, False):
        return
    original = Table.query

    def query(table: Any, hash_key: Any, *args: Any, **kwargs: Any) -> Any:
        index_name = args[INDEX_NAME_AT] if len(args) > INDEX_NAME_AT else kwargs.get("index_name")
        if index_name:
            conditions = kwargs.get("hash_key_conditions")
            view = index_view(table, index_name, conditions) if conditions else None
            return original(view if view is not None else table, hash_key, *args, **kwargs)
        if hash_key is None:
            return original(table, hash_key, *args, **kwargs)
        return original(partition_view(table, hash_key), hash_key, *args, **kwargs)

    setattr(query, _MARK, True)
    query.original = original  # type: ignore[attr-defined]
    setattr(Table, "query", query)  # noqa: B010
