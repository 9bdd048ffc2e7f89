"""The naive baseline beside ours: the same concurrent load, two ways of writing memory.

- naive (the seed's anti-pattern): the tool writes at once, per call: read the document,
  apply the operation, PutItem it back, unconditionally; no ledger, no condition;
- ours: the turn's ledger stages the call and commits after the answer, in one conditional
  TransactWriteItems, replaying on conflict (the code the chat handler runs: TurnUnitOfWork).

Each turn adds one unique fact; some turns fail after their tool call (the model errors
out before the answer). Afterwards every user's documents are read back and two things
are counted: acknowledged writes that are missing (lost updates: a concurrent
read-modify-write overwrote them) and facts of failed turns that stayed (partial commits).

Against moto over HTTP, serving one request at a time as DynamoDB serialises per item
(moto itself is not atomic under concurrency, see tests/functional/conftest.py), so every
loss counted here is the writer's, not the database's. Figures only, no assertions.

A breakdown follows: where a turn's time goes, per writer and load (mean ms per turn in
each DynamoDB call, in backoff sleeps and in the simulated model's think time), and the
requests per turn, so that the gap between the writers can be read off.

    python benchmarks/bench_naive_baseline.py [--turns 25] [--concurrency 8] [--fail-rate 0.1]
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from agent_memory.domain import Operation, apply_operations, render_document
from agent_memory.ledger import CHAT_OPEN_DELAY_MS, CancelFlag, LedgerConfig, TurnUnitOfWork
from agent_memory.repository import (
    CURRENT_SCHEMA_VERSION,
    LedgerRepository,
    MemoryRepository,
    TableNames,
    new_client,
    new_revision,
)
from agent_memory_tools.local.dynamodb import CREDENTIALS, REGION, LocalDynamoDB

ROOT = Path(__file__).resolve().parents[1]
TURN_DEADLINE_MS = 20_000
T = TypeVar("T")


def now_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class Turn:
    user: str
    fact: str
    fails: bool


@dataclass
class Tally:
    acknowledged: set[str] = field(default_factory=set)
    failed: set[str] = field(default_factory=set)
    latencies_ms: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, turn: Turn, acknowledged: bool, latency_ms: float) -> None:
        with self.lock:
            (self.acknowledged if acknowledged else self.failed).add(turn.fact)
            self.latencies_ms.append(latency_ms)


STEPS = (
    "load",
    "ledger open",
    "transaction",
    "reload",
    "put",
    "discard",
    "ledger read",
    "backoff",
    "think",
)


class Breakdown:
    """Time and calls per step of the turns of one run (each turn runs in one thread)."""

    def __init__(self) -> None:
        self.ms: dict[str, float] = dict.fromkeys(STEPS, 0.0)
        self.calls: dict[str, int] = dict.fromkeys(STEPS, 0)
        self._lock = threading.Lock()
        self._turn = threading.local()

    def begin_turn(self) -> None:
        self._turn.loaded = False

    def add(self, step: str, seconds: float) -> None:
        if step == "load" and getattr(self._turn, "loaded", False):
            step = "reload"  # a turn's second and later Query are the commit's reloads
        elif step == "load":
            self._turn.loaded = True
        with self._lock:
            self.ms[step] += seconds * 1000
            self.calls[step] += 1

    def timed(self, step: str, call: Callable[..., T]) -> Callable[..., T]:
        def run(*args: object, **kwargs: object) -> T:
            started = time.perf_counter()
            try:
                return call(*args, **kwargs)
            finally:
                self.add(step, time.perf_counter() - started)

        return run

    def sleep(self, seconds: float) -> None:
        self.timed("backoff", time.sleep)(seconds)


class _Timed:
    """A repository whose calls named in ``steps`` are timed into ``breakdown``."""

    def __init__(self, inner: object, breakdown: Breakdown, steps: dict[str, str]) -> None:
        self._inner = inner
        self._breakdown = breakdown
        self._steps = steps

    def __getattr__(self, name: str) -> object:
        value = getattr(self._inner, name)
        step = self._steps.get(name)
        return self._breakdown.timed(step, value) if step else value


@dataclass(frozen=True)
class Load:
    users: int
    turns: int
    concurrency: int
    fail_rate: float
    think_before_s: float
    think_after_s: float
    seed: int

    def plan(self, prefix: str) -> list[Turn]:
        """Each user's turns in bursts, so that several of one user are in flight."""
        rng = random.Random(self.seed)
        burst = max(2, -(-self.concurrency // self.users))
        queues = [
            [
                Turn(f"{prefix}-u{u}", f"Fact {prefix}-{u}-{t}.", rng.random() < self.fail_rate)
                for t in range(self.turns)
            ]
            for u in range(self.users)
        ]
        order: list[Turn] = []
        while any(queues):
            for queue in queues:
                order.extend(queue[:burst])
                del queue[:burst]
        return order


class Writers:
    def __init__(self, endpoint: str, names: TableNames) -> None:
        client = new_client(region=REGION, endpoint_url=endpoint, credentials=CREDENTIALS)
        transactions = new_client(
            region=REGION, endpoint_url=endpoint, credentials=CREDENTIALS, transactions=True
        )
        self.client = client
        self.names = names
        self.memory = MemoryRepository(client, names.memory, transaction_client=transactions)
        self.ledger = LedgerRepository(client, names.turn_ledger)
        self.breakdown = Breakdown()

    def timed(self, breakdown: Breakdown) -> Writers:
        """The same writers, timing each step into ``breakdown``."""
        timed = object.__new__(Writers)
        timed.client = _Timed(self.client, breakdown, {"put_item": "put"})  # type: ignore[assignment]
        timed.names = self.names
        timed.memory = _Timed(  # type: ignore[assignment]
            self.memory, breakdown, {"load": "load", "transact_write": "transaction"}
        )
        timed.ledger = _Timed(  # type: ignore[assignment]
            self.ledger,
            breakdown,
            {"open_turn": "ledger open", "discard": "discard", "get": "ledger read"},
        )
        timed.breakdown = breakdown
        return timed

    def think(self, seconds: float) -> None:
        self.breakdown.timed("think", time.sleep)(seconds)

    def naive(self, turn: Turn, load: Load) -> bool:
        """The tool writes at once: read, apply, PutItem without a condition."""
        self.breakdown.begin_turn()
        self.think(load.think_before_s)
        snapshot = self.memory.load(turn.user).snapshot
        updated = apply_operations(snapshot, [Operation("memory", "add", content=turn.fact)])
        self.client.put_item(
            TableName=self.names.memory,
            Item={
                "user_id": {"S": turn.user},
                "memory_type": {"S": "memory"},
                "content": {"S": render_document(updated.entries("memory"))},
                "revision": {"S": new_revision()},
                "schema_version": {"N": str(CURRENT_SCHEMA_VERSION)},
                "created_at": {"N": str(now_ms())},
                "updated_at": {"N": str(now_ms())},
            },
        )
        self.think(load.think_after_s)
        return not turn.fails  # a failed turn's write has already happened

    def ours(self, turn: Turn, load: Load) -> bool:
        """Stage in the turn's ledger, commit after the answer (what the chat turn does)."""
        self.breakdown.begin_turn()
        ledger = TurnUnitOfWork.begin(
            turn.user,
            str(uuid.uuid4()),
            now_ms() + TURN_DEADLINE_MS,
            memory_repo=self.memory,
            ledger_repo=self.ledger,
            cancel_flag=CancelFlag(),
            # What the chat service does: a short turn creates its ledger item in the commit.
            config=LedgerConfig(
                clock_ms=now_ms, sleep=self.breakdown.sleep, open_delay_ms=CHAT_OPEN_DELAY_MS
            ),
        )
        self.think(load.think_before_s)
        ledger.call_tool(
            {"operations": [{"target": "memory", "action": "add", "content": turn.fact}]}
        )
        self.think(load.think_after_s)
        if turn.fails:
            ledger.discard()
            return False
        return ledger.commit().status == "committed"

    def stored_facts(self, user: str) -> list[str]:
        return list(self.memory.load(user).snapshot.entries("memory"))


@dataclass(frozen=True)
class Result:
    scenario: str
    writer: str
    turns: int
    acknowledged: int
    lost: int
    kept_from_failed: int
    seconds: float
    p50_ms: float
    breakdown: Breakdown


def run(writers: Writers, scenario: str, name: str, load: Load) -> Result:
    prefix = f"{name}-{uuid.uuid4().hex[:6]}"  # short: 50 facts must fit in one store
    turns = load.plan(prefix)
    tally = Tally()
    breakdown = Breakdown()
    timed = writers.timed(breakdown)
    write = timed.naive if name == "naive" else timed.ours

    def one(turn: Turn) -> None:
        started = time.perf_counter()
        acknowledged = write(turn, load)
        tally.add(turn, acknowledged, (time.perf_counter() - started) * 1000)

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=load.concurrency) as pool:
        list(pool.map(one, turns))
    seconds = time.perf_counter() - started
    stored: set[str] = set()
    for user in {turn.user for turn in turns}:
        stored.update(writers.stored_facts(user))
    return Result(
        scenario=scenario,
        writer=name,
        turns=len(turns),
        acknowledged=len(tally.acknowledged),
        lost=len(tally.acknowledged - stored),
        kept_from_failed=len(tally.failed & stored),
        seconds=seconds,
        p50_ms=statistics.median(tally.latencies_ms),
        breakdown=breakdown,
    )


def print_results(results: list[Result]) -> None:
    header = (
        f"{'scenario':<28} {'writer':<6} {'turns':>5} {'acked':>5} {'lost':>5}"
        f" {'lost %':>6} {'failed kept':>11} {'turns/s':>7} {'p50 ms':>6}"
    )
    print(header)
    print("-" * len(header))
    for r in results:
        share = 100 * r.lost / r.acknowledged if r.acknowledged else 0.0
        print(
            f"{r.scenario:<28} {r.writer:<6} {r.turns:>5} {r.acknowledged:>5} {r.lost:>5}"
            f" {share:>5.0f}% {r.kept_from_failed:>11} {r.turns / r.seconds:>7.1f}"
            f" {r.p50_ms:>6.0f}"
        )


def print_breakdown(results: list[Result]) -> None:
    steps = [s for s in STEPS if any(r.breakdown.calls[s] for r in results)]
    header = f"{'scenario':<28} {'writer':<6}" + "".join(f" {s:>11}" for s in steps)
    header += f" {'requests':>8}"
    print(header)
    print("-" * len(header))
    for r in results:
        cells = "".join(
            f" {r.breakdown.ms[s] / r.turns:>5.1f} x{r.breakdown.calls[s] / r.turns:<4.2f}"
            for s in steps
        )
        requests = sum(r.breakdown.calls[s] for s in steps if s not in ("backoff", "think"))
        print(f"{r.scenario:<28} {r.writer:<6}{cells} {requests / r.turns:>8.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=25, help="turns per user (default 25)")
    parser.add_argument("--concurrency", type=int, default=8, help="turns in flight (default 8)")
    parser.add_argument("--fail-rate", type=float, default=0.1, help="turns that fail (0.1)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    logging.getLogger("agent_memory").setLevel(logging.ERROR)
    names = TableNames(memory="bench-naive-memory", turn_ledger="bench-naive-ledger")
    server = LocalDynamoDB(ROOT / "template.yaml", names).start()
    try:
        writers = Writers(server.endpoint_url, names)
        scenarios: list[tuple[str, Load]] = []
        for users in (4, 1):
            load = Load(
                users=users,
                turns=args.turns if users > 1 else args.turns * 2,
                concurrency=args.concurrency,
                fail_rate=args.fail_rate,
                think_before_s=0.005,
                think_after_s=0.02,
                seed=args.seed,
            )
            per_user = max(2, -(-args.concurrency // users))
            scenarios.append((f"{users} users, {per_user}/user in flight", load))
        results = []
        for scenario, load in scenarios:
            for name in ("naive", "ours"):
                results.append(run(writers, scenario, name, load))
    finally:
        server.close()
    print(
        f"\nthe same load, two writers: {args.concurrency} turns in flight, one new fact per"
        f" turn, {args.fail_rate:.0%} of turns fail after their tool call\n"
    )
    print_results(results)
    print(
        "\nlost: acknowledged facts missing at the end (a concurrent unconditional write"
        " overwrote them); failed kept: facts of failed turns that stayed (partial commits)."
    )
    print("\nwhere a turn's time goes: mean ms per turn in each step x calls per turn\n")
    print_breakdown(results)
    print(
        "\nload/reload: the Query of both documents (reload: during the commit); transaction:"
        " TransactWriteItems attempts; backoff: sleeps between attempts; think: the simulated"
        " model (the same for both writers); requests: DynamoDB requests per turn."
    )
    ours = {r.scenario: r for r in results if r.writer == "ours"}
    for r in results:
        if r.writer == "naive" and r.scenario in ours:
            mine = ours[r.scenario]
            print(
                f"{r.scenario}: ours/naive throughput"
                f" {(mine.turns / mine.seconds) / (r.turns / r.seconds):.2f}x,"
                f" p50 {mine.p50_ms / r.p50_ms:.2f}x"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
