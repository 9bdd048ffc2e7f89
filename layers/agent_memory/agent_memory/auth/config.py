"""Settings of the token verifier, validated once at construction."""

from __future__ import annotations

import ipaddress
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from agent_memory.auth.exceptions import AuthConfigurationError

#: Asymmetric JWS algorithms only: with a symmetric one (HS*), anyone holding the "public"
#: verification key could mint tokens, and ``none`` has no signature at all.
ASYMMETRIC_ALGORITHMS: frozenset[str] = frozenset(
    {
        "RS256", "RS384", "RS512",
        "PS256", "PS384", "PS512",
        "ES256", "ES384", "ES512",
        "EdDSA",
    }
)  # fmt: skip
DEFAULT_ALGORITHMS: tuple[str, ...] = ("RS256", "ES256")
JWKS_PATH = "/.well-known/jwks.json"
# Clock skew tolerated on exp/nbf/iat. Small on purpose: with the authorizer's cache
# (AuthorizerCacheSeconds) it bounds how long a token is accepted after its exp.
DEFAULT_LEEWAY_SECONDS = 5.0
MAX_LEEWAY_SECONDS = 5.0

ENV_ISSUER = "ISSUER_URL"
ENV_AUDIENCE = "AUDIENCE"
ENV_JWKS_URL = "JWKS_URL"
ENV_ALGORITHMS = "JWT_ALGORITHMS"
ENV_LEEWAY = "JWT_LEEWAY_SECONDS"


@dataclass(frozen=True, slots=True)
class AuthSettings:
    """Whom to trust and how.

    ``jwks_url`` defaults to ``issuer + "/.well-known/jwks.json"``. It must be ``https``;
    plain ``http`` is accepted for loopback hosts only (the local dev issuer).

    The JWKS cache knobs bound the traffic to the issuer: the key set is refetched when it
    is older than ``jwks_cache_seconds``; a token with an unknown ``kid`` forces at most
    one refetch per ``jwks_refresh_cooldown_seconds``; after a failed fetch no new fetch is
    tried for ``jwks_failure_backoff_seconds``.
    """

    issuer: str
    audience: str
    jwks_url: str = ""
    algorithms: tuple[str, ...] = DEFAULT_ALGORITHMS
    leeway_seconds: float = DEFAULT_LEEWAY_SECONDS
    jwks_cache_seconds: float = 300
    jwks_refresh_cooldown_seconds: float = 10
    jwks_failure_backoff_seconds: float = 5
    jwks_timeout_seconds: float = 3

    def __post_init__(self) -> None:
        if not _is_clean_text(self.issuer):
            raise AuthConfigurationError("The issuer must be a non-empty string without spaces.")
        if not _is_clean_text(self.audience):
            raise AuthConfigurationError("The audience must be a non-empty string without spaces.")
        if not self.jwks_url:
            object.__setattr__(self, "jwks_url", self.issuer.rstrip("/") + JWKS_PATH)
        _check_jwks_url(self.jwks_url)
        object.__setattr__(self, "algorithms", _check_algorithms(self.algorithms))
        _check_number("leeway_seconds", self.leeway_seconds, low=0, high=MAX_LEEWAY_SECONDS)
        _check_number("jwks_cache_seconds", self.jwks_cache_seconds, low=0.1, high=86_400)
        # Zero would disable PyJWKClient's cooldown: every unknown kid would refetch.
        _check_number(
            "jwks_refresh_cooldown_seconds", self.jwks_refresh_cooldown_seconds, low=0.01, high=3600
        )
        _check_number(
            "jwks_failure_backoff_seconds", self.jwks_failure_backoff_seconds, low=0.01, high=3600
        )
        _check_number("jwks_timeout_seconds", self.jwks_timeout_seconds, low=0.1, high=30)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> AuthSettings:
        """Read ``ISSUER_URL``, ``AUDIENCE`` (required), ``JWKS_URL``, ``JWT_ALGORITHMS``
        (comma-separated) and ``JWT_LEEWAY_SECONDS`` (optional)."""
        env = os.environ if environ is None else environ
        issuer = env.get(ENV_ISSUER, "").strip()
        audience = env.get(ENV_AUDIENCE, "").strip()
        if not issuer:
            raise AuthConfigurationError(f"{ENV_ISSUER} is not set.")
        if not audience:
            raise AuthConfigurationError(f"{ENV_AUDIENCE} is not set.")
        algorithms_text = env.get(ENV_ALGORITHMS, "").strip()
        algorithms = (
            tuple(a.strip() for a in algorithms_text.split(",") if a.strip())
            if algorithms_text
            else DEFAULT_ALGORITHMS
        )
        leeway_text = env.get(ENV_LEEWAY, "").strip()
        try:
            leeway = float(leeway_text) if leeway_text else DEFAULT_LEEWAY_SECONDS
        except ValueError:
            raise AuthConfigurationError(f"{ENV_LEEWAY} must be a number.") from None
        return cls(
            issuer=issuer,
            audience=audience,
            jwks_url=env.get(ENV_JWKS_URL, "").strip(),
            algorithms=algorithms,
            leeway_seconds=leeway,
        )


def _is_clean_text(value: object) -> bool:
    return isinstance(value, str) and bool(value) and not any(c.isspace() for c in value)


def _check_algorithms(algorithms: tuple[str, ...]) -> tuple[str, ...]:
    if isinstance(algorithms, str) or not algorithms:
        raise AuthConfigurationError("algorithms must be a non-empty sequence of names.")
    refused = [a for a in algorithms if a not in ASYMMETRIC_ALGORITHMS]
    if refused:
        raise AuthConfigurationError(
            f"Only asymmetric algorithms are allowed ({', '.join(sorted(ASYMMETRIC_ALGORITHMS))});"
            f" refused: {', '.join(map(str, refused))}."
        )
    return tuple(dict.fromkeys(algorithms))


def _check_jwks_url(url: str) -> None:
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:
        raise AuthConfigurationError("The JWKS URL is not a valid URL.") from None
    if parts.scheme == "https" and host:
        return
    if parts.scheme == "http" and _is_loopback(host):
        return
    raise AuthConfigurationError(
        "The JWKS URL must be https (plain http only for a loopback host)."
    )


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _check_number(name: str, value: float, *, low: float, high: float) -> None:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise AuthConfigurationError(f"{name} must be a number from {low} to {high}.")
