"""Debug switches an operator might flip: none of them may put content into telemetry.

(Event logging and the Tracer's capture are asked for by ``traced_api``'s environment in every
test; framework DEBUG logs are in ``test_telemetry_search``.)
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from telemetry_support import ARG, HISTORY, MSG, Capture, TracedApi, fresh_handler, memory_update

from agent_memory.telemetry import logger


@pytest.fixture
def debug_level() -> Iterator[None]:
    """The service logger at DEBUG, as ``LOG_LEVEL=DEBUG`` or a sampled invocation sets it."""
    previous = logger.log_level
    logger.setLevel("DEBUG")
    yield
    logger.setLevel(previous)


@pytest.mark.usefixtures("debug_level")
def test_the_service_logger_at_debug_logs_no_content(
    traced_api: TracedApi, capture: Capture
) -> None:
    # WHEN a turn runs with the service logger at DEBUG
    traced_api.seed()
    traced_api.chat(
        f"{MSG}\n" + memory_update({"target": "memory", "action": "add", "content": ARG}),
        history=HISTORY,
    )

    # THEN no line carries content
    assert capture.turn_records()
    assert capture.leaks() == []


def test_powertools_dev_mode_prints_no_event(
    traced_api: TracedApi, capture: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN the chat function cold-started with POWERTOOLS_DEV=true
    monkeypatch.setenv("POWERTOOLS_DEV", "true")
    traced_api.handlers["chat"] = fresh_handler("chat")

    # WHEN a turn runs
    traced_api.chat(MSG, history=HISTORY)

    # THEN neither the event nor anything else of the request reaches stdout
    assert capture.leaks() == []
