"""One local stack subprocess for the module's tests, and tokens of its dev issuer."""

from __future__ import annotations

import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from stack_support import RunningStack, start_stack

from agent_memory_tools.dev_auth import DevIssuer

if not sys.platform.startswith("linux"):
    pytest.skip("the local stack tests read /proc", allow_module_level=True)


@pytest.fixture(scope="session")
def issuer_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("dev-issuer")


@pytest.fixture(scope="session")
def issuer(issuer_dir: Path) -> DevIssuer:
    return DevIssuer(issuer_dir)


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory, issuer_dir: Path) -> Iterator[RunningStack]:
    running = start_stack(tmp_path_factory.mktemp("stack"), issuer_dir)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def alice(issuer: DevIssuer) -> str:
    """A fresh user per test (memory persists for the life of the stack)."""
    return issuer.mint(f"alice-{_unique()}")


@pytest.fixture
def bob(issuer: DevIssuer) -> str:
    return issuer.mint(f"bob-{_unique()}")


def _unique() -> str:
    return uuid.uuid4().hex[:8]
