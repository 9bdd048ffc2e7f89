"""Build the configured model providers from the environment.

| variable | used by | meaning |
|---|---|---|
| ``MODEL_PROVIDER`` | all | ``rules`` (default), ``bedrock`` or ``openai`` |
| ``MODEL_ID`` | bedrock | the Bedrock model id or inference profile |
| ``FALLBACK_MODEL_ID`` | all | enables a fallback model of the same provider (for ``rules``: any value enables a rules fallback that ignores ``simulate:``) |
| ``OPENAI_BASE_URL``, ``OPENAI_MODEL``, ``OPENAI_API_KEY`` | openai | endpoint, model, optional key |
| ``AWS_REGION`` | bedrock | the region of the Bedrock client |
| ``MODEL_TIMEOUT_SECONDS`` | bedrock, openai | wall-clock limit of one model call (default 25); the turn's time left lowers it |
| ``MODEL_MAX_TOKENS`` | bedrock, openai | output token limit (default 1024) |
| ``MODEL_TEMPERATURE`` | bedrock, openai | sampling temperature; unset: not sent (reasoning models refuse any but their own) |
| ``OPENAI_MAX_TOKENS_FIELD`` | openai | ``max_completion_tokens`` (OpenAI's current name, which its reasoning models require; the default for OpenAI's and Azure OpenAI's hosts) or ``max_tokens`` (the default elsewhere: Ollama, LM Studio and other compatible servers know only this one) |
"""  # noqa: E501

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from agent_memory.models.base import ModelProvider
from agent_memory.models.exceptions import ModelConfigurationError

if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient

    from agent_memory.models.bedrock_clients import BedrockClients

# Each provider's module is imported when a model of it is built: a function loads the one
# provider it is configured for (the OpenAI-compatible one needs no boto3 client, Bedrock no
# HTTP transport of ours).

PROVIDERS = ("rules", "bedrock", "openai")
DEFAULT_TIMEOUT_SECONDS = 25.0
DEFAULT_MAX_TOKENS = 1024
MAX_TOKENS_FIELDS = ("max_completion_tokens", "max_tokens")

# Clients are thread-safe and expensive to build: one pool per (region, timeout) per container.
_clients_lock = threading.Lock()
_bedrock_clients: dict[tuple[str | None, float], BedrockClients] = {}


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
    temperature: float | None = None
    openai_max_tokens_field: str | None = None
    """None: chosen by the base URL's host (see ``max_tokens_field_for``)."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ModelSettings:
        env = os.environ if environ is None else environ

        def get(name: str) -> str | None:
            value = env.get(name, "").strip()
            return value or None  # SAM passes unset parameters as ""

        try:
            timeout = float(get("MODEL_TIMEOUT_SECONDS") or DEFAULT_TIMEOUT_SECONDS)
            max_tokens = int(get("MODEL_MAX_TOKENS") or DEFAULT_MAX_TOKENS)
            raw_temperature = get("MODEL_TEMPERATURE")
            temperature = None if raw_temperature is None else float(raw_temperature)
        except ValueError:
            raise ModelConfigurationError(
                "MODEL_TIMEOUT_SECONDS, MODEL_MAX_TOKENS and MODEL_TEMPERATURE must be numbers"
            ) from None
        if timeout <= 0 or max_tokens <= 0:
            raise ModelConfigurationError(
                "MODEL_TIMEOUT_SECONDS and MODEL_MAX_TOKENS must be positive"
            )
        if temperature is not None and not 0 <= temperature <= 2:
            raise ModelConfigurationError("MODEL_TEMPERATURE must be between 0 and 2")
        max_tokens_field = get("OPENAI_MAX_TOKENS_FIELD")
        if max_tokens_field is not None and max_tokens_field not in MAX_TOKENS_FIELDS:
            raise ModelConfigurationError(
                f"OPENAI_MAX_TOKENS_FIELD must be one of {', '.join(MAX_TOKENS_FIELDS)}"
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
            temperature=temperature,
            openai_max_tokens_field=max_tokens_field,
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
        from agent_memory.models.rules import RulesModel

        return RulesModel()
    if provider == "bedrock":
        model_id = _required(settings.model_id, "MODEL_ID", provider)
        return _bedrock(settings, model_id, bedrock_client, name="bedrock")
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
        from agent_memory.models.rules import RulesModel

        return RulesModel(name="rules-fallback", simulate=False)
    if provider == "bedrock":
        return _bedrock(settings, fallback_id, bedrock_client, name="bedrock-fallback")
    base_url = _required(settings.openai_base_url, "OPENAI_BASE_URL", provider)
    return _openai(settings, base_url, fallback_id, name="openai-fallback")


def bedrock_clients(settings: ModelSettings) -> BedrockClients | BedrockRuntimeClient:
    """The container's shared ``bedrock-runtime`` clients, built once behind a lock."""
    from agent_memory.models.bedrock_clients import BedrockClients

    key = (settings.aws_region, settings.timeout_seconds)
    with _clients_lock:
        clients = _bedrock_clients.get(key)
        if clients is None:
            clients = BedrockClients(
                region=settings.aws_region, max_read_timeout=settings.timeout_seconds
            )
            _bedrock_clients[key] = clients
        return clients


def _bedrock(
    settings: ModelSettings,
    model_id: str,
    client: BedrockRuntimeClient | None,
    *,
    name: str,
) -> ModelProvider:
    from agent_memory.models.bedrock import BedrockConverseModel

    return BedrockConverseModel(
        client or bedrock_clients(settings),
        model_id,
        max_tokens=settings.max_tokens,
        temperature=settings.temperature,
        timeout_seconds=settings.timeout_seconds,
        name=name,
    )


def _openai(settings: ModelSettings, base_url: str, model: str, *, name: str) -> ModelProvider:
    from agent_memory.models.openai import OpenAICompatibleModel

    try:
        return OpenAICompatibleModel(
            base_url,
            model,
            api_key=settings.openai_api_key,
            timeout=settings.timeout_seconds,
            max_tokens=settings.max_tokens,
            max_tokens_field=settings.openai_max_tokens_field or max_tokens_field_for(base_url),
            temperature=settings.temperature,
            name=name,
        )
    except ValueError as exc:
        raise ModelConfigurationError(f"OPENAI_BASE_URL is invalid: {exc}") from None


def max_tokens_field_for(base_url: str) -> str:
    """``max_completion_tokens`` for OpenAI's own hosts, ``max_tokens`` for the others (which
    ignore the new name, leaving the answer unbounded)."""
    host = (urlsplit(base_url).hostname or "").lower()
    if host == "api.openai.com" or host.endswith((".openai.azure.com", ".openai.com")):
        return "max_completion_tokens"
    return "max_tokens"


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
