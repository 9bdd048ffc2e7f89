"""POST /chat: one authenticated chat turn. Translates the event; the service does the turn."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler.openapi.params import Header
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext

from agent_memory.http import ChatRequest, ChatResponse, authenticated_subject, build_resolver
from agent_memory.service import chat_response, chat_service, run_chat_turn
from agent_memory.telemetry import logger, metrics
from agent_memory.telemetry.tracing import tracer

app = build_resolver()


@app.post(
    "/chat",
    summary="One chat turn with the caller's memory",
    description="Memory changes the model proposes are committed only if the turn succeeds; "
    "`memory.status` says what became of them.",
)
def chat(
    body: ChatRequest,
    idempotency_key: Annotated[
        str | None,
        Header(alias="idempotency-key", description="A UUID naming the turn (retries reuse it)."),
    ] = None,
) -> ChatResponse:
    user_id = authenticated_subject(app)
    result = run_chat_turn(
        chat_service(),
        user_id=user_id,
        request=body,
        idempotency_key=idempotency_key,
        remaining_ms=app.lambda_context.get_remaining_time_in_millis(),
    )
    return chat_response(result)


@logger.inject_lambda_context(
    correlation_id_path=correlation_paths.API_GATEWAY_HTTP, log_event=False
)
@tracer.capture_lambda_handler(capture_response=False, capture_error=False)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
