"""Building the configured model providers from the environment."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import boto3
import pytest

from agent_memory.models import (
    BedrockConverseModel,
    ModelConfigurationError,
    ModelSettings,
    OpenAICompatibleModel,
    RulesModel,
    UserMessage,
    bedrock_runtime_client,
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
    }
    settings = ModelSettings.from_env(env)
    assert settings.provider == "openai"
    assert settings.aws_region == "us-west-2"
    assert settings.timeout_seconds == 12.5
    assert settings.max_tokens == 256
    assert settings.openai_api_key == "sk-SENTINEL"
    # THEN the key never shows in a repr (settings may be logged)
    assert "SENTINEL" not in repr(settings)


@pytest.mark.parametrize(
    "env",
    [{"MODEL_TIMEOUT_SECONDS": "soon"}, {"MODEL_MAX_TOKENS": "0"}, {"MODEL_TIMEOUT_SECONDS": "-1"}],
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


def test_the_shared_bedrock_client_is_built_once_with_bounded_timeouts_and_retries() -> None:
    # GIVEN settings for one region
    settings = ModelSettings(
        provider="bedrock", model_id="m", aws_region="us-east-1", timeout_seconds=7
    )
    # WHEN the client is asked for twice
    first = bedrock_runtime_client(settings)
    second = bedrock_runtime_client(settings)
    # THEN it is one object, configured with timeouts and standard-mode retries
    assert first is second
    config: Any = first.meta.config  # botocore-stubs do not declare the merged options
    assert config.read_timeout == 7
    assert config.connect_timeout == 5
    assert config.retries == {"mode": "standard", "total_max_attempts": 2}


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
