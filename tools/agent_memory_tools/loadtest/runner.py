"""The driver: reads the starting documents, dispatches the turns with C in flight (a user's
turns in bursts, so they race), sends each cancel while its turn sleeps, and reads the
documents again at the end.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, cast

from agent_memory_tools.loadtest.config import APPROVE_EVERY, LoadTestConfig
from agent_memory_tools.loadtest.exceptions import TargetError
from agent_memory_tools.loadtest.facts import Store, user_id
from agent_memory_tools.loadtest.outcomes import (
    cancel_answer,
    classify,
    classify_control,
    memory_ids,
)
from agent_memory_tools.loadtest.plan import Plan
from agent_memory_tools.loadtest.progress import Progress
from agent_memory_tools.loadtest.record import RunRecord, TurnRecord
from agent_memory_tools.loadtest.scenario import Composer
from agent_memory_tools.loadtest.targets.api import (
    ApiAnswer,
    ApiRequest,
    StreamingTarget,
    StreamRequest,
    Target,
)

STORES: tuple[Store, ...] = ("user", "memory")
SLOT_POLL_SECONDS = 0.2


@dataclass(frozen=True)
class Documents:
    """One user's two documents as ``GET /memory`` returned them."""

    entries: Mapping[str, list[str]]
    chars: Mapping[str, int]
    limits: Mapping[str, int]


@dataclass(frozen=True)
class DocumentsRead:
    documents: Documents | None
    error: str | None = None


@dataclass(frozen=True)
class Dispatched:
    seconds: float
    dispatched: int
    stopped_early: bool


class Runner:
    def __init__(
        self,
        config: LoadTestConfig,
        target: Target,
        plan: Plan,
        record: RunRecord,
        progress: Progress,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._config = config
        self._target = target
        self._plan = plan
        self._record = record
        self._progress = progress
        self._clock = clock
        self._started = 0.0
        self._done = 0
        self._done_lock = threading.Lock()
        self._tokens: dict[int, str] = {}

    # -- before and after ------------------------------------------------------------------

    def issue_tokens(self) -> None:
        users = range(self._config.users)
        self._tokens = dict(zip(users, self._map(self._token, users), strict=True))

    def prepare(self) -> None:
        """Tokens for every user, then the starting documents (usually empty: users are new).

        Fails with a clear message when the target refuses or does not answer."""
        self.issue_tokens()
        for user, read in self.read_documents().items():
            if read.documents is None:
                raise TargetError(
                    f"Cannot read the memory of {user_id(self._record.run_id, user)}: {read.error}."
                )
            self._record.baseline[user] = {t: list(read.documents.entries[t]) for t in STORES}
        self._set_approve_mode()

    def _set_approve_mode(self) -> None:
        """With approve or reject turns in the mix, every ``APPROVE_EVERY``-th user runs in
        the ``approve`` write mode (``PUT /memory/settings``)."""
        mix = self._config.mix
        if mix.weight("approve") + mix.weight("reject") <= 0:
            return
        users = [u for u in range(self._config.users) if u % APPROVE_EVERY == APPROVE_EVERY - 1]
        answers = self._map(
            lambda user: self._target.send(
                ApiRequest("PUT", "/memory/settings", self._tokens[user], {"write_mode": "approve"})
            ),
            users,
        )
        for user, answer in zip(users, answers, strict=True):
            if answer.status != 200:
                raise TargetError(
                    f"Cannot set the write mode of {user_id(self._record.run_id, user)}:"
                    f" {_describe_failure(answer)}."
                )
        self._record.approve_mode = frozenset(users)

    def read_documents(self) -> dict[int, DocumentsRead]:
        users = list(range(self._config.users))
        return dict(zip(users, self._map(self._read, users), strict=True))

    def forget_users(self) -> int:
        """``DELETE /memory`` for every user of the run; the number that failed."""
        answers = self._map(
            lambda user: self._target.send(ApiRequest("DELETE", "/memory", self._tokens[user])),
            range(self._config.users),
        )
        return sum(1 for answer in answers if answer.status != 204)

    def _token(self, user: int) -> str:
        return self._target.token_for(user_id(self._record.run_id, user))

    def _read(self, user: int) -> DocumentsRead:
        answer = self._target.send(ApiRequest("GET", "/memory", self._tokens[user]))
        if answer.status != 200 or not isinstance(answer.body, dict):
            return DocumentsRead(None, _describe_failure(answer))
        try:
            body = answer.body
            return DocumentsRead(
                Documents(
                    entries={t: [str(e) for e in body[t]["entries"]] for t in STORES},
                    chars={t: int(body[t]["chars"]) for t in STORES},
                    limits={t: int(body[t]["limit"]) for t in STORES},
                )
            )
        except (KeyError, TypeError, ValueError):
            return DocumentsRead(None, "GET /memory answered a body without both documents")

    def _map(self, function: Callable[[int], Any], items: Iterable[int]) -> list[Any]:
        with ThreadPoolExecutor(max_workers=self._config.concurrency) as pool:
            return list(pool.map(function, items))

    # -- the load ------------------------------------------------------------------------------

    def dispatch(self) -> Dispatched:
        config = self._config
        composer = Composer(self._record, config.seed)
        slots = threading.Semaphore(config.concurrency)
        futures: list[Future[None]] = []
        stopped_early = False
        self._started = self._clock()
        deadline = None if config.duration_limit is None else self._started + config.duration_limit
        with (
            ThreadPoolExecutor(config.concurrency, thread_name_prefix="turn") as turns,
            ThreadPoolExecutor(config.concurrency, thread_name_prefix="cancel") as cancels,
        ):
            for planned in self._plan.order:
                if not self._wait_for_slot(slots, deadline):
                    stopped_early = True
                    break
                turn = composer.compose(planned)
                futures.append(turns.submit(self._run_turn, turn, slots, cancels))
            wait(futures)
        self._progress.finish()
        return Dispatched(
            seconds=self._clock() - self._started,
            dispatched=len(futures),
            stopped_early=stopped_early,
        )

    def _wait_for_slot(self, slots: threading.Semaphore, deadline: float | None) -> bool:
        while True:
            if deadline is not None and self._clock() >= deadline:
                return False
            if slots.acquire(timeout=SLOT_POLL_SECONDS):
                if deadline is not None and self._clock() >= deadline:
                    slots.release()
                    return False
                return True

    def _run_turn(
        self, turn: TurnRecord, slots: threading.Semaphore, cancels: ThreadPoolExecutor
    ) -> None:
        try:
            started = self._clock()
            self._record.start(turn.key, started - self._started)
            if turn.cancel_after is not None:
                cancels.submit(self._cancel, turn, started + turn.cancel_after)
            if turn.request is not None:
                method, path, body = turn.request
                answer = self._target.send(ApiRequest(method, path, self._tokens[turn.user], body))
                result = classify_control(answer, turn.kind)
                ids: dict[str, str | None] = {}
            elif self._config.stream:
                answer = self._stream(turn)
                result = classify(answer)
                ids = memory_ids(answer)
            else:
                answer = self._target.send(
                    ApiRequest(
                        "POST",
                        "/chat",
                        self._tokens[turn.user],
                        {"message": turn.message, **turn.body_extra},
                        {"Idempotency-Key": turn.turn_id},
                    )
                )
                result = classify(answer)
                ids = memory_ids(answer)
            self._record.finish(
                turn.key,
                self._clock() - self._started,
                latency_ms=answer.latency_ms,
                http_status=answer.status,
                status=result.status,
                reason=result.reason,
                error_code=result.error_code,
                outcome=result.outcome,
                requests=dict(answer.requests) if answer.requests is not None else None,
                retry_count=answer.retry_count,
                replay_count=answer.replay_count,
                first_delta_ms=answer.first_delta_ms,
                deltas_match=answer.deltas_match,
                cpu_ms=answer.cpu_ms,
                host_cpu_s=time.process_time(),
                **ids,
            )
        except Exception as error:  # a bug of the load test itself: recorded, and a failed check
            self._record.finish(
                turn.key,
                self._clock() - self._started,
                status="harness error",
                error_code=f"{type(error).__name__}: {error}",
                outcome="unknown",
            )
        finally:
            slots.release()
            with self._done_lock:
                self._done += 1
                done = self._done
            self._progress.update(done, self._record.status_counts())

    def _stream(self, turn: TurnRecord) -> ApiAnswer:
        """The chat turn as a chat frame on a WebSocket connection of its own."""
        target = cast(StreamingTarget, self._target)
        frame = {
            "action": "chat",
            "turn_id": turn.turn_id,
            "message": turn.message,
            **turn.body_extra,
        }
        drop = turn.variant if turn.kind == "disconnect" else None
        return target.stream_turn(
            StreamRequest(self._tokens[turn.user], turn.user_id, frame, drop=drop)
        )

    def _cancel(self, turn: TurnRecord, at: float) -> None:
        time.sleep(max(at - self._clock(), 0.0))
        answer = self._target.send(
            ApiRequest("POST", f"/turns/{turn.turn_id}/cancel", self._tokens[turn.user])
        )
        self._record.cancel_answered(turn.key, answer.status, cancel_answer(answer))


def _describe_failure(answer: ApiAnswer) -> str:
    if answer.status == 0:
        return f"no answer ({answer.error})"
    if answer.status in (401, 403):
        return (
            f"{answer.status}: the API refused the token (a local stack trusts the dev issuer of"
            " this checkout; a deployed stage needs --token-command)"
        )
    return f"{answer.status} {answer.error_code or ''}".strip()
