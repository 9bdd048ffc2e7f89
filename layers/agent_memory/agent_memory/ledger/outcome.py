"""The memory outcome of a turn: a small typed value with counts and usage, never content."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from agent_memory.domain import LIMITS, ErrorCode, Provenance, Snapshot, Target

OutcomeStatus = Literal[
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


# The ``reason`` codes the ledger, the service and the repositories give an outcome.
# tests/unit/http/test_http_error_codes.py reads the sources and fails when one is given
# that is not listed here (or listed and given nowhere). A replay that broke a memory rule
# gives the domain's ``ErrorCode``.
OutcomeReason = Literal[
    "already_committed",
    "cancel_flag",
    "client_disconnected",
    "corrupt_document",
    "deadline_passed",
    "deadline_too_close",
    "ledger_missing",
    "ledger_unavailable",
    "load_failed",
    "memory_forgotten",
    "model_answer_cut_off",
    "model_answer_refused",
    "model_error",
    "model_loop_limit",
    "outcome_unknown",
    "proposal_missing",
    "too_many_replays",
    "turn_cancelled",
    "turn_discarded",
    "turn_exists",
    "turn_expired",
    "turn_failed",
    "turn_id_reused",
    "turn_superseded",
    "turn_timeout",
    "unexpected_error",
    "unknown_schema_version",
]
# DynamoDB's and botocore's own codes (an open set) stay in logs and metrics; a client sees
# this instead: it can only retry or not, and the status already says which.
STORAGE_ERROR = "storage_error"
OUTCOME_REASONS: tuple[str, ...] = tuple(
    sorted({*get_args(OutcomeReason), *ErrorCode, STORAGE_ERROR})
)


def public_reason(reason: str | None) -> str | None:
    """The reason as a client sees it: one of ``OUTCOME_REASONS``."""
    if reason is None or reason in OUTCOME_REASONS:
        return reason
    return STORAGE_ERROR


@dataclass(frozen=True)
class TargetUsage:
    chars: int
    limit: int

    @classmethod
    def of(cls, snapshot: Snapshot | None, target: Target) -> TargetUsage:
        return cls(chars=snapshot.chars(target) if snapshot else 0, limit=LIMITS[target])


@dataclass(frozen=True)
class MemoryOutcome:
    """What became of the turn's memory.

    ``operations`` is the number of staged operations; ``retries`` counts resends of the same
    request, ``replays`` reloads that re-applied the batch, ``requests`` the DynamoDB calls the
    ledger made. ``reason`` is a short code (never an exception text or content).
    ``committed_snapshot`` is the documents exactly as a ``committed`` outcome wrote them
    (so a user's edit can answer without reading again), ``committed_provenance`` their
    entries' provenance; they are content, so they are kept out of ``repr``, ``to_dict``
    and ``metrics``. ``commit_id`` names the history record of a commit that changed memory
    (for an undo); ``proposal_id`` the proposal an ``approve``-mode turn left for the user.
    """

    status: OutcomeStatus
    user: TargetUsage
    memory: TargetUsage
    operations: int = 0
    reason: str | None = None
    retries: int = 0
    replays: int = 0
    requests: int = 0
    committed_snapshot: Snapshot | None = field(default=None, repr=False, compare=False)
    committed_provenance: Mapping[str, tuple[Provenance, ...]] | None = field(
        default=None, repr=False, compare=False
    )
    commit_id: str | None = None
    proposal_id: str | None = None

    @classmethod
    def of(
        cls,
        status: OutcomeStatus,
        snapshot: Snapshot | None,
        *,
        operations: int = 0,
        reason: str | None = None,
        retries: int = 0,
        replays: int = 0,
        requests: int = 0,
        committed_snapshot: Snapshot | None = None,
    ) -> MemoryOutcome:
        return cls(
            status=status,
            user=TargetUsage.of(snapshot, "user"),
            memory=TargetUsage.of(snapshot, "memory"),
            operations=operations,
            reason=reason,
            retries=retries,
            replays=replays,
            requests=requests,
            committed_snapshot=committed_snapshot if status == "committed" else None,
        )

    @classmethod
    def disabled(cls, reason: str | None = None) -> MemoryOutcome:
        """The memory feature is off for this turn: nothing read, nothing written."""
        return cls.of("disabled", None, reason=reason)

    def to_dict(self) -> dict[str, Any]:
        """The ``memory`` object of the chat API response."""
        body: dict[str, Any] = {"status": self.status, "operations": self.operations}
        if self.reason is not None:
            body["reason"] = public_reason(self.reason)
        if self.commit_id is not None:
            body["commit_id"] = self.commit_id
        if self.proposal_id is not None:
            body["proposal_id"] = self.proposal_id
        body["user"] = {"chars": self.user.chars, "limit": self.user.limit}
        body["memory"] = {"chars": self.memory.chars, "limit": self.memory.limit}
        return body

    def metrics(self) -> dict[str, Any]:
        """Operational fields for logs and metrics (counts only)."""
        return {
            "outcome": self.status,
            "reason": self.reason,
            "operation_count": self.operations,
            "user_characters": self.user.chars,
            "memory_characters": self.memory.chars,
            "retry_count": self.retries,
            "replay_count": self.replays,
            "request_count": self.requests,
        }
