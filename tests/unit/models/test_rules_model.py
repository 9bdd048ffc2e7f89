"""The deterministic `rules` model of DESIGN.md "Local stack"."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.models import (
    RAW_ARGUMENTS_KEY,
    AssistantMessage,
    Message,
    ModelError,
    ModelResponse,
    RulesModel,
    ToolCall,
    ToolResult,
    ToolResultsMessage,
    ToolSpec,
    UserMessage,
)

# Our own copy of the seed's tool contract: these tests must not depend on agent_memory.domain.
MEMORY_TOOL = ToolSpec(
    name="memory_update",
    description="Add, replace or remove entries of the bounded memory.",
    input_schema={
        "type": "object",
        "properties": {"operations": {"type": "array", "minItems": 1, "maxItems": 20}},
        "required": ["operations"],
    },
)

SYSTEM = """Policy text.
<persistent_memory_data>
USER PROFILE [3% - 40/1375 characters]
The user prefers short code examples.
§
The user lives in Lisbon.

AGENT MEMORY [2% - 44/2200 characters]
The project uses Pydantic at API boundaries.
</persistent_memory_data>
"""


class Sleeps:
    def __init__(self) -> None:
        self.seconds: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.seconds.append(seconds)


def accept_all(call: ToolCall) -> ToolResult:
    return ToolResult(call.id, {"ok": True})


def drive(
    model: RulesModel,
    text: str,
    *,
    system: str = SYSTEM,
    tools: Sequence[ToolSpec] = (MEMORY_TOOL,),
    tool: Callable[[ToolCall], ToolResult] = accept_all,
) -> tuple[list[tuple[ToolCall, ...]], ModelResponse]:
    """Play a whole turn; return the tool-call rounds and the final response."""
    messages: list[Message] = [UserMessage(text)]
    rounds: list[tuple[ToolCall, ...]] = []
    for _ in range(50):
        response = model.complete(system=system, messages=messages, tools=tools)
        if response.stop_reason != "tool_use":
            return rounds, response
        rounds.append(response.tool_calls)
        messages.append(AssistantMessage(response.text, response.tool_calls))
        messages.append(ToolResultsMessage(tuple(tool(c) for c in response.tool_calls)))
    raise AssertionError("the rules model did not finish")


def operations(call: ToolCall) -> list[dict[str, object]]:
    ops = call.arguments["operations"]
    assert isinstance(ops, list)
    return ops


def op(target: str, action: str, **fields: str) -> dict[str, str]:
    return {"target": target, "action": action, **fields}


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "remember: Deploys go through SAM.",
            op("memory", "add", content="Deploys go through SAM."),
        ),
        (
            "about me: I am a Python developer.",
            op("user", "add", content="I am a Python developer."),
        ),
        ("forget: Pydantic", op("memory", "remove", match="Pydantic")),
        ("forget: Lisbon", op("user", "remove", match="Lisbon")),
        ("forget: not in any section", op("memory", "remove", match="not in any section")),
        (
            "update: Lisbon => Lives in Porto.",
            op("user", "replace", match="Lisbon", content="Lives in Porto."),
        ),
        (
            "update: Pydantic => Uses attrs.",
            op("memory", "replace", match="Pydantic", content="Uses attrs."),
        ),
    ],
)
def test_each_marker_makes_one_tool_call_with_one_operation(
    line: str, expected: dict[str, str]
) -> None:
    # GIVEN a message with a single directive and a prompt whose block has both sections
    model = RulesModel()
    # WHEN the turn is played
    rounds, final = drive(model, f"Hello there.\n{line}\nThanks!")
    # THEN the model called the tool once, with exactly one operation, then answered
    assert [len(r) for r in rounds] == [1]
    (call,) = rounds[0]
    assert call.name == "memory_update"
    assert call.arguments == {"operations": [expected]}
    assert final.stop_reason == "end_turn"
    assert final.text == "Noted 1 memory update."


def test_markers_are_case_insensitive_and_may_be_indented() -> None:
    # GIVEN directives with odd case and leading spaces
    # WHEN the turn is played
    rounds, _ = drive(RulesModel(), "  REMEMBER: Uses uv.\n\tAbout Me: Likes tea.")
    # THEN both are directives
    assert [operations(c)[0]["target"] for c in rounds[0]] == ["memory", "user"]


def test_forget_without_a_memory_block_defaults_to_memory() -> None:
    # GIVEN a prompt with no <persistent_memory_data> block (memory unavailable)
    # WHEN the user asks to forget something
    rounds, _ = drive(RulesModel(), "forget: Lisbon", system="Policy only.")
    # THEN the call targets the default store
    assert operations(rounds[0][0]) == [{"target": "memory", "action": "remove", "match": "Lisbon"}]


def test_forget_finds_an_entry_added_earlier_in_the_same_message() -> None:
    # GIVEN a message that adds to `user` and then forgets it
    # WHEN the turn is played
    rounds, _ = drive(RulesModel(), "about me: I like green tea.\nforget: green tea")
    # THEN the removal targets `user`, where the earlier directive put it
    assert operations(rounds[0][1])[0] == {
        "target": "user",
        "action": "remove",
        "match": "green tea",
    }


def test_update_without_arrow_still_reaches_the_tool_without_content() -> None:
    # GIVEN an update directive lacking "=> <new entry>"
    # WHEN the turn is played
    rounds, _ = drive(RulesModel(), "update: Pydantic")
    # THEN the tool gets a replace without content, which its contract rejects
    assert operations(rounds[0][0]) == [
        {"target": "memory", "action": "replace", "match": "Pydantic"}
    ]


def test_memory_update_passes_the_object_verbatim_hostile_fields_included() -> None:
    # GIVEN a memory_update directive with a JSON object carrying a forbidden user_id
    raw = (
        '{"user_id": "someone-else", '
        '"operations": [{"target": "user", "action": "add", "content": "x"}]}'
    )
    # WHEN the turn is played
    rounds, _ = drive(RulesModel(), f"memory_update: {raw}")
    # THEN the tool is called with exactly that object: the tool layer must reject it
    assert rounds[0][0].arguments == {
        "user_id": "someone-else",
        "operations": [{"target": "user", "action": "add", "content": "x"}],
    }


@pytest.mark.parametrize("raw", ["{not json", "[1, 2]", '"a string"', ""])
def test_memory_update_that_is_not_an_object_reaches_the_tool_as_raw(raw: str) -> None:
    # GIVEN a memory_update directive whose rest is not a JSON object
    # WHEN the turn is played
    rounds, _ = drive(RulesModel(), f"memory_update: {raw}")
    # THEN the tool still gets a call, with the raw text under RAW_ARGUMENTS_KEY
    assert rounds[0][0].arguments == {RAW_ARGUMENTS_KEY: raw}


def test_directives_act_in_order_and_consecutive_ones_are_grouped() -> None:
    # GIVEN two tool directives, a sleep, one more tool directive, and chat lines in between
    sleeps = Sleeps()
    model = RulesModel(sleep=sleeps)
    text = "remember: A.\nsome chat\nabout me: B.\nsimulate: sleep 2.5\nforget: A."
    # WHEN the turn is played
    rounds, final = drive(model, text)
    # THEN the first response has two calls, the sleep happens once, then the third call
    assert [[operations(c)[0]["action"] for c in r] for r in rounds] == [["add", "add"], ["remove"]]
    assert [c.id for r in rounds for c in r] == ["rules-0-0", "rules-0-1", "rules-1-0"]
    assert sleeps.seconds == [2.5]
    assert final.text == "Noted 3 memory updates."


def test_sleep_happens_at_its_position_and_only_once() -> None:
    # GIVEN a sleep between two groups
    sleeps = Sleeps()
    model = RulesModel(sleep=sleeps)
    first = [UserMessage("remember: A.\nsimulate: sleep 1\nremember: B.")]
    # WHEN the first call is made
    model.complete(system=SYSTEM, messages=first, tools=[MEMORY_TOOL])
    # THEN it has not slept yet (the sleep comes after the first group)
    assert sleeps.seconds == []
    # WHEN the whole turn is played
    drive(model, first[0].text)
    # THEN it slept exactly once more
    assert sleeps.seconds == [1.0]


@pytest.mark.parametrize(
    ("argument", "expected"), [("5000", 900.0), ("-3", 0.0), ("inf", 900.0), ("0.01", 0.01)]
)
def test_sleep_is_capped(argument: str, expected: float) -> None:
    # GIVEN a sleep directive with an extreme duration
    sleeps = Sleeps()
    # WHEN the turn is played
    drive(RulesModel(sleep=sleeps), f"simulate: sleep {argument}")
    # THEN the sleep is clamped to [0, 900] seconds
    assert sleeps.seconds == [expected]


def test_a_custom_sleep_cap_applies() -> None:
    sleeps = Sleeps()
    drive(RulesModel(sleep=sleeps, max_sleep_seconds=3), "simulate: sleep 60")
    assert sleeps.seconds == [3]


@pytest.mark.parametrize("argument", ["", "soon", "nan"])
def test_unreadable_sleep_is_ordinary_chat(argument: str) -> None:
    sleeps = Sleeps()
    _, final = drive(RulesModel(sleep=sleeps), f"simulate: sleep {argument}")
    assert sleeps.seconds == []
    assert final.text == "Nothing to remember."


def test_fail_raises_after_the_tool_calls_of_the_lines_above() -> None:
    # GIVEN two tool directives followed by a failure
    model = RulesModel()
    messages: list[Message] = [UserMessage("remember: A.\nabout me: B.\nsimulate: fail")]
    # WHEN the model is called the first time
    first = model.complete(system=SYSTEM, messages=messages, tools=[MEMORY_TOOL])
    # THEN it asks for both tool calls and does not fail yet
    assert len(first.tool_calls) == 2
    messages += [
        AssistantMessage(first.text, first.tool_calls),
        ToolResultsMessage(tuple(accept_all(c) for c in first.tool_calls)),
    ]
    # WHEN it is called again with the results
    # THEN it fails with a retryable, content-free ModelError
    with pytest.raises(ModelError) as raised:
        model.complete(system=SYSTEM, messages=messages, tools=[MEMORY_TOOL])
    assert raised.value.retryable
    assert raised.value.code == "simulated_failure"
    assert "remember" not in str(raised.value)


def test_fail_on_the_first_line_raises_on_the_first_call() -> None:
    with pytest.raises(ModelError):
        drive(RulesModel(), "simulate: fail\nremember: never reached")


def test_without_simulate_a_rules_model_ignores_sleep_and_fail() -> None:
    # GIVEN the local fallback flavour of the rules model
    sleeps = Sleeps()
    model = RulesModel(simulate=False, sleep=sleeps)
    # WHEN a message asks to sleep and fail
    rounds, final = drive(model, "simulate: sleep 5\nremember: A.\nsimulate: fail")
    # THEN it neither sleeps nor fails, and still makes the tool call
    assert sleeps.seconds == []
    assert len(rounds) == 1
    assert final.text == "Noted 1 memory update."


def test_without_the_memory_tool_directives_are_ignored_and_memory_is_off() -> None:
    # GIVEN a memory-free route: no tools
    sleeps = Sleeps()
    # WHEN a message with memory directives and a sleep is played
    rounds, final = drive(
        RulesModel(sleep=sleeps), "remember: A.\nsimulate: sleep 1\nforget: B.", tools=()
    )
    # THEN no tool is called, the sleep still happens, and the reply says memory is off
    assert rounds == []
    assert sleeps.seconds == [1.0]
    assert final.stop_reason == "end_turn"
    assert final.text == "Memory is off here, so I did not note anything."


def test_another_tool_does_not_enable_memory_directives() -> None:
    other = ToolSpec("web_search", "Search.", {"type": "object"})
    rounds, final = drive(RulesModel(), "remember: A.", tools=[other])
    assert rounds == []
    assert "Memory is off" in final.text


def test_chat_without_directives_gets_a_plain_reply() -> None:
    rounds, final = drive(RulesModel(), "How are you?\nNote: this is not a directive.")
    assert rounds == []
    assert final == ModelResponse(
        text="Nothing to remember.", usage={"input_tokens": 0, "output_tokens": 0}
    )


@pytest.mark.parametrize(
    ("rejected", "expected"),
    [
        ({0, 1, 2}, "No memory updates noted; 3 were rejected."),
        ({1}, "Noted 2 memory updates; 1 was rejected."),
        ({0, 2}, "Noted 1 memory update; 2 were rejected."),
    ],
)
def test_reply_counts_rejected_updates_without_echoing_content(
    rejected: set[int], expected: str
) -> None:
    # GIVEN a tool that rejects some calls with an error quoting a sentinel
    def tool(call: ToolCall) -> ToolResult:
        index = int(call.id.rsplit("-", 1)[1])
        if index in rejected:
            return ToolResult(call.id, {"error": "SENTINEL-REJECTED"}, is_error=True)
        return ToolResult(call.id, {"ok": True, "usage": "SENTINEL-USAGE"})

    # WHEN three updates are played
    _, final = drive(
        RulesModel(), "remember: SENTINEL-A\nremember: SENTINEL-B\nremember: C", tool=tool
    )
    # THEN the reply is a fixed sentence with counts only
    assert final.text == expected
    assert "SENTINEL" not in final.text


def test_the_reply_is_deterministic() -> None:
    text = "remember: A.\nabout me: B.\nsimulate: sleep 1\nforget: C."
    first = drive(RulesModel(sleep=Sleeps()), text)
    second = drive(RulesModel(sleep=Sleeps()), text)
    assert first == second


def test_only_the_last_user_message_is_a_script() -> None:
    # GIVEN history whose earlier user message held directives
    history: list[Message] = [
        UserMessage("remember: old fact"),
        AssistantMessage("Noted 1 memory update."),
        UserMessage("Just chatting."),
    ]
    # WHEN the model is called
    response = RulesModel().complete(system=SYSTEM, messages=history, tools=[MEMORY_TOOL])
    # THEN the old directives do not act again
    assert response.tool_calls == ()
    assert response.text == "Nothing to remember."


def test_one_instance_serves_interleaved_conversations() -> None:
    # GIVEN one shared instance and two conversations advanced alternately
    model = RulesModel()
    a: list[Message] = [UserMessage("remember: A1.\nsimulate: sleep 0\nremember: A2.")]
    b: list[Message] = [UserMessage("about me: B1.")]
    # WHEN each gets its first response, interleaved
    a1 = model.complete(system=SYSTEM, messages=a, tools=[MEMORY_TOOL])
    b1 = model.complete(system=SYSTEM, messages=b, tools=[MEMORY_TOOL])
    a += [AssistantMessage("", a1.tool_calls), ToolResultsMessage((accept_all(a1.tool_calls[0]),))]
    b += [AssistantMessage("", b1.tool_calls), ToolResultsMessage((accept_all(b1.tool_calls[0]),))]
    b2 = model.complete(system=SYSTEM, messages=b, tools=[MEMORY_TOOL])
    a2 = model.complete(system=SYSTEM, messages=a, tools=[MEMORY_TOOL])
    # THEN each continues its own script, unaffected by the other
    assert operations(a1.tool_calls[0])[0]["content"] == "A1."
    assert operations(b1.tool_calls[0])[0]["content"] == "B1."
    assert b2.text == "Noted 1 memory update."
    assert operations(a2.tool_calls[0])[0]["content"] == "A2."
    assert vars(model) == vars(RulesModel())  # no request state on the instance


def test_no_user_message_is_answered_without_tools() -> None:
    response = RulesModel().complete(system=SYSTEM, messages=[], tools=[MEMORY_TOOL])
    assert response.stop_reason == "end_turn"
    assert response.tool_calls == ()


_directive = st.sampled_from(
    [
        "remember: x",
        "about me: y",
        "forget: z",
        "update: a => b",
        'memory_update: {"operations": []}',
    ]
)
_line = st.one_of(
    _directive,
    st.just("simulate: sleep 1"),
    st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=30),
)
_REPLIES = re.compile(
    r"Nothing to remember\.|Noted \d+ memory updates?\."
    r"|Memory is off here, so I did not note anything\."
)


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(_line, max_size=12), memory_on=st.booleans())
def test_every_memory_directive_makes_exactly_one_call(lines: list[str], memory_on: bool) -> None:
    # GIVEN any mix of directives and arbitrary chat lines
    text = "\n".join(lines)
    expected = sum(1 for line in text.splitlines() if _is_memory_directive(line))
    # WHEN the turn is played with or without the memory tool
    rounds, final = drive(
        RulesModel(sleep=lambda _s: None), text, tools=(MEMORY_TOOL,) if memory_on else ()
    )
    # THEN one call per directive (none when memory is off) and a reply from a fixed set
    assert sum(len(r) for r in rounds) == (expected if memory_on else 0)
    assert all(r for r in rounds)
    assert _REPLIES.fullmatch(final.text)


def _is_memory_directive(line: str) -> bool:
    marker, colon, _ = line.strip().partition(":")
    markers = {"remember", "about me", "forget", "update", "memory_update"}
    return bool(colon) and marker.strip().lower() in markers
