"""The in-process target: the real authorizer and handlers, invoked with simulated API
Gateway events, in worker processes that each serve one request at a time (see ``worker``).

It owns its whole world: a dev issuer in a temporary folder with its JWKS on a loopback
port (so the real authorizer verifies real tokens), the DynamoDB tables (``dynamodb``), and
one execution environment per turn in flight plus a few for cancels.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import shutil
import tempfile
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from agent_memory.websocket import ENV_MANAGEMENT_ENDPOINT
from agent_memory_tools.loadtest.exceptions import TargetError
from agent_memory_tools.loadtest.targets import worker
from agent_memory_tools.loadtest.targets.api import (
    ApiAnswer,
    ApiRequest,
    StreamRequest,
    parse_body,
)
from agent_memory_tools.loadtest.targets.dynamodb import MOTO_REGION, Tables
from agent_memory_tools.loadtest.targets.management import STAGE, ManagementServer
from agent_memory_tools.loadtest.targets.streamed import streamed_answer
from agent_memory_tools.local.websocket_events import new_connection_id

FUNCTIONS = ("authorizer", "chat", "memory_api")
STREAM_FUNCTIONS = (*FUNCTIONS, "websocket")
READY_TIMEOUT_SECONDS = 120.0
TOKEN_TTL_SECONDS = 24 * 3600
# Removed from the workers' environment: what the load test sets must not be overridden,
# and real credentials must not reach a moto run.
OWNED = (
    "MODEL_PROVIDER",
    "MODEL_ID",
    "FALLBACK_MODEL_ID",
    "MEMORY_ENABLED",
    "POWERTOOLS_LOG_LEVEL",
    "DEBUG_CONTENT_CAPTURE",
)
REAL_CREDENTIALS = (
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_SECURITY_TOKEN",
    "AWS_PROFILE",
    "AWS_DEFAULT_PROFILE",
)


class InProcessTarget:
    name = "in-process"
    measures_requests = True

    def __init__(
        self,
        *,
        tables: Tables,
        environments: int,
        root: Path,
        warm_user: str,
        memory_enabled: bool = True,
        stream: bool = False,
    ) -> None:
        self._functions = STREAM_FUNCTIONS if stream else FUNCTIONS
        self._management: ManagementServer | None = None
        self._tables = tables
        self._memory_enabled = memory_enabled
        self._environments = environments
        self._root = root
        self._warm_user = warm_user
        self._issuer: Any = None
        self._issuer_dir: str | None = None
        self._jwks: Any = None
        self._pool: ProcessPoolExecutor | None = None
        self.ready_seconds = 0.0
        self.peak_worker_rss_mb = 0.0
        self._log_dir: str | None = None
        self._connections: dict[str, str] = {}  # connection id -> user id (streamed turns)
        self._disconnects: list[Future[None]] = []

    def start(self) -> None:
        from agent_memory.repository.tables import load_template
        from agent_memory_tools.dev_auth import DevIssuer, serve_jwks
        from agent_memory_tools.local.functions import function_configs

        started = time.perf_counter()
        template = load_template(self._root / "template.yaml")
        configs = function_configs(template)
        self._tables.start()
        self._issuer_dir = tempfile.mkdtemp(prefix="agent-memory-loadtest-issuer-")
        self._log_dir = tempfile.mkdtemp(prefix="agent-memory-loadtest-logs-")
        self._issuer = DevIssuer(self._issuer_dir)
        self._jwks, jwks_url = serve_jwks(self._issuer.jwks())
        env = self._environment(template, configs, jwks_url)
        if self._functions is STREAM_FUNCTIONS:
            self._management = ManagementServer(on_drop=self._drop)
            env[ENV_MANAGEMENT_ENDPOINT] = self._management.endpoint
        unset = [*OWNED, *([] if self._tables.uses_real_credentials else REAL_CREDENTIALS)]
        if self._tables.endpoint_url is None:
            unset.append("DYNAMODB_ENDPOINT_URL")
        context = multiprocessing.get_context("spawn")
        barrier = context.Barrier(self._environments)
        self._pool = ProcessPoolExecutor(
            max_workers=self._environments,
            mp_context=context,
            initializer=worker.initialize,
            initargs=(
                env,
                unset,
                {name: configs[name].timeout_ms for name in self._functions},
                barrier,
                self._log_dir,
            ),
        )
        token = self.token_for(self._warm_user)
        warm_up = [
            _wire(ApiRequest("GET", "/memory", token)),
            _wire(ApiRequest("POST", "/chat", token, {"message": "Warm-up: hello."})),
        ]
        stream_warm_up = None
        if self._management is not None:
            frame = json.dumps({"action": "chat", "message": "Warm-up: hello."})
            stream_warm_up = {"stage": STAGE, "token": token, "frame": frame}
        futures = [
            self._pool.submit(worker.ready, warm_up, READY_TIMEOUT_SECONDS, stream_warm_up)
            for _ in range(self._environments)
        ]
        try:
            pids = {future.result(timeout=READY_TIMEOUT_SECONDS + 10) for future in futures}
        except BrokenProcessPool:
            raise TargetError(
                "The handlers failed to load in the load test's worker processes"
                " (their error is printed above)."
            ) from None
        except Exception as error:
            raise TargetError(
                f"The load test's worker processes did not start: {type(error).__name__} {error}"
            ) from None
        if len(pids) != self._environments:
            raise TargetError("The load test's worker processes did not all start.")
        self.ready_seconds = time.perf_counter() - started

    def _environment(
        self, template: dict[str, Any], configs: dict[str, Any], jwks_url: str
    ) -> dict[str, str]:
        """What the template gives the three functions, with this run's tables and issuer."""
        from agent_memory_tools.local.environment import StackWiring, function_environment

        wiring = StackWiring(
            dynamodb_endpoint=self._tables.endpoint_url or "",
            issuer_env=self._issuer.authorizer_env(jwks_url),
            root=self._root,
            tables=self._tables.names,
        )
        env: dict[str, str] = {}
        for name in self._functions:
            env.update(
                function_environment(configs[name], template=template, wiring=wiring, user_env={})
            )
        env.update(
            {
                "MODEL_PROVIDER": "rules",
                "MEMORY_ENABLED": "true" if self._memory_enabled else "false",
                # INFO, so that the worker sees each turn's `memory turn` record; the
                # worker's stdout goes nowhere.
                "LOG_LEVEL": "INFO",
            }
        )
        if self._tables.uses_real_credentials:
            for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
                env.pop(name, None)  # the ambient credentials, not the local dummies
            env.pop("AWS_REGION", None)
            env.pop("AWS_DEFAULT_REGION", None)
        else:
            env["AWS_REGION"] = env["AWS_DEFAULT_REGION"] = MOTO_REGION
        if not self._tables.endpoint_url:
            env.pop("DYNAMODB_ENDPOINT_URL", None)
        return env

    def describe(self) -> dict[str, Any]:
        return {
            "kind": self.name,
            "environments": self._environments,
            "ready_seconds": round(self.ready_seconds, 2),
            "dynamodb": self._tables.describe(),
        }

    def token_for(self, user_id: str) -> str:
        if self._issuer is None:
            raise RuntimeError("the target is not started")
        return str(self._issuer.mint(user_id, ttl_seconds=TOKEN_TTL_SECONDS))

    def send(self, request: ApiRequest) -> ApiAnswer:
        if self._pool is None:
            raise RuntimeError("the target is not started")
        try:
            future: Future[dict[str, Any]] = self._pool.submit(worker.handle, _wire(request))
            result = future.result()
        except BrokenProcessPool:
            return ApiAnswer(0, None, 0.0, error="a worker process died")
        self.peak_worker_rss_mb = max(self.peak_worker_rss_mb, float(result["peak_rss_mb"]))
        return ApiAnswer(
            status=int(result["status"]),
            body=parse_body(result["body"]),
            latency_ms=float(result["latency_ms"]),
            cpu_ms=float(result["cpu_ms"]),
            requests=dict(result["requests"]),
            retry_count=result["retry_count"],
            replay_count=result.get("replay_count"),
        )

    def stream_turn(self, request: StreamRequest) -> ApiAnswer:
        """One streamed turn (``worker.stream``); its frames come to the management API."""
        if self._pool is None or self._management is None:
            raise RuntimeError("the target is not started for streamed turns")
        connection_id = new_connection_id()
        self._connections[connection_id] = request.user_id
        self._management.open(connection_id, request.drop)
        wire = {
            "connection_id": connection_id,
            "stage": STAGE,
            "token": request.token,
            "frame": json.dumps(request.frame),
        }
        try:
            result = self._pool.submit(worker.stream, wire).result()
        except BrokenProcessPool:
            return ApiAnswer(0, None, 0.0, error="a worker process died")
        finally:
            frames = self._management.close(connection_id)
        if "peak_rss_mb" in result:
            self.peak_worker_rss_mb = max(self.peak_worker_rss_mb, float(result["peak_rss_mb"]))
        return streamed_answer(result, frames)

    def _drop(self, connection_id: str) -> None:
        """The client of ``connection_id`` left: its ``$disconnect`` runs in another worker
        (not waited for: API Gateway runs it on its own)."""
        user_id = self._connections.get(connection_id)
        if self._pool is not None and user_id is not None:
            wire = {"connection_id": connection_id, "stage": STAGE, "user_id": user_id}
            self._disconnects.append(self._pool.submit(worker.disconnect, wire))

    def worker_logs(self) -> list[Path]:
        """The workers' log files (what CloudWatch would hold), while the target runs."""
        if self._log_dir is None:
            return []
        return sorted(Path(self._log_dir).glob("worker-*.log"))

    def table_client(self) -> Any:
        """A client of the run's tables (the tests plant violations with it)."""
        return self._tables.client()

    @property
    def table_names(self) -> Any:
        return self._tables.names

    def close(self) -> None:
        for pending in self._disconnects:
            with contextlib.suppress(Exception):
                pending.result(timeout=READY_TIMEOUT_SECONDS)
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        management, self._management = self._management, None
        if management is not None:
            management.shutdown()
        jwks, self._jwks = self._jwks, None
        if jwks is not None:
            jwks.close()
        for folder in (self._issuer_dir, self._log_dir):
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
        self._issuer_dir = self._log_dir = None
        self._tables.close()


def _wire(request: ApiRequest) -> dict[str, Any]:
    return {
        "method": request.method,
        "path": request.path,
        "headers": request.header_pairs(),
        "body": request.body_bytes(),
    }
