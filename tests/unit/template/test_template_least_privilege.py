"""template.yaml, read as data: least privilege, retained tables, safe defaults."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent_memory.repository.tables import load_template

TEMPLATE = load_template()
RESOURCES: dict[str, Any] = TEMPLATE["Resources"]
TABLES = ("MemoryTable", "TurnLedgerTable", "IdempotencyTable")


def statements(function: str) -> list[dict[str, Any]]:
    policies = RESOURCES[function]["Properties"].get("Policies", [])
    found: list[dict[str, Any]] = []
    for policy in policies:
        assert isinstance(policy, dict), "inline statements only, no managed policy templates"
        assert "Statement" in policy
        found.extend(policy["Statement"])
    return found


def table_actions(function: str) -> dict[str, set[str]]:
    """The DynamoDB actions a function may take, by table (index ARNs under their table)."""
    granted: dict[str, set[str]] = {}
    for statement in statements(function):
        assert statement["Effect"] == "Allow"
        actions = (
            statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
        )
        assert all(not action.endswith("*") for action in actions), (
            f"{function} uses a wildcard action"
        )
        resources = (
            statement["Resource"]
            if isinstance(statement["Resource"], list)
            else [statement["Resource"]]
        )
        text = json.dumps(resources)
        for table in TABLES:
            if table in text:
                granted.setdefault(table, set()).update(
                    a for a in actions if a.startswith("dynamodb:")
                )
        if any(a.startswith("dynamodb:") for a in actions):
            assert any(table in text for table in TABLES), (
                f"{function} has DynamoDB rights beyond our tables"
            )
    return granted


@pytest.mark.parametrize(
    "function", ["AuthorizerFunction", "WebSocketAuthorizerFunction", "EvalFunction"]
)
def test_authorizer_and_eval_have_no_table_permission(function: str) -> None:
    assert table_actions(function) == {}
    environment = RESOURCES[function]["Properties"].get("Environment", {}).get("Variables", {})
    assert not {"MEMORY_TABLE_NAME", "TURN_LEDGER_TABLE_NAME"} & set(environment)


def test_chat_has_only_what_the_turn_protocol_needs() -> None:
    assert table_actions("ChatFunction") == {
        "MemoryTable": {
            "dynamodb:Query",
            "dynamodb:PutItem",
            "dynamodb:DeleteItem",
            "dynamodb:ConditionCheckItem",
        },
        "TurnLedgerTable": {"dynamodb:PutItem", "dynamodb:GetItem", "dynamodb:UpdateItem"},
        # Powertools' idempotency: claim, read, complete, release after a failed attempt.
        "IdempotencyTable": {
            "dynamodb:PutItem",
            "dynamodb:GetItem",
            "dynamodb:UpdateItem",
            "dynamodb:DeleteItem",
        },
    }


def test_only_the_chat_function_may_touch_the_stored_chat_responses() -> None:
    # GIVEN every function of the template
    functions = [
        name
        for name, resource in RESOURCES.items()
        if resource["Type"] == "AWS::Serverless::Function"
    ]
    # THEN only the chat function has rights on the idempotency table, or its name
    for function in functions:
        environment = RESOURCES[function]["Properties"].get("Environment", {}).get("Variables", {})
        if function == "ChatFunction":
            assert environment["IDEMPOTENCY_TABLE_NAME"] == {"Ref": "IdempotencyTable"}
            continue
        assert "IdempotencyTable" not in table_actions(function), function
        assert "IDEMPOTENCY_TABLE_NAME" not in environment, function


def test_the_memory_api_has_only_what_its_routes_need() -> None:
    # UpdateItem on MemoryTable: DELETE /memory draws a new forget generation, PUT
    # /memory/settings sets the write mode; GetItem: a history record or a proposal by id.
    # It needs no Query on the ledger any more (the fence replaced cancelling each open turn).
    assert table_actions("MemoryApiFunction") == {
        "MemoryTable": {
            "dynamodb:Query",
            "dynamodb:GetItem",
            "dynamodb:PutItem",
            "dynamodb:DeleteItem",
            "dynamodb:UpdateItem",
            "dynamodb:ConditionCheckItem",
        },
        "TurnLedgerTable": {
            "dynamodb:PutItem",
            "dynamodb:GetItem",
            "dynamodb:UpdateItem",
        },
    }


def test_cleanup_touches_only_the_ledger() -> None:
    assert table_actions("CleanupFunction") == {
        "TurnLedgerTable": {"dynamodb:Query", "dynamodb:UpdateItem"}
    }


@pytest.mark.parametrize("table", TABLES)
def test_tables_survive_stack_deletion_and_replacement(table: str) -> None:
    resource = RESOURCES[table]
    assert resource["DeletionPolicy"] == "Retain"
    assert resource["UpdateReplacePolicy"] == "Retain"
    assert resource["Properties"]["DeletionProtectionEnabled"] == {"Ref": "DeletionProtection"}
    if table == "IdempotencyTable":
        # Hour-long chat replies: no backup that would keep them for weeks (privacy.md).
        assert "PointInTimeRecoverySpecification" not in resource["Properties"]
        return
    assert (
        resource["Properties"]["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"]
        is True
    )


def test_the_ledger_expires_by_ttl_and_indexes_open_turns_sparsely() -> None:
    ledger = RESOURCES["TurnLedgerTable"]["Properties"]
    assert ledger["TimeToLiveSpecification"] == {"AttributeName": "expires_at", "Enabled": True}
    [index] = ledger["GlobalSecondaryIndexes"]
    assert [key["AttributeName"] for key in index["KeySchema"]] == ["open_shard", "deadline_ms"]


def test_safe_defaults_for_the_rollout() -> None:
    parameters = TEMPLATE["Parameters"]
    assert parameters["MemoryEnabled"]["Default"] == "false"
    assert parameters["DebugContentCapture"]["Default"] == "false"
    assert parameters["Architecture"]["Default"] == "arm64"
    variables = TEMPLATE["Globals"]["Function"]["Environment"]["Variables"]
    assert variables["POWERTOOLS_TRACER_CAPTURE_RESPONSE"] == "false"
    assert variables["POWERTOOLS_TRACER_CAPTURE_ERROR"] == "false"
    assert variables["POWERTOOLS_LOGGER_LOG_EVENT"] == "false"


def test_user_routes_use_the_lambda_authorizer_and_eval_uses_iam() -> None:
    api = RESOURCES["HttpApi"]["Properties"]
    authorizer = api["Auth"]["Authorizers"]["JwtAuthorizer"]
    assert api["Auth"]["DefaultAuthorizer"] == "JwtAuthorizer"
    assert authorizer["AuthorizerPayloadFormatVersion"] == "2.0"
    assert authorizer["EnableSimpleResponses"] is True
    assert authorizer["Identity"]["Headers"] == ["Authorization"]
    assert authorizer["Identity"]["ReauthorizeEvery"] == {"Ref": "AuthorizerCacheSeconds"}
    assert 0 < TEMPLATE["Parameters"]["AuthorizerCacheSeconds"]["Default"] <= 60
    eval_event = RESOURCES["EvalFunction"]["Properties"]["Events"]["EvalChat"]["Properties"]
    assert eval_event["Auth"] == {"Authorizer": "AWS_IAM"}


def test_history_and_proposals_expire_by_ttl_after_the_retention_parameter() -> None:
    # GIVEN the memory table and the functions that write history records
    memory = RESOURCES["MemoryTable"]["Properties"]
    parameter = TEMPLATE["Parameters"]["HistoryRetentionDays"]
    # THEN the table's TTL attribute is the one the records carry, the retention defaults
    # to 30 days, and every function that commits reads it
    assert memory["TimeToLiveSpecification"] == {"AttributeName": "expires_at", "Enabled": True}
    assert parameter["Default"] == 30
    for function in ("ChatFunction", "MemoryApiFunction"):
        variables = RESOURCES[function]["Properties"]["Environment"]["Variables"]
        assert variables["HISTORY_RETENTION_DAYS"] == {"Ref": "HistoryRetentionDays"}


def test_every_memory_api_route_is_in_the_template() -> None:
    # GIVEN the memory API function's routes, as the template wires them
    events = RESOURCES["MemoryApiFunction"]["Properties"]["Events"].values()
    routes = {(e["Properties"]["Method"], e["Properties"]["Path"]) for e in events}
    # THEN the user-control routes of the contract are all there
    assert routes >= {
        ("GET", "/memory/history"),
        ("DELETE", "/memory/history"),
        ("POST", "/memory/undo"),
        ("GET", "/memory/settings"),
        ("PUT", "/memory/settings"),
        ("GET", "/memory/proposals"),
        ("POST", "/memory/proposals/{proposal_id}/approve"),
        ("POST", "/memory/proposals/{proposal_id}/reject"),
    }
