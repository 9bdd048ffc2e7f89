"""The ledger item's open, deferred: run in a timer thread unless the turn ends first.

A chat turn over HTTP stages its first operation and usually reaches its commit a moment
later (one model call with the tool, one for the answer). Opening the ledger item right at
the staging is a DynamoDB request on the turn's path; deferring it lets a short turn create
the item inside its commit transaction instead (one request fewer), and runs the open of a
longer turn beside the model call rather than before it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class DeferredOpen:
    """Runs ``open_item`` ``delay_s`` seconds from now in a timer thread, unless ``settle``
    comes first.

    ``settle`` (the end of the turn) returns False when the open has not run and never will
    (the commit creates the item), True when it ran; while it runs, ``settle`` waits for it.
    """

    def __init__(self, open_item: Callable[[], object], delay_s: float) -> None:
        self._open_item = open_item
        self._lock = threading.Lock()
        self._pending = True
        self._ran = False
        self._timer = threading.Timer(delay_s, self._fire)
        self._timer.daemon = True
        self._timer.name = "ledger-open"
        self._timer.start()

    def settle(self) -> bool:
        with self._lock:
            if self._pending:
                self._pending = False
                self._timer.cancel()
            return self._ran

    def _fire(self) -> None:
        with self._lock:  # held while the open runs: a settle() meanwhile waits for it
            if not self._pending:
                return
            self._pending = False
            self._ran = True
            self._open_item()
