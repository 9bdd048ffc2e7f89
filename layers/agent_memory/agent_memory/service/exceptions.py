"""Errors of the service layer. Those a client should see are ``ApiError``s (status, code,
message), so every handler renders them the same way; none quotes memory content."""

from __future__ import annotations

from agent_memory.http.exceptions import ApiError


class ServiceError(Exception):
    """Base of the service layer's internal errors."""


class ConfigurationError(ServiceError):
    """The environment does not describe a usable service (a deploy-time mistake)."""


class TurnFailedError(ApiError):
    """The turn produced no answer; nothing was committed."""

    def __init__(self, code: str, message: str, *, status: int = 502) -> None:
        super().__init__(status, code, message)


class ClientDisconnectedError(TurnFailedError):
    """A streamed turn's client left (a post failed with ``GoneException``, or the connection
    was gone before the commit): the turn commits nothing and no one is told."""

    def __init__(self) -> None:
        # 499 (client closed request): never rendered, there is no one left to answer.
        super().__init__(
            "client_disconnected", "The client disconnected; nothing was saved.", status=499
        )


class MemoryEditRejectedError(ApiError):
    """A user's own edit broke a memory rule (422) or no longer applies (409)."""
