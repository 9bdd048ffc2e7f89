"""Amazon Bedrock Converse API provider (tool use)."""

from __future__ import annotations

import json
from collections.abc import Sequence
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
    StopReason,
    ToolCall,
    ToolResultsMessage,
    ToolSpec,
    UserMessage,
)
from agent_memory.models.exceptions import ModelError, ModelTimeoutError

if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient
    from mypy_boto3_bedrock_runtime.literals import ConversationRoleType
    from mypy_boto3_bedrock_runtime.type_defs import (
        ContentBlockTypeDef,
        ConverseRequestTypeDef,
        ConverseResponseTypeDef,
        MessageTypeDef,
    )

_STOP_REASONS: dict[str, StopReason] = {
    "end_turn": "end_turn",
    "stop_sequence": "end_turn",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    "model_context_window_exceeded": "max_tokens",
    "guardrail_intervened": "refused",
    "content_filtered": "refused",
}
_MALFORMED_STOP_REASONS = frozenset({"malformed_model_output", "malformed_tool_use"})
_RETRYABLE_CODES = frozenset(
    {
        "ThrottlingException",
        "ServiceUnavailableException",
        "ModelNotReadyException",
        "InternalServerException",
        "ModelErrorException",
        "ServiceQuotaExceededException",
    }
)
_TIMEOUT_CODES = frozenset({"ModelTimeoutException", "RequestTimeout", "RequestTimeoutException"})


class BedrockConverseModel:
    """A ``ModelProvider`` on ``bedrock-runtime`` ``Converse``.

    The client is shared (thread-safe, built once per container by the factory); this object
    holds configuration only.
    """

    def __init__(
        self,
        client: BedrockRuntimeClient,
        model_id: str,
        *,
        max_tokens: int = 1024,
        temperature: float = 0.0,
        name: str = "bedrock",
    ) -> None:
        self.name = name
        self.model_id = model_id
        self._client = client
        self._max_tokens = max_tokens
        self._temperature = temperature

    def complete(
        self,
        *,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
    ) -> ModelResponse:
        request: ConverseRequestTypeDef = {
            "modelId": self.model_id,
            "system": [{"text": system}],
            "messages": to_converse_messages(messages),
            "inferenceConfig": {"maxTokens": self._max_tokens, "temperature": self._temperature},
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
        try:
            response = self._client.converse(**request)
        except (ReadTimeoutError, ConnectTimeoutError):
            raise ModelTimeoutError("Bedrock Converse timed out.") from None
        except (EndpointConnectionError, ConnectionClosedError):
            raise ModelError(
                "Bedrock Converse could not be reached.", code="connection_error", retryable=True
            ) from None
        except ClientError as exc:
            # `from None`: AWS error messages may quote the request, so only the code travels.
            raise _from_client_error(exc) from None
        except ParamValidationError:
            raise ModelError(
                "Bedrock Converse rejected the request shape.",
                code="invalid_request",
                retryable=False,
            ) from None
        except BotoCoreError as exc:
            raise ModelError(
                "Bedrock Converse failed.", code=type(exc).__name__, retryable=False
            ) from None
        try:
            return from_converse_response(response)
        except (KeyError, TypeError, ValueError):
            raise ModelError(
                "Bedrock returned an unexpected response shape.",
                code="invalid_response",
                retryable=False,
            ) from None


def to_converse_messages(messages: Sequence[Message]) -> list[MessageTypeDef]:
    """Neutral messages as Converse messages.

    Converse wants strictly alternating roles starting with ``user`` and no blank text: blank
    blocks are dropped, consecutive messages of one role are merged, and a leading assistant
    message (a client's greeting in the history) is dropped.
    """
    converse: list[MessageTypeDef] = []
    for message in messages:
        role, blocks = _blocks(message)
        if not blocks:
            continue
        if converse and converse[-1]["role"] == role:
            converse[-1] = {"role": role, "content": [*converse[-1]["content"], *blocks]}
        else:
            converse.append({"role": role, "content": blocks})
    while converse and converse[0]["role"] == "assistant":
        converse.pop(0)
    return converse


def _blocks(message: Message) -> tuple[ConversationRoleType, list[ContentBlockTypeDef]]:
    if isinstance(message, UserMessage):
        return "user", [{"text": message.text}] if message.text.strip() else []
    if isinstance(message, AssistantMessage):
        blocks: list[ContentBlockTypeDef] = []
        if message.text.strip():
            blocks.append({"text": message.text})
        blocks.extend(
            {"toolUse": {"toolUseId": call.id, "name": call.name, "input": call.arguments}}
            for call in message.tool_calls
        )
        return "assistant", blocks
    assert isinstance(message, ToolResultsMessage)
    return "user", [
        {
            "toolResult": {
                "toolUseId": result.tool_call_id,
                "content": [{"json": result.content}],
                "status": "error" if result.is_error else "success",
            }
        }
        for result in message.results
    ]


def from_converse_response(response: ConverseResponseTypeDef) -> ModelResponse:
    """A Converse response as a neutral ``ModelResponse``."""
    raw_stop = response["stopReason"]
    if raw_stop in _MALFORMED_STOP_REASONS:
        raise ModelError("Bedrock returned malformed model output.", code=raw_stop, retryable=True)
    stop_reason = _STOP_REASONS.get(raw_stop)
    if stop_reason is None:
        raise ModelError(
            "Bedrock returned an unknown stop reason.", code="unknown_stop_reason", retryable=False
        )
    texts: list[str] = []
    calls: list[ToolCall] = []
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
    usage = response.get("usage", {})
    return ModelResponse(
        text="\n".join(texts),
        tool_calls=tuple(calls),
        stop_reason=stop_reason,
        usage={
            "input_tokens": int(usage.get("inputTokens", 0)),
            "output_tokens": int(usage.get("outputTokens", 0)),
        },
    )


def _from_client_error(exc: ClientError) -> ModelError:
    code = str(exc.response.get("Error", {}).get("Code", "ClientError"))
    if code in _TIMEOUT_CODES:
        return ModelTimeoutError("Bedrock Converse timed out.", code=code)
    status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
    retryable = code in _RETRYABLE_CODES or status >= 500
    return ModelError(f"Bedrock Converse failed with {code}.", code=code, retryable=retryable)
