"""The management API of the streamed load test: the WebSocket function in the workers
posts its frames here with the real ``apigatewaymanagementapi`` client, over loopback HTTP.

Each connection is one streamed turn. It records when the first delta came and the frames
that end the turn; a connection told to drop does so as a client would: after its
``started`` frame (while the turn sleeps) or after its first delta (mid-stream). From then
on every post and check answers ``GoneException`` (410) and ``on_drop`` runs the
connection's ``$disconnect`` in another worker, as API Gateway would.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote

STAGE = "loadtest"
DROP_AFTER_STARTED = "after_started"
DROP_MID_STREAM = "mid_stream"


@dataclass
class StreamedConnection:
    drop: str | None = None  # DROP_AFTER_STARTED, DROP_MID_STREAM or None
    opened: float = field(default_factory=time.perf_counter)
    first_delta: float | None = None
    text: list[str] = field(default_factory=list)
    end: dict[str, Any] | None = None  # the done or error frame
    gone: bool = False


class ManagementServer:
    def __init__(self, on_drop: Callable[[str], None]) -> None:
        self._connections: dict[str, StreamedConnection] = {}
        self._lock = threading.Lock()
        self._on_drop = on_drop
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return None

            def do_POST(self) -> None:
                data = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                self._answer(server.post(self._connection_id(), data))

            def do_GET(self) -> None:
                self._answer(server.check(self._connection_id()))

            def _connection_id(self) -> str:
                return unquote(self.path.rsplit("/", 1)[-1])

            def _answer(self, status: int) -> None:
                body = b'{"message": "Gone"}' if status == 410 else b"{}"
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                if status == 410:
                    self.send_header("x-amzn-ErrorType", "GoneException")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def endpoint(self) -> str:
        port = int(self._server.server_address[1])
        return f"http://127.0.0.1:{port}/{STAGE}"

    def open(self, connection_id: str, drop: str | None) -> None:
        with self._lock:
            self._connections[connection_id] = StreamedConnection(drop=drop)

    def close(self, connection_id: str) -> StreamedConnection | None:
        with self._lock:
            return self._connections.pop(connection_id, None)

    def post(self, connection_id: str, data: bytes) -> int:
        frame = json.loads(data)
        dropped = False
        with self._lock:
            connection = self._connections.get(connection_id)
            if connection is None or connection.gone:
                return 410
            kind = frame.get("type")
            if kind == "delta":
                if connection.first_delta is None:
                    connection.first_delta = time.perf_counter()
                connection.text.append(str(frame.get("text", "")))
            elif kind in ("done", "error"):
                connection.end = frame
            if (connection.drop == DROP_AFTER_STARTED and kind == "started") or (
                connection.drop == DROP_MID_STREAM and kind == "delta"
            ):
                connection.gone = dropped = True
        if dropped:
            self._on_drop(connection_id)
        return 200

    def check(self, connection_id: str) -> int:
        with self._lock:
            connection = self._connections.get(connection_id)
            return 410 if connection is None or connection.gone else 200

    def shutdown(self) -> None:
        self._server.shutdown()
        self._server.server_close()
