"""The local WebSocket API at ``ws://HOST:PORT/ws``: what API Gateway's WebSocket API does
between the socket and the function, on the front's port (uvicorn does the framing).

- Handshake: without ``Sec-WebSocket-Protocol`` (the authorizer's identity source) a 401,
  as API Gateway answers without calling the authorizer; then the real ``$connect`` REQUEST
  authorizer (a Deny is a 403), then the function's ``$connect`` (a non-2xx refuses with its
  status); the subprotocol the function selects is the one accepted.
- Messages: each routed by ``$request.body.action`` (``chat``, ``cancel``, else
  ``$default``) and invoked at once, concurrently, with the authorizer's context. The
  function's answer goes nowhere (no route responses): it talks back through the management
  API. A failed invocation sends API Gateway's ``{"message": "Internal server error"}``.
  A message over 128 KB closes the connection with 1009 (uvicorn's ``ws_max_size``).
- A socket that drops is gone at once for the management API (410), and ``$disconnect``
  is invoked right away.

The access log has one line per event: the route, the status and the time, never a frame,
a header or the query string (the token rides in a header).
"""

from __future__ import annotations

import fnmatch
import functools
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.to_thread
from starlette.routing import BaseRoute, WebSocketRoute
from starlette.types import Receive, Scope, Send

from agent_memory_tools.local.connections import ConnectionRegistry, LocalConnection
from agent_memory_tools.local.exceptions import InvocationError
from agent_memory_tools.local.gateway import Invoker
from agent_memory_tools.local.invoker import Invocation
from agent_memory_tools.local.management_api import management_routes
from agent_memory_tools.local.websocket_events import (
    CONNECT,
    DISCONNECT,
    ConnectionInfo,
    authorizer_event,
    connect_event,
    disconnect_event,
    message_event,
    new_connection_id,
)

WEBSOCKET_PATH = "/ws"
FUNCTION = "websocket"
AUTHORIZER = "authorizer"
IDENTITY_SOURCE = "sec-websocket-protocol"
MAX_CONCURRENT_INVOCATIONS = 256
CLOSE_NO_STATUS = 1005

Log = Callable[[str], None]


@dataclass(frozen=True)
class Handshake:
    """How a handshake ends: 101 with the authorizer's context, or a refusal's status."""

    status: int
    authorizer: dict[str, Any] | None = None
    subprotocol: str | None = None


class WebSocketEndpoint:
    """An ASGI endpoint for ``websocket`` scopes: one connection from handshake to close."""

    def __init__(
        self, functions: Invoker, registry: ConnectionRegistry, *, stage: str, log: Log
    ) -> None:
        self._functions = functions
        self._registry = registry
        self._stage = stage
        self._log = log
        self._limiter = anyio.CapacityLimiter(MAX_CONCURRENT_INVOCATIONS)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        started = time.monotonic()
        info = _connection_info(scope, self._stage)
        handshake = await self._handshake(info)
        if handshake.authorizer is None:
            await _refuse(scope, send, handshake.status)
            self._access_log(CONNECT, handshake.status, started)
            return
        accept: dict[str, Any] = {
            "type": "websocket.accept",
            "subprotocol": handshake.subprotocol,
            "headers": [],
        }
        await send(accept)
        connection = LocalConnection(info, handshake.authorizer, send)
        self._registry.add(connection)
        self._access_log(CONNECT, 101, started)
        close_code = CLOSE_NO_STATUS
        async with anyio.create_task_group() as tasks:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    close_code = int(message.get("code") or CLOSE_NO_STATUS)
                    break
                if message["type"] != "websocket.receive":
                    continue
                connection.touch()
                text = message.get("text")
                data: str | bytes = text if text is not None else message.get("bytes") or b""
                tasks.start_soon(self._route, connection, data)
            # Gone for the management API before anything else runs, then $disconnect.
            self._registry.remove(info.connection_id)
            tasks.start_soon(self._disconnect, connection, close_code)

    async def _handshake(self, info: ConnectionInfo) -> Handshake:
        """The authorizer's context when the connection is allowed, else the refusal."""
        if not info.headers.get(IDENTITY_SOURCE, "").strip():
            return Handshake(401)
        try:
            decision = (await self._invoke(AUTHORIZER, authorizer_event(info))).response
        except InvocationError:
            return Handshake(500)
        authorized_at = time.monotonic()
        context = allowed_context(decision, info.method_arn)
        if context is None:
            return Handshake(403)
        try:
            response = (await self._invoke(FUNCTION, connect_event(info, context))).response
        except InvocationError:
            return Handshake(500)
        status = response.get("statusCode") if isinstance(response, Mapping) else None
        if not isinstance(status, int) or isinstance(status, bool) or not 200 <= status < 300:
            return Handshake(status if isinstance(status, int) and 400 <= status <= 599 else 500)
        context["integrationLatency"] = int((time.monotonic() - authorized_at) * 1000)
        return Handshake(101, context, _selected_subprotocol(response))

    async def _route(self, connection: LocalConnection, data: str | bytes) -> None:
        started = time.monotonic()
        event = message_event(connection.info, connection.authorizer, data)
        route = str(event["requestContext"]["routeKey"])
        try:
            invocation = await self._invoke(FUNCTION, event)
        except InvocationError as error:
            self._access_log(route, 500, started, type(error).__name__)
            failure = {
                "message": "Internal server error",
                "connectionId": connection.connection_id,
                "requestId": event["requestContext"]["requestId"],
            }
            await connection.post(json.dumps(failure).encode("utf-8"))
            return
        self._access_log(route, _status_of(invocation.response), started)

    async def _disconnect(self, connection: LocalConnection, close_code: int) -> None:
        started = time.monotonic()
        event = disconnect_event(connection.info, connection.authorizer, status_code=close_code)
        try:
            invocation = await self._invoke(FUNCTION, event)
        except InvocationError as error:
            self._access_log(DISCONNECT, 500, started, type(error).__name__)
            return
        self._access_log(
            DISCONNECT, _status_of(invocation.response), started, f"close {close_code}"
        )

    async def _invoke(self, function: str, event: dict[str, Any]) -> Invocation:
        invoke = functools.partial(self._functions.invoke, function, event)
        # abandon_on_cancel: a stopping server does not wait for a running function.
        return await anyio.to_thread.run_sync(invoke, limiter=self._limiter, abandon_on_cancel=True)

    def _access_log(self, route: str, status: int, started: float, note: str = "") -> None:
        elapsed_ms = (time.monotonic() - started) * 1000
        suffix = f"  {note}" if note else ""
        self._log(f"WS {route} -> {status} ({elapsed_ms:.0f} ms){suffix}")


def allowed_context(decision: Any, method_arn: str) -> dict[str, Any] | None:
    """The context API Gateway hands to later routes when the authorizer's IAM policy allows
    ``execute-api:Invoke`` on ``method_arn`` (and no statement denies it); else None."""
    if not isinstance(decision, Mapping):
        return None
    document = decision.get("policyDocument")
    statements = document.get("Statement") if isinstance(document, Mapping) else None
    if isinstance(statements, Mapping):
        statements = [statements]
    if not isinstance(statements, list):
        return None
    allowed = False
    for statement in statements:
        if not isinstance(statement, Mapping) or not _applies(statement, method_arn):
            continue
        if statement.get("Effect") == "Deny":
            return None
        allowed = allowed or statement.get("Effect") == "Allow"
    context = decision.get("context") or {}
    if not allowed or not isinstance(context, Mapping):
        return None
    if not all(isinstance(value, str | int | float | bool) for value in context.values()):
        return None  # API Gateway refuses a context that is not a flat map
    return {**context, "principalId": str(decision.get("principalId", ""))}


def _applies(statement: Mapping[str, Any], method_arn: str) -> bool:
    actions = _as_list(statement.get("Action"))
    resources = _as_list(statement.get("Resource"))
    return any(a in ("execute-api:Invoke", "execute-api:*", "*") for a in actions) and any(
        fnmatch.fnmatchcase(method_arn, resource) for resource in resources
    )


def _as_list(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _selected_subprotocol(response: Mapping[str, Any]) -> str | None:
    """The ``Sec-WebSocket-Protocol`` of the ``$connect`` integration's response."""
    headers = response.get("headers")
    if not isinstance(headers, Mapping):
        return None
    for name, value in headers.items():
        if str(name).lower() == IDENTITY_SOURCE:
            return str(value)
    return None


def _status_of(response: Any) -> int:
    status = response.get("statusCode") if isinstance(response, Mapping) else None
    return status if isinstance(status, int) and not isinstance(status, bool) else 200


def _connection_info(scope: Scope, stage: str) -> ConnectionInfo:
    headers: dict[str, str] = {}
    for raw_name, raw_value in scope.get("headers", []):
        name, value = raw_name.decode("latin-1").lower(), raw_value.decode("latin-1")
        headers[name] = f"{headers[name]},{value}" if name in headers else value
    client = scope.get("client") or ("127.0.0.1", 0)
    return ConnectionInfo(
        connection_id=new_connection_id(),
        domain_name=headers.get("host", "localhost"),
        stage=stage,
        source_ip=str(client[0]),
        user_agent=headers.get("user-agent", ""),
        headers=headers,
        query=scope.get("query_string", b"").decode("latin-1"),
    )


_PHRASES = {401: "Unauthorized", 403: "Forbidden", 500: "Internal server error"}


async def _refuse(scope: Scope, send: Send, status: int) -> None:
    """Refuse the handshake with ``status`` and API Gateway's body (``{"message"}``)."""
    if "websocket.http.response" not in scope.get("extensions", {}):
        await send({"type": "websocket.close", "code": 1008})  # the server sends a 403
        return
    body = json.dumps({"message": _PHRASES.get(status, "Forbidden")}).encode("utf-8")
    await send(
        {
            "type": "websocket.http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "websocket.http.response.body", "body": body})


def websocket_routes(functions: Invoker, *, stage: str, log: Log) -> list[BaseRoute]:
    """``/ws`` and the management API the function posts to (``/{stage}/@connections/...``)."""
    registry = ConnectionRegistry()
    endpoint = WebSocketEndpoint(functions, registry, stage=stage, log=log)
    return [
        WebSocketRoute(WEBSOCKET_PATH, endpoint),
        *management_routes(registry, stage=stage, log=log),
    ]
