"""Helpers of the operations tests: fault injection on real clients, table snapshots, a thin
driver of the real handlers."""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Literal

from botocore.exceptions import ReadTimeoutError

from agent_memory.repository import TableNames
from agent_memory_tools.local.events import LocalLambdaContext, http_api_event
from agent_memory_tools.local.functions import handler

FaultKind = Literal["error_response", "crash", "lost_answer"]
FAULT_KINDS: tuple[FaultKind, ...] = ("error_response", "crash", "lost_answer")
_INDEX = "operations_test_call_index"


class InjectedCrashError(RuntimeError):
    """An unexpected failure of a DynamoDB call (not a botocore error)."""


@dataclass
class FaultInjector:
    """Numbers every DynamoDB API call of the attached clients and injects one fault at call
    ``at``: ``error_response`` (DynamoDB answers 500, nothing applied), ``crash`` (the call
    raises before anything is sent) or ``lost_answer`` (the call IS applied, then the answer
    is lost as a read timeout)."""

    kind: FaultKind | None = None
    at: int = -1
    calls: list[str] = field(default_factory=list)
    fired: str | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def attach(self, *clients: Any) -> FaultInjector:
        for client in clients:
            client.meta.events.register("before-call.dynamodb", self._before, unique_id=id(self))
            client.meta.events.register("after-call.dynamodb", self._after, unique_id=id(self) + 1)
        return self

    def detach(self, *clients: Any) -> None:
        for client in clients:
            client.meta.events.unregister("before-call.dynamodb", unique_id=id(self))
            client.meta.events.unregister("after-call.dynamodb", unique_id=id(self) + 1)

    def _before(self, model: Any, context: dict[str, Any], **_: Any) -> Any:
        with self._lock:
            index = len(self.calls)
            self.calls.append(model.name)
        context[_INDEX] = index
        if index != self.at:
            return None
        if self.kind == "error_response":
            self.fired = model.name
            error = {"Code": "InternalServerError", "Message": "injected"}
            parsed = {"Error": error, "ResponseMetadata": {"HTTPStatusCode": 500}}
            return SimpleNamespace(status_code=500, headers={}), parsed
        if self.kind == "crash":
            self.fired = model.name
            raise InjectedCrashError(f"injected crash in {model.name}")
        return None

    def _after(self, model: Any, context: dict[str, Any], **_: Any) -> None:
        if self.kind == "lost_answer" and context.get(_INDEX) == self.at:
            self.fired = model.name
            raise ReadTimeoutError(endpoint_url="http://injected")


def snapshot_tables(client: Any, names: TableNames) -> dict[str, list[dict[str, Any]]]:
    """Full, strongly consistent scans of both tables, in a stable order."""

    def scan(table: str) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        request: dict[str, Any] = {"TableName": table, "ConsistentRead": True}
        while True:
            page = client.scan(**request)
            items.extend(page.get("Items", []))
            if "LastEvaluatedKey" not in page:
                return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))
            request["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    return {"memory": scan(names.memory), "ledger": scan(names.turn_ledger)}


@dataclass(frozen=True)
class Reply:
    status: int
    body: Any


@dataclass
class Api:
    """The real handlers, called with simulated payload-v2 events (the authorizer's context
    carries the caller's sub, as API Gateway passes it)."""

    def call(
        self,
        method: str,
        path: str,
        *,
        user: str = "alice",
        body: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> Reply:
        function = "chat" if path == "/chat" else "memory_api"
        event = http_api_event(
            method, path, body=body, headers=headers, authorizer_context={"sub": user}
        )
        response = handler(function)(event, LocalLambdaContext(function_name=function))
        text = response.get("body") or ""
        return Reply(status=response["statusCode"], body=json.loads(text) if text else None)

    def chat(self, message: str, *, user: str = "alice") -> Reply:
        return self.call("POST", "/chat", user=user, body={"message": message})
