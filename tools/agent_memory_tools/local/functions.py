"""Load the real Lambda handlers from ``functions/*/app.py``, as the Lambda runtime would.

The local stack, the load test and the OpenAPI generator all run the deployed code, not a
copy of it: each function directory is imported as its own module.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

FUNCTIONS = ("authorizer", "chat", "memory_api", "eval", "cleanup", "websocket")

Handler = Callable[[dict[str, Any], Any], dict[str, Any]]

SAM_DEFAULT_TIMEOUT_SECONDS = 3
SAM_DEFAULT_MEMORY_MB = 128

_lock = threading.Lock()
_loaded: dict[Path, ModuleType] = {}


def project_root() -> Path:
    """The checkout holding ``template.yaml`` (``AGENT_MEMORY_ROOT``, the cwd, or the package's)."""
    candidates = [os.environ.get("AGENT_MEMORY_ROOT"), os.getcwd(), str(Path(__file__).resolve())]
    for candidate in candidates:
        if not candidate:
            continue
        for directory in (Path(candidate), *Path(candidate).parents):
            if (directory / "template.yaml").is_file() and (directory / "functions").is_dir():
                return directory
    raise FileNotFoundError("No agent-memory checkout found (template.yaml and functions/).")


def function_module(name: str, root: Path | None = None) -> ModuleType:
    """The module ``functions/<name>/app.py``, imported once per process."""
    if name not in FUNCTIONS:
        raise ValueError(f"Unknown function {name!r}; expected one of {', '.join(FUNCTIONS)}.")
    path = (root or project_root()) / "functions" / name / "app.py"
    with _lock:
        module = _loaded.get(path)
        if module is None:
            spec = importlib.util.spec_from_file_location(f"agent_memory_function_{name}", path)
            if spec is None or spec.loader is None:
                raise ImportError(f"Cannot load {path}")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            _loaded[path] = module
        return module


def handler(name: str, root: Path | None = None) -> Handler:
    module = function_module(name, root)
    return module.lambda_handler  # type: ignore[no-any-return]


@dataclass(frozen=True)
class FunctionConfig:
    """What ``template.yaml`` says about one function: its limits and its environment.

    ``environment`` keeps the template's values as written (strings or ``{"Ref": name}``);
    the local stack resolves them.
    """

    name: str
    logical_id: str
    timeout_seconds: int
    memory_mb: int
    environment: Mapping[str, Any] = field(default_factory=dict)

    @property
    def timeout_ms(self) -> int:
        return self.timeout_seconds * 1000


def function_configs(template: Mapping[str, Any]) -> dict[str, FunctionConfig]:
    """Each function of ``FUNCTIONS`` as the template defines it (Globals applied)."""
    globals_ = template.get("Globals", {}).get("Function", {})
    global_env = globals_.get("Environment", {}).get("Variables", {})
    configs: dict[str, FunctionConfig] = {}
    for logical_id, resource in template.get("Resources", {}).items():
        if not isinstance(resource, Mapping) or resource.get("Type") != "AWS::Serverless::Function":
            continue
        properties = resource.get("Properties", {})
        name = Path(str(properties.get("CodeUri", ""))).name
        if name not in FUNCTIONS or name in configs:
            # The first function of a code folder: WebSocketAuthorizerFunction shares
            # functions/authorizer/ with AuthorizerFunction (same environment and limits).
            continue
        own_env = properties.get("Environment", {}).get("Variables", {})
        configs[name] = FunctionConfig(
            name=name,
            logical_id=str(logical_id),
            timeout_seconds=int(
                properties.get("Timeout", globals_.get("Timeout", SAM_DEFAULT_TIMEOUT_SECONDS))
            ),
            memory_mb=int(
                properties.get("MemorySize", globals_.get("MemorySize", SAM_DEFAULT_MEMORY_MB))
            ),
            environment={**global_env, **own_env},
        )
    missing = sorted(set(FUNCTIONS) - set(configs))
    if missing:
        raise ValueError(
            "template.yaml defines no function with CodeUri functions/<name>/ for: "
            + ", ".join(missing)
        )
    return configs
