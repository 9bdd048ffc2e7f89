"""The local WebSocket API's open connections, as the management API sees them.

Everything here runs on the front's event loop: the WebSocket endpoint registers a
connection after its handshake and drops it the moment the socket goes; the management API
(``management_api.py``) posts to it. A post to a connection that is gone fails, as API
Gateway's ``GoneException`` (410) says.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from starlette.types import Send

from agent_memory_tools.local.websocket_events import ConnectionInfo


@dataclass
class LocalConnection:
    """One client's socket: frames out (one at a time), and whether it is still there."""

    info: ConnectionInfo
    authorizer: dict[str, Any]
    _send: Send = field(repr=False)
    gone: bool = False
    last_active_at: float = field(default_factory=time.time)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    @property
    def connection_id(self) -> str:
        return self.info.connection_id

    def touch(self) -> None:
        self.last_active_at = time.time()

    async def post(self, data: bytes) -> bool:
        """Send ``data`` as one message (text when it is UTF-8, as API Gateway does);
        False when the client has gone."""
        try:
            message: dict[str, Any] = {"type": "websocket.send", "text": data.decode("utf-8")}
        except UnicodeDecodeError:
            message = {"type": "websocket.send", "bytes": data}
        async with self._lock:
            if self.gone:
                return False
            try:
                await self._send(message)
            except Exception:  # the socket closed under us: uvicorn's error type varies
                self.gone = True
                return False
        self.touch()
        return True

    async def close(self, code: int = 1000) -> None:
        async with self._lock:
            if self.gone:
                return
            self.gone = True
            try:
                await self._send({"type": "websocket.close", "code": code})
            except Exception:  # already closed
                return


class ConnectionRegistry:
    """Open connections by id (event-loop only, so a plain dict)."""

    def __init__(self) -> None:
        self._connections: dict[str, LocalConnection] = {}

    def add(self, connection: LocalConnection) -> None:
        self._connections[connection.connection_id] = connection

    def get(self, connection_id: str) -> LocalConnection | None:
        connection = self._connections.get(connection_id)
        return None if connection is None or connection.gone else connection

    def remove(self, connection_id: str) -> None:
        connection = self._connections.pop(connection_id, None)
        if connection is not None:
            connection.gone = True

    def __len__(self) -> int:
        return len(self._connections)
