"""Clients from the environment, error translation, request counting, migrations."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from botocore.exceptions import (
    ClientError,
    ConnectTimeoutError,
    EndpointConnectionError,
    ParamValidationError,
    ReadTimeoutError,
)

from agent_memory.repository import (
    CURRENT_SCHEMA_VERSION,
    ConfigurationError,
    LedgerRepository,
    MemoryRepository,
    MigrationError,
    RepositoryError,
    RequestCounter,
    RetryableError,
    TableNames,
    TransactionCancelledError,
    TransportError,
    get_client,
    get_transaction_client,
    migrate,
    translate_error,
)


def client_error(code: str, **fields: Any) -> ClientError:
    response: dict[str, Any] = {"Error": {"Code": code, "Message": "injected"}, **fields}
    return ClientError(response, "TransactWriteItems")  # type: ignore[arg-type]


def test_table_names_from_env() -> None:
    names = TableNames.from_env({"MEMORY_TABLE_NAME": "m", "TURN_LEDGER_TABLE_NAME": "l"})
    assert names == TableNames(memory="m", turn_ledger="l")
    with pytest.raises(ConfigurationError, match="TURN_LEDGER_TABLE_NAME"):
        TableNames.from_env({"MEMORY_TABLE_NAME": "m"})


def test_process_clients_are_built_lazily_once_from_env(dynamodb_env: TableNames) -> None:
    # GIVEN the Lambda environment pointing at the moto server
    # WHEN the clients are asked for twice
    first, again = get_client(), get_client()
    transactions = get_transaction_client()
    # THEN one default client, one separate single-attempt client for transactions
    assert first is again
    assert transactions is not first
    assert first.meta.config.retries["total_max_attempts"] == 3
    assert first.meta.config.retries["mode"] == "standard"
    assert transactions.meta.config.retries["total_max_attempts"] == 1
    # AND the repositories built from the environment work against those tables
    memory = MemoryRepository.from_env()
    ledger = LedgerRepository.from_env()
    assert memory.table_name == dynamodb_env.memory
    assert ledger.table_name == dynamodb_env.turn_ledger
    assert memory.load("someone").snapshot.memory == ()
    assert memory.bounded_client(None) is transactions
    # AND a request that must end sooner gets a client with shorter timeouts (built once)
    short = memory.bounded_client(1.0)
    assert short is memory.bounded_client(1.0)
    assert short.meta.config.connect_timeout + short.meta.config.read_timeout <= 1.0
    assert short.meta.config.retries["total_max_attempts"] == 1


def test_translate_error() -> None:
    reasons = client_error(
        "TransactionCanceledException",
        CancellationReasons=[{"Code": "None"}, {"Code": "ConditionalCheckFailed", "Message": "x"}],
    )
    cancelled = translate_error(reasons)
    assert isinstance(cancelled, TransactionCancelledError)
    assert cancelled.reasons == ("None", "ConditionalCheckFailed")
    for code in (
        "ProvisionedThroughputExceededException",
        "ThrottlingException",
        "RequestLimitExceeded",
        "TransactionInProgressException",
        "TransactionConflictException",
    ):
        error = translate_error(client_error(code))
        assert isinstance(error, RetryableError)
        assert error.code == code
    for transport in (
        ReadTimeoutError(endpoint_url="u"),
        ConnectTimeoutError(endpoint_url="u"),
        EndpointConnectionError(endpoint_url="u"),
    ):
        assert isinstance(translate_error(transport), TransportError)
    validation = translate_error(client_error("ValidationException"))
    assert type(validation) is RepositoryError
    assert validation.code == "ValidationException"
    assert translate_error(ParamValidationError(report="r")).code == "ParamValidationError"
    assert translate_error(ValueError("secret content")).code == "unexpected_error"
    assert "secret content" not in str(translate_error(ValueError("secret content")))


def test_request_counter_counts_by_operation_across_threads(
    dynamodb_client: Any, table_names: TableNames
) -> None:
    # GIVEN a counter attached to a client shared by threads
    counter = RequestCounter().attach(dynamodb_client)

    def read(_: int) -> None:
        dynamodb_client.get_item(
            TableName=table_names.memory,
            Key={"user_id": {"S": "u"}, "memory_type": {"S": "user"}},
        )

    try:
        # WHEN 8 threads send 40 requests, plus one other operation
        with ThreadPoolExecutor(max_workers=8) as pool:
            list(pool.map(read, range(40)))
        dynamodb_client.describe_table(TableName=table_names.memory)
    finally:
        counter.detach(dynamodb_client)
    # THEN each request is counted once, by operation; nothing after detaching
    read(0)
    assert counter.counts() == {"GetItem": 40, "DescribeTable": 1}
    assert counter.total == 41
    counter.reset()
    assert counter.total == 0


def test_migrations_registry() -> None:
    # The current version needs no migration.
    assert migrate("a\n§\nb", CURRENT_SCHEMA_VERSION) == "a\n§\nb"
    # A chain of registered steps runs in order.
    steps = {1: lambda c: c + "+2", 2: lambda c: c + "+3"}
    assert migrate("v1", 1, current=3, migrations=steps) == "v1+2+3"
    # A newer version, or a gap in the chain, is refused.
    with pytest.raises(MigrationError):
        migrate("x", CURRENT_SCHEMA_VERSION + 1)
    with pytest.raises(MigrationError):
        migrate("x", 1, current=3, migrations={1: str.upper})
