"""The phone scenario over the local stack's HTTP front: a turn commits, its answer is lost on
the way back, the phone retries with the same Idempotency-Key (DESIGN.md step 2)."""

from __future__ import annotations

import json
import time

import pytest
from stack_support import Reply, RunningStack, new_turn_id, raw_request, wait_for

pytestmark = pytest.mark.slow

FACT = "my phone is a Pixel 9"


def turn_status(stack: RunningStack, token: str, turn_id: str) -> Reply:
    return stack.request("GET", f"/turns/{turn_id}", token=token)


def test_a_retry_after_a_lost_answer_tells_committed_and_saves_once(
    stack: RunningStack, alice: str
) -> None:
    # GIVEN a phone that sends a turn that saves a fact, on a connection that then drops
    # before the phone read the answer (the turn itself committed)
    turn_id = new_turn_id()
    message = f"remember: {FACT}"
    connection = stack.raw_connection()
    connection.sendall(
        raw_request(
            "POST",
            "/chat",
            token=alice,
            body=json.dumps({"message": message}).encode(),
            extra={"Idempotency-Key": turn_id},
        )
    )
    assert wait_for(lambda: turn_status(stack, alice, turn_id).status == 200, timeout=10)
    assert wait_for(
        lambda: turn_status(stack, alice, turn_id).body["status"] == "committed", timeout=10
    )
    connection.close()  # the answer is lost

    # WHEN the phone retries the same request with the same key
    retry = stack.chat(alice, message, turn_id=turn_id)
    for _ in range(50):  # the first attempt may still be storing its response
        if retry.status != 409:
            break
        assert retry.error_code == "turn_in_progress"
        time.sleep(0.1)
        retry = stack.chat(alice, message, turn_id=turn_id)

    # THEN it gets the first answer, marked as a replay: "committed", not "not saved"
    assert retry.status == 200, retry
    assert retry.headers.get("idempotent-replayed") == "true"
    assert retry.body["turn_id"] == turn_id
    assert retry.body["memory"]["status"] == "committed"
    # AND the turn says committed, and memory holds the fact once
    assert turn_status(stack, alice, turn_id).body == {"turn_id": turn_id, "status": "committed"}
    assert stack.memory(alice)["memory"] == [FACT]


def test_the_same_key_is_the_callers_own(stack: RunningStack, alice: str, bob: str) -> None:
    # GIVEN alice's committed turn under a key
    turn_id = new_turn_id()
    assert stack.chat(alice, "remember: alice's fact", turn_id=turn_id).status == 200

    # WHEN bob sends the same key with his own message, and asks about alice's turn
    bob_turn = stack.chat(bob, "remember: bob's fact", turn_id=turn_id)
    asked = turn_status(stack, bob, new_turn_id())

    # THEN bob's turn is his own, and another user's or an unknown turn is a 404
    assert bob_turn.status == 200, bob_turn
    assert "idempotent-replayed" not in bob_turn.headers
    assert stack.memory(bob)["memory"] == ["bob's fact"]
    assert stack.memory(alice)["memory"] == ["alice's fact"]
    assert asked.status == 404
    assert turn_status(stack, alice, "not-a-uuid").status == 400
