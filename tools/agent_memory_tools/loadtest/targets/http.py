"""The HTTP target: a base URL (the local stack, or a deployed stage) with bearer tokens.

Tokens come from the local dev issuer (what ``agent-memory token`` prints, trusted by
``make run``), or from ``--token-command``: a command that prints a token for the user
given as ``{user}`` (or as its last argument), for a deployed stage's identity provider.
Its users must be distinct test identities: the token's ``sub`` is the memory owner.
"""

from __future__ import annotations

import http.client
import shlex
import subprocess
import threading
import time
from typing import Any
from urllib.parse import urlsplit

from agent_memory_tools.loadtest.exceptions import TargetError
from agent_memory_tools.loadtest.targets.api import ApiAnswer, ApiRequest, parse_body

REQUEST_TIMEOUT_SECONDS = 60.0
TOKEN_COMMAND_TIMEOUT_SECONDS = 30.0
TOKEN_TTL_SECONDS = 24 * 3600


class DevIssuerTokens:
    def __init__(self) -> None:
        from agent_memory_tools.dev_auth import DevIssuer

        self._issuer = DevIssuer()

    def describe(self) -> str:
        return f"local dev issuer ({self._issuer.key_dir})"

    def token(self, user_id: str) -> str:
        return str(self._issuer.mint(user_id, ttl_seconds=TOKEN_TTL_SECONDS))


class CommandTokens:
    def __init__(self, command: str) -> None:
        if not command.strip():
            raise TargetError("--token-command is empty.")
        self._command = command

    def describe(self) -> str:
        return "--token-command"

    def token(self, user_id: str) -> str:
        if "{user}" in self._command:
            argv = shlex.split(self._command.replace("{user}", shlex.quote(user_id)))
        else:
            argv = [*shlex.split(self._command), user_id]
        try:
            done = subprocess.run(  # noqa: S603 (the operator's own command)
                argv,
                capture_output=True,
                text=True,
                timeout=TOKEN_COMMAND_TIMEOUT_SECONDS,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            raise TargetError(f"--token-command failed for {user_id}: {error}") from None
        lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
        if done.returncode != 0 or not lines:
            raise TargetError(
                f"--token-command printed no token for {user_id} (exit {done.returncode})."
            )
        token = lines[-1]
        return token.removeprefix("Bearer ").strip()


class HttpTarget:
    name = "http"
    measures_requests = False

    def __init__(self, base_url: str, tokens: DevIssuerTokens | CommandTokens) -> None:
        parts = urlsplit(base_url)
        self._url = base_url
        self._https = parts.scheme == "https"
        self._host = parts.hostname or ""
        self._port = parts.port
        self._prefix = parts.path.rstrip("/")
        self._tokens = tokens
        self._cache: dict[str, str] = {}
        self._lock = threading.Lock()

    def start(self) -> None:
        """Nothing to start; the first request (the baseline read) shows whether it answers."""

    def describe(self) -> dict[str, Any]:
        return {"kind": self.name, "url": self._url, "tokens": self._tokens.describe()}

    def token_for(self, user_id: str) -> str:
        with self._lock:
            cached = self._cache.get(user_id)
        if cached is None:
            cached = self._tokens.token(user_id)
            with self._lock:
                self._cache[user_id] = cached
        return cached

    def send(self, request: ApiRequest) -> ApiAnswer:
        connection: http.client.HTTPConnection
        if self._https:
            connection = http.client.HTTPSConnection(
                self._host, self._port, timeout=REQUEST_TIMEOUT_SECONDS
            )
        else:
            connection = http.client.HTTPConnection(
                self._host, self._port, timeout=REQUEST_TIMEOUT_SECONDS
            )
        started = time.perf_counter()
        try:
            body = request.body_bytes()
            connection.request(
                request.method,
                self._prefix + request.path,
                body=body or None,
                headers=dict(request.header_pairs()),
            )
            response = connection.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException) as error:
            latency = (time.perf_counter() - started) * 1000
            return ApiAnswer(0, None, latency, error=f"{type(error).__name__}: {error}")
        finally:
            connection.close()
        latency = (time.perf_counter() - started) * 1000
        return ApiAnswer(response.status, parse_body(raw), latency)

    def close(self) -> None:
        """Nothing to stop."""
