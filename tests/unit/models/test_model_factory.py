"""Building the configured model providers from the environment."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import boto3
import pytest

from agent_memory.models import (
    BedrockClients,
    BedrockConverseModel,
    ModelConfigurationError,
    ModelSettings,
    OpenAICompatibleModel,
    RulesModel,
    UserMessage,
    bedrock_clients,
    build_fallback_model,
    build_model,
)

if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient


@pytest.fixture
def bedrock_client() -> BedrockRuntimeClient:
    return boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )


def test_settings_default_to_the_rules_model_and_treat_empty_values_as_unset() -> None:
    # GIVEN an environment where SAM passed unset parameters as empty strings
    env = {"MODEL_ID": "", "FALLBACK_MODEL_ID": " ", "AWS_REGION": "eu-west-1"}
    # WHEN settings are read
    settings = ModelSettings.from_env(env)
    # THEN the provider is rules and the empty values are None
    assert settings == ModelSettings(provider="rules", aws_region="eu-west-1")
    assert isinstance(build_model(settings.provider, settings), RulesModel)
    assert build_fallback_model(settings.provider, settings) is None


def test_settings_read_every_variable() -> None:
    env = {
        "MODEL_PROVIDER": "OpenAI",
        "MODEL_ID": "anthropic.claude",
        "FALLBACK_MODEL_ID": "amazon.nova-lite",
        "OPENAI_BASE_URL": "http://127.0.0.1:11434/v1",
        "OPENAI_MODEL": "llama3.2",
        "OPENAI_API_KEY": "sk-SENTINEL",
        "AWS_DEFAULT_REGION": "us-west-2",
        "MODEL_TIMEOUT_SECONDS": "12.5",
        "MODEL_MAX_TOKENS": "256",
        "MODEL_TEMPERATURE": "0.3",
        "OPENAI_MAX_TOKENS_FIELD": "max_tokens",
    }
    settings = ModelSettings.from_env(env)
    assert (settings.temperature, settings.openai_max_tokens_field) == (0.3, "max_tokens")
    assert settings.provider == "openai"
    assert settings.aws_region == "us-west-2"
    assert settings.timeout_seconds == 12.5
    assert settings.max_tokens == 256
    assert settings.openai_api_key == "sk-SENTINEL"
    # THEN the key never shows in a repr (settings may be logged)
    assert "SENTINEL" not in repr(settings)


@pytest.mark.parametrize(
    "env",
    [
        {"MODEL_TIMEOUT_SECONDS": "soon"},
        {"MODEL_MAX_TOKENS": "0"},
        {"MODEL_TIMEOUT_SECONDS": "-1"},
        {"MODEL_TEMPERATURE": "warm"},
        {"MODEL_TEMPERATURE": "3"},
        {"OPENAI_MAX_TOKENS_FIELD": "max_output_tokens"},
    ],
)
def test_bad_numbers_are_configuration_errors(env: dict[str, str]) -> None:
    with pytest.raises(ModelConfigurationError):
        ModelSettings.from_env(env)


def test_unknown_provider_is_a_clear_error() -> None:
    with pytest.raises(
        ModelConfigurationError, match=r"Unknown model provider 'gpt'.*rules, bedrock, openai"
    ):
        build_model("gpt", ModelSettings())
    with pytest.raises(ModelConfigurationError):
        build_fallback_model("gpt", ModelSettings(fallback_model_id="x"))


def test_bedrock_needs_a_model_id() -> None:
    with pytest.raises(ModelConfigurationError, match="MODEL_ID"):
        build_model("bedrock", ModelSettings(provider="bedrock"))


def test_bedrock_model_and_fallback_share_the_client(
    bedrock_client: BedrockRuntimeClient,
) -> None:
    # GIVEN Bedrock settings with a fallback model id
    settings = ModelSettings(provider="bedrock", model_id="primary", fallback_model_id="backup")
    # WHEN both models are built
    primary = build_model("bedrock", settings, bedrock_client=bedrock_client)
    fallback = build_fallback_model("bedrock", settings, bedrock_client=bedrock_client)
    # THEN they are Converse models of their own ids
    assert isinstance(primary, BedrockConverseModel)
    assert isinstance(fallback, BedrockConverseModel)
    assert (primary.model_id, fallback.model_id) == ("primary", "backup")
    assert (primary.name, fallback.name) == ("bedrock", "bedrock-fallback")


def test_the_shared_bedrock_clients_are_built_once_per_container() -> None:
    settings = ModelSettings(
        provider="bedrock", model_id="m", aws_region="us-east-1", timeout_seconds=7
    )
    first = bedrock_clients(settings)
    assert first is bedrock_clients(settings)
    assert isinstance(first, BedrockClients)
    assert first.for_budget(5.5) is first.for_budget(5.9)


@pytest.mark.parametrize("budget", [1.0, 1.7, 4.2, 12.9, 23.4, 60.0])
def test_a_bedrock_client_never_outlasts_its_budget(budget: float) -> None:
    # GIVEN the clients of a 25 s model timeout (the old client: 25 s read, 2 attempts)
    clients = BedrockClients(region="us-east-1", max_read_timeout=25.0)
    # WHEN a call with `budget` seconds left asks for a client
    config: Any = clients.for_budget(budget).meta.config
    # THEN one attempt, and connecting plus reading fit in the budget (and the model timeout)
    assert config.retries == {"mode": "standard", "total_max_attempts": 1}
    assert config.connect_timeout + config.read_timeout <= max(budget, 1.0)
    assert config.read_timeout <= 25.0
    assert config.connect_timeout > 0
    assert config.read_timeout > 0


@pytest.mark.parametrize("provider", ["bedrock", "openai"])
def test_temperature_is_sent_only_when_configured(
    provider: str, bedrock_client: BedrockRuntimeClient
) -> None:
    base = ModelSettings(
        provider=provider, model_id="m", openai_base_url="http://127.0.0.1:1/v1", openai_model="m"
    )
    for settings, expected in ((base, None), (replace(base, temperature=0.7), 0.7)):
        model: Any = build_model(provider, settings, bedrock_client=bedrock_client)
        if provider == "bedrock":
            inference = model.request(system="s", messages=[UserMessage("hi")], tools=[])[
                "inferenceConfig"
            ]
            assert inference.get("temperature") == expected
        else:
            body = model.body(system="s", messages=[UserMessage("hi")], tools=[])
            assert body.get("temperature") == expected


@pytest.mark.parametrize(
    ("base_url", "configured", "field"),
    [
        ("https://api.openai.com/v1", None, "max_completion_tokens"),
        (
            "https://acme.openai.azure.com/openai/v1?api-version=preview",
            None,
            "max_completion_tokens",
        ),
        ("http://127.0.0.1:11434/v1", None, "max_tokens"),  # Ollama knows only max_tokens
        ("http://127.0.0.1:11434/v1", "max_completion_tokens", "max_completion_tokens"),
        ("https://api.openai.com/v1", "max_tokens", "max_tokens"),
    ],
)
def test_the_output_limit_goes_in_the_field_the_server_knows(
    base_url: str, configured: str | None, field: str
) -> None:
    settings = ModelSettings(
        provider="openai",
        openai_base_url=base_url,
        openai_model="m",
        max_tokens=99,
        openai_max_tokens_field=configured,
    )
    model: Any = build_model("openai", settings)
    body = model.body(system="s", messages=[UserMessage("hi")], tools=[])
    assert body[field] == 99
    assert ({"max_tokens", "max_completion_tokens"} - {field}).isdisjoint(body)


@pytest.mark.parametrize(
    ("settings", "missing"),
    [
        (ModelSettings(provider="openai", openai_model="m"), "OPENAI_BASE_URL"),
        (ModelSettings(provider="openai", openai_base_url="http://x/v1"), "OPENAI_MODEL"),
    ],
)
def test_openai_needs_a_base_url_and_a_model(settings: ModelSettings, missing: str) -> None:
    with pytest.raises(ModelConfigurationError, match=missing):
        build_model("openai", settings)


def test_openai_rejects_a_non_http_base_url() -> None:
    settings = ModelSettings(openai_base_url="file:///etc/passwd", openai_model="m")
    with pytest.raises(ModelConfigurationError, match="OPENAI_BASE_URL"):
        build_model("openai", settings)


def test_openai_model_and_fallback() -> None:
    settings = ModelSettings(
        openai_base_url="http://127.0.0.1:1/v1", openai_model="big", fallback_model_id="small"
    )
    primary = build_model("openai", settings)
    fallback = build_fallback_model("openai", settings)
    assert isinstance(primary, OpenAICompatibleModel)
    assert isinstance(fallback, OpenAICompatibleModel)
    assert (primary.model, fallback.model) == ("big", "small")


def test_a_rules_fallback_ignores_simulate_directives() -> None:
    # GIVEN the local stack with a fallback configured
    settings = ModelSettings(fallback_model_id="rules")
    fallback = build_fallback_model("rules", settings)
    # WHEN the fallback sees a message that made the primary fail
    assert fallback is not None
    response = fallback.complete(system="", messages=[UserMessage("simulate: fail")], tools=[])
    # THEN it answers: that is what makes the fallback path testable locally
    assert fallback.name == "rules-fallback"
    assert response.stop_reason == "end_turn"
