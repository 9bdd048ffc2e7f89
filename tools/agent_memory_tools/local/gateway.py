"""What API Gateway's HTTP API does between the socket and the functions, on this machine.

route -> payload-v2 event -> (authenticated routes) the Lambda authorizer: no Authorization
header is a 401 without calling it, a denial a 403, an allow copies its context into
``requestContext.authorizer.lambda`` -> the route's function -> its response, unchanged.

Errors the gateway itself answers are JSON with both shapes a client may expect: API
Gateway's ``{"message": "Not Found"}`` and the contract's ``{"error": {"code", "message"}}``;
the authorizer's 401 and 403 are exactly what API Gateway sends, ``{"message":
"Unauthorized"}`` and ``{"message": "Forbidden"}``. They never carry internals.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any, Protocol

from agent_memory_tools.local.disconnect import ClientWatch
from agent_memory_tools.local.events import (
    AUTHENTICATED_ROUTES,
    ROUTES,
    allowed_methods,
    authorizer_event_for,
    match_route,
    request_event,
)
from agent_memory_tools.local.exceptions import (
    FunctionTimeoutError,
    InvocationError,
    PoolClosedError,
    ThrottledError,
)
from agent_memory_tools.local.invoker import Invocation

JSON_HEADERS = (("Content-Type", "application/json"),)
CLIENT_CLOSED_REQUEST = 499  # never sent: the access log's name for "nobody to answer"
# Framing and connection headers are the server's business, never the function's.
HOP_BY_HOP = frozenset(
    {
        "connection",
        "content-length",
        "keep-alive",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
    }
)


class Invoker(Protocol):
    def invoke(
        self, function: str, event: dict[str, Any], *, watch: ClientWatch | None = None
    ) -> Invocation: ...


@dataclass(frozen=True)
class GatewayRequest:
    method: str
    path: str
    query: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    source_ip: str = "127.0.0.1"
    protocol: str = "HTTP/1.1"


@dataclass(frozen=True)
class GatewayResponse:
    status: int
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    client_gone: bool = False
    note: str = field(default="", compare=False)  # for the access log only


def error_response(
    status: int, code: str, message: str, *, headers: Iterable[tuple[str, str]] = ()
) -> GatewayResponse:
    body = {"message": HTTPStatus(status).phrase, "error": {"code": code, "message": message}}
    return GatewayResponse(
        status, (*JSON_HEADERS, *headers), json.dumps(body).encode("utf-8"), note=code
    )


def api_gateway_response(status: int) -> GatewayResponse:
    """A response API Gateway itself sends, body and all: ``{"message": "<phrase>"}``."""
    phrase = HTTPStatus(status).phrase
    body = json.dumps({"message": phrase}, separators=(",", ":")).encode("utf-8")
    return GatewayResponse(status, JSON_HEADERS, body, note=phrase.lower())


class LocalGateway:
    """Routes requests to the functions; holds no request state (one instance, many threads)."""

    def __init__(self, functions: Invoker) -> None:
        self._functions = functions

    def handle(
        self, request: GatewayRequest, *, watch: ClientWatch | None = None
    ) -> GatewayResponse:
        matched = match_route(request.method, request.path)
        if matched is None:
            allowed = allowed_methods(request.path)
            if allowed:
                return error_response(
                    405,
                    "method_not_allowed",
                    f"{request.path} does not accept {request.method}; "
                    f"it accepts {', '.join(allowed)}.",
                    headers=[("Allow", ", ".join(allowed))],
                )
            return error_response(404, "not_found", "No such route.")
        route, path_parameters = matched
        route_key = f"{route[0]} {route[1]}"
        event = request_event(
            request.method,
            request.path,
            query=request.query,
            headers=request.headers,
            body=request.body,
            route_key=route_key,
            path_parameters=path_parameters,
            source_ip=request.source_ip,
            protocol=request.protocol,
        )
        try:
            if route in AUTHENTICATED_ROUTES:
                denied = self._authorize(event, watch)
                if denied is not None:
                    return denied
                if watch is not None and watch.gone:
                    return GatewayResponse(
                        CLIENT_CLOSED_REQUEST, client_gone=True, note="client went away"
                    )
            invocation = self._functions.invoke(ROUTES[route], event, watch=watch)
        except FunctionTimeoutError:
            return error_response(504, "timeout", "The function did not answer within its timeout.")
        except ThrottledError:
            return error_response(429, "throttled", "Too many concurrent requests; retry shortly.")
        except PoolClosedError:
            return error_response(503, "unavailable", "The local stack is stopping.")
        except InvocationError:
            return error_response(500, "internal_error", "The request failed. Please retry later.")
        response = proxy_response(invocation.response)
        request_id = str(event["requestContext"]["requestId"])
        return GatewayResponse(
            response.status,
            (*response.headers, ("apigw-requestid", request_id)),
            response.body,
            client_gone=invocation.client_gone,
            note=response.note,
        )

    def _authorize(
        self, event: dict[str, Any], watch: ClientWatch | None
    ) -> GatewayResponse | None:
        """None when allowed (the context is then in the event), else the response to send."""
        authorization = str(event["headers"].get("authorization", ""))
        if not authorization.strip():
            return api_gateway_response(401)
        decision = self._functions.invoke(
            "authorizer", authorizer_event_for(event), watch=watch
        ).response
        if not isinstance(decision, Mapping) or not isinstance(decision.get("isAuthorized"), bool):
            return error_response(500, "internal_error", "The authorizer failed.")
        if not decision["isAuthorized"]:
            return api_gateway_response(403)
        context = decision.get("context") or {}
        if not isinstance(context, Mapping):
            return error_response(500, "internal_error", "The authorizer failed.")
        event["requestContext"]["authorizer"] = {"lambda": dict(context)}
        return None


def proxy_response(response: Any) -> GatewayResponse:
    """A function's payload-v2 response as the HTTP response API Gateway sends.

    A dict with ``statusCode`` is used as is (headers, cookies, body, base64); anything else
    is, as API Gateway infers, a 200 with the value as its JSON body.
    """
    if not isinstance(response, Mapping) or "statusCode" not in response:
        inferred = response if isinstance(response, str) else json.dumps(response)
        return GatewayResponse(200, JSON_HEADERS, inferred.encode("utf-8"))
    status = response.get("statusCode")
    if isinstance(status, bool) or not isinstance(status, int) or not 100 <= status <= 599:
        return error_response(500, "internal_error", "The function returned an invalid response.")
    headers: list[tuple[str, str]] = [
        (str(name), str(value))
        for name, value in (response.get("headers") or {}).items()
        if str(name).lower() not in HOP_BY_HOP
    ]
    headers.extend(("Set-Cookie", str(cookie)) for cookie in response.get("cookies") or ())
    raw_body = response.get("body")
    text = (
        "" if raw_body is None else raw_body if isinstance(raw_body, str) else json.dumps(raw_body)
    )
    if response.get("isBase64Encoded"):
        try:
            body = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            return error_response(
                500, "internal_error", "The function returned an invalid response."
            )
    else:
        body = text.encode("utf-8")
    return GatewayResponse(status, tuple(headers), body)
