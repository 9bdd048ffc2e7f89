"""Fixtures of the auth unit tests: keys generated once per session, verifiers over them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from auth_support import AUDIENCE, ISSUER, KeyPair, StaticKeys, Tokens
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from agent_memory.auth import AuthSettings, TokenVerifier


@pytest.fixture(scope="session")
def rsa_key() -> KeyPair:
    return KeyPair(rsa.generate_private_key(public_exponent=65537, key_size=2048), "rsa-1", "RS256")


@pytest.fixture(scope="session")
def foreign_rsa_key() -> KeyPair:
    """Another issuer's key: never in our JWKS."""
    return KeyPair(rsa.generate_private_key(public_exponent=65537, key_size=2048), "rsa-x", "RS256")


@pytest.fixture(scope="session")
def ec_key() -> KeyPair:
    return KeyPair(ec.generate_private_key(ec.SECP256R1()), "ec-1", "ES256")


@pytest.fixture
def keys(rsa_key: KeyPair, ec_key: KeyPair) -> StaticKeys:
    return StaticKeys({"keys": [rsa_key.public_jwk(), ec_key.public_jwk()]})


@pytest.fixture
def make_verifier(keys: StaticKeys) -> Callable[..., TokenVerifier]:
    def build(**overrides: Any) -> TokenVerifier:
        settings = AuthSettings(**{"issuer": ISSUER, "audience": AUDIENCE, **overrides})
        return TokenVerifier(settings, keys=keys)

    return build


@pytest.fixture
def verifier(make_verifier: Callable[..., TokenVerifier]) -> TokenVerifier:
    return make_verifier()


@pytest.fixture(scope="session")
def tokens() -> Tokens:
    return Tokens()
