"""The debug capture flag: content in the approved fields of the turn record, nowhere else.

It never switches on event logging, the Tracer's response or error capture, or any framework
log (the environment of ``traced_api`` asks Powertools for all three).
"""

from __future__ import annotations

import pytest
from telemetry_support import (
    ARG,
    HISTORY,
    MEM,
    MSG,
    Capture,
    TracedApi,
    memory_update,
)

from agent_memory.telemetry import APPROVED_DEBUG_FIELDS

REPLACE_MEMORY_ENTRY = {
    "target": "memory",
    "action": "replace",
    "match": MEM,
    "content": f"Codename changed to {ARG}",
}


def test_the_flag_is_off_by_default(traced_api: TracedApi, capture: Capture) -> None:
    # GIVEN no DEBUG_CONTENT_CAPTURE variable
    # WHEN a turn stages content
    traced_api.chat(memory_update({"target": "memory", "action": "add", "content": ARG}))

    # THEN its record has no debug field
    [record] = capture.turn_records()
    assert not set(APPROVED_DEBUG_FIELDS) & set(record)


def test_the_flag_adds_content_to_the_approved_fields_only(
    traced_api: TracedApi, capture: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN the debug capture flag on, and stored memory
    monkeypatch.setenv("DEBUG_CONTENT_CAPTURE", "true")
    traced_api.seed()

    # WHEN a turn commits a staged replace, and another fails after staging
    traced_api.chat(f"{MSG}\n{memory_update(REPLACE_MEMORY_ENTRY)}", history=HISTORY)
    traced_api.chat(f"{MSG}\nremember: {ARG} again\nsimulate: fail")

    # THEN each record's approved field holds exactly the staged operations
    committed, failed = capture.turn_records()
    assert committed["debug_staged_operations"] == [REPLACE_MEMORY_ENTRY]
    assert failed["debug_staged_operations"] == [
        {"target": "memory", "action": "add", "match": None, "content": f"{ARG} again"}
    ]
    # AND outside those fields no log line, metric or trace holds any sentinel
    assert capture.leaks(except_fields=APPROVED_DEBUG_FIELDS) == []
    assert {leak.channel for leak in capture.leaks()} == {"powertools logger"}
