"""``bedrock-runtime`` clients whose timeouts fit the time a call may take.

botocore fixes timeouts and retries per client, and its read timeout restarts on every read:
a 25 s read timeout with two attempts could outlast a 23.5 s turn and the Lambda. So each
call gets a client whose connect plus read timeout fits its budget, with a single attempt
(the adapter retries itself, only while the budget allows). Clients are thread-safe and
costly to build: they are cached per whole second of budget (at most a few dozen).
"""

from __future__ import annotations

import math
import threading
from typing import TYPE_CHECKING

from botocore.config import Config

from agent_memory.aws_clients import new_aws_client

if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient

CONNECT_TIMEOUT_SECONDS = 5.0
CONNECT_SHARE = 0.2  # of a short budget, the most that connecting may take


class BedrockClients:
    """The clients of one region (and endpoint), sized per call budget."""

    def __init__(
        self,
        *,
        region: str | None,
        max_read_timeout: float,
        endpoint_url: str | None = None,
    ) -> None:
        self._region = region
        self._max_read_timeout = max_read_timeout
        self._endpoint_url = endpoint_url
        self._lock = threading.Lock()
        self._clients: dict[int, BedrockRuntimeClient] = {}

    def for_budget(self, seconds: float) -> BedrockRuntimeClient:
        """A client whose connect and read timeouts together stay within ``seconds``
        (rounded down to a whole second, at least one)."""
        whole = max(math.floor(seconds), 1)
        with self._lock:
            client = self._clients.get(whole)
            if client is None:
                client = self._build(whole)
                self._clients[whole] = client
            return client

    def _build(self, whole_seconds: int) -> BedrockRuntimeClient:
        connect = min(CONNECT_TIMEOUT_SECONDS, whole_seconds * CONNECT_SHARE)
        read = min(self._max_read_timeout, whole_seconds - connect)
        config = Config(
            connect_timeout=connect,
            read_timeout=read,
            retries={"mode": "standard", "total_max_attempts": 1},
        )
        client: BedrockRuntimeClient = new_aws_client(
            "bedrock-runtime",
            region_name=self._region,
            endpoint_url=self._endpoint_url,
            config=config,
        )
        return client
