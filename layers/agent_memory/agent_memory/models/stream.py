"""Provider-neutral stream events and the one accumulator that folds them into a response.

Every provider's ``stream()`` yields these events; ``accumulate(provider.stream(...))`` equals
``provider.complete(...)`` for the same answer (the tests check it as a property). Blocks are
numbered by ``index`` as the provider numbers them (Bedrock's ``contentBlockIndex``); text
blocks have no start event, tool calls do; a tool call's arguments arrive as string fragments
and are parsed when its block stops (or when the stream ends: OpenAI has no block stops).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from agent_memory.models.base import (
    Message,
    ModelProvider,
    ModelResponse,
    Reasoning,
    StopReason,
    ToolCall,
    ToolSpec,
    arguments_from_json,
)


@dataclass(frozen=True)
class TextDelta:
    index: int
    text: str


@dataclass(frozen=True)
class ToolCallStart:
    index: int
    id: str
    name: str


@dataclass(frozen=True)
class ToolArgumentsDelta:
    index: int
    fragment: str


@dataclass(frozen=True)
class ReasoningDelta:
    index: int
    text: str = ""
    signature: str | None = field(default=None, repr=False)
    redacted: bytes | None = field(default=None, repr=False)


@dataclass(frozen=True)
class BlockStop:
    index: int


@dataclass(frozen=True)
class StopEvent:
    stop_reason: StopReason


@dataclass(frozen=True)
class UsageEvent:
    input_tokens: int = 0
    output_tokens: int = 0


StreamEvent = (
    TextDelta
    | ToolCallStart
    | ToolArgumentsDelta
    | ReasoningDelta
    | BlockStop
    | StopEvent
    | UsageEvent
)


@dataclass
class _ToolBlock:
    id: str
    name: str
    fragments: list[str] = field(default_factory=list)
    arguments: dict[str, object] | None = None

    def finish(self) -> None:
        if self.arguments is None:
            raw = "".join(self.fragments)
            self.arguments = arguments_from_json(raw) if raw.strip() else {}


@dataclass
class _ReasoningBlock:
    text: list[str] = field(default_factory=list)
    signature: str | None = None
    redacted: bytes | None = None


class StreamAccumulator:
    """Folds stream events into the ``ModelResponse`` that ``complete()`` would give."""

    def __init__(self) -> None:
        self._order: list[int] = []
        self._texts: dict[int, list[str]] = {}
        self._tools: dict[int, _ToolBlock] = {}
        self._reasoning: dict[int, _ReasoningBlock] = {}
        self._stop_reason: StopReason | None = None
        self._usage = {"input_tokens": 0, "output_tokens": 0}

    def add(self, event: StreamEvent) -> None:
        if isinstance(event, TextDelta):
            self._seen(event.index)
            self._texts.setdefault(event.index, []).append(event.text)
        elif isinstance(event, ToolCallStart):
            self._seen(event.index)
            self._tools[event.index] = _ToolBlock(event.id, event.name)
        elif isinstance(event, ToolArgumentsDelta):
            self._tools[event.index].fragments.append(event.fragment)
        elif isinstance(event, ReasoningDelta):
            self._seen(event.index)
            block = self._reasoning.setdefault(event.index, _ReasoningBlock())
            block.text.append(event.text)
            block.signature = event.signature or block.signature
            block.redacted = event.redacted if event.redacted is not None else block.redacted
        elif isinstance(event, BlockStop):
            if event.index in self._tools:
                self._tools[event.index].finish()
        elif isinstance(event, StopEvent):
            self._stop_reason = event.stop_reason
        else:
            self._usage["input_tokens"] += event.input_tokens
            self._usage["output_tokens"] += event.output_tokens

    def _seen(self, index: int) -> None:
        if index not in self._order:
            self._order.append(index)

    def result(self) -> ModelResponse:
        texts = ["".join(self._texts[i]) for i in self._order if i in self._texts]
        calls = []
        for index in self._order:
            tool = self._tools.get(index)
            if tool is not None:
                tool.finish()
                assert tool.arguments is not None
                calls.append(ToolCall(tool.id, tool.name, dict(tool.arguments)))
        reasoning = tuple(
            Reasoning(text="".join(block.text), signature=block.signature, redacted=block.redacted)
            if block.redacted is None
            else Reasoning(redacted=block.redacted)
            for index in self._order
            if (block := self._reasoning.get(index)) is not None
        )
        stop_reason = self._stop_reason or "end_turn"
        if calls and stop_reason == "end_turn":
            stop_reason = "tool_use"  # as complete(): a stop with tool calls runs them
        return ModelResponse(
            text="\n".join(texts),
            tool_calls=tuple(calls),
            stop_reason=stop_reason,
            usage=dict(self._usage),
            reasoning=reasoning,
        )


def accumulate(events: Iterable[StreamEvent]) -> ModelResponse:
    accumulator = StreamAccumulator()
    for event in events:
        accumulator.add(event)
    return accumulator.result()


def events_of(response: ModelResponse) -> Iterator[StreamEvent]:
    """A complete answer as the events a stream of it would carry (for providers without
    ``stream()``): ``accumulate(events_of(r)) == r``."""
    index = 0
    for reasoning in response.reasoning:
        yield ReasoningDelta(index, reasoning.text, reasoning.signature, reasoning.redacted)
        yield BlockStop(index)
        index += 1
    if response.text:
        yield TextDelta(index, response.text)
        yield BlockStop(index)
        index += 1
    for call in response.tool_calls:
        yield ToolCallStart(index, call.id, call.name)
        yield ToolArgumentsDelta(index, json.dumps(call.arguments))
        yield BlockStop(index)
        index += 1
    yield StopEvent(response.stop_reason)
    yield UsageEvent(response.usage.get("input_tokens", 0), response.usage.get("output_tokens", 0))


def stream_of(
    model: ModelProvider,
    *,
    system: str,
    messages: Sequence[Message],
    tools: Sequence[ToolSpec],
    budget_seconds: float | None,
) -> Iterator[StreamEvent]:
    """``model.stream(...)``, or its ``complete(...)`` as events when it cannot stream."""
    stream = getattr(model, "stream", None)
    if stream is None:
        response = model.complete(
            system=system, messages=messages, tools=tools, budget_seconds=budget_seconds
        )
        return events_of(response)
    events: Iterator[StreamEvent] = stream(
        system=system, messages=messages, tools=tools, budget_seconds=budget_seconds
    )
    return events
