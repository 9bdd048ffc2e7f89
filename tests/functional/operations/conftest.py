"""Fixtures of the operations tests (moto over HTTP from ``tests/functional/conftest.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from operations_support import Api

from agent_memory.repository import TableNames
from agent_memory.service import reset_services
from agent_memory_tools.operations.cleanup import ProbeCleaner


@pytest.fixture
def cleaner(dynamodb_client: Any, table_names: TableNames) -> ProbeCleaner:
    return ProbeCleaner(dynamodb_client, table_names)


@pytest.fixture
def api(dynamodb_env: TableNames, monkeypatch: pytest.MonkeyPatch) -> Iterator[Api]:
    """The chat and memory functions on this test's tables, flag on, the rules model."""
    monkeypatch.setenv("MEMORY_ENABLED", "true")
    monkeypatch.setenv("MODEL_PROVIDER", "rules")
    monkeypatch.delenv("FALLBACK_MODEL_ID", raising=False)
    for name in ("APPCONFIG_APPLICATION", "APPCONFIG_ENVIRONMENT", "APPCONFIG_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TURN_DEADLINE_SECONDS", "20")
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "true")
    reset_services()
    yield Api()
    reset_services()
