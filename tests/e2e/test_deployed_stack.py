"""Against a deployed stage: two users, one remembered fact, isolation, forget.

Skipped unless ``AGENT_MEMORY_API_URL`` and ``AGENT_MEMORY_TOKEN_A`` / ``AGENT_MEMORY_TOKEN_B``
(ID tokens of two test users of the stage's issuer) are set, with AWS credentials in the
environment. Run after `sam deploy` with the flag on for a test environment (docs/runbook.md).
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
import uuid
from typing import Any

import pytest

API_URL = os.environ.get("AGENT_MEMORY_API_URL", "")
TOKENS = (os.environ.get("AGENT_MEMORY_TOKEN_A", ""), os.environ.get("AGENT_MEMORY_TOKEN_B", ""))
HAS_AWS = bool(os.environ.get("AWS_ACCESS_KEY_ID") or os.environ.get("AWS_PROFILE"))

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        not (API_URL and all(TOKENS) and HAS_AWS),
        reason="needs a deployed stage: AGENT_MEMORY_API_URL, AGENT_MEMORY_TOKEN_A/B, AWS creds",
    ),
]


def call(method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(API_URL.rstrip("/") + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=35) as response:
            text = response.read().decode()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read().decode() or "null")


def test_two_users_remember_in_isolation_and_forget() -> None:
    token_a, token_b = TOKENS
    fact = f"e2e fact {uuid.uuid4()}"

    status, reply = call("POST", "/chat", token_a, {"message": f"Please remember: {fact}"})
    assert status == 200
    assert reply["memory"]["status"] in {"committed", "unchanged"}

    status, documents_b = call("GET", "/memory", token_b)
    assert status == 200
    assert fact not in json.dumps(documents_b)

    status, _ = call("DELETE", "/memory", token_a)
    assert status == 204
    status, documents_a = call("GET", "/memory", token_a)
    assert documents_a["memory"]["entries"] == []


def test_a_forged_token_is_refused() -> None:
    status, _ = call("GET", "/memory", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.")
    assert status in {401, 403}
