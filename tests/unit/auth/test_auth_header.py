"""Parsing ``Authorization: Bearer <token>``: exactly one bearer token, nothing else."""

from __future__ import annotations

import pytest

from agent_memory.auth import (
    MAX_TOKEN_LENGTH,
    MalformedTokenError,
    MissingTokenError,
    token_from_authorization_header,
)

TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl"


@pytest.mark.parametrize(
    "value",
    [f"Bearer {TOKEN}", f"bearer {TOKEN}", f"BEARER {TOKEN}", f"  Bearer   {TOKEN}  "],
)
def test_bearer_scheme_is_case_insensitive(value: str) -> None:
    # GIVEN a bearer header in any letter case, with optional surrounding spaces
    # WHEN parsed THEN the token comes back unchanged
    assert token_from_authorization_header(value) == TOKEN


@pytest.mark.parametrize("value", [None, "", "   "])
def test_no_value_is_a_missing_token(value: str | None) -> None:
    with pytest.raises(MissingTokenError) as caught:
        token_from_authorization_header(value)
    assert caught.value.reason == "missing_token"


@pytest.mark.parametrize(
    "value",
    [
        "Basic x",
        "Basic YWxpY2U6c2VjcmV0",
        "Bearer",
        "Bearer ",
        "Bearer a b",
        f"Bearer {TOKEN},Bearer {TOKEN}",  # two headers joined by API Gateway
        f"Bearer\t{TOKEN}",
        f"Bearer{TOKEN}",
        f"Token {TOKEN}",
        f"{TOKEN}",
        "Bearer tok\u00e9n",
        "Bearer abc\r\nX-Injected: 1",
        "garbage \x00\x01",
        "\U0001f642",
        "Bearer " + "a" * (MAX_TOKEN_LENGTH + 100),
    ],
)
def test_anything_but_one_bearer_token_is_malformed(value: str) -> None:
    # GIVEN another scheme, no token, several tokens or odd characters
    # WHEN parsed
    with pytest.raises(MalformedTokenError) as caught:
        token_from_authorization_header(value)

    # THEN it is malformed, and the message does not echo the header
    assert caught.value.reason == "malformed"
    assert value.strip() not in str(caught.value)
