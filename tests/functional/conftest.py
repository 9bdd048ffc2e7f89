"""Shared DynamoDB fixtures of the functional tests (moto).

- ``moto_endpoint``: one ``moto.server.ThreadedMotoServer`` per session on 127.0.0.1, port 0
  (real HTTP, so threads in the tests are real concurrent clients).
- ``dynamodb_client`` / ``transaction_client``: low-level clients over HTTP to it, built by
  the same factory as production (``agent_memory.repository.new_client``), with dummy
  credentials.
- ``table_names``: fresh, uniquely named tables created FROM ``template.yaml`` for each test.
- ``memory_repository`` / ``ledger_repository``: the adapters over those tables.
- ``dynamodb_env``: the environment variables the Lambda code reads, pointing at the server.
- ``inprocess_dynamodb``: the in-process ``mock_aws`` variant (no HTTP), tables from the
  template too.

Two moto facts every user of these fixtures should know:

1. moto's DynamoDB is not atomic under concurrent requests: ``TransactWriteItems`` snapshots
   whole tables and restores the snapshot when it cancels, and conditional writes check and
   write in separate steps, so concurrent requests can lose each other's writes INSIDE moto.
   DynamoDB serialises per item and makes transactions atomic; the server here therefore
   handles one request at a time (a lock around its WSGI app). Clients still run in
   parallel and interleave freely between requests, which is what the protocol must survive.
2. The server shares moto's in-process state: ``mock_aws`` resets that state when it starts.
   Never rely on server state across tests (hence per-test tables).
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest
from moto import mock_aws
from moto.server import ThreadedMotoServer

from agent_memory.repository import (
    ENV_ENDPOINT_URL,
    ENV_IDEMPOTENCY_TABLE,
    ENV_MEMORY_TABLE,
    ENV_REGION,
    ENV_TURN_LEDGER_TABLE,
    LedgerRepository,
    MemoryRepository,
    TableNames,
    new_client,
    reset_clients,
)
from agent_memory.repository.tables import create_tables_from_template, delete_tables

REGION = "us-east-1"
DUMMY_CREDENTIALS = {"aws_access_key_id": "testing", "aws_secret_access_key": "testing"}


class _OneRequestAtATime:
    """WSGI middleware: moto handles one request at a time (see the module docstring)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self._app = app
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        with self._lock:
            return list(self._app(environ, start_response))


@pytest.fixture(scope="session")
def moto_endpoint() -> Iterator[str]:
    """``http://127.0.0.1:<port>`` of a moto server running for the whole session."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    # werkzeug reads ``server.app`` per request, so wrapping it after start is enough.
    wsgi_server = server._server
    assert wsgi_server is not None
    wsgi_server.app = _OneRequestAtATime(wsgi_server.app)  # type: ignore[assignment]
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture(scope="session")
def dynamodb_client(moto_endpoint: str) -> Any:
    """The default client (SDK retries on) over HTTP to the moto server."""
    return new_client(region=REGION, endpoint_url=moto_endpoint, credentials=DUMMY_CREDENTIALS)


@pytest.fixture(scope="session")
def transaction_client(moto_endpoint: str) -> Any:
    """The single-attempt client the commit protocol sends ``TransactWriteItems`` with."""
    return new_client(
        region=REGION,
        endpoint_url=moto_endpoint,
        transactions=True,
        credentials=DUMMY_CREDENTIALS,
    )


def unique_table_names(prefix: str = "t") -> TableNames:
    suffix = uuid.uuid4().hex[:12]
    return TableNames(
        memory=f"{prefix}-memory-{suffix}",
        turn_ledger=f"{prefix}-ledger-{suffix}",
        idempotency=f"{prefix}-idempotency-{suffix}",
    )


@pytest.fixture
def table_names(dynamodb_client: Any) -> Iterator[TableNames]:
    """Fresh tables for this test, created from ``template.yaml``; dropped afterwards."""
    names = unique_table_names()
    create_tables_from_template(dynamodb_client, names)
    yield names
    delete_tables(dynamodb_client, names)


@pytest.fixture
def memory_repository(
    dynamodb_client: Any, transaction_client: Any, table_names: TableNames
) -> MemoryRepository:
    return MemoryRepository(
        dynamodb_client, table_names.memory, transaction_client=transaction_client
    )


@pytest.fixture
def ledger_repository(dynamodb_client: Any, table_names: TableNames) -> LedgerRepository:
    return LedgerRepository(dynamodb_client, table_names.turn_ledger)


@pytest.fixture
def dynamodb_env(
    monkeypatch: pytest.MonkeyPatch, moto_endpoint: str, table_names: TableNames
) -> Iterator[TableNames]:
    """The Lambda environment pointed at the moto server and this test's tables; the
    process-wide clients are rebuilt from it."""
    monkeypatch.setenv(ENV_REGION, REGION)
    monkeypatch.setenv(ENV_ENDPOINT_URL, moto_endpoint)
    monkeypatch.setenv(ENV_MEMORY_TABLE, table_names.memory)
    monkeypatch.setenv(ENV_TURN_LEDGER_TABLE, table_names.turn_ledger)
    monkeypatch.setenv(ENV_IDEMPOTENCY_TABLE, table_names.idempotency)
    for name, value in DUMMY_CREDENTIALS.items():
        monkeypatch.setenv(name.upper(), value)
    monkeypatch.delenv("AWS_SESSION_TOKEN", raising=False)
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    reset_clients()
    yield table_names
    reset_clients()


@pytest.fixture
def inprocess_dynamodb(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, TableNames]]:
    """In-process moto (``mock_aws``, no HTTP): a client and fresh tables from the template."""
    for name, value in DUMMY_CREDENTIALS.items():
        monkeypatch.setenv(name.upper(), value)
    monkeypatch.delenv(ENV_ENDPOINT_URL, raising=False)
    with mock_aws():
        client = new_client(region=REGION, credentials=DUMMY_CREDENTIALS)
        names = unique_table_names("inproc")
        create_tables_from_template(client, names)
        yield client, names


def scan_all(client: Any, table_name: str) -> list[dict[str, Any]]:
    """Every item of a table (test helper; tables here are tiny)."""
    items: list[dict[str, Any]] = []
    kwargs: dict[str, Any] = {"TableName": table_name, "ConsistentRead": True}
    while True:
        page = client.scan(**kwargs)
        items.extend(page.get("Items", []))
        if "LastEvaluatedKey" not in page:
            return items
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


@pytest.fixture
def scan_table(dynamodb_client: Any) -> Callable[[str], list[dict[str, Any]]]:
    """``scan_table(name)``: every item of a table on the moto server."""
    return lambda table_name: scan_all(dynamodb_client, table_name)
