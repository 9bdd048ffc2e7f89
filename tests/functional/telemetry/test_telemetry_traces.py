"""X-Ray: the traces are real (DynamoDB and Bedrock subsegments, the handler's subsegment),
and what the SDK would copy into them (an exception's text, metadata, whitelisted
parameters) never leaves the process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from aws_lambda_powertools import Tracer
from telemetry_support import (
    ARG,
    ERR,
    HISTORY,
    MEM,
    MSG,
    OUT,
    UID,
    Capture,
    TracedApi,
    before_call,
    client_error,
    memory_update,
    new_trace_header,
    success,
)

from agent_memory.models import factory
from agent_memory.repository import get_client
from agent_memory.service import reset_services
from agent_memory.telemetry.trace_redaction import RedactedEntity
from agent_memory_tools.local.events import LocalLambdaContext
from agent_memory_tools.local.functions import project_root

ADD_ARG = {"target": "memory", "action": "add", "content": f"Codename changed to {ARG}"}


def converse_reply(*content: dict[str, Any], stop: str) -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": list(content)}},
        "stopReason": stop,
        "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
        "metrics": {"latencyMs": 5},
    }


@pytest.fixture
def bedrock(traced_api: TracedApi, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The chat function on Bedrock Converse, through a real (X-Ray patched) botocore client
    whose calls are answered before they leave the process (see ``before_call``)."""
    client = boto3.session.Session().client("bedrock-runtime", region_name="us-east-1")
    monkeypatch.setenv("MODEL_PROVIDER", "bedrock")
    monkeypatch.setenv("MODEL_ID", "anthropic.claude-test")
    monkeypatch.setattr(factory, "bedrock_clients", lambda settings: client)
    reset_services()
    yield client
    reset_services()


def failed_calls(capture: Capture, service: str) -> list[dict[str, Any]]:
    return [call for call in capture.aws_calls(service) if "cause" in call]


def test_turns_are_traced_with_dynamodb_subsegments(
    traced_api: TracedApi, capture: Capture
) -> None:
    # WHEN a turn remembers a fact
    reply = traced_api.chat(memory_update(ADD_ARG))

    # THEN the trace holds the handler's subsegment and one subsegment per DynamoDB call,
    # with the operation and the table, and nothing of the request
    assert reply.memory["status"] == "committed"
    [handler] = [s for s in capture.subsegments() if s["name"] == "## lambda_handler"]
    assert set(handler["annotations"]) == {"ColdStart", "Service"}
    assert handler["annotations"]["Service"] == "agent-memory"
    assert "metadata" not in handler  # capture_response stayed off, whatever the environment
    calls = capture.aws_calls("dynamodb")
    # (the load, and the commit that creates the ledger item of a turn this short)
    assert [call["aws"]["operation"] for call in calls] == ["Query", "TransactWriteItems"]
    assert {call["parent_id"] for call in calls} == {handler["id"]}
    assert calls[0]["aws"]["consistent_read"] is True
    assert capture.leaks() == []


def test_a_failed_aws_call_keeps_its_error_type_not_its_text(
    traced_api: TracedApi, capture: Capture
) -> None:
    # GIVEN a DynamoDB read that fails with a message quoting memory content
    message = f"One or more parameter values were invalid: {MEM} {ERR}"
    before_call(get_client(), "Query", lambda: client_error("ValidationException", message))

    # WHEN a turn runs
    traced_api.chat(MSG)

    # THEN the failed call's subsegment records the failure and the exception's type only
    [failed] = failed_calls(capture, "dynamodb")
    assert failed["aws"]["operation"] == "Query"
    assert failed["http"]["response"]["status"] == 400
    [exception] = failed["cause"]["exceptions"]
    assert exception["type"] == "ClientError"
    assert "message" not in exception
    assert exception["stack"]  # frames (file, line, function) are kept
    assert capture.leaks() == []


def test_bedrock_calls_are_traced_without_prompt_tool_use_or_output(
    bedrock: Any, traced_api: TracedApi, capture: Capture
) -> None:
    # GIVEN stored memory (in the prompt) and a model that calls the tool, then answers
    traced_api.seed()
    tool_use = {
        "toolUse": {"toolUseId": "t1", "name": "memory_update", "input": {"operations": [ADD_ARG]}}
    }
    replies = [
        converse_reply(tool_use, stop="tool_use"),
        converse_reply({"text": f"Noted, {OUT}."}, stop="end_turn"),
    ]
    before_call(bedrock, "Converse", lambda: success(replies.pop(0)), times=2)

    # WHEN a turn runs
    reply = traced_api.chat(f"{MSG}: remember this", history=HISTORY)

    # THEN both model calls are subsegments with their operation only, and nothing leaks
    assert reply.body["reply"] == f"Noted, {OUT}."
    assert reply.memory["status"] == "committed"
    calls = capture.aws_calls("bedrock-runtime")
    assert [call["aws"]["operation"] for call in calls] == ["Converse", "Converse"]
    assert capture.leaks() == []


def test_a_bedrock_error_quoting_the_prompt_keeps_its_type_not_its_text(
    bedrock: Any, traced_api: TracedApi, capture: Capture
) -> None:
    # GIVEN stored memory, and Bedrock rejecting the request with a message that quotes it
    traced_api.seed()
    message = f"messages.0.content.0.text: '{MSG}' and system '{MEM}' are invalid {ERR}"
    before_call(bedrock, "Converse", lambda: client_error("ValidationException", message))

    # WHEN a turn runs
    reply = traced_api.chat(MSG)

    # THEN the turn fails by code, the subsegment keeps the exception's type, nothing leaks
    assert reply.status == 502
    [failed] = failed_calls(capture, "bedrock-runtime")
    [exception] = failed["cause"]["exceptions"]
    assert exception["type"] == "ValidationException"
    assert "message" not in exception
    assert capture.leaks() == []


def test_an_exception_escaping_a_traced_handler_keeps_its_type_not_its_text(
    live_tracer: Tracer, capture: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a traced handler (as the functions decorate theirs) that raises an exception
    # quoting memory: the SDK records it whatever capture_error says
    @live_tracer.capture_lambda_handler(capture_response=False, capture_error=False)
    def explode(event: dict[str, Any], context: Any) -> dict[str, Any]:
        raise RuntimeError(f"could not store {MEM} for {UID}")

    monkeypatch.setenv("_X_AMZN_TRACE_ID", new_trace_header())

    # WHEN it runs
    with pytest.raises(RuntimeError):
        explode({}, LocalLambdaContext(function_name="chat"))

    # THEN its subsegment holds the fault and the exception's type, not its text
    [handler] = [s for s in capture.subsegments() if s["name"] == "## explode"]
    assert handler["fault"] is True
    [exception] = handler["cause"]["exceptions"]
    assert exception["type"] == "RuntimeError"
    assert "message" not in exception
    assert capture.leaks() == []


def test_the_sdk_would_record_content_that_the_redaction_removes() -> None:
    # GIVEN a subsegment as botocore's patcher fills it for a failed call: the exception
    # (with its message), whitelisted parameters naming the partition key, and metadata
    from aws_xray_sdk.core.models.segment import Segment
    from aws_xray_sdk.core.models.subsegment import Subsegment
    from botocore.exceptions import ClientError

    subsegment = Subsegment("dynamodb", "aws", Segment("chat"))
    error = ClientError({"Error": {"Code": "ValidationException", "Message": MEM}}, "PutItem")
    subsegment.add_exception(error, stack=[("/x/app.py", 3, "handler", "")], remote=True)
    subsegment.set_aws(
        {
            "operation": "PutItem",
            "table_name": "memory",
            "item_collection_metrics": {"ItemCollectionKey": {"user_id": {"S": UID}}},
        }
    )
    subsegment.put_metadata("response", {"content": ARG})
    raw = subsegment.serialize()
    assert all(sentinel in raw for sentinel in (MEM, UID, ARG))

    # WHEN it is redacted on its way to the daemon
    redacted = json.loads(RedactedEntity(subsegment).serialize())

    # THEN the content is gone and the operational shape is kept
    assert not any(sentinel in json.dumps(redacted) for sentinel in (MEM, UID, ARG))
    assert redacted["aws"] == {"operation": "PutItem", "table_name": "memory"}
    assert redacted["cause"]["exceptions"][0]["type"] == "ClientError"
    assert redacted["name"] == "dynamodb"


PROBE = """
import json, sys
from agent_memory_tools.local.functions import function_module
module = function_module("chat")
import botocore.client
from agent_memory.telemetry.tracing import tracer
emitter = getattr(tracer.provider, "emitter", None)
print(json.dumps({
    "xray_sdk_imported": "aws_xray_sdk.core" in sys.modules,
    "botocore_patched": hasattr(botocore.client, "_xray_enabled"),
    "emitter": type(emitter).__name__,
}))
"""


def cold_start(**environment: str) -> dict[str, Any]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("POWERTOOLS", "LAMBDA_TASK_ROOT", "AWS_XRAY", "_X_AMZN"))
    }
    env.update({"AWS_REGION": "us-east-1", "AGENT_MEMORY_ROOT": str(project_root())})
    env.update(environment)
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.slow
@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        (
            {"LAMBDA_TASK_ROOT": "<tmp>", "POWERTOOLS_TRACE_DISABLED": "false"},
            {"xray_sdk_imported": True, "botocore_patched": True, "emitter": "RedactingEmitter"},
        ),
        (
            {"LAMBDA_TASK_ROOT": "<tmp>", "POWERTOOLS_TRACE_DISABLED": "true"},
            {"xray_sdk_imported": False, "botocore_patched": False, "emitter": "NoneType"},
        ),
        (
            {},  # outside Lambda
            {"xray_sdk_imported": False, "botocore_patched": False, "emitter": "NoneType"},
        ),
    ],
)
def test_the_xray_sdk_is_imported_only_where_tracing_is_on(
    environment: dict[str, str], expected: dict[str, Any], tmp_path: Any
) -> None:
    # GIVEN a cold start of the chat function in this environment
    if "LAMBDA_TASK_ROOT" in environment:
        environment = {**environment, "LAMBDA_TASK_ROOT": str(tmp_path)}
    # WHEN its module is imported THEN the SDK is loaded (and botocore patched, the output
    # redacted) only where tracing is on
    assert cold_start(**environment) == expected
