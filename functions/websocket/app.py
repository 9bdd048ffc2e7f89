"""The WebSocket API, every route (``requestContext.routeKey``): ``$connect``,
``$disconnect``, ``chat``, ``cancel`` and ``$default``. Translates events; the service does
the turn. The caller's identity is the ``$connect`` authorizer's ``sub``, which API Gateway
hands to every later route of the connection: no frame and no lookup decides it.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from agent_memory.auth import SUBPROTOCOL
from agent_memory.service import (
    cancel_streamed_turn,
    chat_service,
    connection_fence,
    memory_service,
    refuse_unknown_action,
    stream_chat_turn,
)
from agent_memory.service.cancellation import cancel_flag_for_request
from agent_memory.telemetry import logger, metrics
from agent_memory.telemetry.tracing import tracer
from agent_memory.websocket import connection_for

_OK: dict[str, Any] = {"statusCode": 200}


@logger.inject_lambda_context(correlation_id_path="requestContext.requestId", log_event=False)
@tracer.capture_lambda_handler(capture_response=False, capture_error=False)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    request = event.get("requestContext") or {}
    route = request.get("routeKey")
    # The route key lives as long as this invocation: the package logger is shared.
    with logger.append_context_keys(route=route):
        return _handle(route, request, event, context)


def _handle(
    route: str | None, request: dict[str, Any], event: dict[str, Any], context: LambdaContext
) -> dict[str, Any]:
    if route == "$connect":
        # The authorizer has checked the token and that agent-memory.v1 was offered.
        return {"statusCode": 200, "headers": {"Sec-WebSocket-Protocol": SUBPROTOCOL}}
    user_id = _subject(request)
    connection_id = request.get("connectionId")
    if user_id is None or not isinstance(connection_id, str):
        logger.warning("websocket event without identity or connection")
        return {"statusCode": 403}
    if route == "$disconnect":
        fenced = connection_fence().fence(user_id, connection_id)
        logger.info("connection closed", extra={"fenced_turns": fenced})
        return _OK
    connection = connection_for(request["domainName"], request["stage"], connection_id)
    body = None if event.get("isBase64Encoded") else event.get("body")
    if route == "chat":
        stream_chat_turn(
            chat_service(),
            user_id=user_id,
            connection=connection,
            body=body,
            remaining_ms=context.get_remaining_time_in_millis(),
            cancel_flag=cancel_flag_for_request(),
        )
    elif route == "cancel":
        cancel_streamed_turn(memory_service(), user_id=user_id, connection=connection, body=body)
    else:
        refuse_unknown_action(connection, body)
    return _OK


def _subject(request: dict[str, Any]) -> str | None:
    authorizer = request.get("authorizer")
    subject = authorizer.get("sub") if isinstance(authorizer, dict) else None
    return subject if isinstance(subject, str) and subject else None
