"""Export one user's memory for a data-subject access request: both documents (entries,
sizes, schema version, times) and the turn ledger's metadata about the user, as JSON on
stdout. Nothing else is printed there, and nothing of the content goes to stderr or a log:
redirect stdout to the file you hand over. Erasure requests use DELETE /memory (see
docs/privacy.md)."""

from __future__ import annotations

import argparse
import json
import sys

from agent_memory_tools.operations.arguments import add_target_arguments, keep_stdout_for_output


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("user", metavar="USER", help="the user id (the token's sub)")
    parser.add_argument(
        "--ledger-items",
        action="store_true",
        help="also list each turn ledger item's metadata (default: counts by status)",
    )
    add_target_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from agent_memory.repository import RepositoryError
    from agent_memory_tools.cli.main import CommandError
    from agent_memory_tools.operations.exceptions import OperationsError
    from agent_memory_tools.operations.export import LedgerMetadata, export_user
    from agent_memory_tools.operations.target import target_from_args

    keep_stdout_for_output()
    if not args.user or args.user != args.user.strip():
        raise CommandError("USER must be the exact user id, without surrounding spaces.")
    try:
        target = target_from_args(args)
        exported = export_user(
            target.memory_repository(),
            LedgerMetadata(target.client, target.names),
            args.user,
            include_ledger_items=args.ledger_items,
        )
    except OperationsError as error:
        raise CommandError(str(error)) from None
    except RepositoryError as error:
        raise CommandError(f"DynamoDB refused the export: {error.code}") from None
    json.dump(exported, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0
