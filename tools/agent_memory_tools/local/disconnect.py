"""Notice that an HTTP client went away while its request is being served."""

from __future__ import annotations

import socket


class ClientWatch:
    """Watches one client connection while the request thread waits for the function.

    ``select`` on ``fileno()``; when readable, ``client_gone()`` peeks: an empty read means
    the client closed the connection. Any bytes (a pipelined next request) end the watch
    instead, since they prove the client is still there and would keep the socket readable.
    """

    def __init__(self, connection: socket.socket) -> None:
        self._connection = connection
        self.watching = True
        self.gone = False

    def fileno(self) -> int:
        return self._connection.fileno()

    def client_gone(self) -> bool:
        try:
            data = self._connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            data = b""
        self.watching = False
        self.gone = data == b""
        return self.gone
