"""``make run``: the whole API on this machine, with no AWS account.

Starts, in this order (and stops in the reverse order): the local API's port (so a busy
port fails at once), the dev issuer's JWKS, DynamoDB (moto, tables from template.yaml),
one warm execution environment per function, the cleanup schedule, then serves until
SIGINT or SIGTERM. Everything it starts is a thread of this process or a child process it
stops itself; the children also exit on their own when this process dies.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from agent_memory_tools.dev_auth import DevIssuer, JWKSServer, serve_jwks
from agent_memory_tools.local.banner import (
    BannerFacts,
    banner,
    client_url,
    is_loopback,
    model_description,
)
from agent_memory_tools.local.console import Console
from agent_memory_tools.local.dynamodb import LocalDynamoDB
from agent_memory_tools.local.environment import (
    ENV_CLEANUP_INTERVAL,
    ENV_MAX_CONCURRENCY,
    LOCAL_STAGE,
    LOCAL_TABLES,
    StackWiring,
    function_environment,
)
from agent_memory_tools.local.exceptions import FunctionInitError, StartupError
from agent_memory_tools.local.front import cors_origins, local_app
from agent_memory_tools.local.functions import FUNCTIONS, function_configs, project_root
from agent_memory_tools.local.gateway import LocalGateway
from agent_memory_tools.local.invoker import DEFAULT_MAX_ENVIRONMENTS, FunctionPool, LocalFunctions
from agent_memory_tools.local.scheduler import DEFAULT_INTERVAL_SECONDS, CleanupSchedule
from agent_memory_tools.local.server import LocalApiServer, bind
from agent_memory_tools.local.webconsole import console_routes
from agent_memory_tools.local.websocket_front import websocket_routes


@dataclass(frozen=True)
class StackOptions:
    host: str = "127.0.0.1"
    port: int = 3000
    cleanup_interval: float = DEFAULT_INTERVAL_SECONDS
    max_environments: int = DEFAULT_MAX_ENVIRONMENTS

    @classmethod
    def from_env(
        cls,
        host: str,
        port: int,
        *,
        cleanup_interval: float | None = None,
        env: Mapping[str, str] | None = None,
    ) -> StackOptions:
        env = os.environ if env is None else env
        interval = (
            cleanup_interval
            if cleanup_interval is not None
            else _number(env, ENV_CLEANUP_INTERVAL, DEFAULT_INTERVAL_SECONDS)
        )
        limit = _number(env, ENV_MAX_CONCURRENCY, DEFAULT_MAX_ENVIRONMENTS)
        if interval <= 0:
            raise StartupError("The cleanup interval must be a positive number of seconds.")
        if limit < 1 or limit != int(limit):
            raise StartupError(f"{ENV_MAX_CONCURRENCY} must be a positive whole number.")
        if not 0 <= port <= 65_535:
            raise StartupError(f"Port {port} is not a TCP port (0 to 65535).")
        return cls(host=host, port=port, cleanup_interval=interval, max_environments=int(limit))


class LocalStack:
    """The running stack; ``start()`` then ``close()`` (or use it as a context manager)."""

    def __init__(
        self,
        options: StackOptions,
        *,
        env: Mapping[str, str] | None = None,
        console: Console | None = None,
    ) -> None:
        self.options = options
        self._user_env = dict(os.environ if env is None else env)
        self._console = console or Console()
        self._server: LocalApiServer | None = None
        self._jwks: JWKSServer | None = None
        self._dynamodb: LocalDynamoDB | None = None
        self._functions: LocalFunctions | None = None
        self._schedule: CleanupSchedule | None = None
        self._facts: BannerFacts | None = None

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("The stack is not started.")
        return client_url(self.options.host, self._server.port)

    @property
    def banner(self) -> str:
        if self._facts is None:
            raise RuntimeError("The stack is not started.")
        return banner(self._facts)

    def pids(self) -> list[int]:
        return self._functions.pids() if self._functions else []

    def start(self) -> LocalStack:
        try:
            self._start()
        except BaseException:
            self.close()
            raise
        return self

    def _start(self) -> None:
        root = project_root()
        template_path = root / "template.yaml"
        template = _load_template(template_path)
        try:
            configs = function_configs(template)
        except ValueError as error:
            raise StartupError(str(error)) from None

        self._server = _bind(self.options.host, self.options.port)
        issuer = DevIssuer()
        self._jwks, jwks_url = serve_jwks(issuer.jwks())
        self._dynamodb = LocalDynamoDB(template_path, LOCAL_TABLES).start()

        wiring = StackWiring(
            dynamodb_endpoint=self._dynamodb.endpoint_url,
            issuer_env=issuer.authorizer_env(jwks_url),
            root=root,
            management_endpoint=f"{client_url(self.options.host, self._server.port)}/{LOCAL_STAGE}",
        )
        environments = {
            name: function_environment(
                configs[name], template=template, wiring=wiring, user_env=self._user_env
            )
            for name in FUNCTIONS
        }
        memory_enabled = _check_chat_settings(environments["chat"])
        self._functions = LocalFunctions(
            {
                name: FunctionPool(
                    configs[name],
                    environments[name],
                    root,
                    max_environments=self.options.max_environments,
                )
                for name in FUNCTIONS
            }
        )
        try:
            self._functions.prewarm()
        except FunctionInitError as error:
            raise StartupError(
                f"A function failed to load (its traceback is above): {error}"
            ) from None

        self._schedule = CleanupSchedule(
            self._functions, interval=self.options.cleanup_interval, log=self._console.line
        ).start()
        # Signing in by name is for this machine only: a stack reachable from elsewhere
        # offers no dev issuer (paste a token there).
        console_issuer = issuer if is_loopback(self.options.host) else None
        self._server.serve(
            local_app(
                LocalGateway(self._functions),
                log=self._console.line,
                routes=[
                    *websocket_routes(self._functions, stage=LOCAL_STAGE, log=self._console.line),
                    *console_routes(console_issuer),
                ],
                allow_origins=cors_origins(self._user_env),
            )
        )
        self._facts = BannerFacts(
            url=self.url,
            memory_enabled=memory_enabled,
            model=model_description(environments["chat"]),
            dynamodb_url=self._dynamodb.endpoint_url,
            jwks_url=jwks_url,
            key_dir=issuer.key_dir,
            cleanup_interval=self.options.cleanup_interval,
            exposed=not is_loopback(self.options.host),
        )

    def close(self) -> None:
        """Stop everything started so far, in reverse order (idempotent)."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        schedule, self._schedule = self._schedule, None
        if schedule is not None:
            schedule.close()
        functions, self._functions = self._functions, None
        if functions is not None:
            functions.close()
        dynamodb, self._dynamodb = self._dynamodb, None
        if dynamodb is not None:
            dynamodb.close()
        jwks, self._jwks = self._jwks, None
        if jwks is not None:
            jwks.close()

    def __enter__(self) -> LocalStack:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def serve(
    host: str = "127.0.0.1", port: int = 3000, *, cleanup_interval: float | None = None
) -> int:
    """Run the stack in the foreground until SIGINT or SIGTERM; 0 after a clean stop, 1 when
    it cannot start. A second signal while stopping interrupts the stop."""
    console = Console()
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    previous = _install_signal_handlers(on_signal)
    stack: LocalStack | None = None
    try:
        try:
            stack = LocalStack(
                StackOptions.from_env(host, port, cleanup_interval=cleanup_interval),
                console=console,
            )
            console.line("agent-memory: starting the local stack ...")
            stack.start()
        except StartupError as error:
            print(f"agent-memory serve: {error}", file=sys.stderr)
            return 1
        if not stop.is_set():
            console.line(stack.banner)
        while not stop.wait(0.5):
            pass
        console.line("agent-memory: stopping ...")
        stack.close()
        console.line("agent-memory: stopped")
        return 0
    finally:
        if stack is not None:
            stack.close()
        _restore_signal_handlers(previous)


def _check_chat_settings(env: Mapping[str, str]) -> bool:
    """Fail at start, in one line, on what would fail every turn; the memory flag's state."""
    from agent_memory.models import ModelSettings, build_fallback_model, build_model
    from agent_memory.models.exceptions import ModelConfigurationError
    from agent_memory.service import ConfigurationError, TurnSettings
    from agent_memory.service.settings import env_flag

    try:
        enabled = env_flag(env.get("MEMORY_ENABLED"), default=False)
        TurnSettings.from_env(env)
        settings = ModelSettings.from_env(env)
        build_model(settings.provider, settings)
        build_fallback_model(settings.provider, settings)
    except (ConfigurationError, ModelConfigurationError) as error:
        raise StartupError(str(error)) from None
    return enabled


def _load_template(path: Path) -> dict[str, Any]:
    from agent_memory.repository.tables import load_template

    try:
        return load_template(path)
    except (OSError, ValueError, ImportError) as error:
        raise StartupError(f"Cannot read {path}: {error}") from None


def _bind(host: str, port: int) -> LocalApiServer:
    try:
        return LocalApiServer(bind(host, port))
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise StartupError(
                f"Port {port} on {host} is already in use (another `make run`?). "
                f"Stop it, or pick another port: make run PORT={port + 1}"
            ) from None
        raise StartupError(f"Cannot listen on {host}:{port}: {error.strerror or error}") from None


def _number(env: Mapping[str, str], name: str, default: float) -> float:
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        return float(text)
    except ValueError:
        raise StartupError(f"{name} must be a number, got {text!r}.") from None


_Handler = Callable[[int, FrameType | None], Any] | int | None


def _install_signal_handlers(
    handler: Callable[[int, FrameType | None], None],
) -> dict[int, _Handler]:
    if threading.current_thread() is not threading.main_thread():
        return {}  # embedded in a test or a tool: its owner stops it
    return {signum: signal.signal(signum, handler) for signum in (signal.SIGINT, signal.SIGTERM)}


def _restore_signal_handlers(previous: Mapping[int, _Handler]) -> None:
    for signum, handler in previous.items():
        signal.signal(signum, handler)
