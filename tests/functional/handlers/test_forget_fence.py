"""DELETE /memory fences every turn that loaded before it (DESIGN.md "Forgetting")."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from handler_support import Api, Reply, new_turn_id

from agent_memory.repository import MemoryRepository


def in_background(call: Any) -> tuple[threading.Thread, list[Reply]]:
    replies: list[Reply] = []
    worker = threading.Thread(target=lambda: replies.append(call()))
    worker.start()
    return worker, replies


def test_a_turn_that_loaded_before_a_forget_but_stages_after_it_commits_nothing(
    api: Api,
) -> None:
    # GIVEN a turn that loads memory, then thinks for a while before it stages a fact
    worker, replies = in_background(
        lambda: api.chat("simulate: sleep 1.5\nremember: X from the old turn")
    )
    time.sleep(0.5)

    # WHEN the user forgets everything meanwhile
    assert api.call("DELETE", "/memory").status == 204
    worker.join()

    # THEN the turn answers 200 but commits nothing, and says why (no claim of a change)
    reply = replies[0]
    assert reply.status == 200
    assert reply.memory["status"] == "cancelled"
    assert reply.memory["reason"] == "memory_forgotten"
    assert "Noted" not in reply.body["reply"]
    assert api.memory() == {"user": [], "memory": []}
    # and its ledger item is not left open
    statuses = {item["status"]["S"] for item in api.items("ledger")}
    assert "open" not in statuses
    assert "committed" not in statuses


def test_a_turn_that_staged_before_a_forget_is_fenced_too(api: Api) -> None:
    # GIVEN a stored fact and a turn that stages a change to it, then thinks
    api.chat("remember: Old fact.")
    worker, replies = in_background(
        lambda: api.chat("remember: staged before\nsimulate: sleep 1.5", turn_id=new_turn_id())
    )
    for _ in range(200):
        if api.items("ledger") and len(api.items("ledger")) > 1:
            break
        time.sleep(0.01)

    # WHEN the user forgets everything
    assert api.call("DELETE", "/memory").status == 204
    worker.join()

    # THEN nothing comes back
    assert replies[0].memory["status"] == "cancelled"
    assert replies[0].memory["reason"] == "memory_forgotten"
    assert api.memory() == {"user": [], "memory": []}


def test_a_fenced_commit_is_still_one_request(
    api: Api, monkeypatch: pytest.MonkeyPatch, dynamodb_client: Any
) -> None:
    # GIVEN a turn whose commit will meet a forget that ran after its load
    sent: list[list[dict[str, Any]]] = []
    real = MemoryRepository.transact_write

    def forget_first(self: MemoryRepository, items: Any, *, token: str, **kwargs: Any) -> None:
        if not sent:
            MemoryRepository(dynamodb_client, self.table_name).delete_all("alice")
        sent.append(list(items))
        real(self, items, token=token, **kwargs)

    monkeypatch.setattr(MemoryRepository, "transact_write", forget_first)
    # WHEN the turn commits
    reply = api.chat("remember: would come back")

    # THEN one commit attempt carried the fence, and the turn did not replay
    assert reply.memory["status"] == "cancelled"
    assert reply.memory["reason"] == "memory_forgotten"
    assert len(sent) == 1
    # (the document, the history record, the fence, the ledger item: created by the commit,
    # since the turn ended within the ledger's open delay)
    assert [next(iter(item)) for item in sent[0]] == ["Put", "Put", "ConditionCheck", "Put"]
    assert api.memory() == {"user": [], "memory": []}


def test_a_turn_after_the_forget_is_an_ordinary_turn(api: Api) -> None:
    # GIVEN memory that was forgotten
    api.chat("remember: before")
    assert api.call("DELETE", "/memory").status == 204

    # WHEN a new turn remembers something
    reply = api.chat("remember: after")

    # THEN it commits
    assert reply.memory["status"] == "committed"
    assert api.memory()["memory"] == ["after"]


def test_a_patch_racing_a_forget_changes_nothing(
    api: Api, monkeypatch: pytest.MonkeyPatch, dynamodb_client: Any
) -> None:
    # GIVEN a stored fact and a forget that lands between the edit's load and its commit
    api.chat("remember: Use Python.")
    real = MemoryRepository.transact_write
    forgotten: list[bool] = []

    def forget_first(self: MemoryRepository, items: Any, *, token: str, **kwargs: Any) -> None:
        if not forgotten:
            forgotten.append(True)
            MemoryRepository(dynamodb_client, self.table_name).delete_all("alice")
        real(self, items, token=token, **kwargs)

    monkeypatch.setattr(MemoryRepository, "transact_write", forget_first)

    # WHEN the user's edit commits
    reply = api.call(
        "PATCH",
        "/memory",
        body={"operations": [{"target": "memory", "action": "add", "content": "Use uv."}]},
    )

    # THEN it says so and nothing comes back
    assert reply.status == 409
    assert reply.body["error"]["code"] == "memory_forgotten"
    assert api.memory() == {"user": [], "memory": []}
