"""Telemetry that never carries memory: Powertools Logger, Metrics and Tracer, set up once.

The Tracer is not exported here: import it from ``agent_memory.telemetry.tracing`` in the
functions that are traced (importing it may load the X-Ray SDK and patch botocore). The turn
record's names are imported on first use: only the chat turns emit one, and the functions
that run none (the memory API, the authorizer, the cleanup) never load it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from agent_memory.telemetry.turn_record import (
        APPROVED_DEBUG_FIELDS,
        RECORD_FIELDS,
        TurnRecord,
        debug_capture_enabled,
        emit_memory_unavailable,
        emit_turn_record,
    )

_TURN_RECORD = "agent_memory.telemetry.turn_record"
_LAZY_EXPORTS = frozenset(
    {
        "APPROVED_DEBUG_FIELDS",
        "RECORD_FIELDS",
        "TurnRecord",
        "debug_capture_enabled",
        "emit_memory_unavailable",
        "emit_turn_record",
    }
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


def __getattr__(name: str) -> Any:
    if name not in _LAZY_EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_TURN_RECORD), name)
