"""The local DynamoDB's query of a global secondary index answers as moto's own does while
reading only the items the index holds (the cleanup's sparse index of open turns)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from moto import mock_aws
from moto.dynamodb.models import DynamoDBBackend, dynamodb_backends
from moto.dynamodb.models.table import Table

from agent_memory_tools.local import moto_queries

ACCOUNT = "123456789012"
REGION = "eu-west-3"
TABLE = "ledgerlike"
INDEX = "open-by-deadline"


@pytest.fixture
def backend() -> Iterator[DynamoDBBackend]:
    with mock_aws():
        boto3.client("dynamodb", region_name=REGION).create_table(
            TableName=TABLE,
            KeySchema=[
                {"AttributeName": "user_id", "KeyType": "HASH"},
                {"AttributeName": "turn_id", "KeyType": "RANGE"},
            ],
            AttributeDefinitions=[
                {"AttributeName": "user_id", "AttributeType": "S"},
                {"AttributeName": "turn_id", "AttributeType": "S"},
                {"AttributeName": "shard", "AttributeType": "S"},
                {"AttributeName": "deadline", "AttributeType": "N"},
            ],
            GlobalSecondaryIndexes=[
                {
                    "IndexName": INDEX,
                    "KeySchema": [
                        {"AttributeName": "shard", "KeyType": "HASH"},
                        {"AttributeName": "deadline", "KeyType": "RANGE"},
                    ],
                    "Projection": {"ProjectionType": "KEYS_ONLY"},
                }
            ],
            BillingMode="PAY_PER_REQUEST",
        )
        yield dynamodb_backends[ACCOUNT][REGION]


def _index_query(backend: DynamoDBBackend, shard: str, **kwargs: Any) -> Any:
    items, scanned, last = backend.query(
        TABLE,
        {"S": shard},
        kwargs.get("range_comparison"),
        kwargs.get("range_values", []),
        kwargs.get("limit"),
        None,
        kwargs.get("forward", True),
        None,
        index_name=INDEX,
        expr_names={},
        expr_values={},
        hash_key_conditions=[("shard", {"S": shard})],
    )
    return [item.to_json() for item in items], scanned, last


# (user, turn, shard or None: not in the index, deadline or None)
ITEMS = st.lists(
    st.tuples(
        st.sampled_from(["u1", "u2", "u3"]),
        st.sampled_from(["t1", "t2", "t3", "t4"]),
        st.sampled_from([None, "open#0", "open#1"]),
        st.sampled_from([None, 5, 10, 20]),
    ),
    max_size=25,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    items=ITEMS,
    shard=st.sampled_from(["open#0", "open#1", "open#9"]),
    limit=st.sampled_from([None, 1, 2]),
    forward=st.booleans(),
    below=st.booleans(),
)
def test_the_index_query_answers_exactly_as_moto_does(
    backend: DynamoDBBackend,
    items: list[tuple[str, str, str | None, int | None]],
    shard: str,
    limit: int | None,
    forward: bool,
    below: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # GIVEN a table whose items are in the sparse index or not (no shard, or no deadline)
    backend.get_table(TABLE).items.clear()
    for user, turn, item_shard, deadline in items:
        item: dict[str, Any] = {"user_id": {"S": user}, "turn_id": {"S": turn}}
        if item_shard is not None:
            item["shard"] = {"S": item_shard}
        if deadline is not None:
            item["deadline"] = {"N": str(deadline)}
        backend.put_item(TABLE, item)
    kwargs: dict[str, Any] = {"limit": limit, "forward": forward}
    if below:
        kwargs.update(range_comparison="<", range_values=[{"N": "15"}])

    # WHEN one shard is queried with moto's original and with the adapter
    monkeypatch.setattr(Table, "query", moto_queries.original_query())
    expected = _index_query(backend, shard, **kwargs)
    moto_queries.install()
    got = _index_query(backend, shard, **kwargs)

    # THEN the items, the scanned count and the pagination key are the same
    assert got == expected


def test_an_index_query_lists_only_what_the_index_holds(
    backend: DynamoDBBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN many ledger items of which two are open (in the index) in one shard
    for n in range(500):
        backend.put_item(TABLE, {"user_id": {"S": f"u{n}"}, "turn_id": {"S": "done"}})
    for n in range(2):
        backend.put_item(
            TABLE,
            {
                "user_id": {"S": f"u{n}"},
                "turn_id": {"S": "open"},
                "shard": {"S": "open#0"},
                "deadline": {"N": "7"},
            },
        )
    moto_queries.install()
    original_all_items = Table.all_items

    def only_the_index(self: Table) -> Any:
        listed = original_all_items(self)
        assert len(listed) <= 2, "the index query listed the whole table"
        return listed

    monkeypatch.setattr(Table, "all_items", only_the_index)

    # WHEN the shard is queried THEN moto's query saw only the indexed items
    items, _, _ = _index_query(backend, "open#0")
    assert sorted(item["Attributes"]["user_id"]["S"] for item in items) == ["u0", "u1"]
