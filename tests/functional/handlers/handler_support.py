"""Drive the real handlers with simulated payload-v2 events, as API Gateway would."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from agent_memory.repository import TableNames
from agent_memory_tools.local.events import LocalLambdaContext, http_api_event
from agent_memory_tools.local.functions import handler

ROUTE_FUNCTION = {"/chat": "chat", "/eval/chat": "eval"}


@dataclass(frozen=True)
class Reply:
    status: int
    body: Any
    headers: Mapping[str, str]

    @property
    def memory(self) -> dict[str, Any]:
        return dict(self.body["memory"])


@dataclass
class Api:
    client: Any
    tables: TableNames

    def call(
        self,
        method: str,
        path: str,
        *,
        user: str | None = "alice",
        body: Any = None,
        headers: Mapping[str, str] | None = None,
        raw_body: str | None = None,
    ) -> Reply:
        path, _, query = path.partition("?")
        function = ROUTE_FUNCTION.get(path, "memory_api")
        event = http_api_event(
            method,
            path,
            query=query,
            body=raw_body if raw_body is not None else body,
            headers=headers,
            authorizer_context={"sub": user} if user is not None else None,
        )
        if query:
            event["queryStringParameters"] = dict(parse_qsl(query))
        if raw_body is not None and headers and "content-type" in {k.lower() for k in headers}:
            event["headers"].update({k.lower(): v for k, v in headers.items()})
        response = handler(function)(event, LocalLambdaContext(function_name=function))
        text = response.get("body") or ""
        parsed = json.loads(text) if text else None
        return Reply(
            status=response["statusCode"], body=parsed, headers=response.get("headers", {})
        )

    def chat(
        self, message: str, *, user: str | None = "alice", turn_id: str | None = None, **kwargs: Any
    ) -> Reply:
        headers = {"Idempotency-Key": turn_id} if turn_id else None
        return self.call(
            "POST", "/chat", user=user, body={"message": message, **kwargs}, headers=headers
        )

    def memory(self, user: str = "alice") -> dict[str, list[str]]:
        reply = self.call("GET", "/memory", user=user)
        assert reply.status == 200, reply.body
        return {target: reply.body[target]["entries"] for target in ("user", "memory")}

    def cancel(self, turn_id: str, user: str = "alice") -> Reply:
        return self.call("POST", f"/turns/{turn_id}/cancel", user=user)

    def items(self, table: str) -> list[dict[str, Any]]:
        name = self.tables.memory if table == "memory" else self.tables.turn_ledger
        return list(self.client.scan(TableName=name, ConsistentRead=True).get("Items", []))


def cold_start_with(monkeypatch: Any, **env: str | None) -> None:
    """Change the functions' environment and start cold, as a deploy would (``None``
    removes a variable): the services read their settings once, when first built."""
    from agent_memory.service import reset_services

    for name, value in env.items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    reset_services()


def new_turn_id() -> str:
    return str(uuid.uuid4())
