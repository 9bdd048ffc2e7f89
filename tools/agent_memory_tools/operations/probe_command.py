"""Readiness probe of the configured tables (the rollout's step 2, run after `sam deploy` and
before memory is turned on). Through the service's own code paths it inserts, reads, updates
and removes a probe item in each table, including a real turn's TransactWriteItems commit
and a compare-and-swap that must be refused, and reports each step with its time. The probe
works in a namespace no real user can have, and deletes everything it wrote whatever step
fails. Exit status: 0 passed; 1 a step failed (and nothing was left behind, or it failed
before writing anything); 2 probe items may be left behind (the output names them and the
`--cleanup` command that removes them)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, TextIO

from agent_memory_tools.operations.arguments import add_target_arguments, keep_stdout_for_output

if TYPE_CHECKING:
    from agent_memory_tools.operations.cleanup import ProbeCleaner

EXIT_PASSED = 0
EXIT_FAILED = 1
EXIT_LEFT_BEHIND = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json", action="store_true", help="print one JSON report instead of the step lines"
    )
    parser.add_argument(
        "--cleanup",
        metavar="RUN_ID",
        help="only delete what probe run RUN_ID left behind (e.g. after the process was killed)",
    )
    add_target_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from agent_memory_tools.cli.main import CommandError
    from agent_memory_tools.operations.cleanup import ProbeCleaner
    from agent_memory_tools.operations.exceptions import OperationsError
    from agent_memory_tools.operations.namespace import probe_user_id, short_form
    from agent_memory_tools.operations.probe import ReadinessProbe, StepResult
    from agent_memory_tools.operations.target import target_from_args

    keep_stdout_for_output()
    out = sys.stdout
    ok_mark, fail_mark = _marks(out)
    try:
        target = target_from_args(args)
        cleaner = ProbeCleaner(target.client, target.names)
        if args.cleanup:
            return _cleanup_only(cleaner, probe_user_id(args.cleanup), out)
    except OperationsError as error:
        raise CommandError(str(error)) from None
    except Exception as error:  # e.g. the tables cannot be reached: one clear line
        raise CommandError(f"{type(error).__name__}: {error}") from None

    def show(step: StepResult) -> None:
        if args.json:
            return
        mark = ok_mark if step.ok else fail_mark
        line = f"  {mark} {step.name}  ({step.duration_ms:.0f} ms)"
        if step.detail:
            line += f"\n      {step.detail}"
        print(line, file=out, flush=True)

    probe = ReadinessProbe(
        target.memory_repository(), target.ledger_repository(), cleaner, on_step=show
    )
    if not args.json:
        print(f"probe of {target.description}", file=out)
        print(f"run {probe.run_id}, user id {short_form(probe.user_id)}", file=out, flush=True)
    report = probe.run()
    if args.json:
        json.dump(
            {**report.to_dict(), "tables": target.description}, out, indent=2, ensure_ascii=False
        )
        out.write("\n")
    elif report.ok:
        print(f"probe passed ({len(report.steps)} steps, {report.duration_ms:.0f} ms)", file=out)
    if report.ok:
        return EXIT_PASSED
    if report.clean:
        print("probe FAILED; it left nothing behind.", file=sys.stderr)
        return EXIT_FAILED
    if not report.wrote:
        print(
            "probe FAILED before it wrote anything (check the credentials, the region and the"
            " table names); nothing can have been left behind.",
            file=sys.stderr,
        )
        return EXIT_FAILED
    for table, sort_key, value in report.leftovers:
        print(f"left behind: {table} {sort_key}={value}", file=sys.stderr)
    print(
        "probe FAILED and probe items may be left behind; once the tables are reachable, run:\n"
        f"  agent-memory probe --cleanup {report.run_id} <the same table options>",
        file=sys.stderr,
    )
    return EXIT_LEFT_BEHIND


def _cleanup_only(cleaner: ProbeCleaner, user_id: str, out: TextIO) -> int:
    cleaner.remove(user_id)
    leftovers = cleaner.leftovers(user_id)
    if leftovers:
        print(f"{len(leftovers)} probe item(s) could not be deleted.", file=sys.stderr)
        return EXIT_LEFT_BEHIND
    print("no probe item of this run is left.", file=out)
    return EXIT_PASSED


def _marks(stream: TextIO) -> tuple[str, str]:
    try:
        "✓✗".encode(stream.encoding or "ascii")
    except (LookupError, UnicodeEncodeError):
        return "ok", "FAIL"
    return "✓", "✗"
