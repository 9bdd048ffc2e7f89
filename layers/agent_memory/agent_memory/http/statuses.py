"""The one table of HTTP statuses: each error code the API answers, and its status.

Services raise errors with a machine code and know nothing of HTTP (``service/exceptions.py``);
the resolver answers every error here, ``{"error": {"code", "message"}}`` with the status
this table gives its code. A code missing from it is a bug, answered as a 500.
"""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus
from types import MappingProxyType

from agent_memory.domain.exceptions import ErrorCode
from agent_memory.service.exceptions import ServiceErrorCode as Code

STATUS_BY_CODE: Mapping[str, HTTPStatus] = MappingProxyType(
    {
        # What the resolver checks before any route (as API Gateway would), and after.
        "invalid_json": HTTPStatus.BAD_REQUEST,
        "body_too_large": HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
        "unsupported_media_type": HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
        "invalid_request": HTTPStatus.UNPROCESSABLE_ENTITY,
        "unauthenticated": HTTPStatus.UNAUTHORIZED,
        "not_found": HTTPStatus.NOT_FOUND,
        "internal_error": HTTPStatus.INTERNAL_SERVER_ERROR,
        # A user's own edit, undo or approval that breaks a memory rule.
        **dict.fromkeys(ErrorCode, HTTPStatus.UNPROCESSABLE_ENTITY),
        Code.INVALID_OPERATIONS: HTTPStatus.UNPROCESSABLE_ENTITY,
        "too_many_failures": HTTPStatus.UNPROCESSABLE_ENTITY,
        # Ids and headers that are not what the contract says.
        Code.INVALID_TURN_ID: HTTPStatus.BAD_REQUEST,
        Code.INVALID_IDEMPOTENCY_KEY: HTTPStatus.BAD_REQUEST,
        Code.INVALID_COMMIT_ID: HTTPStatus.BAD_REQUEST,
        Code.INVALID_PROPOSAL_ID: HTTPStatus.BAD_REQUEST,
        Code.INVALID_CURSOR: HTTPStatus.BAD_REQUEST,
        Code.COMMIT_NOT_FOUND: HTTPStatus.NOT_FOUND,
        Code.PROPOSAL_NOT_FOUND: HTTPStatus.NOT_FOUND,
        Code.TURN_NOT_FOUND: HTTPStatus.NOT_FOUND,
        # The request no longer applies: nothing was changed.
        Code.UNDO_CONFLICT: HTTPStatus.CONFLICT,
        Code.PROPOSAL_CONFLICT: HTTPStatus.CONFLICT,
        Code.CONFLICT: HTTPStatus.CONFLICT,
        Code.MEMORY_FORGOTTEN: HTTPStatus.CONFLICT,
        Code.EDIT_CANCELLED: HTTPStatus.CONFLICT,
        Code.TURN_CANCELLED: HTTPStatus.CONFLICT,
        Code.ALREADY_COMMITTED: HTTPStatus.CONFLICT,
        # A retry of POST /chat: the first attempt still runs, or the key named another body.
        Code.TURN_IN_PROGRESS: HTTPStatus.CONFLICT,
        Code.IDEMPOTENCY_KEY_REUSED: HTTPStatus.UNPROCESSABLE_ENTITY,
        # Our side cannot serve it now; a retry may succeed.
        Code.MEMORY_DISABLED: HTTPStatus.SERVICE_UNAVAILABLE,
        Code.MEMORY_UNAVAILABLE: HTTPStatus.SERVICE_UNAVAILABLE,
        Code.LEDGER_UNAVAILABLE: HTTPStatus.SERVICE_UNAVAILABLE,
        Code.EDIT_TIMEOUT: HTTPStatus.SERVICE_UNAVAILABLE,
        Code.EDIT_OUTCOME_UNKNOWN: HTTPStatus.SERVICE_UNAVAILABLE,
        Code.COMMIT_FAILED: HTTPStatus.SERVICE_UNAVAILABLE,
        # The model gave no usable answer in time.
        Code.MODEL_ERROR: HTTPStatus.BAD_GATEWAY,
        Code.MODEL_LOOP_LIMIT: HTTPStatus.BAD_GATEWAY,
        Code.MODEL_ANSWER_CUT_OFF: HTTPStatus.BAD_GATEWAY,
        Code.MODEL_ANSWER_REFUSED: HTTPStatus.BAD_GATEWAY,
        Code.TURN_TIMEOUT: HTTPStatus.GATEWAY_TIMEOUT,
        # Code.CLIENT_DISCONNECTED has none: there is no one left to answer.
    }
)


def status_for(code: str) -> HTTPStatus | None:
    """The status answering ``code``; None for a code the table does not know."""
    return STATUS_BY_CODE.get(code)
