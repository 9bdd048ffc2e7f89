"""The stack's own output: whole lines, flushed at once, from any thread."""

from __future__ import annotations

import sys
import threading
from typing import TextIO


class Console:
    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream
        self._lock = threading.Lock()

    def line(self, text: str = "") -> None:
        stream = self._stream or sys.stdout
        with self._lock:
            stream.write(text + "\n")
            stream.flush()
