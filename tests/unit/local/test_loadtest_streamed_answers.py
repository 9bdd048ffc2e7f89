"""How ``loadtest --stream`` reads a streamed turn's frames: the answer its oracle classifies."""

from __future__ import annotations

from typing import Any

import pytest

from agent_memory_tools.loadtest.outcomes import classify
from agent_memory_tools.loadtest.targets.management import StreamedConnection
from agent_memory_tools.loadtest.targets.streamed import streamed_answer

RESULT = {"started_at": 10.0, "latency_ms": 50.0, "requests": {"Query": 1}}


def _frames(**fields: Any) -> StreamedConnection:
    return StreamedConnection(opened=10.0, **fields)


def _done(reply: str, status: str = "committed", operations: int = 1) -> dict[str, Any]:
    memory = {"status": status, "operations": operations}
    return {"type": "done", "turn_id": "t", "reply": reply, "memory": memory}


def test_a_done_frame_is_post_chats_answer_with_the_time_to_the_first_delta() -> None:
    frames = _frames(first_delta=10.025, text=["Noted ", "it."], end=_done("Noted it."))

    answer = streamed_answer(RESULT, frames)

    assert (answer.status, answer.body["memory"]["status"]) == (200, "committed")
    assert answer.first_delta_ms == pytest.approx(25.0)
    assert answer.deltas_match is True
    assert classify(answer).outcome == "committed"


def test_deltas_that_are_not_the_reply_are_caught() -> None:
    frames = _frames(first_delta=10.1, text=["Noted "], end=_done("Noted it."))

    assert streamed_answer(RESULT, frames).deltas_match is False


def test_an_honest_not_saved_reply_is_not_held_against_the_deltas() -> None:
    done = _done("I proposed a memory update.", status="proposed")
    frames = _frames(first_delta=10.1, text=["Noted ", "it."], end=done)

    answer = streamed_answer(RESULT, frames)

    assert answer.deltas_match is None
    assert classify(answer).outcome == "not_committed"


def test_a_client_that_dropped_is_not_committed_whatever_came_after() -> None:
    frames = _frames(gone=True, end=_done("Noted it."))

    assert classify(streamed_answer(RESULT, frames)).outcome == "not_committed"


@pytest.mark.parametrize(
    ("code", "status", "outcome"),
    [
        ("invalid_frame", 400, "not_committed"),
        ("model_error", 500, "not_committed"),
        ("internal_error", 500, "unknown"),
    ],
)
def test_error_frames_say_what_they_can(code: str, status: int, outcome: str) -> None:
    frames = _frames(end={"type": "error", "error": {"code": code, "message": "m"}})

    answer = streamed_answer(RESULT, frames)

    assert answer.status == status
    assert classify(answer).outcome == outcome


def test_no_end_frame_or_a_crash_is_no_answer() -> None:
    assert classify(streamed_answer(RESULT, _frames())).outcome == "unknown"
    assert classify(streamed_answer({"crashed": "X"}, None)).outcome == "unknown"
