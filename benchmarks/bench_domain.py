"""Throughput of the memory rules on full documents.

Run: python benchmarks/bench_domain.py [--seconds S]

Each batch holds 20 operations on stores that start full (both within a few characters of
their limit): removes, replaces and adds of same-sized entries, so the result stays near
full and the capacity check, the matching and the threat scan all do real work.
Prints figures only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

from agent_memory.domain import (
    LIMITS,
    MAX_OPERATIONS,
    MemoryToolSession,
    Operation,
    Snapshot,
    Target,
    apply_operations,
    render_document,
    scan_entry,
)

ENTRY_LENGTH = 100


def fact(target: Target, number: int) -> str:
    text = (
        f"{target} fact {number:03d}: the team prefers small reviewed changes, typed Python "
        "and reversible database migrations for every release"
    )
    return text[:ENTRY_LENGTH].ljust(ENTRY_LENGTH, ".")


def full_store(target: Target) -> tuple[str, ...]:
    entries: list[str] = []
    number = 0
    while len(render_document([*entries, fact(target, number)])) <= LIMITS[target]:
        entries.append(fact(target, number))
        number += 1
    return tuple(entries)


def realistic_batch() -> list[Operation]:
    """20 operations: per store, remove 3, replace 3 to 5, add 3 new facts of the same size."""
    batch: list[Operation] = []
    plan: tuple[tuple[Target, int], ...] = (("memory", 5), ("user", 3))
    for target, replaces in plan:
        for n in range(3):
            batch.append(Operation(target=target, action="remove", match=f"fact {n:03d}:"))
        for n in range(3, 3 + replaces):
            batch.append(
                Operation(
                    target=target,
                    action="replace",
                    match=f"fact {n:03d}:",
                    content=fact(target, 500 + n),
                )
            )
        for n in range(3):
            batch.append(Operation(target=target, action="add", content=fact(target, 900 + n)))
    assert len(batch) == MAX_OPERATIONS
    return batch


def measure(seconds: float, step: Callable[[], object]) -> tuple[int, float]:
    runs, started = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        for _ in range(50):
            step()
        runs += 50
    return runs, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    seconds = parser.parse_args().seconds

    snapshot = Snapshot(user=full_store("user"), memory=full_store("memory"))
    batch = realistic_batch()
    result = apply_operations(snapshot, batch)
    print(
        f"stores before: user {snapshot.chars('user')}/{LIMITS['user']} "
        f"({len(snapshot.user)} entries), memory {snapshot.chars('memory')}/{LIMITS['memory']} "
        f"({len(snapshot.memory)} entries)"
    )
    print(
        f"stores after:  user {result.chars('user')}/{LIMITS['user']}, "
        f"memory {result.chars('memory')}/{LIMITS['memory']}"
    )

    runs, elapsed = measure(seconds, lambda: apply_operations(snapshot, batch))
    ops = runs * len(batch) / elapsed
    print(
        f"apply_operations, 20-operation batches on full documents: {runs / elapsed:,.0f} "
        f"batches/s, {ops:,.0f} operations/s ({1e6 / ops:.1f} µs per operation)"
    )

    entry = fact("memory", 1)
    runs, elapsed = measure(seconds, lambda: scan_entry(entry))
    print(f"scan_entry, {ENTRY_LENGTH}-character entry: {runs / elapsed:,.0f} scans/s")

    arguments = json.dumps(
        {"operations": [{k: v for k, v in vars(op).items() if v is not None} for op in batch]}
    )
    runs, elapsed = measure(
        seconds, lambda: MemoryToolSession(snapshot, writes_enabled=True).call(arguments)
    )
    print(
        f"memory_update tool call (JSON parse + schema + rules), 20 operations: "
        f"{runs / elapsed:,.0f} calls/s ({1e3 * elapsed / runs:.3f} ms per call)"
    )


if __name__ == "__main__":
    main()
