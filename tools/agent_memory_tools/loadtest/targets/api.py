"""What the load test sends and receives, whatever the target."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class ApiRequest:
    method: str
    path: str
    token: str | None
    body: Mapping[str, Any] | None = None
    headers: Mapping[str, str] = field(default_factory=dict)

    def header_pairs(self) -> tuple[tuple[str, str], ...]:
        headers = dict(self.headers)
        if self.token is not None:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.body is not None:
            headers["Content-Type"] = "application/json"
        return tuple(headers.items())

    def body_bytes(self) -> bytes:
        return b"" if self.body is None else json.dumps(self.body).encode("utf-8")


@dataclass(frozen=True)
class ApiAnswer:
    """``status`` 0 means no answer at all (``error`` says why)."""

    status: int
    body: Any
    latency_ms: float
    error: str | None = None
    # In-process only: the DynamoDB requests of the invocation, by operation, and the
    # commit's re-attempts from the turn's ``memory turn`` log record.
    requests: Mapping[str, int] | None = None
    retry_count: int | None = None
    replay_count: int | None = None
    # Streamed turns only.
    first_delta_ms: float | None = None
    deltas_match: bool | None = None
    # In-process only: the CPU time the invocation took in its worker process.
    cpu_ms: float | None = None

    @property
    def error_code(self) -> str | None:
        error = self.body.get("error") if isinstance(self.body, dict) else None
        code = error.get("code") if isinstance(error, dict) else None
        return str(code) if code is not None else None


def parse_body(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return {"unparsed": raw[:200].decode("utf-8", "replace")}


@dataclass(frozen=True)
class StreamRequest:
    """One chat frame on a connection of its own; ``drop`` says where its client leaves
    (``after_started``, ``mid_stream``) or None for a client that stays."""

    token: str
    user_id: str
    frame: Mapping[str, Any]
    drop: str | None = None


class StreamingTarget(Protocol):
    def stream_turn(self, request: StreamRequest) -> ApiAnswer: ...


class Target(Protocol):
    """Where the turns go: the handlers in worker processes, or an HTTP base URL."""

    name: str
    measures_requests: bool

    def start(self) -> None: ...

    def describe(self) -> dict[str, Any]: ...

    def token_for(self, user_id: str) -> str: ...

    def send(self, request: ApiRequest) -> ApiAnswer: ...

    def close(self) -> None: ...
