"""POST /chat: one authenticated chat turn. Translates the event; the service does the turn."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Header

from agent_memory.http import ChatRequest, ChatResponse, authenticated_subject, build_resolver
from agent_memory.service import answer_chat, chat_retries, chat_service
from agent_memory.telemetry.entrypoint import private_api_handler

app = build_resolver()

REPLAYED_HEADER = "Idempotent-Replayed"


@app.post(
    "/chat",
    operation_id="chat",
    tags=["chat"],
    summary="One chat turn with the caller's memory",
    description="Memory changes the model proposes are committed only if the turn succeeds; "
    "`memory.status` says what became of them. A retry with the same `Idempotency-Key` and "
    "body gets the first response again, with header `Idempotent-Replayed: true`, for an "
    "hour; 409 `turn_in_progress` while the first attempt runs; 422 "
    "`idempotency_key_reused` for another body. A retry of a failed attempt runs the turn.",
    responses={
        200: {
            "description": "The turn's answer, or the first attempt's answer replayed to a retry",
            "headers": {
                REPLAYED_HEADER: {
                    "description": "`true` on a retry's replay of the first response",
                    "schema": {"type": "string", "enum": ["true"]},
                }
            },
            "content": {"application/json": {"model": ChatResponse}},
        }
    },
)
def chat(
    body: ChatRequest,
    idempotency_key: Annotated[
        str | None,
        Header(alias="idempotency-key", description="A UUID naming the turn (retries reuse it)."),
    ] = None,
) -> Response[ChatResponse]:
    user_id = authenticated_subject(app)
    answer = answer_chat(
        chat_service(),
        chat_retries(),
        user_id=user_id,
        request=body,
        idempotency_key=idempotency_key,
        lambda_context=app.lambda_context,
    )
    headers: dict[str, Any] = {REPLAYED_HEADER: "true"} if answer.replayed else {}
    return Response(
        status_code=200,
        content_type="application/json",
        body=ChatResponse.model_validate(answer.body),
        headers=headers,
    )


lambda_handler = private_api_handler(app)
