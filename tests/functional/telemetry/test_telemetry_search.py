"""The sentinel search itself: a leak planted in any channel is found, so the tests that find
none could have failed. And the framework debug logs, which would copy memory, stay pinned."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator

import pytest
from aws_lambda_powertools import Tracer
from aws_lambda_powertools.logging.logger import set_package_logger
from aws_lambda_powertools.metrics import MetricUnit, single_metric
from telemetry_support import (
    ARG,
    MEM,
    MSG,
    Capture,
    TracedApi,
    memory_update,
    new_trace_header,
)

from agent_memory.telemetry import logger
from agent_memory.telemetry.framework_logs import quiet_framework_logs

PLANTED = {
    "powertools logger": "SENTINEL-PLANTED-LOG-01",
    "stdout (EMF, prints)": "SENTINEL-PLANTED-EMF-02",
    "stderr": "SENTINEL-PLANTED-ERR-03",
    "stdlib logging": "SENTINEL-PLANTED-STD-04",
    "x-ray": "SENTINEL-PLANTED-XRAY-05",
}


def test_a_leak_planted_in_each_channel_is_found(
    traced_api: TracedApi,
    live_tracer: Tracer,
    capture: Capture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # GIVEN a normal turn, then one leak planted in every channel (one in lower case)
    traced_api.chat(f"{MSG}\nremember: {ARG}")
    logger.info("planted", extra={"note": PLANTED["powertools logger"]})
    with single_metric(name="Planted", unit=MetricUnit.Count, value=1, namespace="Test") as m:
        m.add_dimension(name="planted", value=PLANTED["stdout (EMF, prints)"])
    print(PLANTED["stderr"].lower(), file=sys.stderr)
    logging.getLogger("some.library").warning("planted %s", PLANTED["stdlib logging"])
    monkeypatch.setenv("_X_AMZN_TRACE_ID", new_trace_header())
    with live_tracer.provider.in_subsegment("## planted") as subsegment:
        subsegment.put_annotation("planted", PLANTED["x-ray"])

    # WHEN every channel is searched for the planted sentinels
    found = capture.leaks(PLANTED.values())

    # THEN each is found, in its own channel and nowhere else
    assert {(leak.channel, leak.sentinel) for leak in found} == set(PLANTED.items())
    assert all(leak.sentinel.lower() in leak.excerpt.lower() for leak in found)
    # AND the turn's own sentinels are still found nowhere
    assert capture.leaks() == []


class CurrentStdout:
    """A stream that writes to whatever ``sys.stdout`` is at the time (pytest swaps it)."""

    def write(self, text: str) -> int:
        return sys.stdout.write(text)

    def flush(self) -> None:
        sys.stdout.flush()


@pytest.fixture
def framework_debug_logs(capture: Capture) -> Iterator[None]:
    """botocore and Powertools' package logger at DEBUG, as ``AWS_LAMBDA_LOG_LEVEL=DEBUG``
    and ``POWERTOOLS_DEBUG`` would set them (to the captured stdout); pinned afterwards."""
    package = logging.getLogger("aws_lambda_powertools")
    handlers = list(package.handlers)
    logging.getLogger("botocore").setLevel(logging.DEBUG)
    set_package_logger(stream=CurrentStdout())
    try:
        yield
    finally:
        for handler in set(package.handlers) - set(handlers):
            package.removeHandler(handler)
        quiet_framework_logs()


@pytest.mark.usefixtures("framework_debug_logs")
def test_framework_debug_logs_would_copy_memory_and_stay_pinned(
    traced_api: TracedApi, capture: Capture
) -> None:
    # GIVEN framework loggers switched to DEBUG
    turn = f"{MSG}\n" + memory_update(
        {"target": "memory", "action": "add", "content": f"Codename {MEM}"}
    )

    # WHEN a turn runs THEN their output copies the request's content (the threat is real)
    traced_api.chat(turn)
    assert {leak.channel for leak in capture.leaks()} == {"stdlib logging", "stdout (EMF, prints)"}

    # WHEN the telemetry pins them again (as importing it does) and a turn runs
    quiet_framework_logs()
    capture.clear()
    traced_api.chat(turn)

    # THEN nothing leaks
    assert capture.leaks() == []
