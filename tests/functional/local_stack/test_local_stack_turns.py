"""Cancelled turns, disconnected clients and concurrent users, over HTTP only."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from stack_support import Reply, RunningStack, new_turn_id, raw_request

pytestmark = pytest.mark.slow

SLOW_SECONDS = 2.0
# Far longer than a quick turn takes on a busy machine, cold start of a second environment included.
HOLD_SECONDS = 6.0


def test_a_cancelled_turn_commits_nothing(stack: RunningStack, alice: str) -> None:
    # GIVEN a slow turn that has already staged a memory write
    turn_id = new_turn_id()
    replies: list[Reply] = []
    worker = threading.Thread(
        target=lambda: replies.append(
            stack.chat(
                alice, f"remember: cancelled fact\nsimulate: sleep {SLOW_SECONDS}", turn_id=turn_id
            )
        )
    )
    worker.start()
    time.sleep(0.5)

    # WHEN the user cancels it by its Idempotency-Key
    cancelled = stack.cancel(alice, turn_id)
    worker.join(timeout=20)

    # THEN the cancel succeeds, the turn reports it, and nothing was committed
    assert (cancelled.status, cancelled.body["status"]) == (200, "cancelled"), cancelled
    (reply,) = replies
    assert reply.status == 200, reply
    assert reply.body["memory"]["status"] == "cancelled"
    assert stack.memory(alice)["memory"] == []


def test_a_disconnected_client_turn_commits_nothing(stack: RunningStack, alice: str) -> None:
    # GIVEN a slow turn sent on a raw connection
    turn_id = new_turn_id()
    body = json.dumps(
        {"message": f"remember: abandoned fact\nsimulate: sleep {SLOW_SECONDS}"}
    ).encode()
    connection = stack.raw_connection()
    connection.sendall(
        raw_request("POST", "/chat", token=alice, body=body, extra={"Idempotency-Key": turn_id})
    )
    time.sleep(0.5)

    # WHEN the client goes away before the answer
    connection.close()
    time.sleep(SLOW_SECONDS + 1.0)  # the turn has certainly ended by now

    # THEN the turn committed nothing: no memory, and its ledger is not committed
    assert stack.memory(alice)["memory"] == []
    assert stack.cancel(alice, turn_id).status == 200  # 409 would mean it had committed
    assert "client went away; its turn was cancelled" in stack.log()


def test_a_slow_turn_of_one_user_does_not_block_another(
    stack: RunningStack, alice: str, bob: str
) -> None:
    # GIVEN two warm chat environments (so B's turn measures blocking, not a cold start on a
    # busy machine) and a slow turn of A in flight
    finished: dict[str, float] = {}
    replies: dict[str, Any] = {}

    def run(name: str, token: str, message: str) -> None:
        replies[name] = stack.chat(token, message)
        finished[name] = time.monotonic()

    warmers = [threading.Thread(target=stack.chat, args=(t, "hello")) for t in (alice, bob)]
    for warmer in warmers:
        warmer.start()
    for warmer in warmers:
        warmer.join(timeout=30)
    slow = threading.Thread(
        target=run, args=("alice", alice, f"remember: slow\nsimulate: sleep {2 * SLOW_SECONDS}")
    )
    slow.start()
    time.sleep(0.3)

    # WHEN B chats and reads meanwhile
    run("bob", bob, "remember: fast")
    bob_memory = stack.memory(bob)
    slow.join(timeout=20)

    # THEN B was served while A's turn still ran, and each has only its own fact
    assert finished["bob"] < finished["alice"]
    assert replies["alice"].body["memory"]["status"] == "committed"
    assert replies["bob"].body["memory"]["status"] == "committed"
    assert bob_memory["memory"] == ["fast"]
    assert stack.memory(alice)["memory"] == ["slow"]


def test_a_slow_turn_of_one_user_does_not_hold_up_another(
    stack: RunningStack, alice: str, bob: str
) -> None:
    # GIVEN a slow turn of alice's that has started (its model sleeps long)
    finished: list[str] = []
    replies: dict[str, Reply] = {}

    def send(name: str, token: str, message: str) -> None:
        replies[name] = stack.chat(token, message)
        finished.append(name)

    slow = threading.Thread(
        target=send, args=("alice", alice, f"remember: alice fact\nsimulate: sleep {HOLD_SECONDS}")
    )
    slow.start()
    time.sleep(0.5)

    # WHEN bob sends a quick turn meanwhile
    send("bob", bob, "remember: bob fact")
    slow.join(timeout=HOLD_SECONDS + 20)

    # THEN bob's answer came first (behind alice's turn it would come after it: an order, not a
    # time bound a busy machine could break) and both committed
    assert finished == ["bob", "alice"]
    assert {name: reply.body["memory"]["status"] for name, reply in replies.items()} == {
        "alice": "committed",
        "bob": "committed",
    }
    assert stack.memory(alice)["memory"] == ["alice fact"]
    assert stack.memory(bob)["memory"] == ["bob fact"]
