"""The readiness probe (the seed's rollout step 2): insert, read, update and remove a probe
item in each table through the service's own code paths, then prove nothing is left.

The documents are written by real turns (``TurnUnitOfWork``: the consistent load, staging through
the ``memory_update`` rules, the ledger item opened with ``PutItem``, the commit protocol's
``TransactWriteItems`` with its conditions), so a pass means a chat turn can do the same with
these tables, this role and this network path. The compare-and-swap step proves that the
conditions are really enforced. The probe runs in the probe namespace (``namespace``) and
its cleanup runs in ``finally``: whatever step fails, and on Ctrl-C, it deletes every probe
item by key and then checks both partitions are empty.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from agent_memory.domain import Snapshot
from agent_memory.ledger import (
    CancelFlag,
    LedgerConfig,
    MemoryOutcome,
    TurnUnitOfWork,
    memory_scope,
)
from agent_memory.repository import (
    CURRENT_SCHEMA_VERSION,
    LedgerRepository,
    LoadedMemory,
    MemoryRepository,
    RepositoryError,
    TransactionCancelledError,
)
from agent_memory_tools.operations.cleanup import ProbeCleaner
from agent_memory_tools.operations.namespace import new_run_id, probe_user_id

USER_ENTRY = "Readiness probe: user document entry."
MEMORY_ENTRY = "Readiness probe: memory document entry."
MEMORY_ENTRY_UPDATED = "Readiness probe: memory document entry, updated."
STALE_ENTRY = "Readiness probe: a write based on a stale read."
TURN_BUDGET_MS = 20_000
CLEANUP_ATTEMPTS = 3


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class ProbeCheckError(Exception):
    """What a step read back is not what it wrote."""


@dataclass(frozen=True)
class StepResult:
    name: str
    ok: bool
    duration_ms: float
    detail: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.name,
            "ok": self.ok,
            "duration_ms": round(self.duration_ms, 1),
            "detail": self.detail,
        }


@dataclass(frozen=True)
class ProbeReport:
    run_id: str
    user_id: str
    steps: tuple[StepResult, ...]
    leftovers: tuple[tuple[str, str, str], ...] = ()
    # Whether any step got as far as a write: a probe that failed before (no credentials,
    # no table) cannot have left anything, even when its cleanup could not read back.
    wrote: bool = True

    @property
    def ok(self) -> bool:
        return all(step.ok for step in self.steps) and self.clean

    @property
    def clean(self) -> bool:
        """The cleanup ran and found both probe partitions empty."""
        return bool(self.steps) and self.steps[-1].ok and not self.leftovers

    @property
    def duration_ms(self) -> float:
        return sum(step.duration_ms for step in self.steps)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "clean": self.clean,
            "wrote": self.wrote,
            "run_id": self.run_id,
            "steps": [step.to_dict() for step in self.steps],
            "leftovers": [
                {"table": table, "user_id": self.user_id, sort_key: value}
                for table, sort_key, value in self.leftovers
            ],
        }


@dataclass
class _State:
    """What the steps pass on to each other (one probe run)."""

    turn_ids: list[str] = field(default_factory=list)
    after_insert: LoadedMemory | None = None


class ReadinessProbe:
    def __init__(
        self,
        memory_repository: MemoryRepository,
        ledger_repository: LedgerRepository,
        cleaner: ProbeCleaner,
        *,
        clock_ms: Callable[[], int] = wall_clock_ms,
        run_id: str | None = None,
        on_step: Callable[[StepResult], None] | None = None,
    ) -> None:
        self._memory = memory_repository
        self._ledger = ledger_repository
        self._cleaner = cleaner
        self._clock = clock_ms
        self.run_id = run_id or new_run_id()
        self.user_id = probe_user_id(self.run_id)
        self._on_step = on_step or (lambda _: None)
        self._state = _State()

    def run(self) -> ProbeReport:
        results: list[StepResult] = []
        leftovers: list[tuple[str, str, str]] = []
        try:
            for name, action in self._steps():
                result = self._timed(name, action)
                results.append(result)
                if not result.ok:
                    break
        finally:
            # Also on Ctrl-C (which then propagates): nothing is left behind whenever the
            # tables can be reached at all.
            cleanup = self._timed(_CLEANUP_STEP, lambda: self._cleanup(leftovers))
            results.append(cleanup)
        return ProbeReport(
            run_id=self.run_id,
            user_id=self.user_id,
            steps=tuple(results),
            leftovers=tuple(leftovers),
            wrote=bool(self._state.turn_ids),
        )

    # -- the steps -------------------------------------------------------------------------

    def _steps(self) -> Iterator[tuple[str, Callable[[], None]]]:
        yield (
            "memory table: a consistent read of the probe's partition finds it empty",
            (self._read_empty),
        )
        yield (
            "insert: a turn stages one entry per document and opens its ledger item",
            (self._insert),
        )
        yield (
            "read: both documents and the committed ledger item read back as written",
            (self._read_inserted),
        )
        yield "update: a second turn replaces an entry (conditional Put)", self._update
        yield "compare-and-swap: a write based on a stale read is refused", self._stale_write
        yield "remove: a third turn removes every entry (conditional Delete)", self._remove
        yield (
            "ledger table: the probe's ledger items are read, then deleted by key",
            (self._remove_ledger_items),
        )

    def _read_empty(self) -> None:
        loaded = self._memory.load(self.user_id)
        _check(
            loaded.snapshot.is_empty and not loaded.documents, "the probe partition is not empty"
        )

    def _insert(self) -> None:
        turn = self._begin()
        self._stage(turn, _add("user", USER_ENTRY), _add("memory", MEMORY_ENTRY))
        self._commit(turn)

    def _read_inserted(self) -> None:
        loaded = self._memory.load(self.user_id)
        _check(
            loaded.snapshot == Snapshot(user=(USER_ENTRY,), memory=(MEMORY_ENTRY,)),
            "the documents read back differ from what was committed",
        )
        for target in ("user", "memory"):
            version = loaded.document(target).schema_version
            _check(
                version == CURRENT_SCHEMA_VERSION,
                f"the {target} document has schema_version {version}, "
                f"expected {CURRENT_SCHEMA_VERSION}",
            )
        self._check_committed(self._state.turn_ids[-1])
        self._state.after_insert = loaded

    def _update(self) -> None:
        turn = self._begin()
        self._stage(turn, _replace("memory", MEMORY_ENTRY, MEMORY_ENTRY_UPDATED))
        self._commit(turn)
        loaded = self._memory.load(self.user_id)
        _check(
            loaded.snapshot == Snapshot(user=(USER_ENTRY,), memory=(MEMORY_ENTRY_UPDATED,)),
            "the updated document read back differs from what was committed",
        )
        before = self._require_insert_read()
        _check(
            loaded.document("memory").revision != before.document("memory").revision,
            "the update did not change the document's revision",
        )
        self._check_committed(self._state.turn_ids[-1])

    def _stale_write(self) -> None:
        stale = self._require_insert_read()
        writes = self._memory.document_writes(
            self.user_id,
            stale,
            stale.snapshot.replace_entries("memory", (STALE_ENTRY,)),
            self._clock(),
        )
        try:
            self._memory.transact_write(writes, token=uuid.uuid4().hex)
        except TransactionCancelledError as error:
            _check(
                "ConditionalCheckFailed" in error.reasons,
                f"refused, but not by its condition: {list(error.reasons)}",
            )
            return
        raise ProbeCheckError("a write based on a stale revision was ACCEPTED")

    def _remove(self) -> None:
        turn = self._begin()
        self._stage(
            turn, _remove_op("user", USER_ENTRY), _remove_op("memory", MEMORY_ENTRY_UPDATED)
        )
        self._commit(turn)
        loaded = self._memory.load(self.user_id)
        _check(
            loaded.snapshot.is_empty and not loaded.documents,
            "memory items remain after the last entries were removed",
        )

    def _remove_ledger_items(self) -> None:
        for turn_id in self._state.turn_ids:
            _check(
                self._ledger.get(self.user_id, turn_id) is not None,
                "a ledger item of the probe is missing",
            )
        self._cleaner.remove(self.user_id, self._state.turn_ids)
        for turn_id in self._state.turn_ids:
            _check(
                self._ledger.get(self.user_id, turn_id) is None,
                "a ledger item of the probe is still there after its delete",
            )

    def _cleanup(self, leftovers: list[tuple[str, str, str]]) -> None:
        """Delete every probe item, retried (a transient error must not leave one behind);
        fails, naming what is left, when the partitions cannot be read back empty."""
        error: Exception | None = None
        for _ in range(CLEANUP_ATTEMPTS):
            try:
                self._cleaner.remove(self.user_id, self._state.turn_ids)
                found = self._cleaner.leftovers(self.user_id)
            except Exception as caught:  # every attempt counts; the last error is reported
                error = caught
                continue
            leftovers[:] = found
            if not found:
                return
            error = None
        if error is not None:
            raise error
        raise ProbeCheckError(f"{len(leftovers)} probe item(s) are still there")

    # -- turns -----------------------------------------------------------------------------

    def _begin(self) -> TurnUnitOfWork:
        turn_id = str(uuid.uuid4())
        # Known before anything is written, so the cleanup can delete it by key.
        self._state.turn_ids.append(turn_id)
        now = self._clock()
        return TurnUnitOfWork.begin(
            self.user_id,
            turn_id,
            now + TURN_BUDGET_MS,
            memory_repo=self._memory,
            ledger_repo=self._ledger,
            cancel_flag=CancelFlag(),
            config=LedgerConfig(clock_ms=self._clock),
        )

    def _stage(self, turn: TurnUnitOfWork, *operations: Mapping[str, Any]) -> None:
        if turn.memory_status != "available":
            raise ProbeCheckError(f"memory unavailable: {turn.unavailable_reason}")
        with memory_scope(self.user_id, writes_enabled=True):
            result = turn.call_tool({"operations": list(operations)})
        if not result.get("success"):
            error = result.get("error") or {}
            # The turn can no longer commit; its outcome (no request) says why.
            outcome = turn.commit()
            raise ProbeCheckError(
                f"staging refused: {error.get('code', 'unknown')} "
                f"(turn {outcome.status}: {outcome.reason})"
            )

    def _commit(self, turn: TurnUnitOfWork) -> MemoryOutcome:
        outcome = turn.commit()
        if outcome.status != "committed":
            raise ProbeCheckError(f"commit outcome {outcome.status} ({outcome.reason})")
        return outcome

    def _check_committed(self, turn_id: str) -> None:
        record = self._ledger.get(self.user_id, turn_id)
        _check(record is not None, "the turn's ledger item is missing")
        assert record is not None
        _check(
            record.status == "committed" and bool(record.commit_token),
            f"the turn's ledger item is {record.status!r}, expected 'committed'",
        )

    def _require_insert_read(self) -> LoadedMemory:
        loaded = self._state.after_insert
        if loaded is None:
            raise ProbeCheckError("the read step did not run")
        return loaded

    # -- reporting -------------------------------------------------------------------------

    def _timed(self, name: str, action: Callable[[], object]) -> StepResult:
        started = time.perf_counter()
        detail: str | None = None
        try:
            action()
        except ProbeCheckError as error:
            detail = str(error)
        except RepositoryError as error:
            detail = f"DynamoDB: {error.code}"
        except Exception as error:  # a probe reports every failure; it never crashes
            detail = f"{type(error).__name__}: {error}"
        result = StepResult(
            name=name,
            ok=detail is None,
            duration_ms=(time.perf_counter() - started) * 1000,
            detail=detail,
        )
        self._on_step(result)
        return result


_CLEANUP_STEP = "cleanup: every probe item deleted by key; both partitions read back empty"


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise ProbeCheckError(message)


def _add(target: str, content: str) -> dict[str, Any]:
    return {"target": target, "action": "add", "content": content, "match": None}


def _replace(target: str, match: str, content: str) -> dict[str, Any]:
    return {"target": target, "action": "replace", "match": match, "content": content}


def _remove_op(target: str, match: str) -> dict[str, Any]:
    return {"target": target, "action": "remove", "match": match, "content": None}
