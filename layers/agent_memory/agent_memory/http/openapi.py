"""The OpenAPI document of the HTTP API, generated from the handlers' own routes.

Each function's resolver knows its routes and their pydantic models; this merges them into
one document (checked in as ``docs/openapi.json``; a test fails when it is stale).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver

from agent_memory.http.contract import ErrorResponse

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
    components = document.setdefault("components", {})
    components.setdefault("schemas", {})["ErrorResponse"] = ErrorResponse.model_json_schema(
        ref_template="#/components/schemas/{model}"
    )
    components["schemas"].update(
        ErrorResponse.model_json_schema(ref_template="#/components/schemas/{model}").pop(
            "$defs", {}
        )
    )
    components["schemas"]["ErrorResponse"].pop("$defs", None)
    components["securitySchemes"] = {**BEARER, **SIGV4}
    # Our 422 is the common error shape, not Powertools' default validation body.
    for name in ("HTTPValidationError", "ValidationError", "ResponseValidationError"):
        components["schemas"].pop(name, None)
    error_ref = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}}
    for path, operations in document.get("paths", {}).items():
        for operation in operations.values():
            if "422" in operation.get("responses", {}):
                operation["responses"]["422"] = {
                    "description": "The request breaks the contract or a memory rule",
                    "content": error_ref,
                }
            operation["security"] = (
                [{"sigv4": []}] if path.startswith("/eval/") else [{"bearerAuth": []}]
            )
            operation.setdefault("responses", {}).setdefault(
                "4XX",
                {
                    "description": 'A client error: {"error": {"code", "message"}}',
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/ErrorResponse"}
                        }
                    },
                },
            )
    document["paths"] = dict(sorted(document.get("paths", {}).items()))
    return document


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, sort_keys=True) + "\n"
