"""template.yaml and samconfig.toml, read as data: the alarms watch metrics the code really
emits (a renamed metric, outcome or dimension breaks this test), the dashboard shows them,
AppConfig gets exactly the least IAM it needs, and both deploy environments ship safely."""

from __future__ import annotations

import json
import re
import tomllib
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent_memory.ledger import OutcomeStatus
from agent_memory.repository.tables import default_template_path, load_template
from agent_memory.service import memory_flag
from agent_memory.service.retries import RESPONSE_TTL_S
from agent_memory.telemetry import NAMESPACE, SERVICE
from agent_memory_tools.operations.target import MEMORY_TABLE_OUTPUT, TURN_LEDGER_TABLE_OUTPUT

TEMPLATE = load_template()
RESOURCES: dict[str, Any] = TEMPLATE["Resources"]
PARAMETERS: dict[str, Any] = TEMPLATE["Parameters"]
ROOT = default_template_path().parent
CODE_DIRS = (ROOT / "layers" / "agent_memory" / "agent_memory", ROOT / "functions")
OUTCOMES = frozenset(typing.get_args(OutcomeStatus))
SAMCONFIG = tomllib.loads((ROOT / "samconfig.toml").read_text(encoding="utf-8"))


def resources_of(kind: str) -> dict[str, dict[str, Any]]:
    return {name: r for name, r in RESOURCES.items() if r["Type"] == kind}


ALARMS = resources_of("AWS::CloudWatch::Alarm")
FUNCTIONS = resources_of("AWS::Serverless::Function")
TABLES = resources_of("AWS::DynamoDB::Table")


def metric_stats(alarm: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Each metric an alarm reads: ``{"Namespace", "MetricName", "Dimensions": {...}}``."""
    properties = alarm["Properties"]
    if "MetricName" in properties:
        yield {
            "Namespace": properties["Namespace"],
            "MetricName": properties["MetricName"],
            "Dimensions": {d["Name"]: d["Value"] for d in properties.get("Dimensions", [])},
        }
    for query in properties.get("Metrics", []):
        if "MetricStat" in query:
            metric = query["MetricStat"]["Metric"]
            yield {
                "Namespace": metric["Namespace"],
                "MetricName": metric["MetricName"],
                "Dimensions": {d["Name"]: d["Value"] for d in metric.get("Dimensions", [])},
            }


def custom_metrics() -> list[dict[str, Any]]:
    return [m for a in ALARMS.values() for m in metric_stats(a) if m["Namespace"] == NAMESPACE]


def dashboard_body() -> tuple[dict[str, Any], str]:
    """The dashboard as JSON (``${...}`` substituted by placeholders) and its raw text."""
    body = RESOURCES["OperationsDashboard"]["Properties"]["DashboardBody"]["Fn::Sub"]
    return json.loads(re.sub(r"\$\{[^}]+\}", "0", body)), body


def dashboard_metric_names() -> set[str]:
    parsed, _ = dashboard_body()
    names: set[str] = set()
    for widget in parsed["widgets"]:
        for row in widget.get("properties", {}).get("metrics", []):
            if isinstance(row[0], str) and row[0] == NAMESPACE:
                names.add(row[1])
            expression = row[0].get("expression", "") if isinstance(row[0], dict) else ""
            if f"{{{NAMESPACE}," in expression:
                names.update(re.findall(r'MetricName="(\w+)"', expression))
    return names


def emitted_in_code(name: str) -> bool:
    """The metric name appears as a string literal in the Lambda code (layer or handlers)."""
    literal = re.compile(rf"""["']{re.escape(name)}["']""")
    return any(
        literal.search(path.read_text(encoding="utf-8"))
        for directory in CODE_DIRS
        for path in directory.rglob("*.py")
    )


# -- alarms ------------------------------------------------------------------------------


def test_alarms_and_dashboard_only_watch_metrics_the_code_emits() -> None:
    watched = {m["MetricName"] for m in custom_metrics()} | dashboard_metric_names()
    assert watched >= {"Turns", "Edits", "ExpiredTurns", "AuthorizerDenials", "MemoryUnavailable"}
    missing = sorted(name for name in watched if not emitted_in_code(name))
    assert missing == [], f"no code emits {missing}: a metric was renamed or removed"


def test_custom_metric_alarms_use_the_codes_dimensions_and_outcomes() -> None:
    for metric in custom_metrics():
        dimensions = metric["Dimensions"]
        assert dimensions["service"] == SERVICE
        assert set(dimensions) <= {"service", "outcome"}
        if metric["MetricName"] in ("Turns", "Edits"):
            assert dimensions["outcome"] in OUTCOMES
        else:
            assert "outcome" not in dimensions


@pytest.mark.parametrize(
    ("alarm", "metric", "outcome"),
    [
        ("CommitErrorsAlarm", "Turns", "error"),
        ("CommitErrorsAlarm", "Edits", "error"),
        ("CommitConflictsAlarm", "Turns", "conflict"),
        ("CommitConflictsAlarm", "Edits", "conflict"),
        ("MemoryUnavailableAlarm", "Turns", "unavailable"),
        ("ExpiredTurnsAlarm", "ExpiredTurns", None),
        ("AuthorizerDenialsAlarm", "AuthorizerDenials", None),
    ],
)
def test_the_service_alarms(alarm: str, metric: str, outcome: str | None) -> None:
    watched = [
        (m["MetricName"], m["Dimensions"].get("outcome")) for m in metric_stats(ALARMS[alarm])
    ]
    assert (metric, outcome) in watched


def test_the_denials_alarm_threshold_is_a_parameter() -> None:
    properties = ALARMS["AuthorizerDenialsAlarm"]["Properties"]
    assert properties["Threshold"] == {"Ref": "AuthorizerDenialsThreshold"}
    assert PARAMETERS["AuthorizerDenialsThreshold"]["Type"] == "Number"


@pytest.mark.parametrize("function", sorted(FUNCTIONS))
def test_every_function_has_error_and_throttle_alarms(function: str) -> None:
    watched = {
        (m["MetricName"], json.dumps(m["Dimensions"]["FunctionName"]))
        for alarm in ALARMS.values()
        for m in metric_stats(alarm)
        if m["Namespace"] == "AWS/Lambda"
    }
    reference = json.dumps({"Ref": function})
    assert ("Errors", reference) in watched
    assert ("Throttles", reference) in watched


@pytest.mark.parametrize("table", sorted(TABLES))
def test_every_table_has_a_throttling_alarm(table: str) -> None:
    watched = {
        (m["MetricName"], json.dumps(m["Dimensions"]["TableName"]))
        for alarm in ALARMS.values()
        for m in metric_stats(alarm)
        if m["Namespace"] == "AWS/DynamoDB"
    }
    reference = json.dumps({"Ref": table})
    assert ("ReadThrottleEvents", reference) in watched
    assert ("WriteThrottleEvents", reference) in watched


def test_alarms_are_optional_and_notify_the_optional_topics() -> None:
    assert PARAMETERS["AlarmsEnabled"]["Default"] == "true"
    assert PARAMETERS["AlarmEmail"]["Default"] == ""
    assert PARAMETERS["AlarmTopicArn"]["Default"] == ""
    assert RESOURCES["AlarmTopic"]["Condition"] == "CreateAlarmTopic"
    for name, alarm in ALARMS.items():
        properties = alarm["Properties"]
        assert alarm["Condition"] == "CreateAlarms", name
        assert properties["TreatMissingData"] == "notBreaching", name
        assert properties["ComparisonOperator"] == "GreaterThanOrEqualToThreshold", name
        for actions in ("AlarmActions", "OKActions"):
            assert properties[actions] == [
                {"Fn::If": ["CreateAlarmTopic", {"Ref": "AlarmTopic"}, {"Ref": "AWS::NoValue"}]},
                {
                    "Fn::If": [
                        "NotifyExistingTopic",
                        {"Ref": "AlarmTopicArn"},
                        {"Ref": "AWS::NoValue"},
                    ]
                },
            ], name


# -- dashboard ---------------------------------------------------------------------------


def test_the_dashboard_shows_the_service_every_function_and_both_tables() -> None:
    assert RESOURCES["OperationsDashboard"]["Condition"] == "CreateDashboard"
    _, raw = dashboard_body()
    for name in (*FUNCTIONS, *TABLES, "HttpApi"):
        assert f"${{{name}}}" in raw, name
    assert dashboard_metric_names() >= {
        "Turns",
        "Edits",
        "MemoryUnavailable",
        "TurnDuration",
        "CommitRetries",
        "ExpiredTurns",
        "AuthorizerDenials",
    }


# -- AppConfig ---------------------------------------------------------------------------

APPCONFIG_ENV = {
    "APPCONFIG_APPLICATION": "AppConfigApplicationId",
    "APPCONFIG_ENVIRONMENT": "AppConfigEnvironmentId",
    "APPCONFIG_PROFILE": "AppConfigProfileId",
}


def test_appconfig_is_optional_and_wired_into_the_functions_that_read_the_flag() -> None:
    source = Path(memory_flag.__file__).read_text(encoding="utf-8")
    for variable, parameter in APPCONFIG_ENV.items():
        assert f'"{variable}"' in source  # the names the flag really reads
        assert PARAMETERS[parameter]["Default"] == ""
        assert re.fullmatch(PARAMETERS[parameter]["AllowedPattern"], "")
        assert re.fullmatch(PARAMETERS[parameter]["AllowedPattern"], "abc1234")
    for name, function in FUNCTIONS.items():
        variables = function["Properties"].get("Environment", {}).get("Variables", {})
        if name in ("ChatFunction", "MemoryApiFunction", "WebSocketFunction"):
            for variable, parameter in APPCONFIG_ENV.items():
                assert variables[variable] == {"Ref": parameter}
            assert variables["MEMORY_ENABLED"] == {"Ref": "MemoryEnabled"}
        else:
            assert not set(APPCONFIG_ENV) & set(variables), name


def test_appconfig_gets_the_least_iam_on_that_one_profile() -> None:
    policy = RESOURCES["AppConfigFlagPolicy"]
    assert policy["Type"] == "AWS::IAM::Policy"
    assert policy["Condition"] == "UseAppConfig"
    properties = policy["Properties"]
    assert sorted(r["Ref"] for r in properties["Roles"]) == [
        "ChatFunctionRole",
        "MemoryApiFunctionRole",
        "WebSocketFunctionRole",
    ]
    [statement] = properties["PolicyDocument"]["Statement"]
    assert statement["Effect"] == "Allow"
    assert sorted(statement["Action"]) == [
        "appconfig:GetLatestConfiguration",
        "appconfig:StartConfigurationSession",
    ]
    assert statement["Resource"] == {
        "Fn::Sub": "arn:${AWS::Partition}:appconfig:${AWS::Region}:${AWS::AccountId}"
        ":application/${AppConfigApplicationId}/environment/${AppConfigEnvironmentId}"
        "/configuration/${AppConfigProfileId}"
    }
    condition = TEMPLATE["Conditions"]["UseAppConfig"]["Fn::And"]
    assert len(condition) == 3  # all three ids, or the env flag alone


# -- the probe after a deploy ------------------------------------------------------------


def test_outputs_give_the_probe_its_tables_and_command() -> None:
    outputs = TEMPLATE["Outputs"]
    assert outputs[MEMORY_TABLE_OUTPUT]["Value"] == {"Ref": "MemoryTable"}
    assert outputs[TURN_LEDGER_TABLE_OUTPUT]["Value"] == {"Ref": "TurnLedgerTable"}
    assert (
        "agent-memory probe --stack ${AWS::StackName}"
        in outputs["ProbeCommand"]["Value"]["Fn::Sub"]
    )


# -- samconfig.toml ----------------------------------------------------------------------


def overrides(environment: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for entry in SAMCONFIG[environment]["deploy"]["parameters"]["parameter_overrides"]:
        key, _, value = entry.partition("=")
        values[key] = value.strip('"')
    return values


@pytest.mark.parametrize("environment", ["default", "prod"])
def test_each_environment_deploys_its_own_stack_with_memory_off(environment: str) -> None:
    deploy = SAMCONFIG[environment]["deploy"]["parameters"]
    values = overrides(environment)
    assert set(values) <= set(PARAMETERS), "an override names no template parameter"
    assert values["MemoryEnabled"] == "false"
    assert values["DebugContentCapture"] == "false"
    assert deploy["capabilities"] == "CAPABILITY_IAM"
    assert SAMCONFIG[environment]["global"]["parameters"]["stack_name"] == (
        "agent-memory-dev" if environment == "default" else "agent-memory-prod"
    )
    for name in ("AlarmsEnabled", "DashboardEnabled", "DeletionProtection"):
        assert values[name] in PARAMETERS[name]["AllowedValues"]


def test_prod_is_protected_watched_and_confirmed() -> None:
    values = overrides("prod")
    assert values["Stage"] == "prod"
    assert values["DeletionProtection"] == "true"
    assert values["AlarmsEnabled"] == "true"
    assert values["ModelProvider"] == "bedrock"  # the rules model is for test stages only
    assert SAMCONFIG["prod"]["deploy"]["parameters"]["confirm_changeset"] is True
    assert set(APPCONFIG_ENV.values()) <= set(values)


# -- retention the privacy policy states -------------------------------------------------


# The idempotency table holds chat replies for an hour: a backup would keep them for weeks.
BACKED_UP_TABLES = sorted(set(TABLES) - {"IdempotencyTable"})


@pytest.mark.parametrize("table", BACKED_UP_TABLES)
def test_backups_keep_deleted_data_for_the_stated_recovery_period(table: str) -> None:
    pitr = TABLES[table]["Properties"]["PointInTimeRecoverySpecification"]
    assert pitr == {
        "PointInTimeRecoveryEnabled": True,
        "RecoveryPeriodInDays": {"Ref": "PitrRecoveryPeriodDays"},
    }
    assert PARAMETERS["PitrRecoveryPeriodDays"]["Default"] == 35
    privacy = (ROOT / "docs" / "privacy.md").read_text(encoding="utf-8")
    assert "35 days" in privacy
    assert "PitrRecoveryPeriodDays" in privacy


def test_stored_chat_responses_expire_in_an_hour_and_have_no_backup() -> None:
    table = TABLES["IdempotencyTable"]["Properties"]
    assert table["TimeToLiveSpecification"] == {"AttributeName": "expiration", "Enabled": True}
    assert "PointInTimeRecoverySpecification" not in table
    assert RESPONSE_TTL_S == 3600
    privacy = (ROOT / "docs" / "privacy.md").read_text(encoding="utf-8")
    assert "IdempotencyTable" in privacy
    assert "one hour" in privacy


@pytest.mark.parametrize("function", sorted(FUNCTIONS))
def test_every_function_logs_to_a_group_that_expires(function: str) -> None:
    group = FUNCTIONS[function]["Properties"]["LoggingConfig"]["LogGroup"]["Ref"]
    assert RESOURCES[group]["Type"] == "AWS::Logs::LogGroup"
    assert RESOURCES[group]["Properties"]["RetentionInDays"] == {"Ref": "LogRetentionDays"}


def test_operational_defaults() -> None:
    assert PARAMETERS["ModelProvider"]["Default"] == "bedrock"
    assert PARAMETERS["AlarmsEnabled"]["Default"] == "true"
    assert PARAMETERS["DashboardEnabled"]["Default"] == "true"
    for function in ("ChatFunction", "EvalFunction", "WebSocketFunction"):
        variables = FUNCTIONS[function]["Properties"]["Environment"]["Variables"]
        assert variables["MODEL_PROVIDER"] == {"Ref": "ModelProvider"}
