"""Which tables an operator command works on, and the clients to reach them.

The clients come from the same factory as the Lambda code (``new_client``): the same timeouts
and retry modes, including the single-attempt transaction client the commit protocol needs.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import boto3
from botocore.exceptions import BotoCoreError, ClientError

from agent_memory.repository import (
    ENV_ENDPOINT_URL,
    ConfigurationError,
    LedgerRepository,
    MemoryRepository,
    TableNames,
    new_client,
)
from agent_memory_tools.operations.exceptions import TargetError

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient

MEMORY_TABLE_OUTPUT = "MemoryTableName"
TURN_LEDGER_TABLE_OUTPUT = "TurnLedgerTableName"


@dataclass(frozen=True)
class TableAccess:
    """The two tables and the clients of one command run."""

    names: TableNames
    client: DynamoDBClient
    transaction_client: DynamoDBClient
    description: str

    def memory_repository(self) -> MemoryRepository:
        return MemoryRepository(
            self.client, self.names.memory, transaction_client=self.transaction_client
        )

    def ledger_repository(self) -> LedgerRepository:
        return LedgerRepository(self.client, self.names.turn_ledger)


def table_names(
    *,
    memory_table: str | None,
    ledger_table: str | None,
    stack: str | None,
    environ: Mapping[str, str] | None = None,
    cloudformation: Callable[[], Any] | None = None,
) -> TableNames:
    """The table names from explicit options, a stack's outputs, or the environment."""
    if memory_table or ledger_table:
        if not (memory_table and ledger_table):
            raise TargetError("give both --memory-table and --ledger-table (or --stack).")
        if stack:
            raise TargetError("give either the table names or --stack, not both.")
        return TableNames(memory=memory_table, turn_ledger=ledger_table)
    if stack:
        return stack_table_names(
            stack, cloudformation or (lambda: boto3.session.Session().client("cloudformation"))
        )
    try:
        return TableNames.from_env(environ)
    except ConfigurationError as error:
        raise TargetError(
            f"no tables given: use --memory-table and --ledger-table, --stack, or set the "
            f"environment ({error})."
        ) from None


def stack_table_names(stack: str, cloudformation: Callable[[], Any]) -> TableNames:
    """``MemoryTableName`` and ``TurnLedgerTableName`` from the outputs of ``stack``."""
    try:
        response = cloudformation().describe_stacks(StackName=stack)
    except (ClientError, BotoCoreError) as error:
        raise TargetError(f"cannot read stack {stack!r}: {_reason(error)}") from None
    stacks = response.get("Stacks") or []
    outputs = {
        str(output.get("OutputKey")): str(output.get("OutputValue"))
        for output in (stacks[0].get("Outputs") or [] if stacks else [])
    }
    missing = [key for key in (MEMORY_TABLE_OUTPUT, TURN_LEDGER_TABLE_OUTPUT) if key not in outputs]
    if missing:
        raise TargetError(f"stack {stack!r} has no output(s) {', '.join(missing)}.")
    return TableNames(
        memory=outputs[MEMORY_TABLE_OUTPUT], turn_ledger=outputs[TURN_LEDGER_TABLE_OUTPUT]
    )


def connect(
    names: TableNames, *, region: str | None = None, endpoint_url: str | None = None
) -> TableAccess:
    endpoint = endpoint_url or os.environ.get(ENV_ENDPOINT_URL) or None
    try:
        client = new_client(region=region, endpoint_url=endpoint)
        transaction_client = new_client(region=region, endpoint_url=endpoint, transactions=True)
    except BotoCoreError as error:
        raise TargetError(f"cannot build a DynamoDB client: {_reason(error)}") from None
    where = endpoint or f"AWS region {client.meta.region_name}"
    return TableAccess(
        names=names,
        client=client,
        transaction_client=transaction_client,
        description=f"{names.memory} and {names.turn_ledger} at {where}",
    )


def target_from_args(args: argparse.Namespace) -> TableAccess:
    region = args.region or None
    names = table_names(
        memory_table=args.memory_table,
        ledger_table=args.ledger_table,
        stack=args.stack,
        cloudformation=lambda: boto3.session.Session().client("cloudformation", region_name=region),
    )
    return connect(names, region=region, endpoint_url=args.endpoint_url)


def _reason(error: Exception) -> str:
    if isinstance(error, ClientError):
        details = error.response.get("Error", {})
        return f"{details.get('Code', 'error')}: {details.get('Message', '')}".rstrip(": ")
    return str(error)
