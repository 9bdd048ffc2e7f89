"""The DynamoDB clients, built lazily once per process, and error translation.

Two clients share one configuration except for retries:

- the *default* client (loads, ledger items, cleanup) lets botocore's ``standard`` retry
  mode absorb throttling and transient errors;
- the *transaction* client (``TransactWriteItems`` only) makes exactly one attempt per call,
  because the commit protocol owns those retries: it must see every failure to classify it
  (conflict, throttling, ambiguous transport error), check the cancel flag and the deadline
  between attempts, reuse the ``ClientRequestToken`` only for the same request, and count
  what it did. It is built on the first commit, so read-only turns never pay for it.

A commit attempt must end before the turn's deadline, and botocore fixes a client's
timeouts when it is built. So single-attempt clients come in a few sizes
(``ATTEMPT_TIMEOUTS``, longest first): an attempt uses the longest whose connect plus read
timeout fits in the time left, and none starts when even the shortest does not fit. Each
size is built once per process, on first use.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from botocore.config import Config
from botocore.exceptions import (
    BotoCoreError,
    ClientError,
    HTTPClientError,
)
from botocore.exceptions import (
    ConnectionError as BotoConnectionError,
)

from agent_memory.aws_clients import new_aws_client
from agent_memory.repository.exceptions import (
    ConfigurationError,
    RepositoryError,
    RetryableError,
    TransactionCancelledError,
    TransportError,
)
from agent_memory.retryable import DYNAMODB_RETRYABLE_ERRORS

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient

ENV_REGION = "AWS_REGION"
ENV_ENDPOINT_URL = "DYNAMODB_ENDPOINT_URL"
ENV_MEMORY_TABLE = "MEMORY_TABLE_NAME"
ENV_TURN_LEDGER_TABLE = "TURN_LEDGER_TABLE_NAME"
ENV_IDEMPOTENCY_TABLE = "IDEMPOTENCY_TABLE_NAME"

CONNECT_TIMEOUT_S = 2.0
READ_TIMEOUT_S = 5.0
DEFAULT_TOTAL_ATTEMPTS = 3


@dataclass(frozen=True)
class AttemptTimeouts:
    """The connect and read timeouts of one single-attempt request."""

    connect_s: float
    read_s: float

    @property
    def total_s(self) -> float:
        return self.connect_s + self.read_s


ATTEMPT_TIMEOUTS = (
    AttemptTimeouts(CONNECT_TIMEOUT_S, READ_TIMEOUT_S),
    AttemptTimeouts(1.0, 2.0),
    AttemptTimeouts(0.5, 1.0),
    AttemptTimeouts(0.25, 0.5),
    AttemptTimeouts(0.1, 0.2),  # the shortest: 300 ms
)
LONGEST_ATTEMPT = ATTEMPT_TIMEOUTS[0]


def attempt_timeouts_within(budget_s: float | None) -> AttemptTimeouts | None:
    """The longest attempt that ends within ``budget_s`` (``None`` means no limit), or
    ``None`` when not even the shortest does."""
    if budget_s is None:
        return LONGEST_ATTEMPT
    for timeouts in ATTEMPT_TIMEOUTS:
        if timeouts.total_s <= budget_s:
            return timeouts
    return None


@dataclass(frozen=True)
class TableNames:
    """The physical names of the tables. ``idempotency`` (the stored chat responses that
    answer retries) is optional: empty where nothing creates or uses it."""

    memory: str
    turn_ledger: str
    idempotency: str = ""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> TableNames:
        env = os.environ if environ is None else environ
        memory = env.get(ENV_MEMORY_TABLE, "")
        turn_ledger = env.get(ENV_TURN_LEDGER_TABLE, "")
        missing = [
            name
            for name, value in ((ENV_MEMORY_TABLE, memory), (ENV_TURN_LEDGER_TABLE, turn_ledger))
            if not value
        ]
        if missing:
            raise ConfigurationError(f"missing environment variable(s): {', '.join(missing)}")
        idempotency = env.get(ENV_IDEMPOTENCY_TABLE, "")
        return cls(memory=memory, turn_ledger=turn_ledger, idempotency=idempotency)


def client_config(
    *, transactions: bool = False, timeouts: AttemptTimeouts = LONGEST_ATTEMPT
) -> Config:
    """The botocore configuration of the default (or a transaction) client."""
    return Config(
        connect_timeout=timeouts.connect_s,
        read_timeout=timeouts.read_s,
        tcp_keepalive=True,
        retries={
            "mode": "standard",
            "total_max_attempts": 1 if transactions else DEFAULT_TOTAL_ATTEMPTS,
        },
    )


def new_client(
    *,
    region: str | None = None,
    endpoint_url: str | None = None,
    transactions: bool = False,
    credentials: Mapping[str, str] | None = None,
    timeouts: AttemptTimeouts = LONGEST_ATTEMPT,
) -> DynamoDBClient:
    """A new low-level DynamoDB client; region and endpoint default to the environment.

    ``credentials`` (``aws_access_key_id``, ``aws_secret_access_key``, optional
    ``aws_session_token``) is for tests and the local stack; Lambda uses its role.
    """
    client: DynamoDBClient = new_aws_client(
        "dynamodb",
        region_name=region or os.environ.get(ENV_REGION) or None,
        endpoint_url=endpoint_url or os.environ.get(ENV_ENDPOINT_URL) or None,
        config=client_config(transactions=transactions, timeouts=timeouts),
        credentials=credentials,
    )
    return client


class _ProcessClients:
    """The per-process clients (the only module-level mutable state of the adapters)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clients: dict[tuple[bool, AttemptTimeouts], DynamoDBClient] = {}

    def get(
        self, *, transactions: bool, timeouts: AttemptTimeouts = LONGEST_ATTEMPT
    ) -> DynamoDBClient:
        key = (transactions, timeouts)
        client = self._clients.get(key)
        if client is None:
            with self._lock:
                client = self._clients.get(key)
                if client is None:
                    client = new_client(transactions=transactions, timeouts=timeouts)
                    self._clients[key] = client
        return client

    def reset(self) -> None:
        with self._lock:
            self._clients.clear()


_PROCESS_CLIENTS = _ProcessClients()


def get_client() -> DynamoDBClient:
    """The process-wide default client (built on first use from the environment)."""
    return _PROCESS_CLIENTS.get(transactions=False)


def get_transaction_client(timeouts: AttemptTimeouts = LONGEST_ATTEMPT) -> DynamoDBClient:
    """The process-wide single-attempt client for ``TransactWriteItems`` (and for any
    request that must end within a deadline) with these timeouts."""
    return _PROCESS_CLIENTS.get(transactions=True, timeouts=timeouts)


def reset_clients() -> None:
    """Forget the process-wide clients (tests that change the environment)."""
    _PROCESS_CLIENTS.reset()


def error_code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code") or "Unknown")


def translate_error(error: Exception) -> RepositoryError:
    """Map a botocore failure to a repository error that names only a code."""
    if isinstance(error, RepositoryError):
        return error
    if isinstance(error, ClientError):
        code = error_code(error)
        if code == "TransactionCanceledException":
            response: Mapping[str, Any] = error.response
            cancellation = list(response.get("CancellationReasons", ()))
            reasons = tuple(str(reason.get("Code") or "None") for reason in cancellation)
            items = tuple(
                reason.get("Item") if isinstance(reason.get("Item"), Mapping) else None
                for reason in cancellation
            )
            return TransactionCancelledError(reasons, items)
        if code in DYNAMODB_RETRYABLE_ERRORS:
            return RetryableError(code)
        return RepositoryError(code)
    if isinstance(error, HTTPClientError | BotoConnectionError):
        return TransportError(type(error).__name__)
    if isinstance(error, BotoCoreError):
        return RepositoryError(type(error).__name__)
    return RepositoryError("unexpected_error", type(error).__name__)
