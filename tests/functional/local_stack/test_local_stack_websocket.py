"""Streamed turns over the local stack's ``ws://HOST:PORT/ws``, with a real WebSocket client:
the handshake runs the real ``$connect`` authorizer, frames go to the real function in the
stack's execution environments, and the function posts back through the local management
API with the real boto3 client (DESIGN.md "Streaming turns (WebSocket)")."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from stack_support import Reply, RunningStack, new_turn_id, start_stack, wait_for
from stream_support import (
    SUBPROTOCOL,
    chat_frame,
    frames_until_end,
    next_frame,
    open_stream,
    streamed_turn,
)
from websockets.exceptions import ConnectionClosed, InvalidStatus

from agent_memory.http.contract import MAX_MESSAGE_CHARS
from agent_memory.websocket import MAX_MESSAGE_BYTES
from agent_memory_tools.dev_auth import DevIssuer

pytestmark = pytest.mark.slow

SLOW_SECONDS = 2.0


def _deltas(frames: list[dict[str, Any]]) -> str:
    return "".join(frame["text"] for frame in frames if frame["type"] == "delta")


def turn_status(stack: RunningStack, token: str, turn_id: str) -> Reply:
    return stack.request("GET", f"/turns/{turn_id}", token=token)


def _ledger_says(stack: RunningStack, token: str, turn_id: str, status: str) -> bool:
    reply = turn_status(stack, token, turn_id)
    return reply.status == 200 and reply.body == {"turn_id": turn_id, "status": status}


def _ended(stack: RunningStack, route: str) -> int:
    """How many invocations of a route have returned: the stack's access log has a line per
    invocation (the stack lives for the session, so tests compare counts)."""
    return stack.log().count(f"WS {route} -> ")


def _connections_settled(stack: RunningStack) -> bool:
    """Has every accepted connection's $disconnect returned? (A test's closed connection is
    disconnected after the test goes on, so a later test's counts could include it.)"""
    return _ended(stack, "$disconnect") >= stack.log().count("WS $connect -> 101")


def test_a_client_that_stays_sees_the_reply_streamed_and_memory_commits_once(
    stack: RunningStack, alice: str
) -> None:
    # GIVEN a connection offering agent-memory.v1 and the bearer subprotocol
    with open_stream(stack, alice) as connection:
        # WHEN a chat frame asks to remember a fact
        connection.send(chat_frame("remember: I take my tea without sugar"))
        frames = frames_until_end(connection)

    # THEN the server selected agent-memory.v1, the frames are started, deltas, done, the
    # deltas concatenated are the reply, and the fact is stored exactly once
    assert connection.subprotocol == SUBPROTOCOL
    kinds = [frame["type"] for frame in frames]
    assert (kinds[0], kinds[-1]) == ("started", "done"), kinds
    assert set(kinds[1:-1]) == {"delta"}, kinds
    done = frames[-1]
    assert {frame["turn_id"] for frame in frames} == {done["turn_id"]}
    assert _deltas(frames) == done["reply"] != ""
    assert done["memory"]["status"] == "committed"
    assert stack.memory(alice)["memory"] == ["I take my tea without sugar"]
    assert stack.cancel(alice, done["turn_id"]).status == 409  # committed, once
    # AND GET /turns/{turn_id} tells a client that lost the done frame that it committed
    assert _ledger_says(stack, alice, done["turn_id"], "committed")


def test_a_client_that_disconnects_mid_stream_commits_nothing(
    stack: RunningStack, alice: str
) -> None:
    # GIVEN a slow streamed turn that has staged a memory write (a streamed turn's ledger
    # item opens at its first staged write; the model then sleeps before its reply)
    turn_id = new_turn_id()
    assert wait_for(lambda: _connections_settled(stack), 15), stack.log()
    chats, disconnects = _ended(stack, "chat"), _ended(stack, "$disconnect")
    with open_stream(stack, alice) as connection:
        connection.send(
            chat_frame(f"remember: abandoned fact\nsimulate: sleep {SLOW_SECONDS}", turn_id=turn_id)
        )
        assert next_frame(connection)["type"] == "started"
        assert wait_for(lambda: _ledger_says(stack, alice, turn_id, "open"), 15)

        # WHEN the client drops the connection while the turn still runs
        connection.close()

    # THEN $disconnect fenced the turn: GET /turns/{turn_id} says discarded, nothing stored
    assert wait_for(lambda: _ended(stack, "$disconnect") > disconnects, 15), stack.log()
    assert "WS $disconnect -> 200" in stack.log()
    assert _ledger_says(stack, alice, turn_id, "discarded")
    assert stack.memory(alice)["memory"] == []
    # AND once the turn itself has ended (its next post found the connection gone), it is
    # still discarded and still committed nothing
    assert wait_for(lambda: _ended(stack, "chat") > chats, 30), stack.log()
    assert _ledger_says(stack, alice, turn_id, "discarded")
    assert stack.memory(alice)["memory"] == []
    assert stack.cancel(alice, turn_id).status == 200  # 409 would mean it had committed
    # a cancel now marks it cancelled (so no retry of it can ever commit), and stores nothing
    assert _ledger_says(stack, alice, turn_id, "cancelled")
    assert stack.memory(alice)["memory"] == []


def test_two_streams_of_one_user_on_two_connections_lose_nothing(
    stack: RunningStack, alice: str
) -> None:
    # GIVEN two connections of one user
    results: dict[str, list[dict[str, Any]]] = {}

    def run(fact: str) -> None:
        results[fact] = streamed_turn(stack, alice, f"remember: {fact}\nsimulate: sleep 0.5")

    threads = [threading.Thread(target=run, args=(fact,)) for fact in ("first", "second")]

    # WHEN both stream a turn at the same time
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    # THEN both committed, and both facts are there
    assert {fact: frames[-1]["memory"]["status"] for fact, frames in results.items()} == {
        "first": "committed",
        "second": "committed",
    }
    assert sorted(stack.memory(alice)["memory"]) == ["first", "second"]


@pytest.mark.parametrize(
    ("offered", "status"),
    [
        pytest.param(None, 401, id="no-subprotocol-header"),
        pytest.param([SUBPROTOCOL], 403, id="no-bearer-token"),
        pytest.param([SUBPROTOCOL, "bearer.not-a-jwt"], 403, id="bad-token"),
        pytest.param(["bearer.TOKEN"], 403, id="agent-memory-v1-not-offered"),
    ],
)
def test_a_missing_or_bad_token_refuses_the_handshake(
    stack: RunningStack, alice: str, offered: list[str] | None, status: int
) -> None:
    # GIVEN a handshake offering these subprotocols
    subprotocols = [p.replace("TOKEN", alice) for p in offered] if offered else None

    # WHEN the client connects
    with pytest.raises(InvalidStatus) as refused:
        open_stream(stack, None, offered=subprotocols)

    # THEN the handshake is refused with API Gateway's status and body
    response = refused.value.response
    assert response.status_code == status
    assert json.loads(response.body) == {
        "message": "Unauthorized" if status == 401 else "Forbidden"
    }


def test_a_token_in_the_query_string_is_refused(stack: RunningStack, alice: str) -> None:
    # GIVEN a valid token, offered as it should be AND in the query string
    # WHEN the client connects
    with pytest.raises(InvalidStatus) as refused:
        open_stream(stack, alice, query=f"token={alice}")

    # THEN the handshake is refused, and the token reached no log line
    assert refused.value.response.status_code == 403
    assert alice not in stack.log()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        pytest.param("this is not JSON", "invalid_json", id="not-json"),
        pytest.param(json.dumps({"action": "dance"}), "unknown_action", id="unknown-action"),
        pytest.param(json.dumps({"message": "no action"}), "unknown_action", id="no-action"),
        pytest.param(
            chat_frame("remember: " + "x" * MAX_MESSAGE_CHARS), "invalid_frame", id="over-limit"
        ),
        pytest.param(
            chat_frame("remember: planted for bob", user_id="bob"),
            "invalid_frame",
            id="names-a-user",
        ),
        pytest.param(chat_frame("hello", turn_id="not-a-uuid"), None, id="bad-turn-id"),
    ],
)
def test_a_bad_frame_gets_an_error_frame_and_the_connection_stays_usable(
    stack: RunningStack, alice: str, frame: str, code: str | None
) -> None:
    with open_stream(stack, alice) as connection:
        # WHEN a bad frame is sent
        connection.send(frame)
        error = next_frame(connection)
        # AND then a good one on the same connection
        connection.send(chat_frame("remember: after the bad frame"))
        frames = frames_until_end(connection)

    # THEN the bad frame got an error frame that quotes nothing of it, nothing was staged,
    # and the good turn committed on the same connection
    assert error["type"] == "error", error
    if code is not None:
        assert error["error"]["code"] == code
    assert "planted" not in json.dumps(error)
    assert "xxxx" not in json.dumps(error)
    assert frames[-1]["type"] == "done"
    assert frames[-1]["memory"]["status"] == "committed"
    assert stack.memory(alice)["memory"] == ["after the bad frame"]


def test_a_message_over_128_kb_closes_the_connection_with_1009(
    stack: RunningStack, alice: str
) -> None:
    # GIVEN an open connection
    with open_stream(stack, alice, max_size=None) as connection:
        # WHEN the client sends one byte more than API Gateway accepts
        connection.send(chat_frame("x" * MAX_MESSAGE_BYTES))
        # THEN the server closes it with 1009 (message too big)
        with pytest.raises(ConnectionClosed) as closed:
            connection.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1009
    # AND a new connection works
    assert streamed_turn(stack, alice, "hello")[-1]["type"] == "done"


def test_a_cancel_frame_stops_the_turn_from_committing(stack: RunningStack, alice: str) -> None:
    # GIVEN a slow streamed turn that has staged a memory write (its ledger item is open)
    turn_id = new_turn_id()
    disconnects = _ended(stack, "$disconnect")
    with open_stream(stack, alice) as connection:
        connection.send(
            chat_frame(f"remember: cancelled fact\nsimulate: sleep {SLOW_SECONDS}", turn_id=turn_id)
        )
        assert next_frame(connection)["type"] == "started"
        assert wait_for(lambda: _ledger_says(stack, alice, turn_id, "open"), 15)

        # WHEN the client sends a cancel frame for it on the same connection
        connection.send(json.dumps({"action": "cancel", "turn_id": turn_id}))
        frames = frames_until_end(connection)
        if "cancelled" not in {frame["type"] for frame in frames}:
            frames.append(next_frame(connection))  # the acknowledgement may come after done

    # THEN the cancel is acknowledged, the turn ends cancelled, and nothing is stored
    by_type = {frame["type"]: frame for frame in frames}
    assert by_type["cancelled"]["turn_id"] == turn_id
    assert by_type["done"]["memory"]["status"] == "cancelled"
    assert stack.memory(alice)["memory"] == []
    # AND GET /turns/{turn_id} says cancelled, also after the connection closed
    assert _ledger_says(stack, alice, turn_id, "cancelled")
    assert wait_for(lambda: _ended(stack, "$disconnect") > disconnects, 15), stack.log()
    assert _ledger_says(stack, alice, turn_id, "cancelled")


def test_another_users_streamed_turn_is_not_found(
    stack: RunningStack, alice: str, bob: str
) -> None:
    # GIVEN a streamed turn of A that committed
    frames = streamed_turn(stack, alice, "remember: I collect blue teapots")
    turn_id = frames[-1]["turn_id"]
    assert _ledger_says(stack, alice, turn_id, "committed")

    # WHEN B asks what became of it, and of a turn id nobody used
    asked = turn_status(stack, bob, turn_id)
    unknown = turn_status(stack, bob, new_turn_id())

    # THEN B gets the same 404 for both (nothing tells B that the id exists), and A's turn
    # is untouched
    assert asked.status == 404, asked
    assert (asked.status, asked.body) == (unknown.status, unknown.body)
    assert "teapots" not in json.dumps(asked.body)
    assert _ledger_says(stack, alice, turn_id, "committed")
    assert stack.memory(alice)["memory"] == ["I collect blue teapots"]


def test_the_management_api_answers_as_the_service_for_a_connection_that_is_gone(
    stack: RunningStack,
) -> None:
    # GIVEN the real apigatewaymanagementapi client pointed at the stack's management API
    client = boto3.client(
        "apigatewaymanagementapi",
        endpoint_url=f"{stack.url}/local",
        region_name="us-east-1",
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )

    # WHEN it posts to, checks and deletes a connection that is not (or no longer) open
    # THEN each raises the service's GoneException (410), as for a client that left
    for call in (
        lambda: client.post_to_connection(ConnectionId="gone-connection=", Data=b"{}"),
        lambda: client.get_connection(ConnectionId="gone-connection="),
        lambda: client.delete_connection(ConnectionId="gone-connection="),
    ):
        with pytest.raises(client.exceptions.GoneException) as gone:
            call()
        assert gone.value.response["ResponseMetadata"]["HTTPStatusCode"] == 410
    # AND a frame over 128 KB is refused as the service refuses it
    with pytest.raises(client.exceptions.PayloadTooLargeException):
        client.post_to_connection(ConnectionId="any=", Data=b"x" * (MAX_MESSAGE_BYTES + 1))


@pytest.fixture(scope="module")
def verbose_stack(
    tmp_path_factory: pytest.TempPathFactory, issuer_dir: Path
) -> Iterator[RunningStack]:
    """A stack that logs every turn (LOG_LEVEL=INFO), for the sentinel search."""
    running = start_stack(
        tmp_path_factory.mktemp("verbose-stack"), issuer_dir, extra_env={"LOG_LEVEL": "INFO"}
    )
    try:
        yield running
    finally:
        running.stop()


def test_no_token_or_memory_content_reaches_the_logs_of_a_streamed_turn(
    verbose_stack: RunningStack, issuer: DevIssuer
) -> None:
    # GIVEN a user whose token and facts are distinctive sentinels
    sentinel = f"sentinel-{uuid.uuid4().hex}"
    token = issuer.mint(f"sentinel-user-{uuid.uuid4().hex[:8]}")

    # WHEN it streams turns that write, fail, and disconnect, and sends a bad frame
    committed = streamed_turn(verbose_stack, token, f"remember: {sentinel} kept")
    failed = streamed_turn(verbose_stack, token, f"remember: {sentinel} lost\nsimulate: fail")
    with open_stream(verbose_stack, token) as connection:
        connection.send(json.dumps({"action": "chat", "message": sentinel, "user_id": sentinel}))
        next_frame(connection)
        connection.send(chat_frame(f"remember: {sentinel} dropped\nsimulate: sleep 1"))
        next_frame(connection)
    time.sleep(2.0)

    # THEN the turns ran as told, and no log line holds the token or the content
    assert committed[-1]["memory"]["status"] == "committed"
    assert failed[-1]["type"] == "error"
    log = verbose_stack.log()
    assert "WS chat -> 200" in log  # the turns were logged
    assert "memory turn" in log
    assert sentinel not in log
    assert token not in log
    assert token.split(".")[2] not in log  # not even the signature
