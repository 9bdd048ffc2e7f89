"""One operational record per turn: a log line and metrics with exactly the seed's fields.

The record holds counts, sizes, durations and an outcome: nothing a user wrote, nothing the
model said, no tool argument. The debug capture flag (``DEBUG_CONTENT_CAPTURE``, off by
default) adds content to ``APPROVED_DEBUG_FIELDS`` of this log line and nowhere else: it does
not touch event logging, the Tracer's capture or any framework log.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit

from agent_memory.telemetry.counters import (
    COMMIT_RETRIES,
    FALLBACK_ANSWERS,
    INPUT_TOKENS,
    OUTPUT_TOKENS,
    TURN_DURATION,
    count,
    count_memory_unavailable,
    count_outcome,
    dimension_code,
)
from agent_memory.telemetry.powertools import logger, metrics

TOOL_NAME = "memory_update"
APPROVED_DEBUG_FIELDS = ("debug_staged_operations",)
RECORD_FIELDS = (
    "tool",
    "operation_count",
    "targets",
    "user_characters",
    "memory_characters",
    "duration_ms",
    "retry_count",
    "replay_count",
    "outcome",
    "stop_reason",
    "input_tokens",
    "output_tokens",
    "model_calls",
    "fallback_answered",
)


def debug_capture_enabled() -> bool:
    return os.environ.get("DEBUG_CONTENT_CAPTURE", "false").strip().lower() == "true"


@dataclass(frozen=True)
class TurnRecord:
    operation_count: int
    targets: Mapping[str, int]
    user_characters: int
    memory_characters: int
    duration_ms: int
    retry_count: int
    outcome: str
    stop_reason: str = "none"
    """How the last model call ended (``end_turn``, ``max_tokens``...; ``none``: no answer)."""
    input_tokens: int = 0
    output_tokens: int = 0
    model_calls: int = 0
    fallback_answered: bool = False
    replay_count: int = 0
    tool: str = TOOL_NAME
    # Content, for the debug flag only; never part of the default record.
    debug_staged_operations: Sequence[Mapping[str, Any]] = field(default=(), repr=False)

    def log_fields(self, *, capture_content: bool) -> dict[str, Any]:
        fields = asdict(self)
        fields["targets"] = dict(self.targets)
        debug = {name: fields.pop(name) for name in APPROVED_DEBUG_FIELDS}
        if capture_content:
            fields.update({name: list(value) for name, value in debug.items()})
        return fields


def emit_turn_record(record: TurnRecord) -> None:
    logger.info("memory turn", extra=record.log_fields(capture_content=debug_capture_enabled()))
    metrics.add_metric(name="OperationCount", unit=MetricUnit.Count, value=record.operation_count)
    metrics.add_metric(name="UserCharacters", unit=MetricUnit.Count, value=record.user_characters)
    metrics.add_metric(
        name="MemoryCharacters", unit=MetricUnit.Count, value=record.memory_characters
    )
    metrics.add_metric(name=TURN_DURATION, unit=MetricUnit.Milliseconds, value=record.duration_ms)
    metrics.add_metric(name=COMMIT_RETRIES, unit=MetricUnit.Count, value=record.retry_count)
    metrics.add_metric(name=INPUT_TOKENS, unit=MetricUnit.Count, value=record.input_tokens)
    metrics.add_metric(name=OUTPUT_TOKENS, unit=MetricUnit.Count, value=record.output_tokens)
    if record.fallback_answered:
        count(FALLBACK_ANSWERS)
    count_outcome(record.outcome)


def emit_memory_unavailable(reason: str | None) -> None:
    """A turn ran without memory it should have had (a failed read, an unknown schema
    version, a ledger that could not be opened): one log line and one count, code only."""
    code = dimension_code(reason)
    logger.warning("memory unavailable", extra={"reason": code})
    count_memory_unavailable(code)
