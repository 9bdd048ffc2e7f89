"""The OpenAPI document of the HTTP API, generated from the handlers' own routes.

Each function's resolver knows its routes and their pydantic models; this merges them into
one document (checked in as ``docs/openapi.json``; a test fails when it is stale) and adds
what Powertools cannot know, so that generated clients (openapi-python-client,
openapi-typescript) are clean: the responses API Gateway itself sends (the authorizer's
401/403, throttling, 5xx), a 204 without a body, the error codes as one enum, UUIDs marked
``format: uuid``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver

from agent_memory.http.contract import ERROR_CODES, ErrorResponse
from agent_memory.ledger.outcome import OUTCOME_REASONS

TITLE = "agent-memory"
VERSION = "1.0.0"
BEARER = {"bearerAuth": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}}
SIGV4 = {
    "sigv4": {
        "type": "apiKey",
        "name": "Authorization",
        "in": "header",
        "description": "AWS Signature Version 4 (AWS_IAM)",
    }
}
TAGS = {
    "chat": "Chat turns with the caller's memory",
    "memory": "The caller's memory documents: read, edit, forget",
    "history": "The caller's commits and undo",
    "settings": "The caller's write mode",
    "proposals": "Memory changes waiting for the caller's approval",
    "turns": "What became of a turn; cancelling one",
    "evaluation": "Memory-free chat for evaluation traffic (AWS_IAM)",
}
UUID_PARAMETERS = frozenset({"idempotency-key", "turn_id", "proposal_id"})


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(name: str) -> dict[str, Any]:
    return {"application/json": {"schema": _ref(name)}}


# API Gateway's own body, not ours: the authorizer's 401/403, stage throttling, its 5xx.
GATEWAY_MESSAGE = {
    "type": "object",
    "title": "GatewayMessage",
    "description": 'A response API Gateway sends itself, e.g. {"message": "Unauthorized"}.',
    "properties": {"message": {"type": "string", "title": "Message"}},
    "required": ["message"],
}
SERVER_ERROR = {
    "type": "object",
    "title": "ServerError",
    "description": "A 5xx: the API's own error body (`error`), or API Gateway's (`message`) "
    "when the function failed or timed out. Never carries internals.",
    "properties": {"error": _ref("ErrorDetail"), "message": {"type": "string", "title": "Message"}},
}
OUTCOME_REASON = {
    "type": "string",
    "title": "OutcomeReason",
    "description": "Why memory ended as it did (`storage_error`: the database failed).",
    "enum": list(OUTCOME_REASONS),
}
ERROR_CODE = {
    "type": "string",
    "title": "ErrorCode",
    "description": "Every code an error body can carry (API codes and the memory rules' codes).",
    "enum": list(ERROR_CODES),
}


def _gateway(description: str) -> dict[str, Any]:
    return {"description": description, "content": _json("GatewayMessage")}


def merged_openapi(resolvers: Iterable[APIGatewayHttpResolver]) -> dict[str, Any]:
    document: dict[str, Any] = {}
    for resolver in resolvers:
        schema = json.loads(resolver.get_openapi_json_schema(title=TITLE, version=VERSION))
        if not document:
            document = schema
            document.setdefault("paths", {})
            document.setdefault("components", {}).setdefault("schemas", {})
            continue
        document["paths"].update(schema.get("paths", {}))
        document["components"]["schemas"].update(schema.get("components", {}).get("schemas", {}))
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    error_schema = ErrorResponse.model_json_schema(ref_template="#/components/schemas/{model}")
    schemas.update(error_schema.pop("$defs", {}))
    schemas["ErrorResponse"] = error_schema
    schemas["ErrorDetail"]["properties"]["code"] = _ref("ErrorCode")
    schemas.update(ErrorCode=ERROR_CODE, GatewayMessage=GATEWAY_MESSAGE, ServerError=SERVER_ERROR)
    reason = schemas["MemoryOutcomeBody"]["properties"]["reason"]
    reason["anyOf"] = [_ref("OutcomeReason"), {"type": "null"}]
    schemas["OutcomeReason"] = OUTCOME_REASON
    document["components"]["securitySchemes"] = {**BEARER, **SIGV4}
    # Our 422 is the common error shape, not Powertools' default validation body.
    for name in ("HTTPValidationError", "ValidationError", "ResponseValidationError"):
        schemas.pop(name, None)
    for path, operations in document["paths"].items():
        for operation in operations.values():
            _complete(path, operation)
    document["paths"] = dict(sorted(document["paths"].items()))
    used = {tag for ops in document["paths"].values() for op in ops.values() for tag in op["tags"]}
    document["tags"] = [
        {"name": name, "description": text} for name, text in TAGS.items() if name in used
    ]
    return document


def _complete(path: str, operation: dict[str, Any]) -> None:
    iam = path.startswith("/eval/")
    operation["security"] = [{"sigv4": []}] if iam else [{"bearerAuth": []}]
    responses: dict[str, Any] = operation.setdefault("responses", {})
    for status, response in responses.items():
        if status == "204":
            response.pop("content", None)  # no body: a client must not try to parse one
    if "422" in responses:
        responses["422"] = {
            "description": "The request breaks the contract or a memory rule; nothing changed",
            "content": _json("ErrorResponse"),
        }
    if not iam:
        responses["401"] = _gateway('No token (API Gateway\'s {"message": "Unauthorized"})')
    responses["403"] = _gateway(
        'A token or signature the authorizer refuses (API Gateway\'s {"message": "Forbidden"})'
    )
    responses["429"] = _gateway('Throttled by the stage (API Gateway\'s "Too Many Requests")')
    responses["4XX"] = {
        "description": 'A client error: {"error": {"code", "message"}}',
        "content": _json("ErrorResponse"),
    }
    responses["5XX"] = {
        "description": "A server error; `error.code` says whether a retry can help",
        "content": _json("ServerError"),
    }
    for parameter in operation.get("parameters", []):
        if parameter.get("name", "").lower() in UUID_PARAMETERS:
            parameter["schema"] = {"type": "string", "format": "uuid"}


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, sort_keys=True) + "\n"
