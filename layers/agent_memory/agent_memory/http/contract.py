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
    "committed",
    "proposed",
    "read_only",
    "unchanged",
    "conflict",
    "cancelled",
    "expired",
    "unavailable",
    "disabled",
    "error",
]
WriteModeName = Literal["auto", "approve", "read_only"]
ChangeSource = Literal["chat", "edit", "undo", "approval"]
ProvenanceSource = Literal["chat", "edit", "undo", "approval", "unknown"]
MAX_HISTORY_PAGE = 50
DEFAULT_HISTORY_PAGE = 20


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
    commit_id: str | None = Field(
        default=None,
        description="The history record of a commit that changed memory (POST /memory/undo).",
    )
    proposal_id: str | None = Field(
        default=None, description="The proposal an approve-mode turn left for the user."
    )
    user: StoreUsage
    memory: StoreUsage


class ChatResponse(BaseModel):
    turn_id: str
    reply: str
    memory: MemoryOutcomeBody


class EntryProvenance(BaseModel):
    source: ProvenanceSource = Field(
        description="Who last wrote the entry; unknown: written before provenance was kept."
    )
    turn_id: str | None = None
    updated_at: int = Field(description="Epoch milliseconds.")
    withheld: bool = Field(
        default=False,
        description="The entry fails the current memory safety rules and is hidden from the "
        "model; remove or rewrite it.",
    )


class MemoryDocument(BaseModel):
    entries: list[str]
    chars: int
    limit: int
    provenance: list[EntryProvenance] = Field(
        default_factory=list, description="One item per entry, aligned with entries."
    )


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


class UndoRequest(_Strict):
    commit_id: str = Field(min_length=1, max_length=64)


class Change(BaseModel):
    target: Literal["user", "memory"]
    action: Literal["add", "replace", "remove"]
    before: str | None = None
    after: str | None = None


class HistoryEntry(BaseModel):
    commit_id: str
    source: ChangeSource
    turn_id: str | None = None
    committed_at: int = Field(description="Epoch milliseconds.")
    changes: list[Change]


class HistoryResponse(BaseModel):
    items: list[HistoryEntry]
    next_cursor: str | None = None


class WriteModeSettings(_Strict):
    write_mode: WriteModeName = "auto"


class ProposalBody(BaseModel):
    proposal_id: str
    turn_id: str
    created_at: int = Field(description="Epoch milliseconds.")
    expires_at: int = Field(description="Epoch milliseconds.")
    operations: list[OperationBody]


class ProposalsResponse(BaseModel):
    items: list[ProposalBody]


class CancelResponse(BaseModel):
    turn_id: str
    status: Literal["cancelled", "expired"]


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorResponse(BaseModel):
    error: ErrorDetail
