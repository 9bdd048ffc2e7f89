"""The local API's HTTP front: a Starlette app of routes, served by uvicorn.

uvicorn (with h11) does the HTTP/1.1 framing: request lines, headers, chunked bodies,
keep-alive, malformed requests. This module adds what API Gateway does before any function
runs, then hands each request to the gateway (``gateway.py``) in a worker thread:

- a body over 1 MiB gets 413: from its Content-Length before a byte of it is read, or as
  soon as a chunked body passes the limit; the rest is read and dropped for a moment only,
  so the client reads the 413 instead of a connection reset;
- CORS preflight is answered by Starlette's ``CORSMiddleware``, configured as the
  template's ``CorsConfiguration`` (origins from ``CORS_ALLOW_ORIGINS``, default ``*``);
- a client that disconnects while its function runs (uvicorn reports ``http.disconnect``)
  gets its turn cancelled: the worker thread is told through a ``ClientWatch``.

Seams for what shares this port later: ``local_app(gateway, routes=...)`` puts the given
routes (a ``WebSocketRoute("/ws", ...)``, a ``Mount`` of the web console at ``/``) before
the API's catch-all route, which answers every other path with the gateway (404 JSON for
unknown ones, as API Gateway does).
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Mapping, Sequence

import anyio
import anyio.to_thread
import h11
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.routing import BaseRoute, Route
from starlette.types import Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from agent_memory.http.contract import MAX_BODY_BYTES
from agent_memory_tools.local.disconnect import ClientWatch
from agent_memory_tools.local.gateway import (
    GatewayRequest,
    GatewayResponse,
    LocalGateway,
    error_response,
)

ENV_CORS_ALLOW_ORIGINS = "CORS_ALLOW_ORIGINS"
CORS_ALLOW_HEADERS = ("authorization", "content-type", "idempotency-key")
CORS_ALLOW_METHODS = ("GET", "POST", "PATCH", "DELETE", "OPTIONS")
# What a browser client may read: the replay marker and API Gateway's request id.
CORS_EXPOSE_HEADERS = ("Idempotent-Replayed", "apigw-requestid")
CORS_MAX_AGE_SECONDS = 600
# After refusing a body, read (and drop) what the client still sends for a moment only.
LINGER_SECONDS = 2.0
LINGER_BYTES = 16 * MAX_BODY_BYTES
# Requests served at once (each waits in a thread for its function); beyond that they queue.
MAX_CONCURRENT_REQUESTS = 256

Log = Callable[[str], None]


def cors_origins(env: Mapping[str, str] | None = None) -> list[str]:
    """``CORS_ALLOW_ORIGINS`` as a list (comma-separated); ``*`` when unset."""
    text = (os.environ if env is None else env).get(ENV_CORS_ALLOW_ORIGINS, "").strip()
    origins = [origin.strip() for origin in text.split(",") if origin.strip()]
    return origins or ["*"]


def local_app(
    gateway: LocalGateway,
    *,
    log: Log,
    routes: Sequence[BaseRoute] = (),
    allow_origins: Sequence[str] = ("*",),
) -> Starlette:
    """The local stack's ASGI app: ``routes`` first, then the HTTP API for every other path."""
    api = GatewayEndpoint(gateway, log=log)
    return Starlette(
        routes=[*routes, Route("/{path:path}", api, include_in_schema=False)],
        middleware=[
            Middleware(
                CORSMiddleware,
                allow_origins=list(allow_origins),
                allow_methods=CORS_ALLOW_METHODS,
                allow_headers=CORS_ALLOW_HEADERS,
                expose_headers=CORS_EXPOSE_HEADERS,
                max_age=CORS_MAX_AGE_SECONDS,
            )
        ],
    )


class GatewayEndpoint:
    """An ASGI endpoint: one HTTP request -> the gateway (in a thread) -> the response."""

    def __init__(self, gateway: LocalGateway, *, log: Log) -> None:
        self._gateway = gateway
        self._log = log
        self._limiter = anyio.CapacityLimiter(MAX_CONCURRENT_REQUESTS)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.monotonic()
        headers = _headers(scope)
        path = scope.get("raw_path", b"").decode("latin-1") or scope["path"]
        log = functools.partial(self._access_log, scope["method"], path, started)

        names = {name.lower() for name, _ in headers}
        if {"content-length", "transfer-encoding"} <= names:
            # h11 would read it as chunked; API Gateway refuses the ambiguity, and so do we.
            refusal = error_response(
                400, "bad_request", "Send Content-Length or chunked, not both."
            )
            await _send(send, refusal, close=True)
            log(400, "bad_request")
            return
        declared = _content_length(headers)
        if declared is not None and declared > MAX_BODY_BYTES:
            # Never read this body; with Expect: 100-continue the client never sends it.
            await _refuse_too_large(send, receive, drain="expect" not in names)
            log(413, "body_too_large")
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                log(0, "client went away while sending")
                return
            body += message.get("body", b"")
            if len(body) > MAX_BODY_BYTES:
                await _refuse_too_large(send, receive, drain=True)
                log(413, "body_too_large")
                return
            if not message.get("more_body", False):
                break

        client = scope.get("client") or ("127.0.0.1", 0)
        request = GatewayRequest(
            method=scope["method"],
            path=path,
            query=scope.get("query_string", b"").decode("latin-1"),
            headers=headers,
            body=bytes(body),
            source_ip=str(client[0]),
            protocol=f"HTTP/{scope.get('http_version', '1.1')}",
        )
        response = await self._handle(request, receive)
        if response.client_gone:
            log(0, "client went away; its turn was cancelled")
            return
        await _send(send, response)
        log(response.status, response.note)

    async def _handle(self, request: GatewayRequest, receive: Receive) -> GatewayResponse:
        watch = ClientWatch()
        handle = functools.partial(self._gateway.handle, request, watch=watch)
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_watch_for_disconnect, receive, watch)
            try:
                # abandon_on_cancel: a stopping server does not wait for a running function
                # (the stack stops the functions right after).
                response = await anyio.to_thread.run_sync(
                    handle, limiter=self._limiter, abandon_on_cancel=True
                )
            except Exception as error:
                # The type only: the text could quote request content.
                self._log(f"gateway error: {type(error).__name__}")
                response = error_response(
                    500, "internal_error", "The request failed. Please retry later."
                )
            tasks.cancel_scope.cancel()
        watch.close()
        return response

    def _access_log(self, method: str, path: str, started: float, status: int, note: str) -> None:
        elapsed_ms = (time.monotonic() - started) * 1000
        outcome = str(status) if status else "-"
        suffix = f"  {note}" if note else ""
        self._log(
            f"{method} {path.split('?', 1)[0] or '-'} -> {outcome} ({elapsed_ms:.0f} ms){suffix}"
        )


async def _watch_for_disconnect(receive: Receive, watch: ClientWatch) -> None:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            watch.notify_gone()
            return


def _headers(scope: Scope) -> tuple[tuple[str, str], ...]:
    return tuple(
        (name.decode("latin-1"), value.decode("latin-1")) for name, value in scope["headers"]
    )


def _content_length(headers: Sequence[tuple[str, str]]) -> int | None:
    """The declared length (h11 has already refused a malformed or conflicting one)."""
    for name, value in headers:
        if name.lower() == "content-length":
            return int(value)
    return None


async def _refuse_too_large(send: Send, receive: Receive, *, drain: bool) -> None:
    response = error_response(413, "body_too_large", f"The body exceeds {MAX_BODY_BYTES} bytes.")
    await send(_start(response, close=True))
    # The whole body of the 413 goes out at once; the message ends only after the linger,
    # so the client reads it before the connection closes.
    await send({"type": "http.response.body", "body": response.body, "more_body": drain})
    if not drain:
        return
    drained = 0
    with anyio.move_on_after(LINGER_SECONDS):
        while drained < LINGER_BYTES:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            drained += len(message.get("body", b""))
            if not message.get("more_body", False):
                break
    await send({"type": "http.response.body", "body": b""})


async def _send(send: Send, response: GatewayResponse, *, close: bool = False) -> None:
    await send(_start(response, close=close))
    has_body = response.status >= 200 and response.status not in (204, 304)
    await send({"type": "http.response.body", "body": response.body if has_body else b""})


def _start(response: GatewayResponse, *, close: bool = False) -> Message:
    headers: list[tuple[bytes, bytes]] = []
    for name, value in response.headers:
        if any(character in name + value for character in "\r\n\0"):
            continue  # never let a function split the response
        headers.append((name.lower().encode("latin-1"), value.encode("latin-1", "replace")))
    if response.status >= 200 and response.status not in (204, 304):
        headers.append((b"content-length", str(len(response.body)).encode("ascii")))
    if close:
        headers.append((b"connection", b"close"))
    return {"type": "http.response.start", "status": response.status, "headers": headers}


class JsonErrorsH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, answering a malformed request with a JSON 400 as the API does
    (uvicorn's own answer is text/plain)."""

    def send_400_response(self, msg: str) -> None:
        response = error_response(400, "bad_request", "Malformed HTTP request.")
        headers = [
            *(
                (name.encode("latin-1"), value.encode("latin-1"))
                for name, value in response.headers
            ),
            (b"content-length", str(len(response.body)).encode("ascii")),
            (b"connection", b"close"),
        ]
        for event in (
            h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
            h11.Data(data=response.body),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()
