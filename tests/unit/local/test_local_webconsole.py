"""The local front's console routes on a real loopback socket: only the console's own files,
its config, and the dev sign-in; every other path is still the API's."""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Iterator
from pathlib import Path

import jwt
import pytest
from local_fakes import FakeFunctions, allow, respond

from agent_memory_tools.dev_auth import DevIssuer
from agent_memory_tools.local.front import local_app
from agent_memory_tools.local.gateway import LocalGateway
from agent_memory_tools.local.server import LocalApiServer, bind
from agent_memory_tools.local.webconsole import STATIC_DIR, TokenMinter, console_routes

Answer = tuple[int, dict[str, str], bytes]


class Site:
    """The local front with the console's routes, and fake functions behind the API."""

    def __init__(self, issuer: TokenMinter | None) -> None:
        self.functions = FakeFunctions(
            authorizer=allow(), chat=respond(), memory_api=respond(), eval=respond()
        )
        self.server = LocalApiServer(bind("127.0.0.1", 0))
        self.server.serve(
            local_app(
                LocalGateway(self.functions), log=lambda line: None, routes=console_routes(issuer)
            )
        )

    def request(self, method: str, path: str, body: bytes | None = None) -> Answer:
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=5)
        try:
            connection.request(method, path, body=body, headers={"Authorization": "Bearer t"})
            response = connection.getresponse()
            headers = {name.lower(): value for name, value in response.getheaders()}
            return response.status, headers, response.read()
        finally:
            connection.close()

    def close(self) -> None:
        self.server.close()


@pytest.fixture(scope="module")
def issuer(tmp_path_factory: pytest.TempPathFactory) -> DevIssuer:
    return DevIssuer(tmp_path_factory.mktemp("issuer"))


@pytest.fixture(scope="module")
def site(issuer: DevIssuer) -> Iterator[Site]:
    running = Site(issuer)
    yield running
    running.close()


@pytest.fixture(scope="module")
def site_without_issuer() -> Iterator[Site]:
    running = Site(None)
    yield running
    running.close()


def test_the_console_page_is_served_at_the_root_with_a_strict_policy(site: Site) -> None:
    # WHEN the browser asks for /
    status, headers, body = site.request("GET", "/")

    # THEN it gets the console's page, which may run only its own scripts
    assert status == 200
    assert headers["content-type"].startswith("text/html")
    assert body == (STATIC_DIR / "index.html").read_bytes()
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    "path",
    [
        "/../pyproject.toml",
        "/..%2Fpyproject.toml",
        "/%2e%2e/template.yaml",
        "/functions/chat/app.py",
        "/.gitignore",
        "/missing.js",
        "/config.js/",
        "/index.html/../../Makefile",
        "/static/app.js",
    ],
)
def test_nothing_outside_the_console_folder_is_served(site: Site, path: str) -> None:
    # WHEN a path names anything but a file of the console's folder
    status, headers, body = site.request("GET", path)

    # THEN the API answers it as any unknown route: API Gateway's JSON 404, no function ran
    assert status == 404
    assert headers["content-type"] == "application/json"
    assert json.loads(body)["error"]["code"] == "not_found"
    assert site.functions.called() == []


def test_the_api_still_answers_its_routes_beside_the_console(site: Site) -> None:
    status, _, body = site.request("GET", "/memory")

    assert status == 200
    assert json.loads(body) == {"ok": True}
    assert "memory_api" in site.functions.called()


def test_every_file_the_console_loads_is_served(site: Site) -> None:
    # GIVEN the files the page and its modules refer to
    index = (STATIC_DIR / "index.html").read_text()
    wanted = set(re.findall(r'(?:src|href)="([\w.-]+)"', index))
    for module in STATIC_DIR.glob("*.js"):
        wanted |= set(re.findall(r'from "\./([\w.-]+)"', module.read_text()))

    # THEN each is served, as it is on disk, with a type the browser accepts for it
    assert {"app.js", "console.css"} <= wanted
    for name in wanted:
        status, headers, body = site.request("GET", f"/{name}")
        assert status == 200, name
        assert body == (STATIC_DIR / name).read_bytes(), name
        assert headers["content-type"].split(";")[0] in {"text/javascript", "text/css"}, name


def test_config_says_same_origin_and_whether_names_can_sign_in(
    site: Site, site_without_issuer: Site
) -> None:
    for running, expected in ((site, True), (site_without_issuer, False)):
        status, headers, body = running.request("GET", "/config.json")
        assert status == 200
        assert headers["cache-control"] == "no-store"
        assert json.loads(body) == {"apiBase": "", "wsUrl": "", "devIssuer": expected}


def test_the_dev_issuer_signs_a_token_for_a_name(site: Site, issuer: DevIssuer) -> None:
    # WHEN the console asks for a token for "alice"
    status, _, body = site.request("POST", "/dev/token", b'{"user": "alice"}')

    # THEN it gets a token of the dev issuer whose subject is alice, valid for an hour
    assert status == 200
    answer = json.loads(body)
    public_key = jwt.PyJWKSet.from_dict(issuer.jwks()).keys[0].key
    claims = jwt.decode(
        answer["token"], public_key, algorithms=["RS256"], options={"verify_aud": False}
    )
    assert claims["sub"] == "alice"
    assert claims["iss"] == issuer.issuer
    assert claims["exp"] - claims["iat"] == answer["expires_in"] == 3600


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"not json",
        b"[]",
        b'{"user": ""}',
        b'{"user": "a b"}',
        b'{"user": 7}',
        b"x" * 5000,
        b'{"user": "carol", "ttl_seconds": 0}',
        b'{"user": "carol", "ttl_seconds": "600"}',
        b'{"user": "carol", "ttl_seconds": 99999999}',
    ],
)
def test_a_bad_sign_in_gets_a_4xx_in_the_apis_words_and_no_token(site: Site, body: bytes) -> None:
    status, _, answer = site.request("POST", "/dev/token", body)

    assert status in (400, 413)
    error = json.loads(answer)["error"]
    assert error["code"] in ("invalid_user", "body_too_large")
    assert error["message"]
    assert "token" not in json.loads(answer)


def test_the_dev_token_route_takes_post_only(site: Site) -> None:
    status, headers, body = site.request("GET", "/dev/token")

    assert status == 405
    assert headers["allow"] == "POST"
    assert json.loads(body)["error"]["code"] == "method_not_allowed"


def test_without_a_dev_issuer_there_is_no_token_route(site_without_issuer: Site) -> None:
    # GIVEN a stack that listens beyond loopback (it offers no dev issuer)
    # WHEN a token is asked for
    status, _, body = site_without_issuer.request("POST", "/dev/token", b'{"user": "alice"}')

    # THEN /dev/token is no route of its own: the API answers it as unknown
    assert status == 404
    assert json.loads(body)["error"]["code"] == "not_found"


def test_the_static_folder_is_outside_the_lambda_layer() -> None:
    layer = Path(__file__).resolve().parents[3] / "layers"
    assert not STATIC_DIR.resolve().is_relative_to(layer.resolve())
