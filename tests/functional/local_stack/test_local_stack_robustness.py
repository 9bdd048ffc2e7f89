"""Requests the local API refuses by itself, and the server serving on afterwards."""

from __future__ import annotations

import pytest
from stack_support import RunningStack, raw_request, read_status

from agent_memory.http.contract import MAX_BODY_BYTES

pytestmark = pytest.mark.slow


def test_oversized_bodies_get_413_without_being_read_and_the_server_keeps_serving(
    stack: RunningStack, alice: str
) -> None:
    # GIVEN a request that declares a body over 1 MiB but sends only its first bytes
    connection = stack.raw_connection()
    try:
        head = raw_request("POST", "/chat", token=alice, body=b"")
        head = head.replace(b"Content-Length: 0", f"Content-Length: {MAX_BODY_BYTES + 1}".encode())
        connection.sendall(head + b'{"message": "')

        # WHEN the server answers
        status = read_status(connection)
    finally:
        connection.close()

    # THEN it is a 413 before the body arrived
    assert status == 413

    # AND a client that sends the whole oversized body also reads the 413
    whole = stack.request(
        "POST",
        "/chat",
        token=alice,
        body=b"x" * (MAX_BODY_BYTES + 1),
        headers={"Content-Type": "application/json"},
    )
    assert (whole.status, whole.error_code) == (413, "body_too_large")
    assert stack.request("GET", "/memory", token=alice).status == 200


def test_unknown_routes_methods_and_bad_bodies_get_clear_json_errors(
    stack: RunningStack, alice: str
) -> None:
    # WHEN requests the API cannot serve arrive
    replies = {
        "unknown route": stack.request("GET", "/nowhere", token=alice),
        "unknown method": stack.request("PUT", "/memory", token=alice),
        "bad json": stack.request(
            "POST",
            "/chat",
            token=alice,
            body=b'{"message": ',
            headers={"Content-Type": "application/json"},
        ),
        "wrong content type": stack.request(
            "POST", "/chat", token=alice, body=b"message=hi", headers={"Content-Type": "text/plain"}
        ),
        "bad content length": stack.request(
            "POST", "/chat", token=alice, headers={"Content-Length": "ten"}
        ),
        "invalid turn id": stack.request("POST", "/turns/not-a-uuid/cancel", token=alice),
    }

    # THEN each gets its status and a JSON error body
    assert {name: reply.status for name, reply in replies.items()} == {
        "unknown route": 404,
        "unknown method": 405,
        "bad json": 400,
        "wrong content type": 415,
        "bad content length": 400,
        "invalid turn id": 400,
    }
    assert all(reply.error_code for reply in replies.values()), replies
    assert replies["unknown method"].headers["allow"] == "DELETE, GET, PATCH"

    # AND the server still serves
    assert stack.chat(alice, "hello").status == 200
