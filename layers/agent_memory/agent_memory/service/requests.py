"""Between the HTTP contract and the services: turn ids, deadlines, response bodies."""

from __future__ import annotations

import uuid

from agent_memory.domain import LIMITS, TARGETS, UNKNOWN_SOURCE, Target, withheld_entries
from agent_memory.http.contract import (
    ChatRequest,
    ChatResponse,
    EntryProvenance,
    MemoryDocument,
    MemoryDocumentsResponse,
    MemoryOutcomeBody,
)
from agent_memory.repository import LoadedMemory
from agent_memory.service.cancellation import cancel_flag_for_request
from agent_memory.service.chat import ChatResult, ChatService, ChatTurn
from agent_memory.service.exceptions import InvalidIdempotencyKeyError, InvalidTurnIdError


def parse_turn_id(value: str) -> str:
    """A turn id is a UUID (canonical lower-case form), whoever supplies it."""
    try:
        return str(uuid.UUID(value.strip()))
    except (ValueError, AttributeError):
        raise InvalidTurnIdError() from None


def turn_id_from_header(idempotency_key: str | None) -> str:
    if idempotency_key is None or not idempotency_key.strip():
        return str(uuid.uuid4())
    try:
        return parse_turn_id(idempotency_key)
    except InvalidTurnIdError:
        raise InvalidIdempotencyKeyError() from None


def run_chat_turn(
    service: ChatService,
    *,
    user_id: str | None,
    request: ChatRequest,
    idempotency_key: str | None,
    remaining_ms: int | None,
) -> ChatResult:
    turn_id = turn_id_from_header(idempotency_key)
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


def chat_response(result: ChatResult) -> ChatResponse:
    outcome = result.memory.to_dict()
    return ChatResponse(
        turn_id=result.turn_id, reply=result.reply, memory=MemoryOutcomeBody.model_validate(outcome)
    )


def _provenance(
    loaded: LoadedMemory, target: Target, withheld: tuple[bool, ...]
) -> list[EntryProvenance]:
    """Issue 15's record of each entry plus the scanner's withheld mark (an entry without a
    record reads as written by an unknown source)."""
    records = [item.to_dict() for item in loaded.entry_provenance(target)]
    records += [{"source": UNKNOWN_SOURCE, "updated_at": 0}] * (len(withheld) - len(records))
    return [
        EntryProvenance.model_validate({**record, "withheld": hidden})
        for record, hidden in zip(records, withheld, strict=False)
    ]


def documents_response(loaded: LoadedMemory) -> MemoryDocumentsResponse:
    snapshot = loaded.snapshot
    withheld = withheld_entries(snapshot)
    documents = {
        target: MemoryDocument(
            entries=list(snapshot.entries(target)),
            chars=snapshot.chars(target),
            limit=LIMITS[target],
            provenance=_provenance(loaded, target, withheld[target]),
        )
        for target in TARGETS
    }
    return MemoryDocumentsResponse(**documents)
