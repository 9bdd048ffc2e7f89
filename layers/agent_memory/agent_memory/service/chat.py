"""One chat turn, end to end (DESIGN.md "The turn protocol", steps 2 to 8).

load (fail open) -> request-local prompt -> agent loop with the memory tool staging into the
turn's ledger -> commit after the final answer -> the outcome beside the reply. A turn that
fails, times out or is cancelled commits nothing. Nothing request-specific is ever stored on
this object: it is a process-wide singleton shared by concurrent requests.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from agent_memory.agent import AgentLoopLimitError, TurnModelStats, run_agent
from agent_memory.domain import (
    MEMORY_UPDATE_DESCRIPTION,
    MEMORY_UPDATE_TOOL_NAME,
    BatchReview,
    MemoryStatus,
    Snapshot,
    compile_system_prompt,
    memory_update_json_schema,
)
from agent_memory.ledger import (
    CHAT_OPEN_DELAY_MS,
    CancelFlag,
    LedgerConfig,
    MemoryOutcome,
    TurnCancelledError,
    TurnUnitOfWork,
    memory_scope,
)
from agent_memory.models import (
    AssistantMessage,
    Message,
    ModelError,
    ModelProvider,
    ToolCall,
    ToolResult,
    ToolSpec,
    UserMessage,
)
from agent_memory.repository import LedgerRepository, MemoryRepository
from agent_memory.service.exceptions import (
    AnswerCutOffError,
    AnswerRefusedError,
    ModelFailedError,
    ModelLoopLimitError,
    ServiceErrorCode,
    TurnCancelledByRequestError,
    TurnDeadlineExceededError,
    TurnFailedError,
)
from agent_memory.service.settings import TurnSettings, wall_clock_ms
from agent_memory.telemetry import (
    TurnRecord,
    debug_capture_enabled,
    emit_memory_unavailable,
    emit_turn_record,
)

MEMORY_TOOL = ToolSpec(
    name=MEMORY_UPDATE_TOOL_NAME,
    description=MEMORY_UPDATE_DESCRIPTION,
    input_schema=memory_update_json_schema(),
)


@dataclass(frozen=True)
class ChatTurn:
    user_id: str | None  # None on memory-free routes
    turn_id: str
    message: str
    history: Sequence[tuple[str, str]] = ()
    connection_id: str = ""  # the WebSocket connection of a streamed turn


class DeltaSink(Protocol):
    """Where a streamed turn's reply goes while the turn runs (the WebSocket route).

    Both methods raise ``ClientDisconnectedError`` when the client has gone: the turn then
    commits nothing. ``confirm_open`` runs after the last delta, right before the commit.
    """

    def delta(self, text: str) -> None: ...

    def confirm_open(self) -> None: ...


@dataclass(frozen=True)
class ChatResult:
    turn_id: str
    reply: str
    memory: MemoryOutcome


def conversation(turn: ChatTurn) -> list[Message]:
    messages: list[Message] = [
        UserMessage(text=content)
        if role == "user"
        else AssistantMessage(text=content, tool_calls=())
        for role, content in turn.history
    ]
    messages.append(UserMessage(text=turn.message))
    return messages


class ChatService:
    def __init__(
        self,
        *,
        model: ModelProvider,
        fallback: ModelProvider | None,
        memory_repository: MemoryRepository | None,
        ledger_repository: LedgerRepository | None,
        memory_enabled: Callable[[], bool],
        settings: TurnSettings,
        clock_ms: Callable[[], int] = wall_clock_ms,
        batch_review: BatchReview | None = None,
        ledger_config: LedgerConfig | None = None,
    ) -> None:
        self._batch_review = batch_review
        # The chat turn's unit of work (composition builds it; the clock is the service's).
        self._ledger_config = ledger_config or LedgerConfig(
            clock_ms=clock_ms, open_delay_ms=CHAT_OPEN_DELAY_MS
        )
        self._model = model
        self._fallback = fallback
        self._memory_repository = memory_repository
        self._ledger_repository = ledger_repository
        self._memory_enabled = memory_enabled
        self._settings = settings
        self._clock_ms = clock_ms

    @property
    def settings(self) -> TurnSettings:
        return self._settings

    def clock_ms(self) -> int:
        return self._clock_ms()

    def run(
        self,
        turn: ChatTurn,
        *,
        deadline_ms: int,
        cancel_flag: CancelFlag,
        sink: DeltaSink | None = None,
    ) -> ChatResult:
        """One turn. With a ``sink`` (a streamed turn) the reply goes out as deltas first, and
        memory commits only after the last delta was posted and the client is still there."""
        started = self._clock_ms()
        stats = TurnModelStats()
        repositories = self._repositories_for(turn)
        if repositories is None:
            try:
                return self._run_without_memory(
                    turn,
                    deadline_ms=deadline_ms,
                    cancel_flag=cancel_flag,
                    sink=sink,
                    stats=stats,
                )
            finally:
                self._record(None, MemoryOutcome.disabled(), started, stats)
        memory_repository, ledger_repository = repositories
        assert turn.user_id is not None  # _repositories_for() checked it
        try:
            ledger = TurnUnitOfWork.begin(
                turn.user_id,
                turn.turn_id,
                deadline_ms,
                memory_repo=memory_repository,
                ledger_repo=ledger_repository,
                cancel_flag=cancel_flag,
                connection_id=turn.connection_id,
                review=self._batch_review,
                config=self._ledger_config,
            )
        except TurnCancelledError as error:
            raise TurnCancelledByRequestError() from error
        try:
            with memory_scope(turn.user_id, writes_enabled=ledger.writes_enabled):
                reply = self._answer(
                    turn,
                    snapshot=ledger.snapshot,
                    memory_status=ledger.memory_status,
                    # Read-only mode: the model is offered no tool that writes.
                    tools=() if ledger.read_only else (MEMORY_TOOL,),
                    writable=not ledger.read_only,
                    approval=ledger.write_mode == "approve",
                    call_tool=lambda call: _tool_result(call, ledger.call_tool(call.arguments)),
                    has_staged_writes=lambda: ledger.has_staged_writes,
                    deadline_ms=deadline_ms,
                    cancel_flag=cancel_flag,
                    sink=sink,
                    stats=stats,
                )
        except TurnFailedError as error:
            # Cancelled and timed-out turns are not commit errors: the alarms tell them apart.
            status = _DISCARDED_AS.get(error.code, "error")
            outcome = ledger.discard(status, error.code)
            self._record(ledger, outcome, started, stats)
            raise
        except BaseException:
            outcome = ledger.discard()
            self._record(ledger, outcome, started, stats)
            raise
        outcome = ledger.commit()
        self._record(ledger, outcome, started, stats)
        return ChatResult(turn_id=turn.turn_id, reply=honest_reply(reply, outcome), memory=outcome)

    def _repositories_for(self, turn: ChatTurn) -> tuple[MemoryRepository, LedgerRepository] | None:
        """The repositories, when this turn may use memory: an authenticated route with the
        flag on. The flag is read per turn, so turning it off needs no deploy."""
        if (
            turn.user_id is None
            or self._memory_repository is None
            or self._ledger_repository is None
        ):
            return None
        if not self._memory_enabled():
            return None
        return self._memory_repository, self._ledger_repository

    def _run_without_memory(
        self,
        turn: ChatTurn,
        *,
        deadline_ms: int,
        cancel_flag: CancelFlag,
        sink: DeltaSink | None,
        stats: TurnModelStats,
    ) -> ChatResult:
        reply = self._answer(
            turn,
            snapshot=None,
            memory_status="unavailable",
            tools=(),
            call_tool=lambda call: ToolResult(
                tool_call_id=call.id, content={"success": False}, is_error=True
            ),
            has_staged_writes=lambda: False,
            deadline_ms=deadline_ms,
            cancel_flag=cancel_flag,
            sink=sink,
            stats=stats,
        )
        return ChatResult(turn_id=turn.turn_id, reply=reply, memory=MemoryOutcome.disabled())

    def _answer(
        self,
        turn: ChatTurn,
        *,
        snapshot: Snapshot | None,
        memory_status: MemoryStatus,
        tools: Sequence[ToolSpec],
        call_tool: Callable[[ToolCall], ToolResult],
        has_staged_writes: Callable[[], bool],
        deadline_ms: int,
        cancel_flag: CancelFlag,
        sink: DeltaSink | None,
        stats: TurnModelStats,
        writable: bool = True,
        approval: bool = False,
    ) -> str:
        def check_deadline() -> None:
            cancel_flag.raise_if_cancelled()
            if self._clock_ms() >= deadline_ms:
                raise TurnDeadlineExceededError()

        def time_left() -> float:
            return max(deadline_ms - self._clock_ms(), 0) / 1000

        # The prompt is compiled for this request only and passed down, never stored.
        system = compile_system_prompt(
            snapshot, memory_status, writable=writable, approval=approval
        )
        try:
            result = run_agent(
                model=self._model,
                fallback=self._fallback,
                system=system,
                messages=conversation(turn),
                tools=tools,
                call_tool=call_tool,
                has_staged_writes=has_staged_writes,
                max_model_calls=self._settings.max_model_calls,
                check_deadline=check_deadline,
                time_left=time_left,
                stats=stats,
                on_text=sink.delta if sink is not None else None,
            )
        except ModelError as error:
            if error.code == "deadline" or self._clock_ms() >= deadline_ms:
                # The call used up the turn's time: a timeout, not a model failure.
                raise TurnDeadlineExceededError() from error
            raise ModelFailedError() from error
        except AgentLoopLimitError as error:
            raise ModelLoopLimitError() from error
        except TurnCancelledError as error:
            raise TurnCancelledByRequestError() from error
        # A cut-off or refused final answer is no success: the turn commits nothing.
        if result.stop_reason == "max_tokens":
            raise AnswerCutOffError()
        if result.stop_reason == "refused":
            raise AnswerRefusedError()
        if sink is not None:
            sink.confirm_open()  # the deltas went out as the model produced them
        return result.reply

    def _record(
        self,
        ledger: TurnUnitOfWork | None,
        outcome: MemoryOutcome,
        started_ms: int,
        stats: TurnModelStats,
    ) -> None:
        """The turn's operational record (counts and codes; content only in the debug flag's
        approved field), and ``MemoryUnavailable`` when the turn could not use its memory."""
        staged = ledger.staged_operations if ledger is not None else ()
        targets = Counter(operation.target for operation in staged)
        debug = [
            {"target": op.target, "action": op.action, "match": op.match, "content": op.content}
            for op in (staged if debug_capture_enabled() else ())
        ]
        emit_turn_record(
            TurnRecord(
                operation_count=outcome.operations,
                targets={target: targets.get(target, 0) for target in ("user", "memory")},
                user_characters=outcome.user.chars,
                memory_characters=outcome.memory.chars,
                duration_ms=max(self._clock_ms() - started_ms, 0),
                retry_count=outcome.retries + outcome.replays,
                replay_count=outcome.replays,
                outcome=outcome.status,
                stop_reason=stats.stop_reason or "none",
                input_tokens=stats.usage.get("input_tokens", 0),
                output_tokens=stats.usage.get("output_tokens", 0),
                model_calls=stats.model_calls,
                fallback_answered=stats.fallback_answered,
                debug_staged_operations=debug,
            )
        )
        if outcome.status == "unavailable":
            emit_memory_unavailable(outcome.reason)
        elif ledger is not None and ledger.memory_status == "unavailable":
            # A failed turn ends "unchanged", but its memory was unavailable all the same.
            emit_memory_unavailable(ledger.unavailable_reason)


# How a failed turn's staged writes are reported, by the turn's failure code.
_DISCARDED_AS: dict[str, Literal["error", "cancelled", "expired"]] = {
    ServiceErrorCode.TURN_CANCELLED: "cancelled",
    ServiceErrorCode.TURN_TIMEOUT: "expired",
    ServiceErrorCode.CLIENT_DISCONNECTED: "cancelled",
}


# What a reply says instead of the model's text when staged writes did not commit: the
# model was told "staged" and may claim a change that did not happen.
_NOT_SAVED_REPLIES: dict[str, str] = {
    "memory_forgotten": "Your memory was deleted while I answered, so I saved nothing to it.",
    "outcome_unknown": "I cannot tell whether my memory update was saved. Check your memory.",
    "cancelled": "The turn was cancelled, so I saved nothing to memory.",
    "expired": "I ran out of time, so I saved nothing to memory.",
    "conflict": "Memory changed meanwhile and my update no longer applied; I saved nothing.",
    "unavailable": "Memory could not be reached, so I saved nothing to it.",
    # Approve mode: the batch waits for the user (GET /memory/proposals).
    "proposed": "I proposed a memory update; it is saved only once you approve it.",
}
_NOT_SAVED_DEFAULT = "My memory update could not be saved; nothing was changed."


def honest_reply(reply: str, outcome: MemoryOutcome) -> str:
    """The model's reply, unless the turn staged writes that did not commit: then a reply
    that claims no memory change (the outcome tells the client the details)."""
    if outcome.operations == 0 or outcome.status in ("committed", "unchanged"):
        return reply
    return (
        _NOT_SAVED_REPLIES.get(outcome.reason or "")
        or _NOT_SAVED_REPLIES.get(outcome.status)
        or _NOT_SAVED_DEFAULT
    )


def _tool_result(call: ToolCall, result: dict[str, object]) -> ToolResult:
    return ToolResult(
        tool_call_id=call.id, content=result, is_error=not bool(result.get("success"))
    )
