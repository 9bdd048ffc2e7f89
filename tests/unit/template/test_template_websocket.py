"""template.yaml, read as data: the WebSocket API of streamed turns (DESIGN.md "Streaming
turns (WebSocket)"): its routes, the bearer-subprotocol authorizer, logs without the token,
and the least privilege of its function."""

from __future__ import annotations

import json
from typing import Any

from agent_memory.repository.tables import load_template

TEMPLATE = load_template()
RESOURCES: dict[str, Any] = TEMPLATE["Resources"]


def of_type(kind: str) -> dict[str, dict[str, Any]]:
    return {name: r["Properties"] for name, r in RESOURCES.items() if r["Type"] == kind}


def test_a_websocket_api_routed_on_the_frames_action() -> None:
    [api] = [
        p for p in of_type("AWS::ApiGatewayV2::Api").values() if p["ProtocolType"] == "WEBSOCKET"
    ]
    assert api["RouteSelectionExpression"] == "$request.body.action"
    routes = {p["RouteKey"]: p for p in of_type("AWS::ApiGatewayV2::Route").values()}
    assert set(routes) == {"$connect", "$disconnect", "chat", "cancel", "$default"}
    for key, route in routes.items():
        assert route["ApiId"] == {"Ref": "WebSocketApi"}, key
        assert route["Target"] == {"Fn::Sub": "integrations/${WebSocketIntegration}"}, key
    # Only $connect is authorized: API Gateway hands its context to every later route.
    assert routes["$connect"]["AuthorizationType"] == "CUSTOM"
    assert routes["$connect"]["AuthorizerId"] == {"Ref": "WebSocketAuthorizer"}
    assert all("AuthorizerId" not in r for k, r in routes.items() if k != "$connect")


def test_connect_is_authorized_by_the_same_verifier_from_the_subprotocol_header() -> None:
    authorizer = RESOURCES["WebSocketAuthorizer"]["Properties"]
    assert authorizer["AuthorizerType"] == "REQUEST"
    assert authorizer["IdentitySource"] == ["route.request.header.Sec-WebSocket-Protocol"]
    assert "WebSocketAuthorizerFunction.Arn" in authorizer["AuthorizerUri"]["Fn::Sub"]
    function = RESOURCES["WebSocketAuthorizerFunction"]["Properties"]
    http_function = RESOURCES["AuthorizerFunction"]["Properties"]
    assert function["CodeUri"] == http_function["CodeUri"] == "functions/authorizer/"
    assert function["Handler"] == "app.websocket_handler"
    assert function["Environment"] == http_function["Environment"]


def test_one_function_serves_every_route_through_one_proxy_integration() -> None:
    integration = RESOURCES["WebSocketIntegration"]["Properties"]
    assert integration["IntegrationType"] == "AWS_PROXY"
    assert "WebSocketFunction.Arn" in integration["IntegrationUri"]["Fn::Sub"]
    assert RESOURCES["WebSocketFunction"]["Properties"]["CodeUri"] == "functions/websocket/"


def test_the_stage_logs_connections_without_the_token_or_any_frame() -> None:
    stage = RESOURCES["WebSocketStage"]["Properties"]
    assert stage["DefaultRouteSettings"]["DataTraceEnabled"] is False
    log_format = stage["AccessLogSettings"]["Format"]
    json.loads(log_format)  # one JSON object per line
    lowered = log_format.lower()
    for leak in ("header", "querystring", "body", "sec-websocket-protocol", "principalid"):
        assert leak not in lowered, leak
    assert stage["AccessLogSettings"]["DestinationArn"] == {
        "Fn::GetAtt": ["WebSocketAccessLogs", "Arn"]
    }


def test_the_function_manages_connections_of_this_api_only() -> None:
    statements = RESOURCES["WebSocketFunction"]["Properties"]["Policies"][0]["Statement"]
    [manage] = [s for s in statements if "execute-api:ManageConnections" in s["Action"]]
    assert manage["Action"] == ["execute-api:ManageConnections"]
    resources = [r["Fn::Sub"] for r in manage["Resource"]]
    assert resources == [
        "arn:${AWS::Partition}:execute-api:${AWS::Region}:${AWS::AccountId}"
        f":${{WebSocketApi}}/${{Stage}}/{method}/@connections/*"
        for method in ("POST", "GET")
    ]
    tables = {
        json.dumps(s["Resource"]): set(s["Action"])
        for s in statements
        if any(a.startswith("dynamodb:") for a in s["Action"])
    }
    assert tables == {
        json.dumps({"Fn::GetAtt": ["MemoryTable", "Arn"]}): {
            "dynamodb:Query",
            "dynamodb:PutItem",
            "dynamodb:DeleteItem",
            "dynamodb:ConditionCheckItem",
        },
        # Query: the $disconnect fence reads the user's own ledger partition.
        json.dumps({"Fn::GetAtt": ["TurnLedgerTable", "Arn"]}): {
            "dynamodb:Query",
            "dynamodb:PutItem",
            "dynamodb:GetItem",
            "dynamodb:UpdateItem",
        },
    }


def test_the_websocket_url_is_an_output() -> None:
    value = TEMPLATE["Outputs"]["WebSocketUrl"]["Value"]["Fn::Sub"]
    assert value.startswith("wss://${WebSocketApi}.execute-api.")
