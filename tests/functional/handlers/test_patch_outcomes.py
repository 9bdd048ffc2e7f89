"""PATCH /memory answers what really happened to the edit (issue 12, items 2 and 3)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from handler_support import Api

from agent_memory.repository import (
    LedgerRepository,
    MemoryRepository,
    RepositoryError,
    TransportError,
)
from agent_memory_tools.local.events import LocalLambdaContext, http_api_event
from agent_memory_tools.local.functions import handler


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


def test_an_edit_is_bounded_by_its_own_functions_remaining_time(api: Api) -> None:
    # GIVEN the memory function invoked with 3 s left (its timeout, not the chat turn's 25 s)
    started_ms = int(time.time() * 1000)
    event = http_api_event(
        "PATCH",
        "/memory",
        body={"operations": [{"target": "memory", "action": "add", "content": "Bounded."}]},
        authorizer_context={"sub": "alice"},
    )
    context = LocalLambdaContext(function_name="memory_api", timeout_ms=3_000)

    # WHEN the user edits memory
    response = handler("memory_api")(event, context)

    # THEN the edit committed, and its unit of work had a deadline within those 3 s: no
    # DynamoDB attempt could be sized past the function's own timeout
    assert response["statusCode"] == 200, response["body"]
    (item,) = api.items("ledger")
    assert started_ms < int(item["deadline_ms"]["N"]) <= started_ms + 3_000
