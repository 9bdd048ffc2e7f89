"""The command-line options every operator command shares: which tables, where.

Kept free of heavy imports: the CLI builds its parser from this on every ``--help``.
"""

from __future__ import annotations

import argparse
import logging
import sys

TABLE_SOURCES_HELP = (
    "Tables: --memory-table and --ledger-table, or --stack (the stack's MemoryTableName and"
    " TurnLedgerTableName outputs), or else MEMORY_TABLE_NAME and TURN_LEDGER_TABLE_NAME from"
    " the environment. Credentials and region come from the usual AWS environment."
    " Against the local stack (`make run`): --endpoint-url with the DynamoDB address its"
    " banner prints, --memory-table agent-memory-local-memory --ledger-table"
    " agent-memory-local-turn-ledger, and any credentials (moto checks none), e.g."
    " AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local AWS_DEFAULT_REGION=us-east-1."
)
# The local stack's table names as TABLE_SOURCES_HELP gives them (a test checks them
# against the stack's own; importing it here would slow down every --help).
LOCAL_TABLE_OPTIONS = (
    "--memory-table",
    "agent-memory-local-memory",
    "--ledger-table",
    "agent-memory-local-turn-ledger",
)


def add_target_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("tables", TABLE_SOURCES_HELP)
    group.add_argument("--memory-table", metavar="NAME", help="the memory documents table")
    group.add_argument("--ledger-table", metavar="NAME", help="the turn ledger table")
    group.add_argument(
        "--stack", metavar="STACK", help="read both table names from this CloudFormation stack"
    )
    group.add_argument("--region", metavar="REGION", help="AWS region (default: environment)")
    group.add_argument(
        "--endpoint-url",
        metavar="URL",
        help="DynamoDB endpoint (default: $DYNAMODB_ENDPOINT_URL or AWS), e.g. the local stack's",
    )


def keep_stdout_for_output() -> None:
    """Send library logs to stderr, so stdout carries only the command's own output (the
    JSON an operator redirects to a file). In Lambda, Powertools logs to stdout. The
    framework loggers are pinned as in Lambda: botocore's debug log quotes every item it
    reads or writes, and an export reads nothing but content."""
    from agent_memory.telemetry.framework_logs import quiet_framework_logs

    quiet_framework_logs()
    streams = {id(sys.stdout), id(sys.__stdout__)}
    for name in ("agent-memory", ""):
        for handler in logging.getLogger(name).handlers:
            if isinstance(handler, logging.StreamHandler) and id(handler.stream) in streams:
                handler.setStream(sys.stderr)
