"""A real WebSocket client (the ``websockets`` library) for the local stack's ``/ws``."""

from __future__ import annotations

import json
from typing import Any

from stack_support import RunningStack
from websockets.sync.client import ClientConnection, connect

SUBPROTOCOL = "agent-memory.v1"
OPEN_TIMEOUT_SECONDS = 20.0
FRAME_TIMEOUT_SECONDS = 20.0


def ws_url(stack: RunningStack, query: str = "") -> str:
    return f"ws://{stack.host}:{stack.port}/ws" + (f"?{query}" if query else "")


def bearer(token: str) -> list[str]:
    return [SUBPROTOCOL, f"bearer.{token}"]


def open_stream(
    stack: RunningStack,
    token: str | None,
    *,
    query: str = "",
    offered: list[str] | None = None,
    **options: Any,
) -> ClientConnection:
    """A connection offering ``agent-memory.v1`` and ``bearer.<token>``, or the ``offered``
    subprotocols (none at all when both are None)."""
    subprotocols: Any = offered if offered is not None else bearer(token) if token else None
    return connect(
        ws_url(stack, query),
        subprotocols=subprotocols,
        open_timeout=OPEN_TIMEOUT_SECONDS,
        **options,
    )


def chat_frame(message: str, **fields: Any) -> str:
    return json.dumps({"action": "chat", "message": message, **fields})


def next_frame(connection: ClientConnection, timeout: float = FRAME_TIMEOUT_SECONDS) -> Any:
    return json.loads(connection.recv(timeout=timeout))


def frames_until_end(
    connection: ClientConnection, timeout: float = FRAME_TIMEOUT_SECONDS
) -> list[dict[str, Any]]:
    """The frames up to and including the first ``done`` or ``error``."""
    frames: list[dict[str, Any]] = []
    while True:
        frame = next_frame(connection, timeout)
        frames.append(frame)
        if frame.get("type") in ("done", "error"):
            return frames


def streamed_turn(
    stack: RunningStack, token: str, message: str, **fields: Any
) -> list[dict[str, Any]]:
    """One turn on a connection of its own, read to its end."""
    with open_stream(stack, token) as connection:
        connection.send(chat_frame(message, **fields))
        return frames_until_end(connection)
