"""TokenVerifier over an in-memory JWKS: every way a token can be wrong is denied with a
stable reason, and a good token yields its subject and nothing else."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import jwt
import pytest
from auth_support import KeyPair, StaticKeys, Tokens
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from agent_memory.auth import (
    MAX_SUBJECT_LENGTH,
    AuthSettings,
    InvalidTokenError,
    TokenVerifier,
    VerifiedIdentity,
)


def _reason(verifier: TokenVerifier, token: str) -> str:
    with pytest.raises(InvalidTokenError) as caught:
        verifier.verify(token)
    error = caught.value
    # Nothing of the token leaks through the error or its chain.
    if token:
        assert token not in str(error)
        assert token not in repr(error)
    assert error.__cause__ is None
    assert error.__context__ is None or error.__suppress_context__
    return error.reason


def test_valid_token_yields_only_the_subject(
    verifier: TokenVerifier, rsa_key: KeyPair, tokens: Tokens
) -> None:
    # GIVEN a token signed by a published key with every claim right, plus extra claims
    token = tokens.sign(rsa_key, tokens.claims(email="alice@example.test", scope="admin"))

    # WHEN verified
    identity = verifier.verify(token)

    # THEN only the subject comes back: no other claim can reach the handlers
    assert identity == VerifiedIdentity(subject="alice")
    assert [f.name for f in dataclasses.fields(identity)] == ["subject"]


def test_audience_list_containing_ours_is_accepted(
    verifier: TokenVerifier, rsa_key: KeyPair, tokens: Tokens
) -> None:
    token = tokens.sign(rsa_key, tokens.claims(aud=["other-api", tokens.audience]))
    assert verifier.verify(token).subject == "alice"


def test_wrong_signature_is_denied(
    verifier: TokenVerifier, rsa_key: KeyPair, foreign_rsa_key: KeyPair, tokens: Tokens
) -> None:
    # GIVEN a token naming our key id but signed with another key
    token = tokens.sign(foreign_rsa_key, tokens.claims(), kid=rsa_key.kid)
    # WHEN / THEN
    assert _reason(verifier, token) == "bad_signature"


def test_tampered_payload_is_denied(
    verifier: TokenVerifier, rsa_key: KeyPair, tokens: Tokens
) -> None:
    # GIVEN a valid token whose payload is swapped for another user's
    header, _, signature = tokens.sign(rsa_key, tokens.claims()).split(".")
    other_payload = tokens.sign(rsa_key, tokens.claims(sub="mallory")).split(".")[1]
    # WHEN / THEN
    assert _reason(verifier, f"{header}.{other_payload}.{signature}") == "bad_signature"


def test_alg_none_is_denied_without_a_key_lookup(
    verifier: TokenVerifier, keys: StaticKeys, rsa_key: KeyPair, tokens: Tokens
) -> None:
    # GIVEN an unsigned token (alg: none)
    token = tokens.unsigned(tokens.claims(), kid=rsa_key.kid)
    # WHEN verified THEN denied before the JWKS is even consulted
    assert _reason(verifier, token) == "disallowed_algorithm"
    assert keys.lookups == []


def test_hs256_signed_with_the_public_key_is_denied(
    verifier: TokenVerifier, keys: StaticKeys, rsa_key: KeyPair, tokens: Tokens
) -> None:
    # GIVEN the key-confusion forgery: HS256 keyed with the issuer's public key PEM
    public_pem = rsa_key.private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    token = tokens.hmac_signed(public_pem, tokens.claims(), kid=rsa_key.kid)
    # WHEN / THEN
    assert _reason(verifier, token) == "disallowed_algorithm"
    assert keys.lookups == []


def test_expired_token_is_denied(verifier: TokenVerifier, rsa_key: KeyPair, tokens: Tokens) -> None:
    now = int(time.time())
    token = tokens.sign(rsa_key, tokens.claims(iat=now - 600, nbf=now - 600, exp=now - 120))
    assert _reason(verifier, token) == "expired"


@pytest.mark.parametrize("claim", ["nbf", "iat"])
def test_token_not_yet_valid_is_denied(
    verifier: TokenVerifier, rsa_key: KeyPair, tokens: Tokens, claim: str
) -> None:
    # GIVEN a token that only becomes valid in two minutes (beyond the 5 s leeway)
    now = int(time.time())
    token = tokens.sign(rsa_key, tokens.claims(**{claim: now + 120}, exp=now + 600))
    # WHEN / THEN
    assert _reason(verifier, token) == "not_yet_valid"


def test_leeway_absorbs_small_clock_skew(
    make_verifier: Callable[..., TokenVerifier], rsa_key: KeyPair, tokens: Tokens
) -> None:
    # GIVEN a token that expired 3 s ago and another valid from 3 s in the future
    now = int(time.time())  # at call time: the leeway is measured against the real clock
    expired = tokens.sign(rsa_key, tokens.claims(iat=now - 300, nbf=now - 300, exp=now - 3))
    early = tokens.sign(rsa_key, tokens.claims(iat=now + 3, nbf=now + 3))

    # WHEN verified with the default 5 s leeway THEN both pass
    assert make_verifier().verify(expired).subject == "alice"
    assert make_verifier().verify(early).subject == "alice"

    # AND with no leeway both are denied
    strict = make_verifier(leeway_seconds=0)
    assert _reason(strict, expired) == "expired"
    assert _reason(strict, early) == "not_yet_valid"


def test_wrong_issuer_is_denied(verifier: TokenVerifier, rsa_key: KeyPair, tokens: Tokens) -> None:
    token = tokens.sign(rsa_key, tokens.claims(iss="https://evil.example.test"))
    assert _reason(verifier, token) == "wrong_issuer"


def test_issuer_is_compared_exactly(
    verifier: TokenVerifier, rsa_key: KeyPair, tokens: Tokens
) -> None:
    token = tokens.sign(rsa_key, tokens.claims(iss=tokens.issuer + "/"))
    assert _reason(verifier, token) == "wrong_issuer"


@pytest.mark.parametrize("audience", ["another-api", ["a", "b"]])
def test_wrong_audience_is_denied(
    verifier: TokenVerifier, rsa_key: KeyPair, tokens: Tokens, audience: object
) -> None:
    token = tokens.sign(rsa_key, tokens.claims(aud=audience))
    assert _reason(verifier, token) == "wrong_audience"


@pytest.mark.parametrize("claim", ["exp", "iss", "aud"])
def test_missing_required_claim_is_denied(
    verifier: TokenVerifier, rsa_key: KeyPair, tokens: Tokens, claim: str
) -> None:
    token = tokens.sign(rsa_key, tokens.claims(**{claim: None}))
    assert _reason(verifier, token) == "missing_claim"


@pytest.mark.parametrize("subject", [None, "", "   "])
def test_missing_or_empty_subject_is_denied(
    verifier: TokenVerifier, rsa_key: KeyPair, tokens: Tokens, subject: str | None
) -> None:
    token = tokens.sign(rsa_key, tokens.claims(sub=subject))
    assert _reason(verifier, token) == "missing_subject"


@pytest.mark.parametrize(
    "subject",
    [
        42,
        ["alice"],
        "a" * (MAX_SUBJECT_LENGTH + 1),
        "alice\n",
        "ali\x00ce",
        "alice\u202etxt",  # right-to-left override
        "ali\u200bce",  # zero-width space
        "alice\u2028",
        " alice",
    ],
)
def test_unacceptable_subject_is_denied(
    verifier: TokenVerifier, rsa_key: KeyPair, tokens: Tokens, subject: object
) -> None:
    token = tokens.sign(rsa_key, tokens.claims(sub=subject))
    assert _reason(verifier, token) == "invalid_subject"


@pytest.mark.parametrize(
    "subject", ["a" * MAX_SUBJECT_LENGTH, "auth0|5f7c8ec7c33c6c004bbafe82", "Zoë Ångström 山田"]
)
def test_sane_subjects_pass_unchanged(
    verifier: TokenVerifier, rsa_key: KeyPair, tokens: Tokens, subject: str
) -> None:
    token = tokens.sign(rsa_key, tokens.claims(sub=subject))
    assert verifier.verify(token).subject == subject


def test_unknown_kid_is_denied(verifier: TokenVerifier, rsa_key: KeyPair, tokens: Tokens) -> None:
    token = tokens.sign(rsa_key, tokens.claims(), kid="not-published")
    assert _reason(verifier, token) == "unknown_key"


def test_token_without_kid_is_denied_without_a_key_lookup(
    verifier: TokenVerifier, keys: StaticKeys, rsa_key: KeyPair, tokens: Tokens
) -> None:
    token = tokens.sign(rsa_key, tokens.claims(), kid=None)
    assert _reason(verifier, token) == "unknown_key"
    assert keys.lookups == []


def test_another_issuers_key_claiming_our_issuer_is_denied(
    verifier: TokenVerifier, foreign_rsa_key: KeyPair, tokens: Tokens
) -> None:
    # GIVEN a token with our iss and aud, signed by a key pair that is not in our JWKS
    token = tokens.sign(foreign_rsa_key, tokens.claims())
    # WHEN / THEN
    assert _reason(verifier, token) == "unknown_key"


def test_es256_works_when_configured(
    make_verifier: Callable[..., TokenVerifier], ec_key: KeyPair, tokens: Tokens
) -> None:
    token = tokens.sign(ec_key, tokens.claims())
    assert make_verifier(algorithms=("ES256",)).verify(token).subject == "alice"


def test_es256_is_denied_when_only_rs256_is_pinned(
    make_verifier: Callable[..., TokenVerifier], ec_key: KeyPair, tokens: Tokens
) -> None:
    token = tokens.sign(ec_key, tokens.claims())
    assert _reason(make_verifier(algorithms=("RS256",)), token) == "disallowed_algorithm"


def test_header_algorithm_must_match_the_published_key(
    make_verifier: Callable[..., TokenVerifier], rsa_key: KeyPair, tokens: Tokens
) -> None:
    # GIVEN a key published for RS256 and a token claiming PS256 with it (both pinned)
    verifier = make_verifier(algorithms=("RS256", "PS256"))
    token = tokens.sign(rsa_key, tokens.claims(), alg="PS256")
    # WHEN / THEN the key's own algorithm wins
    assert _reason(verifier, token) == "disallowed_algorithm"


@pytest.mark.filterwarnings("ignore::jwt.warnings.InsecureKeyLengthWarning")
def test_weak_rsa_key_is_refused(tokens: Tokens) -> None:
    # GIVEN an issuer publishing a 1024-bit RSA key
    weak = KeyPair(rsa.generate_private_key(public_exponent=65537, key_size=1024), "weak", "RS256")
    verifier = TokenVerifier(
        AuthSettings(issuer=tokens.issuer, audience=tokens.audience),
        keys=StaticKeys({"keys": [weak.public_jwk()]}),
    )
    # WHEN / THEN
    assert _reason(verifier, tokens.sign(weak, tokens.claims())) == "weak_key"


@pytest.mark.parametrize(
    "token",
    [
        "abc",
        "a.b.c",
        "eyJhbGciOiJSUzI1NiJ9.@@@.c2ln",
        "x" * 9000,
        "tök.én.x",
        "W10.e30.c2ln",  # header is a JSON array
    ],
)
def test_malformed_tokens_are_denied(verifier: TokenVerifier, token: str) -> None:
    assert _reason(verifier, token) == "malformed"


def test_garbage_payload_under_a_good_header_is_denied(
    verifier: TokenVerifier, rsa_key: KeyPair, tokens: Tokens
) -> None:
    header, _, signature = tokens.sign(rsa_key, tokens.claims()).split(".")
    assert _reason(verifier, f"{header}.bm90LWpzb24.{signature}") in {"malformed", "bad_signature"}


def test_empty_token_is_missing(verifier: TokenVerifier) -> None:
    assert _reason(verifier, "") == "missing_token"


def test_key_source_outage_is_jwks_unavailable(rsa_key: KeyPair, tokens: Tokens) -> None:
    # GIVEN a key source whose endpoint cannot be reached
    class Down:
        def get_signing_key(self, kid: str) -> jwt.PyJWK:
            raise jwt.PyJWKClientConnectionError("connection refused")

    verifier = TokenVerifier(
        AuthSettings(issuer=tokens.issuer, audience=tokens.audience), keys=Down()
    )
    # WHEN / THEN
    assert _reason(verifier, tokens.sign(rsa_key, tokens.claims())) == "jwks_unavailable"


def test_the_default_leeway_does_not_accept_a_token_30_s_past_its_exp(
    make_verifier: Callable[..., TokenVerifier], rsa_key: KeyPair, tokens: Tokens
) -> None:
    # GIVEN a token that expired 20 s ago (issue 12 item 8: 30 s leeway accepted it)
    now = int(time.time())
    expired = tokens.sign(rsa_key, tokens.claims(iat=now - 300, nbf=now - 300, exp=now - 20))
    # WHEN / THEN the default verifier denies it
    assert _reason(make_verifier(), expired) == "expired"
