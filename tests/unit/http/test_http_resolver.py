"""The shared resolver: one error shape, bounded bodies, no input echoed back."""

from __future__ import annotations

import json

from agent_memory.http.resolver import describe_validation_errors


def test_validation_messages_name_the_field_never_the_input() -> None:
    # GIVEN a pydantic error whose input is a secret-looking memory entry
    errors = [
        {
            "type": "string_too_long",
            "loc": ("body", "message"),
            "msg": "String should have at most 16000 characters",
            "input": "SENTINEL-SECRET-INPUT",
        }
    ]

    # WHEN it is described for the client
    message = describe_validation_errors(errors)

    # THEN the location and the rule are there, the input is not
    assert message == "message: String should have at most 16000 characters"
    assert "SENTINEL" not in json.dumps(message)
