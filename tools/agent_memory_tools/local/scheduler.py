"""The cleanup schedule (``rate(1 minute)`` in template.yaml), on this machine."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from agent_memory_tools.local.events import scheduled_event
from agent_memory_tools.local.exceptions import InvocationError
from agent_memory_tools.local.gateway import Invoker

DEFAULT_INTERVAL_SECONDS = 60.0


class CleanupSchedule:
    """Invokes the cleanup function with the schedule's event every ``interval`` seconds
    (first run one interval after start, as a rate schedule does) until closed."""

    def __init__(self, functions: Invoker, *, interval: float, log: Callable[[str], None]) -> None:
        if interval <= 0:
            raise ValueError("The cleanup interval must be positive.")
        self._functions = functions
        self._interval = interval
        self._log = log
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def interval(self) -> float:
        return self._interval

    def start(self) -> CleanupSchedule:
        self._thread = threading.Thread(target=self._run, name="cleanup-schedule", daemon=True)
        self._thread.start()
        return self

    def run_once(self) -> None:
        try:
            response: Any = self._functions.invoke("cleanup", scheduled_event()).response
        except InvocationError as error:
            self._log(f"cleanup failed: {type(error).__name__}: {error}")
            return
        expired = response.get("expired") if isinstance(response, dict) else None
        if not isinstance(expired, int):
            self._log("cleanup failed: unexpected response")
        elif expired:
            self._log(f"cleanup: expired {expired} overdue turn(s)")

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            self.run_once()
