"""The unit of work of a chat turn: request scope, cancel flag, staging, commit protocol."""

from __future__ import annotations

from agent_memory.ledger.cancel import CancelFlag
from agent_memory.ledger.commit import commit_turn
from agent_memory.ledger.commit_request import CommitRecord, CommitRequest, operation_counts
from agent_memory.ledger.config import CHAT_OPEN_DELAY_MS, LedgerConfig
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
from agent_memory.ledger.stores import LedgerStore, MemoryStore
from agent_memory.ledger.turn import LedgerItemState, TurnSpec
from agent_memory.ledger.unit_of_work import MemoryStatus, TurnUnitOfWork

__all__ = [
    "CHAT_OPEN_DELAY_MS",
    "DEFAULT_RETRY_POLICY",
    "Action",
    "CancelFlag",
    "Classification",
    "CommitRecord",
    "CommitRequest",
    "LedgerConfig",
    "LedgerError",
    "LedgerItemState",
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
    "TurnSpec",
    "TurnUnitOfWork",
    "classify_cancellation",
    "commit_turn",
    "current_memory_request",
    "memory_scope",
    "operation_counts",
    "require_memory_request",
]
