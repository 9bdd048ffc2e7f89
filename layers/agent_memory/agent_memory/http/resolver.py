"""The shared HTTP machinery of the API handlers: one resolver shape, one error shape.

Every handler builds its routes on :func:`build_resolver`, so bad input gets the same clear
4xx JSON everywhere, and an unexpected failure a 500 that carries no internals. Every error
is answered with the status ``http/statuses.py`` gives its code; services raise codes only.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from http import HTTPStatus
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError

from agent_memory.http.contract import MAX_BODY_BYTES
from agent_memory.http.exceptions import ApiError
from agent_memory.http.statuses import status_for
from agent_memory.service.exceptions import ServiceError

logger = Logger(service="agent-memory", child=True)

JSON = "application/json"
# The tags of the request bodies' discriminated unions (the operation's action).
UNION_TAGS = frozenset({"add", "replace", "remove"})


def error_response(status: int, code: str, message: str) -> Response[Any]:
    return Response(
        status_code=int(status),
        content_type=JSON,
        body={"error": {"code": code, "message": message}},
    )


def describe_validation_errors(errors: list[dict[str, Any]]) -> str:
    """Location and reason of each error, never the offending input (it may be memory):
    not even the name of an unexpected key, which is input too."""
    parts = []
    for error in errors[:5]:
        # A discriminated union puts the matched tag in the location (operations.0.add.content):
        # the tag is one of ours, but the location reads better without it.
        loc = [part for part in error.get("loc", ()) if part != "body" and part not in UNION_TAGS]
        reason = str(error.get("msg", "is invalid"))
        kind = error.get("type")
        if kind == "extra_forbidden":
            loc, reason = loc[:-1], "unknown fields are not allowed"
        elif kind in ("union_tag_invalid", "union_tag_not_found"):
            # pydantic's message quotes the caller's tag: name the expected ones instead.
            reason = "action must be one of: add, replace, remove"
        location = ".".join(str(part) for part in loc)
        parts.append(f"{location}: {reason}" if location else reason)
    return "; ".join(parts) or "The request is invalid."


def coded_response(code: str, message: str) -> Response[Any]:
    """The error answer of ``code``, with the status the one table gives it."""
    status = status_for(code)
    if status is None:
        # A code without a status is our bug: answered as one, and named in the log.
        logger.error("error code without an HTTP status", extra={"code": code})
        return _internal_error()
    return error_response(status, code, message)


def _on_validation_error(error: RequestValidationError) -> Response[Any]:
    errors = list(error.errors())
    if any(e.get("type") == "json_invalid" for e in errors):
        return coded_response("invalid_json", "The request body is not valid JSON.")
    return coded_response("invalid_request", describe_validation_errors(errors))


def _on_service_error(error: ServiceError) -> Response[Any]:
    return coded_response(error.code, error.message)


def _on_api_error(error: ApiError) -> Response[Any]:
    return error_response(error.status, error.code, error.message)


def _internal_error() -> Response[Any]:
    return error_response(
        HTTPStatus.INTERNAL_SERVER_ERROR,
        "internal_error",
        "The request failed. Please retry later.",
    )


def _on_unexpected(error: Exception) -> Response[Any]:
    # The type only: an exception's text can quote memory or model output.
    logger.error("unhandled error", extra={"error_type": type(error).__name__})
    return _internal_error()


def _raw_error(code: str, message: str) -> dict[str, Any]:
    """An error answered before routing (no Powertools ``Response`` yet), from the table."""
    status = status_for(code) or HTTPStatus.INTERNAL_SERVER_ERROR
    return {
        "statusCode": int(status),
        "headers": {"Content-Type": JSON},
        "body": json.dumps({"error": {"code": code, "message": message}}),
        "isBase64Encoded": False,
    }


def _invalid_json() -> dict[str, Any]:
    return _raw_error("invalid_json", "The request body is not valid JSON.")


def _checked_body(event: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """API Gateway's own limits come first: a body too large, not JSON or not a JSON object
    never reaches a route. Returns the event to route (its body decoded and re-serialised,
    its content type normalised) and the error response, if any (then nothing is routed).

    The body is parsed here, once, with every failure caught: JSON nested too deep
    (RecursionError), an integer too long to convert (ValueError), bytes that are not UTF-8
    or not base64. A body that is valid JSON but not an object (an array would otherwise be
    validated by its first element) is a 422.
    """
    body = event.get("body")
    if not body:
        return dict(event), None
    try:
        if event.get("isBase64Encoded"):
            raw = base64.b64decode(body, validate=True)
        else:
            raw = body.encode("utf-8")  # a str with lone surrogates is not UTF-8 either
    except (binascii.Error, ValueError, UnicodeError):
        return dict(event), _invalid_json()
    if len(raw) > MAX_BODY_BYTES:
        return dict(event), _raw_error(
            "body_too_large", f"The body exceeds {MAX_BODY_BYTES} bytes."
        )
    headers = {key.lower(): value for key, value in (event.get("headers") or {}).items()}
    content_type = (headers.get("content-type") or "").split(";")[0].strip().lower()
    if content_type != JSON:
        return dict(event), _raw_error(
            "unsupported_media_type", "Send the body as application/json."
        )
    try:
        parsed = json.loads(raw.decode("utf-8"))
    except (RecursionError, ValueError, UnicodeError):
        return dict(event), _invalid_json()
    if not isinstance(parsed, dict):
        return dict(event), _raw_error("invalid_request", "The request body must be a JSON object.")
    headers["content-type"] = JSON
    return {**event, "headers": headers, "body": json.dumps(parsed), "isBase64Encoded": False}, None


_current_event: ContextVar[Any] = ContextVar("api_current_event", default=None)
_lambda_context: ContextVar[Any] = ContextVar("api_lambda_context", default=None)
_route_context: ContextVar[dict[str, Any] | None] = ContextVar("api_route_context", default=None)


class ApiResolver(APIGatewayHttpResolver):
    """Powertools' HTTP API resolver with validation, our error shape and bounded bodies.

    Powertools keeps the current event on a class attribute and the matched route's state
    on the instance. Lambda runs one invocation per process at a time, so that is safe
    there, but not where one process serves concurrent requests (a threaded local server,
    an in-process load test): one request could read another's identity. Here all three are
    request-local (context variables), so no request state is shared, whoever hosts us.
    """

    @property
    def current_event(self) -> Any:
        return _current_event.get()

    @current_event.setter
    def current_event(self, value: Any) -> None:
        _current_event.set(value)

    @property
    def lambda_context(self) -> Any:
        return _lambda_context.get()

    @lambda_context.setter
    def lambda_context(self, value: Any) -> None:
        _lambda_context.set(value)

    @property
    def context(self) -> dict[str, Any]:
        context = _route_context.get()
        if context is None:
            context = {}
            _route_context.set(context)
        return context

    @context.setter
    def context(self, value: dict[str, Any]) -> None:
        _route_context.set(value)

    def resolve(self, event: Mapping[str, Any], context: Any) -> dict[str, Any]:
        checked, rejected = _checked_body(event)
        if rejected is not None:
            return rejected
        _current_event.set(self._to_proxy_event(checked))
        _lambda_context.set(context)
        _route_context.set({})
        return super().resolve(checked, context)


def build_resolver() -> APIGatewayHttpResolver:
    # debug=False: POWERTOOLS_DEV would otherwise make the resolver print every raw event.
    app = ApiResolver(enable_validation=True, debug=False)
    handlers: list[tuple[type[Exception], Callable[..., Response[Any]]]] = [
        (RequestValidationError, _on_validation_error),
        (ServiceError, _on_service_error),
        (ApiError, _on_api_error),
        (Exception, _on_unexpected),
    ]
    for exc_type, handler in handlers:
        app.exception_handler(exc_type)(handler)

    @app.not_found
    def _not_found(_: Exception) -> Response[Any]:
        return coded_response("not_found", "No such route.")

    return app


def authenticated_subject(app: APIGatewayHttpResolver) -> str:
    """The memory owner: the ``sub`` the Lambda authorizer verified, and nothing else."""
    authorizer = app.current_event.request_context.authorizer
    context = authorizer.get_lambda if authorizer else None
    subject = (context or {}).get("sub")
    if not isinstance(subject, str) or not subject:
        raise ApiError(
            HTTPStatus.UNAUTHORIZED, "unauthenticated", "This route needs a verified identity."
        )
    return subject
