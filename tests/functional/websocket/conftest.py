"""WebSocket fixtures: the real function over moto, the management API over real HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from ws_support import ManagementApi, WebSocketGateway, load_websocket_function

from agent_memory.repository import TableNames
from agent_memory.service import reset_services
from agent_memory.websocket import ENV_MANAGEMENT_ENDPOINT, reset_management_clients


@pytest.fixture
def management() -> Iterator[ManagementApi]:
    api = ManagementApi()
    yield api
    api.close()


@pytest.fixture
def gateway(
    dynamodb_env: TableNames,
    management: ManagementApi,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[WebSocketGateway]:
    monkeypatch.setenv("MEMORY_ENABLED", "true")
    monkeypatch.setenv("MODEL_PROVIDER", "rules")
    monkeypatch.delenv("FALLBACK_MODEL_ID", raising=False)
    monkeypatch.setenv("TURN_DEADLINE_SECONDS", "20")
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "true")
    monkeypatch.setenv(ENV_MANAGEMENT_ENDPOINT, management.endpoint)
    reset_services()
    reset_management_clients()
    yield WebSocketGateway(load_websocket_function(), management)
    reset_services()
    reset_management_clients()


@pytest.fixture
def ledger_items(dynamodb_client: Any, dynamodb_env: TableNames) -> Any:
    def items() -> list[dict[str, Any]]:
        response = dynamodb_client.scan(TableName=dynamodb_env.turn_ledger, ConsistentRead=True)
        return list(response.get("Items", []))

    return items
