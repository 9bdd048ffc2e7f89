"""Bedrock ConverseStream: real event-stream frames from a local endpoint through botocore's own
parser (Stubber cannot feed events to converse_stream), and the request shape by Stubber."""

from __future__ import annotations

import time
from typing import Any

import boto3
import pytest
from bedrock_stream_server import StreamScript, event, exception, frames_of, stream_server
from botocore.stub import Stubber
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.models import (
    BedrockConverseModel,
    ModelDeadlineError,
    ModelError,
    ToolSpec,
    UserMessage,
)
from agent_memory.models.bedrock import from_converse_response
from agent_memory.models.stream import TextDelta, accumulate

MODEL = "anthropic.claude-3-5-haiku-20241022-v1:0"
SCHEMA: dict[str, Any] = {"type": "object", "properties": {"operations": {"type": "array"}}}
MEMORY_TOOL = ToolSpec("memory_update", "Edit the bounded memory.", SCHEMA)
HI = [UserMessage("hi")]


def converse(content: list[dict[str, Any]], stop: str = "end_turn") -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": stop,
        "usage": {"inputTokens": 12, "outputTokens": 7, "totalTokens": 19},
        "metrics": {"latencyMs": 5},
    }


def test_the_converse_stream_request_has_the_shape_bedrock_accepts() -> None:
    client = boto3.client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="t", aws_secret_access_key="t"
    )
    with Stubber(client) as stubber:
        stubber.add_response(
            "converse_stream",
            {},
            expected_params={
                "modelId": MODEL,
                "system": [{"text": "S"}],
                "messages": [{"role": "user", "content": [{"text": "hi"}]}],
                "inferenceConfig": {"maxTokens": 64},
                "toolConfig": {
                    "tools": [
                        {
                            "toolSpec": {
                                "name": "memory_update",
                                "description": "Edit the bounded memory.",
                                "inputSchema": {"json": SCHEMA},
                            }
                        }
                    ]
                },
            },
        )
        model = BedrockConverseModel(client, MODEL, max_tokens=64)
        # Stubber validated the request against botocore's model; its empty answer has no
        # stream, which the adapter reports as a content-free error
        with pytest.raises((ModelError, KeyError)):
            list(model.stream(system="S", messages=HI, tools=[MEMORY_TOOL]))
        stubber.assert_no_pending_responses()


_text = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=20
)
_block = st.one_of(
    _text.map(lambda text: {"text": text}),
    st.builds(
        lambda n, args: {
            "toolUse": {"toolUseId": f"tooluse_{n}", "name": "memory_update", "input": args}
        },
        st.integers(0, 999),
        st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5), max_size=3),
    ),
    st.builds(
        lambda text, sig: {"reasoningContent": {"reasoningText": {"text": text, "signature": sig}}},
        _text,
        st.text(alphabet="abcXYZ=+/", min_size=1, max_size=12),
    ),
    st.binary(min_size=1, max_size=8).map(lambda b: {"reasoningContent": {"redactedContent": b}}),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    content=st.lists(_block, min_size=1, max_size=4),
    stop=st.sampled_from(
        ["end_turn", "tool_use", "max_tokens", "stop_sequence", "guardrail_intervened"]
    ),
    pieces=st.integers(1, 5),
)
def test_folding_the_stream_gives_what_converse_gives(
    content: list[dict[str, Any]], stop: str, pieces: int
) -> None:
    # GIVEN the answer Converse would give, sent as ConverseStream frames cut in pieces
    response = converse(content, stop)
    with stream_server() as server:
        server.scripts.append(StreamScript(frames_of(response, pieces)))
        model = BedrockConverseModel(server.client(), MODEL)
        # WHEN the stream is folded
        folded = accumulate(model.stream(system="S", messages=HI, tools=[MEMORY_TOOL]))
    # THEN it is exactly the complete answer
    assert folded == from_converse_response(response)  # type: ignore[arg-type]
    assert server.requests[0]["path"] == f"/model/{MODEL.replace(':', '%3A')}/converse-stream"


def test_an_error_mid_stream_is_a_model_error_and_is_not_retried() -> None:
    # GIVEN a stream that starts, then fails with a camelCase exception event
    frames = frames_of(converse([{"text": "Hello there, friend"}]))[:3]
    frames.append(exception("throttlingException", "slow down SENTINEL-9"))
    with stream_server() as server:
        server.scripts.append(StreamScript(frames))
        model = BedrockConverseModel(server.client(), MODEL, sleep=lambda s: None)
        received: list[Any] = []
        events = model.stream(system="S", messages=HI, tools=[])
        # WHEN it is consumed
        with pytest.raises(ModelError) as raised:
            received.extend(events)
    # THEN the deltas before it arrived, the error is retryable by code, and no retry was made
    assert [e.text for e in received if isinstance(e, TextDelta)]
    assert (raised.value.code, raised.value.retryable) == ("ThrottlingException", True)
    assert "SENTINEL" not in str(raised.value)
    assert len(server.requests) == 1


def test_a_stream_cut_before_message_stop_is_a_failed_call() -> None:
    frames = frames_of(converse([{"text": "Hello there"}]))[:3]
    with stream_server() as server:
        server.scripts.append(StreamScript(frames, complete=False))
        model = BedrockConverseModel(server.client(), MODEL)
        with pytest.raises(ModelError) as raised:
            list(model.stream(system="S", messages=HI, tools=[]))
    assert (raised.value.code, raised.value.retryable) == ("connection_error", True)


def test_a_throttled_opening_request_is_retried() -> None:
    with stream_server() as server:
        server.scripts += [
            StreamScript([], status=429, body=b'{"message": "slow down"}'),
            StreamScript(frames_of(converse([{"text": "Hi."}]))),
        ]
        model = BedrockConverseModel(server.client(), MODEL, sleep=lambda s: None)
        folded = accumulate(model.stream(system="S", messages=HI, tools=[], budget_seconds=10))
    assert folded.text == "Hi."
    assert len(server.requests) == 2


def test_deltas_arrive_as_they_are_sent() -> None:
    # GIVEN a stream whose frames come 0.3 s apart
    frames = frames_of(converse([{"text": "one two three four five six"}]), pieces=6)
    with stream_server() as server:
        server.scripts.append(StreamScript(frames, delay=0.3))
        model = BedrockConverseModel(server.client(), MODEL)
        started = time.monotonic()
        stream = model.stream(system="S", messages=HI, tools=[])
        first_text = next(e for e in stream if isinstance(e, TextDelta))
        first_at = time.monotonic() - started
        list(stream)
        total = time.monotonic() - started
    # THEN the first text came long before the stream ended
    assert first_text.text
    assert first_at < total - 1.0


def test_a_slow_stream_ends_at_the_turns_deadline() -> None:
    # GIVEN events that each come within any read timeout, but far too many for the time left
    frames = [event("messageStart", {"role": "assistant"})] + [
        event("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": "x"}})
    ] * 30
    with stream_server() as server:
        server.scripts.append(StreamScript(frames, delay=0.25))
        model = BedrockConverseModel(server.client(read_timeout=5), MODEL)
        started = time.monotonic()
        # WHEN the call has 1.5 s left
        with pytest.raises(ModelDeadlineError):
            list(model.stream(system="S", messages=HI, tools=[], budget_seconds=1.5))
    # THEN it ended at the deadline, not after the 7.5 s the stream would take
    assert time.monotonic() - started < 2.5
