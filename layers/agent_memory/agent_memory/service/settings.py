"""Runtime settings of the turn, read from the environment the template sets."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass

from agent_memory.service.exceptions import ConfigurationError


def env_flag(value: str | None, *, default: bool = False) -> bool:
    if value is None or not value.strip():
        return default
    normalized = value.strip().lower()
    if normalized in {"true", "1", "yes", "on"}:
        return True
    if normalized in {"false", "0", "no", "off"}:
        return False
    raise ConfigurationError(f"Expected true or false, got {value!r}.")


def wall_clock_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class TurnSettings:
    # The turn must end before API Gateway's 30 s integration timeout and the Lambda's own.
    turn_deadline_ms: int = 25_000
    # Room left after the deadline for the commit's answer and the response itself.
    safety_margin_ms: int = 1_500
    max_model_calls: int = 8

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> TurnSettings:
        env = os.environ if env is None else env
        try:
            seconds = float(env.get("TURN_DEADLINE_SECONDS", "25"))
            max_calls = int(env.get("MAX_MODEL_CALLS", "8"))
        except ValueError as error:
            raise ConfigurationError(
                "TURN_DEADLINE_SECONDS and MAX_MODEL_CALLS must be numbers."
            ) from error
        if seconds <= 0 or max_calls <= 0:
            raise ConfigurationError("TURN_DEADLINE_SECONDS and MAX_MODEL_CALLS must be positive.")
        return cls(turn_deadline_ms=int(seconds * 1000), max_model_calls=max_calls)

    def deadline_ms(self, *, now_ms: int, remaining_ms: int | None) -> int:
        """The smaller of the turn's budget and the Lambda's remaining time, minus the margin."""
        budget = self.turn_deadline_ms
        if remaining_ms is not None:
            budget = min(budget, remaining_ms)
        return now_ms + max(budget - self.safety_margin_ms, 0)
