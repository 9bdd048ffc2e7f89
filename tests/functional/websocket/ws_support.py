"""Drive the real WebSocket function as API Gateway would: route selection on ``action``,
``$connect``/``$disconnect`` events with the authorizer's context, and the management API
the function posts to, served over real HTTP so the function's own boto3 client talks to it.

``ManagementApi`` is the fault injector: ``on_post`` and ``on_get`` hooks run inside the
function's requests and may answer 410 (``GoneException``) or run a ``$disconnect`` there.
"""

from __future__ import annotations

import importlib.util
import json
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote

REPO_ROOT = Path(__file__).resolve().parents[3]
WEBSOCKET_APP = REPO_ROOT / "functions" / "websocket" / "app.py"
STAGE = "local"

GONE = "gone"


class ManagementApi:
    """``POST``/``GET``/``DELETE /{stage}/@connections/{id}`` of API Gateway, recorded."""

    def __init__(self) -> None:
        self.frames: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.gone: set[str] = set()
        self.on_post: Callable[[str, dict[str, Any]], str | None] = lambda cid, frame: None
        self.on_get: Callable[[str], str | None] = lambda cid: None
        self.post_delay_s = 0.0
        self._lock = threading.Lock()
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return None

            def _connection_id(self) -> str | None:
                prefix = f"/{STAGE}/@connections/"
                if not self.path.startswith(prefix):
                    return None
                return unquote(self.path[len(prefix) :])

            def _answer(self, status: int, body: dict[str, Any] | None = None) -> None:
                data = json.dumps(body or {}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                if status == 410:
                    self.send_header("x-amzn-ErrorType", "GoneException")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                connection_id = self._connection_id()
                data = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if connection_id is None:
                    self._answer(404, {"message": "Not Found"})
                    return
                frame = json.loads(data)
                if api.post_delay_s:
                    time.sleep(api.post_delay_s)
                verdict = api.on_post(connection_id, frame)
                with api._lock:
                    if verdict == GONE:
                        api.gone.add(connection_id)
                    if connection_id in api.gone:
                        self._answer(410, {"message": "Gone"})
                        return
                    api.frames[connection_id].append(frame)
                self._answer(200)

            def do_GET(self) -> None:
                connection_id = self._connection_id()
                if connection_id is None:
                    self._answer(404, {"message": "Not Found"})
                    return
                verdict = api.on_get(connection_id)
                with api._lock:
                    if verdict == GONE:
                        api.gone.add(connection_id)
                    if connection_id in api.gone:
                        self._answer(410, {"message": "Gone"})
                        return
                self._answer(
                    200,
                    {
                        "ConnectedAt": "2026-01-01T00:00:00Z",
                        "LastActiveAt": "2026-01-01T00:00:00Z",
                        "Identity": {"SourceIp": "127.0.0.1", "UserAgent": "test"},
                    },
                )

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def domain(self) -> str:
        host, port = self._server.server_address[:2]
        return f"{host}:{port}"

    @property
    def endpoint(self) -> str:
        return f"http://{self.domain}/{STAGE}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def frames_of(self, connection_id: str, kind: str | None = None) -> list[dict[str, Any]]:
        with self._lock:
            frames = list(self.frames[connection_id])
        return [f for f in frames if kind is None or f["type"] == kind]


def load_websocket_function() -> Any:
    spec = importlib.util.spec_from_file_location(
        f"websocket_app_{uuid.uuid4().hex}", WEBSOCKET_APP
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FakeContext:
    function_name = "websocket"
    memory_limit_in_mb = 512
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:websocket"
    aws_request_id = "test-request"

    def get_remaining_time_in_millis(self) -> int:
        return 30_000


class WebSocketGateway:
    """API Gateway's side of the WebSocket API for one test: connections, route selection."""

    def __init__(self, function: Any, management: ManagementApi) -> None:
        self._function = function
        self.management = management
        self._users: dict[str, str] = {}

    def event(self, route: str, connection_id: str, body: str | None = None) -> dict[str, Any]:
        user = self._users[connection_id]
        return {
            "requestContext": {
                "routeKey": route,
                "eventType": {"$connect": "CONNECT", "$disconnect": "DISCONNECT"}.get(
                    route, "MESSAGE"
                ),
                "connectionId": connection_id,
                "domainName": self.management.domain,
                "stage": STAGE,
                "apiId": "local",
                "requestId": uuid.uuid4().hex,
                "connectedAt": int(time.time() * 1000),
                "authorizer": {"principalId": user, "sub": user},
            },
            "body": body,
            "isBase64Encoded": False,
        }

    def connect(self, user: str = "alice") -> str:
        connection_id = uuid.uuid4().hex[:16] + "="
        self._users[connection_id] = user
        response = self._function.lambda_handler(
            self.event("$connect", connection_id), FakeContext()
        )
        assert response == {
            "statusCode": 200,
            "headers": {"Sec-WebSocket-Protocol": "agent-memory.v1"},
        }
        return connection_id

    def send(self, connection_id: str, body: str | dict[str, Any]) -> dict[str, Any]:
        text = body if isinstance(body, str) else json.dumps(body)
        route = route_of(text)
        response: dict[str, Any] = self._function.lambda_handler(
            self.event(route, connection_id, text), FakeContext()
        )
        return response

    def disconnect(self, connection_id: str) -> dict[str, Any]:
        """The client left: posts now fail with 410, then ``$disconnect`` runs."""
        self.management.gone.add(connection_id)
        response: dict[str, Any] = self._function.lambda_handler(
            self.event("$disconnect", connection_id), FakeContext()
        )
        return response


def route_of(text: str) -> str:
    """``$request.body.action``: the route of a frame, ``$default`` when there is none."""
    try:
        action = json.loads(text).get("action")
    except (ValueError, AttributeError):
        return "$default"
    return action if action in ("chat", "cancel") else "$default"
