"""template.yaml: CORS for browsers, the authorizer's revocation window, throttling and
concurrency (issue 12, items 8, 9 and 13)."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from agent_memory.auth import AuthSettings
from agent_memory.auth.config import MAX_LEEWAY_SECONDS
from agent_memory.repository.tables import default_template_path, load_template

TEMPLATE = load_template()
RESOURCES: dict[str, Any] = TEMPLATE["Resources"]
PARAMETERS: dict[str, Any] = TEMPLATE["Parameters"]
API: dict[str, Any] = RESOURCES["HttpApi"]["Properties"]
SAMCONFIG = tomllib.loads(
    (default_template_path().parent / "samconfig.toml").read_text(encoding="utf-8")
)
LOCAL_ORIGINS = ("http://127.0.0.1:3000", "http://localhost:3000")


def overrides(environment: str) -> dict[str, str]:
    entries = SAMCONFIG[environment]["deploy"]["parameters"]["parameter_overrides"]
    return {key: value.strip('"') for key, _, value in (e.partition("=") for e in entries)}


def test_cors_origins_are_set_per_environment_and_never_default_to_the_local_stack() -> None:
    cors = API["CorsConfiguration"]
    assert cors["AllowOrigins"] == {"Ref": "CorsAllowOrigins"}
    assert "Default" not in PARAMETERS["CorsAllowOrigins"]
    for environment in ("default", "prod"):
        origins = overrides(environment)["CorsAllowOrigins"].split(",")
        assert origins
        assert not set(origins) & set(LOCAL_ORIGINS)


def test_cors_allows_the_request_headers_and_exposes_the_ones_clients_read() -> None:
    cors = API["CorsConfiguration"]
    assert {h.lower() for h in cors["AllowHeaders"]} == {
        "authorization",
        "content-type",
        "idempotency-key",
    }
    assert {h.lower() for h in cors["ExposeHeaders"]} >= {
        "idempotent-replayed",
        "apigw-requestid",
    }
    assert {"GET", "POST", "PATCH", "DELETE", "OPTIONS"} <= set(cors["AllowMethods"])


def test_a_token_is_accepted_at_most_65_s_after_its_exp_by_default() -> None:
    identity = API["Auth"]["Authorizers"]["JwtAuthorizer"]["Identity"]
    assert identity["ReauthorizeEvery"] == {"Ref": "AuthorizerCacheSeconds"}
    cache = PARAMETERS["AuthorizerCacheSeconds"]["Default"]
    leeway = AuthSettings(issuer="https://issuer.example", audience="a").leeway_seconds
    assert cache <= 60
    assert MAX_LEEWAY_SECONDS <= 5
    assert cache + leeway <= 65
    assert int(overrides("prod")["AuthorizerCacheSeconds"]) <= 60


def test_the_stage_and_the_chat_route_are_throttled() -> None:
    default = API["DefaultRouteSettings"]
    assert default == {
        "ThrottlingRateLimit": {"Ref": "ApiThrottleRateLimit"},
        "ThrottlingBurstLimit": {"Ref": "ApiThrottleBurstLimit"},
    }
    chat = API["RouteSettings"]["POST /chat"]
    assert chat == {
        "ThrottlingRateLimit": {"Ref": "ChatThrottleRateLimit"},
        "ThrottlingBurstLimit": {"Ref": "ChatThrottleBurstLimit"},
    }
    assert (
        PARAMETERS["ChatThrottleRateLimit"]["Default"]
        <= PARAMETERS["ApiThrottleRateLimit"]["Default"]
    )


@pytest.mark.parametrize(
    ("function", "parameter"),
    [
        ("ChatFunction", "ChatReservedConcurrency"),
        ("MemoryApiFunction", "MemoryApiReservedConcurrency"),
    ],
)
def test_reserved_concurrency_bounds_each_user_facing_function_and_throttles_alarm(
    function: str, parameter: str
) -> None:
    properties = RESOURCES[function]["Properties"]
    assert properties["ReservedConcurrentExecutions"] == {"Ref": parameter}
    assert PARAMETERS[parameter]["MinValue"] >= 1
    alarm = RESOURCES[f"{function}ThrottlesAlarm"]["Properties"]
    assert alarm["MetricName"] == "Throttles"
    assert alarm["Dimensions"][0]["Value"] == {"Ref": function}


def test_the_stages_429s_are_counted_from_its_access_log_and_alarmed() -> None:
    # GIVEN the metric filter on the access log and the alarm on its metric
    metric = RESOURCES["ApiThrottledRequestsMetric"]["Properties"]
    alarm = RESOURCES["ApiThrottlesAlarm"]["Properties"]
    access_format = RESOURCES["HttpApi"]["Properties"]["AccessLogSettings"]["Format"]

    # THEN the filter reads the status the access log writes (a quoted string) and the
    # alarm watches exactly the metric the filter makes, at a threshold operators can set
    assert '"status":"$context.status"' in access_format
    assert metric["LogGroupName"] == {"Ref": "ApiAccessLogs"}
    assert metric["FilterPattern"] == '{ $.status = "429" }'
    (transformation,) = metric["MetricTransformations"]
    assert (alarm["Namespace"], alarm["MetricName"]) == (
        transformation["MetricNamespace"],
        transformation["MetricName"],
    )
    assert alarm["Threshold"] == {"Ref": "ApiThrottlesThreshold"}
    assert PARAMETERS["ApiThrottlesThreshold"]["MinValue"] >= 1
