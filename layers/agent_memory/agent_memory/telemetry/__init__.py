"""Telemetry that never carries memory: Powertools Logger, Metrics and Tracer, set up once.

The Tracer is not exported here: import it from ``agent_memory.telemetry.tracing`` in the
functions that are traced (importing it may load the X-Ray SDK and patch botocore).
"""

from __future__ import annotations

from agent_memory.telemetry.counters import (
    AUTHORIZER_DENIALS,
    COMMIT_RETRIES,
    EDITS,
    EXPIRED_TURNS,
    MEMORY_UNAVAILABLE,
    TURN_DURATION,
    TURNS,
    count_authorizer_denial,
    count_memory_unavailable,
    count_outcome,
)
from agent_memory.telemetry.powertools import NAMESPACE, SERVICE, logger, metrics
from agent_memory.telemetry.turn_record import (
    APPROVED_DEBUG_FIELDS,
    RECORD_FIELDS,
    TurnRecord,
    debug_capture_enabled,
    emit_memory_unavailable,
    emit_turn_record,
)

__all__ = [
    "APPROVED_DEBUG_FIELDS",
    "AUTHORIZER_DENIALS",
    "COMMIT_RETRIES",
    "EDITS",
    "EXPIRED_TURNS",
    "MEMORY_UNAVAILABLE",
    "NAMESPACE",
    "RECORD_FIELDS",
    "SERVICE",
    "TURNS",
    "TURN_DURATION",
    "TurnRecord",
    "count_authorizer_denial",
    "count_memory_unavailable",
    "count_outcome",
    "debug_capture_enabled",
    "emit_memory_unavailable",
    "emit_turn_record",
    "logger",
    "metrics",
]
