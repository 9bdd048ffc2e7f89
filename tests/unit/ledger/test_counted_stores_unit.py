"""The counted stores: every call that sends a DynamoDB request counts once, the item
builders count nothing, and a request that failed still counts (it was sent)."""

from __future__ import annotations

from typing import Any

import pytest

from agent_memory.ledger.stores import CountedLedgerStore, CountedMemoryStore, RequestTally
from agent_memory.repository import RepositoryError


class _Memory:
    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: {name: True}


class _FailingLedger:
    def get(self, user_id: str, turn_id: str) -> Any:
        raise RepositoryError("RequestTimeout")

    def discard(self, *args: Any, **kwargs: Any) -> bool:
        return True

    def open_turn(self, *args: Any, **kwargs: Any) -> None:
        return None

    def commit_item(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return {"Update": {}}


def test_requests_count_once_and_builders_not_at_all() -> None:
    # GIVEN the stores of one turn sharing a tally
    tally = RequestTally()
    memory = CountedMemoryStore(_Memory(), tally)  # type: ignore[arg-type]
    ledger = CountedLedgerStore(_FailingLedger(), tally)  # type: ignore[arg-type]
    # WHEN the turn builds items and sends requests, one of which fails
    memory.document_writes("u", None, None, 1)  # type: ignore[arg-type]
    memory.forget_fence("u", None)
    ledger.commit_item("u", "t", "token", 1, {})
    memory.load("u")
    memory.transact_write([], token="token")
    ledger.open_turn("u", "t", 10, 1)
    ledger.discard("u", "t", 1, opened=False)
    with pytest.raises(RepositoryError):
        ledger.get("u", "t")
    # THEN the builders counted nothing and each request once, the failed one included
    assert tally.count == 5
