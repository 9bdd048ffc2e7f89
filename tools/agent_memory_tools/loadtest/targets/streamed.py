"""A streamed turn's frames as the answer the load test classifies, in POST /chat's terms.

- a ``done`` frame: 200 with ``{"turn_id", "reply", "memory"}`` (the memory outcome as
  ``POST /chat`` gives it), the time to the first delta, and whether the deltas
  concatenated were the reply (where the service keeps the model's text);
- a client that dropped: 200 with memory status ``disconnected``, not committed: the
  oracle then requires that none of the turn's facts is ever stored;
- an ``error`` frame: 400 for a refused frame (nothing ran), else 500 with its code (a
  model failure says nothing was saved; an internal error leaves the outcome unknown);
- no end frame at all, or a crashed invocation: no answer (unknown).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agent_memory_tools.loadtest.targets.api import ApiAnswer
from agent_memory_tools.loadtest.targets.management import StreamedConnection

DISCONNECTED = "disconnected"
# Error frames of a refused frame: the turn never started.
FRAME_ERRORS = frozenset({"invalid_frame", "invalid_json", "unknown_action", "invalid_turn_id"})


def _deltas_match(frames: StreamedConnection, done: Mapping[str, Any]) -> bool | None:
    """Whether the deltas concatenated are the ``done`` frame's reply; None where the service
    replaces the model's text by its honest "nothing was saved" reply (staged writes that
    did not commit: proposed, cancelled, conflict...), which the deltas cannot foresee."""
    memory = done.get("memory") or {}
    kept = not memory.get("operations") or memory.get("status") in ("committed", "unchanged")
    return "".join(frames.text) == done.get("reply") if kept else None


def streamed_answer(result: Mapping[str, Any], frames: StreamedConnection | None) -> ApiAnswer:
    if "refused" in result:
        return ApiAnswer(int(result["refused"]), {"message": "Forbidden"}, 0.0)
    if "crashed" in result or frames is None:
        return ApiAnswer(0, None, 0.0, error=f"the invocation failed: {result.get('crashed')}")
    measured: dict[str, Any] = {
        "latency_ms": float(result["latency_ms"]),
        "requests": dict(result["requests"]),
        "retry_count": result.get("retry_count"),
        "replay_count": result.get("replay_count"),
    }
    if frames.first_delta is not None:
        measured["first_delta_ms"] = (frames.first_delta - float(result["started_at"])) * 1000
    if frames.gone:
        return ApiAnswer(200, {"memory": {"status": DISCONNECTED}}, **measured)
    end = frames.end or {}
    if end.get("type") == "done":
        body = {"turn_id": end.get("turn_id"), "reply": end.get("reply"), "memory": end["memory"]}
        return ApiAnswer(200, body, deltas_match=_deltas_match(frames, end), **measured)
    if end.get("type") == "error":
        error = end.get("error") or {}
        status = 400 if error.get("code") in FRAME_ERRORS else 500
        return ApiAnswer(status, {"error": error}, **measured)
    return ApiAnswer(0, None, measured["latency_ms"], error="the stream ended without done")
