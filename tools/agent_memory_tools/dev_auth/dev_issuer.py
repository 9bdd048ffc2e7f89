"""The local dev issuer behind ``make run``, ``agent-memory token`` and the tests.

An RSA key pair created once under an ignored folder, its public JWKS, and RS256 tokens
signed with it. It only ever exists on a developer's machine: the deployed authorizer trusts
the issuer named in the template, never this key.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
import uuid
from pathlib import Path
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm
from jwt.utils import base64url_encode

from agent_memory.auth.config import (
    ENV_ALGORITHMS,
    ENV_AUDIENCE,
    ENV_ISSUER,
    ENV_JWKS_URL,
    AuthSettings,
)

#: Port-independent, so the stack and ``agent-memory token`` agree without coordination;
#: not a URL, so the JWKS URL must be given explicitly (the local stack serves it).
DEFAULT_DEV_ISSUER = "urn:agent-memory:dev-issuer"
DEFAULT_DEV_AUDIENCE = "agent-memory-local"
ENV_DEV_ISSUER_DIR = "AGENT_MEMORY_DEV_ISSUER_DIR"
PRIVATE_KEY_FILE = "private_key.pem"
DEV_ALGORITHM = "RS256"
_KEY_SIZE = 2048


class DevIssuer:
    """Mints tokens for local use with a key pair kept in ``key_dir``.

    The key pair is created on first use (private key file mode 0600) and reused afterwards,
    so tokens minted by ``agent-memory token`` stay valid across restarts of ``make run``.
    """

    def __init__(
        self,
        key_dir: str | Path | None = None,
        *,
        issuer: str = DEFAULT_DEV_ISSUER,
        audience: str = DEFAULT_DEV_AUDIENCE,
    ) -> None:
        self._key_dir = Path(key_dir) if key_dir is not None else default_key_dir()
        self._issuer = issuer
        self._audience = audience
        self._private_key = _load_or_create_key(self._key_dir / PRIVATE_KEY_FILE)
        public_jwk = RSAAlgorithm.to_jwk(self._private_key.public_key(), as_dict=True)
        self._kid = jwk_thumbprint(public_jwk)
        self._public_jwk: dict[str, Any] = {
            "kty": "RSA",
            "n": public_jwk["n"],
            "e": public_jwk["e"],
            "kid": self._kid,
            "use": "sig",
            "alg": DEV_ALGORITHM,
        }

    @property
    def issuer(self) -> str:
        return self._issuer

    @property
    def audience(self) -> str:
        return self._audience

    @property
    def kid(self) -> str:
        return self._kid

    @property
    def key_dir(self) -> Path:
        return self._key_dir

    def jwks(self) -> dict[str, Any]:
        """The public JWK Set (a fresh copy) to serve at the JWKS URL."""
        return {"keys": [dict(self._public_jwk)]}

    def mint(self, subject: str, ttl_seconds: int = 3600, **extra_claims: Any) -> str:
        """An RS256 token for ``subject``; ``extra_claims`` are added last (and may override
        the standard ones, which tests use to make expired or foreign tokens)."""
        if ttl_seconds <= 0:
            raise ValueError("ttl_seconds must be positive.")
        now = int(time.time())
        claims: dict[str, Any] = {
            "iss": self._issuer,
            "aud": self._audience,
            "sub": subject,
            "iat": now,
            "nbf": now,
            "exp": now + ttl_seconds,
            "jti": uuid.uuid4().hex,
        }
        claims.update(extra_claims)
        return jwt.encode(
            claims, self._private_key, algorithm=DEV_ALGORITHM, headers={"kid": self._kid}
        )

    def auth_settings(self, jwks_url: str) -> AuthSettings:
        """Verifier settings that trust this issuer (and nothing else)."""
        return AuthSettings(
            issuer=self._issuer,
            audience=self._audience,
            jwks_url=jwks_url,
            algorithms=(DEV_ALGORITHM,),
        )

    def authorizer_env(self, jwks_url: str) -> dict[str, str]:
        """The authorizer's environment variables that trust this issuer."""
        return {
            ENV_ISSUER: self._issuer,
            ENV_AUDIENCE: self._audience,
            ENV_JWKS_URL: jwks_url,
            ENV_ALGORITHMS: DEV_ALGORITHM,
        }


def default_key_dir() -> Path:
    """``$AGENT_MEMORY_DEV_ISSUER_DIR``, else ``.local/dev-issuer`` at the repository root
    (the nearest folder up from the working directory holding ``template.yaml`` and
    ``pyproject.toml``), else under the working directory."""
    configured = os.environ.get(ENV_DEV_ISSUER_DIR, "").strip()
    if configured:
        return Path(configured)
    cwd = Path.cwd()
    return (repository_root(cwd) or cwd) / ".local" / "dev-issuer"


def repository_root(start: Path) -> Path | None:
    """The nearest folder from ``start`` up that holds ``template.yaml`` and
    ``pyproject.toml`` (an agent-memory checkout), or None."""
    for folder in (start, *start.parents):
        if (folder / "template.yaml").is_file() and (folder / "pyproject.toml").is_file():
            return folder
    return None


def jwk_thumbprint(jwk: dict[str, Any]) -> str:
    """RFC 7638 SHA-256 thumbprint of an RSA public JWK: a stable ``kid``."""
    canonical = json.dumps(
        {"e": jwk["e"], "kty": "RSA", "n": jwk["n"]}, separators=(",", ":"), sort_keys=True
    )
    return base64url_encode(hashlib.sha256(canonical.encode("ascii")).digest()).decode("ascii")


def _load_or_create_key(path: Path) -> rsa.RSAPrivateKey:
    if not path.exists():
        _create_key(path)
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, rsa.RSAPrivateKey) or key.key_size < _KEY_SIZE:
        raise ValueError(f"{path} is not an RSA private key of at least {_KEY_SIZE} bits.")
    return key


def _create_key(path: Path) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = rsa.generate_private_key(public_exponent=65537, key_size=_KEY_SIZE)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    # Written whole under a temporary name, then linked into place: a concurrent reader
    # never sees half a key, and when two processes race, the first link wins for both.
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(pem)
        with contextlib.suppress(FileExistsError):
            os.link(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
