"""The frames of the WebSocket API (DESIGN.md "Streaming turns (WebSocket)").

Client frames are JSON text: ``{"action": "chat", "turn_id"?, "message", "history"?}`` with
the limits of ``POST /chat``, and ``{"action": "cancel", "turn_id"}``. Unknown fields are
refused, so no frame can name a user: the owner comes from the ``$connect`` authorizer.
Server frames: ``started``, ``delta`` (the deltas concatenated are the reply), ``done``
(``memory`` as ``POST /chat``), ``cancelled`` (the answer to a cancel frame) and ``error``.
"""

from __future__ import annotations

import json
import uuid
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agent_memory.http.contract import MAX_HISTORY_ITEMS, MAX_MESSAGE_CHARS, HistoryItem
from agent_memory.websocket.exceptions import FrameError

# API Gateway refuses a WebSocket message over 128 KB by closing the connection (1009).
MAX_MESSAGE_BYTES = 128 * 1024
CLOSE_MESSAGE_TOO_BIG = 1009


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ChatFrame(_Frame):
    action: Literal["chat"]
    turn_id: str | None = None
    message: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
    history: list[HistoryItem] = Field(default_factory=list, max_length=MAX_HISTORY_ITEMS)


class CancelFrame(_Frame):
    action: Literal["cancel"]
    turn_id: str


def _turn_id_or_none(value: Any) -> str | None:
    """The frame's turn id when it is a UUID, for the error frame (never other input)."""
    if not isinstance(value, str):
        return None
    try:
        return str(uuid.UUID(value))
    except ValueError:
        return None


def parse_frame(body: str | None, expected: type[_Frame]) -> Any:
    """The client frame of one route, or ``FrameError`` (its message quotes nothing)."""
    if body is None or not body.strip():
        raise FrameError("invalid_frame", "The frame is empty: send a JSON object.")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise FrameError("invalid_json", "The frame is not valid JSON.") from None
    if not isinstance(data, dict):
        raise FrameError("invalid_frame", "The frame must be a JSON object.")
    turn_id = _turn_id_or_none(data.get("turn_id"))
    try:
        return expected.model_validate(data)
    except ValidationError:
        # The validation error quotes the input: the client gets a constant message.
        raise FrameError(
            "invalid_frame",
            "The frame breaks the contract (fields, types or the limits of POST /chat).",
            turn_id=turn_id,
        ) from None


def frame_text(frame: dict[str, Any]) -> str:
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


def started_frame(turn_id: str) -> dict[str, Any]:
    return {"type": "started", "turn_id": turn_id}


def delta_frame(turn_id: str, text: str) -> dict[str, Any]:
    return {"type": "delta", "turn_id": turn_id, "text": text}


def done_frame(turn_id: str, reply: str, memory: dict[str, Any]) -> dict[str, Any]:
    return {"type": "done", "turn_id": turn_id, "reply": reply, "memory": memory}


def cancelled_frame(turn_id: str, status: str) -> dict[str, Any]:
    return {"type": "cancelled", "turn_id": turn_id, "status": status}


def error_frame(code: str, message: str, *, turn_id: str | None = None) -> dict[str, Any]:
    frame: dict[str, Any] = {"type": "error", "error": {"code": code, "message": message}}
    if turn_id is not None:
        frame["turn_id"] = turn_id
    return frame
