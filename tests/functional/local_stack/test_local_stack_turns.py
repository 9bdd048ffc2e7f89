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


def test_slow_turns_of_two_users_run_at_the_same_time(
    stack: RunningStack, alice: str, bob: str
) -> None:
    # GIVEN two slow turns of two users
    replies: dict[str, Any] = {}
    threads = [
        threading.Thread(
            target=lambda name=name, token=token: replies.__setitem__(
                name, stack.chat(token, f"remember: {name} fact\nsimulate: sleep {SLOW_SECONDS}")
            )
        )
        for name, token in (("alice", alice), ("bob", bob))
    ]

    # WHEN both are sent at once
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    elapsed = time.monotonic() - started

    # THEN they overlapped (serialised, they would take twice as long) and both committed
    assert elapsed < 2 * SLOW_SECONDS - 0.3, elapsed
    assert {name: reply.body["memory"]["status"] for name, reply in replies.items()} == {
        "alice": "committed",
        "bob": "committed",
    }
    assert stack.memory(alice)["memory"] == ["alice fact"]
    assert stack.memory(bob)["memory"] == ["bob fact"]
