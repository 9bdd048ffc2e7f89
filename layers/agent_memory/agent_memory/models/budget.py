"""The wall-clock limit of one model call: the provider's own timeout or the turn's time
left, whichever ends first (a timeout that restarts on every byte is no limit at all)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from agent_memory.models.exceptions import ModelDeadlineError, ModelTimeoutError

MIN_CALL_SECONDS = 1.0
"""No model call starts with less time than this: it could not answer, only cost."""


@dataclass(frozen=True)
class CallBudget:
    ends_at: float
    """On ``clock``'s scale (``time.monotonic`` by default)."""
    turn_bound: bool
    """The turn's deadline, not the provider's own timeout, decides when the call ends."""
    seconds: float
    clock: Callable[[], float] = time.monotonic

    @classmethod
    def start(
        cls,
        timeout_seconds: float,
        budget_seconds: float | None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> CallBudget:
        turn_bound = budget_seconds is not None and budget_seconds <= timeout_seconds
        seconds = budget_seconds if budget_seconds is not None and turn_bound else timeout_seconds
        return cls(clock() + seconds, turn_bound, seconds, clock)

    def remaining(self) -> float:
        return self.ends_at - self.clock()

    def expired(self) -> ModelTimeoutError:
        """The error of a call that ran out of this budget."""
        if self.turn_bound:
            return ModelDeadlineError()
        return ModelTimeoutError()

    def check_can_start(self) -> float:
        """The seconds left for one more attempt; raise when too few are left to try."""
        left = self.remaining()
        if left < self._least_useful() or left <= 0:
            raise self.expired()
        return left

    def retry_pause(self, attempt: int, *, hint: float | None = None) -> float | None:
        """How long to wait before retry number ``attempt`` (1-based), or None when the
        pause and a useful attempt after it no longer fit in the budget."""
        pause = hint if hint is not None else random.uniform(0.0, min(0.25 * 2**attempt, 2.0))
        if self.remaining() - pause < self._least_useful():
            return None
        return pause

    def _least_useful(self) -> float:
        # A provider timeout set below a second (tests, a local model) is taken at its word.
        return MIN_CALL_SECONDS if self.turn_bound else min(MIN_CALL_SECONDS, self.seconds / 2)
