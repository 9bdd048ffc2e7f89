"""The JSON report and the printed summary of a run."""

from __future__ import annotations

import json
import os
import platform
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agent_memory_tools.loadtest.checker import Check
from agent_memory_tools.loadtest.config import LoadTestConfig
from agent_memory_tools.loadtest.record import RunRecord
from agent_memory_tools.loadtest.runner import DocumentsRead

REPORT_VERSION = 1


def machine() -> dict[str, Any]:
    return {
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "system": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
    }


def build_report(
    *,
    config: LoadTestConfig,
    target: Mapping[str, Any],
    summary: Mapping[str, Any],
    definitions: Mapping[str, str],
    checks: Sequence[Check],
    record: RunRecord,
    final: Mapping[int, DocumentsRead],
    started_at: str,
) -> dict[str, Any]:
    return {
        "report_version": REPORT_VERSION,
        "run_id": config.run_id,
        "started_at": started_at,
        "passed": all(check.passed for check in checks),
        "config": {
            "users": config.users,
            "turns_per_user": config.turns,
            "concurrency": config.concurrency,
            "seed": config.seed,
            "mix": config.mix.as_dict(),
            "duration_limit": config.duration_limit,
            "same_user_in_flight": config.same_user_in_flight,
        },
        "target": dict(target),
        "machine": machine(),
        "summary": dict(summary),
        "definitions": dict(definitions),
        "checks": [check.as_dict() for check in checks],
        "turns": [
            turn.as_dict() for turn in sorted(record.turns.values(), key=lambda t: (t.user, t.turn))
        ],
        "final_documents": {
            str(user): (
                {"entries": dict(read.documents.entries)}
                if read.documents
                else {"error": read.error}
            )
            for user, read in sorted(final.items())
        },
    }


def write_report(report: Mapping[str, Any], directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"loadtest-{report['run_id']}.json"
    path.write_text(json.dumps(report, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    return path


def summary_text(report: Mapping[str, Any], files: Sequence[str]) -> str:
    summary = report["summary"]
    config = report["config"]
    target = report["target"]
    latency = summary["latency_ms"]
    quiet = summary["latency_ms_without_sleep"]
    lines = [
        f"agent-memory loadtest {report['run_id']}: {config['users']} users x"
        f" {config['turns_per_user']} turns, {config['concurrency']} in flight"
        f" (up to {config['same_user_in_flight']} per user), seed {config['seed']},"
        f" target {_describe_target(target)}",
        f"  turns           {summary['turns']} of {summary['planned_turns']} in"
        f" {summary['seconds']:.1f} s = {summary['turns_per_second']:.1f} turns/s"
        + ("  (stopped at the duration limit)" if summary["stopped_early"] else ""),
        f"  latency ms      p50 {latency['p50']:.0f}  p95 {latency['p95']:.0f}"
        f"  p99 {latency['p99']:.0f}  max {latency['max']:.0f}"
        f"   (without cancel turns' 1 s sleep: p50 {quiet['p50']:.0f}"
        f"  p95 {quiet['p95']:.0f}  p99 {quiet['p99']:.0f})",
        "  outcomes        " + _counts(summary["outcomes"]),
        "  by kind         "
        + "; ".join(
            f"{kind} {data['turns']} ({_counts(data['outcomes'])})"
            for kind, data in summary["by_kind"].items()
        ),
    ]
    parts = summary.get("tenths") or []
    if parts:
        ratio = parts[-1]["turns_per_second"] / max(parts[0]["turns_per_second"], 1e-9)
        lines.append(
            "  per tenth       turns/s "
            + " ".join(f"{p['turns_per_second']:.1f}" for p in parts)
            + f"  (last/first {ratio:.2f})"
        )
        lines.append("                  p50 ms  " + " ".join(f"{p['p50_ms']:.0f}" for p in parts))
        if all("turns_per_second_without_sleep" in p for p in parts):
            awake = [p["turns_per_second_without_sleep"] for p in parts]
            lines.append(
                "                  turns/s without the cancel turns' sleep "
                + " ".join(f"{v:.1f}" for v in awake)
                + f"  (last/first {awake[-1] / max(awake[0], 1e-9):.2f})"
            )
        if all("worker_cpu_ms_per_turn" in p for p in parts):
            lines.append(
                "                  CPU ms/turn, workers "
                + " ".join(f"{p['worker_cpu_ms_per_turn']:.1f}" for p in parts)
            )
        if all("host_cpu_ms_per_turn" in p for p in parts[1:]) and len(parts) > 1:
            lines.append(
                "                  CPU ms/turn, load test + moto "
                + " ".join(f"{p.get('host_cpu_ms_per_turn', 0.0):.1f}" for p in parts)
            )
    cost = summary.get("memory_cost")
    if cost:
        lines.append(
            f"  memory cost     p50 {cost['on_p50_ms']:.0f} ms on vs {cost['off_p50_ms']:.0f} ms"
            f" off (x{cost['p50_ratio']:.2f}), p99 {cost['on_p99_ms']:.0f} vs"
            f" {cost['off_p99_ms']:.0f} ms (x{cost['p99_ratio']:.2f}), without cancel turns"
        )
    streaming = summary.get("streaming")
    if streaming:
        lines.extend(_streaming_lines(streaming))
    rss = summary.get("peak_rss_mb")
    if rss:
        lines.append(
            f"  peak memory     load test {rss['load_test']:.0f} MB"
            + (f", largest worker {rss['worker']:.0f} MB" if rss.get("worker") else "")
            + " resident"
        )
    if summary["cancel_answers"]:
        lines.append("  cancel answers  " + _counts(summary["cancel_answers"]))
    if summary["conversions"]:
        lines.append(
            "  re-planned      "
            + _counts(summary["conversions"])
            + "  (no confirmed fact to target yet, or a store near its limit)"
        )
    commit = summary.get("commit")
    if commit:
        lines.append(
            f"  commit          {commit['re_attempts']} re-attempts = {commit['retries']}"
            f" retries + {commit['replays']} replays, in {commit['turns_with_re_attempts']}"
            f" turns (max {commit['max_re_attempts_in_a_turn']} in one turn;"
            f" {commit['re_attempts_per_committed_turn']:.2f} per committed turn)"
        )
    else:
        lines.append(
            "  commit          retries, replays and DynamoDB requests are not visible over HTTP"
            " (the in-process target measures them)"
        )
    requests = summary.get("dynamodb_requests_per_turn")
    if requests:
        lines.append(
            f"  DynamoDB        {requests['all_turns']} requests per turn"
            f" (read-only {requests['read_only_turns']},"
            f" committed {requests['committed_turns']},"
            f" committed without re-attempts {requests['committed_turns_without_re_attempts']})"
        )
        if requests.get("by_kind"):
            lines.append(
                "  requests/turn   "
                + "; ".join(f"{kind} {mean}" for kind, mean in requests["by_kind"].items())
            )
    lines.append("  checks")
    for check in report["checks"]:
        mark = "ok  " if check["passed"] else "FAIL"
        lines.append(f"    {mark} {check['name']}: {check['description']}")
        for violation in check["violations"]:
            lines.append(f"         - {violation}")
        hidden = check["violation_count"] - len(check["violations"])
        if hidden > 0:
            lines.append(f"         ... and {hidden} more (see the report)")
    for name in files:
        lines.append(f"  wrote           {name}")
    verdict = (
        "PASSED"
        if report["passed"]
        else "FAILED: "
        + ", ".join(check["name"] for check in report["checks"] if not check["passed"])
    )
    lines.append(f"  result          {verdict}")
    return "\n".join(lines)


def _streaming_lines(streaming: Mapping[str, Any]) -> list[str]:
    first = streaming["time_to_first_delta_ms_without_sleep"]
    lines = [
        f"  streamed        {streaming['streamed_turns']} turns over the WebSocket function,"
        f" {streaming['disconnected_turns']} of them dropped by their client mid-stream;"
        f" deltas not the reply: {streaming['deltas_not_the_reply']}",
        f"  first delta     p50 {first['p50']:.0f} ms, p95 {first['p95']:.0f} ms,"
        f" p99 {first['p99']:.0f} ms (turns without a sleep)",
    ]
    http = streaming.get("http")
    if http:
        ratio = streaming["turns_per_second"] / max(http["turns_per_second"], 1e-9)
        lines.append(
            f"  streamed/HTTP   {streaming['turns_per_second']:.1f} vs"
            f" {http['turns_per_second']:.1f} turns/s (x{ratio:.2f}); p50 without sleep"
            f" {http['latency_ms_without_sleep']['p50']:.0f} ms over HTTP"
        )
    return lines


def _counts(counts: Mapping[str, Any]) -> str:
    return ", ".join(f"{name} {value}" for name, value in counts.items()) or "none"


def _describe_target(target: Mapping[str, Any]) -> str:
    if target.get("kind") == "http":
        return f"{target.get('url')} (HTTP)"
    dynamodb = target.get("dynamodb", {})
    return f"in-process ({target.get('environments')} workers, DynamoDB: {dynamodb.get('kind')})"


def stderr_is_tty() -> bool:
    return sys.stderr.isatty()
