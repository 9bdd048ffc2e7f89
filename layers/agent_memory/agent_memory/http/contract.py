"""The HTTP API contract (DESIGN.md "HTTP API contract"): request and response bodies.

These models are the single source of the OpenAPI document in ``docs/openapi.json``.
Request models forbid unknown fields, so a body cannot smuggle an identity (``user_id``,
``sub``) past the contract: the owner of memory comes from the authorizer only.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from agent_memory.domain.exceptions import ErrorCode

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
# The ``error.code`` of every error body the API sends (handlers, the resolver, and the
# local gateway where API Gateway itself answers). tests/unit/http/test_http_error_codes.py
# reads the sources and fails when a code is emitted that is not listed here, or listed and
# no longer emitted. A 422 of a memory rule carries a domain ``ErrorCode`` instead.
ApiErrorCode = Literal[
    "already_committed",
    "bad_request",
    "body_too_large",
    "client_disconnected",
    "commit_failed",
    "commit_not_found",
    "conflict",
    "edit_cancelled",
    "edit_outcome_unknown",
    "edit_timeout",
    "idempotency_key_reused",
    "internal_error",
    "invalid_commit_id",
    "invalid_cursor",
    "invalid_idempotency_key",
    "invalid_json",
    "invalid_operations",
    "invalid_proposal_id",
    "invalid_request",
    "invalid_turn_id",
    "ledger_unavailable",
    "memory_disabled",
    "memory_forgotten",
    "memory_unavailable",
    "method_not_allowed",
    "model_answer_cut_off",
    "model_answer_refused",
    "model_error",
    "model_loop_limit",
    "not_found",
    "proposal_conflict",
    "proposal_not_found",
    "throttled",
    "timeout",
    "turn_cancelled",
    "turn_in_progress",
    "turn_not_found",
    "turn_timeout",
    "unauthenticated",
    "unavailable",
    "undo_conflict",
    "unsupported_media_type",
]
ERROR_CODES: tuple[str, ...] = tuple(sorted({*get_args(ApiErrorCode), *ErrorCode}))
MAX_HISTORY_PAGE = 50
DEFAULT_HISTORY_PAGE = 20


# Every body's validator is built on first use, not at import: a function uses a few of these
# models (chat two bodies; the memory API those of the route it serves), and building them all
# at import was a measurable part of every cold start (issue 13).
class _Body(BaseModel):
    model_config = ConfigDict(defer_build=True)


class _Strict(_Body):
    model_config = ConfigDict(extra="forbid", frozen=True)


class HistoryItem(_Strict):
    role: Literal["user", "assistant"]
    content: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)


class ChatRequest(_Strict):
    message: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
    history: list[HistoryItem] = Field(default_factory=list, max_length=MAX_HISTORY_ITEMS)


class StoreUsage(_Body):
    chars: int
    limit: int


class MemoryOutcomeBody(_Body):
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


class ChatResponse(_Body):
    turn_id: str
    reply: str
    memory: MemoryOutcomeBody


class EntryProvenance(_Body):
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


class MemoryDocument(_Body):
    entries: list[str]
    chars: int
    limit: int
    provenance: list[EntryProvenance] = Field(
        default_factory=list, description="One item per entry, aligned with entries."
    )


class MemoryDocumentsResponse(_Body):
    user: MemoryDocument
    memory: MemoryDocument


class AddOperation(_Strict):
    """Add ``content`` as a new entry of ``target``."""

    target: Literal["user", "memory"]
    action: Literal["add"]
    content: str


class ReplaceOperation(_Strict):
    """Replace the one entry of ``target`` that contains ``match`` with ``content``."""

    target: Literal["user", "memory"]
    action: Literal["replace"]
    match: str
    content: str


class RemoveOperation(_Strict):
    """Remove the one entry of ``target`` that contains ``match``."""

    target: Literal["user", "memory"]
    action: Literal["remove"]
    match: str


# One operation with the memory tool's exact contract: ``action`` says which fields it needs
# (a discriminated union, so a generated client gets one type per action).
OperationBody = Annotated[
    AddOperation | ReplaceOperation | RemoveOperation, Field(discriminator="action")
]


class PatchMemoryRequest(_Strict):
    operations: list[OperationBody] = Field(min_length=1, max_length=20)


class UndoRequest(_Strict):
    commit_id: str = Field(min_length=1, max_length=64)


class Change(_Body):
    target: Literal["user", "memory"]
    action: Literal["add", "replace", "remove"]
    before: str | None = None
    after: str | None = None


class HistoryEntry(_Body):
    commit_id: str
    source: ChangeSource
    turn_id: str | None = None
    committed_at: int = Field(description="Epoch milliseconds.")
    changes: list[Change]


class HistoryResponse(_Body):
    items: list[HistoryEntry]
    next_cursor: str | None = None


class WriteModeSettings(_Strict):
    write_mode: WriteModeName = "auto"


class ProposalBody(_Body):
    proposal_id: str
    turn_id: str
    created_at: int = Field(description="Epoch milliseconds.")
    expires_at: int = Field(description="Epoch milliseconds.")
    operations: list[OperationBody]


class ProposalsResponse(_Body):
    items: list[ProposalBody]


class CancelResponse(_Body):
    turn_id: str
    status: Literal["cancelled", "expired"]


TurnStatusName = Literal["open", "committed", "proposed", "cancelled", "expired", "discarded"]


class TurnStatusResponse(_Body):
    """What became of a turn's memory writes (the ledger's status)."""

    turn_id: str
    status: TurnStatusName


class ErrorDetail(_Body):
    code: str
    message: str


class ErrorResponse(_Body):
    error: ErrorDetail
