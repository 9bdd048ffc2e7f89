"""The in-process target's execution environments: worker processes that each run the real
authorizer and handlers for one request at a time, as a Lambda execution environment does.

Why processes and not threads of the load test itself: Powertools' event handler keeps the
current event on a class attribute (``BaseRouter.current_event``) shared by every resolver
of a process, so concurrent invocations in one process can each read the other's event,
identity included. Tried with threads, a turn then commits another user's request and the
checker reports lost and foreign facts that the deployed service (one invocation per
environment) would never produce.

Each request runs through ``LocalGateway`` (what API Gateway does: 401 without a token, the
authorizer's decision, its context into the event, the route's function) with an invoker
that calls the handlers directly. The worker also counts the DynamoDB requests of the
invocation (``RequestCounter`` on the process-wide clients) and reads the turn's
``memory turn`` log record for its commit re-attempts.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_environment: _Environment | None = None


@dataclass
class _Environment:
    gateway: Any
    invoker: _DirectInvoker
    counter: Any
    capture: _TurnRecordCapture
    barrier: Any


class _TurnRecordCapture(logging.Handler):
    """Keeps the ``retry_count`` of the ``memory turn`` record of the current invocation."""

    def __init__(self) -> None:
        super().__init__(level=logging.INFO)
        self.retry_count: int | None = None
        self.replay_count: int | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if record.msg == "memory turn":
            value = getattr(record, "retry_count", None)
            self.retry_count = int(value) if isinstance(value, int) else None
            replays = getattr(record, "replay_count", None)
            self.replay_count = int(replays) if isinstance(replays, int) else None


class _DirectInvoker:
    """The gateway's ``Invoker``: calls the loaded handlers in this process."""

    def __init__(self, handlers: Mapping[str, Any], timeouts_ms: Mapping[str, int]) -> None:
        self._handlers = handlers
        self._timeouts_ms = timeouts_ms

    def invoke(self, function: str, event: dict[str, Any], *, watch: Any = None) -> Any:
        from agent_memory_tools.local.events import LocalLambdaContext
        from agent_memory_tools.local.exceptions import FunctionCrashedError
        from agent_memory_tools.local.invoker import Invocation

        context = LocalLambdaContext(function, timeout_ms=self._timeouts_ms.get(function, 30_000))
        try:
            return Invocation(self._handlers[function](event, context))
        except Exception as error:  # Lambda reports a crashed invocation, not its trace
            raise FunctionCrashedError(f"{function} raised {type(error).__name__}") from None


def initialize(
    env: Mapping[str, str],
    unset: Sequence[str],
    timeouts_ms: Mapping[str, int],
    barrier: Any,
    log_dir: str | None = None,
) -> None:
    """The process's init phase: environment, handlers, clients, counters; the handlers'
    stdout (their logs and metrics) goes to a file of ``log_dir``, or nowhere."""
    global _environment
    # Ctrl-C is the load test's to handle: it lets the turns in flight finish, then stops us.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _redirect_stdout(log_dir)
    # What PYTHONWARNINGS does for the local stack (it is read only at interpreter start).
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    for name in unset:
        os.environ.pop(name, None)
    os.environ.update(env)

    from agent_memory.repository import RequestCounter, get_client, get_transaction_client
    from agent_memory.telemetry.powertools import SERVICE
    from agent_memory_tools.local.functions import handler
    from agent_memory_tools.local.gateway import LocalGateway

    handlers = {name: handler(name) for name in timeouts_ms}
    counter = RequestCounter().attach(get_client(), get_transaction_client())
    capture = _TurnRecordCapture()
    logging.getLogger(SERVICE).addHandler(capture)
    invoker = _DirectInvoker(handlers, timeouts_ms)
    _environment = _Environment(
        gateway=LocalGateway(invoker),
        invoker=invoker,
        counter=counter,
        capture=capture,
        barrier=barrier,
    )


def ready(
    warm_up: Sequence[Mapping[str, Any]],
    timeout: float,
    stream_warm_up: Mapping[str, Any] | None = None,
) -> int:
    """Wait until every environment holds one of these calls (so each one is started and
    initialised before the load begins), then warm it up with ``warm_up`` (and a streamed
    turn on a connection the management API does not know: it loads the WebSocket function
    and its client, and stops at its first post); returns the pid."""
    environment = _require()
    environment.barrier.wait(timeout)
    for request in warm_up:
        handle(request)
    if stream_warm_up is not None:
        stream({**stream_warm_up, "connection_id": f"warm-up-{os.getpid()}"})
    return os.getpid()


def handle(request: Mapping[str, Any]) -> dict[str, Any]:
    """One API request: ``method``, ``path``, ``headers`` (pairs), ``body`` (bytes)."""
    from agent_memory_tools.local.gateway import GatewayRequest

    environment = _require()
    environment.counter.reset()
    environment.capture.retry_count = None
    environment.capture.replay_count = None
    started = time.perf_counter()
    cpu_started = time.process_time()
    response = environment.gateway.handle(
        GatewayRequest(
            method=str(request["method"]),
            path=str(request["path"]),
            headers=tuple(request["headers"]),
            body=bytes(request["body"]),
        )
    )
    latency_ms = (time.perf_counter() - started) * 1000
    cpu_ms = (time.process_time() - cpu_started) * 1000
    return {
        "status": response.status,
        "body": response.body,
        "latency_ms": latency_ms,
        "cpu_ms": cpu_ms,
        "requests": environment.counter.counts(),
        "retry_count": environment.capture.retry_count,
        "replay_count": environment.capture.replay_count,
        "peak_rss_mb": _peak_rss_mb(),
    }


def stream(request: Mapping[str, Any]) -> dict[str, Any]:
    """One streamed turn on a connection of its own, as API Gateway's WebSocket API runs it:
    ``$connect`` (the real authorizer, the token in the ``bearer.`` subprotocol; then the
    function's ``$connect``), then the chat frame to the ``chat`` route. The DynamoDB
    requests and the time are the chat invocation's; it posts its frames to the load
    test's management API (``WEBSOCKET_MANAGEMENT_ENDPOINT``)."""
    from agent_memory_tools.local.exceptions import InvocationError
    from agent_memory_tools.local.websocket_events import (
        authorizer_event,
        connect_event,
        message_event,
    )
    from agent_memory_tools.local.websocket_front import allowed_context

    environment = _require()
    info = _connection(request, f"agent-memory.v1, bearer.{request['token']}")
    try:
        decision = environment.invoker.invoke("authorizer", authorizer_event(info)).response
        context = allowed_context(decision, info.method_arn)
        if context is None:
            return {"refused": 403}
        environment.invoker.invoke("websocket", connect_event(info, context))
        environment.counter.reset()
        environment.capture.retry_count = None
        environment.capture.replay_count = None
        started = time.monotonic()
        environment.invoker.invoke("websocket", message_event(info, context, request["frame"]))
    except InvocationError as error:
        return {"crashed": type(error).__name__}
    return {
        "started_at": started,
        "latency_ms": (time.monotonic() - started) * 1000,
        "requests": environment.counter.counts(),
        "retry_count": environment.capture.retry_count,
        "replay_count": environment.capture.replay_count,
        "peak_rss_mb": _peak_rss_mb(),
    }


def disconnect(request: Mapping[str, Any]) -> None:
    """The ``$disconnect`` of a connection whose client dropped (fences its open turns)."""
    from agent_memory_tools.local.exceptions import InvocationError
    from agent_memory_tools.local.websocket_events import disconnect_event

    environment = _require()
    info = _connection(request, "")
    context = {"sub": request["user_id"], "principalId": request["user_id"]}
    with contextlib.suppress(InvocationError):
        environment.invoker.invoke("websocket", disconnect_event(info, context, status_code=1006))


def _connection(request: Mapping[str, Any], subprotocols: str) -> Any:
    from agent_memory_tools.local.websocket_events import ConnectionInfo

    return ConnectionInfo(
        connection_id=str(request["connection_id"]),
        domain_name="loadtest.localhost",
        stage=str(request["stage"]),
        source_ip="127.0.0.1",
        user_agent="agent-memory-loadtest",
        headers={"sec-websocket-protocol": subprotocols} if subprotocols else {},
    )


def _peak_rss_mb() -> float:
    from agent_memory_tools.loadtest.rss import peak_rss_mb

    return peak_rss_mb()


def _require() -> _Environment:
    if _environment is None:
        raise RuntimeError("the load-test worker was not initialised")
    return _environment


def _redirect_stdout(log_dir: str | None) -> None:
    """The handlers log JSON and print metrics to stdout: not onto the load test's terminal,
    into a file the load test searches for content (line-buffered, so it is on disk when it
    looks)."""
    path = os.path.join(log_dir, f"worker-{os.getpid()}.log") if log_dir else os.devnull
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(fd, 1)
    os.close(fd)
    # Lives with the process.
    sys.stdout = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115
