"""The HTTP API contract (DESIGN.md "HTTP API contract"): request and response bodies.

These models are the single source of the OpenAPI document in ``docs/openapi.json``.
Request models forbid unknown fields, so a body cannot smuggle an identity (``user_id``,
``sub``) past the contract: the owner of memory comes from the authorizer only.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_MESSAGE_CHARS = 16_000
MAX_HISTORY_ITEMS = 40
MAX_BODY_BYTES = 1_048_576

MemoryStatusName = Literal[
    "committed", "unchanged", "conflict", "cancelled", "expired", "unavailable", "disabled", "error"
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class HistoryItem(_Strict):
    role: Literal["user", "assistant"]
    content: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)


class ChatRequest(_Strict):
    message: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
    history: list[HistoryItem] = Field(default_factory=list, max_length=MAX_HISTORY_ITEMS)


class StoreUsage(BaseModel):
    chars: int
    limit: int


class MemoryOutcomeBody(BaseModel):
    status: MemoryStatusName
    operations: int = Field(
        description="Operations staged by the turn (committed only if status is committed)."
    )
    reason: str | None = Field(
        default=None, description="A machine-readable reason code, when useful."
    )
    user: StoreUsage
    memory: StoreUsage


class ChatResponse(BaseModel):
    turn_id: str
    reply: str
    memory: MemoryOutcomeBody


class MemoryDocument(BaseModel):
    entries: list[str]
    chars: int
    limit: int


class MemoryDocumentsResponse(BaseModel):
    user: MemoryDocument
    memory: MemoryDocument


class OperationBody(_Strict):
    """One operation, with the memory tool's exact contract."""

    target: Literal["user", "memory"]
    action: Literal["add", "replace", "remove"]
    match: str | None = None
    content: str | None = None


class PatchMemoryRequest(_Strict):
    operations: list[OperationBody] = Field(min_length=1, max_length=20)


class CancelResponse(BaseModel):
    turn_id: str
    status: Literal["cancelled", "expired"]


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorResponse(BaseModel):
    error: ErrorDetail
