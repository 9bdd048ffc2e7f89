"""The line of JSON messages between the stack and one execution environment.

One JSON object per line over a socket pair; ``pop``/``fill`` let the stack wait on this
channel and on the client's socket in a single ``select``.
"""

from __future__ import annotations

import contextlib
import json
import select
import socket
import threading
import time
from collections.abc import Mapping
from typing import Any

_CHUNK = 1 << 16


class ChannelClosedError(Exception):
    """The other end is gone."""


class Channel:
    def __init__(self, sock: socket.socket) -> None:
        sock.setblocking(True)
        self._sock = sock
        self._buffer = bytearray()
        self._scanned = 0
        self._send_lock = threading.Lock()

    def fileno(self) -> int:
        return self._sock.fileno()

    def send(self, message: Mapping[str, Any]) -> None:
        data = json.dumps(message, separators=(",", ":")).encode("ascii") + b"\n"
        try:
            with self._send_lock:
                self._sock.sendall(data)
        except OSError as error:
            raise ChannelClosedError(str(error)) from None

    def pop(self) -> dict[str, Any] | None:
        """A complete message already received, or None."""
        end = self._buffer.find(b"\n", self._scanned)
        if end < 0:
            self._scanned = len(self._buffer)
            return None
        line = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        self._scanned = 0
        message = json.loads(line)
        if not isinstance(message, dict):
            raise ChannelClosedError("protocol error: a message is not an object")
        return message

    def fill(self) -> None:
        """Read what has arrived (call when ``select`` says readable)."""
        try:
            chunk = self._sock.recv(_CHUNK)
        except OSError as error:
            raise ChannelClosedError(str(error)) from None
        if not chunk:
            raise ChannelClosedError("end of stream")
        self._buffer += chunk

    def receive(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next message; None when ``timeout`` seconds pass first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            message = self.pop()
            if message is not None:
                return message
            remaining = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            readable, _, _ = select.select([self._sock], [], [], remaining)
            if not readable:
                return None
            self.fill()

    def close(self) -> None:
        # shutdown() first: a close() alone does not end the stream while another thread
        # still waits in select() on it (the kernel keeps the socket open for that thread).
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()
