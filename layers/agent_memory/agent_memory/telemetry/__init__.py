"""Telemetry that never carries memory: Powertools Logger, Metrics and Tracer, set up once."""

from __future__ import annotations

from agent_memory.telemetry.powertools import (
    NAMESPACE,
    SERVICE,
    TRACE_OPTIONS,
    logger,
    metrics,
    tracer,
)
from agent_memory.telemetry.turn_record import (
    APPROVED_DEBUG_FIELDS,
    TurnRecord,
    count_outcome,
    debug_capture_enabled,
    emit_turn_record,
)

__all__ = [
    "APPROVED_DEBUG_FIELDS",
    "NAMESPACE",
    "SERVICE",
    "TRACE_OPTIONS",
    "TurnRecord",
    "count_outcome",
    "debug_capture_enabled",
    "emit_turn_record",
    "logger",
    "metrics",
    "tracer",
]
