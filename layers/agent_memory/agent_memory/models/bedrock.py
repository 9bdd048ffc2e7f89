"""Amazon Bedrock Converse API provider (tool use)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from botocore.exceptions import (
    BotoCoreError,
    ClientError,
    ConnectionClosedError,
    ConnectTimeoutError,
    EndpointConnectionError,
    ParamValidationError,
    ReadTimeoutError,
)

from agent_memory.models.base import (
    RAW_ARGUMENTS_KEY,
    AssistantMessage,
    Message,
    ModelResponse,
    Reasoning,
    StopReason,
    ToolCall,
    ToolResultsMessage,
    ToolSpec,
    UserMessage,
)
from agent_memory.models.bedrock_clients import BedrockClients
from agent_memory.models.budget import MIN_CALL_SECONDS, CallBudget
from agent_memory.models.exceptions import ModelError, ModelTimeoutError
from agent_memory.models.stream import StreamEvent
from agent_memory.retryable import BEDROCK_RETRYABLE_ERRORS, BEDROCK_TIMEOUT_ERRORS

if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient
    from mypy_boto3_bedrock_runtime.literals import ConversationRoleType
    from mypy_boto3_bedrock_runtime.type_defs import (
        ContentBlockTypeDef,
        ConverseRequestTypeDef,
        ConverseResponseTypeDef,
        MessageTypeDef,
        ReasoningContentBlockTypeDef,
        ReasoningTextBlockTypeDef,
    )

STOP_REASONS: dict[str, StopReason] = {
    "end_turn": "end_turn",
    "stop_sequence": "end_turn",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    "model_context_window_exceeded": "max_tokens",
    "guardrail_intervened": "refused",
    "content_filtered": "refused",
}
MALFORMED_STOP_REASONS = frozenset({"malformed_model_output", "malformed_tool_use"})
BLANK_USER_TEXT = "(empty message)"
"""Stands in for a user message with no visible text: Converse refuses blank text blocks, and
dropping the message would end the request on an assistant message (a prefill to continue)."""
MAX_ATTEMPTS = 2


def supports_tool_result_status(model_id: str) -> bool:
    """``toolResult.status`` is "only supported by Amazon Nova and Anthropic Claude 3 and 4
    models" (botocore's service model); other models reject it."""
    model = model_id.lower()
    if "amazon.nova" in model:
        return True
    return "anthropic.claude" in model and not any(
        old in model for old in ("claude-v2", "claude-instant")
    )


class BedrockConverseModel:
    """A ``ModelProvider`` on ``bedrock-runtime`` ``Converse``.

    ``clients`` is a ``BedrockClients`` (clients sized to each call's budget, the factory's
    choice) or one client used for every call (tests with Stubber). This object holds
    configuration only: it is shared by concurrent turns.
    """

    def __init__(
        self,
        clients: BedrockClients | BedrockRuntimeClient,
        model_id: str,
        *,
        max_tokens: int = 1024,
        temperature: float | None = None,
        timeout_seconds: float = 25.0,
        tool_result_status: bool | None = None,
        name: str = "bedrock",
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.name = name
        self.model_id = model_id
        self._clients = clients
        self._max_tokens = max_tokens
        self._temperature = temperature
        self.timeout_seconds = timeout_seconds
        self._status = (
            supports_tool_result_status(model_id)
            if tool_result_status is None
            else tool_result_status
        )
        self._sleep = sleep

    def client_for(self, seconds: float) -> BedrockRuntimeClient:
        if isinstance(self._clients, BedrockClients):
            return self._clients.for_budget(seconds)
        return self._clients

    def request(
        self, *, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec]
    ) -> ConverseRequestTypeDef:
        """The Converse request (ConverseStream takes the same one)."""
        inference: dict[str, Any] = {"maxTokens": self._max_tokens}
        if self._temperature is not None:
            inference["temperature"] = self._temperature
        request: ConverseRequestTypeDef = {
            "modelId": self.model_id,
            "system": [{"text": system}],
            "messages": to_converse_messages(messages, tool_result_status=self._status),
            "inferenceConfig": inference,  # type: ignore[typeddict-item]
        }
        if tools:
            request["toolConfig"] = {
                "tools": [
                    {
                        "toolSpec": {
                            "name": tool.name,
                            "description": tool.description,
                            "inputSchema": {"json": tool.input_schema},
                        }
                    }
                    for tool in tools
                ]
            }
        return request

    def call_with_retries(
        self, budget: CallBudget, call: Callable[[BedrockRuntimeClient], Any]
    ) -> Any:
        """``call`` with a client sized to the budget left, retried on retryable errors
        while a pause and another attempt still fit."""
        for attempt in range(1, MAX_ATTEMPTS + 1):
            client = self.client_for(budget.check_can_start())
            try:
                return call(client)
            except ModelTimeoutError:
                if budget.remaining() < MIN_CALL_SECONDS:
                    raise budget.expired() from None
                raise
            except ModelError as error:
                pause = budget.retry_pause(attempt) if error.retryable else None
                if pause is None or attempt == MAX_ATTEMPTS:
                    raise
                self._sleep(pause)
        raise AssertionError("unreachable")  # pragma: no cover

    def complete(
        self,
        *,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        budget_seconds: float | None = None,
    ) -> ModelResponse:
        request = self.request(system=system, messages=messages, tools=tools)
        budget = CallBudget.start(self.timeout_seconds, budget_seconds)

        def converse(client: BedrockRuntimeClient) -> ConverseResponseTypeDef:
            with mapped_errors("Converse"):
                return client.converse(**request)

        response = self.call_with_retries(budget, converse)
        try:
            return from_converse_response(response)
        except (KeyError, TypeError, ValueError):
            raise ModelError(
                "Bedrock returned an unexpected response shape.",
                code="invalid_response",
                retryable=False,
            ) from None

    def stream(
        self,
        *,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        budget_seconds: float | None = None,
    ) -> Iterator[StreamEvent]:
        """The answer as ``ConverseStream`` events (see ``bedrock_stream``)."""
        from agent_memory.models.bedrock_stream import converse_stream

        return converse_stream(
            self, system=system, messages=messages, tools=tools, budget_seconds=budget_seconds
        )


@contextmanager
def mapped_errors(operation: str) -> Iterator[None]:
    """botocore's errors as content-free ``ModelError``s (AWS messages may quote the request,
    so only the code travels; ``from None`` drops the original)."""
    try:
        yield
    except Exception as error:
        mapped = model_error_from(error, operation)
        if mapped is None:
            raise
        raise mapped from None


def model_error_from(error: Exception, operation: str) -> ModelError | None:
    if isinstance(error, ReadTimeoutError | ConnectTimeoutError):
        return ModelTimeoutError(f"Bedrock {operation} timed out.")
    if isinstance(error, EndpointConnectionError | ConnectionClosedError):
        return ModelError(
            f"Bedrock {operation} could not be reached.", code="connection_error", retryable=True
        )
    if isinstance(error, ClientError):
        return from_client_error(error, operation)
    if isinstance(error, ParamValidationError):
        return ModelError(
            f"Bedrock {operation} rejected the request shape.",
            code="invalid_request",
            retryable=False,
        )
    if isinstance(error, BotoCoreError):
        return ModelError(
            f"Bedrock {operation} failed.", code=type(error).__name__, retryable=False
        )
    return None


def to_converse_messages(
    messages: Sequence[Message], *, tool_result_status: bool = True
) -> list[MessageTypeDef]:
    """Neutral messages as Converse messages.

    Converse wants strictly alternating roles starting with ``user`` and no blank text: a
    blank user text becomes ``BLANK_USER_TEXT``, blank assistant text is dropped, consecutive
    messages of one role are merged, and a leading assistant message (a client's greeting in
    the history) is dropped. The request always ends on the user's side.
    """
    converse: list[MessageTypeDef] = []
    for message in messages:
        role, blocks = _blocks(message, tool_result_status)
        if not blocks:
            continue
        if converse and converse[-1]["role"] == role:
            converse[-1] = {"role": role, "content": [*converse[-1]["content"], *blocks]}
        else:
            converse.append({"role": role, "content": blocks})
    while converse and converse[0]["role"] == "assistant":
        converse.pop(0)
    if not converse or converse[-1]["role"] != "user":
        raise ModelError(
            "The conversation does not end with a user message.",
            code="invalid_request",
            retryable=False,
        )
    return converse


def _blocks(
    message: Message, tool_result_status: bool
) -> tuple[ConversationRoleType, list[ContentBlockTypeDef]]:
    if isinstance(message, UserMessage):
        return "user", [{"text": message.text if message.text.strip() else BLANK_USER_TEXT}]
    if isinstance(message, AssistantMessage):
        # Reasoning goes back first and unmodified, signature included, or the next round of
        # a tool-using turn with extended thinking is refused.
        blocks: list[ContentBlockTypeDef] = [_reasoning_block(r) for r in message.reasoning]
        if message.text.strip():
            blocks.append({"text": message.text})
        blocks.extend(
            {"toolUse": {"toolUseId": call.id, "name": call.name, "input": call.arguments}}
            for call in message.tool_calls
        )
        return "assistant", blocks
    assert isinstance(message, ToolResultsMessage)
    results: list[ContentBlockTypeDef] = []
    for result in message.results:
        block: dict[str, Any] = {
            "toolUseId": result.tool_call_id,
            "content": [{"json": result.content}],
        }
        if tool_result_status:
            block["status"] = "error" if result.is_error else "success"
        results.append({"toolResult": block})  # type: ignore[typeddict-item]
    return "user", results


def _reasoning_block(reasoning: Reasoning) -> ContentBlockTypeDef:
    if reasoning.redacted is not None:
        return {"reasoningContent": {"redactedContent": reasoning.redacted}}
    text: ReasoningTextBlockTypeDef = {"text": reasoning.text}
    if reasoning.signature is not None:
        text["signature"] = reasoning.signature
    content: ReasoningContentBlockTypeDef = {"reasoningText": text}
    return {"reasoningContent": content}


def neutral_stop_reason(raw_stop: str, *, has_tool_calls: bool) -> StopReason:
    """Converse's stop reason as a neutral one; ``end_turn`` with toolUse blocks is tool use
    (as the OpenAI adapter treats "stop" with tool calls): the calls must run."""
    if raw_stop in MALFORMED_STOP_REASONS:
        raise ModelError("Bedrock returned malformed model output.", code=raw_stop, retryable=True)
    stop_reason = STOP_REASONS.get(raw_stop)
    if stop_reason is None:
        raise ModelError(
            "Bedrock returned an unknown stop reason.", code="unknown_stop_reason", retryable=False
        )
    if has_tool_calls and stop_reason == "end_turn":
        return "tool_use"
    return stop_reason


def from_converse_response(response: ConverseResponseTypeDef) -> ModelResponse:
    """A Converse response as a neutral ``ModelResponse``."""
    texts: list[str] = []
    calls: list[ToolCall] = []
    reasoning: list[Reasoning] = []
    message = response["output"].get("message")
    for block in message["content"] if message else []:
        if "text" in block:
            texts.append(block["text"])
        elif "toolUse" in block:
            tool_use = block["toolUse"]
            arguments: Any = tool_use["input"]
            if not isinstance(arguments, dict):
                arguments = {RAW_ARGUMENTS_KEY: json.dumps(arguments)}
            calls.append(
                ToolCall(id=tool_use["toolUseId"], name=tool_use["name"], arguments=arguments)
            )
        elif "reasoningContent" in block:
            reasoning.append(_reasoning_from(block["reasoningContent"]))
    stop_reason = neutral_stop_reason(response["stopReason"], has_tool_calls=bool(calls))
    usage = response.get("usage", {})
    return ModelResponse(
        text="\n".join(texts),
        tool_calls=tuple(calls),
        stop_reason=stop_reason,
        usage={
            "input_tokens": int(usage.get("inputTokens", 0)),
            "output_tokens": int(usage.get("outputTokens", 0)),
        },
        reasoning=tuple(reasoning),
    )


def _reasoning_from(content: Any) -> Reasoning:
    if "redactedContent" in content:
        return Reasoning(redacted=bytes(content["redactedContent"]))
    text = content["reasoningText"]
    return Reasoning(text=str(text.get("text", "")), signature=text.get("signature"))


def from_client_error(exc: ClientError, operation: str = "Converse") -> ModelError:
    code = str(exc.response.get("Error", {}).get("Code", "ClientError"))
    # Errors raised mid-stream (EventStreamError) carry camelCase codes: throttlingException.
    code = code[:1].upper() + code[1:]
    if code in BEDROCK_TIMEOUT_ERRORS:
        return ModelTimeoutError(f"Bedrock {operation} timed out.", code=code)
    status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
    retryable = code in BEDROCK_RETRYABLE_ERRORS or status >= 500
    return ModelError(f"Bedrock {operation} failed with {code}.", code=code, retryable=retryable)
