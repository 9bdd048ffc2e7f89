"""The HTTP layer's own error, for what only the edge decides (a route without a verified
identity); services raise ``ServiceError``s with a code instead (``service/exceptions.py``)."""

from __future__ import annotations

from agent_memory.exceptions import AgentMemoryError


class ApiError(AgentMemoryError):
    """An error the client should see, as ``{"error": {"code", "message"}}`` with ``status``.

    ``message`` is written for the client and never quotes request content.
    """

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.message = message
