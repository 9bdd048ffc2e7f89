"""The metrics the alarms and the dashboard reference: their names and dimensions (the
service and short codes, never a user id), emitted as EMF by the real handlers."""

from __future__ import annotations

from telemetry_support import (
    MSG,
    Capture,
    TracedApi,
    before_call,
    client_error,
    fresh_handler,
    memory_update,
)

from agent_memory.repository import get_client
from agent_memory.telemetry import (
    AUTHORIZER_DENIALS,
    COMMIT_RETRIES,
    EDITS,
    EXPIRED_TURNS,
    MEMORY_UNAVAILABLE,
    TURN_DURATION,
    TURNS,
    count_memory_unavailable,
)
from agent_memory_tools.local.events import LocalLambdaContext

SERVICE = {"service": "agent-memory"}


def test_the_alarmed_metrics_keep_their_names() -> None:
    assert (
        TURNS,
        EDITS,
        EXPIRED_TURNS,
        MEMORY_UNAVAILABLE,
        AUTHORIZER_DENIALS,
        COMMIT_RETRIES,
        TURN_DURATION,
    ) == (
        "Turns",
        "Edits",
        "ExpiredTurns",
        "MemoryUnavailable",
        "AuthorizerDenials",
        "CommitRetries",
        "TurnDuration",
    )


def test_every_alarmed_metric_is_emitted_with_its_dimensions(
    traced_api: TracedApi, capture: Capture
) -> None:
    # GIVEN the functions of the stack
    authorizer = fresh_handler("authorizer")
    cleanup = fresh_handler("cleanup")

    # WHEN an edit, a committed turn, a turn whose read fails, a cleanup and a denied request
    # run
    traced_api.patch_memory({"target": "memory", "action": "add", "content": "A fact"})
    traced_api.chat(memory_update({"target": "memory", "action": "add", "content": "Another"}))
    before_call(get_client(), "Query", lambda: client_error("ThrottlingException", MSG))
    traced_api.chat(MSG)
    cleanup({}, LocalLambdaContext(function_name="cleanup"))
    authorizer({"type": "REQUEST", "headers": {}}, LocalLambdaContext(function_name="authorizer"))

    # THEN each metric is there, with the service and its code dimension only
    assert capture.metric(EDITS) == [{**SERVICE, "outcome": "committed"}]
    assert capture.metric(TURNS) == [
        {**SERVICE, "outcome": "committed"},
        {**SERVICE, "outcome": "unavailable"},
    ]
    assert capture.metric(MEMORY_UNAVAILABLE) == [{**SERVICE, "reason": "ThrottlingException"}]
    assert capture.metric(TURN_DURATION) == [SERVICE, SERVICE]
    assert capture.metric(COMMIT_RETRIES) == [SERVICE, SERVICE]
    assert capture.metric(EXPIRED_TURNS) == [SERVICE]
    assert capture.metric(AUTHORIZER_DENIALS) == [SERVICE]
    assert capture.leaks() == []


def test_a_dimension_value_can_only_be_a_short_code(capture: Capture) -> None:
    # WHEN a reason that is not a code reaches the counter
    count_memory_unavailable(f"document 'memory' failed: {MSG}")
    count_memory_unavailable(None)

    # THEN it is counted as "other" (or "unknown"), never as text
    assert capture.metric(MEMORY_UNAVAILABLE) == [
        {**SERVICE, "reason": "other"},
        {**SERVICE, "reason": "unknown"},
    ]
    assert capture.leaks() == []
