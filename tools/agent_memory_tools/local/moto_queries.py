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


def install() -> None:
    """Use the partition query in every moto DynamoDB table of this process (idempotent)."""
    from moto.dynamodb.models.table import Table

    if getattr(Table.query, _MARK, False):
        return
    original = Table.query

    def query(table: Any, hash_key: Any, *args: Any, **kwargs: Any) -> Any:
        index_name = args[INDEX_NAME_AT] if len(args) > INDEX_NAME_AT else kwargs.get("index_name")
        if index_name or hash_key is None:
            return original(table, hash_key, *args, **kwargs)
        return original(partition_view(table, hash_key), hash_key, *args, **kwargs)

    setattr(query, _MARK, True)
    query.original = original  # type: ignore[attr-defined]
    setattr(Table, "query", query)  # noqa: B010
