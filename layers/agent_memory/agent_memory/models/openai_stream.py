"""OpenAI-compatible ``stream: true`` as neutral stream events (issue 14's model part).

Server-sent events: ``data: {chunk}`` lines until ``data: [DONE]``; a tool call arrives in
pieces keyed by its ``index`` (id and name in the first, argument fragments after); with
``stream_options.include_usage`` the usage comes in a last chunk whose ``choices`` is empty.
The call's budget and the size limit count over the whole stream, not per read.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from agent_memory.models.budget import CallBudget
from agent_memory.models.exceptions import ModelError
from agent_memory.models.openai import invented_call_id, neutral_stop_reason
from agent_memory.models.stream import (
    StopEvent,
    StreamEvent,
    TextDelta,
    ToolArgumentsDelta,
    ToolCallStart,
    UsageEvent,
)

if TYPE_CHECKING:
    from agent_memory.models.openai import OpenAICompatibleModel

MAX_STREAM_BYTES = 8 * 1024 * 1024
TEXT_INDEX = 0
"""The message text is block 0; tool call ``i`` is block ``1 + i``."""


def chat_stream(
    model: OpenAICompatibleModel, body: dict[str, Any], budget: CallBudget
) -> Iterator[StreamEvent]:
    body = {**body, "stream": True, "stream_options": {"include_usage": True}}
    with ExitStack() as stack:
        response = model.open(body, budget, stack)
        yield from events_from_sse(sse_data(response.chunks(MAX_STREAM_BYTES)))


def sse_data(chunks: Iterable[bytes]) -> Iterator[str]:
    """The ``data:`` payloads of a server-sent event stream (comments and other fields
    ignored; one data line per event, as chat-completions servers send them)."""
    pending = b""
    for chunk in chunks:
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            text = line.rstrip(b"\r").decode("utf-8", errors="replace")
            if text.startswith("data:"):
                yield text[5:].strip()
    if pending.startswith(b"data:"):
        yield pending[5:].decode("utf-8", errors="replace").strip()


def events_from_sse(payloads: Iterable[str]) -> Iterator[StreamEvent]:
    started: set[int] = set()
    finish_reason: Any = None
    refused = False
    for payload in payloads:
        if payload == "[DONE]":
            yield StopEvent(
                neutral_stop_reason(finish_reason, has_tool_calls=bool(started), refused=refused)
            )
            return
        chunk = _parsed(payload)
        usage = chunk.get("usage")
        if usage:
            yield UsageEvent(
                int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
            )
        for choice in chunk.get("choices") or ():
            if choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or {}
            if delta.get("refusal"):
                refused = True
            content = delta.get("content")
            if isinstance(content, str) and content:
                yield TextDelta(TEXT_INDEX, content)
            for call in delta.get("tool_calls") or ():
                yield from _tool_call_events(call, started)
            finish_reason = choice.get("finish_reason") or finish_reason
    raise ModelError(
        "The chat-completions stream ended before [DONE].",
        code="connection_error",
        retryable=True,
    )


def _tool_call_events(call: dict[str, Any], started: set[int]) -> Iterator[StreamEvent]:
    try:
        index = 1 + int(call.get("index", 0))
        function = call.get("function") or {}
    except (TypeError, ValueError, AttributeError):
        raise _invalid() from None
    if index not in started:
        started.add(index)
        yield ToolCallStart(
            index, str(call.get("id") or invented_call_id()), str(function.get("name") or "")
        )
    arguments = function.get("arguments")
    if isinstance(arguments, str) and arguments:
        yield ToolArgumentsDelta(index, arguments)


def _parsed(payload: str) -> dict[str, Any]:
    try:
        chunk = json.loads(payload)
    except (ValueError, RecursionError):
        raise _invalid() from None
    if not isinstance(chunk, dict):
        raise _invalid()
    if "error" in chunk:  # some servers report a failure mid-stream as a data line
        raise ModelError(
            "The chat-completions stream reported an error.", code="stream_error", retryable=True
        )
    return chunk


def _invalid() -> ModelError:
    return ModelError(
        "The chat-completions stream has an unexpected shape.",
        code="invalid_response",
        retryable=False,
    )
