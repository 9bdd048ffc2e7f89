"""Bedrock ``ConverseStream`` as neutral stream events (issue 14's model part).

Facts from botocore's service model that shape this code: text blocks have no start event;
a tool call starts with ``contentBlockStart`` and its input arrives as string pieces per
``contentBlockIndex``, parsed at ``contentBlockStop``; usage comes in ``metadata`` after
``messageStop``; an error mid-stream is raised while iterating (``EventStreamError``, a
``ClientError`` with a camelCase code such as ``throttlingException``), and botocore retries
only the opening request, so a stream that broke is a failed call (the agent loop decides
whether a fallback may still answer). IAM: ``bedrock:InvokeModelWithResponseStream``.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from urllib3.exceptions import HTTPError as Urllib3Error
from urllib3.exceptions import ReadTimeoutError as Urllib3ReadTimeout

from agent_memory.models.base import Message, ToolSpec
from agent_memory.models.bedrock import mapped_errors, neutral_stop_reason
from agent_memory.models.budget import CallBudget
from agent_memory.models.exceptions import ModelError, ModelTimeoutError
from agent_memory.models.stream import (
    BlockStop,
    ReasoningDelta,
    StopEvent,
    StreamEvent,
    TextDelta,
    ToolArgumentsDelta,
    ToolCallStart,
    UsageEvent,
)

if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient

    from agent_memory.models.bedrock import BedrockConverseModel


def converse_stream(
    model: BedrockConverseModel,
    *,
    system: str,
    messages: Sequence[Message],
    tools: Sequence[ToolSpec],
    budget_seconds: float | None,
) -> Iterator[StreamEvent]:
    # Converse and ConverseStream take the same request (the stubs type them apart).
    request: Any = model.request(system=system, messages=messages, tools=tools)
    budget = CallBudget.start(model.timeout_seconds, budget_seconds)

    def open_stream(client: BedrockRuntimeClient) -> Any:
        with mapped_errors("ConverseStream"):
            return client.converse_stream(**request)["stream"]

    stream = model.call_with_retries(budget, open_stream)  # the only part botocore retries
    watchdog = _Watchdog(stream, budget)
    try:
        yield from events_from_converse_stream(_guarded(stream, budget, watchdog))
    finally:
        watchdog.cancel()
        with suppress(Exception):
            stream.close()


def _guarded(stream: Iterable[Any], budget: CallBudget, watchdog: _Watchdog) -> Iterator[Any]:
    """The raw events, with transport errors and the budget's end as ``ModelError``s."""
    events = iter(stream)
    while True:
        try:
            with mapped_errors("ConverseStream"):
                event = next(events)
        except StopIteration:
            return
        except ModelError:
            if watchdog.fired:
                raise budget.expired() from None
            raise
        except Urllib3ReadTimeout:
            raise budget.expired() if budget.remaining() <= 1 else ModelTimeoutError() from None
        except (Urllib3Error, OSError, ValueError, AttributeError):
            if watchdog.fired:
                raise budget.expired() from None
            raise ModelError(
                "The Bedrock stream broke.", code="connection_error", retryable=True
            ) from None
        if budget.remaining() <= 0:
            raise budget.expired()
        yield event


def events_from_converse_stream(events: Iterable[Any]) -> Iterator[StreamEvent]:
    """ConverseStream's events (as botocore parses them) as neutral ones."""
    has_tool_calls = False
    stopped = False
    for event in events:
        if "contentBlockStart" in event:
            start = event["contentBlockStart"]
            tool_use = start["start"].get("toolUse")
            if tool_use is not None:
                has_tool_calls = True
                yield ToolCallStart(
                    start["contentBlockIndex"], tool_use["toolUseId"], tool_use["name"]
                )
        elif "contentBlockDelta" in event:
            block = event["contentBlockDelta"]
            index, delta = block["contentBlockIndex"], block["delta"]
            if "text" in delta:
                yield TextDelta(index, delta["text"])
            elif "toolUse" in delta:
                yield ToolArgumentsDelta(index, delta["toolUse"].get("input", ""))
            elif "reasoningContent" in delta:
                reasoning = delta["reasoningContent"]
                redacted = reasoning.get("redactedContent")
                yield ReasoningDelta(
                    index,
                    text=reasoning.get("text", ""),
                    signature=reasoning.get("signature"),
                    redacted=bytes(redacted) if redacted is not None else None,
                )
        elif "contentBlockStop" in event:
            yield BlockStop(event["contentBlockStop"]["contentBlockIndex"])
        elif "messageStop" in event:
            raw_stop = event["messageStop"]["stopReason"]
            yield StopEvent(neutral_stop_reason(raw_stop, has_tool_calls=has_tool_calls))
            stopped = True
        elif "metadata" in event:
            usage = event["metadata"].get("usage", {})
            yield UsageEvent(int(usage.get("inputTokens", 0)), int(usage.get("outputTokens", 0)))
    if not stopped:
        raise ModelError(
            "The Bedrock stream ended before the message did.",
            code="connection_error",
            retryable=True,
        )


class _Watchdog:
    """Ends a stream at its budget's end even while a read is blocked: the read timeout alone
    would let an event every few seconds go on forever. botocore has no public handle on the
    socket, so this reaches it through the urllib3 response (and only closes the stream when
    it cannot)."""

    def __init__(self, stream: Any, budget: CallBudget) -> None:
        self.fired = False
        self._stream = stream
        self._timer = threading.Timer(max(budget.remaining(), 0.0), self._fire)
        self._timer.daemon = True
        self._timer.start()

    def _fire(self) -> None:
        self.fired = True
        raw = getattr(self._stream, "_raw_stream", None)
        connection = getattr(raw, "connection", None)
        sock = getattr(connection, "sock", None)
        if isinstance(sock, socket.socket):
            with suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        with suppress(Exception):
            self._stream.close()

    def cancel(self) -> None:
        self._timer.cancel()
