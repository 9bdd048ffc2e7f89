"""The operator commands as a newcomer meets them (issue 12, item 15): piped into ``head``,
run with no credentials, pointed at the local stack as ``--help`` says, and ``make help``."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid

import pytest

from agent_memory.repository import LedgerRepository, TableNames
from agent_memory_tools.cli.main import EXIT_BROKEN_PIPE, build_parser
from agent_memory_tools.local.environment import LOCAL_TABLES
from agent_memory_tools.local.functions import project_root
from agent_memory_tools.operations.arguments import LOCAL_TABLE_OPTIONS, TABLE_SOURCES_HELP
from agent_memory_tools.operations.probe import wall_clock_ms

CLI = [sys.executable, "-m", "agent_memory_tools.cli.main"]


def _closed_reader(command: list[str]) -> subprocess.CompletedProcess[bytes]:
    """Run ``command`` with its stdout read by nobody: the pipe's reader is closed at once,
    as ``| head`` does once it has its lines."""
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ.copy()
    )
    assert process.stdout is not None
    process.stdout.close()
    _, stderr = process.communicate(timeout=120)
    return subprocess.CompletedProcess(command, process.returncode, b"", stderr)


@pytest.mark.parametrize("command", [["probe", "--json"], ["export", "alice", "--ledger-items"]])
def test_a_reader_that_leaves_early_gets_no_traceback(
    dynamodb_env: TableNames, ledger_repository: LedgerRepository, command: list[str]
) -> None:
    # GIVEN tables with enough of alice's ledger items for an export larger than a pipe
    for _ in range(40):
        ledger_repository.cancel("alice", str(uuid.uuid4()), wall_clock_ms())

    # WHEN the command's output goes to a reader that stops reading at once (`| head`)
    finished = _closed_reader([*CLI, *command])

    # THEN it ends quietly with the shell's SIGPIPE status: no traceback, no BrokenPipeError
    stderr = finished.stderr.decode()
    assert "Traceback" not in stderr
    assert "BrokenPipeError" not in stderr
    assert finished.returncode == EXIT_BROKEN_PIPE, stderr


def test_a_probe_without_credentials_does_not_claim_it_left_items_behind(
    moto_endpoint: str, table_names: TableNames
) -> None:
    # GIVEN no AWS credentials anywhere (no variables, no files, no instance metadata)
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(
        AWS_SHARED_CREDENTIALS_FILE=os.devnull,
        AWS_CONFIG_FILE=os.devnull,
        AWS_EC2_METADATA_DISABLED="true",
        AWS_DEFAULT_REGION="us-east-1",
    )
    options = ["--memory-table", table_names.memory, "--ledger-table", table_names.turn_ledger]

    # WHEN the probe runs against the tables
    probe = subprocess.run(
        [*CLI, "probe", *options, "--endpoint-url", moto_endpoint],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    # THEN it fails before writing, says so, and does not send the operator to --cleanup
    assert probe.returncode == 1, probe.stderr
    assert "before it wrote anything" in probe.stderr
    assert "may be left behind" not in probe.stderr
    assert "--cleanup" not in probe.stderr


def test_the_help_says_how_to_reach_the_local_stacks_tables() -> None:
    # GIVEN the local stack's table names
    expected = ["--memory-table", LOCAL_TABLES.memory, "--ledger-table", LOCAL_TABLES.turn_ledger]

    # THEN the options the help gives are those, and both commands' help shows them
    assert list(LOCAL_TABLE_OPTIONS) == expected
    assert " ".join(expected) in TABLE_SOURCES_HELP
    for command in ("probe", "export"):
        subparsers = build_parser()._subparsers
        assert subparsers is not None
        (choices,) = [a.choices for a in subparsers._group_actions if a.choices]
        text = " ".join(choices[command].format_help().split())
        assert "Against the local stack (`make run`)" in text
        assert "--endpoint-url" in text


def test_make_help_shows_the_address_it_will_serve() -> None:
    # WHEN `make help` runs with the defaults, and with HOST and PORT given
    default = subprocess.run(
        ["make", "-s", "help"], cwd=project_root(), capture_output=True, text=True, timeout=60
    )
    chosen = subprocess.run(
        ["make", "-s", "help", "HOST=0.0.0.0", "PORT=8123"],
        cwd=project_root(),
        capture_output=True,
        text=True,
        timeout=60,
    )

    # THEN the run target names the real address, never $(HOST):$(PORT)
    assert "http://127.0.0.1:3000" in default.stdout, default.stdout + default.stderr
    assert "http://0.0.0.0:8123" in chosen.stdout
    assert "$(" not in default.stdout + chosen.stdout
