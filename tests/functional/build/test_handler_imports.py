"""Each function imports what it runs, and not what other functions run (issue 13, cold start).

A fresh interpreter loads one handler module as the Lambda runtime does (its folder first on
``sys.path``, Lambda's environment as far as init reads it) and lists the modules loaded. What
a function never runs must not be among them: it would be paid on every cold start.
``benchmarks/bench_cold_start.py`` measures what is left.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from agent_memory_tools.local.functions import project_root

ROOT = project_root()
LAMBDA_ENV = {
    "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1",
    "MEMORY_TABLE_NAME": "memory",
    "TURN_LEDGER_TABLE_NAME": "ledger",
    "MODEL_PROVIDER": "bedrock",
    "MODEL_ID": "anthropic.claude-3-5-haiku-20241022-v1:0",
    "ISSUER_URL": "https://issuer.example.com",
    "AUDIENCE": "agent-memory",
    "POWERTOOLS_TRACE_DISABLED": "true",  # no X-Ray patching in a test process
}
# Every client is made with botocore alone (agent_memory/aws_clients.py): boto3 and s3transfer
# are never loaded by a function.
NO_BOTO3 = ("boto3", "s3transfer")
# The record a chat turn emits: only the functions that run turns load it.
TURN_RECORD = "agent_memory.telemetry.turn_record"
# function -> module prefixes it must never load at init
NEVER = {
    "cleanup": (
        "agent_memory.domain",  # the memory rules, the tool schema, the confusables table
        "agent_memory.http",
        "agent_memory.ledger",
        "agent_memory.models",
        "agent_memory.repository.memory_repository",
        "agent_memory.service.chat",
        "aws_lambda_powertools.event_handler",
        "pydantic",
        TURN_RECORD,
        *NO_BOTO3,
    ),
    "memory_api": (
        "agent_memory.agent",  # the agent loop and every model provider: it calls no model
        "agent_memory.models",
        "agent_memory.service.chat",
        "agent_memory.service.streaming",
        TURN_RECORD,
        *NO_BOTO3,
    ),
    "chat": (
        "agent_memory.models.openai",  # a Bedrock deployment loads no other provider
        "agent_memory.models.rules",
        "agent_memory.models.http_transport",
        "agent_memory.service.streaming",
        "agent_memory.service.user_control",
        # Powertools' idempotency: loaded by the first request with an Idempotency-Key
        # (its DynamoDB persistence layer imports boto3 then).
        "aws_lambda_powertools.utilities.idempotency",
        *NO_BOTO3,
    ),
    "authorizer": (
        *NO_BOTO3,
        "pydantic",
        "agent_memory.repository",
        "agent_memory.service",
        "agent_memory.domain",
        TURN_RECORD,
    ),
}
LIST_MODULES = "import sys, json, app; print(json.dumps(sorted(sys.modules)))"
# The HTTP contract's models whose validator init has built (pydantic builds a model's
# validator and serializer when the class is made, unless told to defer it).
LIST_BUILT_MODELS = """
import json, app
from pydantic import BaseModel
from agent_memory.http import contract
print(json.dumps(sorted(
    name for name, value in vars(contract).items()
    if isinstance(value, type) and issubclass(value, BaseModel) and value.__pydantic_complete__
)))
"""


def run_after_init(function: str, script: str) -> str:
    """The last line ``script`` prints after loading the function's handler module."""
    folder = ROOT / "functions" / function
    env = {key: value for key, value in os.environ.items() if key in ("PATH", "HOME", "LANG")}
    env.update(LAMBDA_ENV, PYTHONPATH=str(folder), LAMBDA_TASK_ROOT=str(folder))
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout.splitlines()[-1]


def modules_after_init(function: str) -> set[str]:
    return set(json.loads(run_after_init(function, LIST_MODULES)))


@pytest.mark.parametrize("function", sorted(NEVER))
def test_a_function_loads_nothing_at_init_that_it_never_runs(function: str) -> None:
    # GIVEN a fresh interpreter that has loaded the function's handler module
    loaded = modules_after_init(function)

    # THEN none of the modules only other functions run is loaded
    unneeded = sorted(
        name
        for name in loaded
        for prefix in NEVER[function]
        if name.split(".")[: len(prefix.split("."))] == prefix.split(".")
    )
    assert unneeded == []
    assert "app" in loaded  # the handler itself did load


@pytest.mark.parametrize("function", ["chat", "memory_api", "eval"])
def test_init_builds_no_validator_of_the_http_contract(function: str) -> None:
    # GIVEN a fresh interpreter that has loaded an HTTP function's handler module
    built = json.loads(run_after_init(function, LIST_BUILT_MODELS))

    # THEN no contract model's validator was built: each is built by the first request that
    # uses it, so a function never builds the models of other functions' routes
    assert built == []
