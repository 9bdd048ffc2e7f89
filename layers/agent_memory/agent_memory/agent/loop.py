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
    ModelResponse,
    StopReason,
    ToolCall,
    ToolResult,
    ToolResultsMessage,
    ToolSpec,
)
from agent_memory.models.exceptions import ModelError
from agent_memory.models.stream import StreamAccumulator, TextDelta, stream_of

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
class TurnModelStats:
    """What the turn's model calls cost and how they ended, kept whether or not the turn
    succeeds (the turn's telemetry record reads it): counts and codes only, never text."""

    model_calls: int = 0
    tool_calls: int = 0
    usage: dict[str, int] = field(default_factory=dict)
    used_fallback: bool = False
    """The primary failed and the fallback was tried."""
    fallback_answered: bool = False
    stop_reason: StopReason | None = None
    """How the latest model call ended; None while a call runs or after it failed."""
    streamed: list[str] = field(default_factory=list)
    """Text already sent to the client (streamed turns): once anything is, no fallback."""

    def add(self, response: ModelResponse) -> None:
        for key, value in response.usage.items():
            self.usage[key] = self.usage.get(key, 0) + value
        self.stop_reason = response.stop_reason


def _no_deadline() -> None:
    return None


def _no_budget() -> float | None:
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
    time_left: Callable[[], float | None] = _no_budget,
    stats: TurnModelStats | None = None,
    on_text: Callable[[str], None] | None = None,
) -> AgentResult:
    """Run the model until it answers, executing the tool calls it asks for.

    ``max_model_calls`` bounds each attempt; going past it raises ``AgentLoopLimitError``.
    On a retryable ``ModelError`` of the primary (an outage, throttling, a timeout: not a
    request the model refused as invalid, which a fallback would refuse too), ``fallback``
    restarts the turn from ``messages``, once, and only while ``has_staged_writes()`` is
    False: after a staged mutation a fallback could answer something that does not match it,
    so the error propagates and the turn fails.
    ``check_deadline`` runs before every model call and every tool call; what it raises
    propagates unchanged. ``time_left`` (seconds, or None) is each model call's budget.
    The final answer's ``stop_reason`` may be ``max_tokens`` or ``refused``: the caller
    decides what a cut-off or refused answer means for the turn.

    With ``on_text`` the turn streams: models are called through ``stream()`` and every
    piece of text goes to ``on_text`` as it arrives, in every round (text blocks separated
    by a newline); the reply is then exactly what was sent. Once anything was sent the
    fallback no longer runs: the client would see two answers.
    """
    if max_model_calls < 1:
        raise ValueError("max_model_calls must be at least 1")
    stats = TurnModelStats() if stats is None else stats
    attempt = _Attempt(
        system, tools, call_tool, max_model_calls, check_deadline, time_left, stats, set(), on_text
    )
    try:
        return attempt.run(model, messages)
    except ModelError as error:
        if fallback is None or not error.retryable or has_staged_writes() or stats.streamed:
            raise
    stats.used_fallback = True
    result = attempt.run(fallback, messages)
    stats.fallback_answered = True
    return result


@dataclass(frozen=True)
class _Attempt:
    system: str
    tools: Sequence[ToolSpec]
    call_tool: Callable[[ToolCall], ToolResult]
    max_model_calls: int
    check_deadline: Callable[[], None]
    time_left: Callable[[], float | None]
    stats: TurnModelStats
    call_ids: set[str]
    """Tool-call ids seen in this turn: a repeated one is renamed, so every result pairs
    with its own call."""
    on_text: Callable[[str], None] | None

    def run(self, model: ModelProvider, messages: Sequence[Message]) -> AgentResult:
        conversation = list(messages)
        known = {tool.name for tool in self.tools}
        for call_number in range(1, self.max_model_calls + 1):
            self.check_deadline()
            self.stats.model_calls += 1  # failed calls count too: they cost time
            self.stats.stop_reason = None
            response = self._call(model, tuple(conversation))
            self.stats.add(response)
            if response.stop_reason != "tool_use" or not response.tool_calls:
                return AgentResult(
                    reply=response.text if self.on_text is None else "".join(self.stats.streamed),
                    model_calls=self.stats.model_calls,
                    tool_calls=self.stats.tool_calls,
                    used_fallback=self.stats.used_fallback,
                    stop_reason=response.stop_reason,
                    usage=dict(self.stats.usage),
                )
            if call_number == self.max_model_calls:
                break  # its tool calls could only lead to one model call too many
            calls = tuple(self._unique(call) for call in response.tool_calls)
            results = tuple(self._execute(call, known) for call in calls)
            conversation.append(AssistantMessage(response.text, calls, response.reasoning))
            conversation.append(ToolResultsMessage(results))
        raise AgentLoopLimitError(self.max_model_calls)

    def _call(self, model: ModelProvider, conversation: Sequence[Message]) -> ModelResponse:
        budget = self.time_left()
        if self.on_text is None:
            return model.complete(
                system=self.system, messages=conversation, tools=self.tools, budget_seconds=budget
            )
        accumulator = StreamAccumulator()
        text_block: int | None = None
        for event in stream_of(
            model,
            system=self.system,
            messages=conversation,
            tools=self.tools,
            budget_seconds=budget,
        ):
            accumulator.add(event)
            if isinstance(event, TextDelta) and event.text:
                if event.index != text_block and self.stats.streamed:
                    self._send("\n")  # a new text block, as complete() joins them
                text_block = event.index
                self._send(event.text)
        return accumulator.result()

    def _send(self, text: str) -> None:
        assert self.on_text is not None
        self.on_text(text)
        self.stats.streamed.append(text)

    def _unique(self, call: ToolCall) -> ToolCall:
        call_id, suffix = call.id, 1
        while call_id in self.call_ids:
            suffix += 1
            call_id = f"{call.id}-{suffix}"
        self.call_ids.add(call_id)
        return call if call_id == call.id else replace(call, id=call_id)

    def _execute(self, call: ToolCall, known: set[str]) -> ToolResult:
        self.check_deadline()
        self.stats.tool_calls += 1
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
