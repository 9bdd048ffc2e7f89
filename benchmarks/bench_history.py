"""What user control costs: bytes written per commit with and without the history record,
and the DynamoDB requests of each kind of turn and user request.

Runs against in-process moto (``mock_aws``): the figures are item sizes and request counts,
which do not depend on the server's speed. Item sizes follow DynamoDB's rule (attribute
names plus values, UTF-8); a transactional write costs 2 WCU per started KB of each item.

    python benchmarks/bench_history.py
"""

from __future__ import annotations

import math
import os
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from moto import mock_aws

from agent_memory.domain import LIMITS
from agent_memory.ledger import CancelFlag, LedgerConfig, TurnUnitOfWork
from agent_memory.repository import (
    LedgerRepository,
    MemoryRepository,
    RequestCounter,
    TableNames,
    new_client,
)
from agent_memory.repository.tables import create_tables_from_template
from agent_memory.service import TurnSettings, UserControlService
from agent_memory.service.memory import MemoryService

CREDENTIALS = {"aws_access_key_id": "bench", "aws_secret_access_key": "bench"}
DEADLINE_MS = 30_000


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def item_bytes(item: Mapping[str, Any]) -> int:
    """DynamoDB's item size: each attribute's name plus its value (strings as UTF-8,
    numbers about one byte per two digits plus one)."""
    size = 0
    for name, value in item.items():
        size += len(name.encode())
        if "S" in value:
            size += len(value["S"].encode())
        elif "N" in value:
            size += math.ceil(len(value["N"].lstrip("-")) / 2) + 1
        else:
            size += len(str(value).encode())
    return size


def written_item(entry: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """(kind, attributes) of one TransactWriteItems entry."""
    if "Put" in entry:
        item = entry["Put"]["Item"]
        key = item.get("memory_type", {}).get("S", "")
        return ("history" if key.startswith("~history#") else "document"), item
    if "Update" in entry:
        return "ledger", {**entry["Update"]["Key"], **entry["Update"]["ExpressionAttributeValues"]}
    kind = "Delete" if "Delete" in entry else "ConditionCheck"
    return "other", entry[kind]["Key"]


@dataclass
class Stack:
    client: Any
    memory: MemoryRepository
    ledger: LedgerRepository
    control: UserControlService
    edits: MemoryService


def build_stack() -> Stack:
    client = new_client(region="us-east-1", credentials=CREDENTIALS)
    names = TableNames(memory="bench-memory", turn_ledger="bench-ledger")
    create_tables_from_template(client, names)
    memory = MemoryRepository(client, names.memory)
    ledger = LedgerRepository(client, names.turn_ledger)
    common: dict[str, Any] = {
        "memory_repository": memory,
        "ledger_repository": ledger,
        "memory_enabled": lambda: True,
        "settings": TurnSettings.from_env({}),
        "clock_ms": now_ms,
    }
    return Stack(client, memory, ledger, UserControlService(**common), MemoryService(**common))


def chat_turn(stack: Stack, user: str, operations: list[dict[str, Any]]) -> Any:
    ledger = TurnUnitOfWork.begin(
        user,
        str(uuid.uuid4()),
        now_ms() + DEADLINE_MS,
        memory_repo=stack.memory,
        ledger_repo=stack.ledger,
        cancel_flag=CancelFlag(),
        config=LedgerConfig(clock_ms=now_ms),
    )
    if operations:
        result = ledger.call_tool({"operations": operations})
        assert result["success"], result
    return ledger.commit()


def add(content: str, target: str = "memory") -> dict[str, Any]:
    return {"target": target, "action": "add", "content": content}


@dataclass(frozen=True)
class CommitBytes:
    name: str
    documents: int  # the document items, provenance included
    provenance: int  # of which the provenance attributes
    history: int
    total_without: int  # every item of the transaction but the history record
    wcu_without: int
    wcu_with: int


def bytes_per_commit(stack: Stack) -> list[CommitBytes]:
    sent: list[list[Mapping[str, Any]]] = []

    def capture(params: dict[str, Any], **_: Any) -> None:
        sent.append(list(params["TransactItems"]))

    stack.client.meta.events.register("provide-client-params.dynamodb.TransactWriteItems", capture)
    fact = "The project deploys with SAM on arm64; tests run on moto."
    filler = [f"Fact {i:02d}: " + "x" * 150 for i in range(12)]
    cases: list[tuple[str, Callable[[], Any]]] = [
        ("add one fact", lambda: chat_turn(stack, "b1", [add(fact)])),
        (
            "replace one fact",
            lambda: chat_turn(
                stack,
                "b1",
                [{"target": "memory", "action": "replace", "match": "SAM", "content": fact[:40]}],
            ),
        ),
        (
            "batch of 3 adds",
            lambda: chat_turn(stack, "b2", [add(f"{fact} #{i}") for i in range(3)]),
        ),
        ("fill a store (12 adds)", lambda: chat_turn(stack, "b3", [add(f) for f in filler])),
        (
            "consolidate a full store",
            lambda: chat_turn(
                stack,
                "b3",
                [
                    {"target": "memory", "action": "remove", "match": f"Fact {i:02d}"}
                    for i in range(6)
                ]
                + [add("Facts 00-05 merged: " + "y" * 300)],
            ),
        ),
    ]
    rows = []
    try:
        for name, run in cases:
            sent.clear()
            outcome = run()
            assert outcome.status == "committed", outcome
            [items] = sent
            sizes: dict[str, list[int]] = {}
            provenance = 0
            for entry in items:
                kind, attributes = written_item(entry)
                sizes.setdefault(kind, []).append(item_bytes(attributes))
                if kind == "document" and "provenance" in attributes:
                    provenance += item_bytes({"provenance": attributes["provenance"]})
            wcu = {k: sum(2 * math.ceil(b / 1024) for b in v) for k, v in sizes.items()}
            wcu_without = sum(v for k, v in wcu.items() if k != "history")
            rows.append(
                CommitBytes(
                    name=name,
                    documents=sum(sizes.get("document", [])),
                    provenance=provenance,
                    history=sum(sizes.get("history", [])),
                    total_without=sum(sum(v) for k, v in sizes.items() if k != "history"),
                    wcu_without=wcu_without,
                    wcu_with=wcu_without + wcu.get("history", 0),
                )
            )
    finally:
        stack.client.meta.events.unregister(
            "provide-client-params.dynamodb.TransactWriteItems", capture
        )
    return rows


def requests_by_kind(stack: Stack) -> list[tuple[str, dict[str, int]]]:
    counter = RequestCounter().attach(stack.client)
    control, user = stack.control, "counted"
    rows: list[tuple[str, dict[str, int]]] = []

    def measure(name: str, run: Callable[[], Any]) -> Any:
        counter.reset()
        result = run()
        rows.append((name, counter.counts()))
        return result

    try:
        measure("chat turn, read-only", lambda: chat_turn(stack, user, []))
        written = measure("chat turn, writing (auto)", lambda: chat_turn(stack, user, [add("A.")]))
        measure(
            "PATCH /memory",
            lambda: stack.edits.edit(user, [add("B.", "user")], remaining_ms=DEADLINE_MS),
        )
        measure(
            "POST /memory/undo",
            lambda: control.undo(user, written.commit_id, remaining_ms=DEADLINE_MS),
        )
        measure("GET /memory/history", lambda: control.history(user, limit=20, cursor=None))
        measure("PUT /memory/settings", lambda: control.set_write_mode(user, "approve"))
        proposed = measure(
            "chat turn, writing (approve)", lambda: chat_turn(stack, user, [add("C.")])
        )
        other = chat_turn(stack, user, [add("D.")])
        measure("GET /memory/proposals", lambda: control.proposals(user))
        measure(
            "POST .../approve",
            lambda: control.approve(user, proposed.proposal_id, remaining_ms=DEADLINE_MS),
        )
        measure("POST .../reject", lambda: control.reject(user, other.proposal_id))
        control.set_write_mode(user, "read_only")
        measure("chat turn (read_only mode)", lambda: chat_turn(stack, user, []))
        measure("DELETE /memory/history", lambda: control.delete_history(user))
        measure("DELETE /memory", lambda: stack.edits.forget(user))
    finally:
        counter.detach(stack.client)
    return rows


def describe(counts: dict[str, int]) -> str:
    detail = ", ".join(f"{op} {n}" for op, n in sorted(counts.items()))
    return f"{sum(counts.values())} ({detail})"


def main() -> int:
    os.environ.update({name.upper(): value for name, value in CREDENTIALS.items()})
    with mock_aws():
        stack = build_stack()
        sizes = bytes_per_commit(stack)
        requests = requests_by_kind(stack)
    print(
        f"\nbytes written per commit (stores: user {LIMITS['user']}, memory {LIMITS['memory']})\n"
    )
    header = (
        f"{'commit':<26} {'docs B':>7} {'(prov.)':>7} {'history B':>9} {'B without':>9} "
        f"{'B with':>7} {'WCU without':>11} {'WCU with':>8}"
    )
    print(header)
    print("-" * len(header))
    for row in sizes:
        print(
            f"{row.name:<26} {row.documents:>7} {row.provenance:>7} {row.history:>9} "
            f"{row.total_without:>9} {row.total_without + row.history:>7} "
            f"{row.wcu_without:>11} {row.wcu_with:>8}"
        )
    print(
        "\nB without/with: every item of the commit's transaction (documents with their"
        " provenance, ledger update)\nwithout/with the history record; WCU: transactional"
        " writes, 2 per started KB of each item"
    )
    print("\nDynamoDB requests by kind of turn or request\n")
    for name, counts in requests:
        print(f"{name:<32} {describe(counts)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
