"""The unit of work of a chat turn: request scope, cancel flag, staging, commit protocol."""

from __future__ import annotations

from agent_memory.ledger.cancel import CancelFlag
from agent_memory.ledger.commit import (
    CommitRecord,
    CommitRequest,
    LedgerStore,
    MemoryStore,
    commit_turn,
    operation_counts,
)
from agent_memory.ledger.exceptions import LedgerError, MemoryScopeError, TurnCancelledError
from agent_memory.ledger.outcome import MemoryOutcome, OutcomeStatus, TargetUsage
from agent_memory.ledger.retry import (
    DEFAULT_RETRY_POLICY,
    Action,
    Classification,
    RetryPolicy,
    classify_cancellation,
)
from agent_memory.ledger.scope import (
    MemoryRequest,
    current_memory_request,
    memory_scope,
    require_memory_request,
)
from agent_memory.ledger.turn_ledger import MemoryStatus, TurnLedger

__all__ = [
    "DEFAULT_RETRY_POLICY",
    "Action",
    "CancelFlag",
    "Classification",
    "CommitRecord",
    "CommitRequest",
    "LedgerError",
    "LedgerStore",
    "MemoryOutcome",
    "MemoryRequest",
    "MemoryScopeError",
    "MemoryStatus",
    "MemoryStore",
    "OutcomeStatus",
    "RetryPolicy",
    "TargetUsage",
    "TurnCancelledError",
    "TurnLedger",
    "classify_cancellation",
    "commit_turn",
    "current_memory_request",
    "memory_scope",
    "operation_counts",
    "require_memory_request",
]
