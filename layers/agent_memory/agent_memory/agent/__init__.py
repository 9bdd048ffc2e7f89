"""The bounded agent loop (model calls, tool calls, fallback)."""

from __future__ import annotations

from agent_memory.agent.exceptions import AgentError, AgentLoopLimitError
from agent_memory.agent.loop import (
    DEFAULT_MAX_MODEL_CALLS,
    AgentResult,
    TurnModelStats,
    run_agent,
)

__all__ = [
    "DEFAULT_MAX_MODEL_CALLS",
    "AgentError",
    "AgentLoopLimitError",
    "AgentResult",
    "TurnModelStats",
    "run_agent",
]
