"""DynamoDB on this machine: a moto server on a free loopback port, in a thread of this process.

In-process rather than a subprocess: nothing can outlive the stack (no orphan even after
SIGKILL), the port is freed with the process, and there is no second interpreter to start.
The server is built from the pieces ``moto.server`` re-exports, as its ``ThreadedMotoServer``
does, with two differences that matter here: the port is bound in the caller's thread (a
bind error is raised, not a start that waits forever) and ``close()`` also closes the
listening socket. The data lives as long as the process.

moto serves one request at a time here: its DynamoDB is not atomic under concurrent
requests (a cancelled ``TransactWriteItems`` restores a snapshot of whole tables, conditional
writes check and write in separate steps), so concurrent turns could lose each other's
writes inside moto, which DynamoDB never does. Requests take milliseconds; turns still run
concurrently between them.

Two adapters keep a request's cost independent of how much the tables hold, so a stack that
has served a day of turns answers as fast as a fresh one: ``moto_transactions`` (a
transaction journals the items it touches instead of copying whole tables) and
``moto_queries`` (a Query on the table's key reads only its partition; one on a global
secondary index, the cleanup's, only the items the index holds).
``benchmarks/bench_local_dynamodb.py`` times the requests at 0, 10,000 and 50,000 items.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from agent_memory.repository import TableNames, new_client
from agent_memory.repository.tables import create_tables_from_template
from agent_memory_tools.local.exceptions import StartupError

LOOPBACK = "127.0.0.1"
CREDENTIALS = {"aws_access_key_id": "local", "aws_secret_access_key": "local"}
REGION = "us-east-1"


class OneRequestAtATime:
    """WSGI middleware: the wrapped app serves one request at a time (see the module doc)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self._app = app
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        with self._lock:
            return list(self._app(environ, start_response))


class LocalDynamoDB:
    """A moto server with the two tables of ``template.yaml``."""

    def __init__(self, template_path: Path, tables: TableNames, *, port: int = 0) -> None:
        self._template_path = template_path
        self._tables = tables
        self._port = port
        self._server: Any = None
        self._thread: threading.Thread | None = None

    @property
    def endpoint_url(self) -> str:
        if self._server is None:
            raise RuntimeError("The local DynamoDB is not started.")
        return f"http://{LOOPBACK}:{self._server.server_port}"

    def start(self) -> LocalDynamoDB:
        from moto.moto_server.werkzeug_app import MotoRequestHandler, create_backend_app
        from werkzeug.serving import make_server

        from agent_memory_tools.local import moto_queries, moto_transactions

        # A request's cost must not grow with the tables (see both modules).
        moto_transactions.install()
        moto_queries.install()
        # werkzeug logs every request at INFO: the stack prints its own access log.
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        try:
            self._server = make_server(
                LOOPBACK,
                self._port,
                # DynamoDB's app itself: moto's dispatcher among all its services costs a
                # tenth of each request, to find DynamoDB again every time.
                OneRequestAtATime(create_backend_app("dynamodb")),
                threaded=True,
                request_handler=MotoRequestHandler,
            )
        except OSError as error:
            raise StartupError(
                f"Cannot start the local DynamoDB on port {self._port}: {error}"
            ) from None
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.1},
            name="moto-dynamodb",
            daemon=True,
        )
        self._thread.start()
        try:
            client = new_client(
                region=REGION, endpoint_url=self.endpoint_url, credentials=CREDENTIALS
            )
            create_tables_from_template(client, self._tables, self._template_path)
        except Exception as error:
            self.close()
            raise StartupError(
                f"Cannot create the tables of {self._template_path}: {error}"
            ) from None
        return self

    def close(self) -> None:
        """Stop serving and free the port (idempotent)."""
        server, self._server = self._server, None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
