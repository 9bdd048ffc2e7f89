"""The bounded agent loop: tool round trips, limits, unknown tools, fallback, deadlines."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from agent_memory.agent import AgentLoopLimitError, AgentResult, TurnModelStats, run_agent
from agent_memory.models import (
    AssistantMessage,
    Message,
    ModelError,
    ModelResponse,
    Reasoning,
    RulesModel,
    StopReason,
    ToolCall,
    ToolResult,
    ToolResultsMessage,
    ToolSpec,
    UserMessage,
)
from agent_memory.models.stream import StreamEvent, events_of

MEMORY_TOOL = ToolSpec(
    "memory_update",
    "Edit the bounded memory.",
    {"type": "object", "properties": {"operations": {"type": "array"}}, "required": ["operations"]},
)
USER = UserMessage("hello")
ADD = {"operations": [{"target": "memory", "action": "add", "content": "x"}]}


class ScriptedModel:
    """Returns (or raises) its steps in order and records what it was given."""

    def __init__(self, *steps: ModelResponse | Exception, name: str = "scripted") -> None:
        self.name = name
        self.steps = list(steps)
        self.seen: list[tuple[Message, ...]] = []
        self.budgets: list[float | None] = []

    def complete(
        self,
        *,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        budget_seconds: float | None = None,
    ) -> ModelResponse:
        self.seen.append(tuple(messages))
        self.budgets.append(budget_seconds)
        step = self.steps.pop(0)
        if isinstance(step, Exception):
            raise step
        return step


def asks(*calls: ToolCall, text: str = "") -> ModelResponse:
    return ModelResponse(
        text=text, tool_calls=calls, stop_reason="tool_use", usage={"input_tokens": 10}
    )


def answers(text: str = "Done.") -> ModelResponse:
    return ModelResponse(text=text, usage={"input_tokens": 10, "output_tokens": 2})


class Tools:
    """A call_tool that records calls and counts staged writes of successful ones."""

    def __init__(self) -> None:
        self.calls: list[ToolCall] = []

    def __call__(self, call: ToolCall) -> ToolResult:
        self.calls.append(call)
        return ToolResult(call.id, {"ok": True, "n": len(self.calls)})

    def staged(self) -> bool:
        return bool(self.calls)


def run(
    model: ScriptedModel | RulesModel,
    tools: Tools,
    *,
    fallback: ScriptedModel | RulesModel | None = None,
    messages: Sequence[Message] = (USER,),
    max_model_calls: int = 8,
) -> AgentResult:
    return run_agent(
        model=model,
        fallback=fallback,
        system="system",
        messages=messages,
        tools=[MEMORY_TOOL],
        call_tool=tools,
        has_staged_writes=tools.staged,
        max_model_calls=max_model_calls,
    )


def outage() -> ModelError:
    return ModelError(
        "Bedrock Converse failed with ThrottlingException.",
        code="ThrottlingException",
        retryable=True,
    )


def test_a_direct_answer_takes_one_model_call() -> None:
    tools = Tools()
    result = run(ScriptedModel(answers("Hi.")), tools)
    assert result == AgentResult(
        reply="Hi.",
        model_calls=1,
        tool_calls=0,
        used_fallback=False,
        stop_reason="end_turn",
        usage={"input_tokens": 10, "output_tokens": 2},
    )
    assert tools.calls == []


def test_tool_calls_are_executed_in_order_and_their_results_sent_back() -> None:
    # GIVEN a model asking for two tool calls, then answering
    first, second = ToolCall("a", "memory_update", ADD), ToolCall("b", "memory_update", ADD)
    model = ScriptedModel(asks(first, second, text="thinking"), answers())
    tools = Tools()
    history: tuple[Message, ...] = (USER,)
    # WHEN the loop runs
    result = run(model, tools, messages=history)
    # THEN both calls ran in order and the second model call saw the round trip
    assert tools.calls == [first, second]
    assert model.seen[1] == (
        USER,
        AssistantMessage("thinking", (first, second)),
        ToolResultsMessage(
            (ToolResult("a", {"ok": True, "n": 1}), ToolResult("b", {"ok": True, "n": 2}))
        ),
    )
    assert (result.model_calls, result.tool_calls, result.reply) == (2, 2, "Done.")
    assert result.usage == {"input_tokens": 20, "output_tokens": 2}
    assert history == (USER,)  # the caller's messages are not mutated


def test_an_unknown_tool_gets_an_error_result_without_reaching_call_tool() -> None:
    # GIVEN a model asking for a tool that is not offered
    model = ScriptedModel(asks(ToolCall("x", "delete_everything", {})), answers())
    tools = Tools()
    # WHEN the loop runs
    result = run(model, tools)
    # THEN call_tool was never called and the model got an error result
    assert tools.calls == []
    (results,) = [m for m in model.seen[1] if isinstance(m, ToolResultsMessage)]
    assert results.results[0].tool_call_id == "x"
    assert results.results[0].is_error
    assert result.tool_calls == 1


def test_a_result_for_the_wrong_id_is_attached_to_its_call() -> None:
    model = ScriptedModel(asks(ToolCall("right", "memory_update", ADD)), answers())
    run_agent(
        model=model,
        fallback=None,
        system="s",
        messages=[USER],
        tools=[MEMORY_TOOL],
        call_tool=lambda call: ToolResult("wrong", {"ok": True}),
        has_staged_writes=lambda: False,
    )
    (results,) = [m for m in model.seen[1] if isinstance(m, ToolResultsMessage)]
    assert results.results[0].tool_call_id == "right"


def test_a_model_that_never_stops_asking_hits_the_limit() -> None:
    # GIVEN a model that asks for a tool on every call
    model = ScriptedModel(*(asks(ToolCall(f"c{i}", "memory_update", ADD)) for i in range(10)))
    tools = Tools()
    # WHEN the loop runs with a budget of 3 model calls
    # THEN it fails after the third call, without running that call's tools
    with pytest.raises(AgentLoopLimitError) as raised:
        run(model, tools, max_model_calls=3)
    assert len(model.seen) == 3
    assert [c.id for c in tools.calls] == ["c0", "c1"]
    assert raised.value.max_model_calls == 3


def test_the_limit_does_not_trigger_the_fallback() -> None:
    model = ScriptedModel(asks(ToolCall("c", "other", {})))
    fallback = ScriptedModel(answers())
    with pytest.raises(AgentLoopLimitError):
        run(model, Tools(), fallback=fallback, max_model_calls=1)
    assert fallback.seen == []


def test_the_last_allowed_call_may_answer() -> None:
    model = ScriptedModel(asks(ToolCall("c", "memory_update", ADD)), answers())
    assert run(model, Tools(), max_model_calls=2).model_calls == 2


def test_max_model_calls_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_model_calls"):
        run(ScriptedModel(), Tools(), max_model_calls=0)


@pytest.mark.parametrize("stop_reason", ["max_tokens", "refused", "end_turn"])
def test_tool_calls_without_tool_use_stop_are_not_executed(stop_reason: StopReason) -> None:
    response = ModelResponse("partial", (ToolCall("c", "memory_update", ADD),), stop_reason)
    tools = Tools()
    result = run(ScriptedModel(response), tools)
    assert tools.calls == []
    assert (result.reply, result.stop_reason) == ("partial", stop_reason)


def test_the_fallback_restarts_from_the_original_messages_when_nothing_is_staged() -> None:
    # GIVEN a primary whose tool call is rejected (nothing staged) and which then fails
    def rejecting(call: ToolCall) -> ToolResult:
        return ToolResult(call.id, {"error": "no match"}, is_error=True)

    primary = ScriptedModel(asks(ToolCall("p", "memory_update", ADD)), outage())
    fallback = ScriptedModel(answers("From the fallback."), name="fallback")
    # WHEN the loop runs
    result = run_agent(
        model=primary,
        fallback=fallback,
        system="s",
        messages=[USER],
        tools=[MEMORY_TOOL],
        call_tool=rejecting,
        has_staged_writes=lambda: False,
    )
    # THEN the fallback answered, starting from the caller's messages only
    assert fallback.seen == [(USER,)]
    assert (result.reply, result.used_fallback) == ("From the fallback.", True)
    assert (result.model_calls, result.tool_calls) == (3, 1)


def test_the_fallback_never_runs_after_a_staged_mutation() -> None:
    # GIVEN a primary that staged a write and then failed
    primary = ScriptedModel(asks(ToolCall("p", "memory_update", ADD)), outage())
    fallback = ScriptedModel(answers(), name="fallback")
    tools = Tools()
    # WHEN the loop runs
    # THEN the model error propagates (the turn fails) and the fallback was never called
    with pytest.raises(ModelError) as raised:
        run(primary, tools, fallback=fallback)
    assert raised.value.code == "ThrottlingException"
    assert tools.staged()
    assert fallback.seen == []


def test_without_a_fallback_the_error_propagates() -> None:
    with pytest.raises(ModelError):
        run(ScriptedModel(outage()), Tools())


def test_the_fallback_runs_once_and_its_error_propagates() -> None:
    fallback = ScriptedModel(ModelError("down", code="second", retryable=True))
    with pytest.raises(ModelError) as raised:
        run(ScriptedModel(outage()), Tools(), fallback=fallback)
    assert raised.value.code == "second"


class DeadlineExceeded(Exception):
    pass


def test_the_deadline_is_checked_before_every_model_and_tool_call() -> None:
    # GIVEN a turn with one round of two tool calls
    events: list[str] = []

    class Recording(ScriptedModel):
        def complete(
            self,
            *,
            system: str,
            messages: Sequence[Message],
            tools: Sequence[ToolSpec],
            budget_seconds: float | None = None,
        ) -> ModelResponse:
            events.append("model")
            return super().complete(system=system, messages=messages, tools=tools)

    def call_tool(call: ToolCall) -> ToolResult:
        events.append("tool")
        return ToolResult(call.id, {"ok": True})

    model = Recording(
        asks(ToolCall("a", "memory_update", ADD), ToolCall("b", "memory_update", ADD)), answers()
    )
    # WHEN the loop runs
    run_agent(
        model=model,
        fallback=None,
        system="s",
        messages=[USER],
        tools=[MEMORY_TOOL],
        call_tool=call_tool,
        has_staged_writes=lambda: False,
        check_deadline=lambda: events.append("deadline"),
    )
    # THEN every model and tool call was preceded by a deadline check
    assert events == [
        "deadline",
        "model",
        "deadline",
        "tool",
        "deadline",
        "tool",
        "deadline",
        "model",
    ]


@pytest.mark.parametrize("expire_at", [1, 2, 3])
def test_a_deadline_error_propagates_and_skips_the_fallback(expire_at: int) -> None:
    # GIVEN a deadline that expires at the n-th check, and a fallback ready
    checks = 0

    def check_deadline() -> None:
        nonlocal checks
        checks += 1
        if checks == expire_at:
            raise DeadlineExceeded

    primary = ScriptedModel(asks(ToolCall("a", "memory_update", ADD)), answers())
    fallback = ScriptedModel(answers())
    tools = Tools()
    # WHEN the loop runs
    # THEN the caller's own exception comes out unchanged, and nothing ran past the check
    with pytest.raises(DeadlineExceeded):
        run_agent(
            model=primary,
            fallback=fallback,
            system="s",
            messages=[USER],
            tools=[MEMORY_TOOL],
            call_tool=tools,
            has_staged_writes=tools.staged,
            check_deadline=check_deadline,
        )
    assert len(primary.seen) == (0, 1, 1)[expire_at - 1]
    assert len(tools.calls) == (0, 0, 1)[expire_at - 1]
    assert fallback.seen == []


# The seed's invariant end to end with the local models: "A model fallback does not run after
# a staged mutation".


def test_rules_primary_failing_after_a_staged_write_fails_the_turn() -> None:
    tools = Tools()
    primary, fallback = RulesModel(), RulesModel(name="rules-fallback", simulate=False)
    with pytest.raises(ModelError):
        run(
            primary,
            tools,
            fallback=fallback,
            messages=[UserMessage("remember: A.\nsimulate: fail")],
        )
    assert len(tools.calls) == 1


def test_rules_primary_failing_before_any_write_falls_back() -> None:
    tools = Tools()
    primary, fallback = RulesModel(), RulesModel(name="rules-fallback", simulate=False)
    result = run(
        primary, tools, fallback=fallback, messages=[UserMessage("simulate: fail\nremember: A.")]
    )
    assert result.used_fallback
    assert result.reply == "Noted 1 memory update."
    assert len(tools.calls) == 1  # only the fallback's call


# Issue 18: only retryable errors fall back; budgets, ids, reasoning and the turn's stats.


@pytest.mark.parametrize(
    "code", ["ValidationException", "AccessDeniedException", "invalid_request", "http_400"]
)
def test_an_error_the_fallback_would_repeat_does_not_trigger_it(code: str) -> None:
    # GIVEN the primary rejects the request as invalid (not retryable), a fallback ready
    primary = ScriptedModel(ModelError("bad request", code=code, retryable=False))
    fallback = ScriptedModel(answers(), name="fallback")
    # WHEN the turn runs THEN the error propagates and the fallback never ran
    with pytest.raises(ModelError) as raised:
        run(primary, Tools(), fallback=fallback)
    assert raised.value.code == code
    assert fallback.seen == []


def test_each_model_call_gets_the_time_left_as_its_budget() -> None:
    # GIVEN a turn whose time left shrinks between calls
    left = iter([20.0, 12.5, 3.0])
    primary = ScriptedModel(
        asks(ToolCall("a", "memory_update", ADD)), ModelError("down", code="x", retryable=True)
    )
    fallback = ScriptedModel(answers(), name="fallback")
    tools = Tools()
    # WHEN the loop runs (two primary calls, then the fallback)
    run_agent(
        model=primary,
        fallback=fallback,
        system="s",
        messages=[USER],
        tools=[MEMORY_TOOL],
        call_tool=tools,
        has_staged_writes=lambda: False,
        time_left=lambda: next(left),
    )
    # THEN every call, the fallback's included, was given the time left at its start
    assert primary.budgets == [20.0, 12.5]
    assert fallback.budgets == [3.0]


def test_repeated_tool_call_ids_are_made_unique_within_the_turn() -> None:
    # GIVEN a model that reuses the id "call_0" in every round and twice in one round
    model = ScriptedModel(
        asks(ToolCall("call_0", "memory_update", ADD)),
        asks(ToolCall("call_0", "memory_update", ADD), ToolCall("call_0", "memory_update", ADD)),
        answers(),
    )
    tools = Tools()
    # WHEN the turn runs
    run(model, tools)
    # THEN every call got its own id, and the conversation pairs each result with its call
    ids = [call.id for call in tools.calls]
    assert len(set(ids)) == 3
    final = model.seen[-1]
    sent_calls = [c.id for m in final if isinstance(m, AssistantMessage) for c in m.tool_calls]
    sent_results = [
        r.tool_call_id for m in final if isinstance(m, ToolResultsMessage) for r in m.results
    ]
    assert sent_calls == sent_results == ids


def test_reasoning_goes_back_with_the_assistant_turn() -> None:
    thinking = Reasoning(text="plan", signature="sig")
    first = ModelResponse(
        "", (ToolCall("a", "memory_update", ADD),), "tool_use", reasoning=(thinking,)
    )
    model = ScriptedModel(first, answers())
    run(model, Tools())
    assistant = model.seen[1][1]
    assert isinstance(assistant, AssistantMessage)
    assert assistant.reasoning == (thinking,)


@pytest.mark.parametrize("stop_reason", ["max_tokens", "refused"])
def test_a_cut_off_or_refused_answer_is_returned_with_its_stop_reason(
    stop_reason: StopReason,
) -> None:
    # The loop reports it; the turn service decides that such a turn commits nothing.
    model = ScriptedModel(ModelResponse("partial", stop_reason=stop_reason))
    assert run(model, Tools()).stop_reason == stop_reason


def test_the_turn_stats_survive_a_failure_and_say_who_answered() -> None:
    # GIVEN a primary that uses tokens, then fails; a fallback that answers
    primary = ScriptedModel(asks(ToolCall("a", "memory_update", ADD)), outage())
    fallback = ScriptedModel(answers(), name="fallback")
    stats = TurnModelStats()
    # WHEN the turn runs with nothing staged (the tool call stages nothing here)
    run_agent(
        model=primary,
        fallback=fallback,
        system="s",
        messages=[USER],
        tools=[MEMORY_TOOL],
        call_tool=Tools(),
        has_staged_writes=lambda: False,
        stats=stats,
    )
    # THEN the stats count every call and token, and the fallback answered
    assert (stats.model_calls, stats.tool_calls) == (3, 1)
    assert stats.usage == {"input_tokens": 20, "output_tokens": 2}
    assert (stats.used_fallback, stats.fallback_answered, stats.stop_reason) == (
        True,
        True,
        "end_turn",
    )


def test_the_stats_of_a_failed_turn_have_no_stop_reason() -> None:
    stats = TurnModelStats()
    with pytest.raises(ModelError):
        run_agent(
            model=ScriptedModel(asks(ToolCall("a", "memory_update", ADD)), outage()),
            fallback=None,
            system="s",
            messages=[USER],
            tools=[MEMORY_TOOL],
            call_tool=Tools(),
            has_staged_writes=lambda: False,
            stats=stats,
        )
    assert (stats.stop_reason, stats.fallback_answered, stats.model_calls) == (None, False, 2)


# Issue 14: the loop on stream(), text deltas to a sink, and the fallback rule for streams.


class StreamingScripted(ScriptedModel):
    """Streams each scripted answer as events (an error after ``fail_after`` events)."""

    def __init__(
        self,
        *steps: ModelResponse | Exception,
        fail_after: int | None = None,
        name: str = "streaming",
    ) -> None:
        super().__init__(*steps, name=name)
        self.fail_after = fail_after

    def stream(
        self,
        *,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        budget_seconds: float | None = None,
    ) -> Iterator[StreamEvent]:
        response = self.complete(
            system=system, messages=messages, tools=tools, budget_seconds=budget_seconds
        )
        for number, item in enumerate(events_of(response)):
            if self.fail_after is not None and number == self.fail_after:
                raise outage()
            yield item


def streamed_run(
    model: ScriptedModel, fallback: ScriptedModel | None = None, tools: Tools | None = None
) -> tuple[AgentResult, list[str]]:
    sent: list[str] = []
    tools = tools or Tools()
    result = run_agent(
        model=model,
        fallback=fallback,
        system="s",
        messages=[USER],
        tools=[MEMORY_TOOL],
        call_tool=tools,
        has_staged_writes=tools.staged,
        on_text=sent.append,
    )
    return result, sent


def test_a_streamed_turn_sends_its_text_as_it_comes_and_the_reply_is_what_was_sent() -> None:
    # GIVEN a model that says something, calls a tool, then answers
    model = StreamingScripted(
        asks(ToolCall("a", "memory_update", ADD), text="Let me note that."), answers("Noted.")
    )
    # WHEN the turn streams
    result, sent = streamed_run(model)
    # THEN the client got both rounds' text, and the reply is exactly the deltas joined
    assert sent == ["Let me note that.", "\n", "Noted."]
    assert result.reply == "".join(sent)


def test_a_model_without_stream_still_streams_its_complete_answer() -> None:
    result, sent = streamed_run(ScriptedModel(answers("Whole answer.")))
    assert sent == ["Whole answer."]
    assert result.reply == "Whole answer."


def test_the_fallback_answers_a_stream_that_failed_before_sending_anything() -> None:
    primary = StreamingScripted(answers("never seen"), fail_after=0)
    fallback = StreamingScripted(answers("From the fallback."), name="fallback")
    result, sent = streamed_run(primary, fallback)
    assert result.used_fallback
    assert sent == ["From the fallback."]


def test_no_fallback_once_text_was_sent_to_the_client() -> None:
    # GIVEN a stream that fails after its first text delta, nothing staged, a fallback ready
    primary = StreamingScripted(answers("Half an answer"), fail_after=1)
    fallback = StreamingScripted(answers("Another answer."), name="fallback")
    # WHEN the turn streams THEN the error propagates: the client already saw text
    with pytest.raises(ModelError):
        streamed_run(primary, fallback)
    assert fallback.seen == []
