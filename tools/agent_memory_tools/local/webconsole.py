"""The web console's files and the dev sign-in: Starlette routes the local front serves
beside the API (``local_app(gateway, routes=console_routes(...))``).

- ``GET /`` and each file of ``tools/agent_memory_tools/webconsole/static`` by its name: one
  route per file found at start, so no other path (``..``, a subfolder, a dotfile) can name
  a file; every other path falls through to the API (a JSON 404 for unknown ones).
- ``GET /config.json``: where the console finds the API (this origin) and whether it may
  sign in by name.
- ``POST /dev/token`` ``{"user": NAME}``: a dev token for NAME from the local dev issuer.
  Local only: the stack offers it only when it listens on loopback, and it is no route of
  the template (a deployed stage trusts its real issuer, never this key).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from agent_memory_tools.local.gateway import error_response

STATIC_DIR = Path(__file__).resolve().parents[1] / "webconsole" / "static"
DEV_TOKEN_PATH = "/dev/token"
DEV_TOKEN_TTL_SECONDS = 3600
MAX_DEV_TOKEN_TTL_SECONDS = 7 * 24 * 3600
MAX_SIGN_IN_BYTES = 4096
USER_NAME = re.compile(r"[A-Za-z0-9._@-]{1,64}")
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}
# The console builds its page from its own files only; it may talk to any API it is
# configured for (config.json or ?api=), over HTTP(S) and WebSocket.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; connect-src 'self' http: https: ws: wss:; img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
NO_STORE = {"Cache-Control": "no-store"}

Endpoint = Callable[[Request], Awaitable[Response]]


class TokenMinter(Protocol):
    def mint(self, subject: str, ttl_seconds: int = ..., **extra_claims: Any) -> str: ...


def console_routes(issuer: TokenMinter | None, *, static_dir: Path = STATIC_DIR) -> list[BaseRoute]:
    """The console's routes; with ``issuer`` None there is no dev sign-in (paste a token)."""
    routes: list[BaseRoute] = [
        Route("/config.json", _config_endpoint(devIssuer=issuer is not None), methods=["GET"])
    ]
    if issuer is not None:
        # Every method, so that a GET gets a 405 in the API's words rather than the API's 404.
        methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]
        routes.append(Route(DEV_TOKEN_PATH, _dev_token_endpoint(issuer), methods=methods))
    for file in sorted(static_dir.iterdir()):
        if file.is_file() and not file.name.startswith(".") and file.suffix in CONTENT_TYPES:
            path = "/" if file.name == "index.html" else f"/{file.name}"
            routes.append(Route(path, _file_endpoint(file), methods=["GET"]))
    return routes


def _file_endpoint(file: Path) -> Endpoint:
    media_type = CONTENT_TYPES[file.suffix]

    async def serve_file(request: Request) -> Response:
        return FileResponse(file, media_type=media_type, headers=SECURITY_HEADERS)

    return serve_file


def _config_endpoint(**config: bool) -> Endpoint:
    body = {"apiBase": "", "wsUrl": "", **config}

    async def serve_config(request: Request) -> Response:
        return JSONResponse(body, headers=NO_STORE)

    return serve_config


def _dev_token_endpoint(issuer: TokenMinter) -> Endpoint:
    async def dev_token(request: Request) -> Response:
        if request.method != "POST":
            refusal = _error(405, "method_not_allowed", f"{DEV_TOKEN_PATH} accepts POST.")
            refusal.headers["Allow"] = "POST"
            return refusal
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_SIGN_IN_BYTES:
                return _error(413, "body_too_large", f"Send at most {MAX_SIGN_IN_BYTES} bytes.")
        sign_in = _sign_in(bytes(body))
        if sign_in is None:
            return _error(
                400,
                "invalid_user",
                'Send {"user": NAME}: 1 to 64 letters, digits or . _ @ -'
                f" (and optionally ttl_seconds, 1 to {MAX_DEV_TOKEN_TTL_SECONDS}).",
            )
        user, ttl_seconds = sign_in
        token = issuer.mint(user, ttl_seconds)
        answer = {"token": token, "token_type": "Bearer", "expires_in": ttl_seconds}
        return JSONResponse(answer, headers=NO_STORE)

    return dev_token


def _sign_in(body: bytes) -> tuple[str, int] | None:
    """The user name and lifetime a sign-in asks for (``agent-memory token`` sends
    ``ttl_seconds``; the console does not), or None when the body is not one."""
    try:
        request = json.loads(body or b"null")
        user, ttl = request.get("user"), request.get("ttl_seconds", DEV_TOKEN_TTL_SECONDS)
    except (ValueError, AttributeError):
        return None
    if not isinstance(user, str) or not USER_NAME.fullmatch(user):
        return None
    if (
        isinstance(ttl, bool)
        or not isinstance(ttl, int)
        or not 0 < ttl <= MAX_DEV_TOKEN_TTL_SECONDS
    ):
        return None
    return user, ttl


def _error(status: int, code: str, message: str) -> Response:
    """The API's error shape, so the console shows this as it shows the API's errors."""
    refusal = error_response(status, code, message)
    return Response(refusal.body, status_code=status, headers={**dict(refusal.headers), **NO_STORE})
