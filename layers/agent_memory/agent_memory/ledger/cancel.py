"""A thread-safe cancel flag carried into database work that runs in worker threads."""

from __future__ import annotations

import threading

from agent_memory.ledger.exceptions import TurnCancelledError


class CancelFlag:
    """Set once by whoever abandons the turn (client gone, cancel route, timeout); read by
    the ledger before the load, before the commit request is built and before it is sent."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    def is_set(self) -> bool:
        return self._event.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._event.wait(timeout)

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise TurnCancelledError
