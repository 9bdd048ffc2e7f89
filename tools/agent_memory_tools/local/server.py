"""The local API's server: uvicorn, on a socket bound before anything else starts.

The socket is bound first (so a busy port fails ``make run`` at once) and handed to uvicorn
when the stack is ready. uvicorn runs its event loop in a thread of the stack's process;
it installs no signal handlers there (the stack owns Ctrl-C) and ``close()`` stops it:
no new connections, in-flight requests get ``SHUTDOWN_GRACE_SECONDS`` to finish, then the
listening socket is closed.
"""

from __future__ import annotations

import logging
import socket
import threading
import time

import uvicorn
from starlette.types import ASGIApp

from agent_memory.websocket import MAX_MESSAGE_BYTES
from agent_memory_tools.local.front import JsonErrorsH11Protocol

SHUTDOWN_GRACE_SECONDS = 2
KEEP_ALIVE_SECONDS = 30  # an idle keep-alive connection; API Gateway's idle timeout is longer
BACKLOG = 128  # bursts of new connections (load tests) must not be refused
START_TIMEOUT_SECONDS = 10.0


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket (IPv6 when the host is an IPv6 address); OSError when busy."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        # SO_REUSEADDR (as any server): a restart may bind while old connections sit in
        # TIME_WAIT, never while another server listens. No SO_REUSEPORT: never share.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(False)
    return sock


class _RefusedHandshakeFilter(logging.Filter):
    """uvicorn logs "returned without completing handshake" for every handshake the app
    refuses with an ASGI denial response (a 401 or 403 sent in full): that is no error."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg != "ASGI callable returned without completing handshake."


_UVICORN_ERRORS = logging.getLogger("uvicorn.error")
if not any(isinstance(f, _RefusedHandshakeFilter) for f in _UVICORN_ERRORS.filters):
    _UVICORN_ERRORS.addFilter(_RefusedHandshakeFilter())


class LocalApiServer:
    """uvicorn serving ``app`` on an already bound socket, in a background thread."""

    def __init__(self, sock: socket.socket) -> None:
        self._socket = sock
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._socket.getsockname()[1])

    def serve(self, app: ASGIApp) -> None:
        config = uvicorn.Config(
            app,
            http=JsonErrorsH11Protocol,
            # The websockets library's sans-I/O protocol (/ws); a message over API Gateway's
            # 128 KB closes the connection with 1009, as API Gateway does.
            ws="websockets-sansio",
            ws_max_size=MAX_MESSAGE_BYTES,
            lifespan="off",
            loop="asyncio",
            access_log=False,  # the front writes one line per request itself
            log_config=None,
            log_level="error",
            server_header=False,
            timeout_keep_alive=KEEP_ALIVE_SECONDS,
            timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run,
            kwargs={"sockets": [self._socket]},
            name="local-api",
            daemon=True,
        )
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the local API server did not start")
            time.sleep(0.01)

    def close(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=SHUTDOWN_GRACE_SECONDS + 5)
        self._server = self._thread = None
        self._socket.close()
