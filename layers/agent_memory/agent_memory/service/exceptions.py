"""Errors of the service layer. Those a client should see are ``ApiError``s (status, code,
message), so every handler renders them the same way; none quotes memory content."""

from __future__ import annotations

from agent_memory.http.exceptions import ApiError


class ServiceError(Exception):
    """Base of the service layer's internal errors."""


class ConfigurationError(ServiceError):
    """The environment does not describe a usable service (a deploy-time mistake)."""


class TurnFailedError(ApiError):
    """The turn produced no answer; nothing was committed."""

    def __init__(self, code: str, message: str, *, status: int = 502) -> None:
        super().__init__(status, code, message)


class ClientDisconnectedError(TurnFailedError):
    """A streamed turn's client left (a post failed with ``GoneException``, or the connection
    was gone before the commit): the turn commits nothing and no one is told."""

    def __init__(self) -> None:
        # 499 (client closed request): never rendered, there is no one left to answer.
        super().__init__(
            "client_disconnected", "The client disconnected; nothing was saved.", status=499
        )


class MemoryEditRejectedError(ApiError):
    """A user's own edit broke a memory rule (422) or no longer applies (409)."""


class UserControlError(ApiError):
    """A history, undo, settings or proposal request that cannot be served. Each subclass
    has one machine ``code`` and a message that never quotes memory content."""

    status = 400
    code = "invalid_request"
    message = "The request is invalid."

    def __init__(self, message: str | None = None) -> None:
        super().__init__(type(self).status, type(self).code, message or type(self).message)


class InvalidCommitIdError(UserControlError):
    code = "invalid_commit_id"
    message = "A commit id must be a UUID."


class InvalidProposalIdError(UserControlError):
    code = "invalid_proposal_id"
    message = "A proposal id must be a UUID."


class InvalidCursorError(UserControlError):
    code = "invalid_cursor"
    message = "The cursor is not one this API returned."


class CommitNotFoundError(UserControlError):
    status = 404
    code = "commit_not_found"
    message = "No such commit in your history."


class ProposalNotFoundError(UserControlError):
    status = 404
    code = "proposal_not_found"
    message = "No such pending proposal."


class UndoConflictError(UserControlError):
    status = 409
    code = "undo_conflict"
    message = "An entry this commit touched has changed since; nothing was changed."


class ProposalConflictError(UserControlError):
    status = 409
    code = "proposal_conflict"
    message = "The proposal no longer applies to your memory; nothing was changed."
