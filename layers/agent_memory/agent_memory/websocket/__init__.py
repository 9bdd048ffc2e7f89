"""The WebSocket API's edge: client and server frames, the connection (management API)."""

from __future__ import annotations

from agent_memory.websocket.connection import (
    ENV_MANAGEMENT_ENDPOINT,
    Connection,
    ManagementApiConnection,
    connection_for,
    management_endpoint,
    reset_management_clients,
)
from agent_memory.websocket.exceptions import (
    ConnectionGoneError,
    ConnectionPostError,
    FrameError,
    WebSocketError,
)
from agent_memory.websocket.frames import (
    CLOSE_MESSAGE_TOO_BIG,
    MAX_MESSAGE_BYTES,
    CancelFrame,
    ChatFrame,
    parse_frame,
)

__all__ = [
    "CLOSE_MESSAGE_TOO_BIG",
    "ENV_MANAGEMENT_ENDPOINT",
    "MAX_MESSAGE_BYTES",
    "CancelFrame",
    "ChatFrame",
    "Connection",
    "ConnectionGoneError",
    "ConnectionPostError",
    "FrameError",
    "ManagementApiConnection",
    "WebSocketError",
    "connection_for",
    "management_endpoint",
    "parse_frame",
    "reset_management_clients",
]
