"""Turn ids: a UUID in its canonical form, whoever supplies it (a header, a path, a frame)."""

from __future__ import annotations

import uuid

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
