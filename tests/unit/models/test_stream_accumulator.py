"""One accumulator for every provider's stream: folding ``stream()`` gives ``complete()``."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.models import (
    ModelError,
    ModelResponse,
    Reasoning,
    RulesModel,
    ToolCall,
    ToolSpec,
    UserMessage,
)
from agent_memory.models.stream import (
    BlockStop,
    StopEvent,
    TextDelta,
    ToolArgumentsDelta,
    ToolCallStart,
    UsageEvent,
    accumulate,
    events_of,
)

MEMORY_TOOL = ToolSpec("memory_update", "Edit memory.", {"type": "object"})
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
_arguments = st.dictionaries(st.text(max_size=8), _json, max_size=3)
_calls = st.lists(
    st.builds(
        ToolCall,
        id=st.text(min_size=1, max_size=6),
        name=st.sampled_from(["memory_update", "x"]),
        arguments=_arguments,
    ),
    max_size=3,
)
_reasoning = st.lists(
    st.one_of(
        st.builds(
            Reasoning,
            text=st.text(max_size=10),
            signature=st.none() | st.text(min_size=1, max_size=6),
        ),
        st.builds(Reasoning, redacted=st.binary(min_size=1, max_size=6)),
    ),
    max_size=2,
)


@st.composite
def responses(draw: Any) -> ModelResponse:
    calls = tuple(draw(_calls))
    stop = draw(st.sampled_from(["end_turn", "max_tokens", "refused"]))
    return ModelResponse(
        text=draw(st.text(max_size=30)),
        tool_calls=calls,
        stop_reason="tool_use" if calls else stop,
        usage={
            "input_tokens": draw(st.integers(0, 9999)),
            "output_tokens": draw(st.integers(0, 9999)),
        },
        reasoning=tuple(draw(_reasoning)),
    )


@settings(max_examples=200, deadline=None)
@given(response=responses())
def test_folding_the_events_of_a_response_gives_the_response(response: ModelResponse) -> None:
    assert accumulate(events_of(response)) == response


def test_tool_arguments_are_parsed_when_their_block_stops() -> None:
    # GIVEN a tool call whose JSON arrives in pieces, between text of another block
    events = [
        TextDelta(0, "Let me "),
        ToolCallStart(1, "t1", "memory_update"),
        ToolArgumentsDelta(1, '{"operations": [{"tar'),
        TextDelta(0, "note that."),
        ToolArgumentsDelta(1, 'get": "user"}]}'),
        BlockStop(1),
        StopEvent("tool_use"),
        UsageEvent(3, 4),
    ]
    # THEN the pieces were joined per block and parsed once complete
    assert accumulate(events) == ModelResponse(
        "Let me note that.",
        (ToolCall("t1", "memory_update", {"operations": [{"target": "user"}]}),),
        "tool_use",
        {"input_tokens": 3, "output_tokens": 4},
    )


def test_a_stop_with_tool_calls_is_tool_use_and_broken_arguments_stay_raw() -> None:
    events = [
        ToolCallStart(2, "t", "memory_update"),
        ToolArgumentsDelta(2, "{broken"),
        StopEvent("end_turn"),
    ]
    response = accumulate(events)
    assert response.stop_reason == "tool_use"
    assert response.tool_calls[0].arguments == {"__raw__": "{broken"}


_line = st.sampled_from(
    [
        "remember: we deploy with SAM",
        "about me: I like tea",
        "forget: tea",
        "update: SAM => CDK",
        'memory_update: {"operations": []}',
        "memory_update: {broken",
        "hello there",
        "simulate: sleep 1",
    ]
)


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(_line, max_size=6), memory_on=st.booleans())
def test_the_rules_model_streams_what_it_completes(lines: list[str], memory_on: bool) -> None:
    # GIVEN any script, played round by round with and without the memory tool
    model = RulesModel(sleep=lambda seconds: None)
    tools = (MEMORY_TOOL,) if memory_on else ()
    messages: list[Any] = [UserMessage("\n".join(lines))]
    for _ in range(8):
        streamed = list(model.stream(system="", messages=messages, tools=tools))
        completed = model.complete(system="", messages=messages, tools=tools)
        # THEN folding the stream gives the complete answer, text word by word
        assert accumulate(streamed) == completed
        texts = [event.text for event in streamed if isinstance(event, TextDelta)]
        assert "".join(texts) == completed.text
        assert len(texts) == len(completed.text.split())
        if completed.stop_reason != "tool_use":
            break
        from agent_memory.models import AssistantMessage, ToolResult, ToolResultsMessage

        messages += [
            AssistantMessage("", completed.tool_calls),
            ToolResultsMessage(
                tuple(ToolResult(c.id, {"success": True}) for c in completed.tool_calls)
            ),
        ]


def test_rules_simulate_lines_act_where_they_stand_in_the_stream() -> None:
    # GIVEN a sleep and then a failure after the tool round
    slept: list[float] = []
    model = RulesModel(sleep=slept.append)
    text = "simulate: sleep 2\nhello\nsimulate: fail"
    # WHEN the stream is opened, nothing has happened yet
    events = model.stream(system="", messages=[UserMessage(text)], tools=[MEMORY_TOOL])
    assert slept == []
    # THEN the sleep happens while it is consumed, and the failure is raised by the stream
    with pytest.raises(ModelError) as raised:
        next(events)
    assert slept == [2.0]
    assert raised.value.code == "simulated_failure"
