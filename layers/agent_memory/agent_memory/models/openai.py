"""OpenAI-compatible chat-completions provider (OpenAI, Ollama, vLLM...), standard library only."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from typing import Any, TypeVar

from agent_memory.models.base import (
    RAW_ARGUMENTS_KEY,
    AssistantMessage,
    Message,
    ModelResponse,
    StopReason,
    ToolCall,
    ToolResultsMessage,
    ToolSpec,
    UserMessage,
    arguments_from_json,
)
from agent_memory.models.budget import CallBudget
from agent_memory.models.exceptions import ModelError
from agent_memory.models.http_transport import Endpoint, Response, StatusError, post
from agent_memory.models.stream import StreamEvent

T = TypeVar("T")

MAX_RESPONSE_BYTES = 8 * 1024 * 1024
MAX_ATTEMPTS = 3  # as the OpenAI SDKs: the first call and two retries
FINISH_REASONS: dict[str, StopReason] = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "length": "max_tokens",
    "content_filter": "refused",
}


class OpenAICompatibleModel:
    """A ``ModelProvider`` on ``POST {base_url}/chat/completions`` with function tools.

    ``max_tokens_field``: hosted OpenAI deprecated ``max_tokens`` for
    ``max_completion_tokens`` (its reasoning models refuse the old name); older compatible
    servers know only ``max_tokens``. ``temperature`` None sends none (reasoning models
    refuse any value but their default).
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 25.0,
        max_tokens: int | None = None,
        max_tokens_field: str = "max_completion_tokens",
        temperature: float | None = None,
        max_attempts: int = MAX_ATTEMPTS,
        name: str = "openai",
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.name = name
        self.model = model
        self.endpoint = Endpoint.of(base_url, "chat/completions")
        self._api_key = api_key
        self._timeout = timeout
        self._max_tokens = max_tokens
        self._max_tokens_field = max_tokens_field
        self._temperature = temperature
        self._max_attempts = max_attempts
        self._sleep = sleep

    def body(
        self, *, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec]
    ) -> dict[str, Any]:
        """The request body (a streamed call adds ``stream`` and ``stream_options``)."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, *to_chat_messages(messages)],
        }
        if tools:
            body["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": tool.input_schema,
                    },
                }
                for tool in tools
            ]
        if self._max_tokens is not None:
            body[self._max_tokens_field] = self._max_tokens
        if self._temperature is not None:
            body["temperature"] = self._temperature
        return body

    def complete(
        self,
        *,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        budget_seconds: float | None = None,
    ) -> ModelResponse:
        body = self.body(system=system, messages=messages, tools=tools)
        budget = CallBudget.start(self._timeout, budget_seconds)
        payload = self.with_retries(
            body, budget, lambda response: response.body(MAX_RESPONSE_BYTES)
        )
        try:
            parsed = json.loads(payload)
        except (ValueError, RecursionError):
            raise ModelError(
                "The chat-completions response is not JSON.",
                code="invalid_response",
                retryable=False,
            ) from None
        return from_chat_completion(parsed)

    def stream(
        self,
        *,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        budget_seconds: float | None = None,
    ) -> Iterator[StreamEvent]:
        """The answer as ``stream: true`` events (see ``openai_stream``)."""
        from agent_memory.models.openai_stream import chat_stream

        body = self.body(system=system, messages=messages, tools=tools)
        budget = CallBudget.start(self._timeout, budget_seconds)
        return chat_stream(self, body, budget)

    def with_retries(
        self, body: dict[str, Any], budget: CallBudget, read: Callable[[Response], T]
    ) -> T:
        """POST ``body`` and ``read`` the answer, retrying 408/409/429/5xx and transport
        failures (as the OpenAI SDKs do) while a pause and another attempt fit."""
        data, headers = self._request(body)

        def attempt() -> T:
            with post(self.endpoint, data, headers, budget) as response:
                return read(response)

        return self._retrying(budget, attempt)

    def open(self, body: dict[str, Any], budget: CallBudget, stack: ExitStack) -> Response:
        """POST ``body`` and return the open response (closed with ``stack``); only opening
        is retried: a stream that broke after its first event is a failed call."""
        data, headers = self._request(body)
        return self._retrying(
            budget, lambda: stack.enter_context(post(self.endpoint, data, headers, budget))
        )

    def _request(self, body: dict[str, Any]) -> tuple[bytes, dict[str, str]]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if body.get("stream"):
            headers["Accept"] = "text/event-stream"
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return json.dumps(body).encode(), headers

    def _retrying(self, budget: CallBudget, attempt: Callable[[], T]) -> T:
        for number in range(1, self._max_attempts + 1):
            budget.check_can_start()
            try:
                return attempt()
            except ModelError as error:
                if not error.retryable or error.code == "deadline" or number == self._max_attempts:
                    raise
                hint = error.retry_after if isinstance(error, StatusError) else None
                pause = budget.retry_pause(number, hint=hint)
                if pause is None:
                    raise
                self._sleep(pause)
        raise AssertionError("unreachable")  # pragma: no cover


def to_chat_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Neutral messages as chat-completions messages (without the system message)."""
    chat: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, UserMessage):
            chat.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage):
            # null content is only valid next to tool calls
            content = message.text if message.text or not message.tool_calls else None
            assistant: dict[str, Any] = {"role": "assistant", "content": content}
            if message.tool_calls:
                assistant["tool_calls"] = [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": _arguments_text(call)},
                    }
                    for call in message.tool_calls
                ]
            chat.append(assistant)
        else:
            assert isinstance(message, ToolResultsMessage)
            chat.extend(
                {
                    "role": "tool",
                    "tool_call_id": result.tool_call_id,
                    "content": json.dumps(result.content),
                }
                for result in message.results
            )
    return chat


def _arguments_text(call: ToolCall) -> str:
    # Give the model back exactly what it produced when that was not a JSON object.
    raw = call.arguments.get(RAW_ARGUMENTS_KEY)
    if len(call.arguments) == 1 and isinstance(raw, str):
        return raw
    return json.dumps(call.arguments)


def from_chat_completion(payload: Any) -> ModelResponse:
    """A chat-completions response body as a neutral ``ModelResponse``."""
    try:
        choice = payload["choices"][0]
        message = choice["message"]
        calls = tuple(
            ToolCall(
                id=str(call.get("id") or invented_call_id()),
                name=str(call["function"]["name"]),
                arguments=parse_arguments(call["function"].get("arguments")),
            )
            for call in message.get("tool_calls") or ()
        )
        text = message.get("content") or ""
        refused = bool(message.get("refusal"))
        finish_reason = choice.get("finish_reason")
        usage = payload.get("usage") or {}
        input_tokens = int(usage.get("prompt_tokens") or 0)
        output_tokens = int(usage.get("completion_tokens") or 0)
    except (KeyError, IndexError, TypeError, AttributeError, ValueError):
        raise ModelError(
            "The chat-completions response has an unexpected shape.",
            code="invalid_response",
            retryable=False,
        ) from None
    if not isinstance(text, str):
        raise ModelError(
            "The chat-completions response has an unexpected shape.",
            code="invalid_response",
            retryable=False,
        )
    return ModelResponse(
        text=text,
        tool_calls=calls,
        stop_reason=neutral_stop_reason(finish_reason, has_tool_calls=bool(calls), refused=refused),
        usage={"input_tokens": input_tokens, "output_tokens": output_tokens},
    )


def neutral_stop_reason(finish_reason: Any, *, has_tool_calls: bool, refused: bool) -> StopReason:
    if refused:  # the message's ``refusal`` field: the model declined to answer
        return "refused"
    stop_reason = FINISH_REASONS.get(str(finish_reason), "end_turn")
    # Some servers (older Ollama) report "stop" even when the message carries tool calls.
    if has_tool_calls and stop_reason == "end_turn":
        return "tool_use"
    return stop_reason


def invented_call_id() -> str:
    """An id for a tool call the server sent without one: unique, so that two rounds of one
    turn never share an id (the model would pair results with the wrong call)."""
    return f"call_{uuid.uuid4().hex[:24]}"


def parse_arguments(arguments: Any) -> dict[str, Any]:
    if isinstance(arguments, dict):
        return arguments
    if isinstance(arguments, str):
        return arguments_from_json(arguments)
    return {RAW_ARGUMENTS_KEY: json.dumps(arguments)}
