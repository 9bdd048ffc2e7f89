"""OpenAI-compatible chat-completions provider (OpenAI, Ollama, vLLM...), standard library only."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

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
from agent_memory.models.exceptions import ModelError, ModelTimeoutError

MAX_RESPONSE_BYTES = 8 * 1024 * 1024
_FINISH_REASONS: dict[str, StopReason] = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "length": "max_tokens",
    "content_filter": "refused",
}


class OpenAICompatibleModel:
    """A ``ModelProvider`` on ``POST {base_url}/chat/completions`` with function tools."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 25.0,
        max_tokens: int | None = None,
        temperature: float | None = 0.0,
        name: str = "openai",
    ) -> None:
        if urlsplit(base_url).scheme not in ("http", "https"):
            raise ValueError("base_url must be an http or https URL")
        self.name = name
        self.model = model
        self._url = base_url.rstrip("/") + "/chat/completions"
        self._api_key = api_key
        self._timeout = timeout
        self._max_tokens = max_tokens
        self._temperature = temperature

    def complete(
        self,
        *,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
    ) -> ModelResponse:
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
            body["max_tokens"] = self._max_tokens
        if self._temperature is not None:
            body["temperature"] = self._temperature
        return from_chat_completion(self._post(body))

    def _post(self, body: dict[str, Any]) -> Any:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        request = urllib.request.Request(  # noqa: S310 - the scheme is checked in __init__
            self._url, data=json.dumps(body).encode(), headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=self._timeout) as response:  # noqa: S310
                payload = response.read(MAX_RESPONSE_BYTES + 1)
        except urllib.error.HTTPError as exc:
            exc.close()
            raise _from_status(exc.code) from None
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError | socket.timeout):
                raise ModelTimeoutError("The chat-completions call timed out.") from None
            raise ModelError(
                "The chat-completions endpoint could not be reached.",
                code="connection_error",
                retryable=True,
            ) from None
        except TimeoutError:
            raise ModelTimeoutError("The chat-completions call timed out.") from None
        except OSError:
            raise ModelError(
                "The chat-completions connection failed.", code="connection_error", retryable=True
            ) from None
        if len(payload) > MAX_RESPONSE_BYTES:
            raise ModelError(
                "The chat-completions response is too large.",
                code="invalid_response",
                retryable=False,
            )
        try:
            return json.loads(payload)
        except (ValueError, RecursionError):
            raise ModelError(
                "The chat-completions response is not JSON.",
                code="invalid_response",
                retryable=False,
            ) from None


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
                id=str(call.get("id") or f"call_{index}"),
                name=str(call["function"]["name"]),
                arguments=_parse_arguments(call["function"].get("arguments")),
            )
            for index, call in enumerate(message.get("tool_calls") or ())
        )
        text = message.get("content") or ""
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
    stop_reason = _FINISH_REASONS.get(str(finish_reason), "end_turn")
    # Some servers (older Ollama) report "stop" even when the message carries tool calls.
    if calls and stop_reason == "end_turn":
        stop_reason = "tool_use"
    return ModelResponse(
        text=text,
        tool_calls=calls,
        stop_reason=stop_reason,
        usage={"input_tokens": input_tokens, "output_tokens": output_tokens},
    )


def _parse_arguments(arguments: Any) -> dict[str, Any]:
    if isinstance(arguments, dict):
        return arguments
    if isinstance(arguments, str):
        return arguments_from_json(arguments)
    return {RAW_ARGUMENTS_KEY: json.dumps(arguments)}


def _from_status(status: int) -> ModelError:
    if status == 408:
        return ModelTimeoutError("The chat-completions call timed out.", code="http_408")
    retryable = status == 429 or status >= 500
    return ModelError(
        f"The chat-completions call failed with HTTP {status}.",
        code=f"http_{status}",
        retryable=retryable,
    )
