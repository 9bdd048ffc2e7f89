"""What a chat turn answers when it cannot commit what it staged (issue 12, items 5, 16)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from handler_support import Api, new_turn_id

from agent_memory.ledger import TurnUnitOfWork


def test_an_unexpected_error_after_a_staged_write_commits_nothing(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a stored fact and a tool that breaks unexpectedly right after it staged a write
    api.chat("remember: Kept.")
    real_call = TurnUnitOfWork.call_tool

    def staged_then_broken(self: TurnUnitOfWork, arguments: Any) -> Any:
        real_call(self, arguments)
        raise RuntimeError("an unexpected bug")

    monkeypatch.setattr(TurnUnitOfWork, "call_tool", staged_then_broken)
    turn_id = new_turn_id()

    # WHEN a turn stages a new fact
    reply = api.chat("remember: Must not be saved.", turn_id=turn_id)

    # THEN a 500 without internals, memory unchanged and the ledger item discarded
    assert reply.status == 500
    assert reply.body == {
        "error": {"code": "internal_error", "message": "The request failed. Please retry later."}
    }
    assert api.memory()["memory"] == ["Kept."]
    ledger = {item["turn_id"]["S"]: item["status"]["S"] for item in api.items("ledger")}
    assert ledger[turn_id] == "discarded"


def test_a_turn_cancelled_through_the_ledger_claims_no_memory_update(api: Api) -> None:
    # GIVEN a slow turn that has staged a fact
    turn_id = new_turn_id()
    replies: list[Any] = []
    worker = threading.Thread(
        target=lambda: replies.append(
            api.chat("remember: maybe not\nsimulate: sleep 1.5", turn_id=turn_id)
        )
    )
    worker.start()
    for _ in range(300):
        if any(item["turn_id"]["S"] == turn_id for item in api.items("ledger")):
            break
        time.sleep(0.01)

    # WHEN another request cancels it
    assert api.cancel(turn_id).status == 200
    worker.join()

    # THEN the outcome is cancelled and the reply does not claim a change
    reply = replies[0]
    assert reply.status == 200
    assert reply.memory["status"] == "cancelled"
    assert "Noted" not in reply.body["reply"]
    assert "saved nothing" in reply.body["reply"]
    assert api.memory()["memory"] == []
