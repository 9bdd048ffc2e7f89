"""Handler-level fixtures: the real handlers, simulated API Gateway events, moto over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from handler_support import Api

from agent_memory.repository import TableNames
from agent_memory.service import reset_services


@pytest.fixture
def api(
    dynamodb_env: TableNames, monkeypatch: pytest.MonkeyPatch, dynamodb_client: Any
) -> Iterator[Api]:
    """The five functions wired to this test's tables, memory flag on, the rules model."""
    monkeypatch.setenv("MEMORY_ENABLED", "true")
    monkeypatch.setenv("MODEL_PROVIDER", "rules")
    monkeypatch.delenv("FALLBACK_MODEL_ID", raising=False)
    monkeypatch.setenv("TURN_DEADLINE_SECONDS", "20")
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "true")
    reset_services()
    yield Api(client=dynamodb_client, tables=dynamodb_env)
    reset_services()
