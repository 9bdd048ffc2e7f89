"""Build the configured model providers from the environment.

| variable | used by | meaning |
|---|---|---|
| ``MODEL_PROVIDER`` | all | ``rules`` (default), ``bedrock`` or ``openai`` |
| ``MODEL_ID`` | bedrock | the Bedrock model id or inference profile |
| ``FALLBACK_MODEL_ID`` | all | enables a fallback model of the same provider (for ``rules``: any value enables a rules fallback that ignores ``simulate:``) |
| ``OPENAI_BASE_URL``, ``OPENAI_MODEL``, ``OPENAI_API_KEY`` | openai | endpoint, model, optional key |
| ``AWS_REGION`` | bedrock | the region of the Bedrock client |
| ``MODEL_TIMEOUT_SECONDS`` | bedrock, openai | read timeout of one model call (default 25) |
| ``MODEL_MAX_TOKENS`` | bedrock, openai | output token limit (default 1024) |
"""  # noqa: E501

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import boto3
from botocore.config import Config

from agent_memory.models.base import ModelProvider
from agent_memory.models.bedrock import BedrockConverseModel
from agent_memory.models.exceptions import ModelConfigurationError
from agent_memory.models.openai import OpenAICompatibleModel
from agent_memory.models.rules import RulesModel

if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient

PROVIDERS = ("rules", "bedrock", "openai")
DEFAULT_TIMEOUT_SECONDS = 25.0
DEFAULT_MAX_TOKENS = 1024
CONNECT_TIMEOUT_SECONDS = 5.0
MAX_ATTEMPTS = 2  # the first call and one retry: turns have a deadline

# Clients are thread-safe and expensive to build: one per (region, timeout) per container.
_clients_lock = threading.Lock()
_bedrock_clients: dict[tuple[str | None, float], BedrockRuntimeClient] = {}


@dataclass(frozen=True)
class ModelSettings:
    provider: str = "rules"
    model_id: str | None = None
    fallback_model_id: str | None = None
    openai_base_url: str | None = None
    openai_model: str | None = None
    openai_api_key: str | None = field(default=None, repr=False)
    aws_region: str | None = None
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
    max_tokens: int = DEFAULT_MAX_TOKENS

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ModelSettings:
        env = os.environ if environ is None else environ

        def get(name: str) -> str | None:
            value = env.get(name, "").strip()
            return value or None  # SAM passes unset parameters as ""

        try:
            timeout = float(get("MODEL_TIMEOUT_SECONDS") or DEFAULT_TIMEOUT_SECONDS)
            max_tokens = int(get("MODEL_MAX_TOKENS") or DEFAULT_MAX_TOKENS)
        except ValueError:
            raise ModelConfigurationError(
                "MODEL_TIMEOUT_SECONDS and MODEL_MAX_TOKENS must be numbers"
            ) from None
        if timeout <= 0 or max_tokens <= 0:
            raise ModelConfigurationError(
                "MODEL_TIMEOUT_SECONDS and MODEL_MAX_TOKENS must be positive"
            )
        return cls(
            provider=(get("MODEL_PROVIDER") or "rules").lower(),
            model_id=get("MODEL_ID"),
            fallback_model_id=get("FALLBACK_MODEL_ID"),
            openai_base_url=get("OPENAI_BASE_URL"),
            openai_model=get("OPENAI_MODEL"),
            openai_api_key=get("OPENAI_API_KEY"),
            aws_region=get("AWS_REGION") or get("AWS_DEFAULT_REGION"),
            timeout_seconds=timeout,
            max_tokens=max_tokens,
        )


def build_model(
    provider: str,
    settings: ModelSettings,
    *,
    bedrock_client: BedrockRuntimeClient | None = None,
) -> ModelProvider:
    """The primary model of ``provider``; ``bedrock_client`` overrides the shared client."""
    provider = _checked(provider)
    if provider == "rules":
        return RulesModel()
    if provider == "bedrock":
        model_id = _required(settings.model_id, "MODEL_ID", provider)
        client = bedrock_client or bedrock_runtime_client(settings)
        return BedrockConverseModel(client, model_id, max_tokens=settings.max_tokens)
    base_url = _required(settings.openai_base_url, "OPENAI_BASE_URL", provider)
    model = _required(settings.openai_model, "OPENAI_MODEL", provider)
    return _openai(settings, base_url, model, name="openai")


def build_fallback_model(
    provider: str,
    settings: ModelSettings,
    *,
    bedrock_client: BedrockRuntimeClient | None = None,
) -> ModelProvider | None:
    """The fallback model (same provider, ``FALLBACK_MODEL_ID``), or None when not configured."""
    provider = _checked(provider)
    fallback_id = settings.fallback_model_id
    if fallback_id is None:
        return None
    if provider == "rules":
        return RulesModel(name="rules-fallback", simulate=False)
    if provider == "bedrock":
        client = bedrock_client or bedrock_runtime_client(settings)
        return BedrockConverseModel(
            client, fallback_id, max_tokens=settings.max_tokens, name="bedrock-fallback"
        )
    base_url = _required(settings.openai_base_url, "OPENAI_BASE_URL", provider)
    return _openai(settings, base_url, fallback_id, name="openai-fallback")


def bedrock_runtime_client(settings: ModelSettings) -> BedrockRuntimeClient:
    """The container's shared ``bedrock-runtime`` client, built once behind a lock."""
    key = (settings.aws_region, settings.timeout_seconds)
    with _clients_lock:
        client = _bedrock_clients.get(key)
        if client is None:
            config = Config(
                connect_timeout=CONNECT_TIMEOUT_SECONDS,
                read_timeout=settings.timeout_seconds,
                retries={"mode": "standard", "total_max_attempts": MAX_ATTEMPTS},
            )
            # A private session: boto3's default session is not thread-safe.
            client = boto3.session.Session().client(
                "bedrock-runtime", region_name=settings.aws_region, config=config
            )
            _bedrock_clients[key] = client
        return client


def _openai(settings: ModelSettings, base_url: str, model: str, *, name: str) -> ModelProvider:
    try:
        return OpenAICompatibleModel(
            base_url,
            model,
            api_key=settings.openai_api_key,
            timeout=settings.timeout_seconds,
            max_tokens=settings.max_tokens,
            name=name,
        )
    except ValueError as exc:
        raise ModelConfigurationError(f"OPENAI_BASE_URL is invalid: {exc}") from None


def _checked(provider: str) -> str:
    normalized = provider.strip().lower()
    if normalized not in PROVIDERS:
        raise ModelConfigurationError(
            f"Unknown model provider {provider!r}: expected one of {', '.join(PROVIDERS)}"
        )
    return normalized


def _required(value: str | None, variable: str, provider: str) -> str:
    if not value:
        raise ModelConfigurationError(f"MODEL_PROVIDER={provider} needs {variable}")
    return value
