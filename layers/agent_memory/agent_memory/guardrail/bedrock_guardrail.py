"""Bedrock Guardrails as a reviewer of the texts a memory batch would write.

``review`` answers None (the batch may be staged) or a machine code: ``guardrail_blocked``
when the guardrail intervened, ``guardrail_unavailable`` when it could not be asked (an
error, a throttle, a timeout). Closed for writes: an unanswered review rejects the write,
never the turn. Nothing of the call's content (texts, assessments, outputs) reaches logs,
metrics or traces; only the action and the error code do.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from aws_lambda_powertools import Logger
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from agent_memory.aws_clients import new_aws_client

GUARDRAIL_BLOCKED = "guardrail_blocked"
GUARDRAIL_UNAVAILABLE = "guardrail_unavailable"
_INTERVENED = "GUARDRAIL_INTERVENED"
_CLIENT_CONFIG = Config(
    connect_timeout=2, read_timeout=5, retries={"max_attempts": 2, "mode": "standard"}
)

logger = Logger(service="agent-memory", child=True)


if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient


class BedrockGuardrail:
    def __init__(self, client: BedrockRuntimeClient, *, identifier: str, version: str) -> None:
        self._client = client
        self._identifier = identifier
        self._version = version

    def review(self, texts: Sequence[str]) -> str | None:
        if not texts:
            return None
        try:
            response = self._client.apply_guardrail(
                guardrailIdentifier=self._identifier,
                guardrailVersion=self._version,
                source="INPUT",
                content=[{"text": {"text": text}} for text in texts],
            )
        except (ClientError, BotoCoreError) as error:
            code = error.response["Error"]["Code"] if isinstance(error, ClientError) else ""
            logger.warning(
                "guardrail unavailable",
                extra={"error_type": type(error).__name__, "error_code": code},
            )
            return GUARDRAIL_UNAVAILABLE
        if response.get("action") == _INTERVENED:
            logger.info("guardrail intervened", extra={"action": _INTERVENED})
            return GUARDRAIL_BLOCKED
        return None


def guardrail_from_environment() -> BedrockGuardrail | None:
    """The configured guardrail (GUARDRAIL_ID / GUARDRAIL_VERSION), or None when off. Short
    timeouts and few retries: a slow guardrail costs the write, not the turn."""
    identifier = os.environ.get("GUARDRAIL_ID", "").strip()
    if not identifier:
        return None
    version = os.environ.get("GUARDRAIL_VERSION", "").strip() or "DRAFT"
    client = new_aws_client("bedrock-runtime", config=_CLIENT_CONFIG)
    return BedrockGuardrail(client, identifier=identifier, version=version)
