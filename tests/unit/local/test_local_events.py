"""The payload-v2 events the local gateway builds from raw HTTP requests."""

from __future__ import annotations

import base64

from agent_memory_tools.local.events import (
    allowed_methods,
    authorizer_event_for,
    match_route,
    request_event,
)


def _event(**overrides: object) -> dict[str, object]:
    arguments: dict[str, object] = {
        "query": "",
        "headers": [("Host", "127.0.0.1:3000")],
        "body": b"",
        "route_key": "POST /chat",
        "path_parameters": {},
        "source_ip": "10.0.0.7",
    }
    arguments.update(overrides)
    return request_event("POST", "/chat", **arguments)  # type: ignore[arg-type]


def test_headers_are_lower_cased_and_repeats_joined_and_nothing_is_added() -> None:
    # WHEN a request has mixed-case and repeated headers and no content type
    event = _event(headers=[("Host", "h"), ("X-Trace", "a"), ("x-trace", "b")], body=b"{}")

    # THEN they arrive as API Gateway sends them, with no default content type
    assert event["headers"] == {"host": "h", "x-trace": "a,b"}


def test_cookies_move_to_their_own_list_and_the_query_is_parsed() -> None:
    event = _event(headers=[("Cookie", "a=1; b=2")], query="x=1&x=2&y=")

    assert event["cookies"] == ["a=1", "b=2"]
    assert "cookie" not in event["headers"]  # type: ignore[operator]
    assert event["rawQueryString"] == "x=1&x=2&y="
    assert event["queryStringParameters"] == {"x": "1,2", "y": ""}


def test_a_binary_body_travels_base64_and_a_text_body_as_is() -> None:
    assert _event(body="héllo".encode())["body"] == "héllo"
    binary = _event(body=b"\xff\xfe")
    assert binary["isBase64Encoded"] is True
    assert base64.b64decode(str(binary["body"])) == b"\xff\xfe"


def test_request_context_names_the_route_source_and_host() -> None:
    event = _event(headers=[("Host", "localhost:3000"), ("User-Agent", "curl/8")])
    context = event["requestContext"]

    assert event["routeKey"] == "POST /chat"
    assert context["http"]["sourceIp"] == "10.0.0.7"  # type: ignore[index]
    assert context["http"]["userAgent"] == "curl/8"  # type: ignore[index]
    assert context["domainName"] == "localhost:3000"  # type: ignore[index]
    assert "authorizer" not in context  # type: ignore[operator]


def test_the_authorizer_event_carries_the_header_but_never_the_body() -> None:
    request = _event(headers=[("Authorization", "Bearer t")], body=b'{"message": "secret"}')

    event = authorizer_event_for(request)

    assert event["type"] == "REQUEST"
    assert event["identitySource"] == ["Bearer t"]
    assert "body" not in event
    assert request["body"] == '{"message": "secret"}'  # the request event is untouched


def test_routes_match_with_parameters_and_405_knows_the_allowed_methods() -> None:
    assert match_route("POST", "/turns/abc/cancel") == (
        ("POST", "/turns/{turn_id}/cancel"),
        {"turn_id": "abc"},
    )
    assert match_route("POST", "/turns//cancel") is None
    assert match_route("GET", "/chat") is None
    assert allowed_methods("/memory") == ["DELETE", "GET", "PATCH"]
    assert allowed_methods("/nowhere") == []
