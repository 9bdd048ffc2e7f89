"""Errors of the memory rules (``AgentMemoryError``, the package's root, is re-exported).

Messages are written for the model and the user, and telemetry may log them: they never
quote entry content or match text, only positions, counts and categories.
"""

from __future__ import annotations

from enum import StrEnum

from agent_memory.domain.threats.threat_categories import ThreatCategory
from agent_memory.exceptions import AgentMemoryError


class ErrorCode(StrEnum):
    """Stable machine codes; being a StrEnum, each compares equal to its plain string."""

    NO_OPERATIONS = "no_operations"
    TOO_MANY_OPERATIONS = "too_many_operations"
    UNKNOWN_TARGET = "unknown_target"
    UNKNOWN_ACTION = "unknown_action"
    INVALID_FIELDS = "invalid_fields"
    EMPTY_ENTRY = "empty_entry"
    ENTRY_TOO_LONG = "entry_too_long"
    DELIMITER_IN_ENTRY = "delimiter_in_entry"
    CONTROL_CHARACTER = "control_character"
    RESERVED_TAG = "reserved_tag"
    THREAT_DETECTED = "threat_detected"
    NO_MATCH = "no_match"
    AMBIGUOUS_MATCH = "ambiguous_match"
    DUPLICATE_ENTRY = "duplicate_entry"
    CAPACITY_EXCEEDED = "capacity_exceeded"
    INVALID_ARGUMENTS = "invalid_arguments"
    GUARDRAIL_BLOCKED = "guardrail_blocked"
    GUARDRAIL_UNAVAILABLE = "guardrail_unavailable"


class MemoryValidationError(AgentMemoryError):
    """A proposed change breaks a memory rule; nothing was changed."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        operation_index: int | None = None,
        target: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.operation_index = operation_index
        self.target = target


class CapacityExceededError(MemoryValidationError):
    def __init__(self, target: str, chars: int, limit: int) -> None:
        super().__init__(
            ErrorCode.CAPACITY_EXCEEDED,
            f"After this batch the {target} store would hold {chars} characters; its limit "
            f"is {limit}. Nothing was changed. Consolidate in the same batch: replace entries "
            "with shorter ones or remove obsolete entries, then add.",
            target=target,
        )
        self.chars = chars
        self.limit = limit


class ThreatDetectedError(MemoryValidationError):
    def __init__(
        self,
        category: ThreatCategory,
        reason: str,
        *,
        operation_index: int | None,
        target: str | None,
    ) -> None:
        if operation_index is None and target is None:
            subject = (
                "The batch was rejected by the memory safety scan: read together with the "
                "other stored entries, the memory"
            )
        else:
            where = "" if operation_index is None else f"operations[{operation_index}]: "
            subject = f"{where}The entry was rejected by the memory safety scan"
        super().__init__(
            ErrorCode.THREAT_DETECTED,
            f"{subject} (category: {category}): {reason}. Nothing was changed.",
            operation_index=operation_index,
            target=target,
        )
        self.category = category
