"""Errors of the unit of work (they never quote memory content)."""

from __future__ import annotations

from agent_memory.exceptions import AgentMemoryError


class LedgerError(AgentMemoryError):
    """Base of the ledger's errors."""


class TurnCancelledError(LedgerError):
    """The turn's cancel flag is set: stop before the next database step."""

    def __init__(self) -> None:
        super().__init__("the turn was cancelled")


class MemoryScopeError(LedgerError):
    """No memory request scope is active, or it belongs to another user."""
