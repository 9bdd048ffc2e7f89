"""Test support for the auth unit tests: keys, token building, an in-memory key source."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass, field
from typing import Any

import jwt
from jwt.utils import base64url_encode

ISSUER = "https://issuer.example.test"
AUDIENCE = "agent-memory-api"


@dataclass(frozen=True)
class KeyPair:
    private: Any
    kid: str
    alg: str

    def public_jwk(self) -> dict[str, Any]:
        algorithm = jwt.get_algorithm_by_name(self.alg)
        jwk = algorithm.to_jwk(self.private.public_key(), as_dict=True)
        jwk.pop("key_ops", None)
        return {**jwk, "kid": self.kid, "use": "sig", "alg": self.alg}


@dataclass
class StaticKeys:
    """A SigningKeySource over a fixed JWKS, counting lookups (like PyJWKClient, no I/O)."""

    jwks: dict[str, Any]
    lookups: list[str] = field(default_factory=list)

    def get_signing_key(self, kid: str) -> jwt.PyJWK:
        self.lookups.append(kid)
        for key in jwt.PyJWKSet.from_dict(self.jwks).keys:
            if key.key_id == kid:
                return key
        raise jwt.PyJWKClientError("no such key")


class Tokens:
    """Builds claims and signs tokens with any key, header and algorithm."""

    issuer = ISSUER
    audience = AUDIENCE

    @staticmethod
    def claims(**overrides: Any) -> dict[str, Any]:
        """Valid claims for ISSUER/AUDIENCE; an override of None removes the claim."""
        now = int(time.time())
        base: dict[str, Any] = {
            "iss": ISSUER,
            "aud": AUDIENCE,
            "sub": "alice",
            "iat": now,
            "nbf": now,
            "exp": now + 300,
        }
        base.update(overrides)
        return {name: value for name, value in base.items() if value is not None}

    @staticmethod
    def sign(key: KeyPair, payload: dict[str, Any], *, kid: str | None = "", alg: str = "") -> str:
        """A token signed with ``key``; ``kid`` defaults to the key's own (None: no kid)."""
        headers = {} if kid is None else {"kid": kid or key.kid}
        return jwt.encode(payload, key.private, algorithm=alg or key.alg, headers=headers)

    @staticmethod
    def unsigned(payload: dict[str, Any], *, kid: str) -> str:
        """An ``alg: none`` token (PyJWT refuses to verify these; we check that we do too)."""
        return _compact({"alg": "none", "typ": "JWT", "kid": kid}, payload, b"")

    @staticmethod
    def hmac_signed(secret: bytes, payload: dict[str, Any], *, kid: str) -> str:
        """An HS256 token keyed with ``secret``: with the issuer's public key PEM as the secret,
        this is the classic key-confusion forgery. Built by hand because PyJWT refuses to."""
        header = {"alg": "HS256", "typ": "JWT", "kid": kid}
        signing_input = _compact(header, payload, None)
        return (
            signing_input
            + "."
            + base64url_encode(
                hmac.new(secret, signing_input.encode("ascii"), hashlib.sha256).digest()
            ).decode("ascii")
        )


def _segment(value: dict[str, Any]) -> str:
    return base64url_encode(json.dumps(value, separators=(",", ":")).encode()).decode("ascii")


def _compact(header: dict[str, Any], payload: dict[str, Any], signature: bytes | None) -> str:
    signing_input = _segment(header) + "." + _segment(payload)
    if signature is None:
        return signing_input
    return signing_input + "." + base64url_encode(signature).decode("ascii")
