"""The local WebSocket API's management API, as the ``apigatewaymanagementapi`` client calls
it: ``POST``, ``GET`` and ``DELETE /{stage}/@connections/{connectionId}`` on the front's own
port (the function's endpoint is ``http://HOST:PORT/{stage}``).

Errors are the service's own (rest-json: ``x-amzn-ErrorType`` and ``{"message"}``), so the
real client raises the real exceptions: ``GoneException`` (410) for a connection that is
gone or never was, ``PayloadTooLargeException`` (413) over 128 KB, ``ForbiddenException``
(403) for a caller that is not on this machine (in AWS the API needs IAM credentials; here
only the stack's own functions may post to a client: callers on loopback, or on the address
the stack listens on).
"""

from __future__ import annotations

import ipaddress
import json
import time
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from agent_memory.websocket import MAX_MESSAGE_BYTES
from agent_memory_tools.local.connections import ConnectionRegistry

Log = Callable[[str], None]


def management_routes(registry: ConnectionRegistry, *, stage: str, log: Log) -> list[BaseRoute]:
    api = _ManagementApi(registry, log)
    path = f"/{stage}/@connections/{{connection_id}}"
    return [Route(path, api.endpoint, methods=["POST", "GET", "DELETE"])]


def _error(status: int, error_type: str, message: str) -> Response:
    return Response(
        json.dumps({"message": message}),
        status_code=status,
        media_type="application/json",
        headers={"x-amzn-ErrorType": error_type},
    )


def _gone() -> Response:
    return _error(410, "GoneException", "The connection is gone.")


def _is_this_machine(request: Request) -> bool:
    """A caller on loopback, or on the address the stack listens on (a stack bound to one
    of the machine's own addresses is reached there, by its functions too)."""
    host = request.client.host if request.client else None
    server = request.scope.get("server") or (None, None)
    try:
        return host is not None and (ipaddress.ip_address(host).is_loopback or host == server[0])
    except ValueError:
        return False


def _iso(epoch_seconds: float) -> str:
    milliseconds = int(epoch_seconds * 1000) % 1000
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(epoch_seconds)) + f".{milliseconds:03d}Z"


class _ManagementApi:
    def __init__(self, registry: ConnectionRegistry, log: Log) -> None:
        self._registry = registry
        self._log = log

    async def endpoint(self, request: Request) -> Response:
        if not _is_this_machine(request):
            return _error(403, "ForbiddenException", "Forbidden")
        connection_id = request.path_params["connection_id"]
        connection = self._registry.get(connection_id)
        if request.method == "POST":
            body = bytearray()
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_MESSAGE_BYTES:
                    return _error(413, "PayloadTooLargeException", "Message too long")
            if connection is None or not await connection.post(bytes(body)):
                return _gone()
            return Response(status_code=200)
        if connection is None:
            return _gone()
        if request.method == "DELETE":
            await connection.close()
            self._log("WS @connections DELETE -> 204")
            return Response(status_code=204)
        identity = {"sourceIp": connection.info.source_ip, "userAgent": connection.info.user_agent}
        answer = {
            "connectedAt": _iso(connection.info.connected_at_ms / 1000),
            "identity": identity,
            "lastActiveAt": _iso(connection.last_active_at),
        }
        return Response(json.dumps(answer), media_type="application/json")
