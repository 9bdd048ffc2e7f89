"""Errors of the model providers.

Messages are built from constants and error codes only: they never quote the prompt, the
conversation, tool arguments or model output, because exceptions end up in logs and traces.
"""

from __future__ import annotations

from agent_memory.exceptions import AgentMemoryError, ConfigurationError


class ModelError(AgentMemoryError):
    """A model call failed.

    ``retryable`` says whether the same request may succeed later (throttling, an outage, a
    timeout); ``code`` is a short machine-readable reason (an AWS error code, ``http_429``...).
    """

    def __init__(self, message: str, *, code: str, retryable: bool) -> None:
        super().__init__(message)
        self.code = code
        self.retryable = retryable


class ModelTimeoutError(ModelError):
    """The model did not answer in time."""

    def __init__(
        self, message: str = "The model call timed out.", *, code: str = "timeout"
    ) -> None:
        super().__init__(message, code=code, retryable=True)


class ModelDeadlineError(ModelTimeoutError):
    """The call used up the wall-clock budget it was given (the turn's time left)."""

    def __init__(self) -> None:
        super().__init__("The model call ran out of the turn's time.", code="deadline")


class ModelConfigurationError(ConfigurationError, ValueError):
    """The model settings name an unknown provider or lack a required setting."""
