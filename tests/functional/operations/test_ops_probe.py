"""The readiness probe against moto over HTTP: every step through the service's own code
paths, and the tables exactly as it found them afterwards, also when any one of its DynamoDB
calls fails in any of three ways."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import jwt
import pytest
from operations_support import FAULT_KINDS, FaultInjector, FaultKind, snapshot_tables

from agent_memory.auth import MAX_SUBJECT_LENGTH, InvalidTokenError, TokenVerifier
from agent_memory.ledger import CancelFlag, LedgerConfig, TurnUnitOfWork
from agent_memory.repository import LedgerRepository, MemoryRepository, TableNames
from agent_memory_tools.dev_auth import DevIssuer
from agent_memory_tools.operations import (
    NotAProbeUserError,
    ProbeCleaner,
    ReadinessProbe,
    is_probe_user_id,
    new_run_id,
    probe_user_id,
)
from agent_memory_tools.operations.probe import wall_clock_ms

CLEANUP_STEP = "cleanup"
# The final cleanup of a clean run: 2 memory + 3 ledger deletes by key, 2 sweeps, 2 checks.
CLEANUP_CALLS = 9


@pytest.fixture
def seeded(
    memory_repository: MemoryRepository, ledger_repository: LedgerRepository
) -> dict[str, Any]:
    """Real users' memory and ledger items, which the probe must never touch."""
    for user, fact in (("alice", "Alice prefers tea."), ("bob", "Bob writes Go.")):
        turn = TurnUnitOfWork.begin(
            user,
            str(uuid.uuid4()),
            wall_clock_ms() + 20_000,
            memory_repo=memory_repository,
            ledger_repo=ledger_repository,
            cancel_flag=CancelFlag(),
            config=LedgerConfig(clock_ms=wall_clock_ms),
        )
        turn.call_tool({"operations": [{"target": "memory", "action": "add", "content": fact}]})
        assert turn.commit().status == "committed"
    return {"users": ("alice", "bob")}


@pytest.fixture
def injector(dynamodb_client: Any, transaction_client: Any) -> Iterator[FaultInjector]:
    injector = FaultInjector().attach(dynamodb_client, transaction_client)
    yield injector
    injector.detach(dynamodb_client, transaction_client)


def new_probe(
    memory_repository: MemoryRepository,
    ledger_repository: LedgerRepository,
    cleaner: ProbeCleaner,
) -> ReadinessProbe:
    return ReadinessProbe(memory_repository, ledger_repository, cleaner)


def test_a_clean_probe_passes_every_step_and_leaves_the_tables_as_it_found_them(
    memory_repository: MemoryRepository,
    ledger_repository: LedgerRepository,
    cleaner: ProbeCleaner,
    dynamodb_client: Any,
    table_names: TableNames,
    seeded: dict[str, Any],
    injector: FaultInjector,
) -> None:
    # GIVEN tables holding real users' memory and ledger items
    before = snapshot_tables(dynamodb_client, table_names)
    assert before["memory"]
    assert before["ledger"]

    # WHEN the probe runs
    report = new_probe(memory_repository, ledger_repository, cleaner).run()

    # THEN every step passed, through the commit protocol's transaction
    assert report.ok, report.to_dict()
    assert report.clean
    names = [step.name.split(":")[0] for step in report.steps]
    assert names == [
        "memory table",
        "insert",
        "read",
        "update",
        "compare-and-swap",
        "remove",
        "ledger table",
        CLEANUP_STEP,
    ]
    assert all(step.duration_ms >= 0 for step in report.steps)
    assert injector.calls.count("TransactWriteItems") == 4  # three turns and the stale write
    assert {"PutItem", "GetItem", "Query", "DeleteItem"} <= set(injector.calls)
    # AND the tables are exactly as before, item for item
    assert snapshot_tables(dynamodb_client, table_names) == before


@pytest.mark.parametrize("kind", FAULT_KINDS)
def test_a_fault_at_any_call_leaves_the_tables_as_the_probe_found_them(
    kind: FaultKind,
    memory_repository: MemoryRepository,
    ledger_repository: LedgerRepository,
    cleaner: ProbeCleaner,
    dynamodb_client: Any,
    table_names: TableNames,
    seeded: dict[str, Any],
    injector: FaultInjector,
) -> None:
    # GIVEN seeded tables and the number of DynamoDB calls of a clean probe
    before = snapshot_tables(dynamodb_client, table_names)
    injector.calls.clear()
    assert new_probe(memory_repository, ledger_repository, cleaner).run().ok
    total = len(injector.calls)
    first_cleanup_call = total - CLEANUP_CALLS

    for at in range(total):
        # WHEN one call of a new probe fails (kind at position `at`)
        injector.calls.clear()
        injector.kind, injector.at, injector.fired = kind, at, None
        report = new_probe(memory_repository, ledger_repository, cleaner).run()
        injector.kind = None

        # THEN the probe cleaned up whatever it had written, and said what failed
        where = f"{kind} at call {at} ({injector.fired})"
        assert injector.fired, where
        assert report.clean, f"{where}: {report.to_dict()}"
        assert snapshot_tables(dynamodb_client, table_names) == before, where
        failed = [step for step in report.steps if not step.ok]
        if kind == "crash" and at < first_cleanup_call:
            assert failed, f"{where}: a crash went unnoticed"
        for step in failed:
            assert step.detail, where


def test_a_probe_user_id_can_never_be_a_verified_subject(tmp_path: Any) -> None:
    # GIVEN a probe user id and a valid token carrying it as its sub
    user_id = probe_user_id(new_run_id())
    issuer = DevIssuer(tmp_path)
    key = jwt.PyJWK(issuer.jwks()["keys"][0])

    class Keys:
        def get_signing_key(self, kid: str) -> jwt.PyJWK:
            return key

    # The key source is in memory: the JWKS URL is never fetched.
    verifier = TokenVerifier(issuer.auth_settings("https://jwks.invalid/jwks.json"), keys=Keys())
    # WHEN the authorizer's verifier checks it
    # THEN it refuses the token, while the same token for a plain sub passes
    assert len(user_id) > MAX_SUBJECT_LENGTH
    with pytest.raises(InvalidTokenError):
        verifier.verify(issuer.mint(user_id))
    assert verifier.verify(issuer.mint("__probe__#alice")).subject == "__probe__#alice"
    assert not is_probe_user_id("__probe__#alice")
    # The longest subject that can pass is a different id, never a probe's.
    assert not is_probe_user_id(user_id[:MAX_SUBJECT_LENGTH])
    assert is_probe_user_id(user_id)


@pytest.mark.parametrize(
    "user_id", ["alice", "__probe__#alice", "__probe__#" + "0" * 32 + "#" + "~" * 300, ""]
)
def test_the_cleaner_refuses_ids_outside_the_probe_namespace(
    cleaner: ProbeCleaner, user_id: str
) -> None:
    # GIVEN an id that is not exactly a probe run's
    # WHEN a cleanup is asked for it THEN it is refused before any request
    with pytest.raises(NotAProbeUserError):
        cleaner.remove(user_id)
    with pytest.raises(NotAProbeUserError):
        cleaner.leftovers(user_id)


def test_the_cleanup_removes_what_a_killed_probe_left_behind(
    memory_repository: MemoryRepository,
    ledger_repository: LedgerRepository,
    cleaner: ProbeCleaner,
    dynamodb_client: Any,
    table_names: TableNames,
    seeded: dict[str, Any],
) -> None:
    # GIVEN a probe run that committed a turn and was then killed (no finally ran)
    before = snapshot_tables(dynamodb_client, table_names)
    run_id = new_run_id()
    user_id = probe_user_id(run_id)
    turn = TurnUnitOfWork.begin(
        user_id,
        str(uuid.uuid4()),
        wall_clock_ms() + 20_000,
        memory_repo=memory_repository,
        ledger_repo=ledger_repository,
        cancel_flag=CancelFlag(),
        config=LedgerConfig(clock_ms=wall_clock_ms),
    )
    turn.call_tool({"operations": [{"target": "user", "action": "add", "content": "Probe."}]})
    assert turn.commit().status == "committed"
    # The user document, its history record, the ledger item.
    assert len(cleaner.leftovers(user_id)) == 3

    # WHEN the cleanup runs for that run id alone (no turn ids known)
    cleaner.remove(user_id)

    # THEN the partition sweep found and deleted them all, and nothing else changed
    assert cleaner.leftovers(user_id) == []
    assert snapshot_tables(dynamodb_client, table_names) == before
