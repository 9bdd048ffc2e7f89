"""Each function's environment on this machine: what ``template.yaml`` gives it, with the
local stack's values for the template's parameters and resources.

Layers, later ones winning:
1. the template's variables (Globals and the function's own), ``!Ref`` resolved locally
   (tables -> the moto tables, issuer -> the dev issuer, ``MemoryEnabled`` -> true);
2. local defaults (the ``rules`` model, quiet logs, no X-Ray, no EMF metrics on stdout);
3. the user's environment (``MODEL_PROVIDER=bedrock``, ``MEMORY_ENABLED=false``, ``LOG_LEVEL``...);
4. what the stack owns and nobody overrides: the DynamoDB endpoint, the table names, the
   issuer the authorizer trusts, and, unless the model is Bedrock, dummy AWS credentials
   (nothing local may ever reach a real AWS account by accident).

A function only gets the table names and issuer settings the template gives it, so a
function that would fail in AWS for a missing variable fails here too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent_memory.auth import ENV_ALGORITHMS, ENV_AUDIENCE, ENV_ISSUER, ENV_JWKS_URL
from agent_memory.repository import (
    ENV_ENDPOINT_URL,
    ENV_IDEMPOTENCY_TABLE,
    ENV_MEMORY_TABLE,
    ENV_REGION,
    ENV_TURN_LEDGER_TABLE,
    TableNames,
)
from agent_memory.websocket import ENV_MANAGEMENT_ENDPOINT
from agent_memory_tools.local.exceptions import StartupError
from agent_memory_tools.local.functions import FunctionConfig

ENV_ROOT = "AGENT_MEMORY_ROOT"
ENV_CLEANUP_INTERVAL = "AGENT_MEMORY_CLEANUP_INTERVAL_SECONDS"
ENV_MAX_CONCURRENCY = "AGENT_MEMORY_LOCAL_CONCURRENCY"

LOCAL_TABLES = TableNames(
    memory="agent-memory-local-memory",
    turn_ledger="agent-memory-local-turn-ledger",
    idempotency="agent-memory-local-idempotency",
)
DEFAULT_REGION = "us-east-1"
DUMMY_CREDENTIALS = {"AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local"}
# Removed with the dummy credentials, so a profile or session token cannot take over.
REAL_CREDENTIAL_VARIABLES = (
    "AWS_SESSION_TOKEN",
    "AWS_SECURITY_TOKEN",
    "AWS_PROFILE",
    "AWS_DEFAULT_PROFILE",
)

LOCAL_STAGE = "local"
LOCAL_PARAMETERS = {"Stage": LOCAL_STAGE, "MemoryEnabled": "true", "DebugContentCapture": "false"}
LOCAL_DEFAULTS = {
    "LOG_LEVEL": "WARNING",
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_METRICS_DISABLED": "true",
    # Powertools warns on every invocation that flushes no metric (the memory API's reads).
    "PYTHONWARNINGS": "ignore::UserWarning:aws_lambda_powertools.metrics.provider.base",
}
# Only where the template sets the variable: the deployed default is Bedrock.
LOCAL_MODEL_PROVIDER = "rules"

STACK_OWNED = frozenset(
    {
        ENV_ENDPOINT_URL,
        ENV_MEMORY_TABLE,
        ENV_TURN_LEDGER_TABLE,
        ENV_IDEMPOTENCY_TABLE,
        ENV_ISSUER,
        ENV_AUDIENCE,
        ENV_JWKS_URL,
        ENV_ALGORITHMS,
        ENV_ROOT,
        ENV_MANAGEMENT_ENDPOINT,
    }
)


@dataclass(frozen=True)
class StackWiring:
    """Where the local stack's pieces are: the handlers' view of the world."""

    dynamodb_endpoint: str
    issuer_env: Mapping[str, str]  # DevIssuer.authorizer_env(jwks_url)
    root: Path
    tables: TableNames = LOCAL_TABLES
    # The WebSocket function's management API: the local front's own port and stage.
    management_endpoint: str = ""


def model_provider(user_env: Mapping[str, str]) -> str:
    return (user_env.get("MODEL_PROVIDER", "").strip() or LOCAL_MODEL_PROVIDER).lower()


def function_environment(
    config: FunctionConfig,
    *,
    template: Mapping[str, Any],
    wiring: StackWiring,
    user_env: Mapping[str, str],
) -> dict[str, str]:
    """The complete environment of one function's execution environments."""
    parameters = _parameter_values(template, wiring)
    template_env = {
        key: _resolve(value, parameters, config) for key, value in config.environment.items()
    }
    local_defaults = dict(LOCAL_DEFAULTS)
    if "MODEL_PROVIDER" in template_env:
        local_defaults["MODEL_PROVIDER"] = LOCAL_MODEL_PROVIDER
    if "POWERTOOLS_LOG_LEVEL" in user_env:
        local_defaults.pop("LOG_LEVEL")
    inherited = {key: value for key, value in user_env.items() if key not in STACK_OWNED}
    env = {**template_env, **local_defaults, **inherited}

    env[ENV_ENDPOINT_URL] = wiring.dynamodb_endpoint
    env[ENV_ROOT] = str(wiring.root)
    if config.name == "authorizer":
        env.update(wiring.issuer_env)
    if config.name == "websocket" and wiring.management_endpoint:
        env[ENV_MANAGEMENT_ENDPOINT] = wiring.management_endpoint
    env.setdefault(ENV_REGION, user_env.get("AWS_DEFAULT_REGION", DEFAULT_REGION))
    env.setdefault("AWS_DEFAULT_REGION", env[ENV_REGION])
    if model_provider(user_env) != "bedrock":
        for variable in REAL_CREDENTIAL_VARIABLES:
            env.pop(variable, None)
        env.update(DUMMY_CREDENTIALS)
    return env


def _parameter_values(template: Mapping[str, Any], wiring: StackWiring) -> dict[str, str]:
    values = {
        str(name): str(spec.get("Default", ""))
        for name, spec in template.get("Parameters", {}).items()
        if isinstance(spec, Mapping)
    }
    values.update(LOCAL_PARAMETERS)
    values.update(
        {
            "IssuerUrl": wiring.issuer_env.get(ENV_ISSUER, ""),
            "Audience": wiring.issuer_env.get(ENV_AUDIENCE, ""),
            "JwksUrl": wiring.issuer_env.get(ENV_JWKS_URL, ""),
            "MemoryTable": wiring.tables.memory,
            "TurnLedgerTable": wiring.tables.turn_ledger,
            "IdempotencyTable": wiring.tables.idempotency,
        }
    )
    return values


def _resolve(value: Any, parameters: Mapping[str, str], config: FunctionConfig) -> str:
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping) and set(value) == {"Ref"} and str(value["Ref"]) in parameters:
        return parameters[str(value["Ref"])]
    raise StartupError(
        f"The local stack cannot resolve {value!r} in the environment of {config.logical_id} "
        "(template.yaml): only strings and !Ref to parameters and tables are supported."
    )
