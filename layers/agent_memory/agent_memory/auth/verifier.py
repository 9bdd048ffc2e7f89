"""Verify bearer JWTs against the issuer's JWKS.

PyJWT does all of the cryptography and the claim checks; this module pins the policy
(asymmetric algorithms only, required claims, issuer, audience, leeway), bounds the traffic
to the issuer's JWKS endpoint, and turns PyJWT's errors into stable reason codes.
"""

from __future__ import annotations

import re
import time
import unicodedata
from dataclasses import dataclass
from typing import Any, Protocol

import jwt
from jwt.exceptions import (
    DecodeError,
    ExpiredSignatureError,
    ImmatureSignatureError,
    InvalidAlgorithmError,
    InvalidAudienceError,
    InvalidIssuerError,
    InvalidKeyError,
    InvalidSignatureError,
    MissingRequiredClaimError,
    PyJWKClientConnectionError,
    PyJWTError,
)
from jwt.exceptions import InvalidSubjectError as _JWTInvalidSubjectError

from agent_memory.auth.config import AuthSettings
from agent_memory.auth.exceptions import (
    BadSignatureError,
    DisallowedAlgorithmError,
    ExpiredTokenError,
    InvalidSubjectError,
    InvalidTokenError,
    JWKSUnavailableError,
    MalformedTokenError,
    MissingClaimError,
    MissingSubjectError,
    MissingTokenError,
    NotYetValidTokenError,
    UnknownKeyError,
    WeakKeyError,
    WrongAudienceError,
    WrongIssuerError,
)

REQUIRED_CLAIMS: tuple[str, ...] = ("exp", "iss", "aud", "sub")
MAX_TOKEN_LENGTH = 8192
MAX_KID_LENGTH = 256
MAX_SUBJECT_LENGTH = 256

# RFC 6750 b64token after the scheme; the scheme itself is case-insensitive (RFC 9110).
_BEARER = re.compile(r"bearer +([A-Za-z0-9\-._~+/]+=*)", re.IGNORECASE | re.ASCII)
# Control, format (bidi overrides, zero-width), surrogate and line/paragraph separators:
# none belongs in a stable user id, and all of them can disguise one in logs and exports.
_FORBIDDEN_SUBJECT_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


@dataclass(frozen=True, slots=True)
class VerifiedIdentity:
    """Who the caller is: the issuer's stable subject id, and nothing else."""

    subject: str


class SigningKeySource(Protocol):
    """Finds the issuer's public key by ``kid`` (``jwt.PyJWKClient`` is one)."""

    def get_signing_key(self, kid: str) -> jwt.PyJWK: ...


def token_from_authorization_header(value: str | None) -> str:
    """The token of an ``Authorization: Bearer <token>`` header value.

    Raises ``MissingTokenError`` for no value and ``MalformedTokenError`` for anything that is
    not exactly one bearer token (another scheme, no token, several parts, odd characters).
    """
    if value is None or not value.strip():
        raise MissingTokenError()
    if len(value) > MAX_TOKEN_LENGTH + 64:
        raise MalformedTokenError()
    match = _BEARER.fullmatch(value.strip(" \t"))
    if match is None:
        raise MalformedTokenError()
    return match.group(1)


class TokenVerifier:
    """Verifies tokens of one issuer for one audience; safe to share across threads.

    Holds no request data: only the settings and the issuer's key cache, so one instance per
    process (a Lambda container) serves every invocation and fetches the JWKS rarely.
    """

    def __init__(self, settings: AuthSettings, *, keys: SigningKeySource | None = None) -> None:
        self._settings = settings
        self._algorithms = list(settings.algorithms)
        self._keys: SigningKeySource = keys if keys is not None else _jwk_client(settings)

    @property
    def settings(self) -> AuthSettings:
        return self._settings

    def verify(self, token: str) -> VerifiedIdentity:
        """The identity of a valid token; raises an ``InvalidTokenError`` subclass otherwise."""
        if not isinstance(token, str) or not token:
            raise MissingTokenError()
        if len(token) > MAX_TOKEN_LENGTH or not token.isascii():
            raise MalformedTokenError()
        try:
            header = jwt.get_unverified_header(token)
        except PyJWTError:
            raise MalformedTokenError() from None
        # Checked before any key lookup so that `alg: none` / HS256 / junk kids never cause a
        # JWKS fetch; PyJWT checks the algorithm again when it verifies the signature.
        algorithm = header.get("alg")
        if algorithm not in self._algorithms:
            raise DisallowedAlgorithmError()
        kid = header.get("kid")
        if not isinstance(kid, str) or not kid or len(kid) > MAX_KID_LENGTH:
            raise UnknownKeyError()
        key = self._signing_key(kid)
        if key.algorithm_name != algorithm:
            raise DisallowedAlgorithmError()
        claims = self._decode(token, key)
        return VerifiedIdentity(subject=_subject(claims))

    def _signing_key(self, kid: str) -> jwt.PyJWK:
        try:
            return self._keys.get_signing_key(kid)
        except PyJWKClientConnectionError:
            raise JWKSUnavailableError() from None
        except PyJWTError:
            raise UnknownKeyError() from None

    def _decode(self, token: str, key: jwt.PyJWK) -> dict[str, Any]:
        try:
            return jwt.decode(
                token,
                key=key,
                algorithms=self._algorithms,
                audience=self._settings.audience,
                issuer=self._settings.issuer,
                leeway=self._settings.leeway_seconds,
                options={"require": list(REQUIRED_CLAIMS), "enforce_minimum_key_length": True},
            )
        except InvalidSignatureError:
            raise BadSignatureError() from None
        except ExpiredSignatureError:
            raise ExpiredTokenError() from None
        except ImmatureSignatureError:
            raise NotYetValidTokenError() from None
        except InvalidIssuerError:
            raise WrongIssuerError() from None
        except InvalidAudienceError:
            raise WrongAudienceError() from None
        except MissingRequiredClaimError as error:
            raise (MissingSubjectError() if error.claim == "sub" else MissingClaimError()) from None
        except _JWTInvalidSubjectError:
            raise InvalidSubjectError() from None
        except InvalidAlgorithmError:
            raise DisallowedAlgorithmError() from None
        except InvalidKeyError:
            raise WeakKeyError() from None
        except DecodeError:
            raise MalformedTokenError() from None
        except PyJWTError:
            raise InvalidTokenError() from None


def _subject(claims: dict[str, Any]) -> str:
    subject = claims.get("sub")
    if not isinstance(subject, str):
        raise InvalidSubjectError()
    if not subject.strip():
        raise MissingSubjectError()
    if (
        len(subject) > MAX_SUBJECT_LENGTH
        or subject != subject.strip()
        or any(unicodedata.category(c) in _FORBIDDEN_SUBJECT_CATEGORIES for c in subject)
    ):
        raise InvalidSubjectError()
    return subject


class _BoundedJWKClient(jwt.PyJWKClient):
    """``PyJWKClient`` whose failed fetches back off as well.

    PyJWKClient already caches the key set (``lifespan``) and allows one forced refresh per
    ``cooldown_duration`` for unknown kids, but that cooldown starts on successful fetches
    only: while the endpoint is down or answers garbage, every token with an unknown kid
    (or every request once the cache expired) would try the network again, with the full
    timeout. Failures are also normalised to one connection error.
    """

    def __init__(self, uri: str, *, failure_backoff: float, **kwargs: Any) -> None:
        super().__init__(uri, **kwargs)
        self._failure_backoff = failure_backoff
        self._last_failed_fetch: float | None = None

    def fetch_data(self) -> Any:
        # Runs under PyJWKClient's client lock (get_signing_key holds it).
        failed_at = self._last_failed_fetch
        if failed_at is not None and time.monotonic() - failed_at < self._failure_backoff:
            raise PyJWKClientConnectionError("JWKS fetch skipped after a recent failure")
        try:
            data = super().fetch_data()
        except (PyJWTError, ValueError):
            # ValueError: a body that is not JSON (json.load is not wrapped by PyJWT).
            self._last_failed_fetch = time.monotonic()
            raise PyJWKClientConnectionError("JWKS fetch failed") from None
        self._last_failed_fetch = None
        return data


def _jwk_client(settings: AuthSettings) -> _BoundedJWKClient:
    return _BoundedJWKClient(
        settings.jwks_url,
        # The per-kid LRU never expires: a key the issuer withdrew would stay trusted.
        cache_keys=False,
        cache_jwk_set=True,
        lifespan=settings.jwks_cache_seconds,
        timeout=settings.jwks_timeout_seconds,
        cooldown_duration=settings.jwks_refresh_cooldown_seconds,
        failure_backoff=settings.jwks_failure_backoff_seconds,
        headers={"User-Agent": "agent-memory-authorizer"},
    )


__all__ = [
    "MAX_SUBJECT_LENGTH",
    "MAX_TOKEN_LENGTH",
    "REQUIRED_CLAIMS",
    "SigningKeySource",
    "TokenVerifier",
    "VerifiedIdentity",
    "token_from_authorization_header",
]
