"""The local DynamoDB after a day of turns: does a request cost what it cost on a fresh stack?

moto keeps every item in memory and runs no TTL, so `make run`'s tables only grow: the ledger
gains an item per writing turn, the memory table a history record per commit. This fills
them (straight into moto's backend, as a day of turns would leave them: 500 users) and times,
at each size, the requests a turn and the cleanup send: a writing turn (Query, commit
transaction), a ledger GetItem, and one cleanup run (eight Queries of the sparse index of
open turns). With the adapters of `agent_memory_tools.local` (moto_transactions,
moto_queries) a turn's requests stay flat and the cleanup grows by about a millisecond per
thousand ledger items; without them (`--without-adapters`) see the difference.

    python benchmarks/bench_local_dynamodb.py [--sizes 0,10000,50000] [--without-adapters]
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from agent_memory.ledger import CancelFlag, LedgerConfig, TurnUnitOfWork
from agent_memory.repository import LedgerRepository, MemoryRepository, TableNames, new_client
from agent_memory_tools.local.dynamodb import CREDENTIALS, REGION, LocalDynamoDB

ROOT = Path(__file__).resolve().parents[1]
USERS = 500
ACCOUNT = "123456789012"


def median_ms(run: Callable[[], object], times: int) -> float:
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def fill(backend: object, names: TableNames, start: int, end: int) -> None:
    """Ledger items of committed turns and history records, as served turns leave them."""
    for n in range(start, end):
        user = f"user-{n % USERS}"
        backend.put_item(  # type: ignore[attr-defined]
            names.turn_ledger,
            {
                "user_id": {"S": user},
                "turn_id": {"S": str(uuid.uuid4())},
                "status": {"S": "committed"},
                "updated_at": {"N": str(n)},
                "expires_at": {"N": "1"},
            },
        )
        backend.put_item(  # type: ignore[attr-defined]
            names.memory,
            {
                "user_id": {"S": user},
                "memory_type": {"S": f"history#{n:012d}"},
                "changes": {"S": "[]"},
                "expires_at": {"N": "1"},
            },
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="0,10000,50000", help="items per table to time at")
    parser.add_argument("--without-adapters", action="store_true")
    args = parser.parse_args(argv)
    logging.getLogger("agent_memory").setLevel(logging.ERROR)
    if args.without_adapters:
        from agent_memory_tools.local import moto_queries, moto_transactions

        moto_queries.install = moto_transactions.install = lambda: None  # type: ignore[assignment]
    names = TableNames(memory="bench-day-memory", turn_ledger="bench-day-ledger")
    server = LocalDynamoDB(ROOT / "template.yaml", names).start()
    try:
        from moto.backends import get_backend

        backend = get_backend("dynamodb")[ACCOUNT][REGION]
        client = new_client(
            region=REGION, endpoint_url=server.endpoint_url, credentials=CREDENTIALS
        )
        transactions = new_client(
            region=REGION,
            endpoint_url=server.endpoint_url,
            credentials=CREDENTIALS,
            transactions=True,
        )
        memory = MemoryRepository(client, names.memory, transaction_client=transactions)
        ledger = LedgerRepository(client, names.turn_ledger)
        config = LedgerConfig()

        def writing_turn() -> None:
            turn = TurnUnitOfWork.begin(
                "user-7",
                str(uuid.uuid4()),
                config.clock_ms() + 20_000,
                memory_repo=memory,
                ledger_repo=ledger,
                cancel_flag=CancelFlag(),
                config=config,
            )
            turn.call_tool(
                {"operations": [{"target": "memory", "action": "add", "content": "A fact."}]}
            )
            turn.commit()
            memory.delete_all("user-7")  # the next turn finds the same documents

        print(f"\nthe local DynamoDB as its tables grow ({USERS} users; medians)")
        print(
            f"{'items per table':>15} {'writing turn ms':>15} {'GetItem ms':>10} {'cleanup ms':>10}"
        )
        filled = 0
        for size in (int(s) for s in args.sizes.split(",")):
            fill(backend, names, filled, size)
            filled = max(filled, size)
            turn_ms = median_ms(writing_turn, 15)
            get_ms = median_ms(lambda: ledger.get("user-7", "none"), 30)
            cleanup_ms = median_ms(lambda: ledger.expire_overdue(1), 3)
            print(f"{filled:>15,} {turn_ms:>15.1f} {get_ms:>10.1f} {cleanup_ms:>10.1f}")
    finally:
        server.close()
    print(
        "\nwriting turn: load (Query) + staging + commit (TransactWriteItems) + the bench's own"
        " reset (DeleteItem x2 and a settings write); cleanup: one run of expire_overdue"
        " (eight Queries of the open-turns index, nothing overdue)."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
