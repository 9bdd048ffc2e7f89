"""Errors of the agent loop (content-free messages: they reach logs and traces)."""

from __future__ import annotations

from agent_memory.exceptions import AgentMemoryError


class AgentError(AgentMemoryError):
    """The agent loop could not finish the turn."""


class AgentLoopLimitError(AgentError):
    """The model kept asking for tools past the turn's budget of model calls."""

    def __init__(self, max_model_calls: int) -> None:
        super().__init__(f"The agent exceeded its limit of {max_model_calls} model calls.")
        self.max_model_calls = max_model_calls
