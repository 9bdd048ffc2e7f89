"""Load-test the API with simulated API Gateway events, then check that memory stayed correct.

U users each run T turns, C turns in flight at once, several of one user together so that
they race. The mix (--mix) holds read-only turns, adds, replaces, removes, invalid batches,
cancelled turns (cancelled while the model sleeps) and failing turns, all driven through the
rules model's `memory_update:` directive with traceable facts ([run-u3-t17-f1]); --seed
makes the plan reproducible.

Targets: in-process (default) runs the real authorizer and handlers in worker processes
against a moto server it starts (tables from template.yaml), or against real tables with the
ambient AWS credentials (--table-prefix, --tables-from-env). --url sends HTTP to a base URL:
the local stack (`make run`; tokens from the local dev issuer) or a deployed stage
(--token-command).

At the end it prints turns/s, p50/p95/p99 latency, outcomes, commit retries and replays and
DynamoDB requests per turn (in-process), writes a JSON report and a PNG chart, and checks
from its own record of the answers: committed facts present exactly once unless a later
committed turn removed them, nothing from non-committed turns, no foreign facts, every
document within its limit. Exit 0 when every check passes, 1 when one fails (named).
"""

from __future__ import annotations

import argparse
import os
import random
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agent_memory_tools.loadtest.config import LoadTestConfig
    from agent_memory_tools.loadtest.targets.api import Target

DEFAULT_REPORT_DIR = Path("reports/loadtest")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    load = parser.add_argument_group("load")
    load.add_argument("--users", type=int, default=8, metavar="U", help="users (default 8)")
    load.add_argument(
        "--turns", type=int, default=10, metavar="T", help="turns per user (default 10)"
    )
    load.add_argument(
        "--concurrency",
        type=int,
        default=8,
        metavar="C",
        help="turns in flight at once (default 8)",
    )
    load.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar="N",
        help="seed of the plan (default: random, printed)",
    )
    load.add_argument(
        "--mix",
        default="",
        metavar="KIND=W,...",
        help="weights of read, add, replace, remove, invalid, cancel, fail (default"
        " read=15,add=35,replace=12,remove=10,invalid=10,cancel=9,fail=9; kinds left out"
        " keep theirs; prefix only: to run just the kinds given)",
    )
    load.add_argument(
        "--duration-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop dispatching after SECONDS (the turns in flight finish, then the check)",
    )
    target = parser.add_argument_group("target")
    target.add_argument(
        "--url",
        default=None,
        help="HTTP base URL (local stack or deployed stage) instead of in-process",
    )
    target.add_argument(
        "--token-command",
        default=None,
        metavar="CMD",
        help="with --url: a command printing a token for {user} (default: the local dev issuer)",
    )
    target.add_argument(
        "--table-prefix",
        default=None,
        metavar="PREFIX",
        help="in-process against real DynamoDB: tables PREFIX-memory and PREFIX-turn-ledger"
        " (created from template.yaml when missing, then deleted unless --keep-data)",
    )
    target.add_argument(
        "--tables-from-env",
        action="store_true",
        help="in-process against the existing tables named by MEMORY_TABLE_NAME and"
        " TURN_LEDGER_TABLE_NAME (real DynamoDB, ambient AWS credentials)",
    )
    target.add_argument(
        "--keep-data",
        action="store_true",
        help="keep the run's users (HTTP, real tables) and created tables (default: forget them)",
    )
    load.add_argument(
        "--stream",
        action="store_true",
        help="stream the chat turns over the WebSocket function (in-process, moto), with"
        " disconnect turns whose client drops mid-stream (they must commit nothing); first"
        " runs the same plan over HTTP and prints time to first delta and turns/s of both",
    )
    load.add_argument(
        "--memory-cost",
        action="store_true",
        help="first run the same plan with MEMORY_ENABLED=false (in-process, moto) and print"
        " what memory adds to a turn: p50 and p99 on vs off, and their ratios",
    )
    output = parser.add_argument_group("output")
    output.add_argument(
        "--report-dir",
        type=Path,
        default=DEFAULT_REPORT_DIR,
        metavar="DIR",
        help=f"where the JSON report and PNG chart go (default {DEFAULT_REPORT_DIR})",
    )
    output.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    output.add_argument("--run-id", default=None, help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    from agent_memory_tools.cli.main import CommandError
    from agent_memory_tools.loadtest.config import (
        STREAM_DISCONNECT_WEIGHT,
        LoadTestConfig,
        Mix,
        parse_mix,
    )
    from agent_memory_tools.loadtest.exceptions import LoadTestError
    from agent_memory_tools.loadtest.facts import new_run_id
    from agent_memory_tools.loadtest.session import run_load_test

    try:
        _check_combinations(args)
        mix = parse_mix(args.mix) if args.mix else Mix()
        if args.stream and "disconnect" not in args.mix:
            mix = Mix({**mix.weights, "disconnect": STREAM_DISCONNECT_WEIGHT})
        config = LoadTestConfig(
            users=args.users,
            turns=args.turns,
            concurrency=args.concurrency,
            seed=args.seed if args.seed is not None else random.SystemRandom().randrange(10**6),
            mix=mix,
            url=args.url,
            report_dir=args.report_dir,
            duration_limit=args.duration_limit,
            progress=not args.no_progress,
            keep_data=args.keep_data,
            run_id=args.run_id or new_run_id(),
            stream=args.stream,
        )
        target = build_target(config, args)
        cleanup = not config.keep_data and (config.url is not None or target_uses_aws(args))
        memory_off = memory_off_target(config) if args.memory_cost else None
        http = http_baseline_target(config) if config.stream else None
        result = run_load_test(
            config, target, cleanup=cleanup, memory_off=memory_off, http_baseline=http
        )
    except LoadTestError as error:
        raise CommandError(str(error)) from None
    return result.exit_code


def _check_combinations(args: argparse.Namespace) -> None:
    from agent_memory_tools.loadtest.exceptions import ConfigError

    if args.token_command and not args.url:
        raise ConfigError("--token-command needs --url.")
    if args.url and (args.table_prefix or args.tables_from_env):
        raise ConfigError(
            "--table-prefix and --tables-from-env are for the in-process target, not --url."
        )
    if args.memory_cost and (args.url or args.table_prefix or args.tables_from_env):
        raise ConfigError("--memory-cost runs in-process against moto only.")
    if args.stream and (args.url or args.table_prefix or args.tables_from_env or args.memory_cost):
        raise ConfigError(
            "--stream runs in-process against moto only (use tests or the console for the"
            " local stack's ws://HOST:PORT/ws), and not with --memory-cost."
        )
    if args.table_prefix is not None and args.tables_from_env:
        raise ConfigError("Choose one of --table-prefix and --tables-from-env.")
    if args.table_prefix is not None and not _is_table_prefix(args.table_prefix):
        raise ConfigError("--table-prefix: letters, digits, '-', '_' and '.' only (3 to 200).")


def _is_table_prefix(prefix: str) -> bool:
    allowed = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
    return 3 <= len(prefix) <= 200 and set(prefix) <= allowed


def target_uses_aws(args: argparse.Namespace) -> bool:
    return bool(args.table_prefix or args.tables_from_env)


def memory_off_target(config: LoadTestConfig) -> Target:
    """The in-process target with memory disabled, on a moto server of its own."""
    from agent_memory_tools.loadtest.exceptions import TargetError
    from agent_memory_tools.loadtest.facts import user_id
    from agent_memory_tools.loadtest.targets.dynamodb import MotoTables
    from agent_memory_tools.loadtest.targets.inprocess import InProcessTarget
    from agent_memory_tools.local.functions import project_root

    try:
        root = project_root()
    except FileNotFoundError as error:
        raise TargetError(f"{error} Run the in-process load test from a checkout.") from None
    run_id = f"{config.run_id}off"
    return InProcessTarget(
        tables=MotoTables(root / "template.yaml", run_id),
        environments=config.concurrency + max(2, config.concurrency // 4),
        root=root,
        warm_user=user_id(run_id, config.users) + "-warmup",
        memory_enabled=False,
    )


def http_baseline_target(config: LoadTestConfig) -> Target:
    """The in-process target over HTTP (POST /chat), on a moto server of its own: the same
    plan's turns/s without streaming."""
    from agent_memory_tools.loadtest.exceptions import TargetError
    from agent_memory_tools.loadtest.facts import user_id
    from agent_memory_tools.loadtest.targets.dynamodb import MotoTables
    from agent_memory_tools.loadtest.targets.inprocess import InProcessTarget
    from agent_memory_tools.local.functions import project_root

    try:
        root = project_root()
    except FileNotFoundError as error:
        raise TargetError(f"{error} Run the in-process load test from a checkout.") from None
    run_id = f"{config.run_id}http"
    return InProcessTarget(
        tables=MotoTables(root / "template.yaml", run_id),
        environments=config.concurrency + max(2, config.concurrency // 4),
        root=root,
        warm_user=user_id(run_id, config.users) + "-warmup",
    )


def build_target(config: LoadTestConfig, args: argparse.Namespace) -> Target:
    from agent_memory.repository import ConfigurationError, TableNames
    from agent_memory_tools.loadtest.exceptions import TargetError
    from agent_memory_tools.loadtest.facts import user_id
    from agent_memory_tools.loadtest.targets.dynamodb import AwsTables, MotoTables, Tables
    from agent_memory_tools.loadtest.targets.http import CommandTokens, DevIssuerTokens, HttpTarget
    from agent_memory_tools.loadtest.targets.inprocess import InProcessTarget
    from agent_memory_tools.local.functions import project_root

    if config.url is not None:
        tokens = CommandTokens(args.token_command) if args.token_command else DevIssuerTokens()
        return HttpTarget(config.url, tokens)
    try:
        root = project_root()
    except FileNotFoundError as error:
        raise TargetError(f"{error} Run the in-process load test from a checkout.") from None
    template = root / "template.yaml"
    tables: Tables
    if args.table_prefix:
        names = TableNames(
            memory=f"{args.table_prefix}-memory", turn_ledger=f"{args.table_prefix}-turn-ledger"
        )
        tables = AwsTables(names, template, create=True, keep=config.keep_data)
    elif args.tables_from_env:
        try:
            names = TableNames.from_env(os.environ)
        except ConfigurationError as error:
            raise TargetError(f"--tables-from-env: {error}") from None
        tables = AwsTables(names, template, create=False, keep=True)
    else:
        tables = MotoTables(template, config.run_id)
    cancel_environments = max(2, config.concurrency // 4)
    return InProcessTarget(
        tables=tables,
        environments=config.concurrency + cancel_environments,
        root=root,
        warm_user=user_id(config.run_id, config.users) + "-warmup",
        stream=config.stream,
    )
