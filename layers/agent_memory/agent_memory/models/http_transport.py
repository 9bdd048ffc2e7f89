"""One HTTP POST to a model server with a wall-clock limit over the whole exchange.

``urllib``'s timeout restarts on every read (a server trickling a byte every 0.2 s never
times out) and it follows redirects (turning a POST into a GET that still carries the API
key). ``http.client`` does neither: every socket operation here gets the time left of the
call's budget as its timeout, a redirect is an error, and every transport failure
(``IncompleteRead``, ``BadStatusLine``, a reset) is a retryable ``ModelError``.
DNS resolution is not bounded by the budget (the standard library cannot bound it).
"""

from __future__ import annotations

import http.client
import socket
import ssl
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import urlsplit

from agent_memory.models.budget import CallBudget
from agent_memory.models.exceptions import ModelError, ModelTimeoutError

READ_CHUNK = 64 * 1024
RETRYABLE_STATUSES = frozenset({408, 409, 429})


@dataclass(frozen=True)
class Endpoint:
    """``{base_url}/{path}``, the base URL's query string (``?api-version=``) kept."""

    https: bool
    host: str
    port: int | None
    target: str

    @classmethod
    def of(cls, base_url: str, path: str) -> Endpoint:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("base_url must be an http or https URL")
        target = parts.path.rstrip("/") + "/" + path.lstrip("/")
        if parts.query:
            target += "?" + parts.query
        return cls(parts.scheme == "https", parts.hostname, parts.port, target)


@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    _raw: http.client.HTTPResponse
    _sock: socket.socket
    _budget: CallBudget

    def chunks(self, max_bytes: int) -> Iterator[bytes]:
        """The body as it arrives; the budget and ``max_bytes`` bound the whole of it."""
        total = 0
        while not self._raw.isclosed():  # http.client closes it at the body's end
            with transport_errors(self._budget):
                self._sock.settimeout(_time_left(self._budget))
                chunk = self._raw.read1(READ_CHUNK)
            if not chunk:
                break
            total += len(chunk)
            if total > max_bytes:
                raise ModelError(
                    "The model server's response is too large.",
                    code="invalid_response",
                    retryable=False,
                )
            yield chunk
        if self._raw.length:  # read1() ends quietly at EOF, even before Content-Length
            raise ModelError(
                "The model server's response was cut off.",
                code="connection_error",
                retryable=True,
            )

    def body(self, max_bytes: int) -> bytes:
        return b"".join(self.chunks(max_bytes))


@contextmanager
def post(
    endpoint: Endpoint, body: bytes, headers: Mapping[str, str], budget: CallBudget
) -> Iterator[Response]:
    """POST ``body``; a status that is not 2xx raises (see ``status_error``)."""
    timeout = _time_left(budget)
    connection: http.client.HTTPConnection
    if endpoint.https:
        connection = http.client.HTTPSConnection(
            endpoint.host, endpoint.port, timeout=timeout, context=ssl.create_default_context()
        )
    else:
        connection = http.client.HTTPConnection(endpoint.host, endpoint.port, timeout=timeout)
    try:
        with transport_errors(budget):
            connection.request("POST", endpoint.target, body=body, headers=dict(headers))
            sock = connection.sock
            assert sock is not None  # request() connected
            sock.settimeout(_time_left(budget))
            raw = connection.getresponse()
        if not 200 <= raw.status < 300:
            raise status_error(raw.status, raw.headers)
        yield Response(raw.status, raw.headers, raw, sock, budget)
    finally:
        connection.close()


@contextmanager
def transport_errors(budget: CallBudget) -> Iterator[None]:
    try:
        yield
    except TimeoutError:
        raise budget.expired() from None
    except (http.client.HTTPException, OSError):
        # Not OSError only: IncompleteRead and BadStatusLine are HTTPExceptions.
        raise ModelError(
            "The model server connection failed.", code="connection_error", retryable=True
        ) from None


class StatusError(ModelError):
    def __init__(self, message: str, *, code: str, retryable: bool, retry_after: float | None):
        super().__init__(message, code=code, retryable=retryable)
        self.retry_after = retry_after


def status_error(status: int, headers: http.client.HTTPMessage) -> ModelError:
    if 300 <= status < 400:
        return ModelError(
            "The model server answered with a redirect, which is refused.",
            code=f"http_{status}",
            retryable=False,
        )
    if status == 408:
        return ModelTimeoutError("The model server timed out.", code="http_408")
    retryable = status in RETRYABLE_STATUSES or status >= 500
    return StatusError(
        f"The model server answered HTTP {status}.",
        code=f"http_{status}",
        retryable=retryable,
        retry_after=_retry_after(headers) if retryable else None,
    )


def _retry_after(headers: http.client.HTTPMessage) -> float | None:
    value = headers.get("retry-after-ms")
    scale = 0.001
    if value is None:
        value, scale = headers.get("retry-after"), 1.0
    try:
        seconds = float(value) * scale if value is not None else None
    except ValueError:
        return None  # an HTTP date: use our own backoff
    if seconds is None or seconds < 0:
        return None
    return seconds  # a pause that does not fit in the budget means no retry


def _time_left(budget: CallBudget) -> float:
    left = budget.remaining()
    if left <= 0:
        raise budget.expired()
    return left
