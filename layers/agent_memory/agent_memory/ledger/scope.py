"""The request scope: the authenticated identity bound outside the model.

The memory tool never takes a user id; it acts for whoever the request scope names. The
scope lives in a ContextVar, so concurrent requests (threads or tasks) never see each
other's identity.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from agent_memory.ledger.exceptions import MemoryScopeError


@dataclass(frozen=True)
class MemoryRequest:
    user_id: str
    writes_enabled: bool


current_memory_request: ContextVar[MemoryRequest | None] = ContextVar(
    "current_memory_request", default=None
)


@contextmanager
def memory_scope(user_id: str, writes_enabled: bool) -> Iterator[MemoryRequest]:
    """Bind the verified user (and whether memory may be written) for this request."""
    if not user_id:
        raise MemoryScopeError("a memory scope needs a user id")
    request = MemoryRequest(user_id=user_id, writes_enabled=writes_enabled)
    token = current_memory_request.set(request)
    try:
        yield request
    finally:
        current_memory_request.reset(token)


def require_memory_request() -> MemoryRequest:
    """The active scope; ``MemoryScopeError`` outside one."""
    request = current_memory_request.get()
    if request is None:
        raise MemoryScopeError("no memory scope is active")
    return request
