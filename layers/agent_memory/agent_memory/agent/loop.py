"""The bounded agent loop: model calls, tool calls, and the fallback rule of the seed.

The loop keeps everything in locals: the same function serves concurrent turns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from agent_memory.agent.exceptions import AgentLoopLimitError
from agent_memory.models.base import (
    AssistantMessage,
    Message,
    ModelProvider,
    StopReason,
    ToolCall,
    ToolResult,
    ToolResultsMessage,
    ToolSpec,
)
from agent_memory.models.exceptions import ModelError

DEFAULT_MAX_MODEL_CALLS = 8


@dataclass(frozen=True)
class AgentResult:
    reply: str
    model_calls: int
    """Model calls made, failed ones and the fallback's included."""
    tool_calls: int
    used_fallback: bool
    stop_reason: StopReason
    usage: dict[str, int] = field(default_factory=dict)
    """Token counts summed over every model call of the turn (primary and fallback)."""


@dataclass
class _Counters:
    model_calls: int = 0
    tool_calls: int = 0
    usage: dict[str, int] = field(default_factory=dict)


def _no_deadline() -> None:
    return None


def run_agent(
    *,
    model: ModelProvider,
    fallback: ModelProvider | None,
    system: str,
    messages: Sequence[Message],
    tools: Sequence[ToolSpec],
    call_tool: Callable[[ToolCall], ToolResult],
    has_staged_writes: Callable[[], bool],
    max_model_calls: int = DEFAULT_MAX_MODEL_CALLS,
    check_deadline: Callable[[], None] = _no_deadline,
) -> AgentResult:
    """Run the model until it answers, executing the tool calls it asks for.

    ``max_model_calls`` bounds each attempt; going past it raises ``AgentLoopLimitError``.
    On a ``ModelError`` of the primary, ``fallback`` restarts the turn from ``messages``, once,
    and only while ``has_staged_writes()`` is False: after a staged mutation a fallback could
    answer something that does not match it, so the error propagates and the turn fails.
    ``check_deadline`` runs before every model call and every tool call; what it raises
    propagates unchanged.
    """
    if max_model_calls < 1:
        raise ValueError("max_model_calls must be at least 1")
    counters = _Counters()
    attempt = _Attempt(system, tools, call_tool, max_model_calls, check_deadline, counters)
    try:
        return attempt.run(model, messages, used_fallback=False)
    except ModelError:
        if fallback is None or has_staged_writes():
            raise
    return attempt.run(fallback, messages, used_fallback=True)


@dataclass(frozen=True)
class _Attempt:
    system: str
    tools: Sequence[ToolSpec]
    call_tool: Callable[[ToolCall], ToolResult]
    max_model_calls: int
    check_deadline: Callable[[], None]
    counters: _Counters

    def run(
        self, model: ModelProvider, messages: Sequence[Message], *, used_fallback: bool
    ) -> AgentResult:
        conversation = list(messages)
        known = {tool.name for tool in self.tools}
        for call_number in range(1, self.max_model_calls + 1):
            self.check_deadline()
            self.counters.model_calls += 1  # failed calls count too: they cost time
            response = model.complete(
                system=self.system, messages=tuple(conversation), tools=self.tools
            )
            for key, value in response.usage.items():
                self.counters.usage[key] = self.counters.usage.get(key, 0) + value
            if response.stop_reason != "tool_use" or not response.tool_calls:
                return AgentResult(
                    reply=response.text,
                    model_calls=self.counters.model_calls,
                    tool_calls=self.counters.tool_calls,
                    used_fallback=used_fallback,
                    stop_reason=response.stop_reason,
                    usage=dict(self.counters.usage),
                )
            if call_number == self.max_model_calls:
                break  # its tool calls could only lead to one model call too many
            results = tuple(self._execute(call, known) for call in response.tool_calls)
            conversation.append(AssistantMessage(response.text, response.tool_calls))
            conversation.append(ToolResultsMessage(results))
        raise AgentLoopLimitError(self.max_model_calls)

    def _execute(self, call: ToolCall, known: set[str]) -> ToolResult:
        self.check_deadline()
        self.counters.tool_calls += 1
        if call.name not in known:
            return ToolResult(
                call.id,
                {"error": "unknown_tool", "message": "No tool of this name is available."},
                is_error=True,
            )
        result = self.call_tool(call)
        if result.tool_call_id != call.id:
            result = replace(result, tool_call_id=call.id)
        return result
