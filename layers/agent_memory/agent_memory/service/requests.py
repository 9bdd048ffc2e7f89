"""Between the HTTP contract and the chat service: a request becomes a turn, a result a body.

Turn ids are ``service/turn_ids.py``, the documents' body ``service/documents.py``: the memory
API uses those without loading the chat turn (agent loop, model messages).
"""

from __future__ import annotations

from typing import Any

from agent_memory.http.contract import ChatRequest, ChatResponse, MemoryOutcomeBody
from agent_memory.service.cancellation import cancel_flag_for_request
from agent_memory.service.chat import ChatResult, ChatService, ChatTurn
from agent_memory.service.retries import Answer, ChatRetries
from agent_memory.service.turn_ids import parse_turn_id, turn_id_from_header

__all__ = [
    "answer_chat",
    "chat_response",
    "parse_turn_id",
    "run_chat_turn",
    "turn_id_from_header",
]


def run_chat_turn(
    service: ChatService,
    *,
    user_id: str | None,
    request: ChatRequest,
    turn_id: str | None,
    remaining_ms: int | None,
) -> ChatResult:
    """One chat turn; ``turn_id`` None gets a new one."""
    turn_id = turn_id_from_header(turn_id)
    now_ms = service.clock_ms()
    return service.run(
        ChatTurn(
            user_id=user_id,
            turn_id=turn_id,
            message=request.message,
            history=tuple((item.role, item.content) for item in request.history),
        ),
        deadline_ms=service.settings.deadline_ms(now_ms=now_ms, remaining_ms=remaining_ms),
        cancel_flag=cancel_flag_for_request(),
    )


def answer_chat(
    service: ChatService,
    retries: ChatRetries,
    *,
    user_id: str,
    request: ChatRequest,
    idempotency_key: str | None,
    lambda_context: Any,
) -> Answer:
    """``POST /chat``: a turn, or (same user, same ``Idempotency-Key``) the first attempt's
    stored response. Raises ``TurnInProgressError`` or ``IdempotencyKeyReusedError`` for a retry
    that cannot be answered."""
    turn_id = turn_id_from_header(idempotency_key)

    def attempt() -> dict[str, Any]:
        # The deadline counts from when the turn starts, after the key was claimed.
        remaining_ms = lambda_context.get_remaining_time_in_millis() if lambda_context else None
        result = run_chat_turn(
            service,
            user_id=user_id,
            request=request,
            turn_id=turn_id,
            remaining_ms=remaining_ms,
        )
        return chat_response(result).model_dump(mode="json")

    if idempotency_key is None or not idempotency_key.strip() or not retries.enabled:
        return Answer(attempt())
    return retries.answer(
        user_id=user_id,
        turn_id=turn_id,
        request=request.model_dump(mode="json"),
        lambda_context=lambda_context,
        attempt=attempt,
    )


def chat_response(result: ChatResult) -> ChatResponse:
    outcome = result.memory.to_dict()
    return ChatResponse(
        turn_id=result.turn_id, reply=result.reply, memory=MemoryOutcomeBody.model_validate(outcome)
    )
