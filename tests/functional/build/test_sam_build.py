"""What `sam build` produces: arm64 native code by default, and functions that run.

The default build is checked file by file (every native library must be an aarch64 ELF).
A second build for this machine's architecture is then imported function by function from
the build output with its layer and nothing else on the path (``python -S``), each handling
one simulated event: a smoke test of what would be deployed.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent_memory.repository import TableNames
from agent_memory_tools.dev_auth import DevIssuer, serve_jwks
from agent_memory_tools.local.functions import project_root

pytestmark = pytest.mark.slow

ROOT = project_root()
ELF_MACHINES = {0xB7: "aarch64", 0x3E: "x86_64"}
HOST_ARCHITECTURE = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "arm64", "arm64": "arm64"}[
    platform.machine().lower()
]
FUNCTIONS = {
    "AuthorizerFunction": "authorizer",
    "ChatFunction": "chat",
    "MemoryApiFunction": "memory_api",
    "EvalFunction": "eval",
    "CleanupFunction": "cleanup",
    "WebSocketFunction": "websocket",
    "WebSocketAuthorizerFunction": "authorizer",
}


def sam_cli() -> str:
    candidates = [
        os.environ.get("SAM_CLI"),
        str(ROOT / ".venv-tools" / "bin" / "sam"),
        shutil.which("sam"),
    ]
    for candidate in candidates:
        if candidate and Path(candidate).exists():
            return candidate
    pytest.skip("aws-sam-cli is not installed (make test installs it in .venv-tools)")


def sam_build(
    template: Path, build_dir: Path, *extra: str, layer_architecture: str = "arm64"
) -> Path:
    env = {
        **os.environ,
        "SAM_CLI_TELEMETRY": "0",
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        # The layer's Makefile builds for this architecture (arm64 unless told otherwise).
        "LAYER_ARCHITECTURE": layer_architecture,
    }
    result = subprocess.run(
        [sam_cli(), "build", "--template", str(template), "--build-dir", str(build_dir), *extra],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return build_dir


def elf_machine(path: Path) -> str | None:
    header = path.read_bytes()[:20]
    if header[:4] != b"\x7fELF":
        return None
    return ELF_MACHINES.get(
        int.from_bytes(header[18:20], "little"), f"unknown-{header[18:20].hex()}"
    )


@pytest.fixture(scope="module")
def default_build() -> Path:
    # --cached: `make test` has just built the same template into the same folder.
    return sam_build(ROOT / "template.yaml", ROOT / ".aws-sam" / "build", "--cached")


def test_every_native_library_of_the_default_build_is_aarch64(default_build: Path) -> None:
    native = [path for path in default_build.rglob("*") if path.is_file() and path.suffix == ".so"]
    machines = {str(path.relative_to(default_build)): elf_machine(path) for path in native}

    assert len(native) >= 3, "pydantic-core, cryptography and cffi ship native code"
    assert set(machines.values()) == {"aarch64"}, machines


def test_the_layer_holds_the_package_and_the_functions_only_their_handler(
    default_build: Path,
) -> None:
    assert (
        default_build / "SharedLayer" / "python" / "agent_memory" / "domain" / "rules.py"
    ).is_file()
    for logical_id in FUNCTIONS:
        files = sorted(
            p.name for p in (default_build / logical_id).iterdir() if not p.name.startswith(".")
        )
        assert files == ["app.py"], (logical_id, files)


@pytest.fixture(scope="module")
def host_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("host-build")
    template = (ROOT / "template.yaml").read_text()
    template = template.replace(
        "BuildArchitecture: arm64", f"BuildArchitecture: {HOST_ARCHITECTURE}"
    )
    # The copy lives elsewhere, so its code paths must not be relative to it.
    template = template.replace("CodeUri: functions/", f"CodeUri: {ROOT}/functions/")
    template = template.replace("ContentUri: layers/", f"ContentUri: {ROOT}/layers/")
    host_template = folder / "template.yaml"
    host_template.write_text(template)
    return sam_build(
        host_template,
        folder / "build",
        "--parameter-overrides",
        f"Architecture={HOST_ARCHITECTURE}",
        layer_architecture=HOST_ARCHITECTURE,
    )


# Only the function and its layer on the path: the tools package is not there, so the
# Lambda context is spelled out here rather than borrowed from the local stack.
SMOKE = textwrap.dedent(
    """
    import json, sys
    sys.path[:0] = [sys.argv[1], sys.argv[2]]
    import app

    class Context:
        function_name = "smoke"
        function_version = "$LATEST"
        invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:smoke"
        memory_limit_in_mb = 512
        aws_request_id = "00000000-0000-4000-8000-000000000000"
        log_group_name = "/aws/lambda/smoke"
        log_stream_name = "local"

        def get_remaining_time_in_millis(self):
            return 30000

    event = json.loads(sys.stdin.read())
    print(json.dumps(app.lambda_handler(event, Context())))
    """
)


@pytest.fixture
def smoke_env(dynamodb_env: TableNames, moto_endpoint: str) -> Iterator[dict[str, str]]:
    issuer = DevIssuer(ROOT / ".local" / "dev-issuer")
    server, url = serve_jwks(issuer.jwks())
    env = {
        "PATH": os.environ["PATH"],
        "AWS_REGION": "us-east-1",
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "DYNAMODB_ENDPOINT_URL": moto_endpoint,
        "MEMORY_TABLE_NAME": dynamodb_env.memory,
        "TURN_LEDGER_TABLE_NAME": dynamodb_env.turn_ledger,
        "MEMORY_ENABLED": "true",
        "MODEL_PROVIDER": "rules",
        "POWERTOOLS_TRACE_DISABLED": "true",
        "TOKEN": issuer.mint("smoke-user"),
        **issuer.authorizer_env(url),
    }
    yield env
    server.close()


def run_built_function(
    build: Path, logical_id: str, event: dict[str, Any], env: dict[str, str]
) -> Any:
    result = subprocess.run(
        [
            sys.executable,
            "-S",
            "-c",
            SMOKE,
            str(build / logical_id),
            str(build / "SharedLayer" / "python"),
        ],
        input=json.dumps(event),
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_each_built_function_handles_an_event_from_its_own_artefact(
    host_build: Path, smoke_env: dict[str, str]
) -> None:
    from agent_memory_tools.local.events import (
        authorizer_request_event,
        http_api_event,
        scheduled_event,
    )

    identity = {"sub": "smoke-user"}
    authorized = run_built_function(
        host_build,
        "AuthorizerFunction",
        authorizer_request_event(f"Bearer {smoke_env['TOKEN']}"),
        smoke_env,
    )
    denied = run_built_function(
        host_build, "AuthorizerFunction", authorizer_request_event("Bearer forged"), smoke_env
    )
    chat = run_built_function(
        host_build,
        "ChatFunction",
        http_api_event(
            "POST",
            "/chat",
            body={"message": "remember: built and deployed"},
            authorizer_context=identity,
        ),
        smoke_env,
    )
    memory = run_built_function(
        host_build,
        "MemoryApiFunction",
        http_api_event("GET", "/memory", authorizer_context=identity),
        smoke_env,
    )
    evaluation = run_built_function(
        host_build,
        "EvalFunction",
        http_api_event("POST", "/eval/chat", body={"message": "hi"}),
        smoke_env,
    )
    cleanup = run_built_function(host_build, "CleanupFunction", scheduled_event(), smoke_env)

    assert authorized == {"isAuthorized": True, "context": {"sub": "smoke-user"}}
    assert denied == {"isAuthorized": False}
    assert chat["statusCode"] == 200
    assert json.loads(chat["body"])["memory"]["status"] == "committed"
    assert json.loads(memory["body"])["memory"]["entries"] == ["built and deployed"]
    assert evaluation["statusCode"] == 200
    assert cleanup == {"expired": 0}


TOOLS_PACKAGE = ROOT / "tools" / "agent_memory_tools"
# Dependencies of the tools only: none may reach the layer.
TOOLS_ONLY_DISTRIBUTIONS = ("matplotlib", "moto", "uvicorn", "starlette", "agent_memory_tools")


def imported_modules(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_built_layer_holds_no_tool_module(default_build: Path) -> None:
    # GIVEN the built layer and the modules of the tools package
    layer = default_build / "SharedLayer" / "python"
    tool_modules = [
        path.relative_to(TOOLS_PACKAGE)
        for path in TOOLS_PACKAGE.rglob("*.py")
        if path.name != "__init__.py"
    ]
    assert len(tool_modules) > 30, "the tools package holds the local stack, load test, CLI"

    # WHEN we look for them in the layer, under either package name
    present = [
        str(relative)
        for relative in tool_modules
        for package in ("agent_memory_tools", "agent_memory")
        if (layer / package / relative).exists()
    ]
    tools_only = [
        path.name
        for path in layer.iterdir()
        if path.name.lower().startswith(TOOLS_ONLY_DISTRIBUTIONS)
    ]

    # THEN none is there, nor any dependency that only the tools need
    assert present == []
    assert tools_only == []


def test_no_module_of_the_built_layer_imports_a_tool_module(default_build: Path) -> None:
    # GIVEN every module of the runtime package as the layer ships it
    package = default_build / "SharedLayer" / "python" / "agent_memory"
    modules = sorted(package.rglob("*.py"))
    assert len(modules) > 40

    # WHEN we read their imports (top level and inside functions alike)
    offending = {
        str(path.relative_to(package)): sorted(
            name
            for name in imported_modules(path.read_text(encoding="utf-8"))
            if name.split(".")[0] in {"agent_memory_tools", *TOOLS_ONLY_DISTRIBUTIONS}
        )
        for path in modules
    }

    # THEN none imports the tools package or a tool's dependency
    assert {name: found for name, found in offending.items() if found} == {}


PYC_UNCHECKED_HASH = 0b01  # PEP 552 flags: hash-based, source never checked


def test_every_module_of_the_built_layer_ships_unchecked_hash_bytecode(
    default_build: Path,
) -> None:
    # GIVEN every Python source of the built layer (our package and its dependencies)
    layer = default_build / "SharedLayer" / "python"
    sources = sorted(layer.rglob("*.py"))
    assert len(sources) > 500

    # WHEN we read the header of the .pyc the interpreter would look for
    def header(source: Path) -> tuple[bytes, int] | None:
        cached = Path(importlib.util.cache_from_source(str(source)))
        if not cached.is_file():
            return None
        data = cached.read_bytes()[:8]
        return data[:4], int.from_bytes(data[4:8], "little")

    headers = {str(source.relative_to(layer)): header(source) for source in sources}

    # THEN each has one, for this Python (3.13), that is never checked against its source
    assert [name for name, found in headers.items() if found is None] == []
    assert set(headers.values()) == {(importlib.util.MAGIC_NUMBER, PYC_UNCHECKED_HASH)}


def test_the_interpreter_runs_the_layer_from_its_bytecode(host_build: Path, tmp_path: Path) -> None:
    # GIVEN a copy of the built layer, read-only as /opt is, whose domain rules' source no
    # longer compiles (the .pyc beside it is the one the build wrote)
    layer = tmp_path / "python"
    shutil.copytree(host_build / "SharedLayer" / "python", layer)
    rules = layer / "agent_memory" / "domain" / "rules.py"
    rules.write_text("raise RuntimeError('compiled from source')\n", encoding="utf-8")
    for path in sorted(layer.rglob("*"), reverse=True):
        path.chmod(0o555 if path.is_dir() else 0o444)

    # WHEN a fresh interpreter imports it as Lambda would (no site, nothing written)
    done = subprocess.run(
        [
            sys.executable,
            "-S",
            "-B",
            "-c",
            "import sys; sys.path.insert(0, sys.argv[1]);"
            " import agent_memory.domain.rules as rules; print(rules.__cached__)",
            str(layer),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    for path in layer.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    layer.chmod(0o755)

    # THEN the module came from the build's bytecode, not from its source
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("rules.cpython-313.pyc")
