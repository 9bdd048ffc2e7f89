"""What each way a model call ends means for the turn (issue 18): a cut-off or refused final
answer commits nothing and says why; a model call that runs out of the turn's time ends the
turn as ``turn_timeout``; the turn's record carries the stop reason, tokens and fallback."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from handler_support import Api, cold_start_with

from agent_memory.models import (
    Message,
    ModelDeadlineError,
    ModelError,
    ModelResponse,
    StopReason,
    ToolCall,
    ToolSpec,
)
from agent_memory.service import chat_service

ADD = {"operations": [{"target": "memory", "action": "add", "content": "staged fact"}]}


class Scripted:
    """Stages one memory write, then ends the way the test says; records the budgets."""

    name = "scripted"

    def __init__(self, final: ModelResponse | Exception) -> None:
        self.final = final
        self.budgets: list[float | None] = []

    def complete(
        self,
        *,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        budget_seconds: float | None = None,
    ) -> ModelResponse:
        self.budgets.append(budget_seconds)
        if len(self.budgets) == 1:
            return ModelResponse(
                "",
                (ToolCall("c1", "memory_update", ADD),),
                "tool_use",
                usage={"input_tokens": 7, "output_tokens": 3},
            )
        if isinstance(self.final, Exception):
            raise self.final
        return self.final


def turn_records(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [vars(record) for record in caplog.records if record.getMessage() == "memory turn"]


@pytest.mark.parametrize(
    ("stop_reason", "code"),
    [("max_tokens", "model_answer_cut_off"), ("refused", "model_answer_refused")],
)
@pytest.mark.parametrize("text", ["", "Here is the beginning of"])
def test_a_cut_off_or_refused_answer_commits_nothing_and_says_why(
    api: Api,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    stop_reason: StopReason,
    code: str,
    text: str,
) -> None:
    # GIVEN a model that stages a write, then ends its final answer cut off or refused
    model = Scripted(ModelResponse(text, stop_reason=stop_reason, usage={"output_tokens": 9}))
    monkeypatch.setattr(chat_service(), "_model", model)
    caplog.clear()
    # WHEN the turn runs
    reply = api.chat("remember: staged fact")
    # THEN it is no success: an error that says why, and nothing committed
    assert reply.status == 502
    assert reply.body["error"]["code"] == code
    assert api.memory()["memory"] == []
    [ledger] = api.items("ledger")
    assert ledger["status"]["S"] == "discarded"
    # AND the turn's record says how the model stopped and what it cost
    [record] = turn_records(caplog)
    assert record["stop_reason"] == stop_reason
    assert (record["input_tokens"], record["output_tokens"]) == (7, 12)
    assert (record["model_calls"], record["fallback_answered"]) == (2, False)


def test_a_complete_answer_commits_and_records_its_stop_reason(
    api: Api, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    model = Scripted(ModelResponse("Noted.", usage={"input_tokens": 1, "output_tokens": 2}))
    monkeypatch.setattr(chat_service(), "_model", model)
    caplog.clear()
    reply = api.chat("remember: staged fact")
    assert reply.status == 200
    assert reply.memory["status"] == "committed"
    [record] = turn_records(caplog)
    assert (record["stop_reason"], record["input_tokens"], record["output_tokens"]) == (
        "end_turn",
        8,
        5,
    )


def test_every_model_call_gets_the_turns_time_left(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a 20 s turn (1.5 s of safety margin)
    model = Scripted(ModelResponse("Noted."))
    monkeypatch.setattr(chat_service(), "_model", model)
    api.chat("remember: staged fact")
    # THEN both calls had a budget within the deadline, shrinking
    first, second = model.budgets
    assert first is not None
    assert second is not None
    assert 18.0 <= first <= 18.5
    assert second <= first


@pytest.mark.parametrize("fallback", [None, "rules-fallback"])
def test_a_model_call_that_runs_out_of_the_turns_time_is_a_turn_timeout(
    api: Api, monkeypatch: pytest.MonkeyPatch, fallback: str | None
) -> None:
    # GIVEN a model whose second call uses up the turn's time (a fallback or not)
    cold_start_with(monkeypatch, FALLBACK_MODEL_ID=fallback)
    monkeypatch.setattr(chat_service(), "_model", Scripted(ModelDeadlineError()))
    # WHEN the turn runs
    reply = api.chat("remember: staged fact")
    # THEN the client gets the timeout (504), not a model error, and nothing is stored
    assert reply.status == 504
    assert reply.body["error"]["code"] == "turn_timeout"
    assert api.memory()["memory"] == []


def test_a_rules_model_sleeping_past_the_deadline_is_cut_off_at_it(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a 2.6 s turn budget (1.1 s after the 1.5 s margin)
    cold_start_with(monkeypatch, TURN_DEADLINE_SECONDS="2.6")
    import time

    started = time.monotonic()
    # WHEN the model is asked to think for a minute
    reply = api.chat("remember: too late\nsimulate: sleep 60")
    # THEN the turn ends at its deadline as a timeout, having committed nothing
    assert reply.status == 504
    assert reply.body["error"]["code"] == "turn_timeout"
    assert time.monotonic() - started < 3.0
    assert api.memory()["memory"] == []


def test_a_non_retryable_model_error_is_a_model_error_without_the_fallback(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold_start_with(monkeypatch, FALLBACK_MODEL_ID="rules-fallback")
    service = chat_service()
    error = ModelError("bad", code="ValidationException", retryable=False)

    class Invalid(Scripted):
        def complete(self, **kwargs: Any) -> ModelResponse:
            raise error

    monkeypatch.setattr(service, "_model", Invalid(error))
    reply = api.chat("hello")
    assert reply.status == 502
    assert reply.body["error"]["code"] == "model_error"
