"""Bedrock Converse against the real service's rules (issue 18): deadlines, end_turn with
toolUse, toolResult.status support, reasoning blocks, blank messages, retries. Request shapes
are checked by Stubber against botocore's model of bedrock-runtime."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber

from agent_memory.agent import run_agent
from agent_memory.models import (
    AssistantMessage,
    BedrockClients,
    BedrockConverseModel,
    Message,
    ModelDeadlineError,
    ModelError,
    Reasoning,
    ToolCall,
    ToolResult,
    ToolResultsMessage,
    ToolSpec,
    UserMessage,
)
from agent_memory.models.bedrock import BLANK_USER_TEXT, supports_tool_result_status

SYSTEM = "You are helpful."
SCHEMA: dict[str, Any] = {"type": "object", "properties": {"operations": {"type": "array"}}}
MEMORY_TOOL = ToolSpec("memory_update", "Edit the bounded memory.", SCHEMA)
ADD = {"operations": [{"target": "memory", "action": "add", "content": "Uses SAM."}]}
TOOL_CONFIG = {
    "tools": [
        {
            "toolSpec": {
                "name": "memory_update",
                "description": "Edit the bounded memory.",
                "inputSchema": {"json": SCHEMA},
            }
        }
    ]
}
CLAUDE = "us.anthropic.claude-sonnet-4-20250514-v1:0"


def client() -> Any:
    return boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )


@pytest.fixture
def stubber() -> Iterator[Stubber]:
    with Stubber(client()) as stub:
        yield stub
        stub.assert_no_pending_responses()


def model_on(stub: Stubber, model_id: str = CLAUDE, **options: Any) -> BedrockConverseModel:
    return BedrockConverseModel(
        stub.client, model_id, max_tokens=256, sleep=lambda seconds: None, **options
    )


def reply(content: list[dict[str, Any]], stop: str = "end_turn") -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": stop,
        "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
        "metrics": {"latencyMs": 5},
    }


def request(messages: list[dict[str, Any]], model_id: str = CLAUDE, **extra: Any) -> dict[str, Any]:
    return {
        "modelId": model_id,
        "system": [{"text": SYSTEM}],
        "messages": messages,
        "inferenceConfig": {"maxTokens": 256},
        **extra,
    }


def test_end_turn_with_tool_use_blocks_runs_the_calls(stubber: Stubber) -> None:
    # GIVEN Bedrock ends a turn with "end_turn" although the message asks for a tool
    stubber.add_response(
        "converse",
        reply([{"toolUse": {"toolUseId": "t1", "name": "memory_update", "input": ADD}}]),
    )
    stubber.add_response("converse", reply([{"text": "Noted."}]))
    seen: list[ToolCall] = []

    def call_tool(call: ToolCall) -> ToolResult:
        seen.append(call)
        return ToolResult(call.id, {"success": True})

    # WHEN the agent loop runs the turn
    result = run_agent(
        model=model_on(stubber),
        fallback=None,
        system=SYSTEM,
        messages=[UserMessage("We deploy with SAM.")],
        tools=[MEMORY_TOOL],
        call_tool=call_tool,
        has_staged_writes=lambda: bool(seen),
    )
    # THEN the call ran (it used to be dropped with an empty reply) and the answer followed
    assert seen == [ToolCall("t1", "memory_update", ADD)]
    assert (result.reply, result.stop_reason) == ("Noted.", "end_turn")


@pytest.mark.parametrize(
    ("model_id", "supported"),
    [
        (CLAUDE, True),
        ("anthropic.claude-3-5-haiku-20241022-v1:0", True),
        ("eu.amazon.nova-pro-v1:0", True),
        ("meta.llama3-1-70b-instruct-v1:0", False),
        ("mistral.mistral-large-2407-v1:0", False),
        ("anthropic.claude-v2:1", False),
        ("cohere.command-r-plus-v1:0", False),
    ],
)
def test_tool_result_status_goes_only_to_models_that_support_it(
    stubber: Stubber, model_id: str, supported: bool
) -> None:
    # GIVEN a rejected tool call in the conversation
    messages: list[Message] = [
        UserMessage("remember it"),
        AssistantMessage("", (ToolCall("t1", "memory_update", ADD),)),
        ToolResultsMessage((ToolResult("t1", {"error": "too long"}, is_error=True),)),
    ]
    result: dict[str, Any] = {"toolUseId": "t1", "content": [{"json": {"error": "too long"}}]}
    if supported:
        result["status"] = "error"
    stubber.add_response(
        "converse",
        reply([{"text": "Sorry."}]),
        expected_params=request(
            [
                {"role": "user", "content": [{"text": "remember it"}]},
                {
                    "role": "assistant",
                    "content": [
                        {"toolUse": {"toolUseId": "t1", "name": "memory_update", "input": ADD}}
                    ],
                },
                {"role": "user", "content": [{"toolResult": result}]},
            ],
            model_id=model_id,
            toolConfig=TOOL_CONFIG,
        ),
    )
    # WHEN the model is called THEN the request carries status only where the model takes it
    assert supports_tool_result_status(model_id) is supported
    model_on(stubber, model_id).complete(system=SYSTEM, messages=messages, tools=[MEMORY_TOOL])


def test_reasoning_blocks_go_back_unmodified_with_their_signature(stubber: Stubber) -> None:
    # GIVEN extended thinking: the model reasons (one block signed, one redacted), then calls
    thinking = {"reasoningText": {"text": "The user states a fact.", "signature": "sig-Abc=="}}
    redacted = {"redactedContent": b"\x00opaque\xff"}
    tool_use = {"toolUse": {"toolUseId": "t1", "name": "memory_update", "input": ADD}}
    stubber.add_response(
        "converse",
        reply(
            [{"reasoningContent": thinking}, {"reasoningContent": redacted}, tool_use],
            "tool_use",
        ),
    )
    stubber.add_response(
        "converse",
        reply([{"text": "Noted."}]),
        expected_params=request(
            [
                {"role": "user", "content": [{"text": "We deploy with SAM."}]},
                {
                    "role": "assistant",
                    "content": [
                        {"reasoningContent": thinking},
                        {"reasoningContent": redacted},
                        tool_use,
                    ],
                },
                {
                    "role": "user",
                    "content": [
                        {
                            "toolResult": {
                                "toolUseId": "t1",
                                "content": [{"json": {"success": True}}],
                                "status": "success",
                            }
                        }
                    ],
                },
            ],
            toolConfig=TOOL_CONFIG,
        ),
    )
    # WHEN the loop runs the tool round
    result = run_agent(
        model=model_on(stubber),
        fallback=None,
        system=SYSTEM,
        messages=[UserMessage("We deploy with SAM.")],
        tools=[MEMORY_TOOL],
        call_tool=lambda call: ToolResult(call.id, {"success": True}),
        has_staged_writes=lambda: True,
    )
    # THEN the second request carried the reasoning exactly as received (Stubber checked it)
    assert result.reply == "Noted."


def test_reasoning_never_reaches_the_reply(stubber: Stubber) -> None:
    stubber.add_response(
        "converse",
        reply(
            [
                {"reasoningContent": {"reasoningText": {"text": "secret plan", "signature": "s"}}},
                {"text": "Hello."},
            ]
        ),
    )
    response = model_on(stubber).complete(system=SYSTEM, messages=[UserMessage("hi")], tools=[])
    assert response.text == "Hello."
    assert response.reasoning == (Reasoning(text="secret plan", signature="s"),)


@pytest.mark.parametrize(
    "history",
    [
        [],
        [UserMessage("hi"), AssistantMessage("Hello! What can I do?")],
    ],
)
def test_a_whitespace_only_message_still_makes_a_valid_request_ending_on_the_user(
    stubber: Stubber, history: list[Message]
) -> None:
    # GIVEN a message of blanks (the API accepts it: it is 1 to 16,000 characters)
    expected = [
        {
            "role": "user" if isinstance(m, UserMessage) else "assistant",
            "content": [{"text": m.text}],
        }  # type: ignore[union-attr]
        for m in history
    ]
    expected.append({"role": "user", "content": [{"text": BLANK_USER_TEXT}]})
    stubber.add_response(
        "converse", reply([{"text": "Did you mean to send something?"}]), request(expected)
    )
    # WHEN the model is called
    response = model_on(stubber).complete(
        system=SYSTEM, messages=[*history, UserMessage(" \n\t ")], tools=[]
    )
    # THEN the request passed botocore's validation, had messages, and ended on the user's side
    # (it used to end on the assistant's greeting, which Claude continues as a prefill, or to
    # send no message at all)
    assert response.text == "Did you mean to send something?"


def test_a_retryable_error_is_retried_once_within_the_budget(stubber: Stubber) -> None:
    stubber.add_client_error("converse", "ThrottlingException", http_status_code=429)
    stubber.add_response("converse", reply([{"text": "Hello."}]))
    response = model_on(stubber).complete(
        system=SYSTEM, messages=[UserMessage("hi")], tools=[], budget_seconds=10
    )
    assert response.text == "Hello."


def test_a_validation_exception_is_not_retried(stubber: Stubber) -> None:
    stubber.add_client_error("converse", "ValidationException", http_status_code=400)
    with pytest.raises(ModelError) as raised:
        model_on(stubber).complete(system=SYSTEM, messages=[UserMessage("hi")], tools=[])
    assert (raised.value.code, raised.value.retryable) == ("ValidationException", False)


def test_no_call_starts_without_a_second_left(stubber: Stubber) -> None:
    # GIVEN no response queued: a call that started would fail the Stubber
    with pytest.raises(ModelDeadlineError):
        model_on(stubber).complete(
            system=SYSTEM, messages=[UserMessage("hi")], tools=[], budget_seconds=0.4
        )


@pytest.fixture
def silent_endpoint() -> Iterator[str]:
    """An HTTP endpoint that accepts connections and reads requests but never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            held.append(connection)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join()
    for connection in held:
        connection.close()
    listener.close()


def test_a_model_call_ends_within_the_turns_time_left(
    silent_endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN Bedrock that never answers, and the production client pool (25 s model timeout;
    # the old client read for 25 s twice, past the turn's deadline and the Lambda's)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    clients = BedrockClients(
        region="us-east-1", max_read_timeout=25.0, endpoint_url=silent_endpoint
    )
    model = BedrockConverseModel(clients, CLAUDE, timeout_seconds=25.0)
    # WHEN a call has 2.5 s left before the turn's deadline
    started = time.monotonic()
    with pytest.raises(ModelDeadlineError) as raised:
        model.complete(system=SYSTEM, messages=[UserMessage("hi")], tools=[], budget_seconds=2.5)
    elapsed = time.monotonic() - started
    # THEN it gave up within that time, as a deadline (the turn's timeout), not a model error
    assert elapsed <= 2.5 + 0.5
    assert raised.value.code == "deadline"
