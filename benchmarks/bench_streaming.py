"""Benchmark of streamed turns (the WebSocket function) beside POST /chat, in-process.

Both functions run in this process against a moto server over HTTP; the WebSocket
function's management API is answered inside botocore (a ``before-send`` hook: the real
client builds and signs every request, nothing goes on the network), so the figures are the
function's own cost. Prints:

- DynamoDB requests per streamed turn, read-only and writing (target: 1 and 3, as POST
  /chat: the identity comes with the authorizer's context, no connection lookup);
- time to first delta, p50/p95 (the rules model streams its reply word by word);
- turns per second, streamed vs HTTP, C turns in flight.

Figures only, no assertions: moto is one Python process.

    python benchmarks/bench_streaming.py [--concurrency 4] [--turns 10]
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import importlib.util
import io
import json
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from botocore.awsrequest import AWSResponse
from moto.server import ThreadedMotoServer

ROOT = Path(__file__).resolve().parents[1]
MANAGEMENT_ENDPOINT = "https://bench.execute-api.us-east-1.amazonaws.com/bench"
CONNECTED = json.dumps({"ConnectedAt": "2026-01-01T00:00:00Z"}).encode()


class _Raw:
    def __init__(self, body: bytes) -> None:
        self._body = body

    def stream(self, **_: Any) -> Iterator[bytes]:
        yield self._body


class ManagementApi:
    """Answers ``PostToConnection`` and ``GetConnection`` inside botocore, and remembers when
    each connection got its first delta."""

    def __init__(self) -> None:
        self.first_delta: dict[str, float] = {}
        self.done_status: dict[str, str] = {}
        self._lock = threading.Lock()

    def attach(self, client: Any) -> None:
        client.meta.events.register("before-send.apigatewaymanagementapi", self._answer)

    def _answer(self, request: Any, **_: Any) -> AWSResponse:
        connection_id = request.url.rsplit("/", 1)[-1]
        if request.method == "POST" and b'"type":"delta"' in (request.body or b""):
            with self._lock:
                self.first_delta.setdefault(connection_id, time.perf_counter())
        if request.method == "POST" and b'"type":"done"' in (request.body or b""):
            frame = json.loads(request.body)
            with self._lock:
                self.done_status[connection_id] = frame["memory"]["status"]
        body = CONNECTED if request.method == "GET" else b""
        return AWSResponse(request.url, 200, {}, _Raw(body))


def load(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(
        f"bench_{name}", ROOT / "functions" / name / "app.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Context:
    function_name = "bench"
    memory_limit_in_mb = 512
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:bench"
    aws_request_id = "bench"

    def get_remaining_time_in_millis(self) -> int:
        return 30_000


def start_world() -> ThreadedMotoServer:
    from agent_memory.repository import TableNames, new_client
    from agent_memory.repository.tables import create_tables_from_template

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    env = {
        "AWS_REGION": "us-east-1",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ACCESS_KEY_ID": "bench",
        "AWS_SECRET_ACCESS_KEY": "bench",
        "DYNAMODB_ENDPOINT_URL": endpoint,
        "MEMORY_TABLE_NAME": "bench-memory",
        "TURN_LEDGER_TABLE_NAME": "bench-ledger",
        "MEMORY_ENABLED": "true",
        "MODEL_PROVIDER": "rules",
        "POWERTOOLS_TRACE_DISABLED": "true",
        "POWERTOOLS_LOG_LEVEL": "ERROR",
        "POWERTOOLS_METRICS_DISABLED": "true",
        "WEBSOCKET_MANAGEMENT_ENDPOINT": MANAGEMENT_ENDPOINT,
    }
    os.environ.update(env)
    client = new_client(region="us-east-1", endpoint_url=endpoint)
    create_tables_from_template(
        client, TableNames(memory="bench-memory", turn_ledger="bench-ledger")
    )
    return server


def http_event(user: str, message: str) -> dict[str, Any]:
    event: dict[str, Any] = json.loads((ROOT / "events" / "chat_remember.json").read_text())
    event = copy.deepcopy(event)
    event["headers"]["idempotency-key"] = str(uuid.uuid4())
    event["requestContext"]["authorizer"] = {"lambda": {"sub": user}}
    event["requestContext"]["requestId"] = uuid.uuid4().hex
    event["body"] = json.dumps({"message": message})
    return event


def ws_event(user: str, connection_id: str, message: str) -> dict[str, Any]:
    return {
        "requestContext": {
            "routeKey": "chat",
            "eventType": "MESSAGE",
            "connectionId": connection_id,
            "domainName": "bench.execute-api.us-east-1.amazonaws.com",
            "stage": "bench",
            "requestId": uuid.uuid4().hex,
            "authorizer": {"principalId": user, "sub": user},
        },
        "body": json.dumps({"action": "chat", "message": message}),
        "isBase64Encoded": False,
    }


def count_dynamodb_requests() -> list[str]:
    from agent_memory.repository import clients

    seen: list[str] = []
    for transactions in (False, True):
        client = clients._PROCESS_CLIENTS.get(transactions=transactions)
        client.meta.events.register(
            "before-send.dynamodb",
            lambda request, **_: seen.append(request.headers["X-Amz-Target"].decode()),
        )
    return seen


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] if ordered else 0.0


def timed(concurrency: int, turns: int, run: Callable[[int, int], None]) -> float:
    """Turns per second with ``concurrency`` threads each running ``turns`` turns."""
    started = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(lambda w: [run(w, t) for t in range(turns)], range(concurrency)))
    return concurrency * turns / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--turns", type=int, default=10)
    args = parser.parse_args()
    server = start_world()
    try:
        from agent_memory.websocket import connection as websocket_connection

        chat, websocket = load("chat"), load("websocket")
        management = ManagementApi()
        management.attach(websocket_connection._CLIENTS.get(MANAGEMENT_ENDPOINT))
        quiet = contextlib.redirect_stdout(io.StringIO())
        run_id = uuid.uuid4().hex[:6]

        def streamed(user: str, message: str) -> tuple[str, float]:
            connection_id = uuid.uuid4().hex
            started = time.perf_counter()
            websocket.lambda_handler(ws_event(user, connection_id, message), Context())
            return connection_id, started

        with quiet:
            streamed(f"warm-{run_id}", "remember: warm up")
            chat.lambda_handler(http_event(f"warm-{run_id}", "hello"), Context())
            seen = count_dynamodb_requests()
            streamed(f"count-{run_id}", "hello there")
            read_only = list(seen)
            seen.clear()
            streamed(f"count-{run_id}", "remember: counted")
            writing = list(seen)
            first_delta_ms: list[float] = []
            outcomes: dict[str, int] = {}
            lock = threading.Lock()

            def stream_turn(writer: int, turn: int) -> None:
                cid, started = streamed(f"s{writer}-{run_id}", f"remember: s{writer} t{turn}")
                with lock:
                    first_delta_ms.append((management.first_delta[cid] - started) * 1000)
                    status = management.done_status.get(cid, "no done frame")
                    outcomes[f"streamed {status}"] = outcomes.get(f"streamed {status}", 0) + 1

            def http_turn(writer: int, turn: int) -> None:
                event = http_event(f"h{writer}-{run_id}", f"remember: h{writer} t{turn}")
                response = chat.lambda_handler(event, Context())
                status = json.loads(response["body"])["memory"]["status"]
                with lock:
                    outcomes[f"http {status}"] = outcomes.get(f"http {status}", 0) + 1

            http_rate = timed(args.concurrency, args.turns, http_turn)
            stream_rate = timed(args.concurrency, args.turns, stream_turn)
        print(f"streamed turns, in-process, {args.concurrency} in flight, {args.turns} each")
        print(
            f"  DynamoDB requests per streamed turn: read-only {len(read_only)}"
            f" {[t.split('.')[-1] for t in read_only]}, writing {len(writing)}"
            f" {[t.split('.')[-1] for t in writing]}   (target 1 and 3)"
        )
        print(
            f"  time to first delta: p50 {percentile(first_delta_ms, 50):.1f} ms,"
            f" p95 {percentile(first_delta_ms, 95):.1f} ms"
        )
        print(
            f"  turns/s: streamed {stream_rate:.1f}, HTTP {http_rate:.1f}"
            f" (ratio {stream_rate / http_rate:.2f})"
        )
        print(f"  outcomes: {dict(sorted(outcomes.items()))}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
