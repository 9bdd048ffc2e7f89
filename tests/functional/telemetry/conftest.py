"""Telemetry fixtures: every channel captured, X-Ray enabled as in Lambda, traced handlers.

``traced_api`` runs the real handlers in a Lambda-like environment where tracing is on
(``LAMBDA_TASK_ROOT`` set, ``POWERTOOLS_TRACE_DISABLED=false``): the Tracer is built by the
production code (``build_tracer``: the real X-Ray recorder, botocore patched, the redacting
emitter), the recorder uses the SDK's ``LambdaContext`` with a fresh ``_X_AMZN_TRACE_ID`` per
invocation, and what would go to the daemon over UDP is captured at the socket call. The
environment also asks Powertools for everything the handlers must refuse: event logging and
the Tracer's response and error capture.
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aws_lambda_powertools import Tracer
from telemetry_support import Capture, RecordCollector, TracedApi, fresh_handler

from agent_memory.repository import TableNames
from agent_memory.service import reset_services
from agent_memory.telemetry import logger
from agent_memory.telemetry import tracing as tracing_module


@pytest.fixture
def capture(capsys: pytest.CaptureFixture[str]) -> Iterator[Capture]:
    """Everything this process logs, prints or traces while the test runs."""
    capsys.readouterr()
    captured = Capture(capsys)
    handler = logger.registered_handler
    # Not setStream(): it flushes the old stream, which may be an earlier test's closed one.
    previous_stream, handler.stream = handler.stream, captured.logger
    root = logging.getLogger()
    previous_level = root.level
    collector = RecordCollector(captured.records)
    # As if Lambda's log level were DEBUG: whatever a library would log, we see.
    root.setLevel(logging.DEBUG)
    root.addHandler(collector)
    try:
        yield captured
    finally:
        root.removeHandler(collector)
        root.setLevel(previous_level)
        handler.stream = previous_stream


@pytest.fixture
def live_tracer(
    capture: Capture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Tracer]:
    """The production Tracer of a traced Lambda, its daemon traffic appended to
    ``capture.segments``; the process's X-Ray state is restored afterwards."""
    monkeypatch.setenv("LAMBDA_TASK_ROOT", str(tmp_path))
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "false")
    monkeypatch.setenv("AWS_XRAY_CONTEXT_MISSING", "LOG_ERROR")
    monkeypatch.delenv("AWS_XRAY_SDK_ENABLED", raising=False)

    from aws_xray_sdk import global_sdk_config
    from aws_xray_sdk.core import xray_recorder
    from aws_xray_sdk.core.emitters.udp_emitter import UDPEmitter
    from aws_xray_sdk.core.lambda_launcher import LambdaContext

    saved = (
        xray_recorder.emitter,
        xray_recorder.context,
        xray_recorder.streaming_threshold,
        global_sdk_config.sdk_enabled(),
    )

    def send(_: Any, data: str) -> None:
        header, _, body = data.partition("\n")
        assert header == '{"format":"json","version":1}'
        capture.segments.append(json.loads(body))

    monkeypatch.setattr(UDPEmitter, "_send_data", send)
    # Powertools keeps the first Tracer's settings in a class attribute: start afresh, as a
    # new Lambda container would.
    monkeypatch.setattr(Tracer, "_config", copy.copy(Tracer._default_config))
    global_sdk_config.set_sdk_enabled(True)  # this process disabled it at the first import
    xray_recorder.context = LambdaContext()
    tracer = tracing_module.build_tracer()
    monkeypatch.setattr(tracing_module, "tracer", tracer)
    try:
        yield tracer
    finally:
        emitter, context, threshold, enabled = saved
        xray_recorder.emitter = emitter
        xray_recorder.context = context
        xray_recorder.streaming_threshold = threshold
        global_sdk_config.set_sdk_enabled(enabled)


@pytest.fixture
def traced_api(
    dynamodb_env: TableNames, live_tracer: Tracer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[TracedApi]:
    """The chat, memory and eval functions, traced, on this test's tables, memory on, the
    rules model, and Powertools asked (by environment) to log events and capture responses."""
    monkeypatch.setenv("MEMORY_ENABLED", "true")
    monkeypatch.setenv("MODEL_PROVIDER", "rules")
    monkeypatch.delenv("FALLBACK_MODEL_ID", raising=False)
    monkeypatch.setenv("TURN_DEADLINE_SECONDS", "20")
    monkeypatch.delenv("DEBUG_CONTENT_CAPTURE", raising=False)  # off by default
    monkeypatch.setenv("POWERTOOLS_LOGGER_LOG_EVENT", "true")
    monkeypatch.setenv("POWERTOOLS_TRACER_CAPTURE_RESPONSE", "true")
    monkeypatch.setenv("POWERTOOLS_TRACER_CAPTURE_ERROR", "true")
    reset_services()
    handlers = {name: fresh_handler(name) for name in ("chat", "memory_api", "eval")}
    yield TracedApi(monkeypatch=monkeypatch, handlers=handlers)
    reset_services()
