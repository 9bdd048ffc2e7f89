"""Print the capacity and cost model (docs/capacity.md) from a load-test report.

The report's measured figures (DynamoDB requests per turn, document sizes, handler time)
with prices and traffic assumptions as named inputs: --price NAME=VALUE and --assume
NAME=VALUE, repeatable. Defaults (us-east-1 list prices, arm64; a 2 s model):
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from agent_memory_tools.loadtest.capacity import VOLUMES, Assumptions, Prices

    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.description = (
        (parser.description or "")
        + "\n"
        + "\n".join(
            f"  {name} = {value:g}"
            for defaults in (Prices(), Assumptions())
            for name, value in asdict(defaults).items()
        )
    )
    parser.add_argument("report", type=Path, help="a JSON report of `agent-memory loadtest`")
    parser.add_argument(
        "--price", action="append", default=[], metavar="NAME=VALUE", help="a named price"
    )
    parser.add_argument(
        "--assume", action="append", default=[], metavar="NAME=VALUE", help="a named assumption"
    )
    parser.add_argument(
        "--turns-per-day",
        type=int,
        action="append",
        default=None,
        metavar="N",
        help=f"volumes to price (default {', '.join(f'{v:,}' for v in VOLUMES)})",
    )


def run(args: argparse.Namespace) -> int:
    from agent_memory_tools.cli.main import CommandError
    from agent_memory_tools.loadtest.capacity import (
        VOLUMES,
        Assumptions,
        Prices,
        profile_from_report,
        render,
        with_overrides,
    )

    try:
        report = json.loads(args.report.read_text(encoding="utf-8"))
        profile = profile_from_report(report)
        prices = with_overrides(Prices(), _pairs(args.price))
        assumptions = with_overrides(Assumptions(), _pairs(args.assume))
    except (OSError, ValueError) as error:
        raise CommandError(str(error)) from None
    print(render(profile, prices, assumptions, tuple(args.turns_per_day or VOLUMES)))
    return 0


def _pairs(items: list[str]) -> dict[str, str]:
    pairs = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"{item!r}: expected NAME=VALUE")
        pairs[name.strip()] = value.strip()
    return pairs
