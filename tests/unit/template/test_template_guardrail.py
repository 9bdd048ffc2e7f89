"""The optional guardrail in template.yaml: off by default, least privilege on that one
guardrail, wired into the functions that stage memory writes."""

from __future__ import annotations

from typing import Any

from agent_memory.repository.tables import load_template

TEMPLATE = load_template()
RESOURCES: dict[str, Any] = TEMPLATE["Resources"]
WRITERS = ("ChatFunction", "MemoryApiFunction", "WebSocketFunction")


def test_the_guardrail_is_off_by_default() -> None:
    parameters = TEMPLATE["Parameters"]
    assert parameters["GuardrailId"]["Default"] == ""
    assert TEMPLATE["Conditions"]["UseGuardrail"] == {
        "Fn::Not": [{"Fn::Equals": [{"Ref": "GuardrailId"}, ""]}]
    }


def test_apply_guardrail_is_allowed_on_that_guardrail_only() -> None:
    policy = RESOURCES["GuardrailPolicy"]
    assert policy["Condition"] == "UseGuardrail"
    properties = policy["Properties"]
    assert sorted(role["Ref"] for role in properties["Roles"]) == sorted(
        f"{function}Role" for function in WRITERS
    )
    [statement] = properties["PolicyDocument"]["Statement"]
    assert statement["Effect"] == "Allow"
    assert statement["Action"] == "bedrock:ApplyGuardrail"
    assert statement["Resource"] == {
        "Fn::Sub": "arn:${AWS::Partition}:bedrock:${AWS::Region}:${AWS::AccountId}"
        ":guardrail/${GuardrailId}"
    }


def test_the_writing_functions_know_the_guardrail_and_no_other_does() -> None:
    for name, resource in RESOURCES.items():
        if resource["Type"] != "AWS::Serverless::Function":
            continue
        variables = resource["Properties"].get("Environment", {}).get("Variables", {})
        if name in WRITERS:
            assert variables["GUARDRAIL_ID"] == {"Ref": "GuardrailId"}
            assert variables["GUARDRAIL_VERSION"] == {"Ref": "GuardrailVersion"}
        else:
            assert "GUARDRAIL_ID" not in variables, name
