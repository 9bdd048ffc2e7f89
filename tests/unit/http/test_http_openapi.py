"""The checked-in OpenAPI document is generated from the handlers' routes, and current."""

from __future__ import annotations

import json
import re

from openapi_spec_validator import validate

from agent_memory_tools.cli.main import main
from agent_memory_tools.local.functions import project_root

CHECKED_IN = project_root() / "docs" / "openapi.json"


def test_the_checked_in_document_matches_the_routes() -> None:
    # WHEN the document is regenerated from the code and compared with docs/openapi.json
    # THEN they are identical (run `agent-memory openapi > docs/openapi.json` after a change)
    assert main(["openapi", "--check", str(CHECKED_IN)]) == 0


def test_the_document_is_valid_openapi_with_every_contract_route() -> None:
    document = json.loads(CHECKED_IN.read_text())

    validate(document)

    routes = {(method.upper(), path) for path, ops in document["paths"].items() for method in ops}
    assert routes == {
        ("POST", "/chat"),
        ("GET", "/memory"),
        ("PATCH", "/memory"),
        ("DELETE", "/memory"),
        ("POST", "/turns/{turn_id}/cancel"),
        ("GET", "/turns/{turn_id}"),
        ("POST", "/eval/chat"),
        ("GET", "/memory/history"),
        ("DELETE", "/memory/history"),
        ("POST", "/memory/undo"),
        ("GET", "/memory/settings"),
        ("PUT", "/memory/settings"),
        ("GET", "/memory/proposals"),
        ("POST", "/memory/proposals/{proposal_id}/approve"),
        ("POST", "/memory/proposals/{proposal_id}/reject"),
    }
    assert document["paths"]["/eval/chat"]["post"]["security"] == [{"sigv4": []}]
    assert document["paths"]["/chat"]["post"]["security"] == [{"bearerAuth": []}]


def test_a_stale_document_is_detected(tmp_path: object) -> None:
    from pathlib import Path

    stale = Path(str(tmp_path)) / "openapi.json"
    stale.write_text(CHECKED_IN.read_text().replace('"/chat"', '"/talk"'))

    assert main(["openapi", "--check", str(stale)]) == 1


def test_every_operation_is_ready_for_client_generators() -> None:
    # GIVEN the checked-in document
    document = json.loads(CHECKED_IN.read_text())
    tags = {tag["name"] for tag in document["tags"]}
    operations = [
        (method, path, operation)
        for path, ops in document["paths"].items()
        for method, operation in ops.items()
    ]

    # THEN each operation has its own short operationId (set on the route, not Powertools'
    # generated `name_path_method`) and one declared tag
    ids = [operation["operationId"] for _, _, operation in operations]
    assert len(set(ids)) == len(ids)
    for method, path, operation in operations:
        where = f"{method.upper()} {path}"
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", operation["operationId"]), where
        assert not operation["operationId"].endswith(f"_{method}"), where
        assert len(operation["tags"]) == 1, where
        assert operation["tags"][0] in tags, where
        responses = operation["responses"]
        # a 204 has no body to parse; 5xx, throttling and the authorizer's 403 are described
        assert all("content" not in responses[code] for code in responses if code == "204")
        assert {"403", "429", "4XX", "5XX"} <= set(responses), where
        if not path.startswith("/eval/"):
            assert responses["401"]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/GatewayMessage"
            }, where


def test_uuid_inputs_say_so() -> None:
    document = json.loads(CHECKED_IN.read_text())
    chat = document["paths"]["/chat"]["post"]
    (header,) = [p for p in chat["parameters"] if p["name"].lower() == "idempotency-key"]
    assert header["schema"] == {"type": "string", "format": "uuid"}
    cancel = document["paths"]["/turns/{turn_id}/cancel"]["post"]
    assert cancel["parameters"][0]["schema"]["format"] == "uuid"


def test_retries_and_the_turn_status_are_in_the_contract() -> None:
    document = json.loads(CHECKED_IN.read_text())

    # A generated client can read the replay marker of a retried POST /chat
    chat_ok = document["paths"]["/chat"]["post"]["responses"]["200"]
    assert chat_ok["headers"]["Idempotent-Replayed"]["schema"] == {
        "type": "string",
        "enum": ["true"],
    }
    # GET /turns/{turn_id} answers the ledger's statuses
    turn = document["paths"]["/turns/{turn_id}"]["get"]
    schema_ref = turn["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    status = document["components"]["schemas"][schema_ref.rsplit("/", 1)[1]]["properties"]
    assert set(status["status"]["enum"]) == {
        "open",
        "committed",
        "proposed",
        "cancelled",
        "expired",
        "discarded",
    }
