"""The authorizer Lambda handler with payload-v2 events and a real JWKS over HTTP: the context
holds exactly the subject when the token is good, and every bad case is a bare denial."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Callable
from typing import Any

import jwt
import pytest
from authorizer_support import PLACEHOLDER, Authorizer, FakeLambdaContext
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.utils import base64url_encode

from agent_memory_tools.dev_auth import DevIssuer, JWKSServer

DENY = {"isAuthorized": False}


def _claims(issuer: DevIssuer, **overrides: Any) -> dict[str, Any]:
    now = int(time.time())
    claims = {
        "iss": issuer.issuer,
        "aud": issuer.audience,
        "sub": "alice",
        "iat": now,
        "exp": now + 300,
        **overrides,
    }
    return {name: value for name, value in claims.items() if value is not None}


def _segment(value: dict[str, Any]) -> str:
    return base64url_encode(json.dumps(value).encode()).decode()


def _public_pem(issuer: DevIssuer) -> bytes:
    (jwk,) = issuer.jwks()["keys"]
    public_key = jwt.algorithms.RSAAlgorithm.from_jwk(jwk)
    assert isinstance(public_key, rsa.RSAPublicKey)
    return public_key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def _hs256_with_public_key(issuer: DevIssuer) -> str:
    signing_input = (
        _segment({"alg": "HS256", "typ": "JWT", "kid": issuer.kid})
        + "."
        + _segment(_claims(issuer))
    )
    signature = hmac.new(_public_pem(issuer), signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{base64url_encode(signature).decode()}"


# Each case builds an Authorization header value from the dev issuer and the foreign keys.
BadCase = Callable[[DevIssuer, rsa.RSAPrivateKey, ec.EllipticCurvePrivateKey], "str | None"]
BAD_CASES: dict[str, BadCase] = {
    "no header": lambda i, f, e: None,
    "basic scheme": lambda i, f, e: "Basic x",
    "bearer without token": lambda i, f, e: "Bearer",
    "two tokens": lambda i, f, e: "Bearer a b",
    "garbage": lambda i, f, e: "\x00\x01 garbage \u202e",
    "not a jwt": lambda i, f, e: "Bearer not-a-jwt",
    "wrong signature": lambda i, f, e: (
        "Bearer " + jwt.encode(_claims(i), f, algorithm="RS256", headers={"kid": i.kid})
    ),
    "alg none": lambda i, f, e: (
        "Bearer " + _segment({"alg": "none", "kid": i.kid}) + "." + _segment(_claims(i)) + "."
    ),
    "hs256 keyed with the public key": lambda i, f, e: "Bearer " + _hs256_with_public_key(i),
    "expired": lambda i, f, e: (
        "Bearer " + i.mint("alice", iat=int(time.time()) - 900, exp=int(time.time()) - 300)
    ),
    "not yet valid": lambda i, f, e: "Bearer " + i.mint("alice", nbf=int(time.time()) + 300),
    "wrong issuer": lambda i, f, e: "Bearer " + i.mint("alice", iss="https://evil.test"),
    "wrong audience": lambda i, f, e: "Bearer " + i.mint("alice", aud="another-api"),
    "unknown kid": lambda i, f, e: (
        "Bearer " + jwt.encode(_claims(i), f, algorithm="RS256", headers={"kid": "unknown"})
    ),
    "another issuer's key with our iss": lambda i, f, e: (
        "Bearer " + jwt.encode(_claims(i), f, algorithm="RS256", headers={"kid": "their-key"})
    ),
    "missing sub": lambda i, f, e: "Bearer " + i.mint("alice", sub=None),
    "empty sub": lambda i, f, e: "Bearer " + i.mint(""),
    "control character in sub": lambda i, f, e: "Bearer " + i.mint("alice\nadmin"),
    "es256 while only rs256 is trusted": lambda i, f, e: (
        "Bearer " + jwt.encode(_claims(i), e, algorithm="ES256", headers={"kid": i.kid})
    ),
}


def test_good_token_is_allowed_with_only_the_subject(
    authorizer: Authorizer, dev_issuer: DevIssuer
) -> None:
    # GIVEN a valid token that also carries other claims
    token = dev_issuer.mint("alice", email="alice@example.test", role="admin")

    # WHEN the authorizer runs on a payload-v2 event
    response = authorizer.invoke(f"Bearer {token}")

    # THEN it allows, and the context is exactly the subject
    assert response == {"isAuthorized": True, "context": {"sub": "alice"}}


@pytest.mark.parametrize("case", list(BAD_CASES), ids=list(BAD_CASES))
def test_every_bad_case_is_a_bare_denial(
    authorizer: Authorizer,
    dev_issuer: DevIssuer,
    foreign_key: rsa.RSAPrivateKey,
    ec_key: ec.EllipticCurvePrivateKey,
    case: str,
) -> None:
    # GIVEN a bad Authorization header
    header = BAD_CASES[case](dev_issuer, foreign_key, ec_key)

    # WHEN the authorizer runs
    response = authorizer.invoke(header)

    # THEN it denies with no context at all
    assert response == DENY

    # AND it logged one denial with a reason code, and nothing of the header
    denials = [line for line in authorizer.logs() if line["message"] == "Authorization denied"]
    assert len(denials) == 1
    assert denials[0]["reason"]
    if header:
        assert header.removeprefix("Bearer ") not in authorizer.log.getvalue()


def test_sample_event_denies_its_placeholder_and_allows_a_real_token(
    authorizer: Authorizer, dev_issuer: DevIssuer
) -> None:
    # GIVEN the checked-in sample event (events/authorizer_request.json)
    event = authorizer.event(f"Bearer {PLACEHOLDER}")
    assert authorizer.module.lambda_handler(event, FakeLambdaContext()) == DENY

    # WHEN its placeholder is replaced with a real token THEN it is allowed
    event = json.loads(json.dumps(event).replace(PLACEHOLDER, dev_issuer.mint("bob")))
    assert authorizer.module.lambda_handler(event, FakeLambdaContext()) == {
        "isAuthorized": True,
        "context": {"sub": "bob"},
    }


@pytest.mark.parametrize(
    "event",
    [{}, {"headers": None}, {"headers": {"authorization": 42}}, {"version": "2.0"}],
)
def test_events_without_a_usable_header_are_denied(
    authorizer: Authorizer, event: dict[str, Any]
) -> None:
    assert authorizer.module.lambda_handler(event, FakeLambdaContext()) == DENY


def test_verifier_and_keys_are_reused_across_invocations(
    authorizer: Authorizer, dev_issuer: DevIssuer, jwks_server: JWKSServer
) -> None:
    # GIVEN a warm container
    # WHEN it serves twenty invocations for different users
    responses = [authorizer.invoke(f"Bearer {dev_issuer.mint(f'u{n}')}") for n in range(20)]

    # THEN each got its own subject, one verifier served them all, and keys were fetched once
    assert [r["context"]["sub"] for r in responses] == [f"u{n}" for n in range(20)]
    assert authorizer.module.get_verifier() is authorizer.module.get_verifier()
    assert jwks_server.hits == 1


def test_concurrent_cold_invocations_build_one_verifier(authorizer: Authorizer) -> None:
    # GIVEN a cold module WHEN many threads ask for the verifier at once
    barrier = threading.Barrier(16)
    seen: list[object] = []

    def grab() -> None:
        barrier.wait()
        seen.append(authorizer.module.get_verifier())

    threads = [threading.Thread(target=grab) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # THEN exactly one was built
    assert len({id(v) for v in seen}) == 1


def test_jwks_down_denies_instead_of_crashing(
    authorizer: Authorizer, dev_issuer: DevIssuer, jwks_server: JWKSServer
) -> None:
    # GIVEN the issuer's JWKS endpoint is unreachable
    jwks_server.close()

    # WHEN a (valid) token arrives THEN the handler denies and says why in the log
    assert authorizer.invoke(f"Bearer {dev_issuer.mint('alice')}") == DENY
    assert [line["reason"] for line in authorizer.logs()] == ["jwks_unavailable"]


def test_symmetric_algorithm_configuration_denies_everything(
    load_authorizer: Callable[..., Authorizer], dev_issuer: DevIssuer
) -> None:
    # GIVEN an authorizer deployed with JWT_ALGORITHMS=HS256
    authorizer = load_authorizer(JWT_ALGORITHMS="HS256")

    # WHEN a token arrives THEN it is denied and the misconfiguration is logged as an error
    assert authorizer.invoke(f"Bearer {dev_issuer.mint('alice')}") == DENY
    assert {"level": "ERROR", "reason": "misconfigured"}.items() <= authorizer.logs()[0].items()


def test_unexpected_failure_denies_without_logging_its_message(
    authorizer: Authorizer, dev_issuer: DevIssuer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a verifier that fails with an exception quoting its input
    token = dev_issuer.mint("alice")

    def explode(value: str) -> object:
        raise RuntimeError(f"boom {value}")

    monkeypatch.setattr(authorizer.module.get_verifier(), "verify", explode)

    # WHEN the authorizer runs THEN it denies, logs the error type only, never the message
    assert authorizer.invoke(f"Bearer {token}") == DENY
    logs = authorizer.log.getvalue()
    assert "RuntimeError" in logs
    assert "internal_error" in logs
    assert token not in logs
    assert "boom" not in logs


def test_event_logging_cannot_be_switched_on_by_environment(
    load_authorizer: Callable[..., Authorizer], dev_issuer: DevIssuer
) -> None:
    # GIVEN Powertools' event logging switched on by environment variable
    authorizer = load_authorizer(POWERTOOLS_LOGGER_LOG_EVENT="true", POWERTOOLS_LOG_LEVEL="DEBUG")
    token = dev_issuer.mint("alice")

    # WHEN good and bad tokens are authorized
    authorizer.invoke(f"Bearer {token}")
    authorizer.invoke(f"Bearer {token}x")

    # THEN the token never reaches the log
    assert token not in authorizer.log.getvalue()
