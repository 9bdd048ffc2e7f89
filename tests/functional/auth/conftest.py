"""Fixtures of the auth functional tests: a real dev issuer, its JWKS served over HTTP on
127.0.0.1 (port 0), and the authorizer handler loaded from ``functions/authorizer/app.py``."""

from __future__ import annotations

import importlib.util
import io
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from authorizer_support import AUTHORIZER_APP, Authorizer
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from agent_memory.auth import AuthSettings
from agent_memory_tools.dev_auth import DevIssuer, JWKSServer, serve_jwks


@pytest.fixture(scope="session")
def dev_issuer(tmp_path_factory: pytest.TempPathFactory) -> DevIssuer:
    return DevIssuer(tmp_path_factory.mktemp("dev-issuer"))


@pytest.fixture(scope="session")
def foreign_key() -> rsa.RSAPrivateKey:
    """Another issuer's key pair: never published in our JWKS."""
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture(scope="session")
def ec_key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


@pytest.fixture
def jwks_server(dev_issuer: DevIssuer) -> Iterator[JWKSServer]:
    server, _ = serve_jwks(dev_issuer.jwks())
    yield server
    server.close()


@pytest.fixture(scope="session")
def cooldown() -> float:
    """The JWKS refresh cooldown and failure backoff of ``settings``: short enough for fast
    tests, long enough to observe what happens inside it."""
    return 0.15


@pytest.fixture
def settings(
    dev_issuer: DevIssuer, jwks_server: JWKSServer, cooldown: float
) -> Callable[..., AuthSettings]:
    """Settings trusting the dev issuer over HTTP, with test-sized cache timings."""

    def build(**overrides: Any) -> AuthSettings:
        arguments: dict[str, Any] = {
            "issuer": dev_issuer.issuer,
            "audience": dev_issuer.audience,
            "jwks_url": jwks_server.url,
            "algorithms": ("RS256",),
            "jwks_refresh_cooldown_seconds": cooldown,
            "jwks_failure_backoff_seconds": cooldown,
            "jwks_timeout_seconds": 1,
        }
        arguments.update(overrides)
        return AuthSettings(**arguments)

    return build


@pytest.fixture
def load_authorizer(
    monkeypatch: pytest.MonkeyPatch, dev_issuer: DevIssuer, jwks_server: JWKSServer
) -> Iterator[Callable[..., Authorizer]]:
    """Loads a fresh copy of the handler module (a cold start) with the given environment."""
    handlers: list[Any] = []

    def load(**environment: str) -> Authorizer:
        env = {**dev_issuer.authorizer_env(jwks_server.url), **environment}
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        spec = importlib.util.spec_from_file_location(
            f"authorizer_app_{uuid.uuid4().hex}", AUTHORIZER_APP
        )
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        log = io.StringIO()
        handler = module.logger.registered_handler
        handlers.append((handler, handler.setStream(log)))
        return Authorizer(module, log)

    yield load
    for handler, previous in reversed(handlers):
        handler.setStream(previous)


@pytest.fixture
def authorizer(load_authorizer: Callable[..., Authorizer]) -> Authorizer:
    return load_authorizer()
