"""The model's own stream reaches the client (issue 14's model part): the rules model streams
its reply word by word, and a model that fails after sending text gets no fallback."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from ws_support import WebSocketGateway

from agent_memory.models import Message, ModelError, ModelResponse, ToolSpec
from agent_memory.models.stream import StreamEvent, TextDelta
from agent_memory.service import chat_service


def chat_frame(message: str, turn_id: str) -> dict[str, Any]:
    return {"action": "chat", "message": message, "turn_id": turn_id}


def test_the_reply_streams_word_by_word(gateway: WebSocketGateway) -> None:
    # GIVEN a connected client
    connection = gateway.connect()
    # WHEN it streams a turn of the rules model
    gateway.send(connection, chat_frame("remember: deltas come word by word", str(uuid.uuid4())))
    # THEN the reply came as one delta per word, and they concatenate to the reply
    frames = gateway.management.frames_of(connection)
    deltas = [frame["text"] for frame in frames if frame["type"] == "delta"]
    done = frames[-1]
    assert done["type"] == "done"
    assert len(deltas) == len(done["reply"].split()) > 1
    assert "".join(deltas) == done["reply"]


class HalfAnswer:
    """Streams some text, then fails as a broken stream would."""

    name = "half-answer"

    def complete(self, **kwargs: Any) -> ModelResponse:
        raise AssertionError("a streamed turn must use stream()")

    def stream(
        self,
        *,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        budget_seconds: float | None = None,
    ) -> Iterator[StreamEvent]:
        yield TextDelta(0, "Here is half ")
        raise ModelError("broken", code="connection_error", retryable=True)


def test_no_fallback_once_the_client_has_seen_text(
    gateway: WebSocketGateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a fallback model, and a primary that fails after its first delta
    monkeypatch.setenv("FALLBACK_MODEL_ID", "rules-fallback")
    from agent_memory.service import reset_services

    reset_services()
    monkeypatch.setattr(chat_service(), "_model", HalfAnswer())
    connection = gateway.connect()
    # WHEN the turn streams
    gateway.send(connection, chat_frame("hello", str(uuid.uuid4())))
    # THEN the client saw the half answer, then an error: no second answer from the fallback
    frames = gateway.management.frames_of(connection)
    kinds = [frame["type"] for frame in frames]
    assert kinds == ["started", "delta", "error"]
    assert frames[-1]["error"]["code"] == "model_error"
