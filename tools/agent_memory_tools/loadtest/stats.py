"""The summary figures of a run: throughput, latency percentiles, outcomes, commit effort."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from agent_memory_tools.loadtest.config import KINDS
from agent_memory_tools.loadtest.record import RunRecord, TurnRecord

MAX_TIMELINE_BUCKETS = 60
BUCKET_WIDTHS = (0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600)

DEFINITIONS = {
    "latency_ms": (
        "in-process: authorizer + handler time of one invocation in a warm worker (no"
        " network); http: the client's time from request to full response"
    ),
    "latency_ms_without_sleep": "as latency_ms, without the cancel turns (they sleep 1 s)",
    "turns_per_second": "finished turns / wall time from the first dispatch to the last answer",
    "commit.re_attempts": (
        "retry_count of the turn's `memory turn` log record: resends of the same transaction"
        " (retries) plus reload-and-reapply rounds (replays)"
    ),
    "commit.replays": (
        "re-applications of the batch on a newer snapshot (replay_count of the `memory turn`"
        " record; a replay reads the documents again only when the failed attempt's answer"
        " did not carry them)"
    ),
    "commit.retries": "re_attempts minus replays (same-request resends after conflicts/throttling)",
    "tenths": (
        "the finished turns in ten equal parts by finishing time: turns/s over each part's"
        " wall time and its p50 latency; last/first compares the last tenth with the first."
        " In-process also the CPU time per turn: the workers' (the handlers) and the load"
        " test's own process (its driver and the moto server), which other load on the"
        " machine does not change as it changes wall time; and turns/s without the cancel"
        " turns' sleep (their slot-seconds asleep taken off each tenth's wall time: they"
        " start early and finish from the second tenth on)"
    ),
    "peak_rss_mb": (
        "peak resident memory (ru_maxrss) of the load-test process (in-process: with the moto"
        " server inside) and of the largest worker process"
    ),
    "dynamodb_requests_per_turn": (
        "HTTP requests the invocation's DynamoDB clients sent (botocore before-send, SDK"
        " retries included), averaged over turns"
    ),
}


def percentile(ordered: Sequence[float], p: float) -> float:
    """Nearest-rank percentile of an ascending sequence (0 when empty)."""
    if not ordered:
        return 0.0
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return float(ordered[min(rank, len(ordered)) - 1])


def latency_summary(values: Iterable[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "count": len(ordered),
        "p50": round(percentile(ordered, 50), 2),
        "p95": round(percentile(ordered, 95), 2),
        "p99": round(percentile(ordered, 99), 2),
        "max": round(ordered[-1], 2) if ordered else 0.0,
        "mean": round(sum(ordered) / len(ordered), 2) if ordered else 0.0,
    }


def summarize(
    record: RunRecord,
    *,
    seconds: float,
    planned: int,
    stopped_early: bool,
    measures_requests: bool,
    concurrency: int | None = None,
) -> dict[str, Any]:
    turns = record.finished_turns()
    latencies = [t.latency_ms for t in turns if t.latency_ms is not None]
    return {
        "turns": len(turns),
        "planned_turns": planned,
        "stopped_early": stopped_early,
        "seconds": round(seconds, 3),
        "turns_per_second": round(len(turns) / seconds, 2) if seconds > 0 else 0.0,
        "latency_ms": latency_summary(latencies),
        "latency_ms_without_sleep": latency_summary(
            t.latency_ms for t in turns if t.latency_ms is not None and not t.sleep_seconds
        ),
        "outcomes": dict(Counter(t.status or "?" for t in turns).most_common()),
        "outcome_classes": dict(Counter(t.outcome for t in turns).most_common()),
        "by_kind": _by_kind(turns),
        "conversions": dict(
            Counter(f"{t.planned_kind}->{t.kind}" for t in turns if t.planned_kind != t.kind)
        ),
        "cancel_answers": dict(
            Counter(t.cancel_answer or "not sent" for t in turns if t.cancel_after is not None)
        ),
        "commit": _commit(turns) if measures_requests else None,
        "dynamodb_requests_per_turn": _requests(turns) if measures_requests else None,
        "timeline": timeline(turns, seconds),
        "tenths": tenths(turns, concurrency=concurrency),
    }


def tenths(
    turns: Sequence[TurnRecord], *, concurrency: int | None = None
) -> list[dict[str, float]]:
    """Turns/s and p50 latency of each tenth of the run's turns, in the order they finished:
    a per-turn cost that grows with the turns served shows as falling throughput.

    With ``concurrency``, also the turns/s of the time the slots were not held by the cancel
    turns' sleeps (``sleep_seconds``, counted in the tenth the turn finished in): those turns
    start in the first tenth and finish from the second on, so they take capacity from the
    later tenths that no per-turn cost explains."""
    done = sorted(
        (t for t in turns if t.finished is not None and t.latency_ms is not None),
        key=lambda t: t.finished or 0.0,
    )
    if len(done) < 10:
        return []
    result = []
    previous_end = 0.0
    previous_host_cpu = min((t.host_cpu_s for t in done if t.host_cpu_s is not None), default=None)
    for tenth in range(10):
        part = done[tenth * len(done) // 10 : (tenth + 1) * len(done) // 10]
        end = part[-1].finished or 0.0
        span = max(end - previous_end, 1e-9)
        figures: dict[str, float] = {
            "turns": len(part),
            "turns_per_second": round(len(part) / span, 2),
            "p50_ms": round(percentile(sorted(t.latency_ms or 0.0 for t in part), 50), 1),
        }
        if concurrency:
            asleep = sum(t.sleep_seconds for t in part) / concurrency
            figures["turns_per_second_without_sleep"] = round(
                len(part) / max(span - asleep, 1e-9), 2
            )
        worker_cpu = [t.cpu_ms for t in part if t.cpu_ms is not None]
        if worker_cpu:
            figures["worker_cpu_ms_per_turn"] = round(sum(worker_cpu) / len(worker_cpu), 2)
        host_cpu = max((t.host_cpu_s for t in part if t.host_cpu_s is not None), default=None)
        if host_cpu is not None and previous_host_cpu is not None:
            spent_ms = (host_cpu - previous_host_cpu) * 1000
            figures["host_cpu_ms_per_turn"] = round(spent_ms / len(part), 2)
            previous_host_cpu = host_cpu
        result.append(figures)
        previous_end = end
    return result


def _by_kind(turns: Sequence[TurnRecord]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for kind in KINDS:
        of_kind = [t for t in turns if t.kind == kind]
        if not of_kind:
            continue
        result[kind] = {
            "turns": len(of_kind),
            "outcomes": dict(Counter(t.status or "?" for t in of_kind).most_common()),
            "latency_ms": latency_summary(
                t.latency_ms for t in of_kind if t.latency_ms is not None
            ),
        }
    return result


def _commit(turns: Sequence[TurnRecord]) -> dict[str, Any]:
    measured = [t for t in turns if t.retry_count is not None]
    committed = [t for t in measured if t.outcome == "committed"]
    re_attempts = [t.retry_count or 0 for t in measured]
    return {
        "turns_measured": len(measured),
        "re_attempts": sum(re_attempts),
        "retries": sum(t.retries or 0 for t in measured),
        "replays": sum(t.replays or 0 for t in measured),
        "turns_with_re_attempts": sum(1 for n in re_attempts if n),
        "max_re_attempts_in_a_turn": max(re_attempts, default=0),
        "re_attempts_per_committed_turn": (
            round(sum(t.retry_count or 0 for t in committed) / len(committed), 3)
            if committed
            else 0.0
        ),
    }


def _requests(turns: Sequence[TurnRecord]) -> dict[str, Any]:
    def mean_of(group: Sequence[TurnRecord]) -> float | None:
        counted = [sum(t.requests.values()) for t in group if t.requests is not None]
        return round(sum(counted) / len(counted), 2) if counted else None

    by_operation: Counter[str] = Counter()
    counted = [t for t in turns if t.requests is not None]
    for turn in counted:
        by_operation.update(turn.requests or {})
    return {
        "all_turns": mean_of(turns),
        "read_only_turns": mean_of(
            [t for t in turns if t.kind == "read" and t.status == "unchanged"]
        ),
        # Chat turns (an undo, approve or reject is a request of its own: see by_kind).
        "committed_turns": mean_of(
            [t for t in turns if t.outcome == "committed" and t.request is None]
        ),
        "committed_turns_without_re_attempts": mean_of(
            [
                t
                for t in turns
                if t.outcome == "committed" and t.request is None and not t.retry_count
            ]
        ),
        # Mean requests per turn of each kind that was sent (undo, approve and reject are the
        # user-control requests, not chat turns).
        "by_kind": {
            kind: mean_of(of_kind)
            for kind in KINDS
            if (of_kind := [t for t in turns if t.kind == kind and t.requests is not None])
        },
        "by_operation_per_turn": {
            op: round(n / len(counted), 3) for op, n in sorted(by_operation.items())
        }
        if counted
        else {},
    }


def timeline(turns: Sequence[TurnRecord], seconds: float) -> dict[str, Any]:
    """Outcomes by the time the turns finished, in at most ``MAX_TIMELINE_BUCKETS`` buckets."""
    wanted = max(seconds, 1e-9) / MAX_TIMELINE_BUCKETS
    width = float(next((w for w in BUCKET_WIDTHS if w >= wanted), math.ceil(wanted)))
    buckets: dict[int, Counter[str]] = {}
    for turn in turns:
        if turn.finished is None:
            continue
        buckets.setdefault(int(turn.finished // width), Counter())[turn.status or "?"] += 1
    count = int(max(buckets, default=-1)) + 1
    return {
        "bucket_seconds": width,
        "buckets": [dict(buckets.get(i, Counter())) for i in range(count)],
    }
