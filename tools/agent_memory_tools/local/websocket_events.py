"""API Gateway WebSocket API events, shaped as AWS sends them (REST-style, not payload v2).

- the ``$connect`` REQUEST authorizer's event: ``methodArn``, ``headers`` (the identity
  source ``Sec-WebSocket-Protocol`` among them), ``queryStringParameters``, the connection's
  ``requestContext``;
- the integration's events: ``$connect`` (with the handshake's headers), a message routed
  by ``$request.body.action`` (``chat``, ``cancel`` or ``$default``), ``$disconnect``; each
  with ``requestContext.connectionId``, ``routeKey``, ``domainName`` and ``stage`` (the
  function builds its management endpoint from them) and the authorizer's context.
"""

from __future__ import annotations

import base64
import json
import secrets
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

API_ID = "localws"
ACCOUNT_ID = "123456789012"
REGION = "us-east-1"
ROUTE_KEYS = frozenset({"chat", "cancel"})
CONNECT, DISCONNECT, DEFAULT = "$connect", "$disconnect", "$default"


def new_connection_id() -> str:
    """An id shaped as API Gateway's (16 characters ending in ``=``), URL-safe."""
    return base64.urlsafe_b64encode(secrets.token_bytes(11)).decode("ascii")


def route_key_of(body: str | None) -> str:
    """``$request.body.action``: ``chat`` or ``cancel``, else ``$default`` (not JSON, not an
    object, no action, an action no route has)."""
    if body is None:
        return DEFAULT
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return DEFAULT
    action = data.get("action") if isinstance(data, dict) else None
    return action if isinstance(action, str) and action in ROUTE_KEYS else DEFAULT


@dataclass(frozen=True)
class ConnectionInfo:
    """What API Gateway knows of one connection, from its handshake."""

    connection_id: str
    domain_name: str
    stage: str
    source_ip: str
    user_agent: str
    headers: Mapping[str, str]
    query: str = ""
    connected_at_ms: int = field(default_factory=lambda: int(time.time() * 1000))

    @property
    def method_arn(self) -> str:
        return f"arn:aws:execute-api:{REGION}:{ACCOUNT_ID}:{API_ID}/{self.stage}/{CONNECT}"

    def query_parameters(self) -> dict[str, str]:
        parameters: dict[str, str] = {}
        for key, value in parse_qsl(self.query, keep_blank_values=True):
            parameters[key] = f"{parameters[key]},{value}" if key in parameters else value
        return parameters


def _request_context(
    info: ConnectionInfo,
    route_key: str,
    event_type: str,
    *,
    authorizer: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    now = time.time()
    context: dict[str, Any] = {
        "routeKey": route_key,
        "eventType": event_type,
        "extendedRequestId": uuid.uuid4().hex[:16],
        "requestTime": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(now)),
        "messageDirection": "IN",
        "stage": info.stage,
        "connectedAt": info.connected_at_ms,
        "requestTimeEpoch": int(now * 1000),
        "identity": {"sourceIp": info.source_ip, "userAgent": info.user_agent},
        "requestId": uuid.uuid4().hex[:16] + "=",
        "domainName": info.domain_name,
        "connectionId": info.connection_id,
        "apiId": API_ID,
    }
    if authorizer is not None:
        context["authorizer"] = dict(authorizer)
    return context


def _header_maps(info: ConnectionInfo) -> dict[str, Any]:
    maps: dict[str, Any] = {
        "headers": dict(info.headers),
        "multiValueHeaders": {name: [value] for name, value in info.headers.items()},
    }
    parameters = info.query_parameters()
    if parameters:
        maps["queryStringParameters"] = parameters
        maps["multiValueQueryStringParameters"] = {
            key: value.split(",") for key, value in parameters.items()
        }
    return maps


def authorizer_event(info: ConnectionInfo) -> dict[str, Any]:
    """The ``$connect`` REQUEST authorizer's event (IAM policy answer expected)."""
    return {
        "type": "REQUEST",
        "methodArn": info.method_arn,
        **_header_maps(info),
        "stageVariables": {},
        "requestContext": _request_context(info, CONNECT, "CONNECT"),
    }


def connect_event(info: ConnectionInfo, authorizer: Mapping[str, Any]) -> dict[str, Any]:
    return {
        **_header_maps(info),
        "requestContext": _request_context(info, CONNECT, "CONNECT", authorizer=authorizer),
        "isBase64Encoded": False,
    }


def message_event(
    info: ConnectionInfo, authorizer: Mapping[str, Any], data: str | bytes
) -> dict[str, Any]:
    """A client message: text as it came, binary base64-encoded (routed to ``$default``)."""
    if isinstance(data, bytes):
        body, encoded, route_key = base64.b64encode(data).decode("ascii"), True, DEFAULT
    else:
        body, encoded, route_key = data, False, route_key_of(data)
    context = _request_context(info, route_key, "MESSAGE", authorizer=authorizer)
    context["messageId"] = uuid.uuid4().hex[:16] + "="
    return {"requestContext": context, "body": body, "isBase64Encoded": encoded}


def disconnect_event(
    info: ConnectionInfo, authorizer: Mapping[str, Any], *, status_code: int, reason: str = ""
) -> dict[str, Any]:
    context = _request_context(info, DISCONNECT, "DISCONNECT", authorizer=authorizer)
    context["disconnectStatusCode"] = status_code
    context["disconnectReason"] = reason
    headers = {"host": info.domain_name, "x-amzn-trace-id": f"Root=1-{uuid.uuid4().hex[:8]}"}
    return {
        "headers": headers,
        "multiValueHeaders": {name: [value] for name, value in headers.items()},
        "requestContext": context,
        "isBase64Encoded": False,
    }
