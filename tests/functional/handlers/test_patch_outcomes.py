"""PATCH /memory answers what really happened to the edit (issue 12, items 2 and 3)."""

from __future__ import annotations

from typing import Any

import pytest
from handler_support import Api

from agent_memory.repository import (
    LedgerRepository,
    MemoryRepository,
    RepositoryError,
    TransportError,
)


def remove(match: str) -> dict[str, Any]:
    return {"operations": [{"target": "memory", "action": "remove", "match": match}]}


def test_an_edit_that_committed_answers_200_even_when_a_read_after_it_would_fail(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN two entries, one of which names the other's prefix
    api.chat("remember: Use Python\nremember: Use Python 3.13 for the API")
    loads: list[int] = []
    real_load = MemoryRepository.load

    def load_once(self: MemoryRepository, user_id: str, **kwargs: Any) -> Any:
        loads.append(1)
        if len(loads) > 1:
            raise RepositoryError("ProvisionedThroughputExceededException")
        return real_load(self, user_id, **kwargs)

    monkeypatch.setattr(MemoryRepository, "load", load_once)

    # WHEN the user removes the first, and memory could not be read again afterwards
    reply = api.call("PATCH", "/memory", body=remove("Use Python 3.13"))

    # THEN the edit answers with the committed documents (no 503 inviting a retry)
    assert reply.status == 200, reply.body
    assert reply.body["memory"]["entries"] == ["Use Python"]
    assert len(loads) == 1
    monkeypatch.setattr(MemoryRepository, "load", real_load)
    assert api.memory()["memory"] == ["Use Python"]


def test_an_edit_whose_outcome_is_unknown_says_so(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a stored entry, a commit whose answer is lost after it was applied, and a
    # ledger that cannot be reached to settle it
    api.chat("remember: Deploys on Fridays.")
    real_write = MemoryRepository.transact_write
    sent: list[str] = []

    def applied_then_lost(self: MemoryRepository, items: Any, *, token: str, **kwargs: Any) -> None:
        if not sent:
            real_write(self, items, token=token, **kwargs)
        sent.append(token)
        raise TransportError("ReadTimeoutError")

    def unreachable(self: LedgerRepository, *args: Any, **kwargs: Any) -> Any:
        raise RepositoryError("ServiceUnavailable")

    monkeypatch.setattr(MemoryRepository, "transact_write", applied_then_lost)
    monkeypatch.setattr(LedgerRepository, "discard", unreachable)
    monkeypatch.setattr(LedgerRepository, "get", unreachable)

    # WHEN the user edits memory
    reply = api.call("PATCH", "/memory", body=remove("Fridays"))

    # THEN the answer does not claim that nothing changed (it did)
    assert reply.status == 503
    assert reply.body["error"]["code"] == "edit_outcome_unknown"
    assert "nothing was changed" not in reply.body["error"]["message"]
    monkeypatch.setattr(MemoryRepository, "transact_write", real_write)
    assert api.memory()["memory"] == []
