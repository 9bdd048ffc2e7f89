"""Errors of the DynamoDB adapters.

Every error carries a short machine ``code`` (a DynamoDB error code or one of ours) and a
message that never quotes memory content: callers may log them and put the code in an
outcome's ``reason``. The environment not naming the tables is the package's
``ConfigurationError`` (re-exported here), not a failed request.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agent_memory.exceptions import AgentMemoryError, ConfigurationError


class RepositoryError(AgentMemoryError):
    """A DynamoDB request failed; ``code`` says how (never the content involved)."""

    def __init__(self, code: str, message: str | None = None) -> None:
        super().__init__(message or code)
        self.code = code


class MemoryUnavailableError(RepositoryError):
    """The memory documents could not be loaded; the turn must not write."""


class UnknownSchemaVersionError(MemoryUnavailableError):
    """A stored document has a ``schema_version`` this code does not know.

    Its content is never overwritten: the turn treats memory as unavailable.
    """

    def __init__(self, target: str, version: object) -> None:
        super().__init__(
            "unknown_schema_version",
            f"document {target!r} has schema_version {version!r}, newer than this code knows",
        )
        self.target = target
        self.version = version


class CorruptDocumentError(MemoryUnavailableError):
    """A stored document cannot be read (missing attributes or unparsable content)."""

    def __init__(self, target: str) -> None:
        super().__init__("corrupt_document", f"document {target!r} cannot be read")
        self.target = target


class RetryableError(RepositoryError):
    """Throttling, a conflicting transaction, or a same-token transaction still in progress:
    the very same request may be sent again after a short backoff."""


class TransportError(RepositoryError):
    """The request may have been sent but no answer arrived (timeout, connection lost).

    The outcome is ambiguous: the request may or may not have been applied.
    """


class TransactionCancelledError(RepositoryError):
    """``TransactWriteItems`` was cancelled; ``reasons`` holds one code per item, in order.

    A code is ``"None"`` for an item that did not cause the cancellation. ``items`` holds,
    per item in the same order, the stored item DynamoDB returned for a failed condition
    (``ReturnValuesOnConditionCheckFailure=ALL_OLD``; ``None`` when absent or not asked for).
    Items may hold memory content: they never go into the message.
    """

    def __init__(
        self,
        reasons: tuple[str, ...],
        items: tuple[Mapping[str, Any] | None, ...] = (),
    ) -> None:
        super().__init__("TransactionCanceled", f"transaction cancelled: {list(reasons)}")
        self.reasons = reasons
        self.items = items or tuple(None for _ in reasons)


class TurnExistsError(RepositoryError):
    """The ledger item of this turn already exists (opened, cancelled or reused turn id)."""

    def __init__(self) -> None:
        super().__init__("turn_exists", "the ledger item of this turn already exists")


class AlreadyCommittedError(RepositoryError):
    """The turn has committed: it can no longer be cancelled."""

    def __init__(self) -> None:
        super().__init__("already_committed", "the turn has already committed")


class DeadlineTooCloseError(RepositoryError):
    """Not sent: no attempt could end before the caller's deadline."""

    def __init__(self) -> None:
        super().__init__("deadline_too_close")


__all__ = [
    "AlreadyCommittedError",
    "ConfigurationError",
    "CorruptDocumentError",
    "DeadlineTooCloseError",
    "MemoryUnavailableError",
    "RepositoryError",
    "RetryableError",
    "TransactionCancelledError",
    "TransportError",
    "TurnExistsError",
    "UnknownSchemaVersionError",
]
