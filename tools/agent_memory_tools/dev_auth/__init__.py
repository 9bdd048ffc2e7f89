"""The local stand-in for an identity provider: a dev issuer and a JWKS server.

Used by ``make run``, ``agent-memory token``, the load test and the tests. The deployed
authorizer trusts the issuer named in the template, never this key.
"""

from __future__ import annotations

from agent_memory_tools.dev_auth.dev_issuer import (
    DEFAULT_DEV_AUDIENCE,
    DEFAULT_DEV_ISSUER,
    ENV_DEV_ISSUER_DIR,
    DevIssuer,
    default_key_dir,
    jwk_thumbprint,
)
from agent_memory_tools.dev_auth.jwks_server import JWKSServer, serve_jwks

__all__ = [
    "DEFAULT_DEV_AUDIENCE",
    "DEFAULT_DEV_ISSUER",
    "ENV_DEV_ISSUER_DIR",
    "DevIssuer",
    "JWKSServer",
    "default_key_dir",
    "jwk_thumbprint",
    "serve_jwks",
]
