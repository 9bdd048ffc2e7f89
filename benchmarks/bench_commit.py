"""Benchmark of the commit protocol against a moto server over HTTP.

N concurrent writers each run T writing turns (load, stage one fact, commit):

- uncontended: every writer is a different user;
- contended: every writer is the same user (the commit protocol's replays at work).

Prints, side by side: commits per second, replays per commit, p50/p99 commit latency, and
the DynamoDB requests of a read-only and of a writing turn. Figures only, no assertions:
moto is a single Python process, so absolute numbers say little about DynamoDB; the
contended/uncontended ratio and the request counts are the interesting part.

    python benchmarks/bench_commit.py [--writers 8] [--turns 5]
"""

from __future__ import annotations

import argparse
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from moto.server import ThreadedMotoServer

from agent_memory.ledger import CancelFlag, LedgerConfig, MemoryOutcome, TurnUnitOfWork
from agent_memory.repository import (
    LedgerRepository,
    MemoryRepository,
    RequestCounter,
    TableNames,
    new_client,
)
from agent_memory.repository.tables import create_tables_from_template

CREDENTIALS = {"aws_access_key_id": "bench", "aws_secret_access_key": "bench"}
REGION = "us-east-1"
TURN_DEADLINE_MS = 30_000


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class OneRequestAtATime:
    """moto is not atomic under concurrent requests; DynamoDB is per item (see
    tests/functional/conftest.py). Serialising the server keeps the results honest."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self._app = app
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        with self._lock:
            return list(self._app(environ, start_response))


@dataclass
class Stack:
    client: Any
    transaction_client: Any
    memory: MemoryRepository
    ledger: LedgerRepository


def start_stack() -> tuple[ThreadedMotoServer, Stack]:
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    wsgi = server._server
    assert wsgi is not None
    wsgi.app = OneRequestAtATime(wsgi.app)  # type: ignore[assignment]
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    client = new_client(region=REGION, endpoint_url=endpoint, credentials=CREDENTIALS)
    transactions = new_client(
        region=REGION, endpoint_url=endpoint, credentials=CREDENTIALS, transactions=True
    )
    names = TableNames(memory="bench-memory", turn_ledger="bench-ledger")
    create_tables_from_template(client, names)
    stack = Stack(
        client=client,
        transaction_client=transactions,
        memory=MemoryRepository(client, names.memory, transaction_client=transactions),
        ledger=LedgerRepository(client, names.turn_ledger),
    )
    return server, stack


def writing_turn(stack: Stack, user_id: str, fact: str) -> tuple[MemoryOutcome, float]:
    """One turn that adds one fact; returns the outcome and the commit latency (ms)."""
    ledger = TurnUnitOfWork.begin(
        user_id,
        str(uuid.uuid4()),
        now_ms() + TURN_DEADLINE_MS,
        memory_repo=stack.memory,
        ledger_repo=stack.ledger,
        cancel_flag=CancelFlag(),
        config=LedgerConfig(clock_ms=now_ms),
    )
    ledger.call_tool({"operations": [{"target": "memory", "action": "add", "content": fact}]})
    started = time.perf_counter()
    outcome = ledger.commit()
    return outcome, (time.perf_counter() - started) * 1000


@dataclass(frozen=True)
class Result:
    name: str
    writers: int
    turns: int
    commits: int
    conflicts: int
    errors: int
    replays: int
    retries: int
    seconds: float
    latencies_ms: list[float]

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies_ms)
        if not ordered:
            return 0.0
        return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def run_scenario(
    stack: Stack, name: str, writers: int, turns: int, user_of: Callable[[int], str]
) -> Result:
    barrier = threading.Barrier(writers)

    def writer(index: int) -> list[tuple[MemoryOutcome, float]]:
        barrier.wait()
        return [
            writing_turn(stack, user_of(index), f"{name} w{index} t{turn}") for turn in range(turns)
        ]

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=writers) as pool:
        results = [item for batch in pool.map(writer, range(writers)) for item in batch]
    seconds = time.perf_counter() - started
    outcomes = [outcome for outcome, _ in results]
    return Result(
        name=name,
        writers=writers,
        turns=len(results),
        commits=sum(o.status == "committed" for o in outcomes),
        conflicts=sum(o.status == "conflict" for o in outcomes),
        errors=sum(o.status not in ("committed", "conflict") for o in outcomes),
        replays=sum(o.replays for o in outcomes),
        retries=sum(o.retries for o in outcomes),
        seconds=seconds,
        latencies_ms=[latency for _, latency in results],
    )


def requests_per_turn(stack: Stack) -> tuple[dict[str, int], dict[str, int]]:
    counter = RequestCounter().attach(stack.client, stack.transaction_client)
    try:
        read_only = TurnUnitOfWork.begin(
            "bench-requests",
            str(uuid.uuid4()),
            now_ms() + TURN_DEADLINE_MS,
            memory_repo=stack.memory,
            ledger_repo=stack.ledger,
            cancel_flag=CancelFlag(),
            config=LedgerConfig(clock_ms=now_ms),
        )
        read_only.commit()
        read_counts = counter.counts()
        counter.reset()
        writing_turn(stack, "bench-requests", "Counted fact.")
        write_counts = counter.counts()
    finally:
        counter.detach(stack.client, stack.transaction_client)
    return read_counts, write_counts


def print_results(results: list[Result]) -> None:
    header = (
        f"{'scenario':<12} {'writers':>7} {'turns':>6} {'commits':>7} {'conflicts':>9} "
        f"{'errors':>6} {'commits/s':>9} {'replays/commit':>14} {'retries':>7} "
        f"{'p50 ms':>7} {'p99 ms':>7}"
    )
    print(header)
    print("-" * len(header))
    for r in results:
        per_second = r.commits / r.seconds if r.seconds else 0.0
        replays = r.replays / r.commits if r.commits else 0.0
        print(
            f"{r.name:<12} {r.writers:>7} {r.turns:>6} {r.commits:>7} {r.conflicts:>9} "
            f"{r.errors:>6} {per_second:>9.1f} {replays:>14.2f} {r.retries:>7} "
            f"{r.percentile(50):>7.1f} {r.percentile(99):>7.1f}"
        )


def describe(counts: dict[str, int]) -> str:
    detail = ", ".join(f"{op} {n}" for op, n in sorted(counts.items()))
    return f"{sum(counts.values())} ({detail})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=8, help="concurrent writers (N)")
    parser.add_argument("--turns", type=int, default=5, help="writing turns per writer (T)")
    args = parser.parse_args(argv)
    server, stack = start_stack()
    try:
        # Warm-up: the first requests pay for connection set-up and moto's lazy imports.
        writing_turn(stack, "bench-warmup", "Warm-up fact.")
        uncontended = run_scenario(
            stack, "uncontended", args.writers, args.turns, lambda i: f"bench-user-{i}"
        )
        contended = run_scenario(
            stack, "contended", args.writers, args.turns, lambda i: "bench-shared-user"
        )
        read_counts, write_counts = requests_per_turn(stack)
    finally:
        server.stop()
    print(
        f"\ncommit protocol against moto over HTTP: {args.writers} writers x {args.turns} "
        "turns each (uncontended: one user per writer; contended: one user for all)\n"
    )
    print_results([uncontended, contended])
    print(f"\nDynamoDB requests per read-only turn: {describe(read_counts)}")
    print(f"DynamoDB requests per writing turn:   {describe(write_counts)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
