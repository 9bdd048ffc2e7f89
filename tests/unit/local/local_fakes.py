"""A scripted stand-in for the functions behind the local gateway."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from agent_memory_tools.local.disconnect import ClientWatch
from agent_memory_tools.local.invoker import Invocation

Behaviour = Callable[[dict[str, Any], ClientWatch | None], Any]


def allow(subject: str = "alice") -> Behaviour:
    return lambda event, watch: {"isAuthorized": True, "context": {"sub": subject}}


def deny() -> Behaviour:
    return lambda event, watch: {"isAuthorized": False}


def respond(status: int = 200, body: str = '{"ok": true}', **extra: Any) -> Behaviour:
    return lambda event, watch: {
        "statusCode": status,
        "headers": {"Content-Type": "application/json"},
        "body": body,
        **extra,
    }


class FakeFunctions:
    """``invoke`` runs the behaviour scripted for the function and records the event."""

    def __init__(self, **behaviours: Behaviour) -> None:
        self.behaviours = dict(behaviours)
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self._lock = threading.Lock()

    def invoke(
        self, function: str, event: dict[str, Any], *, watch: ClientWatch | None = None
    ) -> Invocation:
        with self._lock:
            self.calls.append((function, event))
        result = self.behaviours[function](event, watch)
        if isinstance(result, Exception):
            raise result
        if isinstance(result, Invocation):
            return result
        return Invocation(result)

    def called(self) -> list[str]:
        return [function for function, _ in self.calls]
