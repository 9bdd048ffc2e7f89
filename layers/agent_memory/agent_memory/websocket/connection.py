"""The client's WebSocket connection, reached through the API Gateway management API.

The function posts frames with the real ``apigatewaymanagementapi`` client, its endpoint
taken from the event (``https://{domainName}/{stage}``; the local stack names its own with
``WEBSOCKET_MANAGEMENT_ENDPOINT``). ``GoneException`` (410) means the client left; it is
caught before ``ClientError``, of which it is a subclass.
"""

from __future__ import annotations

import os
import threading
from typing import Any, Protocol

from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from agent_memory.aws_clients import new_aws_client
from agent_memory.websocket.exceptions import ConnectionGoneError, ConnectionPostError
from agent_memory.websocket.frames import frame_text

ENV_MANAGEMENT_ENDPOINT = "WEBSOCKET_MANAGEMENT_ENDPOINT"

# One attempt: a resent post whose first answer was lost would duplicate a delta, and the
# deltas concatenated must be the reply. Short timeouts: a turn waits on every post.
_CLIENT_CONFIG = Config(
    connect_timeout=2,
    read_timeout=5,
    tcp_keepalive=True,
    retries={"mode": "standard", "total_max_attempts": 1},
)


class Connection(Protocol):
    """One client connection: frames out, and whether it is still there."""

    @property
    def connection_id(self) -> str: ...

    def post(self, frame: dict[str, Any]) -> None:
        """Send one frame; ``ConnectionGoneError`` when the client left,
        ``ConnectionPostError`` when the post failed otherwise."""
        ...

    def is_open(self) -> bool: ...


class ManagementApiConnection:
    def __init__(self, client: Any, connection_id: str) -> None:
        self._client = client
        self._connection_id = connection_id

    @property
    def connection_id(self) -> str:
        return self._connection_id

    def post(self, frame: dict[str, Any]) -> None:
        data = frame_text(frame).encode("utf-8")
        try:
            self._client.post_to_connection(ConnectionId=self._connection_id, Data=data)
        except self._client.exceptions.GoneException:
            raise ConnectionGoneError() from None
        except (ClientError, BotoCoreError) as error:
            raise ConnectionPostError() from error

    def is_open(self) -> bool:
        """``GET @connections/{id}``: False once the client has gone. A failed check counts
        as gone: a turn commits only while it knows the client is there."""
        try:
            self._client.get_connection(ConnectionId=self._connection_id)
        except self._client.exceptions.GoneException:
            return False
        except (ClientError, BotoCoreError):
            return False
        return True


def management_endpoint(domain_name: str, stage: str) -> str:
    """The management API of the connection's API and stage (overridable for local use)."""
    override = os.environ.get(ENV_MANAGEMENT_ENDPOINT, "").strip()
    if override:
        return override
    return f"https://{domain_name}/{stage}"


class _ManagementClients:
    """One client per endpoint, per process (a client is costly to build, cheap to share)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clients: dict[str, Any] = {}

    def get(self, endpoint_url: str) -> Any:
        client = self._clients.get(endpoint_url)
        if client is None:
            with self._lock:
                client = self._clients.get(endpoint_url)
                if client is None:
                    client = new_aws_client(
                        "apigatewaymanagementapi",
                        endpoint_url=endpoint_url,
                        region_name=os.environ.get("AWS_REGION") or None,
                        config=_CLIENT_CONFIG,
                    )
                    self._clients[endpoint_url] = client
        return client

    def reset(self) -> None:
        with self._lock:
            self._clients.clear()


_CLIENTS = _ManagementClients()


def connection_for(domain_name: str, stage: str, connection_id: str) -> ManagementApiConnection:
    client = _CLIENTS.get(management_endpoint(domain_name, stage))
    return ManagementApiConnection(client, connection_id)


def reset_management_clients() -> None:
    _CLIENTS.reset()
