"""The HTTP API contract and the handlers' shared resolver."""

from __future__ import annotations

from agent_memory.http.contract import (
    MAX_BODY_BYTES,
    ChatRequest,
    ChatResponse,
    MemoryDocumentsResponse,
    PatchMemoryRequest,
)
from agent_memory.http.exceptions import ApiError
from agent_memory.http.resolver import authenticated_subject, build_resolver, error_response

__all__ = [
    "MAX_BODY_BYTES",
    "ApiError",
    "ChatRequest",
    "ChatResponse",
    "MemoryDocumentsResponse",
    "PatchMemoryRequest",
    "authenticated_subject",
    "build_resolver",
    "error_response",
]
