"""The OpenAI-compatible adapter against a local server that misbehaves as real ones do
(issue 18): a trickling body, a cut-off response, a garbled status line, a redirect to another
host, retryable statuses, id-less tool calls, hosted OpenAI's parameters."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from agent_memory.agent import run_agent
from agent_memory.models import (
    ModelDeadlineError,
    ModelError,
    ModelTimeoutError,
    OpenAICompatibleModel,
    RulesModel,
    ToolCall,
    ToolResult,
    ToolSpec,
    UserMessage,
)

SCHEMA: dict[str, Any] = {"type": "object", "properties": {"operations": {"type": "array"}}}
MEMORY_TOOL = ToolSpec("memory_update", "Edit the bounded memory.", SCHEMA)
ADD = {"operations": [{"target": "user", "action": "add", "content": "Prefers tea."}]}

Behaviour = Callable[[BaseHTTPRequestHandler], None]


@dataclass
class Server:
    url: str = ""
    behaviours: list[Behaviour] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)


def serve() -> tuple[Server, ThreadingHTTPServer]:
    server = Server()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _record(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            server.requests.append(
                {
                    "method": method,
                    "path": self.path,
                    "headers": dict(self.headers),
                    "body": json.loads(raw) if raw else None,
                }
            )
            behaviour = server.behaviours.pop(0)
            with contextlib.suppress(OSError):  # the client gave up
                behaviour(self)

        def do_POST(self) -> None:
            self._record("POST")

        def do_GET(self) -> None:
            self._record("GET")

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, args=(0.01,), daemon=True).start()
    server.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    return server, httpd


@pytest.fixture
def server() -> Iterator[Server]:
    fake, httpd = serve()
    yield fake
    httpd.shutdown()
    httpd.server_close()
    assert fake.behaviours == [], "the test left scripted behaviours unused"


@pytest.fixture
def other_host() -> Iterator[Server]:
    fake, httpd = serve()
    yield fake
    httpd.shutdown()
    httpd.server_close()


def completion(message: dict[str, Any], finish_reason: str = "stop") -> dict[str, Any]:
    return {
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", **message},
                "finish_reason": finish_reason,
            }
        ],
        "usage": {"prompt_tokens": 5, "completion_tokens": 1},
    }


def answer(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Behaviour:
    def behaviour(handler: BaseHTTPRequestHandler) -> None:
        payload = json.dumps(body).encode()
        handler.send_response(status)
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        handler.wfile.write(payload)

    return behaviour


def trickle(handler: BaseHTTPRequestHandler) -> None:
    """Headers at once, then one byte every 0.2 s: a read timeout never fires."""
    handler.send_response(200)
    handler.send_header("Content-Length", "100000")
    handler.end_headers()
    for _ in range(100):
        handler.wfile.write(b" ")
        handler.wfile.flush()
        time.sleep(0.2)


def cut_off(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Length", "500")
    handler.end_headers()
    handler.wfile.write(b'{"choices": [')
    handler.wfile.flush()
    handler.close_connection = True


def garbled_status(handler: BaseHTTPRequestHandler) -> None:
    handler.wfile.write(b"NOT-HTTP AT ALL\r\n\r\n")
    handler.close_connection = True


def hang_up(handler: BaseHTTPRequestHandler) -> None:
    handler.close_connection = True


def model_at(url: str, **options: Any) -> OpenAICompatibleModel:
    options.setdefault("timeout", 5)
    return OpenAICompatibleModel(url, "gpt-5-mini", sleep=lambda seconds: None, **options)


def test_a_trickling_server_is_cut_off_at_the_calls_wall_clock_limit(server: Server) -> None:
    # GIVEN a server that sends a byte every 0.2 s (urllib's timeout restarted on each byte)
    server.behaviours.append(trickle)
    model = model_at(server.url, max_attempts=1)
    # WHEN a call has 1.5 s left before the turn's deadline
    started = time.monotonic()
    with pytest.raises(ModelDeadlineError):
        model.complete(system="S", messages=[UserMessage("hi")], tools=[], budget_seconds=1.5)
    # THEN it ended at the deadline, as the turn's timeout
    assert time.monotonic() - started < 1.5 + 0.5


def test_the_providers_own_timeout_also_bounds_the_whole_call(server: Server) -> None:
    server.behaviours.append(trickle)
    started = time.monotonic()
    with pytest.raises(ModelTimeoutError) as raised:
        model_at(server.url, timeout=1.0, max_attempts=1).complete(
            system="S", messages=[UserMessage("hi")], tools=[]
        )
    assert time.monotonic() - started < 1.5
    assert not isinstance(raised.value, ModelDeadlineError)


@pytest.mark.parametrize("failure", [cut_off, garbled_status, hang_up])
def test_transport_failures_are_retryable_model_errors_and_the_fallback_answers(
    server: Server, failure: Behaviour
) -> None:
    # GIVEN a response cut off mid-body, a garbled status line or a dropped connection
    # (IncompleteRead, BadStatusLine, RemoteDisconnected: not OSErrors, they escaped as 500s)
    server.behaviours.append(failure)
    model = model_at(server.url, max_attempts=1)
    with pytest.raises(ModelError) as raised:
        model.complete(system="S", messages=[UserMessage("hi")], tools=[])
    assert (raised.value.code, raised.value.retryable) == ("connection_error", True)
    # WHEN a turn meets the same failure with a fallback configured
    server.behaviours.append(failure)
    result = run_agent(
        model=model,
        fallback=RulesModel(name="rules-fallback", simulate=False),
        system="S",
        messages=[UserMessage("hi")],
        tools=[],
        call_tool=lambda call: ToolResult(call.id, {}),
        has_staged_writes=lambda: False,
    )
    # THEN the fallback answered
    assert result.used_fallback


def test_a_redirect_is_refused_and_the_key_never_reaches_the_other_host(
    server: Server, other_host: Server
) -> None:
    # GIVEN the endpoint redirects to another origin that would answer anything
    other_host.behaviours.append(answer(completion({"content": "attacker's answer"})))

    def redirect(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(302)
        handler.send_header("Location", other_host.url + "/chat/completions")
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    server.behaviours.append(redirect)
    model = model_at(server.url, api_key="sk-SECRET")
    # WHEN the model is called
    with pytest.raises(ModelError) as raised:
        model.complete(system="S", messages=[UserMessage("hi")], tools=[])
    # THEN the redirect is an error and the other host saw nothing (no key, no prompt)
    assert (raised.value.code, raised.value.retryable) == ("http_302", False)
    assert other_host.requests == []
    other_host.behaviours.clear()


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503])
def test_retryable_statuses_are_retried(server: Server, status: int) -> None:
    server.behaviours += [
        answer({"error": {"message": "busy"}}, status=status),
        answer(completion({"content": "Hello."})),
    ]
    response = model_at(server.url).complete(system="S", messages=[UserMessage("hi")], tools=[])
    assert response.text == "Hello."
    assert len(server.requests) == 2


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_other_statuses_are_not_retried(server: Server, status: int) -> None:
    server.behaviours.append(answer({"error": {"message": "no"}}, status=status))
    with pytest.raises(ModelError) as raised:
        model_at(server.url).complete(system="S", messages=[UserMessage("hi")], tools=[])
    assert (raised.value.code, raised.value.retryable) == (f"http_{status}", False)
    assert len(server.requests) == 1


def test_retries_stop_after_three_attempts(server: Server) -> None:
    server.behaviours += [answer({}, status=503)] * 3
    with pytest.raises(ModelError) as raised:
        model_at(server.url).complete(system="S", messages=[UserMessage("hi")], tools=[])
    assert raised.value.code == "http_503"
    assert len(server.requests) == 3


def test_a_retry_after_longer_than_the_time_left_is_not_waited_for(server: Server) -> None:
    server.behaviours.append(answer({}, status=429, headers={"Retry-After": "30"}))
    with pytest.raises(ModelError) as raised:
        model_at(server.url).complete(
            system="S", messages=[UserMessage("hi")], tools=[], budget_seconds=5
        )
    assert raised.value.code == "http_429"
    assert len(server.requests) == 1


def test_a_base_url_with_a_query_string_keeps_it_after_the_path(server: Server) -> None:
    # GIVEN an Azure-style base URL carrying ?api-version=
    server.behaviours.append(answer(completion({"content": "Hi."})))
    model = model_at(server.url + "/?api-version=2024-10-21")
    model.complete(system="S", messages=[UserMessage("hi")], tools=[])
    # THEN the path is joined before the query (it used to be appended after it)
    assert server.requests[0]["path"] == "/v1/chat/completions?api-version=2024-10-21"


def test_hosted_openai_gets_max_completion_tokens_and_no_temperature(server: Server) -> None:
    server.behaviours += [answer(completion({"content": "Hi."}))] * 2
    model_at(server.url, max_tokens=300).complete(
        system="S", messages=[UserMessage("hi")], tools=[]
    )
    model_at(server.url, max_tokens=300, max_tokens_field="max_tokens", temperature=0.2).complete(
        system="S", messages=[UserMessage("hi")], tools=[]
    )
    hosted, ollama = (request["body"] for request in server.requests)
    assert hosted["max_completion_tokens"] == 300
    assert "max_tokens" not in hosted
    assert "temperature" not in hosted
    assert (ollama["max_tokens"], ollama["temperature"]) == (300, 0.2)
    assert "max_completion_tokens" not in ollama


def test_invented_tool_call_ids_are_unique_across_rounds(server: Server) -> None:
    # GIVEN a server that omits tool-call ids in two rounds of one turn
    id_less = {
        "content": None,
        "tool_calls": [
            {
                "type": "function",
                "function": {"name": "memory_update", "arguments": json.dumps(ADD)},
            }
        ],
    }
    server.behaviours += [
        answer(completion(id_less, "tool_calls")),
        answer(completion(id_less, "tool_calls")),
        answer(completion({"content": "Done."})),
    ]
    seen: list[ToolCall] = []

    def call_tool(call: ToolCall) -> ToolResult:
        seen.append(call)
        return ToolResult(call.id, {"success": True})

    # WHEN the turn runs
    run_agent(
        model=model_at(server.url),
        fallback=None,
        system="S",
        messages=[UserMessage("hi")],
        tools=[MEMORY_TOOL],
        call_tool=call_tool,
        has_staged_writes=lambda: bool(seen),
    )
    # THEN each call had its own id (both used to be call_0), and each result answers its call
    first, second = seen
    assert first.id != second.id
    messages = server.requests[2]["body"]["messages"]
    calls = [m["tool_calls"][0]["id"] for m in messages if m.get("tool_calls")]
    results = [m["tool_call_id"] for m in messages if m["role"] == "tool"]
    assert calls == results == [first.id, second.id]


def test_a_refusal_is_a_refused_stop(server: Server) -> None:
    server.behaviours.append(
        answer(completion({"content": None, "refusal": "I can't help with that."}))
    )
    response = model_at(server.url).complete(system="S", messages=[UserMessage("hi")], tools=[])
    assert response.stop_reason == "refused"
