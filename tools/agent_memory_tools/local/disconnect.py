"""Tell a request thread that its HTTP client went away while its function runs."""

from __future__ import annotations

import contextlib
import os
import threading


class ClientWatch:
    """Set once by the HTTP front when the client disconnects; waited on with ``select``.

    The front (on its event loop) calls ``notify_gone()``; the request thread that waits for
    the function selects on ``fileno()`` (a pipe that becomes readable then) and calls
    ``client_gone()``. ``watching`` turns false once the news is read, so a caller stops
    selecting on it.
    """

    def __init__(self) -> None:
        self._read_end, self._write_end = os.pipe()
        self._lock = threading.Lock()
        self._closed = False
        self.watching = True
        self.gone = False

    def fileno(self) -> int:
        return self._read_end

    def notify_gone(self) -> None:
        with self._lock:
            if self._closed or self.gone:
                return
            self.gone = True
            with contextlib.suppress(OSError):
                os.write(self._write_end, b"x")

    def client_gone(self) -> bool:
        if self.gone:
            self.watching = False
        return self.gone

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for fd in (self._read_end, self._write_end):
                with contextlib.suppress(OSError):
                    os.close(fd)
