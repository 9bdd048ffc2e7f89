"""A progress bar on stderr: redrawn in place on a terminal, a line per tenth otherwise."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import TextIO

BAR_WIDTH = 24
REDRAW_SECONDS = 0.1
SHOWN_STATUSES = 4


class Progress:
    def __init__(
        self,
        total: int,
        stream: TextIO,
        *,
        enabled: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._total = max(total, 1)
        self._stream = stream
        self._enabled = enabled
        self._clock = clock
        self._tty = bool(getattr(stream, "isatty", lambda: False)())
        self._lock = threading.Lock()
        self._started = clock()
        self._last_draw = 0.0
        self._last_tenth = -1
        self._drawn = False

    def update(self, done: int, statuses: Mapping[str, int]) -> None:
        if not self._enabled:
            return
        with self._lock:
            now = self._clock()
            tenth = done * 10 // self._total
            if self._tty:
                if now - self._last_draw < REDRAW_SECONDS and done < self._total:
                    return
                self._stream.write("\r" + self._line(done, statuses, now) + "\x1b[K")
            else:
                if tenth == self._last_tenth:
                    return
                self._last_tenth = tenth
                self._stream.write(self._line(done, statuses, now) + "\n")
            self._stream.flush()
            self._last_draw = now
            self._drawn = True

    def finish(self) -> None:
        if self._enabled and self._tty and self._drawn:
            with self._lock:
                self._stream.write("\n")
                self._stream.flush()

    def _line(self, done: int, statuses: Mapping[str, int], now: float) -> str:
        filled = BAR_WIDTH * done // self._total
        elapsed = max(now - self._started, 1e-9)
        top = sorted(statuses.items(), key=lambda item: -item[1])[:SHOWN_STATUSES]
        shown = " ".join(f"{status} {count}" for status, count in top)
        return (
            f"loadtest [{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{self._total} turns"
            f" {done / elapsed:5.1f}/s  {shown}"
        )
