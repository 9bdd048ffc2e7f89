"""The local API's HTTP front (Starlette on uvicorn) on a real loopback socket, with
scripted functions behind it."""

from __future__ import annotations

import http.client
import json
import select
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from local_fakes import FakeFunctions, allow, respond

from agent_memory.http.contract import MAX_BODY_BYTES
from agent_memory_tools.local.disconnect import ClientWatch
from agent_memory_tools.local.front import cors_origins, local_app
from agent_memory_tools.local.gateway import LocalGateway
from agent_memory_tools.local.server import LocalApiServer, bind

BEARER = {"Authorization": "Bearer t"}


class Running:
    def __init__(self, functions: FakeFunctions, origins: tuple[str, ...] = ("*",)) -> None:
        self.functions = functions
        self.lines: list[str] = []
        self.server = LocalApiServer(bind("127.0.0.1", 0))
        self.server.serve(
            local_app(LocalGateway(functions), log=self.lines.append, allow_origins=origins)
        )

    @property
    def port(self) -> int:
        return self.server.port

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)

    def request(
        self, method: str, path: str, body: bytes | None = None, **headers: str
    ) -> tuple[int, dict[str, str], bytes]:
        connection = self.connection()
        try:
            connection.request(method, path, body=body, headers={**BEARER, **headers})
            response = connection.getresponse()
            return (
                response.status,
                {k.lower(): v for k, v in response.getheaders()},
                response.read(),
            )
        finally:
            connection.close()

    def raw(self, data: bytes) -> bytes:
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as connection:
            connection.sendall(data)
            received = b""
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    return received
                received += chunk

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def functions() -> FakeFunctions:
    return FakeFunctions(authorizer=allow(), chat=respond(), memory_api=respond(), eval=respond())


@pytest.fixture
def running(functions: FakeFunctions) -> Iterator[Running]:
    server = Running(functions)
    yield server
    server.close()


def _status(raw: bytes) -> int:
    return int(raw.split(b" ", 2)[1])


def test_keep_alive_serves_several_requests_on_one_connection(running: Running) -> None:
    connection = running.connection()
    try:
        statuses = []
        for _ in range(3):
            connection.request("GET", "/memory", headers=BEARER)
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
    finally:
        connection.close()

    assert statuses == [200, 200, 200]
    assert running.functions.called().count("memory_api") == 3


def test_a_declared_oversized_body_is_refused_before_it_is_sent(running: Running) -> None:
    # GIVEN a connection that declares a body over the limit and sends none of it
    with socket.create_connection(("127.0.0.1", running.port), timeout=5) as connection:
        head = f"POST /chat HTTP/1.1\r\nHost: x\r\nContent-Length: {MAX_BODY_BYTES + 1}\r\n\r\n"
        connection.sendall(head.encode())

        # WHEN the server answers
        answer = b""
        while b'"body_too_large"' not in answer:
            chunk = connection.recv(65536)
            if not chunk:
                break
            answer += chunk

    # THEN it is a JSON 413 that closes the connection, and no function ran
    assert _status(answer) == 413
    assert b'"body_too_large"' in answer
    assert b"connection: close" in answer.lower()
    assert running.functions.calls == []


def test_expect_100_continue_with_an_oversized_body_gets_413_instead_of_100(
    running: Running,
) -> None:
    head = (
        "POST /chat HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
        f"Content-Length: {MAX_BODY_BYTES + 1}\r\n\r\n"
    )

    raw = running.raw(head.encode())

    assert _status(raw) == 413
    assert b"100 Continue" not in raw


def test_a_client_that_sends_the_whole_oversized_body_still_reads_the_413(running: Running) -> None:
    status, _, body = running.request("POST", "/chat", b"x" * (MAX_BODY_BYTES + 10))

    assert status == 413
    assert json.loads(body)["error"]["code"] == "body_too_large"


def test_a_body_of_exactly_the_limit_is_accepted(running: Running) -> None:
    status, _, _ = running.request(
        "POST", "/chat", b"x" * MAX_BODY_BYTES, **{"Content-Type": "application/json"}
    )

    assert status == 200
    assert len(running.functions.calls[-1][1]["body"]) == MAX_BODY_BYTES


def test_a_chunked_body_is_read_and_an_oversized_one_refused(running: Running) -> None:
    small = (
        b"POST /chat HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    ok = running.raw(small + b"5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n")
    big = MAX_BODY_BYTES + 1
    refused = running.raw(small + f"{big:x}\r\n".encode() + b"x" * big + b"\r\n0\r\n\r\n")

    assert _status(ok) == 200
    assert running.functions.calls[-1][1]["body"] == "hello world"
    assert _status(refused) == 413
    assert len(running.functions.calls) == 2  # the authorizer and the chat of the first


@pytest.mark.parametrize(
    "headers",
    [
        "Content-Length: ten\r\n",
        "Content-Length: -1\r\n",
        "Content-Length: 1\r\nContent-Length: 2\r\n",
        "Content-Length: 1\r\nTransfer-Encoding: chunked\r\n",
        "Transfer-Encoding: gzip\r\n",
    ],
    ids=["not-a-number", "negative", "conflicting", "both", "unsupported-encoding"],
)
def test_bad_framing_is_a_json_400(running: Running, headers: str) -> None:
    raw = running.raw(f"POST /chat HTTP/1.1\r\nHost: x\r\n{headers}\r\nx".encode())

    assert _status(raw) == 400
    assert b'"error"' in raw
    assert running.functions.calls == []


def test_a_malformed_request_line_is_a_json_400(running: Running) -> None:
    raw = running.raw(b"NONSENSE\r\n\r\n")

    assert _status(raw) == 400
    assert b"application/json" in raw.lower()


def test_a_gateway_failure_is_a_500_without_internals_and_the_server_keeps_serving(
    running: Running,
) -> None:
    running.functions.behaviours["chat"] = lambda event, watch: _explode()

    status, _, body = running.request("POST", "/chat", b"{}")

    assert status == 500
    assert b"secret" not in body
    assert running.request("GET", "/memory")[0] == 200


def test_a_function_cannot_split_the_response_with_header_values(running: Running) -> None:
    running.functions.behaviours["chat"] = respond(
        headers={"X-Evil": "a\r\nSet-Cookie: stolen=1", "X-Fine": "ok"}
    )

    _, headers, _ = running.request("POST", "/chat", b"{}")

    assert "set-cookie" not in headers
    assert "x-evil" not in headers
    assert headers["x-fine"] == "ok"


def test_a_204_has_neither_body_nor_length(running: Running) -> None:
    running.functions.behaviours["memory_api"] = respond(status=204, body="")

    raw = running.raw(
        b"DELETE /memory HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n"
        b"Connection: close\r\n\r\n"
    )

    assert _status(raw) == 204
    assert b"content-length" not in raw.lower()
    assert raw.endswith(b"\r\n\r\n")


def test_requests_are_served_concurrently(running: Running) -> None:
    def slow(event: dict[str, Any], watch: ClientWatch | None) -> dict[str, Any]:
        time.sleep(0.5)
        return {"statusCode": 200, "body": "{}"}

    running.functions.behaviours["chat"] = slow
    threads = [
        threading.Thread(target=running.request, args=("POST", "/chat", b"{}")) for _ in range(3)
    ]

    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert time.monotonic() - started < 1.2


def test_a_client_that_disconnects_is_noticed_while_its_function_runs(running: Running) -> None:
    noticed = threading.Event()

    def wait_for_disconnect(event: dict[str, Any], watch: ClientWatch | None) -> dict[str, Any]:
        assert watch is not None
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            readable, _, _ = select.select([watch], [], [], 0.05)
            if readable and watch.client_gone():
                noticed.set()
                break
        return {"statusCode": 200, "body": "{}"}

    running.functions.behaviours["chat"] = wait_for_disconnect
    connection = socket.create_connection(("127.0.0.1", running.port))
    connection.sendall(
        b"POST /chat HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Length: 2\r\n\r\n{}"
    )
    time.sleep(0.2)
    connection.close()

    assert noticed.wait(5)


# --- CORS (issue 12, item 9): preflight answered as the HTTP API's CorsConfiguration ---------


def test_a_preflight_is_answered_before_any_function_with_the_allowed_headers(
    running: Running,
) -> None:
    # WHEN a browser on another origin asks whether it may PATCH with a token and a key
    status, headers, _ = running.request(
        "OPTIONS",
        "/memory",
        Origin="http://app.example",
        **{
            "Access-Control-Request-Method": "PATCH",
            "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
        },
    )

    # THEN the answer allows it, and neither the authorizer nor a handler ran
    assert status in (200, 204)
    assert headers["access-control-allow-origin"] == "*"
    assert "PATCH" in headers["access-control-allow-methods"]
    allowed = {name.strip().lower() for name in headers["access-control-allow-headers"].split(",")}
    assert allowed >= {"authorization", "content-type", "idempotency-key"}
    assert running.functions.calls == []


def test_a_cross_origin_response_exposes_the_headers_a_client_needs(running: Running) -> None:
    status, headers, _ = running.request("GET", "/memory", Origin="http://app.example")

    assert status == 200
    assert headers["access-control-allow-origin"] == "*"
    exposed = {name.strip().lower() for name in headers["access-control-expose-headers"].split(",")}
    assert exposed == {"idempotent-replayed", "apigw-requestid"}


def test_only_the_configured_origins_are_allowed(functions: FakeFunctions) -> None:
    # GIVEN a stack whose CORS_ALLOW_ORIGINS names one origin
    origins = cors_origins({"CORS_ALLOW_ORIGINS": "http://app.example, http://admin.example"})
    server = Running(functions, tuple(origins))
    try:
        preflight = {
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization",
        }
        # WHEN an allowed and another origin send a preflight
        allowed = server.request("OPTIONS", "/chat", Origin="http://app.example", **preflight)
        other = server.request("OPTIONS", "/chat", Origin="http://evil.example", **preflight)
    finally:
        server.close()

    # THEN only the allowed one gets its origin back
    assert origins == ["http://app.example", "http://admin.example"]
    assert allowed[1]["access-control-allow-origin"] == "http://app.example"
    assert "access-control-allow-origin" not in other[1]
    assert functions.calls == []


def test_cors_origins_default_to_any() -> None:
    assert cors_origins({}) == ["*"]
    assert cors_origins({"CORS_ALLOW_ORIGINS": " "}) == ["*"]


def test_closing_the_server_frees_its_port(functions: FakeFunctions) -> None:
    server = Running(functions)
    port = server.port
    assert server.request("GET", "/memory")[0] == 200

    server.close()

    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def _explode() -> dict[str, Any]:
    raise RuntimeError("secret internals")
