"""Counts with short-code dimensions: what the alarms and the dashboard are built on.

Metric names (namespace ``AgentMemory``; every metric has the dimension ``service``):

| metric | extra dimension | unit | emitted by |
|---|---|---|---|
| ``Turns`` | ``outcome`` | Count | every chat turn (``emit_turn_record``) |
| ``Edits`` | ``outcome`` | Count | every ``PATCH /memory`` |
| ``MemoryUnavailable`` | ``reason`` | Count | a turn whose memory could not be read or written |
| ``AuthorizerDenials`` | - | Count | every denied request (the reason is in the log only) |
| ``ExpiredTurns`` | - | Count | the cleanup |
| ``TurnDuration`` | - | Milliseconds | every chat turn |
| ``CommitRetries`` | - | Count | every chat turn (resends and replays) |
| ``OperationCount``, ``UserCharacters``, ``MemoryCharacters`` | - | Count | every chat turn |
| ``InputTokens``, ``OutputTokens`` | - | Count | every chat turn (summed over its model calls) |
| ``FallbackAnswers`` | - | Count | a turn that the fallback model answered |

A dimension value is a code from our code or an AWS error code, never user data: anything
that does not look like a short code is counted as ``other``.
"""

from __future__ import annotations

import re

from aws_lambda_powertools.metrics import MetricUnit, single_metric

from agent_memory.telemetry.powertools import NAMESPACE, SERVICE

TURNS = "Turns"
EDITS = "Edits"
MEMORY_UNAVAILABLE = "MemoryUnavailable"
AUTHORIZER_DENIALS = "AuthorizerDenials"
EXPIRED_TURNS = "ExpiredTurns"
TURN_DURATION = "TurnDuration"
COMMIT_RETRIES = "CommitRetries"
INPUT_TOKENS = "InputTokens"
OUTPUT_TOKENS = "OutputTokens"
FALLBACK_ANSWERS = "FallbackAnswers"

_CODE = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


def dimension_code(value: str | None) -> str:
    if value is None:
        return "unknown"
    return value if _CODE.fullmatch(value) else "other"


def count(metric: str, **dimensions: str | None) -> None:
    """One count, flushed at once, with ``service`` and the given code dimensions only."""
    with single_metric(
        name=metric,
        unit=MetricUnit.Count,
        value=1,
        namespace=NAMESPACE,
        default_dimensions={"service": SERVICE},
    ) as one:
        for name, value in dimensions.items():
            one.add_dimension(name=name, value=dimension_code(value))


def count_outcome(outcome: str, *, metric: str = TURNS) -> None:
    """A count with the outcome as its only dimension besides the service (alarms use it)."""
    count(metric, outcome=outcome)


def count_memory_unavailable(reason: str | None) -> None:
    count(MEMORY_UNAVAILABLE, reason=reason)


def count_authorizer_denial() -> None:
    count(AUTHORIZER_DENIALS)
