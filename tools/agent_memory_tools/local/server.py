"""The local API's HTTP front: framing, limits and the access log; the gateway does the rest.

A ``ThreadingHTTPServer`` (one daemon thread per connection, HTTP/1.1 keep-alive). Each
request gets its own event, context and execution environment; nothing of a request is kept
on shared objects. The server answers by itself only what API Gateway would answer before
any function runs: malformed requests (400), bodies over 1 MiB (413, read no further),
unknown routes (404) and methods (405) via the gateway, and its own failures (500, without
internals). A client that disconnects while its function runs gets its turn cancelled.
"""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from agent_memory.http.contract import MAX_BODY_BYTES
from agent_memory_tools.local.disconnect import ClientWatch
from agent_memory_tools.local.gateway import (
    GatewayRequest,
    GatewayResponse,
    LocalGateway,
    error_response,
)

REQUEST_TIMEOUT_SECONDS = 30.0  # reading a request (and idle keep-alive)
MAX_REQUEST_LINE = 65_536
MAX_CHUNK_LINE = 1_024
MAX_TRAILER_LINES = 64
# After refusing a body, keep reading (and dropping) it for a moment, so the client reads
# our 413 instead of a connection reset.
LINGER_SECONDS = 2.0
LINGER_BYTES = 16 * MAX_BODY_BYTES


class _Refused(Exception):
    """A request the server answers itself (and then closes the connection)."""

    def __init__(self, response: GatewayResponse, *, linger: bool = False) -> None:
        super().__init__(response.status)
        self.response = response
        self.linger = linger


class _ClientGone(Exception):
    """The client closed the connection before its request was complete."""


class LocalApiServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_port = False  # never share the port with another server
    request_queue_size = 128  # bursts of new connections (load tests) must not be refused

    def __init__(
        self,
        address: tuple[str, int],
        *,
        log: Callable[[str], None],
        gateway: LocalGateway | None = None,
    ) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.gateway = gateway
        self.log = log
        super().__init__(address, LocalApiRequestHandler)

    @property
    def port(self) -> int:
        return int(self.server_address[1])


class LocalApiRequestHandler(BaseHTTPRequestHandler):
    server: LocalApiServer
    protocol_version = "HTTP/1.1"
    # Not HTTP/0.9: an answer to a malformed request line then still has a status line.
    default_request_version = "HTTP/1.0"
    server_version = "agent-memory-local"
    sys_version = ""
    timeout = REQUEST_TIMEOUT_SECONDS

    def version_string(self) -> str:
        return self.server_version

    def handle_one_request(self) -> None:
        try:
            self.raw_requestline = self.rfile.readline(MAX_REQUEST_LINE + 1)
            if not self.raw_requestline:
                self.close_connection = True
                return
            if len(self.raw_requestline) > MAX_REQUEST_LINE:
                self.request_version, self.command, self.path = "HTTP/1.1", "", ""
                self.send_error(HTTPStatus.REQUEST_URI_TOO_LONG)
                return
            if not self.parse_request():
                return
            self._serve()
        except (TimeoutError, ConnectionError):
            self.close_connection = True

    def handle_expect_100(self) -> bool:
        # Refuse an oversized body before the client sends it.
        try:
            self._declared_length()
        except _Refused as refused:
            self._refuse(refused)
            self._access_log(refused.response.status, time.monotonic(), refused.response.note)
            return False
        return super().handle_expect_100()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The standard library's own refusals (malformed request line or headers), as JSON."""
        self.close_connection = True
        status = HTTPStatus(code)
        self._write(
            error_response(status, "bad_request" if code < 500 else "internal_error", status.phrase)
        )
        self._access_log(status, time.monotonic(), status.phrase)

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """Silent: ``_access_log`` writes one line per request once it is answered."""

    def log_message(self, format: str, *args: Any) -> None:
        self.server.log(f"{self.address_string()} {format % args}")

    def _serve(self) -> None:
        started = time.monotonic()
        gateway = self.server.gateway
        if gateway is None:
            response = error_response(
                503, "starting", "The local stack is starting; retry in a moment."
            )
            self._write(response)
            self._access_log(response.status, started, response.note)
            return
        if not self.path.startswith("/"):
            refused = _Refused(
                error_response(400, "bad_request", "The request target must be a path.")
            )
            self._refuse(refused)
            self._access_log(refused.response.status, started, refused.response.note)
            return
        try:
            body = self._read_body()
        except _Refused as refused:
            self._refuse(refused)
            self._access_log(refused.response.status, started, refused.response.note)
            return
        except _ClientGone:
            self.close_connection = True
            self._access_log(0, started, "client went away while sending")
            return
        target = urlsplit(self.path)
        request = GatewayRequest(
            method=self.command,
            path=target.path,
            query=target.query,
            headers=tuple(self.headers.items()),
            body=body,
            source_ip=str(self.client_address[0]),
            protocol=self.request_version,
        )
        try:
            response = gateway.handle(request, watch=ClientWatch(self.connection))
        except Exception as error:
            # The type only: the text could quote request content.
            self.server.log(f"gateway error: {type(error).__name__}")
            response = error_response(
                500, "internal_error", "The request failed. Please retry later."
            )
        if response.client_gone:
            self.close_connection = True
            self._access_log(0, started, "client went away; its turn was cancelled")
            return
        self._write(response)
        self._access_log(response.status, started, response.note)

    def _declared_length(self) -> int | None:
        values = self.headers.get_all("Content-Length") or []
        encodings = self.headers.get_all("Transfer-Encoding") or []
        if encodings and values:
            raise _Refused(
                error_response(400, "bad_request", "Send Content-Length or chunked, not both.")
            )
        if encodings:
            if [value.strip().lower() for value in encodings] != ["chunked"]:
                raise _Refused(
                    error_response(
                        400, "bad_request", "Only chunked transfer encoding is supported."
                    )
                )
            return None
        if not values:
            return 0
        distinct = {value.strip() for value in values}
        text = distinct.pop()
        if distinct or not (text.isascii() and text.isdigit()):
            raise _Refused(
                error_response(400, "invalid_content_length", "Content-Length must be one number.")
            )
        length = int(text)
        if length > MAX_BODY_BYTES:
            raise _Refused(_too_large(), linger=True)
        return length

    def _read_body(self) -> bytes:
        length = self._declared_length()
        if length is None:
            return self._read_chunked()
        body = self.rfile.read(length) if length else b""
        if len(body) < length:
            raise _ClientGone
        return body

    def _read_chunked(self) -> bytes:
        body = bytearray()
        while True:
            size = self._chunk_size(self.rfile.readline(MAX_CHUNK_LINE + 1))
            if size == 0:
                break
            if len(body) + size > MAX_BODY_BYTES:
                raise _Refused(_too_large(), linger=True)
            chunk = self.rfile.read(size)
            if len(chunk) < size:
                raise _ClientGone
            body += chunk
            if self.rfile.readline(MAX_CHUNK_LINE + 1) not in (b"\r\n", b"\n"):
                raise _Refused(error_response(400, "bad_request", "Malformed chunked body."))
        for _ in range(MAX_TRAILER_LINES):
            line = self.rfile.readline(MAX_CHUNK_LINE + 1)
            if not line:
                raise _ClientGone
            if line in (b"\r\n", b"\n"):
                return bytes(body)
        raise _Refused(error_response(400, "bad_request", "Too many trailer lines."))

    @staticmethod
    def _chunk_size(line: bytes) -> int:
        if not line:
            raise _ClientGone
        text = line.split(b";", 1)[0].strip()
        if (
            not line.endswith(b"\n")
            or not text
            or len(text) > 8
            or text.strip(b"0123456789abcdefABCDEF")
        ):
            raise _Refused(error_response(400, "bad_request", "Malformed chunked body."))
        return int(text, 16)

    def _refuse(self, refused: _Refused) -> None:
        self.close_connection = True
        self._write(refused.response)
        if refused.linger:
            self._linger()

    def _linger(self) -> None:
        deadline = time.monotonic() + LINGER_SECONDS
        drained = 0
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_WR)
            while drained < LINGER_BYTES:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self.connection.settimeout(remaining)
                chunk = self.connection.recv(1 << 16)
                if not chunk:
                    break
                drained += len(chunk)

    def _write(self, response: GatewayResponse) -> None:
        status = response.status
        self.send_response(status)
        for name, value in response.headers:
            if "\r" in value or "\n" in value or "\r" in name or "\n" in name:
                continue  # never let a function split the response
            self.send_header(name, value)
        has_body = status >= 200 and status not in (204, 304)
        if has_body:
            self.send_header("Content-Length", str(len(response.body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if has_body and self.command != "HEAD" and response.body:
            self.wfile.write(response.body)
        self.wfile.flush()

    def _access_log(self, status: int, started: float, note: str) -> None:
        elapsed_ms = (time.monotonic() - started) * 1000
        path = urlsplit(getattr(self, "path", "") or "").path
        outcome = str(status) if status else "-"
        suffix = f"  {note}" if note else ""
        self.server.log(
            f"{self.command or '-'} {path or '-'} -> {outcome} ({elapsed_ms:.0f} ms){suffix}"
        )


def _too_large() -> GatewayResponse:
    return error_response(413, "body_too_large", f"The body exceeds {MAX_BODY_BYTES} bytes.")
