"""JWT verification for the authorizer: PyJWT against the issuer's JWKS.

``TokenVerifier(AuthSettings.from_env()).verify(token_from_authorization_header(value))``
returns the caller's ``VerifiedIdentity`` (its ``subject`` is the memory owner) or raises an
``InvalidTokenError`` subclass whose ``reason`` is a stable code. The local stand-ins for an
identity provider (the dev issuer, the JWKS server) are tools: ``agent_memory_tools.dev_auth``.
"""

from __future__ import annotations

from agent_memory.auth.config import (
    ASYMMETRIC_ALGORITHMS,
    DEFAULT_ALGORITHMS,
    ENV_ALGORITHMS,
    ENV_AUDIENCE,
    ENV_ISSUER,
    ENV_JWKS_URL,
    ENV_LEEWAY,
    JWKS_PATH,
    AuthSettings,
)
from agent_memory.auth.exceptions import (
    AuthConfigurationError,
    BadSignatureError,
    DisallowedAlgorithmError,
    ExpiredTokenError,
    InvalidSubjectError,
    InvalidTokenError,
    JWKSUnavailableError,
    MalformedTokenError,
    MissingClaimError,
    MissingSubjectError,
    MissingSubprotocolError,
    MissingTokenError,
    NotYetValidTokenError,
    TokenInQueryStringError,
    UnknownKeyError,
    WeakKeyError,
    WrongAudienceError,
    WrongIssuerError,
)
from agent_memory.auth.verifier import (
    MAX_SUBJECT_LENGTH,
    MAX_TOKEN_LENGTH,
    REQUIRED_CLAIMS,
    SigningKeySource,
    TokenVerifier,
    VerifiedIdentity,
    token_from_authorization_header,
)
from agent_memory.auth.websocket import (
    BEARER_SUBPROTOCOL_PREFIX,
    SUBPROTOCOL,
    offered_subprotocols,
    refuse_token_in_query,
    token_from_subprotocols,
)

__all__ = [
    "ASYMMETRIC_ALGORITHMS",
    "BEARER_SUBPROTOCOL_PREFIX",
    "DEFAULT_ALGORITHMS",
    "ENV_ALGORITHMS",
    "ENV_AUDIENCE",
    "ENV_ISSUER",
    "ENV_JWKS_URL",
    "ENV_LEEWAY",
    "JWKS_PATH",
    "MAX_SUBJECT_LENGTH",
    "MAX_TOKEN_LENGTH",
    "REQUIRED_CLAIMS",
    "SUBPROTOCOL",
    "AuthConfigurationError",
    "AuthSettings",
    "BadSignatureError",
    "DisallowedAlgorithmError",
    "ExpiredTokenError",
    "InvalidSubjectError",
    "InvalidTokenError",
    "JWKSUnavailableError",
    "MalformedTokenError",
    "MissingClaimError",
    "MissingSubjectError",
    "MissingSubprotocolError",
    "MissingTokenError",
    "NotYetValidTokenError",
    "SigningKeySource",
    "TokenInQueryStringError",
    "TokenVerifier",
    "UnknownKeyError",
    "VerifiedIdentity",
    "WeakKeyError",
    "WrongAudienceError",
    "WrongIssuerError",
    "offered_subprotocols",
    "refuse_token_in_query",
    "token_from_authorization_header",
    "token_from_subprotocols",
]
