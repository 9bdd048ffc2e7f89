"""Execution environments: one process per concurrent invocation, as Lambda runs them.

Scripted functions in a throwaway checkout, so every behaviour is real (processes, the
channel, the cancel flag, timeouts) without DynamoDB or tokens.
"""

from __future__ import annotations

import os
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from stack_support import is_running

from agent_memory_tools.local.disconnect import ClientWatch
from agent_memory_tools.local.exceptions import (
    FunctionCrashedError,
    FunctionInitError,
    FunctionTimeoutError,
)
from agent_memory_tools.local.functions import FunctionConfig
from agent_memory_tools.local.invoker import ExecutionEnvironment, FunctionPool

pytestmark = pytest.mark.slow

SCRIPTED_APP = textwrap.dedent(
    """
    import os
    import time

    from agent_memory.service.cancellation import cancel_flag_for_request


    def lambda_handler(event, context):
        action = event["action"]
        if action == "echo":
            return {"event": event, "name": context.function_name, "pid": os.getpid(),
                    "remaining_ms": context.get_remaining_time_in_millis()}
        if action == "raise":
            raise KeyError("secret internals")
        if action == "sleep":
            started = time.monotonic()
            time.sleep(event["seconds"])
            return {"pid": os.getpid(), "started": started, "ended": time.monotonic()}
        if action == "wait_for_cancel":
            return {"cancelled": cancel_flag_for_request().wait(5)}
        if action == "unserialisable":
            return {"value": object()}
        raise ValueError(action)
    """
)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("checkout")
    (root / "template.yaml").write_text("Resources: {}\n")
    for name, source in {
        "chat": SCRIPTED_APP,
        "eval": "raise ImportError('broken on purpose')\n",
    }.items():
        (root / "functions" / name).mkdir(parents=True)
        (root / "functions" / name / "app.py").write_text(source)
    return root


@pytest.fixture
def pool(checkout: Path) -> Iterator[FunctionPool]:
    created = FunctionPool(_config(timeout_seconds=3), _env(checkout), checkout, max_environments=4)
    yield created
    created.close()


def test_an_invocation_gets_its_event_and_a_context_and_the_environment_is_reused(
    pool: FunctionPool,
) -> None:
    first = pool.invoke({"action": "echo", "n": 1}).response
    second = pool.invoke({"action": "echo", "n": 2}).response

    assert first["event"] == {"action": "echo", "n": 1}
    assert first["name"] == "chat"
    assert 0 < first["remaining_ms"] <= 3000
    assert first["pid"] == second["pid"]  # warm
    assert pool.pids() == [first["pid"]]


def test_a_handler_error_names_the_type_only_and_the_environment_survives(
    pool: FunctionPool,
) -> None:
    before = pool.invoke({"action": "echo"}).response["pid"]

    with pytest.raises(FunctionCrashedError) as raised:
        pool.invoke({"action": "raise"})
    with pytest.raises(FunctionCrashedError, match="UnserializableResponse"):
        pool.invoke({"action": "unserialisable"})

    assert str(raised.value) == "chat raised KeyError"
    assert pool.invoke({"action": "echo"}).response["pid"] == before


def test_an_invocation_past_the_timeout_is_stopped_with_its_environment(checkout: Path) -> None:
    pool = FunctionPool(_config(timeout_seconds=1), _env(checkout), checkout)
    try:
        first = pool.invoke({"action": "echo"}).response["pid"]
        started = time.monotonic()

        with pytest.raises(FunctionTimeoutError):
            pool.invoke({"action": "sleep", "seconds": 30})

        assert time.monotonic() - started < 10  # stopped at 1 s, long before the 30 s sleep ends
        assert not is_running(first)
        assert pool.invoke({"action": "echo"}).response["pid"] != first
    finally:
        pool.close()


def test_a_client_that_goes_away_sets_the_cancel_flag_of_the_running_invocation(
    pool: FunctionPool,
) -> None:
    watch = ClientWatch()
    results: list[Any] = []
    worker = threading.Thread(
        target=lambda: results.append(pool.invoke({"action": "wait_for_cancel"}, watch=watch))
    )
    worker.start()
    time.sleep(0.3)

    watch.notify_gone()  # what the HTTP front does when uvicorn reports a disconnect
    worker.join(timeout=10)
    watch.close()

    (invocation,) = results
    assert invocation.client_gone
    assert invocation.response == {"cancelled": True}


# Longer than the second environment's cold start on a busy machine, so the sleeps overlap.
OVERLAP_SLEEP_S = 6.0


def test_concurrent_invocations_run_in_separate_environments_at_once(checkout: Path) -> None:
    # GIVEN one warm environment (the second starts cold) of a function whose timeout leaves
    # room for a sleep longer than a cold start
    pool = FunctionPool(_config(timeout_seconds=20), _env(checkout), checkout)
    try:
        pool.invoke({"action": "echo"})
        responses: list[dict[str, Any]] = []
        threads = [
            threading.Thread(
                target=lambda: responses.append(
                    pool.invoke({"action": "sleep", "seconds": OVERLAP_SLEEP_S}).response
                )
            )
            for _ in range(2)
        ]

        # WHEN two invocations arrive at once
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        pool.close()

    # THEN each ran in its own process, and their sleeps overlapped (CLOCK_MONOTONIC is
    # system-wide, so the functions' own timestamps compare; no wall-clock bound to flake)
    assert len({response["pid"] for response in responses}) == 2
    assert max(r["started"] for r in responses) < min(r["ended"] for r in responses)


def test_a_function_that_fails_to_load_is_an_init_error(checkout: Path) -> None:
    pool = FunctionPool(_config("eval"), _env(checkout), checkout)
    try:
        with pytest.raises(FunctionInitError, match="ImportError: broken on purpose"):
            pool.invoke({"action": "echo"})
        assert pool.pids() == []
    finally:
        pool.close()


def test_an_environment_exits_by_itself_when_the_stack_goes_away(checkout: Path) -> None:
    environment = ExecutionEnvironment(_config(), _env(checkout), checkout)
    environment.spawn()
    environment.wait_ready()
    pid = environment.pid
    assert pid is not None

    environment.stop(grace=5)  # closes the channel only; SIGKILL would come after 5 s

    assert not is_running(pid)
    assert environment.exit_code == 0  # it exited; it was not killed


def _config(name: str = "chat", *, timeout_seconds: int = 3) -> FunctionConfig:
    return FunctionConfig(name, f"{name.title()}Function", timeout_seconds, 128)


def _env(root: Path) -> dict[str, str]:
    return {**os.environ, "AGENT_MEMORY_ROOT": str(root)}
