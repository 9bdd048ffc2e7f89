"""No memory content and no token in any log of a streamed turn (sentinels), whatever the
turn's fate: committed, client gone, fenced by $disconnect, a refused frame."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest
from ws_support import GONE, WebSocketGateway

from agent_memory.telemetry import logger

SENTINEL = "SENTINEL-streamed-memory-7f3a"


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.getMessage()} {record.__dict__}")


@pytest.fixture
def logs(capsys: pytest.CaptureFixture[str]) -> Iterator[list[str]]:
    """Everything the process logs or prints during the test, as lines."""
    handler = logger.registered_handler
    stream = io.StringIO()
    previous_stream, handler.stream = handler.stream, stream
    root = logging.getLogger()
    collector, previous_level = _Collector(), root.level
    root.setLevel(logging.DEBUG)
    root.addHandler(collector)
    lines: list[str] = []
    try:
        yield lines
    finally:
        root.removeHandler(collector)
        root.setLevel(previous_level)
        handler.stream = previous_stream
        out, err = capsys.readouterr()
        lines.extend([stream.getvalue(), out, err, *collector.lines])


def test_no_memory_content_in_any_log_of_a_streamed_turn(
    gateway: WebSocketGateway, logs: list[str]
) -> None:
    # GIVEN turns that end every way a streamed turn can end, each carrying the sentinel
    connection = gateway.connect()
    gateway.send(connection, {"action": "chat", "message": f"remember: {SENTINEL} one"})
    gateway.management.on_post = lambda cid, f: GONE if f["type"] == "delta" else None
    gateway.send(connection, {"action": "chat", "message": f"remember: {SENTINEL} two"})
    other = gateway.connect()
    gateway.management.on_post = lambda cid, f: None
    gateway.management.on_get = lambda cid: (gateway.disconnect(cid), None)[1]
    gateway.send(other, {"action": "chat", "message": f"about me: {SENTINEL} three"})
    third = gateway.connect()
    gateway.send(third, json.dumps({"action": "chat", "message": SENTINEL, "user_id": "x"}))
    gateway.send(third, f"not json {SENTINEL}")
    # THEN the first turn committed the sentinel, and the logs never carried it
    done = gateway.management.frames_of(connection, "done")
    assert [f["memory"]["status"] for f in done] == ["committed"]
    gateway.management.on_get = lambda cid: None
    text = "\n".join(logs)
    assert SENTINEL not in text


def test_the_route_key_ends_with_its_invocation(gateway: WebSocketGateway) -> None:
    # GIVEN a streamed turn on a connection (every invocation logs with its route)
    connection = gateway.connect()
    gateway.send(connection, {"action": "chat", "message": "hello"})

    # WHEN the invocations have returned
    # THEN the shared logger no longer carries a route: a later log of the process (another
    # route's invocation, or another handler in the same process) is not mislabelled
    assert "route" not in logger.get_current_keys()
