"""Errors of the WebSocket capability. Messages are constants: they never quote a frame."""

from __future__ import annotations

from agent_memory.exceptions import AgentMemoryError


class WebSocketError(AgentMemoryError):
    """Base of the WebSocket capability's errors; ``code`` is a stable machine code."""

    code = "websocket_error"


class ConnectionGoneError(WebSocketError):
    """The client's connection is gone (``GoneException``, 410): post nothing more."""

    code = "connection_gone"


class ConnectionPostError(WebSocketError):
    """The management API refused or failed a post for another reason (throttled, too big,
    unreachable): the frame is lost, the connection may still be there."""

    code = "post_failed"


class FrameError(WebSocketError):
    """A client frame that is not acceptable: the client gets an error frame with this code
    and message, nothing else happens, and the connection stays usable."""

    def __init__(self, code: str, message: str, *, turn_id: str | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.message = message
        self.turn_id = turn_id
