"""DevIssuer: one key pair on disk, kept private, a stable kid, and tokens the verifier accepts."""

from __future__ import annotations

import stat
from pathlib import Path

import jwt
import pytest
from auth_support import StaticKeys
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from agent_memory.auth import AuthSettings, InvalidTokenError, TokenVerifier
from agent_memory_tools.dev_auth import (
    DEFAULT_DEV_AUDIENCE,
    DEFAULT_DEV_ISSUER,
    DevIssuer,
    default_key_dir,
    jwk_thumbprint,
)
from agent_memory_tools.dev_auth.dev_issuer import PRIVATE_KEY_FILE

# RFC 7638, section 3.1: the example key and its SHA-256 thumbprint.
RFC7638_JWK = {
    "kty": "RSA",
    "e": "AQAB",
    "n": (
        "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJEC"
        "PebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2Q"
        "vzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6"
        "WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"
    ),
}
RFC7638_THUMBPRINT = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"


@pytest.fixture(scope="module")
def issuer_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("dev-issuer") / "keys"


@pytest.fixture(scope="module")
def issuer(issuer_dir: Path) -> DevIssuer:
    return DevIssuer(issuer_dir)


def _verifier(issuer: DevIssuer) -> TokenVerifier:
    return TokenVerifier(
        issuer.auth_settings("http://127.0.0.1:1/.well-known/jwks.json"),
        keys=StaticKeys(issuer.jwks()),
    )


def test_thumbprint_matches_the_rfc_7638_example() -> None:
    assert jwk_thumbprint(RFC7638_JWK) == RFC7638_THUMBPRINT
    assert jwk_thumbprint({**RFC7638_JWK, "kid": "x", "use": "sig"}) == RFC7638_THUMBPRINT


def test_key_pair_is_created_once_and_kept_private(issuer: DevIssuer, issuer_dir: Path) -> None:
    # GIVEN a dev issuer created in an empty folder
    key_file = issuer_dir / PRIVATE_KEY_FILE
    first_pem = key_file.read_bytes()

    # WHEN another dev issuer (e.g. `agent-memory token` while `make run` runs) uses the folder
    again = DevIssuer(issuer_dir)

    # THEN it reuses the same key, the private key file is 0600 and its folder 0700
    assert again.kid == issuer.kid
    assert key_file.read_bytes() == first_pem
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(issuer_dir.stat().st_mode) & 0o077 == 0
    assert [p.name for p in issuer_dir.iterdir()] == [PRIVATE_KEY_FILE]  # no temp files left


def test_loose_permissions_on_an_existing_key_are_tightened(issuer_dir: Path) -> None:
    key_file = issuer_dir / PRIVATE_KEY_FILE
    key_file.chmod(0o644)
    DevIssuer(issuer_dir)
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_jwks_publishes_only_the_public_key_with_its_thumbprint_kid(issuer: DevIssuer) -> None:
    # GIVEN the dev issuer's JWKS
    (jwk,) = issuer.jwks()["keys"]

    # THEN it is a public RS256 signing key, its kid the RFC 7638 thumbprint, no private member
    assert jwk["kid"] == issuer.kid == jwk_thumbprint(jwk)
    assert (jwk["kty"], jwk["alg"], jwk["use"]) == ("RSA", "RS256", "sig")
    assert not {"d", "p", "q", "dp", "dq", "qi"} & jwk.keys()


def test_minted_token_verifies_with_standard_claims(issuer: DevIssuer) -> None:
    # GIVEN a token minted for alice
    token = issuer.mint("alice", ttl_seconds=120)

    # WHEN inspected and verified
    header = jwt.get_unverified_header(token)
    claims = jwt.decode(token, options={"verify_signature": False})

    # THEN it is RS256 with the issuer's kid, carries iss/aud/sub/iat/nbf/exp, and verifies
    assert header["alg"] == "RS256"
    assert header["kid"] == issuer.kid
    assert claims["iss"] == DEFAULT_DEV_ISSUER
    assert claims["aud"] == DEFAULT_DEV_AUDIENCE
    assert claims["sub"] == "alice"
    assert claims["exp"] - claims["iat"] == 120
    assert claims["nbf"] == claims["iat"]
    assert _verifier(issuer).verify(token).subject == "alice"


def test_extra_claims_can_override_for_tests(issuer: DevIssuer) -> None:
    token = issuer.mint("alice", exp=1)
    with pytest.raises(InvalidTokenError) as caught:
        _verifier(issuer).verify(token)
    assert caught.value.reason == "expired"


def test_ttl_must_be_positive(issuer: DevIssuer) -> None:
    with pytest.raises(ValueError, match="ttl"):
        issuer.mint("alice", ttl_seconds=0)


def test_issuer_and_audience_are_configurable(issuer_dir: Path) -> None:
    custom = DevIssuer(issuer_dir, issuer="http://127.0.0.1:3000/dev-issuer", audience="aud-x")
    claims = jwt.decode(custom.mint("bob"), options={"verify_signature": False})
    assert (claims["iss"], claims["aud"]) == ("http://127.0.0.1:3000/dev-issuer", "aud-x")


def test_authorizer_env_round_trips_through_settings(issuer: DevIssuer) -> None:
    # GIVEN the environment the local stack gives the authorizer
    env = issuer.authorizer_env("http://127.0.0.1:9999/.well-known/jwks.json")
    # WHEN read back THEN it trusts exactly this issuer with RS256 only
    assert AuthSettings.from_env(env) == issuer.auth_settings(
        "http://127.0.0.1:9999/.well-known/jwks.json"
    )
    assert AuthSettings.from_env(env).algorithms == ("RS256",)


def test_a_key_file_that_is_not_rsa_is_refused(tmp_path: Path) -> None:
    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    (tmp_path / PRIVATE_KEY_FILE).write_bytes(pem)
    with pytest.raises(ValueError, match="RSA"):
        DevIssuer(tmp_path)


def test_default_key_dir_prefers_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("AGENT_MEMORY_DEV_ISSUER_DIR", str(tmp_path / "elsewhere"))
    assert default_key_dir() == tmp_path / "elsewhere"


def test_default_key_dir_is_under_the_repository_root(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # GIVEN a repository root (template.yaml + pyproject.toml) and a working dir below it
    (tmp_path / "template.yaml").write_text("")
    (tmp_path / "pyproject.toml").write_text("")
    nested = tmp_path / "functions" / "chat"
    nested.mkdir(parents=True)
    monkeypatch.delenv("AGENT_MEMORY_DEV_ISSUER_DIR", raising=False)
    monkeypatch.chdir(nested)
    # WHEN / THEN
    assert default_key_dir() == tmp_path / ".local" / "dev-issuer"
