"""OpenAI-compatible ``stream: true`` against a local server: data lines to [DONE], tool calls
assembled by index, usage in a last chunk without choices, limits over the whole stream."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.models import (
    ModelDeadlineError,
    ModelError,
    OpenAICompatibleModel,
    ToolSpec,
    UserMessage,
)
from agent_memory.models.stream import TextDelta, accumulate

SCHEMA: dict[str, Any] = {"type": "object", "properties": {"operations": {"type": "array"}}}
MEMORY_TOOL = ToolSpec("memory_update", "Edit the bounded memory.", SCHEMA)
HI = [UserMessage("hi")]


@dataclass
class Script:
    body: bytes
    stream: bool = True
    delay: float = 0.0
    chunk: int = 0
    """Bytes per write (0: all at once)."""


@dataclass
class Server:
    url: str = ""
    scripts: list[Script] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)


@pytest.fixture
def server() -> Iterator[Server]:
    fake = Server()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def do_POST(self) -> None:
            length = int(self.headers["Content-Length"])
            fake.requests.append(
                {"body": json.loads(self.rfile.read(length)), "headers": dict(self.headers)}
            )
            script = fake.scripts.pop(0)
            try:
                self.send_response(200)
                kind = "text/event-stream" if script.stream else "application/json"
                self.send_header("Content-Type", kind)
                self.end_headers()
                size = script.chunk or len(script.body) or 1
                for start in range(0, len(script.body), size):
                    if start and script.delay:
                        time.sleep(script.delay)
                    self.wfile.write(script.body[start : start + size])
                    self.wfile.flush()
            except OSError:
                pass

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, args=(0.01,), daemon=True).start()
    fake.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    yield fake
    httpd.shutdown()
    httpd.server_close()


def sse(*chunks: Any, done: bool = True) -> bytes:
    lines = [f"data: {json.dumps(chunk)}\n\n" for chunk in chunks]
    if done:
        lines.append("data: [DONE]\n\n")
    return ": keep-alive comment\n\n".join(lines).encode()


def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def usage_chunk(prompt: int, completion: int) -> dict[str, Any]:
    return {"choices": [], "usage": {"prompt_tokens": prompt, "completion_tokens": completion}}


def stream_of_completion(message: dict[str, Any], finish: str, pieces: int) -> list[dict[str, Any]]:
    """The chunks a server streams for a complete ``message``: text and arguments in pieces."""
    chunks = [chunk({"role": "assistant", "content": ""})]
    text = message.get("content") or ""
    size = max(len(text) // pieces, 1)
    chunks += [chunk({"content": text[i : i + size]}) for i in range(0, len(text), size)]
    for index, call in enumerate(message.get("tool_calls") or ()):
        arguments = call["function"]["arguments"]
        step = max(len(arguments) // pieces, 1)
        chunks.append(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": index,
                            "id": call["id"],
                            "type": "function",
                            "function": {"name": call["function"]["name"], "arguments": ""},
                        }
                    ]
                }
            )
        )
        chunks += [
            chunk(
                {
                    "tool_calls": [
                        {"index": index, "function": {"arguments": arguments[i : i + step]}}
                    ]
                }
            )
            for i in range(0, len(arguments), step)
        ]
    chunks.append(chunk({}, finish))
    chunks.append(usage_chunk(40, 9))
    return chunks


def drain(events: Iterator[Any], texts: list[str]) -> None:
    for item in events:
        if isinstance(item, TextDelta):
            texts.append(item.text)


def model_at(server: Server, **options: Any) -> OpenAICompatibleModel:
    options.setdefault("timeout", 5)
    return OpenAICompatibleModel(server.url, "gpt-5-mini", sleep=lambda s: None, **options)


_arguments = st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=6), max_size=3)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    text=st.text(max_size=40),
    calls=st.lists(_arguments, max_size=3),
    pieces=st.integers(1, 6),
)
def test_folding_the_stream_gives_what_complete_gives(
    server: Server, text: str, calls: list[dict[str, Any]], pieces: int
) -> None:
    # GIVEN one answer, sent once as a completion and once as a stream in pieces
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    if calls:
        message["tool_calls"] = [
            {
                "id": f"call_{n}",
                "type": "function",
                "function": {"name": "memory_update", "arguments": json.dumps(args)},
            }
            for n, args in enumerate(calls)
        ]
    finish = "tool_calls" if calls else "stop"
    completion = {
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 40, "completion_tokens": 9},
    }
    server.scripts += [
        Script(json.dumps(completion).encode(), stream=False),
        Script(sse(*stream_of_completion(message, finish, pieces))),
    ]
    model = model_at(server)
    # WHEN both are read
    completed = model.complete(system="S", messages=HI, tools=[MEMORY_TOOL])
    folded = accumulate(model.stream(system="S", messages=HI, tools=[MEMORY_TOOL]))
    # THEN they are the same answer
    assert folded == completed
    assert server.requests[-1]["body"]["stream"] is True
    assert server.requests[-1]["body"]["stream_options"] == {"include_usage": True}


def test_id_less_streamed_tool_calls_get_unique_ids(server: Server) -> None:
    body = sse(
        chunk(
            {"tool_calls": [{"index": 0, "function": {"name": "memory_update", "arguments": "{}"}}]}
        ),
        chunk(
            {"tool_calls": [{"index": 1, "function": {"name": "memory_update", "arguments": "{}"}}]}
        ),
        chunk({}, "tool_calls"),
    )
    server.scripts.append(Script(body))
    folded = accumulate(model_at(server).stream(system="S", messages=HI, tools=[MEMORY_TOOL]))
    first, second = folded.tool_calls
    assert first.id != second.id
    assert folded.stop_reason == "tool_use"


def test_a_stream_cut_before_done_is_a_failed_call(server: Server) -> None:
    server.scripts.append(Script(sse(chunk({"content": "Hello"}), done=False)))
    with pytest.raises(ModelError) as raised:
        list(model_at(server).stream(system="S", messages=HI, tools=[]))
    assert (raised.value.code, raised.value.retryable) == ("connection_error", True)


def test_an_error_line_mid_stream_is_a_model_error(server: Server) -> None:
    server.scripts.append(
        Script(sse(chunk({"content": "Hel"}), {"error": {"message": "SENTINEL-4"}}))
    )
    with pytest.raises(ModelError) as raised:
        list(model_at(server).stream(system="S", messages=HI, tools=[]))
    assert raised.value.code == "stream_error"
    assert "SENTINEL" not in str(raised.value)


def test_a_trickling_stream_ends_at_the_turns_deadline(server: Server) -> None:
    # GIVEN a stream sent 60 bytes at a time every 0.1 s (each read well within any timeout)
    body = sse(*[chunk({"content": "word "}) for _ in range(200)])
    server.scripts.append(Script(body, delay=0.1, chunk=60))
    started = time.monotonic()
    received: list[str] = []
    # WHEN the call has 1.5 s left
    events = model_at(server, max_attempts=1).stream(
        system="S", messages=HI, tools=[], budget_seconds=1.5
    )
    with pytest.raises(ModelDeadlineError):
        drain(events, received)
    # THEN deltas came as they arrived, and the call ended at the deadline
    assert received
    assert time.monotonic() - started < 2.2


def test_the_size_limit_counts_over_the_whole_stream(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent_memory.models import openai_stream

    monkeypatch.setattr(openai_stream, "MAX_STREAM_BYTES", 2_000)
    server.scripts.append(
        Script(sse(*[chunk({"content": "word "}) for _ in range(100)]), chunk=100)
    )
    with pytest.raises(ModelError) as raised:
        list(model_at(server).stream(system="S", messages=HI, tools=[]))
    assert raised.value.code == "invalid_response"


def test_a_refusal_in_the_stream_is_a_refused_stop(server: Server) -> None:
    server.scripts.append(Script(sse(chunk({"refusal": "I can't"}), chunk({}, "stop"))))
    folded = accumulate(model_at(server).stream(system="S", messages=HI, tools=[]))
    assert folded.stop_reason == "refused"
