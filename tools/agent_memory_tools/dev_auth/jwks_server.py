"""A tiny JWKS endpoint on a loopback port, for the local stack and the tests."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from agent_memory.auth.config import JWKS_PATH

# How often the serving loop checks for shutdown: close() waits up to this long.
_POLL_INTERVAL_SECONDS = 0.01


class JWKSServer(ThreadingHTTPServer):
    """Serves one JWK Set at ``/.well-known/jwks.json``; the set may be swapped (rotation)
    and ``hits`` counts the requests it answered, so tests can see the verifier's caching."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], jwks: dict[str, Any]) -> None:
        super().__init__(address, _JWKSRequestHandler)
        self._lock = threading.Lock()
        self._body = b""
        self._hits = 0
        self._thread: threading.Thread | None = None
        self.set_jwks(jwks)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}{JWKS_PATH}"

    @property
    def hits(self) -> int:
        with self._lock:
            return self._hits

    def set_jwks(self, jwks: dict[str, Any]) -> None:
        body = json.dumps(jwks).encode("utf-8")
        with self._lock:
            self._body = body

    def take_body(self) -> bytes:
        with self._lock:
            self._hits += 1
            return self._body

    def start(self) -> None:
        self._thread = threading.Thread(
            target=self.serve_forever,
            kwargs={"poll_interval": _POLL_INTERVAL_SECONDS},
            name="jwks-server",
            daemon=True,
        )
        self._thread.start()

    def close(self) -> None:
        """Stop serving and free the port."""
        if self._thread is not None:
            self.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self.server_close()


class _JWKSRequestHandler(BaseHTTPRequestHandler):
    server: JWKSServer

    def do_GET(self) -> None:
        if urlsplit(self.path).path != JWKS_PATH:
            self._send(404, b'{"error": "not found"}')
            return
        self._send(200, self.server.take_body())

    def _send(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=300")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: the local stack prints its own log."""


def serve_jwks(
    jwks: dict[str, Any], host: str = "127.0.0.1", port: int = 0
) -> tuple[JWKSServer, str]:
    """Start serving ``jwks`` in a background thread; returns the server (``close()`` it)
    and the JWKS URL. Port 0 picks a free port. IPv4 hosts only."""
    server = JWKSServer((host, port), jwks)
    server.start()
    return server, server.url
