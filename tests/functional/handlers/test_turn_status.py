"""GET /turns/{turn_id}: what became of a turn's memory writes, for a client that lost the
answer (DESIGN.md "HTTP API contract")."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from handler_support import Api, Reply, new_turn_id

from agent_memory.repository import LedgerRepository


def turn_status(api: Api, turn_id: str, user: str = "alice") -> Reply:
    return api.call("GET", f"/turns/{turn_id}", user=user)


def test_a_committed_turn_says_committed(api: Api) -> None:
    # GIVEN a turn that saved a fact
    turn_id = new_turn_id()
    assert api.chat("remember: uses a Pixel", turn_id=turn_id).memory["status"] == "committed"

    # WHEN the client asks what became of it THEN the ledger's answer comes back
    reply = turn_status(api, turn_id)
    assert reply.status == 200
    assert reply.body == {"turn_id": turn_id, "status": "committed"}


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("remember: staged then lost\nsimulate: fail", "discarded"),
        ("remember: waits for approval", "proposed"),
    ],
)
def test_a_turn_that_did_not_commit_says_how_it_ended(
    api: Api, message: str, expected: str
) -> None:
    # GIVEN a turn that failed after staging, or one that ran in approve mode
    if expected == "proposed":
        assert api.call("PUT", "/memory/settings", body={"write_mode": "approve"}).status == 200
    turn_id = new_turn_id()
    api.chat(message, turn_id=turn_id)

    # THEN its status says so
    assert turn_status(api, turn_id).body == {"turn_id": turn_id, "status": expected}


def test_a_cancelled_turn_says_cancelled(api: Api) -> None:
    turn_id = new_turn_id()
    assert api.cancel(turn_id).status == 200

    assert turn_status(api, turn_id).body == {"turn_id": turn_id, "status": "cancelled"}


def test_a_running_turn_says_open(api: Api) -> None:
    # GIVEN a turn that staged a fact and is still running
    turn_id = new_turn_id()
    replies: list[Reply] = []
    worker = threading.Thread(
        target=lambda: replies.append(
            api.chat("remember: slow fact\nsimulate: sleep 1", turn_id=turn_id)
        )
    )
    worker.start()
    _wait_until(lambda: any(item["turn_id"]["S"] == turn_id for item in api.items("ledger")))

    # WHEN asked meanwhile THEN it is open; once it answered, committed
    assert turn_status(api, turn_id).body == {"turn_id": turn_id, "status": "open"}
    worker.join()
    assert replies[0].memory["status"] == "committed"
    assert turn_status(api, turn_id).body["status"] == "committed"


def test_an_expired_turn_says_expired(api: Api) -> None:
    # GIVEN a turn whose Lambda died after staging: the cleanup expired it
    turn_id = new_turn_id()
    ledger = LedgerRepository(api.client, api.tables.turn_ledger)
    now = int(time.time() * 1000)
    ledger.open_turn("alice", turn_id, now - 1, now - 10_000)
    assert ledger.expire_overdue(now) == 1

    assert turn_status(api, turn_id).body == {"turn_id": turn_id, "status": "expired"}


def test_a_turn_that_staged_nothing_or_is_another_users_is_404(api: Api) -> None:
    # GIVEN a read-only turn (nothing staged) and alice's committed turn
    quiet = new_turn_id()
    api.chat("hello", turn_id=quiet)
    committed = new_turn_id()
    api.chat("remember: alice's own", turn_id=committed)

    # THEN neither the quiet turn nor another user's turn is found, alike
    for turn_id, user in ((quiet, "alice"), (committed, "bob"), (new_turn_id(), "alice")):
        reply = turn_status(api, turn_id, user=user)
        assert reply.status == 404
        assert reply.body["error"]["code"] == "turn_not_found"


@pytest.mark.parametrize("turn_id", ["not-a-uuid", "1234", "%20"])
def test_a_malformed_turn_id_is_400(api: Api, turn_id: str) -> None:
    reply = turn_status(api, turn_id)

    assert reply.status == 400
    assert reply.body["error"]["code"] == "invalid_turn_id"
    assert turn_id not in reply.body["error"]["message"]


def test_the_turn_status_needs_a_verified_identity(api: Api) -> None:
    assert turn_status(api, new_turn_id(), user=None).status == 401  # type: ignore[arg-type]


def _wait_until(condition: Any, timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError("the condition never held")
