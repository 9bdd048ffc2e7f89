"""The local DynamoDB's journaled TransactWriteItems answers as moto's own does, without
copying tables; a moto upgrade that changes what it mirrors fails here."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import boto3
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from moto import mock_aws
from moto.dynamodb.models import DynamoDBBackend, dynamodb_backends
from moto.dynamodb.models.table import Table

from agent_memory_tools.local import moto_transactions
from agent_memory_tools.local.moto_transactions import (
    REVIEWED_SOURCE_SHA256,
    journaled_transact_write_items,
    original_source_sha256,
)

ACCOUNT = "123456789012"
RANGED = "ranged"  # hash + range key, like both tables of template.yaml
HASHED = "hashed"  # hash key only
Transaction = list[dict[str, Any]]
Outcome = tuple[str, str]


def _create_tables(region: str) -> None:
    client = boto3.client("dynamodb", region_name=region)
    client.create_table(
        TableName=RANGED,
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
    client.create_table(
        TableName=HASHED,
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST",
    )


@pytest.fixture
def backends() -> Iterator[tuple[DynamoDBBackend, DynamoDBBackend]]:
    """Two backends with the same empty tables: one for moto's original, one for ours."""
    with mock_aws():
        _create_tables("eu-west-1")
        _create_tables("eu-west-2")
        yield dynamodb_backends[ACCOUNT]["eu-west-1"], dynamodb_backends[ACCOUNT]["eu-west-2"]


def _original() -> Callable[[Any, Transaction], None]:
    return moto_transactions._original()


def _run(write: Callable[[], None]) -> Outcome:
    try:
        write()
    except Exception as error:
        return type(error).__name__, str(getattr(error, "description", error))
    return "ok", ""


def _state(backend: DynamoDBBackend) -> dict[str, list[dict[str, Any]]]:
    state = {}
    for name in (RANGED, HASHED):
        items = [item.to_json()["Attributes"] for item in backend.get_table(name).all_items()]
        state[name] = sorted(items, key=repr)
    return state


def _key(table: str, pk: str, sk: str) -> dict[str, Any]:
    key = {"pk": {"S": pk}}
    if table == RANGED:
        key["sk"] = {"S": sk}
    return key


CONDITIONS: list[tuple[str | None, dict[str, Any] | None]] = [
    (None, None),
    ("attribute_not_exists(pk)", None),
    ("attribute_exists(pk)", None),
    ("v = :x", {":x": {"N": "1"}}),
    ("v = :x", {":x": {"N": "2"}}),
]


@st.composite
def elements(draw: st.DrawFn) -> dict[str, Any]:
    table = draw(st.sampled_from([RANGED, HASHED]))
    key = _key(table, draw(st.sampled_from(["a", "b"])), draw(st.sampled_from(["1", "2"])))
    kind = draw(st.sampled_from(["Put", "Delete", "Update", "ConditionCheck", "BadUpdate"]))
    condition, values = draw(st.sampled_from(CONDITIONS))
    value = {"N": str(draw(st.integers(1, 2)))}
    op: dict[str, Any] = {"TableName": table}
    if kind == "Put":
        op["Item"] = {**key, "v": value}
    else:
        op["Key"] = key
    if kind == "Update":
        op["UpdateExpression"] = "SET v = :new"
        values = {**(values or {}), ":new": value}
    if kind == "BadUpdate":  # a validation error in the middle of a transaction
        kind = "Update"
        op["UpdateExpression"] = "SET v = :missing"
    if kind == "ConditionCheck" and condition is None:
        condition, values = "attribute_exists(pk)", None
    if condition is not None:
        op["ConditionExpression"] = condition
    if values:
        op["ExpressionAttributeValues"] = values
    if draw(st.booleans()):
        op["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
    return {kind: op}


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.lists(elements(), min_size=1, max_size=4), min_size=1, max_size=6))
def test_the_journal_answers_and_stores_exactly_what_moto_does(
    backends: tuple[DynamoDBBackend, DynamoDBBackend], transactions: list[Transaction]
) -> None:
    # GIVEN the same tables in two backends, emptied
    theirs, ours = backends
    for backend in backends:
        for name in (RANGED, HASHED):
            backend.get_table(name).items.clear()
    original = _original()
    for transaction in transactions:
        # WHEN the same transaction runs through moto's original and through the journal
        expected = _run(lambda t=transaction: original(theirs, t))
        got = _run(lambda t=transaction: journaled_transact_write_items(ours, t, fallback=original))

        # THEN the answer (cancellation reasons, ALL_OLD items) and every table agree
        assert got == expected
        assert _state(ours) == _state(theirs)


def test_a_transaction_copies_no_table_however_large(
    backends: tuple[DynamoDBBackend, DynamoDBBackend], monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a table of many items, and any copy of a table made to fail
    _, ours = backends
    for n in range(500):
        ours.put_item(HASHED, {"pk": {"S": f"item-{n}"}, "v": {"N": "1"}})

    def no_copy(self: Table, memo: dict[int, Any]) -> Table:
        raise AssertionError("a table was deep-copied")

    monkeypatch.setattr(Table, "__deepcopy__", no_copy, raising=False)
    cancelled = [
        {"Put": {"TableName": HASHED, "Item": {"pk": {"S": "new"}, "v": {"N": "2"}}}},
        {
            "ConditionCheck": {
                "TableName": HASHED,
                "Key": {"pk": {"S": "item-1"}},
                "ConditionExpression": "v = :x",
                "ExpressionAttributeValues": {":x": {"N": "9"}},
            }
        },
    ]

    # WHEN a transaction commits and another one cancels through the journal
    journaled_transact_write_items(ours, cancelled[:1], fallback=_original())
    outcome = _run(lambda: journaled_transact_write_items(ours, cancelled, fallback=_original()))

    # THEN nothing was copied, the cancelled one left nothing, and moto's own would copy
    assert outcome[0] == "TransactionCanceledException"
    assert len(list(ours.get_table(HASHED).all_items())) == 501
    with pytest.raises(AssertionError, match="deep-copied"):
        _original()(ours, cancelled[:1])


def test_moto_transact_write_items_is_the_reviewed_one() -> None:
    # GIVEN the adapter mirrors moto's own algorithm (see local/moto_transactions.py)
    # WHEN moto is upgraded and its transaction changes
    # THEN this fails: re-read the adapter against moto's new code, then update the hash
    assert original_source_sha256() == REVIEWED_SOURCE_SHA256, (
        "moto's DynamoDBBackend.transact_write_items changed: re-check"
        " agent_memory_tools.local.moto_transactions against it"
    )


def test_install_is_idempotent_and_keeps_moto_original() -> None:
    # GIVEN the adapter installed twice
    moto_transactions.install()
    installed = DynamoDBBackend.transact_write_items
    moto_transactions.install()

    # THEN it is installed once, and moto's own method is still reachable for the checks
    assert moto_transactions.installed()
    assert DynamoDBBackend.transact_write_items is installed
    assert _original() is not installed


def test_a_cancelled_update_restores_the_item_it_changed_in_place(
    backends: tuple[DynamoDBBackend, DynamoDBBackend],
) -> None:
    # GIVEN an item (moto's update_item changes items in place)
    theirs, ours = backends
    for backend in backends:
        backend.put_item(RANGED, {**_key(RANGED, "a", "1"), "v": {"N": "1"}})
    transaction: Transaction = [
        {
            "Update": {
                "TableName": RANGED,
                "Key": _key(RANGED, "a", "1"),
                "UpdateExpression": "SET v = :new",
                "ExpressionAttributeValues": {":new": {"N": "2"}},
            }
        },
        {
            "ConditionCheck": {
                "TableName": HASHED,
                "Key": _key(HASHED, "missing", ""),
                "ConditionExpression": "attribute_exists(pk)",
            }
        },
    ]

    # WHEN a transaction updates it and then cancels on another item
    expected = _run(lambda: _original()(theirs, transaction))
    got = _run(lambda: journaled_transact_write_items(ours, transaction, fallback=_original()))

    # THEN the item holds its old value again, as with moto's own rollback
    assert got == expected
    assert got[0] == "TransactionCanceledException"
    assert _state(ours) == _state(theirs)
    assert ours.get_item(RANGED, _key(RANGED, "a", "1")).to_json()["Attributes"]["v"] == {"N": "1"}
