"""AuthSettings: safe defaults, and unsafe configurations refused before any token is seen."""

from __future__ import annotations

import dataclasses

import pytest

from agent_memory.auth import AuthConfigurationError, AuthSettings


def test_defaults_derive_the_jwks_url_and_pin_asymmetric_algorithms() -> None:
    # GIVEN only an issuer and an audience
    # WHEN settings are built
    settings = AuthSettings(issuer="https://idp.example.test/", audience="api")

    # THEN the JWKS URL is the issuer's well-known path, RS256/ES256 are pinned, leeway is 5 s
    assert settings.jwks_url == "https://idp.example.test/.well-known/jwks.json"
    assert settings.algorithms == ("RS256", "ES256")
    assert settings.leeway_seconds == 5
    assert settings.issuer == "https://idp.example.test/"  # compared exactly, never normalised


def test_settings_are_frozen() -> None:
    # GIVEN settings
    settings = AuthSettings(issuer="https://idp.example.test", audience="api")

    # WHEN someone tries to loosen them at run time THEN it fails
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.algorithms = ("HS256",)  # type: ignore[misc]


@pytest.mark.parametrize(
    "algorithms",
    [("HS256",), ("RS256", "HS512"), ("none",), ("rs256",), ("RS1",), ()],
)
def test_symmetric_none_unknown_or_empty_algorithms_are_refused(
    algorithms: tuple[str, ...],
) -> None:
    # GIVEN an algorithm list that is not purely asymmetric
    # WHEN settings are built THEN configuration fails
    with pytest.raises(AuthConfigurationError):
        AuthSettings(issuer="https://idp.example.test", audience="api", algorithms=algorithms)


def test_a_bare_string_is_not_mistaken_for_a_list_of_algorithms() -> None:
    # GIVEN "RS256" as a string (whose characters would otherwise be iterated)
    # WHEN / THEN refused
    with pytest.raises(AuthConfigurationError):
        AuthSettings(issuer="https://idp.example.test", audience="api", algorithms="RS256")  # type: ignore[arg-type]


def test_duplicate_algorithms_are_collapsed_in_order() -> None:
    settings = AuthSettings(
        issuer="https://idp.example.test", audience="api", algorithms=("ES256", "RS256", "ES256")
    )
    assert settings.algorithms == ("ES256", "RS256")


@pytest.mark.parametrize(
    "jwks_url",
    [
        "http://idp.example.test/.well-known/jwks.json",
        "file:///etc/passwd",
        "ftp://idp.example.test/jwks.json",
        "https:///no-host",
        "not a url",
    ],
)
def test_jwks_url_must_be_https_unless_loopback(jwks_url: str) -> None:
    # GIVEN a JWKS URL an attacker on the network could answer (or no URL at all)
    # WHEN / THEN refused
    with pytest.raises(AuthConfigurationError):
        AuthSettings(issuer="https://idp.example.test", audience="api", jwks_url=jwks_url)


@pytest.mark.parametrize(
    "jwks_url",
    ["http://127.0.0.1:8080/jwks", "http://localhost/jwks", "http://[::1]:9/jwks"],
)
def test_plain_http_is_accepted_for_loopback_hosts(jwks_url: str) -> None:
    settings = AuthSettings(issuer="urn:dev", audience="api", jwks_url=jwks_url)
    assert settings.jwks_url == jwks_url


def test_a_non_url_issuer_needs_an_explicit_jwks_url() -> None:
    # GIVEN an issuer that is a URN WHEN no JWKS URL is given THEN configuration fails
    with pytest.raises(AuthConfigurationError):
        AuthSettings(issuer="urn:agent-memory:dev-issuer", audience="api")


@pytest.mark.parametrize(
    "overrides",
    [
        {"issuer": ""},
        {"audience": ""},
        {"audience": "two words"},
        {"leeway_seconds": -1},
        {"leeway_seconds": 6},
        {"leeway_seconds": float("nan")},
        {"jwks_refresh_cooldown_seconds": 0},
        {"jwks_failure_backoff_seconds": 0},
        {"jwks_cache_seconds": 0},
        {"jwks_timeout_seconds": 60},
    ],
)
def test_out_of_range_values_are_refused(overrides: dict[str, object]) -> None:
    arguments: dict[str, object] = {"issuer": "https://idp.example.test", "audience": "api"}
    arguments.update(overrides)
    with pytest.raises(AuthConfigurationError):
        AuthSettings(**arguments)  # type: ignore[arg-type]


def test_from_env_reads_every_variable() -> None:
    # GIVEN the authorizer's environment
    environ = {
        "ISSUER_URL": "https://idp.example.test",
        "AUDIENCE": "api",
        "JWKS_URL": "https://keys.example.test/jwks.json",
        "JWT_ALGORITHMS": " ES256 , RS256 ",
        "JWT_LEEWAY_SECONDS": "5",
    }

    # WHEN settings are read from it
    settings = AuthSettings.from_env(environ)

    # THEN each variable lands where it belongs
    assert settings == AuthSettings(
        issuer="https://idp.example.test",
        audience="api",
        jwks_url="https://keys.example.test/jwks.json",
        algorithms=("ES256", "RS256"),
        leeway_seconds=5,
    )


def test_from_env_defaults_the_optional_variables() -> None:
    settings = AuthSettings.from_env({"ISSUER_URL": "https://idp.example.test", "AUDIENCE": "api"})
    assert settings.jwks_url == "https://idp.example.test/.well-known/jwks.json"
    assert settings.algorithms == ("RS256", "ES256")


def test_from_env_reads_os_environ_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISSUER_URL", "https://idp.example.test")
    monkeypatch.setenv("AUDIENCE", "api")
    monkeypatch.delenv("JWKS_URL", raising=False)
    monkeypatch.delenv("JWT_ALGORITHMS", raising=False)
    monkeypatch.delenv("JWT_LEEWAY_SECONDS", raising=False)
    assert AuthSettings.from_env().audience == "api"


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        ({"AUDIENCE": "api"}, "ISSUER_URL"),
        ({"ISSUER_URL": "https://idp.example.test"}, "AUDIENCE"),
        ({"ISSUER_URL": "https://i.test", "AUDIENCE": "a", "JWT_LEEWAY_SECONDS": "x"}, "LEEWAY"),
        ({"ISSUER_URL": "https://i.test", "AUDIENCE": "a", "JWT_ALGORITHMS": "HS256"}, "HS256"),
    ],
)
def test_from_env_says_what_is_wrong(environ: dict[str, str], named: str) -> None:
    # GIVEN a missing or unsafe variable WHEN read THEN the error names it
    with pytest.raises(AuthConfigurationError, match=named):
        AuthSettings.from_env(environ)
