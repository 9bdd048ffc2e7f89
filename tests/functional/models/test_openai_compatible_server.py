"""OpenAICompatibleModel against a local fake chat-completions server (http.server in a thread)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from agent_memory.agent import run_agent
from agent_memory.models import (
    RAW_ARGUMENTS_KEY,
    ModelError,
    ModelTimeoutError,
    OpenAICompatibleModel,
    ToolCall,
    ToolResult,
    ToolSpec,
    UserMessage,
)

SENTINEL = "SENTINEL-c41d-never-in-errors"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"operations": {"type": "array", "minItems": 1, "maxItems": 20}},
    "required": ["operations"],
}
MEMORY_TOOL = ToolSpec("memory_update", "Edit the bounded memory.", SCHEMA)
ADD = {"operations": [{"target": "user", "action": "add", "content": "Prefers tea."}]}


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    delay: float = 0.0


@dataclass
class FakeServer:
    url: str
    replies: list[Reply] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)


@pytest.fixture
def server() -> Iterator[FakeServer]:
    fake = FakeServer(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers["Content-Length"])
            fake.requests.append(
                {
                    "path": self.path,
                    "headers": dict(self.headers),
                    "body": json.loads(self.rfile.read(length)),
                }
            )
            reply = fake.replies.pop(0)
            time.sleep(reply.delay)
            payload = (
                reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
            )
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except OSError:
                pass  # the client gave up (timeout test)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    fake.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    yield fake
    httpd.shutdown()
    httpd.server_close()
    assert fake.replies == [], "the test left scripted replies unused"


def completion(message: dict[str, Any], finish_reason: str | None = "stop") -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", **message},
                "finish_reason": finish_reason,
            }
        ],
        "usage": {"prompt_tokens": 50, "completion_tokens": 5, "total_tokens": 55},
    }


def tool_calls_message(arguments: str, call_id: str = "call_abc") -> dict[str, Any]:
    return {
        "content": None,
        "tool_calls": [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": "memory_update", "arguments": arguments},
            }
        ],
    }


def test_a_tool_call_round_trip_has_the_chat_completions_shapes(server: FakeServer) -> None:
    # GIVEN a server that first asks for memory_update, then answers
    server.replies += [
        Reply(body=completion(tool_calls_message(json.dumps(ADD)), "tool_calls")),
        Reply(body=completion({"content": "Noted."})),
    ]
    model = OpenAICompatibleModel(server.url + "/", "llama3.2", api_key="sk-test", timeout=5)
    seen: list[ToolCall] = []

    def call_tool(call: ToolCall) -> ToolResult:
        seen.append(call)
        return ToolResult(call.id, {"ok": True})

    # WHEN the agent loop runs the turn
    result = run_agent(
        model=model,
        fallback=None,
        system="System prompt.",
        messages=[UserMessage("I prefer tea.")],
        tools=[MEMORY_TOOL],
        call_tool=call_tool,
        has_staged_writes=lambda: bool(seen),
    )
    # THEN the tool got the parsed arguments and the answer came back
    assert seen == [ToolCall("call_abc", "memory_update", ADD)]
    assert (result.reply, result.model_calls, result.usage) == (
        "Noted.",
        2,
        {"input_tokens": 100, "output_tokens": 10},
    )
    # AND the first request carried the system message, the user message and the function tool
    first, second = server.requests
    assert first["path"] == "/v1/chat/completions"
    assert first["headers"]["Authorization"] == "Bearer sk-test"
    assert first["headers"]["Content-Type"] == "application/json"
    assert first["body"] == {
        "model": "llama3.2",
        "messages": [
            {"role": "system", "content": "System prompt."},
            {"role": "user", "content": "I prefer tea."},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "memory_update",
                    "description": "Edit the bounded memory.",
                    "parameters": SCHEMA,
                },
            }
        ],
    }
    # AND the second carried the assistant tool call (arguments as a JSON string) and the result
    assistant, tool = second["body"]["messages"][2:]
    assert assistant == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_abc",
                "type": "function",
                "function": {"name": "memory_update", "arguments": json.dumps(ADD)},
            }
        ],
    }
    assert tool == {"role": "tool", "tool_call_id": "call_abc", "content": json.dumps({"ok": True})}


def test_no_tools_and_no_key_send_neither(server: FakeServer) -> None:
    server.replies.append(Reply(body=completion({"content": "Hi."})))
    model = OpenAICompatibleModel(server.url, "m", timeout=5, max_tokens=64)
    response = model.complete(system="S", messages=[UserMessage("hi")], tools=[])
    (request,) = server.requests
    assert "tools" not in request["body"]
    assert "Authorization" not in request["headers"]
    assert request["body"]["max_completion_tokens"] == 64
    assert "max_tokens" not in request["body"]
    assert "temperature" not in request["body"]
    assert (response.text, response.stop_reason) == ("Hi.", "end_turn")


@pytest.mark.parametrize(
    ("finish_reason", "with_tool_calls", "expected"),
    [
        ("stop", False, "end_turn"),
        ("length", False, "max_tokens"),
        ("content_filter", False, "refused"),
        ("tool_calls", True, "tool_use"),
        ("stop", True, "tool_use"),  # older Ollama reports "stop" with tool calls
        (None, False, "end_turn"),
    ],
)
def test_finish_reasons_map_to_neutral_stop_reasons(
    server: FakeServer, finish_reason: str | None, with_tool_calls: bool, expected: str
) -> None:
    message = tool_calls_message(json.dumps(ADD)) if with_tool_calls else {"content": "x"}
    server.replies.append(Reply(body=completion(message, finish_reason)))
    model = OpenAICompatibleModel(server.url, "m", timeout=5)
    response = model.complete(system="S", messages=[UserMessage("hi")], tools=[MEMORY_TOOL])
    assert response.stop_reason == expected


def test_unparseable_arguments_reach_the_tool_raw_and_go_back_verbatim(server: FakeServer) -> None:
    # GIVEN a model that produces broken JSON arguments, then answers
    server.replies += [
        Reply(body=completion(tool_calls_message('{"operations": [', "c1"), "tool_calls")),
        Reply(body=completion({"content": "Sorry."})),
    ]
    model = OpenAICompatibleModel(server.url, "m", timeout=5)
    seen: list[ToolCall] = []

    def call_tool(call: ToolCall) -> ToolResult:
        seen.append(call)
        return ToolResult(call.id, {"error": "arguments must be a JSON object"}, is_error=True)

    # WHEN the turn runs
    run_agent(
        model=model,
        fallback=None,
        system="S",
        messages=[UserMessage("hi")],
        tools=[MEMORY_TOOL],
        call_tool=call_tool,
        has_staged_writes=lambda: False,
    )
    # THEN the tool saw the raw string, and the model got back exactly what it produced
    assert seen == [ToolCall("c1", "memory_update", {RAW_ARGUMENTS_KEY: '{"operations": ['})]
    assistant = server.requests[1]["body"]["messages"][2]
    assert assistant["tool_calls"][0]["function"]["arguments"] == '{"operations": ['


@pytest.mark.parametrize(
    ("status", "retryable"),
    [(429, True), (500, True), (503, True), (400, False), (401, False), (404, False)],
)
def test_http_errors_map_to_content_free_model_errors(
    server: FakeServer, status: int, retryable: bool
) -> None:
    # GIVEN an error response whose body quotes the prompt
    server.replies.append(Reply(status=status, body={"error": {"message": SENTINEL}}))
    model = OpenAICompatibleModel(server.url, "m", timeout=5, max_attempts=1)
    # WHEN the model is called
    with pytest.raises(ModelError) as raised:
        model.complete(system="S", messages=[UserMessage(SENTINEL)], tools=[])
    # THEN the error has the status as its code and nothing of the content
    assert (raised.value.code, raised.value.retryable) == (f"http_{status}", retryable)
    assert SENTINEL not in str(raised.value)
    assert raised.value.__cause__ is None


def test_a_slow_server_is_a_model_timeout(server: FakeServer) -> None:
    server.replies.append(Reply(body=completion({"content": "late"}), delay=0.5))
    model = OpenAICompatibleModel(server.url, "m", timeout=0.1)
    with pytest.raises(ModelTimeoutError) as raised:
        model.complete(system="S", messages=[UserMessage("hi")], tools=[])
    assert raised.value.retryable


def test_an_unreachable_server_is_a_retryable_connection_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # bound, never listening: connections are refused
        model = OpenAICompatibleModel(f"http://127.0.0.1:{port}/v1", "m", timeout=1, max_attempts=1)
        with pytest.raises(ModelError) as raised:
            model.complete(system="S", messages=[UserMessage("hi")], tools=[])
    assert (raised.value.code, raised.value.retryable) == ("connection_error", True)


@pytest.mark.parametrize(
    "body", [b"<html>" + SENTINEL.encode(), json.dumps({"choices": []}).encode()]
)
def test_a_garbled_response_is_an_invalid_response(server: FakeServer, body: bytes) -> None:
    server.replies.append(Reply(body=body))
    model = OpenAICompatibleModel(server.url, "m", timeout=5)
    with pytest.raises(ModelError) as raised:
        model.complete(system="S", messages=[UserMessage("hi")], tools=[])
    assert (raised.value.code, raised.value.retryable) == ("invalid_response", False)
    assert SENTINEL not in str(raised.value)


def test_only_http_urls_are_accepted() -> None:
    with pytest.raises(ValueError, match="http"):
        OpenAICompatibleModel("file:///etc/passwd", "m")
