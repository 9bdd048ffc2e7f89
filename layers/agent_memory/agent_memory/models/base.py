"""A provider-neutral conversation: what the agent loop and every model provider share."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

StopReason = Literal["end_turn", "tool_use", "max_tokens", "refused"]

RAW_ARGUMENTS_KEY = "__raw__"
"""Tool arguments the model produced that are not a JSON object arrive as
``{RAW_ARGUMENTS_KEY: "<the raw text>"}``. The call still reaches the tool, whose schema
(``operations`` is required) rejects it, so the model gets a clear error instead of the turn
failing."""


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ToolResult:
    tool_call_id: str
    content: dict[str, Any]
    is_error: bool = False


@dataclass(frozen=True)
class UserMessage:
    text: str


@dataclass(frozen=True)
class Reasoning:
    """A reasoning (extended thinking) block exactly as the model produced it.

    It goes back to the model unmodified in the next round of a tool-using turn (the provider
    checks the signature); it never reaches the client, a log or the memory.
    """

    text: str = ""
    signature: str | None = field(default=None, repr=False)
    redacted: bytes | None = field(default=None, repr=False)


@dataclass(frozen=True)
class AssistantMessage:
    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    reasoning: tuple[Reasoning, ...] = ()


@dataclass(frozen=True)
class ToolResultsMessage:
    results: tuple[ToolResult, ...]


Message = UserMessage | AssistantMessage | ToolResultsMessage


@dataclass(frozen=True)
class ModelResponse:
    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    stop_reason: StopReason = "end_turn"
    usage: dict[str, int] = field(default_factory=dict)
    """Token counts under neutral keys: ``input_tokens``, ``output_tokens``."""
    reasoning: tuple[Reasoning, ...] = ()


class ModelProvider(Protocol):
    """A chat model that may ask for tool calls.

    Implementations are shared by concurrent requests (module-level singletons in Lambda), so
    they hold configuration only: everything about a request arrives as arguments.
    """

    name: str

    def complete(
        self,
        *,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        budget_seconds: float | None = None,
    ) -> ModelResponse:
        """Answer the conversation; raise ``ModelError`` when the model cannot.

        ``budget_seconds`` is the wall-clock time this call may take from now, retries
        included (the time left before the turn's deadline). A call that runs out of it
        raises ``ModelDeadlineError``; ``None`` leaves the provider's own timeout in charge.
        """
        ...


def arguments_from_json(raw: str) -> dict[str, Any]:
    """Parse tool arguments; anything but a JSON object is kept raw (see RAW_ARGUMENTS_KEY)."""
    try:
        parsed = json.loads(raw)
    except (ValueError, RecursionError):
        return {RAW_ARGUMENTS_KEY: raw}
    if isinstance(parsed, dict):
        return parsed
    return {RAW_ARGUMENTS_KEY: raw}
