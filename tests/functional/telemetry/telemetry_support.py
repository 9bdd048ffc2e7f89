"""Sentinels, the capture of every telemetry channel, and the traced handlers.

A ``Capture`` holds everything that would leave a Lambda: the Powertools Logger's lines, the
rest of stdout (EMF blobs) and stderr, every stdlib logging record (with its extras and
traceback), and every segment or subsegment the X-Ray SDK would send to the daemon.
"""

from __future__ import annotations

import importlib.util
import io
import json
import logging
import secrets
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest
from aws_lambda_powertools.logging.filters import SuppressFilter
from botocore.awsrequest import AWSResponse

from agent_memory.telemetry import SERVICE
from agent_memory_tools.local.events import LocalLambdaContext, http_api_event
from agent_memory_tools.local.functions import project_root

# Distinctive, secret-like, and each planted in one place only.
SENTINELS = {
    "memory entry": "SENTINEL-MEM-7f3a9c",
    "user profile entry": "SENTINEL-USR-1b2e4d",
    "tool argument": "SENTINEL-ARG-5c8e21",
    "user message": "SENTINEL-MSG-93d0aa",
    "history": "SENTINEL-HIS-44f1b7",
    "failing operation": "SENTINEL-ERR-d6a0e3",
    "model output": "SENTINEL-OUT-2a9f60",
    "user id": "SENTINEL-UID-0c1d2e",
}
MEM, USR, ARG, MSG, HIS, ERR, OUT, UID = SENTINELS.values()

MEMORY_ENTRY = f"Project codename is {MEM}"
USER_ENTRY = f"Prefers the {USR} layout"
HISTORY = [
    {"role": "user", "content": f"Earlier I said {HIS}"},
    {"role": "assistant", "content": "Understood."},
]

# Keys Powertools' Logger adds to every line (with the Lambda context injected).
POWERTOOLS_KEYS = frozenset(
    {
        "level",
        "location",
        "message",
        "timestamp",
        "service",
        "sampling_rate",
        "cold_start",
        "function_name",
        "function_memory_size",
        "function_arn",
        "function_request_id",
        "correlation_id",
        "xray_trace_id",
    }
)


def memory_update(*operations: Mapping[str, Any]) -> str:
    """A rules-model directive: call the memory tool with exactly these operations."""
    return "memory_update: " + json.dumps({"operations": list(operations)})


@dataclass(frozen=True)
class Leak:
    channel: str
    sentinel: str
    excerpt: str


@dataclass
class Capture:
    capsys: pytest.CaptureFixture[str]
    logger: io.StringIO = field(default_factory=io.StringIO)
    records: list[str] = field(default_factory=list)
    segments: list[dict[str, Any]] = field(default_factory=list)
    _out: list[str] = field(default_factory=list)
    _err: list[str] = field(default_factory=list)

    @property
    def stdout(self) -> str:
        self._drain()
        return "".join(self._out)

    @property
    def stderr(self) -> str:
        self._drain()
        return "".join(self._err)

    def _drain(self) -> None:
        out, err = self.capsys.readouterr()
        self._out.append(out)
        self._err.append(err)

    def clear(self) -> None:
        self._drain()
        self.logger.seek(0)
        self.logger.truncate()
        for kept in (self.records, self.segments, self._out, self._err):
            kept.clear()

    # -- what was captured ---------------------------------------------------------------

    def log_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.logger.getvalue().splitlines() if line]

    def turn_records(self) -> list[dict[str, Any]]:
        return [line for line in self.log_lines() if line.get("message") == "memory turn"]

    def emf(self) -> list[dict[str, Any]]:
        blobs = []
        for line in self.stdout.splitlines():
            if line.startswith("{") and '"_aws"' in line:
                blobs.append(json.loads(line))
        return blobs

    def metric(self, name: str) -> list[dict[str, str]]:
        """The dimensions of each data point of ``name`` (one dict per EMF blob)."""
        points = []
        for blob in self.emf():
            for directive in blob["_aws"]["CloudWatchMetrics"]:
                if any(metric["Name"] == name for metric in directive["Metrics"]):
                    names = {dim for dims in directive["Dimensions"] for dim in dims}
                    points.append({dim: blob[dim] for dim in sorted(names)})
        return points

    def subsegments(self) -> list[dict[str, Any]]:
        """Every captured entity, nested ones included."""
        found: list[dict[str, Any]] = []

        def walk(entity: dict[str, Any]) -> None:
            found.append(entity)
            for child in entity.get("subsegments", ()):
                walk(child)

        for segment in self.segments:
            walk(segment)
        return found

    def aws_calls(self, service: str) -> list[dict[str, Any]]:
        return [entity for entity in self.subsegments() if entity.get("name") == service]

    # -- the search ----------------------------------------------------------------------

    def channels(self, *, except_fields: Iterable[str] = ()) -> dict[str, str]:
        """Each channel's text; ``except_fields`` are left out of the Logger's lines."""
        logger_text = self.logger.getvalue()
        if except_fields:
            logger_text = "\n".join(
                json.dumps(without_fields(line, except_fields)) for line in self.log_lines()
            )
        return {
            "powertools logger": logger_text,
            "stdout (EMF, prints)": self.stdout,
            "stderr": self.stderr,
            "stdlib logging": "\n".join(self.records),
            "x-ray": "\n".join(json.dumps(segment) for segment in self.segments),
        }

    def leaks(
        self, sentinels: Iterable[str] = SENTINELS.values(), *, except_fields: Iterable[str] = ()
    ) -> list[Leak]:
        return find_leaks(self.channels(except_fields=except_fields), sentinels)


def find_leaks(channels: Mapping[str, str], sentinels: Iterable[str]) -> list[Leak]:
    """Every occurrence of every sentinel in every channel (case-insensitive)."""
    leaks = []
    for channel, text in channels.items():
        folded = text.lower()
        for sentinel in sentinels:
            at = folded.find(sentinel.lower())
            if at >= 0:
                leaks.append(Leak(channel, sentinel, text[max(at - 80, 0) : at + 80]))
    return leaks


def without_fields(line: Mapping[str, Any], names: Iterable[str]) -> dict[str, Any]:
    return {key: value for key, value in line.items() if key not in set(names)}


class RecordCollector(logging.Handler):
    """Every stdlib record that reaches the root logger, as Lambda's root handler would get
    it (Powertools filters its own records out there: they are in the Logger's stream), except
    those of the moto server's threads (the fake AWS is not our telemetry): the text, the
    traceback and every extra attribute."""

    def __init__(self, sink: list[str]) -> None:
        super().__init__(level=logging.DEBUG)
        self.sink = sink
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
        self.addFilter(SuppressFilter(SERVICE))

    def emit(self, record: logging.LogRecord) -> None:
        if "process_request_thread" in record.threadName or record.name.startswith(
            ("werkzeug", "moto")
        ):
            return
        fields = {key: repr(value) for key, value in vars(record).items()}
        self.sink.append(self.format(record) + " " + json.dumps(fields))


# -- botocore: answers injected inside the (X-Ray patched) API call -------------------------


def _answer(status: int, body: dict[str, Any]) -> tuple[AWSResponse, dict[str, Any]]:
    metadata = {"HTTPStatusCode": status, "RequestId": uuid.uuid4().hex, "HTTPHeaders": {}}
    return AWSResponse("https://example.invalid", status, {}, None), {
        **body,
        "ResponseMetadata": metadata,
    }


def client_error(code: str, message: str) -> tuple[AWSResponse, dict[str, Any]]:
    return _answer(400, {"Error": {"Code": code, "Message": message}})


def success(body: dict[str, Any]) -> tuple[AWSResponse, dict[str, Any]]:
    return _answer(200, body)


def before_call(
    client: Any,
    operation: str,
    respond: Callable[[], tuple[AWSResponse, dict[str, Any]] | None],
    *,
    times: int | None = 1,
) -> Callable[[], None]:
    """Answer ``operation`` on ``client`` from ``respond`` (``None``: go to the server) for the
    next ``times`` calls. It runs inside ``_make_api_call``, under X-Ray's botocore patch, so
    the subsegment records the answer as it would a real one. Returns the unregister call."""
    service = client.meta.service_model.service_id.hyphenize()
    event = f"before-call.{service}.{operation}"
    remaining = [times]

    def handler(**_: Any) -> tuple[AWSResponse, dict[str, Any]] | None:
        if remaining[0] is not None:
            if remaining[0] <= 0:
                return None
            remaining[0] -= 1
        return respond()

    client.meta.events.register(event, handler, unique_id=f"telemetry-test-{event}")
    return lambda: client.meta.events.unregister(event, unique_id=f"telemetry-test-{event}")


# -- the traced handlers -----------------------------------------------------------------


@dataclass(frozen=True)
class Reply:
    status: int
    body: Any
    headers: Mapping[str, str] = field(default_factory=dict)

    @property
    def memory(self) -> dict[str, Any]:
        return dict(self.body["memory"])


def fresh_handler(name: str) -> Callable[[dict[str, Any], Any], dict[str, Any]]:
    """``functions/<name>/app.py`` imported afresh, as a cold start would: its module-level
    code binds the Tracer that is current now (``agent_memory_tools.local.functions`` keeps one
    copy per process, bound to the Tracer of the first import)."""
    path = project_root() / "functions" / name / "app.py"
    spec = importlib.util.spec_from_file_location(f"traced_{name}_{uuid.uuid4().hex}", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.lambda_handler  # type: ignore[no-any-return]


def new_trace_header() -> str:
    return (
        f"Root=1-{int(time.time()):08x}-{secrets.token_hex(12)};"
        f"Parent={secrets.token_hex(8)};Sampled=1"
    )


@dataclass
class TracedApi:
    """The chat, memory and eval functions, traced, each call a new Lambda invocation."""

    monkeypatch: pytest.MonkeyPatch
    handlers: dict[str, Callable[[dict[str, Any], Any], dict[str, Any]]]
    user: str = UID

    def call(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        user: str | None = "",
        headers: Mapping[str, str] | None = None,
    ) -> Reply:
        function = {"/chat": "chat", "/eval/chat": "eval"}.get(path, "memory_api")
        owner = self.user if user == "" else user
        event = http_api_event(
            method,
            path,
            body=body,
            headers=headers,
            authorizer_context={"sub": owner} if owner is not None else None,
        )
        self.monkeypatch.setenv("_X_AMZN_TRACE_ID", new_trace_header())
        response = self.handlers[function](event, LocalLambdaContext(function_name=function))
        text = response.get("body") or ""
        return Reply(
            status=response["statusCode"],
            body=json.loads(text) if text else None,
            headers=response.get("headers") or {},
        )

    def chat(self, message: str, *, history: list[dict[str, str]] | None = None) -> Reply:
        return self.call("POST", "/chat", body={"message": message, "history": history or []})

    def eval_chat(self, message: str) -> Reply:
        return self.call("POST", "/eval/chat", body={"message": message}, user=None)

    def patch_memory(self, *operations: Mapping[str, Any]) -> Reply:
        return self.call("PATCH", "/memory", body={"operations": list(operations)})

    def seed(self) -> None:
        """The user's memory holds one sentinel entry per store."""
        reply = self.patch_memory(
            {"target": "memory", "action": "add", "content": MEMORY_ENTRY},
            {"target": "user", "action": "add", "content": USER_ENTRY},
        )
        assert reply.status == 200, reply.body
