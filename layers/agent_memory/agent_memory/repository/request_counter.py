"""Count the DynamoDB requests a client really sends (tests, benchmarks, load tests).

It listens on botocore's ``before-send`` event, which fires once per HTTP attempt, so SDK
retries are counted too. A stubbed client (botocore ``Stubber``) sends nothing and counts 0.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient

_EVENT = "before-send.dynamodb"


class RequestCounter:
    """Thread-safe request counts by operation name (``Query``, ``TransactWriteItems``...)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: Counter[str] = Counter()
        self._unique_id = f"agent-memory-request-counter-{id(self)}"

    def attach(self, *clients: DynamoDBClient) -> RequestCounter:
        for client in clients:
            client.meta.events.register(_EVENT, self._on_send, unique_id=self._unique_id)
        return self

    def detach(self, *clients: DynamoDBClient) -> None:
        for client in clients:
            client.meta.events.unregister(_EVENT, self._on_send, unique_id=self._unique_id)

    @property
    def total(self) -> int:
        with self._lock:
            return sum(self._counts.values())

    def counts(self) -> dict[str, int]:
        with self._lock:
            return dict(self._counts)

    def reset(self) -> None:
        with self._lock:
            self._counts.clear()

    def _on_send(self, event_name: str = "", **_: Any) -> None:
        operation = event_name.rsplit(".", 1)[-1]
        with self._lock:
            self._counts[operation] += 1
        # Returning None lets the request go out (a value would replace the response).
