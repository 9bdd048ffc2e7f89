"""The local DynamoDB's partition Query answers as moto's own does, reading one partition;
a moto upgrade that changes ``Table.query`` fails here."""

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
TABLE = "queried"


@pytest.fixture
def backend() -> Iterator[DynamoDBBackend]:
    with mock_aws():
        boto3.client("dynamodb", region_name=REGION).create_table(
            TableName=TABLE,
            KeySchema=[
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"},
            ],
            AttributeDefinitions=[
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "S"},
            ],
            BillingMode="PAY_PER_REQUEST",
        )
        yield dynamodb_backends[ACCOUNT][REGION]


def _query(backend: DynamoDBBackend, pk: str, **kwargs: Any) -> Any:
    items, scanned, last = backend.query(
        TABLE,
        {"S": pk},
        kwargs.get("range_comparison"),
        kwargs.get("range_values", []),
        kwargs.get("limit"),
        None,
        kwargs.get("forward", True),
        None,
        expr_names={},
        expr_values={},
    )
    return [item.to_json() for item in items], scanned, last


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    items=st.lists(
        st.tuples(st.sampled_from(["a", "b", "c"]), st.sampled_from(["1", "2", "3", "4"])),
        max_size=20,
    ),
    pk=st.sampled_from(["a", "b", "zz"]),
    limit=st.sampled_from([None, 1, 2]),
    forward=st.booleans(),
    between=st.booleans(),
)
def test_the_partition_query_answers_exactly_as_moto_does(
    backend: DynamoDBBackend,
    items: list[tuple[str, str]],
    pk: str,
    limit: int | None,
    forward: bool,
    between: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # GIVEN a table of items in several partitions
    backend.get_table(TABLE).items.clear()
    for p, s in items:
        backend.put_item(TABLE, {"pk": {"S": p}, "sk": {"S": s}, "v": {"S": p + s}})
    kwargs: dict[str, Any] = {"limit": limit, "forward": forward}
    if between:
        kwargs.update(range_comparison="BETWEEN", range_values=[{"S": "2"}, {"S": "3"}])

    # WHEN one partition is queried with moto's original and with the partition query
    monkeypatch.setattr(Table, "query", moto_queries.original_query())
    expected = _query(backend, pk, **kwargs)
    moto_queries.install()
    got = _query(backend, pk, **kwargs)

    # THEN the items, the scanned count and the pagination key are the same
    assert got == expected


def test_a_partition_query_never_reads_the_whole_table(
    backend: DynamoDBBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN many partitions, and a table whose full listing fails
    for n in range(300):
        backend.put_item(TABLE, {"pk": {"S": f"user-{n}"}, "sk": {"S": "memory"}})
    moto_queries.install()
    original_all_items = Table.all_items

    def only_one_partition(self: Table) -> Any:
        assert len(self.items) <= 1, "the query listed the whole table"
        return original_all_items(self)

    monkeypatch.setattr(Table, "all_items", only_one_partition)

    # WHEN one user's partition is queried THEN only that partition was listed
    items, _, _ = _query(backend, "user-7")
    assert [item["Attributes"]["pk"] for item in items] == [{"S": "user-7"}]


def test_moto_table_query_is_the_reviewed_one() -> None:
    # WHEN moto is upgraded and Table.query changes THEN re-read local/moto_queries.py
    # against it (its base-table branch must still keep only the items of hash_key)
    assert moto_queries.original_source_sha256() == moto_queries.REVIEWED_SOURCE_SHA256, (
        "moto's Table.query changed: re-check agent_memory_tools.local.moto_queries"
    )
