"""The checked-in OpenAPI document is generated from the handlers' routes, and current."""

from __future__ import annotations

import json

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
