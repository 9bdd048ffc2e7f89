"""Errors of token verification.

Every message is a constant: it never quotes the token, a claim value or a key id, because
these errors end up in logs. ``reason`` is a short, stable code for logs and metrics.
"""

from __future__ import annotations

from typing import ClassVar

from agent_memory.exceptions import AgentMemoryError, ConfigurationError


class AuthConfigurationError(ConfigurationError, ValueError):
    """The verifier's settings are missing or unsafe (e.g. a symmetric algorithm)."""


class InvalidTokenError(AgentMemoryError):
    """The token (or the ``Authorization`` header carrying it) is not acceptable."""

    reason: ClassVar[str] = "invalid_token"
    message: ClassVar[str] = "The token is not valid."

    def __init__(self) -> None:
        super().__init__(self.message)


class MissingTokenError(InvalidTokenError):
    reason = "missing_token"
    message = "No bearer token was presented."


class MalformedTokenError(InvalidTokenError):
    reason = "malformed"
    message = "The token or the Authorization header is malformed."


class DisallowedAlgorithmError(InvalidTokenError):
    reason = "disallowed_algorithm"
    message = "The token's algorithm is not allowed."


class UnknownKeyError(InvalidTokenError):
    reason = "unknown_key"
    message = "The token's signing key is not published by the issuer."


class WeakKeyError(InvalidTokenError):
    reason = "weak_key"
    message = "The issuer's signing key is below the minimum key size."


class JWKSUnavailableError(InvalidTokenError):
    reason = "jwks_unavailable"
    message = "The issuer's signing keys could not be fetched."


class BadSignatureError(InvalidTokenError):
    reason = "bad_signature"
    message = "The token's signature does not verify."


class ExpiredTokenError(InvalidTokenError):
    reason = "expired"
    message = "The token has expired."


class NotYetValidTokenError(InvalidTokenError):
    reason = "not_yet_valid"
    message = "The token is not valid yet."


class WrongIssuerError(InvalidTokenError):
    reason = "wrong_issuer"
    message = "The token was issued by an untrusted issuer."


class WrongAudienceError(InvalidTokenError):
    reason = "wrong_audience"
    message = "The token is not meant for this API."


class MissingClaimError(InvalidTokenError):
    reason = "missing_claim"
    message = "The token lacks a required claim."


class MissingSubjectError(InvalidTokenError):
    reason = "missing_subject"
    message = "The token has no subject."


class InvalidSubjectError(InvalidTokenError):
    reason = "invalid_subject"
    message = "The token's subject is not an acceptable identifier."


class TokenInQueryStringError(InvalidTokenError):
    reason = "token_in_query_string"
    message = "A token must not be sent in the query string."


class MissingSubprotocolError(InvalidTokenError):
    reason = "missing_subprotocol"
    message = "The client did not offer the agent-memory.v1 subprotocol."
