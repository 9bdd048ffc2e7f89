"""Simulated API Gateway events and Lambda contexts, shaped as AWS sends them.

Used by the local stack, the load test and the tests, so that all three drive the real
handlers with the same payload-v2 events that API Gateway's HTTP API would send.
"""

from __future__ import annotations

import base64
import copy
import json
import time
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

ROUTES: dict[tuple[str, str], str] = {
    ("POST", "/chat"): "chat",
    ("GET", "/memory"): "memory_api",
    ("PATCH", "/memory"): "memory_api",
    ("DELETE", "/memory"): "memory_api",
    ("POST", "/turns/{turn_id}/cancel"): "memory_api",
    ("GET", "/turns/{turn_id}"): "memory_api",
    ("GET", "/memory/history"): "memory_api",
    ("DELETE", "/memory/history"): "memory_api",
    ("POST", "/memory/undo"): "memory_api",
    ("GET", "/memory/settings"): "memory_api",
    ("PUT", "/memory/settings"): "memory_api",
    ("GET", "/memory/proposals"): "memory_api",
    ("POST", "/memory/proposals/{proposal_id}/approve"): "memory_api",
    ("POST", "/memory/proposals/{proposal_id}/reject"): "memory_api",
    ("POST", "/eval/chat"): "eval",
}
"""Route key -> the function that serves it (as in template.yaml)."""

AUTHENTICATED_ROUTES = frozenset(key for key in ROUTES if key[1] != "/eval/chat")


def match_route(method: str, path: str) -> tuple[tuple[str, str], dict[str, str]] | None:
    """The route key and path parameters of a request, or None when no route matches."""
    parts = path.rstrip("/").split("/") or [""]
    for route_method, template in ROUTES:
        template_parts = template.split("/")
        if route_method != method or len(template_parts) != len(parts):
            continue
        params: dict[str, str] = {}
        for expected, actual in zip(template_parts, parts, strict=True):
            if expected.startswith("{") and expected.endswith("}"):
                if not actual:
                    break
                params[expected[1:-1]] = actual
            elif expected != actual:
                break
        else:
            return (route_method, template), params
    return None


def http_api_event(
    method: str,
    path: str,
    *,
    body: str | Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
    authorizer_context: Mapping[str, Any] | None = None,
    route_key: str | None = None,
    path_parameters: Mapping[str, str] | None = None,
    query: str = "",
    stage: str = "$default",
    source_ip: str = "127.0.0.1",
) -> dict[str, Any]:
    """An HTTP API payload-v2 event, with the Lambda authorizer's context where given."""
    if isinstance(body, Mapping):
        body = json.dumps(body)
    all_headers = {"content-type": "application/json"} if body is not None else {}
    all_headers.update({key.lower(): value for key, value in (headers or {}).items()})
    if route_key is None:
        matched = match_route(method, path)
        route_key = f"{method} {matched[0][1]}" if matched else "$default"
        if matched and path_parameters is None:
            path_parameters = matched[1] or None
    now = time.time()
    request_context: dict[str, Any] = {
        "accountId": "123456789012",
        "apiId": "local",
        "domainName": "localhost",
        "domainPrefix": "localhost",
        "http": {
            "method": method,
            "path": path,
            "protocol": "HTTP/1.1",
            "sourceIp": source_ip,
            "userAgent": all_headers.get("user-agent", "agent-memory"),
        },
        "requestId": str(uuid.uuid4()),
        "routeKey": route_key,
        "stage": stage,
        "time": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(now)),
        "timeEpoch": int(now * 1000),
    }
    if authorizer_context is not None:
        request_context["authorizer"] = {"lambda": dict(authorizer_context)}
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": route_key,
        "rawPath": path,
        "rawQueryString": query,
        "headers": all_headers,
        "requestContext": request_context,
        "isBase64Encoded": False,
    }
    if body is not None:
        event["body"] = body
    if path_parameters:
        event["pathParameters"] = dict(path_parameters)
    return event


def allowed_methods(path: str) -> list[str]:
    """The methods some route serves at ``path`` (for a 405's ``Allow`` header)."""
    return sorted({method for method, _ in ROUTES if match_route(method, path) is not None})


def request_event(
    method: str,
    path: str,
    *,
    query: str,
    headers: Iterable[tuple[str, str]],
    body: bytes,
    route_key: str,
    path_parameters: Mapping[str, str],
    source_ip: str,
    protocol: str = "HTTP/1.1",
) -> dict[str, Any]:
    """The payload-v2 event of one raw HTTP request, as API Gateway's HTTP API builds it.

    Header names are lower-cased and repeated headers joined with commas; cookies move from
    the ``Cookie`` header to ``cookies``; a body that is not UTF-8 travels base64-encoded.
    Nothing is added that the client did not send (no default content type).
    """
    joined: dict[str, str] = {}
    cookies: list[str] = []
    for name, value in headers:
        key = name.lower()
        if key == "cookie":
            cookies.extend(part.strip() for part in value.split(";") if part.strip())
            continue
        joined[key] = f"{joined[key]},{value}" if key in joined else value
    event = http_api_event(
        method,
        path,
        headers=joined,
        route_key=route_key,
        path_parameters=path_parameters,
        query=query,
        source_ip=source_ip,
    )
    event["headers"] = joined  # exactly what the client sent
    event["requestContext"]["http"]["protocol"] = protocol
    host = joined.get("host", "localhost")
    event["requestContext"]["domainName"] = host
    event["requestContext"]["domainPrefix"] = host.split(".", 1)[0]
    if cookies:
        event["cookies"] = cookies
    parameters: dict[str, str] = {}
    for key, value in parse_qsl(query, keep_blank_values=True):
        parameters[key] = f"{parameters[key]},{value}" if key in parameters else value
    if parameters:
        event["queryStringParameters"] = parameters
    if body:
        try:
            event["body"] = body.decode("utf-8")
        except UnicodeDecodeError:
            event["body"] = base64.b64encode(body).decode("ascii")
            event["isBase64Encoded"] = True
    return event


def authorizer_event_for(request: Mapping[str, Any]) -> dict[str, Any]:
    """The Lambda authorizer's payload-v2 REQUEST event for a request event (no body)."""
    event = copy.deepcopy(dict(request))
    event.pop("body", None)
    event.pop("isBase64Encoded", None)
    event.pop("pathParameters", None)
    method, _, path = str(event.get("routeKey", "")).partition(" ")
    authorization = event.get("headers", {}).get("authorization")
    event["type"] = "REQUEST"
    event["routeArn"] = f"arn:aws:execute-api:us-east-1:123456789012:local/$default/{method}{path}"
    event["identitySource"] = [authorization] if authorization else []
    return event


def authorizer_request_event(
    authorization: str | None, *, route_key: str = "POST /chat"
) -> dict[str, Any]:
    """The payload-v2 request a Lambda authorizer receives for the ``Authorization`` header."""
    method, path = route_key.split(" ", 1)
    event = http_api_event(
        method, path, headers={"authorization": authorization} if authorization else {}
    )
    event["type"] = "REQUEST"
    event["routeArn"] = f"arn:aws:execute-api:us-east-1:123456789012:local/$default/{method}{path}"
    event["identitySource"] = [authorization] if authorization else []
    return event


def scheduled_event() -> dict[str, Any]:
    """The EventBridge event of the every-minute schedule."""
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": "123456789012",
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "region": "us-east-1",
        "resources": ["arn:aws:events:us-east-1:123456789012:rule/agent-memory-cleanup"],
        "detail": {},
    }


@dataclass
class LocalLambdaContext:
    """A Lambda context whose remaining time follows the configured timeout."""

    function_name: str
    timeout_ms: int = 30_000
    memory_limit_in_mb: int = 512
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    _started: float = field(default_factory=time.monotonic, repr=False)

    @property
    def invoked_function_arn(self) -> str:
        return f"arn:aws:lambda:us-east-1:123456789012:function:{self.function_name}"

    @property
    def function_version(self) -> str:
        return "$LATEST"

    @property
    def log_group_name(self) -> str:
        return f"/aws/lambda/{self.function_name}"

    @property
    def log_stream_name(self) -> str:
        return "local"

    def get_remaining_time_in_millis(self) -> int:
        elapsed_ms = int((time.monotonic() - self._started) * 1000)
        return max(self.timeout_ms - elapsed_ms, 0)
