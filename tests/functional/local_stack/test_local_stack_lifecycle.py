"""Starting, scheduling and stopping: what `make run` and Ctrl-C do."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from stack_support import REPO_ROOT, RunningStack, is_running, port_is_free, start_stack, wait_for

from agent_memory_tools.dev_auth import DevIssuer

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_everything_and_frees_the_ports(
    tmp_path: Path, issuer_dir: Path, issuer: DevIssuer, signum: int
) -> None:
    # GIVEN a stack that has served a request, with its execution environments running
    running = start_stack(tmp_path, issuer_dir)
    try:
        assert running.request("GET", "/memory", token=issuer.mint("someone")).status == 200
        environments = running.environment_pids()
        assert len(environments) >= 5  # one warm environment per function
        assert len(running.ports) == 3  # the API, moto, the JWKS server
    finally:
        # WHEN it gets the signal
        exit_code = running.stop(signum)

    # THEN it exits 0 after saying so, leaves no process behind, and frees every port
    assert exit_code == 0, running.log()
    assert "agent-memory: stopped" in running.log()
    assert wait_for(lambda: not any(is_running(pid) for pid in environments), timeout=5)
    assert all(port_is_free(port) for port in running.ports), running.ports


def test_even_a_killed_stack_leaves_no_execution_environment_behind(
    tmp_path: Path, issuer_dir: Path
) -> None:
    # GIVEN a running stack
    running = start_stack(tmp_path, issuer_dir)
    environments = running.environment_pids()

    # WHEN it is killed without a chance to clean up
    exit_code = running.stop(signal.SIGKILL)

    # THEN its environments notice (end of their channel) and exit by themselves
    assert exit_code == -signal.SIGKILL
    assert wait_for(lambda: not any(is_running(pid) for pid in environments), timeout=5)


def test_startup_prints_the_banner_with_the_flag_model_and_example(stack: RunningStack) -> None:
    # WHEN the stack is ready
    log = stack.log()

    # THEN the banner names the URL, the memory flag, the model and a copy-paste example
    assert stack.url in log
    assert "memory    on" in log
    assert "model     rules" in log
    assert "token alice)" in log
    assert f"curl -s {stack.url}/chat" in log
    assert "remember:" in log
    assert "POST /eval/chat has AWS_IAM auth in the cloud" in log


def test_a_busy_port_and_a_bad_setting_are_reported_in_one_line_at_startup(
    issuer_dir: Path, stack: RunningStack
) -> None:
    # WHEN a second stack is started on the first one's port, and one with a bad flag value
    busy = _serve("--port", str(stack.port), issuer_dir=issuer_dir)
    bad_flag = _serve("--port", "0", issuer_dir=issuer_dir, MEMORY_ENABLED="maybe")

    # THEN each exits 1 with one clear line and no traceback
    assert busy.returncode == 1
    assert f"Port {stack.port}" in busy.stderr
    assert "already in use" in busy.stderr
    assert bad_flag.returncode == 1
    assert "'maybe'" in bad_flag.stderr
    assert "Traceback" not in busy.stderr + bad_flag.stderr


def test_the_scheduled_cleanup_runs_without_failing(stack: RunningStack) -> None:
    # GIVEN the stack runs the cleanup every second (--cleanup-interval 1)
    # WHEN more than two intervals have passed since it was ready
    time.sleep(max(0.0, stack.ready_at + 2.5 - time.monotonic()))

    # THEN no run failed
    assert "cleanup failed" not in stack.log()


def _serve(*arguments: str, issuer_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agent_memory_tools.cli.main", "serve", *arguments],
        cwd=REPO_ROOT,
        env={**os.environ, "AGENT_MEMORY_DEV_ISSUER_DIR": str(issuer_dir), **env},
        capture_output=True,
        text=True,
        timeout=30,
    )
