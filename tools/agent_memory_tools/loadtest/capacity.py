"""A capacity and cost model computed from a load-test report (docs/capacity.md).

What a turn costs is MEASURED by the in-process load test (DynamoDB requests per turn by
operation, the documents' stored sizes, transactions per committed turn, handler time);
what the cloud charges and how the traffic looks are NAMED INPUTS (``Prices``,
``Assumptions``) with defaults an operator replaces with their own. Pure: a report (a
dict) in, figures and a text out.

DynamoDB on-demand units: a strongly consistent read is 1 RRU per 4 KB; a write 1 WRU per
1 KB; an item written inside ``TransactWriteItems`` counts double (2 WRU per KB), and every
attempt is counted as billed, replays included (conservative: a cancelled transaction is
charged too), the forget fence's ConditionCheck and the history record as transactional
writes of 1 KB each. The
ledger's sparse index (``open-turns-by-deadline``) adds one write when a
turn opens and one when it closes.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

VOLUMES = (1_000, 100_000, 10_000_000)
DAYS_PER_MONTH = 30.4
# Key, revision, schema version, timestamps and attribute names of a document item.
DOCUMENT_OVERHEAD_BYTES = 160
LEDGER_ITEM_BYTES = 400
LEDGER_TTL_DAYS = 7
INDEX_WRITES_PER_OPEN_AND_CLOSE = 1
# The forget fence: a ConditionCheck of the user's settings item in every commit, counted
# as a transactional write of 1 KB (conservative).
FENCE_KB = 1
# The history record a commit Puts in the same transaction (user control): about 1 KB.
HISTORY_KB = 1


@dataclass(frozen=True)
class Prices:
    """USD list prices (us-east-1, on-demand, arm64) as of 2026-11: replace with yours."""

    dynamodb_per_million_wru: float = 0.625
    dynamodb_per_million_rru: float = 0.125
    dynamodb_per_gb_month: float = 0.25
    lambda_per_gb_second: float = 0.0000133334
    lambda_per_million_requests: float = 0.20
    http_api_per_million_requests: float = 1.00
    websocket_per_million_connection_minutes: float = 0.25
    websocket_per_million_messages: float = 1.00
    logs_per_gb_ingested: float = 0.50


@dataclass(frozen=True)
class Assumptions:
    """How the traffic looks in production (not measurable locally): replace with yours."""

    model_seconds_per_turn: float = 2.0  # the model's time inside the chat function
    chat_memory_mb: int = 512  # template.yaml (Globals)
    authorizer_memory_mb: int = 256  # template.yaml (AuthorizerFunction)
    authorizer_ms: float = 20.0
    authorizer_cache_hit_ratio: float = 0.5  # ReauthorizeEvery: several turns per token
    turns_per_user_per_day: float = 20.0
    memory_api_requests_per_turn: float = 0.05  # GET/PATCH/DELETE /memory beside the chat
    peak_to_mean: float = 3.0
    log_bytes_per_turn: float = 2_000.0
    streaming_minutes_per_turn: float = 0.0  # WebSocket, once streaming lands
    streaming_messages_per_turn: float = 0.0


@dataclass(frozen=True)
class TurnProfile:
    """What one turn costs, measured by a load test (means over its turns)."""

    run_id: str
    turns: int
    committed_share: float
    read_only_share: float
    requests: Mapping[str, float]  # DynamoDB requests per turn, by operation
    documents_per_transaction: float
    document_item_bytes: float
    handler_ms_p50: float
    handler_ms_p99: float

    @property
    def rru(self) -> float:
        """Read request units per turn (strongly consistent)."""
        per_query = math.ceil(2 * self.document_item_bytes / 4096) or 1
        return self.requests.get("Query", 0.0) * per_query + self.requests.get("GetItem", 0.0)

    @property
    def wru(self) -> float:
        """Write request units per turn (transactional items count double)."""
        kb = math.ceil(self.document_item_bytes / 1024)
        ledger_kb = math.ceil(LEDGER_ITEM_BYTES / 1024)
        per_transaction = (
            2 * kb * self.documents_per_transaction + 2 * ledger_kb + 2 * (FENCE_KB + HISTORY_KB)
        )
        opens = self.requests.get("PutItem", 0.0)
        closes = self.requests.get("UpdateItem", 0.0)
        transactions = self.requests.get("TransactWriteItems", 0.0)
        index = INDEX_WRITES_PER_OPEN_AND_CLOSE * (opens + closes + transactions)
        return opens * ledger_kb + closes * ledger_kb + transactions * per_transaction + index


def profile_from_report(report: Mapping[str, Any]) -> TurnProfile:
    """The measured profile of an in-process load-test report (it counts requests)."""
    turns = [t for t in report.get("turns", []) if t.get("finished") is not None]
    counted = [t for t in turns if t.get("requests") is not None]
    if not counted:
        raise ValueError(
            "the report has no DynamoDB request counts: use a report of the in-process target"
        )
    requests: dict[str, float] = {}
    for turn in counted:
        for operation, n in turn["requests"].items():
            requests[operation] = requests.get(operation, 0.0) + n / len(counted)
    committed = [t for t in counted if t.get("outcome") == "committed"]
    targets = [len({op.get("target") for op in t.get("operations", [])}) for t in committed]
    # Handler time without the cancel turns' simulated sleep (the model's time is an input).
    handler_ms = sorted(
        float(t["latency_ms"])
        for t in turns
        if t.get("latency_ms") is not None and not t.get("sleep_seconds")
    )
    return TurnProfile(
        run_id=str(report.get("run_id", "?")),
        turns=len(turns),
        committed_share=len(committed) / len(counted),
        read_only_share=sum(1 for t in counted if t.get("status") == "unchanged") / len(counted),
        requests=requests,
        documents_per_transaction=statistics.fmean(targets) if targets else 1.0,
        document_item_bytes=_document_item_bytes(report),
        handler_ms_p50=_percentile(handler_ms, 50),
        handler_ms_p99=_percentile(handler_ms, 99),
    )


def _document_item_bytes(report: Mapping[str, Any]) -> float:
    """Mean stored size of a non-empty document item at the end of the run (UTF-8)."""
    sizes = []
    for documents in report.get("final_documents", {}).values():
        for entries in documents.get("entries", {}).values():
            if entries:
                content = "\n§\n".join(entries)
                sizes.append(len(content.encode()) + DOCUMENT_OVERHEAD_BYTES)
    return statistics.fmean(sizes) if sizes else float(DOCUMENT_OVERHEAD_BYTES)


def _percentile(ordered: Sequence[float], p: float) -> float:
    if not ordered:
        return 0.0
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return float(ordered[min(rank, len(ordered)) - 1])


@dataclass(frozen=True)
class Estimate:
    turns_per_day: int
    monthly_usd: Mapping[str, float]
    peak_turns_per_second: float
    peak_concurrency: float
    peak_wru_per_second: float
    peak_rru_per_second: float
    active_users: float

    @property
    def total_usd(self) -> float:
        return sum(self.monthly_usd.values())


def estimate(
    profile: TurnProfile, prices: Prices, assumptions: Assumptions, turns_per_day: int
) -> Estimate:
    a = assumptions
    month = turns_per_day * DAYS_PER_MONTH
    million = 1e6
    chat_seconds = profile.handler_ms_p50 / 1000 + a.model_seconds_per_turn
    authorizer_calls = (1 + a.memory_api_requests_per_turn) * (1 - a.authorizer_cache_hit_ratio)
    gb_seconds = (
        a.chat_memory_mb / 1024 * chat_seconds
        + a.authorizer_memory_mb / 1024 * a.authorizer_ms / 1000 * authorizer_calls
    )
    invocations = 1 + a.memory_api_requests_per_turn + authorizer_calls
    users = turns_per_day / a.turns_per_user_per_day
    stored_gb = (
        users * 2 * profile.document_item_bytes
        + turns_per_day * LEDGER_TTL_DAYS * (1 - profile.read_only_share) * LEDGER_ITEM_BYTES
    ) / 1e9
    costs = {
        "DynamoDB writes": month * profile.wru / million * prices.dynamodb_per_million_wru,
        "DynamoDB reads": month * profile.rru / million * prices.dynamodb_per_million_rru,
        "DynamoDB storage": stored_gb * prices.dynamodb_per_gb_month,
        "Lambda compute": month * gb_seconds * prices.lambda_per_gb_second,
        "Lambda requests": month * invocations / million * prices.lambda_per_million_requests,
        "API Gateway": month
        * (1 + a.memory_api_requests_per_turn)
        / million
        * prices.http_api_per_million_requests,
        "WebSocket": month
        / million
        * (
            a.streaming_minutes_per_turn * prices.websocket_per_million_connection_minutes
            + a.streaming_messages_per_turn * prices.websocket_per_million_messages
        ),
        "CloudWatch Logs": month * a.log_bytes_per_turn / 1e9 * prices.logs_per_gb_ingested,
    }
    peak = turns_per_day / 86_400 * a.peak_to_mean
    return Estimate(
        turns_per_day=turns_per_day,
        monthly_usd=costs,
        peak_turns_per_second=peak,
        peak_concurrency=peak * chat_seconds,
        peak_wru_per_second=peak * profile.wru,
        peak_rru_per_second=peak * profile.rru,
        active_users=users,
    )


def with_overrides(defaults: Any, overrides: Mapping[str, str]) -> Any:
    """``defaults`` (Prices or Assumptions) with NAME=VALUE overrides; unknown names raise."""
    known = {f.name: f for f in fields(defaults)}
    values: dict[str, Any] = {}
    for name, text in overrides.items():
        if name not in known:
            raise ValueError(f"unknown input {name!r} (known: {', '.join(sorted(known))})")
        kind = type(getattr(defaults, name))
        values[name] = kind(float(text)) if kind is int else kind(text)
    return replace(defaults, **values)


def render(
    profile: TurnProfile,
    prices: Prices,
    assumptions: Assumptions,
    volumes: Sequence[int] = VOLUMES,
) -> str:
    estimates = [estimate(profile, prices, assumptions, v) for v in volumes]
    lines = [
        f"Capacity model from load-test run {profile.run_id} ({profile.turns} turns)",
        "",
        "measured per turn: "
        f"{sum(profile.requests.values()):.2f} DynamoDB requests ("
        + ", ".join(f"{op} {n:.2f}" for op, n in sorted(profile.requests.items()))
        + f"), {profile.rru:.2f} RRU, {profile.wru:.2f} WRU;"
        f" committed {profile.committed_share:.0%}, read-only {profile.read_only_share:.0%};"
        f" {profile.documents_per_transaction:.2f} documents per commit,"
        f" document item {profile.document_item_bytes:.0f} B;"
        f" handler p50 {profile.handler_ms_p50:.0f} ms (p99 {profile.handler_ms_p99:.0f} ms,"
        " without the model)",
        "",
        "| monthly USD | " + " | ".join(f"{v:,} turns/day" for v in volumes) + " |",
        "|---|" + "---:|" * len(volumes),
    ]
    for name in estimates[0].monthly_usd:
        lines.append(
            f"| {name} | " + " | ".join(f"{e.monthly_usd[name]:,.2f}" for e in estimates) + " |"
        )
    lines.append("| **total** | " + " | ".join(f"**{e.total_usd:,.2f}**" for e in estimates) + " |")
    lines += [
        "",
        f"| at peak (x{assumptions.peak_to_mean:g} the mean) | "
        + " | ".join(f"{v:,}/day" for v in volumes)
        + " |",
        "|---|" + "---:|" * len(volumes),
        "| turns/s | " + " | ".join(f"{e.peak_turns_per_second:,.2f}" for e in estimates) + " |",
        "| chat Lambda concurrency | "
        + " | ".join(f"{e.peak_concurrency:,.0f}" for e in estimates)
        + " |",
        "| DynamoDB WRU/s (both tables) | "
        + " | ".join(f"{e.peak_wru_per_second:,.0f}" for e in estimates)
        + " |",
        "| DynamoDB RRU/s | "
        + " | ".join(f"{e.peak_rru_per_second:,.0f}" for e in estimates)
        + " |",
        "| active users | " + " | ".join(f"{e.active_users:,.0f}" for e in estimates) + " |",
        "",
        "prices: " + ", ".join(f"{k}={v:g}" for k, v in asdict(prices).items()),
        "assumptions: " + ", ".join(f"{k}={v:g}" for k, v in asdict(assumptions).items()),
        "(the model's own price, Bedrock tokens, is not included: it is usually most of it)",
    ]
    return "\n".join(lines)
