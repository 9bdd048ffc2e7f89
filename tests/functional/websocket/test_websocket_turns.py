"""Streamed turns through the real WebSocket function, moto and the management API over
HTTP: a disconnected stream commits nothing; a stream that stays commits exactly once."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable
from typing import Any

from ws_support import GONE, WebSocketGateway

USER_ID = "alice"


def chat(message: str, turn_id: str | None = None, **extra: Any) -> dict[str, Any]:
    frame: dict[str, Any] = {"action": "chat", "message": message, **extra}
    if turn_id is not None:
        frame["turn_id"] = turn_id
    return frame


def memory_entries(gateway: WebSocketGateway, dynamodb_client: Any, tables: Any) -> list[str]:
    item = dynamodb_client.get_item(
        TableName=tables.memory,
        Key={"user_id": {"S": USER_ID}, "memory_type": {"S": "memory"}},
        ConsistentRead=True,
    ).get("Item")
    return item["content"]["S"].split("\n§\n") if item else []


def ledger_status(ledger_items: Callable[[], list[dict[str, Any]]], turn_id: str) -> str | None:
    for item in ledger_items():
        if item["turn_id"]["S"] == turn_id:
            return str(item["status"]["S"])
    return None


def test_a_stream_that_stays_commits_once_and_its_deltas_are_the_reply(
    gateway: WebSocketGateway, dynamodb_client: Any, dynamodb_env: Any, ledger_items: Any
) -> None:
    # GIVEN a connected client
    connection = gateway.connect()
    turn_id = str(uuid.uuid4())
    # WHEN it streams a turn that remembers a fact
    gateway.send(connection, chat("remember: streams commit after the last delta", turn_id))
    # THEN it got started, the deltas, and done; the deltas concatenated are the reply
    frames = gateway.management.frames_of(connection)
    kinds = [frame["type"] for frame in frames]
    assert kinds[0] == "started"
    assert kinds[-1] == "done"
    assert set(kinds[1:-1]) == {"delta"}
    done = frames[-1]
    assert "".join(f["text"] for f in frames if f["type"] == "delta") == done["reply"]
    assert done["turn_id"] == turn_id
    assert done["memory"]["status"] == "committed"
    assert done["memory"]["operations"] == 1
    # AND the fact is committed exactly once, the ledger says so
    entries = memory_entries(gateway, dynamodb_client, dynamodb_env)
    assert entries == ["streams commit after the last delta"]
    assert ledger_status(ledger_items, turn_id) == "committed"


def test_a_client_gone_on_the_last_delta_commits_nothing(
    gateway: WebSocketGateway, dynamodb_client: Any, dynamodb_env: Any, ledger_items: Any
) -> None:
    # GIVEN a client whose connection is gone when the (last) delta is posted
    connection = gateway.connect()
    gateway.management.on_post = lambda cid, frame: GONE if frame["type"] == "delta" else None
    turn_id = str(uuid.uuid4())
    # WHEN the turn stages a write and streams its reply
    gateway.send(connection, chat("remember: never saved without a listener", turn_id))
    # THEN nothing is committed, the ledger says discarded, no done frame was delivered
    assert memory_entries(gateway, dynamodb_client, dynamodb_env) == []
    assert ledger_status(ledger_items, turn_id) == "discarded"
    assert [f["type"] for f in gateway.management.frames_of(connection)] == ["started"]


def test_a_connection_gone_before_the_commit_commits_nothing(
    gateway: WebSocketGateway, dynamodb_client: Any, dynamodb_env: Any, ledger_items: Any
) -> None:
    # GIVEN a client that received every delta and left right after (the check finds it gone)
    connection = gateway.connect()
    gateway.management.on_get = lambda cid: GONE
    turn_id = str(uuid.uuid4())
    # WHEN the turn reaches its commit
    gateway.send(connection, chat("remember: left after the last delta", turn_id))
    # THEN nothing is committed
    assert memory_entries(gateway, dynamodb_client, dynamodb_env) == []
    assert ledger_status(ledger_items, turn_id) == "discarded"


def test_a_disconnect_between_the_last_delta_and_the_commit_fences_the_turn(
    gateway: WebSocketGateway, dynamodb_client: Any, dynamodb_env: Any, ledger_items: Any
) -> None:
    # GIVEN $disconnect lands after the connection check and before the commit
    connection = gateway.connect()
    fenced: list[dict[str, Any]] = []

    def disconnect_now(cid: str) -> str | None:
        fenced.append(gateway.disconnect(cid))
        return None  # the check itself still saw the connection

    gateway.management.on_get = disconnect_now
    turn_id = str(uuid.uuid4())
    # WHEN the turn commits
    gateway.send(connection, chat("remember: fenced by the disconnect", turn_id))
    # THEN the fence won: nothing committed, the ledger says discarded
    assert fenced == [{"statusCode": 200}]
    assert memory_entries(gateway, dynamodb_client, dynamodb_env) == []
    assert ledger_status(ledger_items, turn_id) == "discarded"


def test_a_disconnect_after_the_commit_leaves_the_commit_alone(
    gateway: WebSocketGateway, dynamodb_client: Any, dynamodb_env: Any, ledger_items: Any
) -> None:
    # GIVEN $disconnect lands while the done frame is posted (after the commit)
    connection = gateway.connect()

    def disconnect_on_done(cid: str, frame: dict[str, Any]) -> str | None:
        if frame["type"] == "done":
            gateway.disconnect(cid)
            return GONE
        return None

    gateway.management.on_post = disconnect_on_done
    turn_id = str(uuid.uuid4())
    # WHEN the turn runs
    gateway.send(connection, chat("remember: committed before the client left", turn_id))
    # THEN the commit stands (GET /turns/{turn_id} would say committed)
    assert memory_entries(gateway, dynamodb_client, dynamodb_env) == [
        "committed before the client left"
    ]
    assert ledger_status(ledger_items, turn_id) == "committed"


def test_a_cancel_frame_stops_the_running_turn_from_committing(
    gateway: WebSocketGateway, dynamodb_client: Any, dynamodb_env: Any, ledger_items: Any
) -> None:
    # GIVEN a turn that has staged its write and is posting its delta (held there)
    connection = gateway.connect()
    posting, release = threading.Event(), threading.Event()

    def hold_delta(cid: str, frame: dict[str, Any]) -> str | None:
        if frame["type"] == "delta":
            posting.set()
            release.wait(10)
        return None

    gateway.management.on_post = hold_delta
    turn_id = str(uuid.uuid4())
    runner = threading.Thread(
        target=gateway.send, args=(connection, chat("remember: cancelled mid-stream", turn_id))
    )
    runner.start()
    assert posting.wait(10)
    # WHEN the client sends a cancel frame on its connection
    gateway.management.on_post = lambda cid, frame: None
    gateway.send(connection, {"action": "cancel", "turn_id": turn_id})
    release.set()
    runner.join(10)
    # THEN the cancel is acknowledged, the turn ends cancelled and nothing is committed
    frames = gateway.management.frames_of(connection)
    assert {"type": "cancelled", "turn_id": turn_id, "status": "cancelled"} in frames
    [done] = [f for f in frames if f["type"] == "done"]
    assert done["memory"]["status"] == "cancelled"
    assert memory_entries(gateway, dynamodb_client, dynamodb_env) == []
    assert ledger_status(ledger_items, turn_id) == "cancelled"


def test_a_slow_consumer_still_gets_every_frame_in_order_and_one_commit(
    gateway: WebSocketGateway, dynamodb_client: Any, dynamodb_env: Any, ledger_items: Any
) -> None:
    # GIVEN a client whose every frame takes a while to be accepted
    gateway.management.post_delay_s = 0.2
    connection = gateway.connect()
    turn_id = str(uuid.uuid4())
    # WHEN it streams a turn
    gateway.send(connection, chat("remember: slow readers are served too", turn_id))
    # THEN the frames are complete and in order, and the turn committed once
    kinds = [f["type"] for f in gateway.management.frames_of(connection)]
    assert kinds[0] == "started"
    assert kinds[-1] == "done"
    assert "delta" in kinds
    assert memory_entries(gateway, dynamodb_client, dynamodb_env) == ["slow readers are served too"]
    assert ledger_status(ledger_items, turn_id) == "committed"


def test_two_streams_of_one_user_on_two_connections_lose_nothing(
    gateway: WebSocketGateway, dynamodb_client: Any, dynamodb_env: Any
) -> None:
    # GIVEN one user on two connections (a phone and a laptop)
    first, second = gateway.connect(), gateway.connect()
    facts = [f"fact {i} from a parallel stream" for i in range(4)]
    # WHEN both stream turns at the same time, each adding facts
    threads = [
        threading.Thread(target=gateway.send, args=(connection, chat(f"remember: {fact}")))
        for connection, fact in zip([first, second, first, second], facts, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    # THEN every fact is committed
    assert sorted(memory_entries(gateway, dynamodb_client, dynamodb_env)) == sorted(facts)
    done = [
        f
        for connection in (first, second)
        for f in gateway.management.frames_of(connection, "done")
    ]
    assert [f["memory"]["status"] for f in done] == ["committed"] * 4


def test_the_disconnect_fence_touches_only_its_own_connection(
    gateway: WebSocketGateway, ledger_items: Any, dynamodb_client: Any, dynamodb_env: Any
) -> None:
    # GIVEN one user with an open turn on another connection (opened, not yet committed)
    from agent_memory.repository import LedgerRepository

    repository = LedgerRepository(dynamodb_client, dynamodb_env.turn_ledger)
    other_turn, own_turn = str(uuid.uuid4()), str(uuid.uuid4())
    repository.open_turn(USER_ID, other_turn, 2**62, 0, connection_id="other-connection")
    connection = gateway.connect()
    repository.open_turn(USER_ID, own_turn, 2**62, 0, connection_id=connection)
    # WHEN this connection closes
    gateway.disconnect(connection)
    # THEN only its own turn is fenced
    assert ledger_status(ledger_items, own_turn) == "discarded"
    assert ledger_status(ledger_items, other_turn) == "open"


def test_bad_frames_get_an_error_frame_stage_nothing_and_the_connection_stays_usable(
    gateway: WebSocketGateway, ledger_items: Any, dynamodb_client: Any, dynamodb_env: Any
) -> None:
    connection = gateway.connect()
    secret = "SENTINEL-bad-frame-content"
    bad_frames = {
        "not json": f"{{not json {secret}",
        "unknown action": json.dumps({"action": "delete_everything", "note": secret}),
        "no action": json.dumps({"message": secret}),
        "a user named": json.dumps(chat(f"remember: {secret}", user_id="mallory")),
        "over the message limit": json.dumps(chat(secret + "x" * 16_001)),
        "too much history": json.dumps(
            chat(secret, history=[{"role": "user", "content": "x"}] * 41)
        ),
        "bad turn id": json.dumps(chat(f"remember: {secret}", turn_id="not-a-uuid")),
        "cancel without a turn id": json.dumps({"action": "cancel"}),
        "a json array": json.dumps([{"action": "chat"}]),
    }
    codes = {}
    for name, text in bad_frames.items():
        # WHEN the client sends a bad frame
        response = gateway.send(connection, text)
        frames = gateway.management.frames_of(connection)
        # THEN it gets one error frame that quotes nothing of the frame
        assert response == {"statusCode": 200}, name
        assert frames[-1]["type"] == "error", name
        assert secret not in json.dumps(frames[-1]), name
        codes[name] = frames[-1]["error"]["code"]
    assert codes["not json"] == "invalid_json"
    assert codes["unknown action"] == codes["no action"] == "unknown_action"
    assert codes["bad turn id"] == "invalid_turn_id"
    assert {codes["a user named"], codes["over the message limit"]} == {"invalid_frame"}
    # AND nothing was staged or committed
    assert ledger_items() == []
    assert memory_entries(gateway, dynamodb_client, dynamodb_env) == []
    # AND the same connection still streams a turn
    gateway.send(connection, chat("remember: still usable"))
    assert gateway.management.frames_of(connection)[-1]["memory"]["status"] == "committed"


def test_a_read_only_streamed_turn_costs_one_request_and_a_writing_one_three(
    gateway: WebSocketGateway, monkeypatch: Any
) -> None:
    # GIVEN the process-wide DynamoDB clients counted per request
    from agent_memory.repository import clients

    counted: list[str] = []
    for transactions in (False, True):
        client = clients._PROCESS_CLIENTS.get(transactions=transactions)
        client.meta.events.register(
            "before-send.dynamodb.*",
            lambda request, **_: counted.append(request.headers["X-Amz-Target"].decode()),
        )
    connection = gateway.connect()
    # WHEN a read-only turn and a writing turn stream
    gateway.send(connection, chat("hello there"))
    read_only = list(counted)
    counted.clear()
    gateway.send(connection, chat("remember: three requests"))
    # THEN no connection lookup is made: 1 and 3 DynamoDB requests
    assert [t.split(".")[-1] for t in read_only] == ["Query"]
    assert [t.split(".")[-1] for t in counted] == ["Query", "PutItem", "TransactWriteItems"]


def test_an_unexpected_failure_ends_the_stream_with_an_error_frame_and_commits_nothing(
    gateway: WebSocketGateway,
    dynamodb_client: Any,
    dynamodb_env: Any,
    ledger_items: Any,
    monkeypatch: Any,
) -> None:
    # GIVEN a turn whose connection check breaks in an unforeseen way (after staging)
    from agent_memory.service import streaming

    def broken(self: Any) -> None:
        raise KeyError("SENTINEL-internal-detail")

    monkeypatch.setattr(streaming.ConnectionSink, "confirm_open", broken)
    connection = gateway.connect()
    turn_id = str(uuid.uuid4())
    # WHEN it streams
    gateway.send(connection, chat("remember: broken on the way", turn_id))
    # THEN the client gets an error frame without internals, and nothing is committed
    last = gateway.management.frames_of(connection)[-1]
    assert last["type"] == "error"
    assert last["turn_id"] == turn_id
    assert last["error"]["code"] == "internal_error"
    assert "SENTINEL" not in json.dumps(last)
    assert memory_entries(gateway, dynamodb_client, dynamodb_env) == []
    assert ledger_status(ledger_items, turn_id) == "discarded"
