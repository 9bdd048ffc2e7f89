"""POST /chat: one authenticated chat turn. Translates the event; the service does the turn."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Header

from agent_memory.http import ChatRequest, ChatResponse, authenticated_subject, build_resolver
from agent_memory.service import chat_response, chat_service, run_chat_turn
from agent_memory.telemetry.entrypoint import private_api_handler

app = build_resolver()


@app.post(
    "/chat",
    operation_id="chat",
    tags=["chat"],
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


lambda_handler = private_api_handler(app)
