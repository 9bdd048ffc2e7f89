"""``agent-memory``: local tokens, the local stack, load tests, the readiness probe, exports.

Each subcommand imports what it needs only when it runs, so ``--help`` is instant.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

# As a shell reports a command killed by SIGPIPE (128 + 13).
EXIT_BROKEN_PIPE = 141


class CommandError(Exception):
    """A failure to report as one clear line and a non-zero exit, without a traceback."""


def _token(args: argparse.Namespace) -> int:
    from agent_memory_tools.dev_auth.stack_token import TokenUnavailableError, dev_token

    if args.ttl <= 0:
        raise CommandError("--ttl must be a positive number of seconds.")
    if not args.user.strip():
        raise CommandError("USER must not be empty.")
    try:
        print(dev_token(args.user, ttl_seconds=args.ttl, url=args.url))
    except TokenUnavailableError as error:
        raise CommandError(str(error)) from None
    return 0


def _openapi(args: argparse.Namespace) -> int:
    from agent_memory.http.openapi import merged_openapi, render
    from agent_memory_tools.local.functions import function_module

    document = render(
        merged_openapi(function_module(name).app for name in ("chat", "memory_api", "eval"))
    )
    if args.check:
        with open(args.check, encoding="utf-8") as checked_in:
            if checked_in.read() != document:
                raise CommandError(f"{args.check} is stale: run `make openapi`.")
        return 0
    sys.stdout.write(document)
    return 0


def _serve(args: argparse.Namespace) -> int:
    from agent_memory_tools.local.stack import serve

    return serve(host=args.host, port=args.port, cleanup_interval=args.cleanup_interval)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="agent-memory", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    token = commands.add_parser(
        "token",
        help="print a local dev token for USER",
        description=(
            "Print a token the local stack accepts. In the checkout that runs `make run` (or"
            " with AGENT_MEMORY_DEV_ISSUER_DIR) it is signed with that checkout's dev key;"
            " with --url (or AGENT_MEMORY_URL), or from any other folder, the running stack"
            " signs it (POST /dev/token, loopback only). It never creates a key outside a"
            " checkout: with no stack to ask, it says so and exits 1."
        ),
    )
    token.add_argument("user", metavar="USER", help="the subject (sub) of the token")
    token.add_argument(
        "--ttl", type=int, default=3600, metavar="SECONDS", help="lifetime (default 3600)"
    )
    token.add_argument(
        "--url",
        metavar="URL",
        help="ask the local stack at URL (default: $AGENT_MEMORY_URL; outside a checkout"
        " http://127.0.0.1:3000)",
    )
    token.set_defaults(run=_token)

    serve = commands.add_parser(
        "serve",
        help="run the local stack (what `make run` starts)",
        description=(
            "Serve the real API on this machine with no AWS account: DynamoDB (moto), a local"
            " dev issuer, the real authorizer and handlers, and the cleanup schedule. The memory"
            " flag is on (MEMORY_ENABLED=false turns it off); the model is `rules` unless"
            " MODEL_PROVIDER=bedrock (MODEL_ID) or MODEL_PROVIDER=openai (OPENAI_BASE_URL,"
            " OPENAI_MODEL). POST /eval/chat (AWS_IAM in the cloud) needs no token here."
            " Ctrl-C stops everything."
        ),
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    serve.add_argument(
        "--port", type=int, default=3000, help="port to listen on (default 3000; 0 picks one)"
    )
    serve.add_argument(
        "--cleanup-interval",
        type=float,
        default=None,
        metavar="SECONDS",
        help="run the cleanup every SECONDS (default $AGENT_MEMORY_CLEANUP_INTERVAL_SECONDS or 60)",
    )
    serve.set_defaults(run=_serve)

    openapi = commands.add_parser(
        "openapi", help="print the OpenAPI document generated from the handlers"
    )
    openapi.add_argument(
        "--check", metavar="FILE", help="exit 1 when FILE differs from the generated document"
    )
    openapi.set_defaults(run=_openapi)

    for name, (module_name, summary) in COMMAND_MODULES.items():
        module = _command_module(module_name)
        if module is None:
            continue
        command = commands.add_parser(name, help=summary, description=module.__doc__)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


# Subcommands that live in their capability's package: each module defines
# ``add_arguments(parser)`` and ``run(args) -> int`` and imports its heavy parts inside ``run``.
COMMAND_MODULES: dict[str, tuple[str, str]] = {
    "loadtest": ("agent_memory_tools.loadtest.command", "load-test the API with simulated events"),
    "capacity": (
        "agent_memory_tools.loadtest.capacity_command",
        "capacity and cost model from a load-test report (docs/capacity.md)",
    ),
    "probe": (
        "agent_memory_tools.operations.probe_command",
        "readiness probe of the configured tables",
    ),
    "export": (
        "agent_memory_tools.operations.export_command",
        "export one user's memory (data-subject requests)",
    ),
}


def _command_module(module_name: str) -> Any:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name and module_name.startswith(error.name):
            return None  # that capability is not installed in this build
        raise


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status = int(args.run(args))
        sys.stdout.flush()  # here, so a reader that left (`| head`) is seen below
        return status
    except CommandError as error:
        print(f"agent-memory {args.command}: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader of stdout went away (`| head`): no traceback, and nothing more to write.
        # stdout now points at /dev/null, so the interpreter's own flush at exit is quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


if __name__ == "__main__":
    raise SystemExit(main())
