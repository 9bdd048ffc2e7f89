"""One execution environment: a process that loads one function and runs one invocation at
a time, as Lambda does (``python -m agent_memory_tools.local.runtime FUNCTION FD``).

Why a process per concurrent invocation, not a thread: Powertools' event handler keeps the
current event on a class attribute (``BaseRouter.current_event``), shared by every resolver
of the process. Two concurrent requests in one process can each read the other's event,
identity included. Lambda never runs two invocations in one environment; neither do we.

The handler runs in a worker thread under ``bind_cancel_flag``; this thread keeps reading
the channel, so a ``cancel`` from the stack (the client went away) sets the turn's flag
while the turn runs. When the stack goes away (end of stream), the process exits at once.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import threading
import traceback
from collections.abc import Sequence
from typing import Any

from agent_memory.ledger import CancelFlag
from agent_memory.service.cancellation import bind_cancel_flag
from agent_memory_tools.local.channel import Channel, ChannelClosedError
from agent_memory_tools.local.events import LocalLambdaContext
from agent_memory_tools.local.functions import Handler, handler


def main(argv: Sequence[str] | None = None) -> int:
    name, descriptor = (sys.argv[1:] if argv is None else argv)[:2]
    # The stack stops its environments itself (they are in their own session anyway).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    channel = Channel(socket.socket(fileno=int(descriptor)))
    try:
        function = handler(name)
    except BaseException as error:
        traceback.print_exc()
        _send_quietly(channel, {"type": "init_error", "error": f"{type(error).__name__}: {error}"})
        return 1
    _send_quietly(channel, {"type": "ready"})
    _serve(channel, name, function)
    # Never wait for a worker still running: the stack is gone, so is its client.
    sys.stdout.flush()
    os._exit(0)


def _serve(channel: Channel, name: str, function: Handler) -> None:
    current: CancelFlag | None = None
    while True:
        try:
            message = channel.receive()
        except (ChannelClosedError, ValueError):
            return
        if message is None:
            return
        kind = message.get("type")
        if kind == "invoke":
            current = CancelFlag()
            threading.Thread(
                target=_invoke,
                args=(channel, name, function, message, current),
                name=f"{name}-invocation",
            ).start()
        elif kind == "cancel" and current is not None:
            current.cancel()


def _invoke(
    channel: Channel, name: str, function: Handler, message: dict[str, Any], flag: CancelFlag
) -> None:
    context = LocalLambdaContext(
        function_name=name,
        timeout_ms=int(message.get("timeout_ms", 30_000)),
        memory_limit_in_mb=int(message.get("memory_mb", 512)),
        aws_request_id=str(message.get("request_id", "")),
    )
    try:
        with bind_cancel_flag(flag):
            response = function(message["event"], context)
    except BaseException as error:
        # As Lambda's runtime logs an unhandled error: to this machine's terminal only.
        traceback.print_exception(error)
        _send_quietly(channel, {"type": "error", "error_type": type(error).__name__})
        return
    try:
        channel.send({"type": "result", "response": response})
    except (TypeError, ValueError):  # not JSON: API Gateway could not use it either
        _send_quietly(channel, {"type": "error", "error_type": "UnserializableResponse"})
    except ChannelClosedError:
        return


def _send_quietly(channel: Channel, message: dict[str, Any]) -> None:
    with contextlib.suppress(ChannelClosedError):
        channel.send(message)


if __name__ == "__main__":
    raise SystemExit(main())
