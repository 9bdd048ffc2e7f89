"""BedrockConverseModel against botocore's Stubber: every request is validated against the real
bedrock-runtime service model, and responses against its output shape."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from unittest import mock

import boto3
import pytest
from botocore.exceptions import ReadTimeoutError
from botocore.stub import Stubber

from agent_memory.agent import run_agent
from agent_memory.models import (
    AssistantMessage,
    BedrockConverseModel,
    Message,
    ModelError,
    ModelTimeoutError,
    ToolCall,
    ToolResult,
    ToolResultsMessage,
    ToolSpec,
    UserMessage,
)

MODEL_ID = "anthropic.claude-3-5-haiku-20241022-v1:0"
SYSTEM = "You are helpful.\n<persistent_memory_data>\n</persistent_memory_data>"
SENTINEL = "SENTINEL-7f3a-never-in-errors"

# Our own copy of the seed's tool schema (no dependency on agent_memory.domain).
MEMORY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "operations": {
            "type": "array",
            "minItems": 1,
            "maxItems": 20,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "target": {"enum": ["user", "memory"]},
                    "action": {"enum": ["add", "replace", "remove"]},
                    "match": {"type": ["string", "null"]},
                    "content": {"type": ["string", "null"]},
                },
                "required": ["target", "action"],
            },
        }
    },
    "required": ["operations"],
}
MEMORY_TOOL = ToolSpec("memory_update", "Edit the bounded memory.", MEMORY_SCHEMA)
ADD = {"operations": [{"target": "memory", "action": "add", "content": "Uses SAM."}]}
INFERENCE = {"maxTokens": 512}  # no temperature unless configured
TOOL_CONFIG = {
    "tools": [
        {
            "toolSpec": {
                "name": "memory_update",
                "description": "Edit the bounded memory.",
                "inputSchema": {"json": MEMORY_SCHEMA},
            }
        }
    ]
}


def no_sleep(seconds: float) -> None:
    pass


@pytest.fixture
def stubbed() -> Iterator[tuple[BedrockConverseModel, Stubber]]:
    client = boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    with Stubber(client) as stubber:
        yield BedrockConverseModel(client, MODEL_ID, max_tokens=512, sleep=no_sleep), stubber
        stubber.assert_no_pending_responses()


def converse_response(
    content: list[dict[str, Any]], stop_reason: str = "end_turn"
) -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": stop_reason,
        "usage": {"inputTokens": 100, "outputTokens": 20, "totalTokens": 120},
        "metrics": {"latencyMs": 42},
    }


def test_a_tool_use_round_trip_has_the_shapes_bedrock_accepts(
    stubbed: tuple[BedrockConverseModel, Stubber],
) -> None:
    model, stubber = stubbed
    # GIVEN Bedrock first asks for memory_update, then answers
    stubber.add_response(
        "converse",
        converse_response(
            [
                {"text": "Let me note that."},
                {"toolUse": {"toolUseId": "tooluse_1", "name": "memory_update", "input": ADD}},
            ],
            stop_reason="tool_use",
        ),
        expected_params={
            "modelId": MODEL_ID,
            "system": [{"text": SYSTEM}],
            "messages": [{"role": "user", "content": [{"text": "We deploy with SAM."}]}],
            "toolConfig": TOOL_CONFIG,
            "inferenceConfig": INFERENCE,
        },
    )
    stubber.add_response(
        "converse",
        converse_response([{"text": "Noted."}]),
        expected_params={
            "modelId": MODEL_ID,
            "system": [{"text": SYSTEM}],
            "messages": [
                {"role": "user", "content": [{"text": "We deploy with SAM."}]},
                {
                    "role": "assistant",
                    "content": [
                        {"text": "Let me note that."},
                        {
                            "toolUse": {
                                "toolUseId": "tooluse_1",
                                "name": "memory_update",
                                "input": ADD,
                            }
                        },
                    ],
                },
                {
                    "role": "user",
                    "content": [
                        {
                            "toolResult": {
                                "toolUseId": "tooluse_1",
                                "content": [{"json": {"ok": True, "memory": {"chars": 9}}}],
                                "status": "success",
                            }
                        }
                    ],
                },
            ],
            "toolConfig": TOOL_CONFIG,
            "inferenceConfig": INFERENCE,
        },
    )
    seen: list[ToolCall] = []

    def call_tool(call: ToolCall) -> ToolResult:
        seen.append(call)
        return ToolResult(call.id, {"ok": True, "memory": {"chars": 9}})

    # WHEN the agent loop runs the turn on the Converse model
    result = run_agent(
        model=model,
        fallback=None,
        system=SYSTEM,
        messages=[UserMessage("We deploy with SAM.")],
        tools=[MEMORY_TOOL],
        call_tool=call_tool,
        has_staged_writes=lambda: bool(seen),
    )
    # THEN the tool got the toolUse input and the final answer came back with usage
    assert seen == [ToolCall("tooluse_1", "memory_update", ADD)]
    assert (result.reply, result.stop_reason, result.model_calls) == ("Noted.", "end_turn", 2)
    assert result.usage == {"input_tokens": 200, "output_tokens": 40}


def test_a_rejected_tool_call_is_sent_back_with_status_error(
    stubbed: tuple[BedrockConverseModel, Stubber],
) -> None:
    model, stubber = stubbed
    # GIVEN a conversation whose tool result is an error and an assistant turn without text
    messages: list[Message] = [
        UserMessage("remember it"),
        AssistantMessage("", (ToolCall("t1", "memory_update", {"__raw__": "{bad"}),)),
        ToolResultsMessage((ToolResult("t1", {"error": "invalid arguments"}, is_error=True),)),
    ]
    stubber.add_response(
        "converse",
        converse_response([{"text": "Sorry."}]),
        expected_params={
            "modelId": MODEL_ID,
            "system": [{"text": SYSTEM}],
            "messages": [
                {"role": "user", "content": [{"text": "remember it"}]},
                {
                    "role": "assistant",
                    "content": [
                        {
                            "toolUse": {
                                "toolUseId": "t1",
                                "name": "memory_update",
                                "input": {"__raw__": "{bad"},
                            }
                        }
                    ],
                },
                {
                    "role": "user",
                    "content": [
                        {
                            "toolResult": {
                                "toolUseId": "t1",
                                "content": [{"json": {"error": "invalid arguments"}}],
                                "status": "error",
                            }
                        }
                    ],
                },
            ],
            "toolConfig": TOOL_CONFIG,
            "inferenceConfig": INFERENCE,
        },
    )
    # WHEN the model is called
    response = model.complete(system=SYSTEM, messages=messages, tools=[MEMORY_TOOL])
    # THEN the request passed validation (no blank text block) and the answer is neutral
    assert response.text == "Sorry."


def test_no_tools_means_no_tool_config_and_history_is_made_to_alternate(
    stubbed: tuple[BedrockConverseModel, Stubber],
) -> None:
    model, stubber = stubbed
    # GIVEN history starting with an assistant greeting and two user messages in a row
    messages: list[Message] = [
        AssistantMessage("Hi! How can I help?"),
        UserMessage("First."),
        UserMessage("Second."),
    ]
    stubber.add_response(
        "converse",
        converse_response([{"text": "Hello."}]),
        expected_params={
            "modelId": MODEL_ID,
            "system": [{"text": SYSTEM}],
            "messages": [{"role": "user", "content": [{"text": "First."}, {"text": "Second."}]}],
            "inferenceConfig": INFERENCE,
        },
    )
    # WHEN a memory-free route calls the model without tools
    response = model.complete(system=SYSTEM, messages=messages, tools=[])
    # THEN no toolConfig is sent, the greeting is dropped and the user turns are merged
    assert response.text == "Hello."
    assert response.tool_calls == ()


@pytest.mark.parametrize(
    ("bedrock_reason", "neutral"),
    [
        ("end_turn", "end_turn"),
        ("stop_sequence", "end_turn"),
        ("max_tokens", "max_tokens"),
        ("model_context_window_exceeded", "max_tokens"),
        ("guardrail_intervened", "refused"),
        ("content_filtered", "refused"),
    ],
)
def test_stop_reasons_map_to_neutral_ones(
    stubbed: tuple[BedrockConverseModel, Stubber], bedrock_reason: str, neutral: str
) -> None:
    model, stubber = stubbed
    stubber.add_response("converse", converse_response([{"text": "x"}], bedrock_reason))
    response = model.complete(system=SYSTEM, messages=[UserMessage("hi")], tools=[MEMORY_TOOL])
    assert response.stop_reason == neutral


@pytest.mark.parametrize("bedrock_reason", ["malformed_model_output", "malformed_tool_use"])
def test_malformed_output_is_a_retryable_model_error(
    stubbed: tuple[BedrockConverseModel, Stubber], bedrock_reason: str
) -> None:
    model, stubber = stubbed
    stubber.add_response("converse", converse_response([{"text": SENTINEL}], bedrock_reason))
    with pytest.raises(ModelError) as raised:
        model.complete(system=SYSTEM, messages=[UserMessage("hi")], tools=[MEMORY_TOOL])
    assert (raised.value.code, raised.value.retryable) == (bedrock_reason, True)
    assert SENTINEL not in str(raised.value)


@pytest.mark.parametrize(
    ("code", "status", "retryable", "error_type"),
    [
        ("ThrottlingException", 429, True, ModelError),
        ("ServiceUnavailableException", 503, True, ModelError),
        ("ModelNotReadyException", 429, True, ModelError),
        ("InternalServerException", 500, True, ModelError),
        ("ModelTimeoutException", 408, True, ModelTimeoutError),
        ("ValidationException", 400, False, ModelError),
        ("AccessDeniedException", 403, False, ModelError),
        ("ResourceNotFoundException", 404, False, ModelError),
    ],
)
def test_client_errors_map_to_content_free_model_errors(
    stubbed: tuple[BedrockConverseModel, Stubber],
    code: str,
    status: int,
    retryable: bool,
    error_type: type[ModelError],
) -> None:
    model, stubber = stubbed
    # GIVEN Bedrock fails with an error message that quotes the prompt (twice: a retryable
    # error is retried once)
    for _ in range(2 if retryable and error_type is ModelError else 1):
        stubber.add_client_error(
            "converse",
            service_error_code=code,
            service_message=f"The input {SENTINEL} was bad",
            http_status_code=status,
        )
    # WHEN the model is called
    with pytest.raises(ModelError) as raised:
        model.complete(system=SYSTEM, messages=[UserMessage(SENTINEL)], tools=[MEMORY_TOOL])
    # THEN the error says how to treat it and carries nothing of the content, not even chained
    error = raised.value
    assert type(error) is error_type
    assert (error.code, error.retryable) == (code, retryable)
    assert SENTINEL not in str(error)
    assert error.__cause__ is None
    assert error.__suppress_context__


def test_a_request_shape_bedrock_would_reject_fails(
    stubbed: tuple[BedrockConverseModel, Stubber],
) -> None:
    model, stubber = stubbed
    # GIVEN a tool spec botocore's service model rejects (the name must be a string)
    broken = ToolSpec(name=None, description="x", input_schema={})  # type: ignore[arg-type]
    stubber.add_response("converse", converse_response([{"text": "never"}]))
    # WHEN the model is called
    with pytest.raises(ModelError) as raised:
        model.complete(system=SYSTEM, messages=[UserMessage(SENTINEL)], tools=[broken])
    # THEN validation stops the request before any response, content-free and not retryable
    assert (raised.value.code, raised.value.retryable) == ("invalid_request", False)
    assert SENTINEL not in str(raised.value)
    # AND the queued response is still there for the next, valid request
    assert model.complete(system=SYSTEM, messages=[UserMessage("hi")], tools=[]).text == "never"


def test_a_read_timeout_is_a_model_timeout() -> None:
    # GIVEN a client whose socket read times out (Stubber cannot produce this)
    client = mock.Mock()
    client.converse.side_effect = ReadTimeoutError(endpoint_url="https://bedrock-runtime")
    model = BedrockConverseModel(client, MODEL_ID)
    # WHEN the model is called
    # THEN a retryable ModelTimeoutError is raised
    with pytest.raises(ModelTimeoutError) as raised:
        model.complete(system=SYSTEM, messages=[UserMessage("hi")], tools=[])
    assert raised.value.retryable


def test_a_non_object_tool_input_reaches_the_tool_as_raw(
    stubbed: tuple[BedrockConverseModel, Stubber],
) -> None:
    model, stubber = stubbed
    stubber.add_response(
        "converse",
        converse_response(
            [
                {
                    "toolUse": {
                        "toolUseId": "t",
                        "name": "memory_update",
                        "input": ["not", "an", "object"],
                    }
                }
            ],
            "tool_use",
        ),
    )
    response = model.complete(system=SYSTEM, messages=[UserMessage("hi")], tools=[MEMORY_TOOL])
    assert response.tool_calls == (
        ToolCall("t", "memory_update", {"__raw__": '["not", "an", "object"]'}),
    )
