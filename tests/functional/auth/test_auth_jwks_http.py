"""TokenVerifier against a real JWKS endpoint over HTTP: keys cached, refreshed on an unknown
kid at a bounded rate, rotation picked up, and an unreachable issuer denied, never a crash."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import ECAlgorithm, RSAAlgorithm

from agent_memory.auth import AuthSettings, InvalidTokenError, TokenVerifier
from agent_memory_tools.dev_auth import DevIssuer, JWKSServer


def _reason(verifier: TokenVerifier, token: str) -> str:
    with pytest.raises(InvalidTokenError) as caught:
        verifier.verify(token)
    return caught.value.reason


def _claims(issuer: DevIssuer, **overrides: object) -> dict[str, object]:
    now = int(time.time())
    return {
        "iss": issuer.issuer,
        "aud": issuer.audience,
        "sub": "alice",
        "iat": now,
        "exp": now + 300,
        **overrides,
    }


def _rsa_jwk(key: rsa.RSAPrivateKey, kid: str) -> dict[str, object]:
    jwk = RSAAlgorithm.to_jwk(key.public_key(), as_dict=True)
    return {"kty": "RSA", "n": jwk["n"], "e": jwk["e"], "kid": kid, "use": "sig", "alg": "RS256"}


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    yield listener.getsockname()[1]
    listener.close()


def test_valid_token_is_accepted_and_keys_are_fetched_once(
    settings: Callable[..., AuthSettings], dev_issuer: DevIssuer, jwks_server: JWKSServer
) -> None:
    # GIVEN a verifier trusting the dev issuer's JWKS URL
    verifier = TokenVerifier(settings())

    # WHEN ten tokens of several users are verified
    subjects = [verifier.verify(dev_issuer.mint(f"user-{i}")).subject for i in range(10)]

    # THEN all pass and the JWKS was fetched over HTTP exactly once
    assert subjects == [f"user-{i}" for i in range(10)]
    assert jwks_server.hits == 1


def test_unknown_kid_refetches_once_then_denies_and_a_flood_is_bounded(
    settings: Callable[..., AuthSettings],
    dev_issuer: DevIssuer,
    jwks_server: JWKSServer,
    foreign_key: rsa.RSAPrivateKey,
    cooldown: float,
) -> None:
    # GIVEN a verifier that fetched the JWKS, and the refresh cooldown has passed
    verifier = TokenVerifier(settings())
    verifier.verify(dev_issuer.mint("alice"))
    stranger, *flood = (
        jwt.encode(_claims(dev_issuer), foreign_key, algorithm="RS256", headers={"kid": f"k{n}"})
        for n in range(51)
    )
    time.sleep(cooldown + 0.05)

    # WHEN a token with an unknown kid arrives
    reason = _reason(verifier, stranger)

    # THEN the JWKS is refetched once, then the token is denied
    assert reason == "unknown_key"
    assert jwks_server.hits == 2

    # AND a flood of further unknown kids within the cooldown does not reach the endpoint
    assert {_reason(verifier, token) for token in flood} == {"unknown_key"}
    assert jwks_server.hits == 2

    # AND known keys keep working without any fetch
    assert verifier.verify(dev_issuer.mint("bob")).subject == "bob"
    assert jwks_server.hits == 2


def test_a_rotated_key_is_accepted_after_refresh(
    settings: Callable[..., AuthSettings],
    dev_issuer: DevIssuer,
    jwks_server: JWKSServer,
    foreign_key: rsa.RSAPrivateKey,
    cooldown: float,
) -> None:
    # GIVEN a verifier that cached the JWKS with the old key only
    verifier = TokenVerifier(settings())
    verifier.verify(dev_issuer.mint("alice"))
    assert jwks_server.hits == 1

    # WHEN the issuer publishes a new key and signs with it
    rotated = {"keys": [*dev_issuer.jwks()["keys"], _rsa_jwk(foreign_key, "rotated-2")]}
    jwks_server.set_jwks(rotated)
    token = jwt.encode(
        _claims(dev_issuer, sub="carol"),
        foreign_key,
        algorithm="RS256",
        headers={"kid": "rotated-2"},
    )

    # THEN within the refresh cooldown it is denied without a fetch (bounded refresh) ...
    assert _reason(verifier, token) == "unknown_key"
    assert jwks_server.hits == 1

    # ... and once the cooldown has passed, one refresh picks it up
    time.sleep(cooldown + 0.05)
    assert verifier.verify(token).subject == "carol"
    assert jwks_server.hits == 2

    # AND the old key still works from the refreshed cache
    assert verifier.verify(dev_issuer.mint("alice")).subject == "alice"
    assert jwks_server.hits == 2


def test_a_withdrawn_key_stops_working_when_the_cache_expires(
    settings: Callable[..., AuthSettings],
    dev_issuer: DevIssuer,
    jwks_server: JWKSServer,
    foreign_key: rsa.RSAPrivateKey,
) -> None:
    # GIVEN a verifier with a short key-set lifespan that accepted the dev key
    verifier = TokenVerifier(settings(jwks_cache_seconds=0.15))
    token = dev_issuer.mint("alice")
    assert verifier.verify(token).subject == "alice"

    # WHEN the issuer withdraws that key and the cached set expires
    jwks_server.set_jwks({"keys": [_rsa_jwk(foreign_key, "other")]})
    time.sleep(0.25)

    # THEN the same token is denied
    assert _reason(verifier, token) == "unknown_key"


def test_es256_works_over_http_when_configured(
    settings: Callable[..., AuthSettings],
    dev_issuer: DevIssuer,
    jwks_server: JWKSServer,
    ec_key: ec.EllipticCurvePrivateKey,
) -> None:
    # GIVEN an issuer publishing a P-256 key and a verifier pinned to ES256
    jwk = ECAlgorithm.to_jwk(ec_key.public_key(), as_dict=True)
    jwks_server.set_jwks({"keys": [{**jwk, "kid": "ec-1", "use": "sig", "alg": "ES256"}]})
    verifier = TokenVerifier(settings(algorithms=("ES256",)))

    # WHEN an ES256 token is verified THEN it passes
    token = jwt.encode(_claims(dev_issuer), ec_key, algorithm="ES256", headers={"kid": "ec-1"})
    assert verifier.verify(token).subject == "alice"


def test_jwks_server_down_denies(
    settings: Callable[..., AuthSettings], dev_issuer: DevIssuer, jwks_server: JWKSServer
) -> None:
    # GIVEN the issuer's JWKS endpoint is gone (port closed)
    verifier = TokenVerifier(settings())
    jwks_server.close()

    # WHEN a token arrives THEN it is denied with a clear reason, not an exception
    assert _reason(verifier, dev_issuer.mint("alice")) == "jwks_unavailable"


def test_failed_fetches_back_off(
    settings: Callable[..., AuthSettings],
    dev_issuer: DevIssuer,
    jwks_server: JWKSServer,
    cooldown: float,
) -> None:
    # GIVEN an endpoint that answers with an unusable key set
    jwks_server.set_jwks({"keys": []})
    verifier = TokenVerifier(settings())

    # WHEN many tokens arrive at once
    burst = [dev_issuer.mint(f"u{i}") for i in range(20)]
    reasons = {_reason(verifier, token) for token in burst}

    # THEN all are denied and the endpoint was asked once, not twenty times
    assert reasons == {"jwks_unavailable"}
    assert jwks_server.hits == 1

    # AND after the backoff, once the endpoint recovered, tokens pass again
    jwks_server.set_jwks(dev_issuer.jwks())
    time.sleep(cooldown + 0.05)
    assert verifier.verify(dev_issuer.mint("alice")).subject == "alice"
    assert jwks_server.hits == 2


def test_wrong_jwks_path_denies(
    settings: Callable[..., AuthSettings], dev_issuer: DevIssuer, jwks_server: JWKSServer
) -> None:
    url = jwks_server.url.replace("/.well-known/jwks.json", "/nothing-here")
    verifier = TokenVerifier(settings(jwks_url=url))
    assert _reason(verifier, dev_issuer.mint("alice")) == "jwks_unavailable"


def test_a_hanging_jwks_endpoint_times_out(
    settings: Callable[..., AuthSettings], dev_issuer: DevIssuer, silent_port: int
) -> None:
    # GIVEN a JWKS endpoint that accepts the connection and never answers
    verifier = TokenVerifier(
        settings(
            jwks_url=f"http://127.0.0.1:{silent_port}/.well-known/jwks.json",
            jwks_timeout_seconds=0.2,
        )
    )

    # WHEN a token arrives
    started = time.monotonic()
    reason = _reason(verifier, dev_issuer.mint("alice"))

    # THEN it is denied after the configured timeout, not the default 30 s
    assert reason == "jwks_unavailable"
    assert time.monotonic() - started < 2
