"""Streamed turns over the WebSocket API: the same turn service, its reply posted as deltas.

**A disconnected stream commits nothing.** Memory commits only after the last delta was
posted and while the connection is still there (``ConnectionSink.confirm_open``). A failed
post (``GoneException`` or any other) discards the turn; ``$disconnect`` fences the
connection's open turns (``ConnectionFence``). The commit's ``status = open`` condition makes
the race between the two safe both ways; ``GET /turns/{turn_id}`` tells the truth afterwards.
Nothing here logs a frame, a reply or a token.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from aws_lambda_powertools import Logger

from agent_memory.ledger import CancelFlag
from agent_memory.repository import LedgerRepository, RepositoryError
from agent_memory.service.chat import ChatService, ChatTurn
from agent_memory.service.exceptions import ClientDisconnectedError, ServiceError
from agent_memory.service.memory import MemoryService
from agent_memory.service.requests import chat_response, parse_turn_id
from agent_memory.websocket import (
    CancelFrame,
    ChatFrame,
    Connection,
    ConnectionGoneError,
    ConnectionPostError,
    FrameError,
    parse_frame,
)
from agent_memory.websocket.frames import (
    cancelled_frame,
    delta_frame,
    done_frame,
    error_frame,
    started_frame,
)

logger = Logger(service="agent-memory", child=True)

_INTERNAL_ERROR = ("internal_error", "The turn failed; nothing was saved. Please retry.")


class ConnectionSink:
    """The ``DeltaSink`` of one streamed turn: deltas to the client's connection."""

    def __init__(self, connection: Connection, turn_id: str) -> None:
        self._connection = connection
        self._turn_id = turn_id
        self.posted = 0

    def delta(self, text: str) -> None:
        try:
            self._connection.post(delta_frame(self._turn_id, text))
        except (ConnectionGoneError, ConnectionPostError):
            # A delta the client did not get: the reply it holds is not the one we would
            # commit beside, so nothing is committed.
            raise ClientDisconnectedError() from None
        self.posted += 1

    def confirm_open(self) -> None:
        if not self._connection.is_open():
            raise ClientDisconnectedError()


class _RunningTurns:
    """The cancel flags of the streamed turns running in this process, by connection and
    turn: a cancel frame that lands in the same process stops its turn at once (the local
    stack); in Lambda the ledger's ``cancelled`` status does it at the commit."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flags: dict[tuple[str, str], CancelFlag] = {}

    @contextmanager
    def running(self, connection_id: str, turn_id: str, flag: CancelFlag) -> Iterator[None]:
        with self._lock:
            self._flags[(connection_id, turn_id)] = flag
        try:
            yield
        finally:
            with self._lock:
                self._flags.pop((connection_id, turn_id), None)

    def cancel(self, connection_id: str, turn_id: str) -> None:
        with self._lock:
            flag = self._flags.get((connection_id, turn_id))
        if flag is not None:
            flag.cancel()

    def cancel_connection(self, connection_id: str) -> None:
        with self._lock:
            flags = [f for (cid, _), f in self._flags.items() if cid == connection_id]
        for flag in flags:
            flag.cancel()


RUNNING_TURNS = _RunningTurns()


def _post_quietly(connection: Connection, frame: dict[str, Any]) -> bool:
    """Post a frame the turn does not depend on (an error, the final ``done``)."""
    try:
        connection.post(frame)
    except (ConnectionGoneError, ConnectionPostError) as error:
        logger.info("frame not delivered", extra={"code": error.code})
        return False
    return True


def stream_chat_turn(
    service: ChatService,
    *,
    user_id: str,
    connection: Connection,
    body: str | None,
    remaining_ms: int | None,
    cancel_flag: CancelFlag | None = None,
) -> str | None:
    """Run one ``chat`` frame as a streamed turn; returns the turn id (None for a refused
    frame). Every failure the client should know of becomes an error frame."""
    try:
        frame: ChatFrame = parse_frame(body, ChatFrame)
        turn_id = parse_turn_id(frame.turn_id) if frame.turn_id is not None else str(uuid.uuid4())
    except FrameError as error:
        _post_quietly(connection, error_frame(error.code, error.message, turn_id=error.turn_id))
        return None
    except ServiceError as error:
        _post_quietly(connection, error_frame(error.code, error.message))
        return None
    try:
        connection.post(started_frame(turn_id))
    except (ConnectionGoneError, ConnectionPostError):
        return turn_id  # nothing ran, nothing staged
    flag = cancel_flag or CancelFlag()
    sink = ConnectionSink(connection, turn_id)
    now_ms = service.clock_ms()
    turn = ChatTurn(
        user_id=user_id,
        turn_id=turn_id,
        message=frame.message,
        history=tuple((item.role, item.content) for item in frame.history),
        connection_id=connection.connection_id,
    )
    try:
        with RUNNING_TURNS.running(connection.connection_id, turn_id, flag):
            result = service.run(
                turn,
                deadline_ms=service.settings.deadline_ms(now_ms=now_ms, remaining_ms=remaining_ms),
                cancel_flag=flag,
                sink=sink,
            )
    except ClientDisconnectedError:
        logger.info("stream ended by the client", extra={"deltas_posted": sink.posted})
        return turn_id
    except ServiceError as error:
        _post_quietly(connection, error_frame(error.code, error.message, turn_id=turn_id))
        return turn_id
    except Exception as error:
        # The turn committed nothing (ChatService.run discards on any failure); the client
        # learns it failed, never why (the type name goes to the log, not the message).
        logger.error("streamed turn failed", extra={"error_type": type(error).__name__})
        _post_quietly(connection, error_frame(*_INTERNAL_ERROR, turn_id=turn_id))
        return turn_id
    body_of_done = chat_response(result).model_dump(mode="json")
    _post_quietly(connection, done_frame(turn_id, result.reply, body_of_done["memory"]))
    return turn_id


def cancel_streamed_turn(
    service: MemoryService, *, user_id: str, connection: Connection, body: str | None
) -> None:
    """A ``cancel`` frame: the turn can then never commit (as ``POST /turns/{id}/cancel``)."""
    try:
        frame: CancelFrame = parse_frame(body, CancelFrame)
        turn_id = parse_turn_id(frame.turn_id)
    except FrameError as error:
        _post_quietly(connection, error_frame(error.code, error.message, turn_id=error.turn_id))
        return
    except ServiceError as error:
        _post_quietly(connection, error_frame(error.code, error.message))
        return
    RUNNING_TURNS.cancel(connection.connection_id, turn_id)
    try:
        status = service.cancel_turn(user_id, turn_id)
    except ServiceError as error:
        _post_quietly(connection, error_frame(error.code, error.message, turn_id=turn_id))
        return
    _post_quietly(connection, cancelled_frame(turn_id, status))


def refuse_unknown_action(connection: Connection, body: str | None) -> None:
    """``$default``: a frame that is not JSON, or whose action is missing or unknown."""
    try:
        json.loads(body or "")
    except (ValueError, RecursionError):
        _post_quietly(connection, error_frame("invalid_json", "The frame is not valid JSON."))
        return
    _post_quietly(
        connection, error_frame("unknown_action", "The frame's action must be chat or cancel.")
    )


@dataclass(frozen=True)
class ConnectionFence:
    """``$disconnect``: the connection's open turns become ``discarded`` (they can then never
    commit), and a turn of it running in this process is stopped."""

    ledger_repository: LedgerRepository
    clock_ms: Callable[[], int]

    def fence(self, user_id: str, connection_id: str) -> int:
        RUNNING_TURNS.cancel_connection(connection_id)
        try:
            return self.ledger_repository.discard_connection_turns(
                user_id, connection_id, self.clock_ms()
            )
        except RepositoryError as error:
            # The turn still cannot commit: its next post or the check before the commit
            # fails, and the cleanup path expires what is left.
            logger.warning("disconnect fence failed", extra={"code": error.code})
            return 0
