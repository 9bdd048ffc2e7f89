"""Invoke the functions as Lambda would: each in execution environments (processes, see
``runtime``) that serve one invocation at a time, reused while warm, added on demand up to
a concurrency limit, stopped at the function's timeout.

The request thread that invokes waits in one ``select`` on the environment's answer and on
the client's socket: when the client goes away, it tells the environment to set the turn's
cancel flag, and still waits for the answer, so the environment is free again afterwards.
"""

from __future__ import annotations

import contextlib
import select
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent_memory_tools.local.channel import Channel, ChannelClosedError
from agent_memory_tools.local.disconnect import ClientWatch
from agent_memory_tools.local.exceptions import (
    FunctionCrashedError,
    FunctionInitError,
    FunctionTimeoutError,
    PoolClosedError,
    ThrottledError,
)
from agent_memory_tools.local.functions import FunctionConfig

INIT_TIMEOUT_SECONDS = 20.0
STOP_GRACE_SECONDS = 2.0
DEFAULT_MAX_ENVIRONMENTS = 8


@dataclass(frozen=True)
class Invocation:
    """The handler's response, and whether the client went away while it ran."""

    response: Any
    client_gone: bool = False


class ExecutionEnvironment:
    """One process running one function."""

    def __init__(self, config: FunctionConfig, env: Mapping[str, str], root: Path) -> None:
        self.config = config
        self._env = dict(env)
        self._root = root
        self._process: subprocess.Popen[bytes] | None = None
        self._channel: Channel | None = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    @property
    def exit_code(self) -> int | None:
        """None while running; negative when killed by a signal."""
        return self._process.poll() if self._process else None

    def spawn(self) -> None:
        ours, theirs = socket.socketpair()
        try:
            self._process = subprocess.Popen(  # noqa: S603 (our own interpreter and module)
                [
                    sys.executable,
                    "-m",
                    "agent_memory_tools.local.runtime",
                    self.config.name,
                    str(theirs.fileno()),
                ],
                env=self._env,
                cwd=self._root,
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                # Out of the terminal's process group: Ctrl-C reaches the stack only, which
                # then stops its environments in order.
                start_new_session=True,
            )
        except OSError:
            ours.close()
            raise
        finally:
            theirs.close()
        self._channel = Channel(ours)

    def wait_ready(self, timeout: float = INIT_TIMEOUT_SECONDS) -> None:
        channel = self._require_channel()
        try:
            message = channel.receive(timeout)
        except (ChannelClosedError, ValueError):
            message = {"type": "init_error", "error": "the process exited while loading"}
        if message is None:
            self.kill()
            raise FunctionInitError(f"{self.config.name}: not loaded within {timeout:.0f} s")
        if message.get("type") != "ready":
            self.kill()
            raise FunctionInitError(f"{self.config.name}: {message.get('error', 'failed to load')}")

    def invoke(self, event: dict[str, Any], *, watch: ClientWatch | None = None) -> Invocation:
        channel = self._require_channel()
        try:
            channel.send(
                {
                    "type": "invoke",
                    "event": event,
                    "request_id": str(uuid.uuid4()),
                    "timeout_ms": self.config.timeout_ms,
                    "memory_mb": self.config.memory_mb,
                }
            )
            message, client_gone = self._await_answer(channel, watch)
        except ChannelClosedError:
            self.kill()
            raise FunctionCrashedError(
                f"{self.config.name}: its execution environment exited"
            ) from None
        except (ValueError, OSError):  # an unreadable answer, or the channel closed under us
            self.kill()
            raise FunctionCrashedError(
                f"{self.config.name}: its execution environment failed"
            ) from None
        if message.get("type") == "result":
            return Invocation(message.get("response"), client_gone=client_gone)
        raise FunctionCrashedError(
            f"{self.config.name} raised {message.get('error_type', 'an unknown error')}"
        )

    def _await_answer(
        self, channel: Channel, watch: ClientWatch | None
    ) -> tuple[dict[str, Any], bool]:
        deadline = time.monotonic() + self.config.timeout_seconds
        client_gone = False
        while True:
            message = channel.pop()
            if message is not None:
                return message, client_gone
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                # Lambda stops an invocation at its timeout; so does this.
                self.kill()
                raise FunctionTimeoutError(
                    f"{self.config.name}: timed out after {self.config.timeout_seconds} s"
                )
            watched: list[Any] = [channel]
            if watch is not None and watch.watching:
                watched.append(watch)
            readable, _, _ = select.select(watched, [], [], remaining)
            if watch is not None and watch in readable and watch.client_gone():
                client_gone = True
                channel.send({"type": "cancel"})
            if channel in readable:
                channel.fill()

    def is_alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def stop(self, grace: float = STOP_GRACE_SECONDS) -> None:
        """End of stream first (the process exits at once), then SIGKILL after ``grace``."""
        if self._channel is not None:
            self._channel.close()
            self._channel = None
        if self._process is None:
            return
        try:
            self._process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        if self._channel is not None:
            self._channel.close()
            self._channel = None
        if self._process is not None:
            with contextlib.suppress(ProcessLookupError):
                self._process.kill()
            self._process.wait()

    def _require_channel(self) -> Channel:
        if self._channel is None:
            raise ChannelClosedError("not started")
        return self._channel


class FunctionPool:
    """The execution environments of one function."""

    def __init__(
        self,
        config: FunctionConfig,
        env: Mapping[str, str],
        root: Path,
        *,
        max_environments: int = DEFAULT_MAX_ENVIRONMENTS,
    ) -> None:
        self.config = config
        self._env = dict(env)
        self._root = root
        self._max = max_environments
        self._condition = threading.Condition()
        self._idle: list[ExecutionEnvironment] = []
        self._all: set[ExecutionEnvironment] = set()
        self._starting = 0
        self._closed = False

    def pids(self) -> list[int]:
        with self._condition:
            return [
                pid for pid in (environment.pid for environment in self._all) if pid is not None
            ]

    def spawn_warm(self) -> ExecutionEnvironment:
        """Start one environment (without waiting); ``finish_warm`` it."""
        environment = ExecutionEnvironment(self.config, self._env, self._root)
        with self._condition:
            self._all.add(environment)
        environment.spawn()
        return environment

    def finish_warm(self, environment: ExecutionEnvironment) -> None:
        try:
            environment.wait_ready()
        except FunctionInitError:
            self._discard(environment)
            raise
        self._release(environment)

    def invoke(self, event: dict[str, Any], *, watch: ClientWatch | None = None) -> Invocation:
        environment = self._acquire()
        try:
            invocation = environment.invoke(event, watch=watch)
        except (FunctionTimeoutError, FunctionCrashedError) as error:
            if environment.is_alive():
                self._release(environment)
            else:
                self._discard(environment)
            if self._closed:
                raise PoolClosedError("the local stack is stopping") from error
            raise
        self._release(environment)
        return invocation

    def close(self) -> None:
        with self._condition:
            self._closed = True
            environments = list(self._all)
            self._all.clear()
            self._idle.clear()
            self._condition.notify_all()
        threads = [threading.Thread(target=environment.stop) for environment in environments]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def _acquire(self) -> ExecutionEnvironment:
        deadline = time.monotonic() + self.config.timeout_seconds
        with self._condition:
            while True:
                if self._closed:
                    raise PoolClosedError("the local stack is stopping")
                if self._idle:
                    return self._idle.pop()
                if len(self._all) + self._starting < self._max:
                    self._starting += 1
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise ThrottledError(
                        f"{self.config.name}: all {self._max} environments stayed busy"
                    )
                self._condition.wait(remaining)
        environment = ExecutionEnvironment(self.config, self._env, self._root)
        try:
            environment.spawn()
            with self._condition:
                self._all.add(environment)
            environment.wait_ready()
        except FunctionInitError:
            self._discard(environment)
            raise
        finally:
            with self._condition:
                self._starting -= 1
        return environment

    def _release(self, environment: ExecutionEnvironment) -> None:
        with self._condition:
            if self._closed or environment not in self._all:
                closing = True
            else:
                closing = False
                self._idle.append(environment)
                self._condition.notify()
        if closing:
            environment.stop()

    def _discard(self, environment: ExecutionEnvironment) -> None:
        with self._condition:
            self._all.discard(environment)
            self._condition.notify()
        environment.kill()


class LocalFunctions:
    """Every function of the stack, by name."""

    def __init__(self, pools: Mapping[str, FunctionPool]) -> None:
        self._pools = dict(pools)

    def invoke(
        self, function: str, event: dict[str, Any], *, watch: ClientWatch | None = None
    ) -> Invocation:
        return self._pools[function].invoke(event, watch=watch)

    def prewarm(self) -> None:
        """One warm environment per function, loaded in parallel; fails on any init error."""
        started = [(pool, pool.spawn_warm()) for pool in self._pools.values()]
        errors: list[str] = []
        for pool, environment in started:
            try:
                pool.finish_warm(environment)
            except FunctionInitError as error:
                errors.append(str(error))
        if errors:
            raise FunctionInitError("; ".join(errors))

    def pids(self) -> list[int]:
        return [pid for pool in self._pools.values() for pid in pool.pids()]

    def close(self) -> None:
        threads = [threading.Thread(target=pool.close) for pool in self._pools.values()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
