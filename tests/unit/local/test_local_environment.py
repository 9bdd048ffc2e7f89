"""Each function's local environment: the template's, with local values, and the user's say."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent_memory.repository.tables import load_template
from agent_memory_tools.local.environment import LOCAL_TABLES, StackWiring, function_environment
from agent_memory_tools.local.exceptions import StartupError
from agent_memory_tools.local.functions import FunctionConfig, function_configs, project_root

ISSUER_ENV = {
    "ISSUER_URL": "urn:dev",
    "AUDIENCE": "local",
    "JWKS_URL": "http://127.0.0.1:1/.well-known/jwks.json",
    "JWT_ALGORITHMS": "RS256",
}
WIRING = StackWiring(
    dynamodb_endpoint="http://127.0.0.1:2", issuer_env=ISSUER_ENV, root=Path("/repo")
)


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template(project_root() / "template.yaml")


def _env(template: dict[str, Any], name: str, **user_env: str) -> dict[str, str]:
    config = function_configs(template)[name]
    return function_environment(config, template=template, wiring=WIRING, user_env=user_env)


def test_timeouts_and_memory_follow_the_template(template: dict[str, Any]) -> None:
    configs = function_configs(template)

    assert {name: config.timeout_seconds for name, config in configs.items()} == {
        "authorizer": 5,
        "chat": 30,
        "memory_api": 10,
        "eval": 30,
        "cleanup": 50,
        "websocket": 30,
    }
    assert configs["authorizer"].memory_mb == 256


def test_the_websocket_function_posts_to_the_stacks_own_management_api(
    template: dict[str, Any],
) -> None:
    # GIVEN the stack's wiring naming its management API, and a user env that tries another
    wiring = StackWiring(
        dynamodb_endpoint="http://127.0.0.1:2",
        issuer_env=ISSUER_ENV,
        root=Path("/repo"),
        management_endpoint="http://127.0.0.1:3000/local",
    )
    config = function_configs(template)["websocket"]

    # WHEN the WebSocket function's and the chat function's environments are made
    env = function_environment(
        config,
        template=template,
        wiring=wiring,
        user_env={"WEBSOCKET_MANAGEMENT_ENDPOINT": "https://elsewhere.example/prod"},
    )
    chat = function_environment(
        function_configs(template)["chat"], template=template, wiring=wiring, user_env={}
    )

    # THEN only the WebSocket function gets it, and the stack's value wins
    assert env["WEBSOCKET_MANAGEMENT_ENDPOINT"] == "http://127.0.0.1:3000/local"
    assert env["MODEL_PROVIDER"] == "rules"
    assert "WEBSOCKET_MANAGEMENT_ENDPOINT" not in chat


def test_chat_gets_local_tables_memory_on_and_the_rules_model(template: dict[str, Any]) -> None:
    env = _env(template, "chat", PATH="/bin")

    assert env["MEMORY_TABLE_NAME"] == LOCAL_TABLES.memory
    assert env["TURN_LEDGER_TABLE_NAME"] == LOCAL_TABLES.turn_ledger
    assert env["DYNAMODB_ENDPOINT_URL"] == "http://127.0.0.1:2"
    assert env["MEMORY_ENABLED"] == "true"
    assert env["MODEL_PROVIDER"] == "rules"
    assert env["TURN_DEADLINE_SECONDS"] == "25"
    assert env["POWERTOOLS_SERVICE_NAME"] == "agent-memory"
    assert env["PATH"] == "/bin"


def test_the_user_environment_wins_except_for_what_the_stack_owns(template: dict[str, Any]) -> None:
    env = _env(
        template,
        "chat",
        MEMORY_ENABLED="false",
        MODEL_PROVIDER="openai",
        LOG_LEVEL="DEBUG",
        MEMORY_TABLE_NAME="prod-memory",
        DYNAMODB_ENDPOINT_URL="https://dynamodb.eu-west-1.amazonaws.com",
    )

    assert (env["MEMORY_ENABLED"], env["MODEL_PROVIDER"], env["LOG_LEVEL"]) == (
        "false",
        "openai",
        "DEBUG",
    )
    assert env["MEMORY_TABLE_NAME"] == LOCAL_TABLES.memory
    assert env["DYNAMODB_ENDPOINT_URL"] == "http://127.0.0.1:2"


def test_functions_get_only_the_variables_the_template_gives_them(template: dict[str, Any]) -> None:
    evaluation = _env(template, "eval", MEMORY_TABLE_NAME="leaked", ISSUER_URL="https://evil")
    cleanup = _env(template, "cleanup")

    assert "MEMORY_TABLE_NAME" not in evaluation
    assert "ISSUER_URL" not in evaluation
    assert "MEMORY_TABLE_NAME" not in cleanup
    assert cleanup["TURN_LEDGER_TABLE_NAME"] == LOCAL_TABLES.turn_ledger


def test_only_chat_gets_the_local_idempotency_table(template: dict[str, Any]) -> None:
    # GIVEN a user environment that names a deployed idempotency table
    chat = _env(template, "chat", IDEMPOTENCY_TABLE_NAME="prod-idempotency")
    memory_api = _env(template, "memory_api", IDEMPOTENCY_TABLE_NAME="prod-idempotency")

    # THEN chat gets the local table, as the template gives it; no other function gets one
    assert chat["IDEMPOTENCY_TABLE_NAME"] == LOCAL_TABLES.idempotency
    assert LOCAL_TABLES.idempotency
    assert "IDEMPOTENCY_TABLE_NAME" not in memory_api


def test_the_authorizer_trusts_the_dev_issuer_only(template: dict[str, Any]) -> None:
    env = _env(template, "authorizer", ISSUER_URL="https://evil", JWT_ALGORITHMS="HS256")

    assert {key: env[key] for key in ISSUER_ENV} == ISSUER_ENV


def test_dummy_credentials_unless_the_model_is_bedrock(template: dict[str, Any]) -> None:
    real = {"AWS_ACCESS_KEY_ID": "AKIAREAL", "AWS_SECRET_ACCESS_KEY": "s", "AWS_PROFILE": "prod"}

    local = _env(template, "chat", **real)
    bedrock = _env(template, "chat", MODEL_PROVIDER="bedrock", AWS_REGION="eu-west-1", **real)

    assert local["AWS_ACCESS_KEY_ID"] == "local"
    assert "AWS_PROFILE" not in local
    assert bedrock["AWS_ACCESS_KEY_ID"] == "AKIAREAL"
    assert bedrock["AWS_PROFILE"] == "prod"
    assert bedrock["AWS_REGION"] == "eu-west-1"
    assert local["AWS_REGION"] == "us-east-1"


def test_an_unsupported_intrinsic_is_a_clear_startup_error(template: dict[str, Any]) -> None:
    config = FunctionConfig("chat", "ChatFunction", 30, 512, {"X": {"Fn::GetAtt": ["A", "Arn"]}})

    with pytest.raises(StartupError, match="ChatFunction"):
        function_environment(config, template=template, wiring=WIRING, user_env={})
