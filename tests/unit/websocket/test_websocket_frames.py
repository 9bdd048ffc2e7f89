"""Client frames: the limits of POST /chat, no identity, and errors that quote nothing."""

from __future__ import annotations

import json
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_memory.websocket import CancelFrame, ChatFrame, FrameError, parse_frame

SECRET = "SENTINEL-frame-secret"


def test_a_chat_frame_with_the_limits_of_post_chat() -> None:
    turn_id = str(uuid.uuid4())
    frame = parse_frame(
        json.dumps(
            {
                "action": "chat",
                "turn_id": turn_id,
                "message": "hi",
                "history": [{"role": "assistant", "content": "hello"}],
            }
        ),
        ChatFrame,
    )
    assert (frame.turn_id, frame.message, len(frame.history)) == (turn_id, "hi", 1)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (None, "invalid_frame"),
        ("", "invalid_frame"),
        ("{", "invalid_json"),
        ("[1]", "invalid_frame"),
        (json.dumps({"action": "chat", "message": ""}), "invalid_frame"),
        (json.dumps({"action": "chat", "message": "x" * 16_001}), "invalid_frame"),
        (json.dumps({"action": "chat", "message": "x", "user_id": "mallory"}), "invalid_frame"),
        (json.dumps({"action": "chat", "message": "x", "sub": "mallory"}), "invalid_frame"),
        (json.dumps({"action": "cancel", "message": "x"}), "invalid_frame"),
    ],
)
def test_bad_chat_frames_are_refused_with_a_code(body: str | None, code: str) -> None:
    with pytest.raises(FrameError) as raised:
        parse_frame(body, ChatFrame)
    assert raised.value.code == code


@given(st.text(min_size=1, max_size=50))
def test_a_refused_frame_never_quotes_its_content(content: str) -> None:
    body = json.dumps({"action": "chat", "message": SECRET + content, "user_id": content})
    with pytest.raises(FrameError) as raised:
        parse_frame(body, ChatFrame)
    assert SECRET not in raised.value.message
    assert SECRET not in str(raised.value)


def test_a_refused_frame_keeps_its_turn_id_only_when_it_is_a_uuid() -> None:
    turn_id = str(uuid.uuid4())
    with pytest.raises(FrameError) as raised:
        parse_frame(json.dumps({"action": "cancel", "turn_id": turn_id, "x": 1}), CancelFrame)
    assert raised.value.turn_id == turn_id
    with pytest.raises(FrameError) as raised:
        parse_frame(json.dumps({"action": "cancel", "turn_id": SECRET, "x": 1}), CancelFrame)
    assert raised.value.turn_id is None
