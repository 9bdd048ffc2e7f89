"""Errors of the service layer.

A request the services cannot serve raises a ``ServiceError``: a machine ``code`` (one of
``ServiceErrorCode``, or a memory rule's ``ErrorCode`` when a user's own edit breaks one)
and a message written for the client, which never quotes memory content. The services know
nothing of HTTP: the HTTP layer answers each code with its status (``http/statuses.py``), a
streamed turn sends the code and message in an error frame.
"""

from __future__ import annotations

from enum import StrEnum

from agent_memory.exceptions import AgentMemoryError, ConfigurationError


class ServiceErrorCode(StrEnum):
    """Every code a service raises itself (a StrEnum: each equals its plain string)."""

    # The request names something badly.
    INVALID_TURN_ID = "invalid_turn_id"
    INVALID_IDEMPOTENCY_KEY = "invalid_idempotency_key"
    INVALID_COMMIT_ID = "invalid_commit_id"
    INVALID_PROPOSAL_ID = "invalid_proposal_id"
    INVALID_CURSOR = "invalid_cursor"
    INVALID_OPERATIONS = "invalid_operations"  # an edit rejected without a rule's own code
    # Nothing of that name for this user.
    COMMIT_NOT_FOUND = "commit_not_found"
    TURN_NOT_FOUND = "turn_not_found"
    PROPOSAL_NOT_FOUND = "proposal_not_found"
    # The request no longer applies to the current state.
    UNDO_CONFLICT = "undo_conflict"
    PROPOSAL_CONFLICT = "proposal_conflict"
    CONFLICT = "conflict"
    MEMORY_FORGOTTEN = "memory_forgotten"
    EDIT_CANCELLED = "edit_cancelled"
    TURN_CANCELLED = "turn_cancelled"
    ALREADY_COMMITTED = "already_committed"
    # A retry of POST /chat with the same Idempotency-Key (DESIGN.md step 2).
    TURN_IN_PROGRESS = "turn_in_progress"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    # Our side cannot serve it now: a retry may succeed.
    MEMORY_DISABLED = "memory_disabled"
    MEMORY_UNAVAILABLE = "memory_unavailable"
    LEDGER_UNAVAILABLE = "ledger_unavailable"
    EDIT_TIMEOUT = "edit_timeout"
    EDIT_OUTCOME_UNKNOWN = "edit_outcome_unknown"
    COMMIT_FAILED = "commit_failed"
    # The model gave no usable answer.
    MODEL_ERROR = "model_error"
    MODEL_LOOP_LIMIT = "model_loop_limit"
    MODEL_ANSWER_CUT_OFF = "model_answer_cut_off"
    MODEL_ANSWER_REFUSED = "model_answer_refused"
    TURN_TIMEOUT = "turn_timeout"
    # No one is left to answer (never rendered).
    CLIENT_DISCONNECTED = "client_disconnected"


class ServiceError(AgentMemoryError):
    """A request the service could not serve; nothing was changed unless the message says
    otherwise. Subclasses with a fixed answer set ``code`` and ``message`` on the class; a
    keyword argument overrides either."""

    code: str = "invalid_request"
    message: str = "The request is invalid."

    def __init__(self, *, code: str | None = None, message: str | None = None) -> None:
        self.code = code or type(self).code
        self.message = message or type(self).message
        super().__init__(self.code)


# -- a turn that produced no answer ----------------------------------------------------------


class TurnFailedError(ServiceError):
    """The turn produced no answer; nothing was committed."""


class TurnDeadlineExceededError(TurnFailedError):
    code = ServiceErrorCode.TURN_TIMEOUT
    message = "The turn ran out of time; nothing was saved to memory."


class TurnCancelledByRequestError(TurnFailedError):
    code = ServiceErrorCode.TURN_CANCELLED
    message = "The turn was cancelled; nothing was saved."


class ModelFailedError(TurnFailedError):
    code = ServiceErrorCode.MODEL_ERROR
    message = "The model could not answer; nothing was saved to memory."


class ModelLoopLimitError(TurnFailedError):
    code = ServiceErrorCode.MODEL_LOOP_LIMIT
    message = "The model did not finish its answer; nothing was saved to memory."


class AnswerCutOffError(TurnFailedError):
    code = ServiceErrorCode.MODEL_ANSWER_CUT_OFF
    message = "The model's answer was cut off at its length limit; nothing was saved to memory."


class AnswerRefusedError(TurnFailedError):
    code = ServiceErrorCode.MODEL_ANSWER_REFUSED
    message = "The model or its content filter refused to answer; nothing was saved to memory."


class ClientDisconnectedError(TurnFailedError):
    """A streamed turn's client left (a post failed with ``GoneException``, or the connection
    was gone before the commit): the turn commits nothing and no one is told."""

    code = ServiceErrorCode.CLIENT_DISCONNECTED
    message = "The client disconnected; nothing was saved."


# -- a retry of POST /chat -------------------------------------------------------------------


class TurnInProgressError(ServiceError):
    """The first attempt with this Idempotency-Key is still running."""

    code = ServiceErrorCode.TURN_IN_PROGRESS
    message = (
        "This turn is still running. Retry later, or ask GET /turns/{turn_id} what became of it."
    )


class IdempotencyKeyReusedError(ServiceError):
    """The Idempotency-Key came with a different request body."""

    code = ServiceErrorCode.IDEMPOTENCY_KEY_REUSED
    message = "This Idempotency-Key was used with a different request. Send a new key."


# -- the user's own memory ---------------------------------------------------------------------


class InvalidTurnIdError(ServiceError):
    code = ServiceErrorCode.INVALID_TURN_ID
    message = "A turn id must be a UUID."


class InvalidIdempotencyKeyError(ServiceError):
    code = ServiceErrorCode.INVALID_IDEMPOTENCY_KEY
    message = "The Idempotency-Key header must be a UUID."


class MemoryDisabledError(ServiceError):
    code = ServiceErrorCode.MEMORY_DISABLED
    message = "Memory is turned off for this service."


class MemoryUnreachableError(ServiceError):
    """Memory (or the ledger) could not be read or written right now: not the user's fault."""

    code = ServiceErrorCode.MEMORY_UNAVAILABLE
    message = "Memory cannot be read right now. Please retry."


class MemoryEditRejectedError(ServiceError):
    """A user's own change did not commit: it broke a memory rule (the rule's code), or no
    longer applies, or its commit failed (the outcome's code)."""


class AlreadyCommittedTurnError(ServiceError):
    code = ServiceErrorCode.ALREADY_COMMITTED
    message = "The turn has already committed its memory."


class LedgerUnreachableError(ServiceError):
    code = ServiceErrorCode.LEDGER_UNAVAILABLE
    message = "The turn could not be cancelled right now. Please retry."


class TurnNotFoundError(ServiceError):
    """No ledger item: the turn staged nothing, or it is another user's (alike)."""

    code = ServiceErrorCode.TURN_NOT_FOUND
    message = "No such turn has written to your memory."


# -- history, undo, settings, proposals ------------------------------------------------------------


class UserControlError(ServiceError):
    """A history, undo, settings or proposal request that cannot be served."""


class InvalidCommitIdError(UserControlError):
    code = ServiceErrorCode.INVALID_COMMIT_ID
    message = "A commit id must be a UUID."


class InvalidProposalIdError(UserControlError):
    code = ServiceErrorCode.INVALID_PROPOSAL_ID
    message = "A proposal id must be a UUID."


class InvalidCursorError(UserControlError):
    code = ServiceErrorCode.INVALID_CURSOR
    message = "The cursor is not one this API returned."


class CommitNotFoundError(UserControlError):
    code = ServiceErrorCode.COMMIT_NOT_FOUND
    message = "No such commit in your history."


class ProposalNotFoundError(UserControlError):
    code = ServiceErrorCode.PROPOSAL_NOT_FOUND
    message = "No such pending proposal."


class UndoConflictError(UserControlError):
    code = ServiceErrorCode.UNDO_CONFLICT
    message = "An entry this commit touched has changed since; nothing was changed."


class ProposalConflictError(UserControlError):
    code = ServiceErrorCode.PROPOSAL_CONFLICT
    message = "The proposal no longer applies to your memory; nothing was changed."


__all__ = [
    "AlreadyCommittedTurnError",
    "AnswerCutOffError",
    "AnswerRefusedError",
    "ClientDisconnectedError",
    "CommitNotFoundError",
    "ConfigurationError",
    "IdempotencyKeyReusedError",
    "InvalidCommitIdError",
    "InvalidCursorError",
    "InvalidIdempotencyKeyError",
    "InvalidProposalIdError",
    "InvalidTurnIdError",
    "LedgerUnreachableError",
    "MemoryDisabledError",
    "MemoryEditRejectedError",
    "MemoryUnreachableError",
    "ModelFailedError",
    "ModelLoopLimitError",
    "ProposalConflictError",
    "ProposalNotFoundError",
    "ServiceError",
    "ServiceErrorCode",
    "TurnCancelledByRequestError",
    "TurnDeadlineExceededError",
    "TurnFailedError",
    "TurnInProgressError",
    "TurnNotFoundError",
    "UndoConflictError",
    "UserControlError",
]
